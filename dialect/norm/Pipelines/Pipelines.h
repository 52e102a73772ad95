//===- Pipelines.h - norm lowering pipelines --------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_PIPELINES_PIPELINES_H
#define NORM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace norm {

/// Options of norm-lower-to-cpu-pipeline.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run the parallel loops on OpenMP threads (the caller "
                     "links libomp); serial loops otherwise"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers taking memref descriptors "
                     "for every function"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorKernels{
      *this, "vector-kernels",
      llvm::cl::desc("Lower the ops that have one to CPU vector kernels "
                     "(convert-norm-to-vector); the others, and all with "
                     "false, go through linalg loops"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector width of the kernels in bits; 0 detects the "
                     "host (512 with AVX-512F, else 256)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> plantBug{
      *this, "test-plant-bug",
      llvm::cl::desc("Testing only: convert-norm-to-linalg's test-plant-bug"),
      llvm::cl::init("")};
};

/// Lowers a module of functions on tensors that use norm ops to the LLVM
/// dialect: norm → (vector kernels after bufferization, or linalg on
/// tensors) → bufferized with the memref-in /
/// memref-out ABI (every tensor result becomes a trailing out-parameter
/// written in place) → loops → LLVM. 16-bit floats are widened with integer
/// arithmetic, so the code needs no libcall.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const CPUPipelineOptions &options);

/// Registers the pipelines with the pass registry (norm-opt).
void registerNormPipelines();

} // namespace norm
} // namespace mlir

#endif // NORM_PIPELINES_PIPELINES_H
