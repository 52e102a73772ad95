//===- NormDecomposition.h - norm.normalize as linalg ------------*- C++
//-*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMDECOMPOSITION_H
#define NORM_IR_NORMDECOMPOSITION_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace norm {
class NormalizeOp;

/// How the decomposition schedules its scaled pass (the numerics are the
/// same either way).
struct DecomposeOptions {
  /// false: k from max|x| always (a max pass, then the scaled pass), the
  /// straight-line form every strategy takes. true: the scaled pass with
  /// k = 1 first, and max|x| and the pass again only for slices out of
  /// range: one pass fewer per slice, for strategies that keep a slice's
  /// statistics in registers across the retry (the row strategy of
  /// norm-tile-and-vectorize). The centered pass is built once, in the
  /// before region of an scf.while whose after region finds max|x|; the
  /// others' retry is a copy under an scf.if. Both give the same results bit
  /// for bit unless a square underflowed.
  bool retryScaling = false;
};

/// Builds, before `op` (tensor form), the linalg ops that compute its
/// results: the reductions of its statistics and the elementwise normalize
/// step, with the numerics of numerics.md §1. Returns one value per result
/// of `op`; fails (with a diagnostic) on the memref form. `op` is left in
/// place. With default options this is NormalizeOp::decomposeOperation.
FailureOr<SmallVector<Value>>
decomposeNormalizeOp(OpBuilder &b, NormalizeOp op,
                     const DecomposeOptions &options = {});

} // namespace norm
} // namespace mlir

#endif // NORM_IR_NORMDECOMPOSITION_H
