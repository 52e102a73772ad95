//===- KernelLayout.cpp - collapsed views of a norm.normalize -------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/Utils/KernelLayout.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

using namespace mlir;
using namespace mlir::norm;

Value mlir::norm::collapseContiguous(
    OpBuilder &b, Location loc, Value memref,
    ArrayRef<ReassociationIndices> reassociation) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> shape;
  for (const ReassociationIndices &group : reassociation) {
    int64_t size = 1;
    for (int64_t d : group) {
      if (type.isDynamicDim(d)) {
        size = ShapedType::kDynamic;
        break;
      }
      // A group is static only when all its dims are (the inferring
      // builder would call 0 × ? static).
      size *= type.getDimSize(d);
    }
    shape.push_back(size);
  }
  return memref::CollapseShapeOp::create(
      b, loc, MemRefType::get(shape, type.getElementType()), memref,
      reassociation);
}

KernelLayout::KernelLayout(NormalizeOp op) {
  if (op.getGroups()) {
    groups = *op.getGroups();
    groupDim = *op.getGroupDim();
  }
  ArrayRef<int64_t> affineDims;
  if (std::optional<ArrayRef<int64_t>> a = op.getAffineDims())
    affineDims = *a;
  for (auto [i, d] : llvm::enumerate(affineDims))
    if (groupDim && d == *groupDim)
      groupAffinePosition = i;
  for (int64_t d = 0, e = op.getRank(); d < e; ++d) {
    bool affine = llvm::is_contained(affineDims, d);
    if (groupDim && d == *groupDim) {
      expanded.push_back({/*reduced=*/false, affine});
      expanded.push_back({/*reduced=*/true, affine});
      continue;
    }
    expanded.push_back({op.isReductionAxis(d), affine});
  }
  for (auto [i, dim] : llvm::enumerate(expanded)) {
    if (i == 0 || dim.reduced != expanded[i - 1].reduced ||
        dim.affine != expanded[i - 1].affine) {
      collapsedReduced.push_back(dim.reduced);
      collapsedAffine.push_back(dim.affine);
    }
    collapsedOf.push_back(collapsedReduced.size() - 1);
  }
}

KernelView KernelLayout::makeView(OpBuilder &b, Location loc, Value memref,
                                  ArrayRef<int64_t> expandedDims,
                                  std::optional<int64_t> expandAt) const {
  auto type = cast<MemRefType>(memref.getType());
  if (expandAt) {
    GroupExpansion expansion = getGroupExpansion(
        b, loc, type, memref::getMixedSizes(b, loc, memref), *expandAt, groups);
    memref = memref::ExpandShapeOp::create(b, loc, expansion.shape, memref,
                                           expansion.reassociation,
                                           expansion.outputShape);
  }
  KernelView view;
  SmallVector<ReassociationIndices> reassociation;
  for (auto [i, e] : llvm::enumerate(expandedDims)) {
    int64_t c = collapsedOf[e];
    if (view.dims.empty() || view.dims.back() != c) {
      view.dims.push_back(c);
      reassociation.emplace_back();
    }
    reassociation.back().push_back(i);
  }
  if (reassociation.size() !=
      static_cast<size_t>(cast<MemRefType>(memref.getType()).getRank()))
    memref = collapseContiguous(b, loc, memref, reassociation);
  view.memref = memref;
  return view;
}

KernelView KernelLayout::fullView(OpBuilder &b, Location loc,
                                  Value memref) const {
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, expanded.size()));
  return makeView(b, loc, memref, all, groupDim);
}

KernelView KernelLayout::affineView(OpBuilder &b, Location loc,
                                    Value memref) const {
  SmallVector<int64_t> dims;
  for (auto [e, dim] : llvm::enumerate(expanded))
    if (dim.affine)
      dims.push_back(e);
  return makeView(b, loc, memref, dims, groupAffinePosition);
}

KernelView KernelLayout::statisticsView(OpBuilder &b, Location loc,
                                        Value memref) const {
  SmallVector<int64_t> dims;
  for (auto [e, dim] : llvm::enumerate(expanded))
    if (!dim.reduced)
      dims.push_back(e);
  return makeView(b, loc, memref, dims, std::nullopt);
}
