//===- norm-runner.cpp - run, check and time norm kernels -----------------===//
//
// Part of the norm-mlir project.
//
// norm-runner SPEC.mlir [--entry NAME]
//   --input A.npy ... --output Y.npy ...   run once on files
//   --check [--seed N] [--shape AxB ...] [--json F]   fp64-reference checks
//   --bench [--shape AxB ...] [--json F]   GB/s against a copy roofline
// Exit status: 0 success, 1 a check failed, 2 bad usage or input.
//
//===----------------------------------------------------------------------===//

#include "../HelpOptions.h"
#include "norm/Analysis/EntryAnalysis.h"
#include "norm/Compiler/Registration.h"
#include "norm/Harness/CudaKernel.h"
#include "norm/Harness/Harness.h"
#include "norm/IR/NormDialect.h"
#include "norm/JIT/Kernel.h"
#include "norm/Runtime/CudaRuntime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

using namespace mlir;
using namespace mlir::norm;
namespace cl = llvm::cl;

// --help lists these; LLVM's own options stay behind --help-hidden.
static cl::OptionCategory runnerCategory("norm-runner options");

static cl::opt<std::string> specFile(cl::Positional, cl::cat(runnerCategory),
                                     cl::desc("<spec.mlir>"), cl::Required);
static cl::opt<std::string> entryName("entry", cl::cat(runnerCategory),
                                      cl::desc("The function to run (default: "
                                               "the first one)"),
                                      cl::init(""));
static cl::list<std::string>
    inputFiles("input", cl::cat(runnerCategory),
               cl::desc("An argument, as .npy, in "
                        "order (bf16 as uint16 bits)"));
static cl::list<std::string> outputFiles("output", cl::cat(runnerCategory),
                                         cl::desc("Where to write a result "
                                                  "(.npy), in order"));
static cl::opt<bool> check("check", cl::cat(runnerCategory),
                           cl::desc("Check against the fp64 reference on "
                                    "random and adversarial inputs"));
static cl::opt<bool>
    bench("bench", cl::cat(runnerCategory),
          cl::desc("Time the kernel against a same-process copy of "
                   "the same byte count with the same threads"));
static cl::opt<double>
    benchSeconds("bench-seconds", cl::cat(runnerCategory),
                 cl::desc("Minimum measured time per shape for --bench"),
                 cl::init(0.2));
static cl::opt<uint64_t> seed("seed", cl::cat(runnerCategory),
                              cl::desc("Seed of the --check inputs"),
                              cl::init(20261129));
static cl::list<std::string>
    shapes("shape", cl::cat(runnerCategory),
           cl::desc("A shape of the input for --check, as AxBxC "
                    "(default: a sweep over the dynamic dims)"));
static cl::opt<std::string> jsonFile("json", cl::cat(runnerCategory),
                                     cl::desc("Write the --check report as "
                                              "JSON to this file"),
                                     cl::init(""));
static cl::opt<std::string>
    target("target", cl::cat(runnerCategory),
           cl::desc("cpu (JIT) or cuda (JIT host code, PTX kernels, on the "
                    "first GPU through norm_cuda_runtime)"),
           cl::init("cpu"));
static cl::opt<double> gpuBenchMs(
    "gpu-bench-ms", cl::cat(runnerCategory),
    cl::desc("With --target=cuda --bench: milliseconds per timed batch"),
    cl::init(20));
static cl::opt<bool> openmp("openmp", cl::cat(runnerCategory),
                            cl::desc("Compile with OpenMP parallel loops"));
static cl::opt<bool>
    vectorKernels("vector-kernels", cl::cat(runnerCategory),
                  cl::desc("Lower the ops that have one to CPU vector kernels; "
                           "--vector-kernels=0 forces the linalg path"),
                  cl::init(true));
static cl::opt<bool> tiledLinalg(
    "tiled-linalg", cl::cat(runnerCategory),
    cl::desc("Tile the ops whose innermost dim is not reduced over threads "
             "and vectorize them (given statistics always, computed ones "
             "with --openmp); --tiled-linalg=0 lowers them through serial "
             "linalg loops"),
    cl::init(true));
static cl::opt<std::string> dumpObject(
    "dump-object", cl::cat(runnerCategory),
    cl::desc("Write the JIT-compiled kernel as an object file to this path "
             "(link it into a C driver calling _mlir_ciface_<entry> to "
             "profile it with symbols)"),
    cl::init(""));
static cl::opt<std::string> prePipeline(
    "pre-pipeline", cl::cat(runnerCategory),
    cl::desc("A pass pipeline run on the spec before the target's lowering "
             "(e.g. transform-interpreter, or a test pass)"),
    cl::init(""));

namespace mlir::norm::test {
// The test passes of test/lib (TestPasses.cpp).
void registerTestPasses();
} // namespace mlir::norm::test

static int fail(const llvm::Twine &message) {
  llvm::errs() << "norm-runner: error: " << message << "\n";
  return 2;
}

