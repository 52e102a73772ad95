//===- NormToVector.h - norm.normalize to CPU vector kernels ----*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_NORMTOVECTOR_NORMTOVECTOR_H
#define NORM_CONVERSION_NORMTOVECTOR_NORMTOVECTOR_H

#include "norm/Conversion/Utils/VectorKernelSupport.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {
class NormalizeOp;

#define GEN_PASS_DECL_CONVERTNORMTOVECTORPASS
#include "norm/Conversion/Passes.h.inc"

/// How the CPU kernels are shaped.
struct VectorKernelOptions {
  /// The vector register width: 256 (AVX2) or 512 (AVX-512).
  int64_t vectorBits = 256;
  /// Independent vector accumulators per statistic in the hot loops.
  int64_t accumulators = 4;
};

/// Replaces the memref form of `op` (which must satisfy hasVectorKernel) by
/// its kernel: one scf.parallel over the statistics slices, each slice
/// reduced by vector loops with several accumulators, then normalized
/// while it is still in cache.
LogicalResult lowerToVectorKernel(RewriterBase &rewriter, NormalizeOp op,
                                  const VectorKernelOptions &options);

/// Patterns rewriting memref-form norm.normalize ops with a vector kernel.
void populateNormToVectorPatterns(RewritePatternSet &patterns,
                                  const VectorKernelOptions &options,
                                  PatternBenefit benefit = 1);

/// The vector width of the host CPU: 512 with AVX-512F, 256 otherwise.
int64_t getHostVectorBits();

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_NORMTOVECTOR_NORMTOVECTOR_H
