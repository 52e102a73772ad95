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

/// Builds, before `op` (tensor form), the linalg ops that compute its
/// results: the reductions of its statistics and the elementwise normalize
/// step, with the numerics of numerics.md §1. Returns one value per result
/// of `op`; fails (with a diagnostic) on the memref form. `op` is left in
/// place. This is NormalizeOp::decomposeOperation.
FailureOr<SmallVector<Value>> decomposeNormalizeOp(OpBuilder &b,
                                                   NormalizeOp op);

} // namespace norm
} // namespace mlir

#endif // NORM_IR_NORMDECOMPOSITION_H
