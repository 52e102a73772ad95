//===- norm-compile.cpp - ahead-of-time compiler for norm specs -----------===//
//
// Part of the norm-mlir project.
//
// norm-compile SPEC.mlir --target=cpu|cuda -o OUT writes, for every public
// function of the spec:
//   OUT.o          x86-64 code (PIC): for cpu the kernels for this host's
//                  vector width (serial, or OpenMP with --openmp); for cuda
//                  host code with the GPU kernels embedded (PTX by default,
//                  or cubin/fatbin); and the C-interface entry points
//   OUT.h          a C header: one launcher per function, documented with
//                  its shapes, dtypes and the op it computes
//   OUT_launch.c   the launchers, in plain C (pointers, the dynamic dims, a
//                  thread count for cpu or a stream for cuda)
//   OUT.json       what each function computes, for harnesses without MLIR
//                  (the GPU bundle checks the kernels against the reference)
// Callers need no MLIR header or library: cuda code links norm_cuda_runtime
// (no CUDA at link time), cpu code libomp with --openmp, else nothing. The
// compiler itself is NormCompiler (norm/Compiler/AheadOfTime.h), which the C
// API shares.
//
//===----------------------------------------------------------------------===//

#include "../HelpOptions.h"
#include "norm/Compiler/AheadOfTime.h"
#include "norm/Compiler/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

// --help lists these; LLVM's own options stay behind --help-hidden.
static cl::OptionCategory compileCategory("norm-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(compileCategory),
                                      cl::desc("<spec.mlir>"), cl::Required);
static cl::opt<std::string>
    outputBase("o", cl::cat(compileCategory),
               cl::desc("Output path without extension"), cl::Required);
static cl::opt<std::string>
    target("target", cl::cat(compileCategory),
           cl::desc("What to compile for: cpu (this host's vector width) or "
                    "cuda"),
           cl::init("cuda"));
static cl::opt<bool>
    openmp("openmp", cl::cat(compileCategory),
           cl::desc("--target=cpu: parallel loops on OpenMP threads "
                    "(link libomp); serial otherwise"));
static cl::opt<bool> cpuDispatch(
    "cpu-dispatch", cl::cat(compileCategory),
    cl::desc("--target=cpu: compile for every x86-64 level (SSE2, AVX2, "
             "AVX-512) and pick the CPU's best when the library is loaded "
             "(NORM_CPU_LEVEL may name a lower one); else this host's level"));
static cl::opt<std::string>
    gpuFormat("gpu-format", cl::cat(compileCategory),
              cl::desc("Embedded kernels: isa (PTX, JIT-compiled by the "
                       "driver at load), bin (cubin) or fatbin"),
              cl::init("isa"));
static cl::opt<std::string> chip("chip", cl::cat(compileCategory),
                                 cl::desc("GPU architecture"),
                                 cl::init("sm_90"));
static cl::opt<bool> libraries(
    "libraries", cl::cat(compileCategory),
    cl::desc("Also compile the launchers with the C compiler (clang or cc "
             "on PATH) and write libOUT.a and libOUT.so"),
    cl::init(true));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  norm_tools::hideLibraryOptions(&compileCategory);
  cl::ParseCommandLineOptions(argc, argv, "norm-mlir ahead-of-time compiler\n");

  if (target != "cuda" && target != "cpu") {
    llvm::errs() << "norm-compile: --target=" << target
                 << " is not supported (supported: cpu, cuda)\n";
    return 1;
  }
  if (cpuDispatch && target == "cuda") {
    llvm::errs() << "norm-compile: --cpu-dispatch is a --target=cpu option\n";
    return 1;
  }
  if (openmp && target == "cuda") {
    llvm::errs() << "norm-compile: --openmp is a --target=cpu option\n";
    return 1;
  }

  DialectRegistry registry;
  norm::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return 1;

  norm::AheadOfTimeOptions options;
  options.target = target;
  options.openmp = openmp;
  options.gpuFormat = gpuFormat;
  options.chip = chip;
  options.libraries = libraries;
  options.cpuDispatch = cpuDispatch;
  return failed(norm::compileAheadOfTime(*module, outputBase, options)) ? 1 : 0;
}
