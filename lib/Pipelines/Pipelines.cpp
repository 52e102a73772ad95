//===- Pipelines.cpp - a target's pipeline and the registrations ----------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::norm;

llvm::Error
mlir::norm::verifyTargetPipelineOptions(const TargetPipelineOptions &options) {
  if (options.target != "cpu" && options.target != "cuda")
    return llvm::createStringError("target '" + options.target +
                                   "' is not supported (supported: cpu, "
                                   "cuda)");
  if (options.target == "cuda" && options.openmp)
    return llvm::createStringError("OpenMP is a cpu target option");
  return llvm::Error::success();
}

llvm::Error
mlir::norm::buildLowerToTargetPipeline(OpPassManager &pm,
                                       const TargetPipelineOptions &options) {
  if (llvm::Error error = verifyTargetPipelineOptions(options))
    return error;
  if (options.target == "cuda") {
    NVVMPipelineOptions nvvm;
    nvvm.format = options.gpuFormat;
    nvvm.chip = options.chip;
    buildLowerToNVVMPipeline(pm, nvvm);
    return llvm::Error::success();
  }
  CPUPipelineOptions cpu;
  cpu.openmp = options.openmp;
  cpu.vectorKernels = options.vectorKernels;
  cpu.tiledLinalg = options.tiledLinalg;
  cpu.vectorBits = options.vectorBits;
  buildLowerToCPUPipeline(pm, cpu);
  return llvm::Error::success();
}

LogicalResult mlir::norm::runVerifiedAtEnds(PassManager &pm, ModuleOp module) {
  if (failed(verify(module)))
    return failure();
  pm.enableVerifier(false);
  if (failed(pm.run(module)))
    return failure();
  return verify(module);
}

void mlir::norm::registerNormPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "norm-lower-to-cpu-pipeline",
      "Lower norm ops through linalg to LLVM for the CPU (memref-in / "
      "memref-out ABI)",
      buildLowerToCPUPipeline);
  PassPipelineRegistration<NVVMPipelineOptions>(
      "norm-lower-to-nvvm-pipeline",
      "Lower norm ops to GPU kernels (NVVM, serialized into the module) "
      "launched by host code in the LLVM dialect (memref-in / memref-out "
      "ABI, device pointers)",
      buildLowerToNVVMPipeline);
}
