//===- Kernel.cpp - JIT-compiled norm kernels -----------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/JIT/Kernel.h"

#include "norm/Analysis/CallContractAnalysis.h"
#include "norm/Analysis/EntryAnalysis.h"
#include "norm/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::norm;

Kernel::~Kernel() = default;

/// norm_cuda_runtime next to the code running this (libNormCAPI.so in an
/// installed lib/ or a Python package's _lib/) or in ../lib from it (an
/// installed or build-tree bin/), else where the build put it.
static std::string findCudaRuntimeLibrary() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&findCudaRuntimeLibrary), &info) &&
      info.dli_fname) {
    SmallString<256> directory(info.dli_fname);
    llvm::sys::path::remove_filename(directory);
    for (StringRef relative :
         {"libnorm_cuda_runtime.so", "../lib/libnorm_cuda_runtime.so"}) {
      SmallString<256> candidate(directory);
      llvm::sys::path::append(candidate, relative);
      if (llvm::sys::fs::exists(candidate))
        return std::string(candidate);
    }
  }
  return NORM_CUDA_RUNTIME_LIBRARY;
}

static std::string diagnosticsOf(llvm::StringRef what) { return what.str(); }

llvm::Expected<std::unique_ptr<Kernel>>
Kernel::compile(ModuleOp module, llvm::StringRef entry,
                const KernelOptions &options) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Kernel> kernel(new Kernel());

  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return llvm::createStringError(
        diagnosticsOf("no function @" + entry.str() + " in the spec"));
  for (Type t : func.getArgumentTypes()) {
    llvm::Expected<TensorSignature> sig = getTensorSignature(t);
    if (!sig)
      return sig.takeError();
    kernel->args.push_back(*sig);
  }
  for (Type t : func.getResultTypes()) {
    llvm::Expected<TensorSignature> sig = getTensorSignature(t);
    if (!sig)
      return sig.takeError();
    kernel->outs.push_back(*sig);
  }
  llvm::Expected<CallContract> contract = deriveCallContract(func);
  if (!contract)
    return contract.takeError();
  kernel->contract = std::move(*contract);

  // Lower a copy holding only the entry function.
  OwningOpRef<ModuleOp> lowered = module.clone();
  for (auto f : llvm::make_early_inc_range(lowered->getOps<func::FuncOp>()))
    if (f.getSymName() != entry)
      f.erase();
  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  if (llvm::Error error = verifyTargetPipelineOptions(options.pipeline))
    return std::move(error);
  kernel->onDevice = options.pipeline.target == "cuda";
  if (kernel->onDevice) {
    // Kernels are serialized (NVVM target, GPU and NVVM translations) and
    // embedded in the host code.
    registerAllToLLVMIRTranslations(registry);
    NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  }
  ctx->appendDialectRegistry(registry);

  // A user's pre-pipeline is verified after each of its passes: it is not
  // among the passes tested so.
  if (!options.prePipeline.empty()) {
    PassManager prePm(ctx);
    std::string message;
    llvm::raw_string_ostream os(message);
    if (failed(parsePassPipeline(options.prePipeline, prePm, os)))
      return llvm::createStringError("--pre-pipeline: " + message);
    if (failed(prePm.run(*lowered)))
      return llvm::createStringError(
          diagnosticsOf("the pre-pipeline failed on @" + entry.str()));
  }
  PassManager pm(ctx);
  if (llvm::Error error = buildLowerToTargetPipeline(pm, options.pipeline))
    return std::move(error);
  if (failed(runVerifiedAtEnds(pm, *lowered)))
    return llvm::createStringError(
        diagnosticsOf("lowering @" + entry.str() + " failed"));

  static bool targetsInitialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetsInitialized;
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return tm.takeError();

  auto transformer = makeOptimizingTransformer(kLLVMOptLevel, 0, tm->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.enableObjectDump = !options.objectPath.empty();
  std::string cudaRuntimeLibrary = findCudaRuntimeLibrary();
  SmallVector<StringRef> libs;
  if (options.pipeline.openmp)
    libs.push_back(NORM_OPENMP_LIBRARY);
  if (kernel->onDevice)
    libs.push_back(cudaRuntimeLibrary);
  engineOptions.sharedLibPaths = libs;
  auto engine =
      ExecutionEngine::create(*lowered, engineOptions, std::move(*tm));
  if (!engine)
    return engine.takeError();
  kernel->engine = std::move(*engine);
  kernel->symbol = ("_mlir_ciface_" + entry).str();
  if (llvm::Error e = kernel->engine->lookupPacked(kernel->symbol).takeError())
    return e;
  kernel->compileTime =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!options.objectPath.empty())
    kernel->engine->dumpToObjectFile(options.objectPath);
  return kernel;
}