static std::optional<std::vector<int64_t>> parseShape(llvm::StringRef text) {
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, 'x');
  for (llvm::StringRef part : parts) {
    int64_t v;
    if (part.getAsInteger(10, v) || v < 0)
      return std::nullopt;
    shape.push_back(v);
  }
  return shape;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  norm_tools::hideLibraryOptions(&runnerCategory);
  // --pre-pipeline names passes: upstream's, norm's and the test passes.
  registerCompilerPasses();
  test::registerTestPasses();
  cl::ParseCommandLineOptions(argc, argv, "norm-mlir kernel runner\n");

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(specFile, sourceMgr, &context);
  if (!module)
    return fail("cannot parse " + specFile);

  func::FuncOp entry;
  for (auto func : module->getOps<func::FuncOp>())
    if (!func.isDeclaration() &&
        (entryName.empty() || func.getSymName() == entryName)) {
      entry = func;
      break;
    }
  if (!entry)
    return fail(entryName.empty() ? "the spec has no function"
                                  : "no function @" + entryName);

  std::optional<EntryAnalysis> analysis;
  llvm::Expected<EntryAnalysis> analyzed = analyzeEntry(entry);
  if (analyzed)
    analysis = std::move(*analyzed);
  else if (check)
    return fail("--check: " + llvm::toString(analyzed.takeError()));
  else
    llvm::consumeError(analyzed.takeError());

  if (target != "cpu" && target != "cuda")
    return fail("--target: '" + target + "' is neither cpu nor cuda");
  bool onDevice = target == "cuda";
  if (onDevice && (openmp || !dumpObject.empty()))
    return fail("--openmp and --dump-object are CPU options");
  KernelOptions kernelOptions;
  kernelOptions.pipeline.target = target;
  kernelOptions.pipeline.openmp = openmp;
  kernelOptions.pipeline.vectorKernels = vectorKernels;
  kernelOptions.pipeline.tiledLinalg = tiledLinalg;
  kernelOptions.prePipeline = prePipeline;
  kernelOptions.objectPath = dumpObject;
  if (!dumpObject.empty()) {
    // The engine reports a file it cannot write on stderr and goes on.
    std::error_code ec;
    llvm::raw_fd_ostream probe(dumpObject, ec);
    if (ec)
      return fail("--dump-object: cannot write " + dumpObject + ": " +
                  ec.message());
  }
  auto kernel = Kernel::compile(*module, entry.getSymName(), kernelOptions);
  if (!kernel)
    return fail(llvm::toString(kernel.takeError()));

  // The GPU kernel: the JIT host code on device copies of the arrays. It is
  // compiled before the driver is looked for, so that compile errors show
  // on machines without one too.
  std::unique_ptr<CudaKernel> cudaKernel;
  if (onDevice) {
    Kernel *jit = kernel->get();
    cudaKernel = std::make_unique<CudaKernel>(
        entry.getSymName().str(), jit->arguments(), jit->results(),
        jit->callContract(),
        [jit](const std::vector<void *> &buffers,
              const std::vector<std::vector<int64_t>> &shapes,
              void *stream) -> llvm::Error {
          void *previous = normCudaGetStream();
          normCudaSetStream(stream);
          llvm::Error error = jit->callOnBuffers(buffers, shapes);
          normCudaSetStream(previous);
          if (error)
            return error;
          if (normCudaGetError())
            return takeCudaError("running the kernel");
          return llvm::Error::success();
        },
        jit->compileSeconds());
    if (!normCudaAvailable())
      return fail("--target=cuda: no usable GPU: " +
                  llvm::Twine(normCudaGetError()));
  }
  KernelInterface &runnable =
      cudaKernel ? static_cast<KernelInterface &>(*cudaKernel) : **kernel;

  std::vector<std::vector<int64_t>> parsedShapes;
  for (const std::string &s : shapes) {
    std::optional<std::vector<int64_t>> shape = parseShape(s);
    if (!shape)
      return fail("--shape: '" + s + "' is not a shape like 4x768");
    parsedShapes.push_back(*shape);
  }
  if (check && bench)
    return fail("--check and --bench are separate runs");
  if (bench) {
    if (!analysis)
      return fail("--bench: the entry is not one the harness understands");
    BenchOptions options;
    options.seed = seed;
    options.shapes = parsedShapes;
    options.minSeconds = benchSeconds;
    options.jsonPath = jsonFile;
    // The copy uses as many threads as the kernel's OpenMP runtime will.
    if (openmp)
      if (const char *env = std::getenv("OMP_NUM_THREADS"))
        options.threads = std::max(1, std::atoi(env));
    if (openmp && options.threads == 1)
      options.threads = std::max(1u, std::thread::hardware_concurrency());
    if (cudaKernel) {
      std::vector<std::vector<int64_t>> benchShapes = parsedShapes;
      if (benchShapes.empty()) {
        std::vector<int64_t> shape;
        const TensorSignature &x = cudaKernel->arguments().front();
        for (int64_t d : x.shape)
          shape.push_back(isDynamicDim(d) ? 1024 : d);
        benchShapes.push_back(shape);
      }
      llvm::outs() << "norm-runner: @" << entry.getSymName() << " of "
                   << specFile << " on the GPU\n";
      llvm::json::Array rows;
      int status = runCudaBench(*cudaKernel, *analysis, benchShapes, gpuBenchMs,
                                llvm::outs(), rows);
      if (!jsonFile.empty()) {
        std::error_code ec;
        llvm::raw_fd_ostream os(jsonFile, ec);
        if (ec)
          return fail("--json: cannot write " + jsonFile + ": " + ec.message());
        os << llvm::formatv("{0:2}", llvm::json::Value(std::move(rows)))
           << "\n";
      }
      return status;
    }
    llvm::outs() << "norm-runner: @" << entry.getSymName() << " of " << specFile
                 << ", " << options.threads << " thread(s)\n";
    return runBench(**kernel, *analysis, options, llvm::outs());
  }
  if (check) {
    CheckOptions options;
    options.seed = seed;
    options.jsonPath = jsonFile;
    options.shapes = parsedShapes;
    llvm::outs() << "norm-runner: @" << entry.getSymName() << " of " << specFile
                 << "\n";
    return runCheck(runnable, *analysis, options, llvm::outs());
  }
  if (inputFiles.empty() && outputFiles.empty())
    return fail("nothing to do: give --check, or --input/--output files");
  if (llvm::Error e = runFiles(runnable, analysis, inputFiles, outputFiles))
    return fail(llvm::toString(std::move(e)));
  return 0;
}
