//===- KernelLayout.h - collapsed views of a norm.normalize -----*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The iteration space of a memref-form norm.normalize as the hand-scheduled
// kernels (CPU vector, GPU) see it. The GroupNorm channel dim is expanded
// into (groups, channels per group); every dim is classified as reduced or
// not and as indexing the affine parameters or not; consecutive dims of one
// class are collapsed. Every operand is then a view over a few collapsed
// dims, with the reduced ones forming each statistics slice.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_KERNELLAYOUT_H
#define NORM_CONVERSION_UTILS_KERNELLAYOUT_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {
class NormalizeOp;

/// An operand viewed over the collapsed dims it is indexed by.
struct KernelView {
  Value memref;
  /// For each dim of `memref`, the collapsed dim it stands for.
  SmallVector<int64_t> dims;
};

/// Collapses the dims of an identity-layout memref by `reassociation`.
Value collapseContiguous(OpBuilder &b, Location loc, Value memref,
                         ArrayRef<ReassociationIndices> reassociation);

class KernelLayout {
public:
  explicit KernelLayout(NormalizeOp op);

  /// The number of collapsed dims.
  int64_t getNumDims() const { return collapsedReduced.size(); }
  bool isReduced(int64_t c) const { return collapsedReduced[c]; }
  bool isAffine(int64_t c) const { return collapsedAffine[c]; }

  /// Views of identity-layout operands: the input or output (every dim),
  /// the scale or bias (the affine dims) and the statistics operands (the
  /// non-reduced dims, groups included).
  KernelView fullView(OpBuilder &b, Location loc, Value memref) const;
  KernelView affineView(OpBuilder &b, Location loc, Value memref) const;
  KernelView statisticsView(OpBuilder &b, Location loc, Value memref) const;

private:
  struct ExpandedDim {
    bool reduced;
    bool affine;
  };
  KernelView makeView(OpBuilder &b, Location loc, Value memref,
                      ArrayRef<int64_t> expandedDims,
                      std::optional<int64_t> expandAt) const;

  /// The group-expanded dims.
  SmallVector<ExpandedDim> expanded;
  /// For each expanded dim, the collapsed dim it belongs to.
  SmallVector<int64_t> collapsedOf;
  SmallVector<bool> collapsedReduced, collapsedAffine;
  /// GroupNorm: the group count, the input dim it splits and that dim's
  /// position among the affine dims (if it indexes them).
  int64_t groups = 0;
  std::optional<int64_t> groupDim, groupAffinePosition;
};

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_KERNELLAYOUT_H