namespace {
/// A ranked memref descriptor: allocated and aligned pointers, offset, sizes
/// and strides, laid out as the LLVM lowering expects.
struct Descriptor {
  std::vector<int64_t> words;
  /// Row-major data of `shape` at `data`.
  Descriptor(const void *data, const std::vector<int64_t> &shape) {
    size_t rank = shape.size();
    words.resize(3 + 2 * rank);
    words[0] = reinterpret_cast<int64_t>(data);
    words[1] = reinterpret_cast<int64_t>(data);
    words[2] = 0;
    int64_t stride = 1;
    for (size_t i = rank; i-- > 0;) {
      words[3 + i] = shape[i];
      words[3 + rank + i] = stride;
      stride *= shape[i];
    }
  }
};

/// Calls the packed wrapper of `symbol` with pointers to the descriptors.
llvm::Error invokeWithDescriptors(ExecutionEngine &engine,
                                  llvm::StringRef symbol,
                                  std::vector<Descriptor> &descriptors) {
  // The packed wrapper takes, per parameter, a pointer to its value: here a
  // pointer to a pointer to the descriptor.
  std::vector<void *> pointers(descriptors.size());
  std::vector<void *> packed(descriptors.size());
  for (size_t i = 0; i < descriptors.size(); ++i) {
    pointers[i] = descriptors[i].words.data();
    packed[i] = &pointers[i];
  }
  return engine.invokePacked(symbol, packed);
}
} // namespace

llvm::Error Kernel::call(const std::vector<const HostArray *> &argArrays,
                         const std::vector<HostArray *> &resultArrays) {
  if (onDevice)
    return llvm::createStringError(
        "a cuda kernel runs on device buffers (callOnBuffers)");
  if (llvm::Error e = checkHostCall(*this, argArrays, resultArrays))
    return e;
  std::vector<void *> buffers;
  std::vector<std::vector<int64_t>> shapes;
  for (const HostArray *array : argArrays) {
    buffers.push_back(const_cast<void *>(array->data()));
    shapes.push_back(array->shape);
  }
  for (HostArray *array : resultArrays) {
    buffers.push_back(array->data());
    shapes.push_back(array->shape);
  }
  return callOnBuffers(buffers, shapes);
}

llvm::Error
Kernel::callOnBuffers(const std::vector<void *> &buffers,
                      const std::vector<std::vector<int64_t>> &shapes) {
  size_t count = args.size() + outs.size();
  if (buffers.size() != count || shapes.size() != count)
    return llvm::createStringError(
        "expected " + llvm::Twine(count) + " buffers with their shapes, got " +
        llvm::Twine(buffers.size()) + " and " + llvm::Twine(shapes.size()));
  if (llvm::Error e = contract.check(
          shapes, std::vector<const void *>(buffers.begin(), buffers.end())))
    return e;
  std::vector<Descriptor> descriptors;
  for (size_t i = 0; i < count; ++i)
    descriptors.emplace_back(buffers[i], shapes[i]);
  return invokeWithDescriptors(*engine, symbol, descriptors);
}
