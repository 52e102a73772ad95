//===- NVVMPipeline.cpp - norm-lower-to-nvvm-pipeline ---------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Pipelines/Pipelines.h"

#include "norm/Conversion/Passes.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;

/// The CUDA toolkit directory `requested`, or found from the environment;
/// empty when none exists.
static std::string findCUDAToolkit(StringRef requested) {
  SmallVector<std::string> candidates;
  if (!requested.empty())
    candidates.push_back(requested.str());
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = std::getenv(variable))
      candidates.push_back(value);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &dir : candidates)
    if (llvm::sys::fs::is_directory(dir))
      return dir;
  return "";
}

void mlir::norm::buildLowerToNVVMPipeline(OpPassManager &pm,
                                          const NVVMPipelineOptions &options) {
  // Norm ops bufferize as they are; each becomes one gpu.launch. The host
  // function then only computes sizes and views: its memrefs hold device
  // pointers.
  buildBufferizeToOutParamsPipeline(pm);
  ConvertNormToGPUPassOptions toGPU;
  toGPU.blockSize = options.blockSize;
  toGPU.vectorBytes = options.vectorBytes;
  pm.addPass(createConvertNormToGPUPass(toGPU));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Kernels into gpu.modules, then host and device code to the LLVM
  // dialect (the order of upstream's gpu-lower-to-nvvm-pipeline).
  // Constants and index math back into the launch bodies: outlined, they
  // would become kernel parameters the kernel cannot fold.
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  if (options.cInterface)
    pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());

  // libdevice is linked explicitly: math in kernels becomes __nv_* calls,
  // which the driver cannot resolve at load.
  std::string toolkit = findCUDAToolkit(options.cudaToolkit);
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  if (!toolkit.empty()) {
    SmallString<128> libdevice(toolkit);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      target.linkLibs.push_back(std::string(libdevice));
  }
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createStripDebugInfoPass());
  // fma, rsqrt and sqrt as NVVM intrinsics, not libdevice calls: the
  // kernels then compile to loadable PTX without a CUDA toolkit.
  kernels.addPass(createNormMathToNVVMIntrinsicsPass());
  // Warp sums (short slices, a warp each) as shuffles.
  kernels.addPass(createNormLowerSubgroupReducePass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 64;
  kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  kernels.addPass(LLVM::createNVVMOptimizeForTargetPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  // PTX needs no toolkit; the serializer would look for libdevice in one
  // that is given, and complain where it lacks it.
  if (options.format != "isa" || !target.linkLibs.empty())
    binary.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
