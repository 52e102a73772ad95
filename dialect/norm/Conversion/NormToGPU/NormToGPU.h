//===- NormToGPU.h - norm.normalize to GPU kernels --------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H
#define NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
namespace norm {
class NormalizeOp;

#define GEN_PASS_DECL_CONVERTNORMTOGPUPASS
#include "norm/Conversion/Passes.h.inc"

/// How the GPU kernels are shaped.
struct GPUKernelOptions {
  /// Threads per block for long or dynamically sized slices (shorter static
  /// slices get fewer, at least one warp).
  int64_t blockSize = 256;
  /// Bytes moved per vector load or store (16: `ld.global.v4.b32`).
  int64_t vectorBytes = 16;
};

/// Whether the memref-form `op` has a GPU kernel; if not, `why` says what
/// it lacks.
bool hasGPUKernel(NormalizeOp op, std::string &why);

/// Replaces the memref-form `op` (which must satisfy hasGPUKernel) by one
/// gpu.launch: a block per statistics slice (block-wide reductions, then the
/// normalize pass over the slice), or, with given statistics, an
/// elementwise launch.
LogicalResult lowerToGPUKernel(RewriterBase &rewriter, NormalizeOp op,
                               const GPUKernelOptions &options);

/// Patterns rewriting memref-form norm.normalize ops into GPU kernels, and
/// host memref.copy ops between (device) buffers into gpu.memcpy.
void populateNormToGPUPatterns(RewritePatternSet &patterns,
                               const GPUKernelOptions &options,
                               PatternBenefit benefit = 1);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H
