//===- ReshapeNormalize.cpp - norm.normalize on reshaped operands ---------===//
//
// Part of the norm-mlir project.
//
// Two rewrites of norm.normalize into the same normalization on reshaped
// operands, so that the row strategy sees its slices as trailing rows:
//
// - collapseReducedDims: adjacent reduced dims of a row-major tensor are one
//   contiguous run of memory (InstanceNorm over NCHW reduces H·W). The
//   statistics are indexed by the parallel dims only and keep their shape.
// - expandGroups: GroupNorm's group dim C becomes [G, C/G]; G is then an
//   ordinary parallel dim, C/G a reduced one, and the op has no groups. The
//   statistics, [.., G, ..] in the group dim's place, keep their shape too.
//
// The input, the output and the affine operands are reshaped; the output
// is reshaped back.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// A reshape of an op's dims: the reassociation of the input's (and
/// output's) dims and of the affine operands' dims, and where each old dim
/// (or, for an expansion, the first of its new dims) goes.
struct Reshape {
  SmallVector<ReassociationIndices> input, affine;
  SmallVector<int64_t> newDim;
  /// Expanding: the old group dim becomes `newDim[d]` and `newDim[d] + 1`.
  bool expandsGroups = false;
};

/// Whether the run of reduced dims [first, last] may become one dim: not the
/// group dim, and held by the affine operands wholly (as consecutive
/// `affine_dims` entries in order) or not at all.
static bool isCollapsible(NormalizeOp op, int64_t first, int64_t last) {
  std::optional<int64_t> groupDim = op.getGroupDim();
  if (groupDim && *groupDim >= first && *groupDim <= last)
    return false;
  std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims();
  if (!affineDims)
    return true;
  auto position = llvm::find(*affineDims, first);
  bool held = position != affineDims->end();
  for (int64_t d = first; d <= last; ++d) {
    bool dimHeld = llvm::is_contained(*affineDims, d);
    if (dimHeld != held)
      return false;
    if (held && (position == affineDims->end() || *position++ != d))
      return false;
  }
  return true;
}

/// The affine operands' reassociation: consecutive affine dims that land in
/// one input group share a group.
static SmallVector<ReassociationIndices>
getAffineReassociation(NormalizeOp op, ArrayRef<int64_t> newDim) {
  SmallVector<ReassociationIndices> affine;
  std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims();
  if (!affineDims)
    return affine;
  for (auto [position, d] : llvm::enumerate(*affineDims)) {
    if (position > 0 && newDim[d] == newDim[(*affineDims)[position - 1]])
      affine.back().push_back(position);
    else
      affine.push_back({static_cast<int64_t>(position)});
  }
  return affine;
}

/// The collapse of every collapsible run of two or more reduced dims;
/// failure if there is none.
static FailureOr<Reshape> getCollapse(NormalizeOp op) {
  int64_t rank = op.getRank();
  Reshape collapse;
  bool any = false;
  for (int64_t d = 0; d < rank;) {
    int64_t last = d;
    if (op.isReductionAxis(d))
      while (last + 1 < rank && op.isReductionAxis(last + 1) &&
             isCollapsible(op, d, last + 1))
        ++last;
    any |= last > d;
    ReassociationIndices group;
    for (int64_t e = d; e <= last; ++e) {
      group.push_back(e);
      collapse.newDim.push_back(collapse.input.size());
    }
    collapse.input.push_back(group);
    d = last + 1;
  }
  if (!any)
    return failure();
  collapse.affine = getAffineReassociation(op, collapse.newDim);
  return collapse;
}

/// The expansion of the group dim into [G, C/G].
static Reshape getGroupReshape(NormalizeOp op) {
  int64_t groupDim = *op.getGroupDim();
  Reshape expansion;
  expansion.expandsGroups = true;
  int64_t next = 0;
  for (int64_t d = 0, e = op.getRank(); d < e; ++d) {
    expansion.newDim.push_back(next);
    if (d == groupDim) {
      expansion.input.push_back({next, next + 1});
      next += 2;
      continue;
    }
    expansion.input.push_back({next++});
  }
  // Every affine dim keeps its place; the group dim's becomes two.
  if (std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims()) {
    int64_t position = 0;
    for (int64_t d : *affineDims) {
      if (d == groupDim) {
        expansion.affine.push_back({position, position + 1});
        position += 2;
        continue;
      }
      expansion.affine.push_back({position++});
    }
  }
  return expansion;
}

static bool reshapes(ArrayRef<ReassociationIndices> reassociation) {
  return llvm::any_of(reassociation, [](const ReassociationIndices &group) {
    return group.size() > 1;
  });
}

static Value reshapeValue(OpBuilder &b, Location loc, Value value,
                          ArrayRef<ReassociationIndices> reassociation,
                          bool expand, int64_t groups) {
  if (!expand)
    return tensor::CollapseShapeOp::create(b, loc, value, reassociation);
  // The one dim that becomes two: the group dim's place.
  int64_t dim = llvm::find_if(reassociation,
                              [](const ReassociationIndices &group) {
                                return group.size() == 2;
                              }) -
                reassociation.begin();
  auto type = cast<RankedTensorType>(value.getType());
  GroupExpansion expansion = getGroupExpansion(
      b, loc, type, tensor::getMixedSizes(b, loc, value), dim, groups);
  return tensor::ExpandShapeOp::create(b, loc, type.clone(expansion.shape),
                                       value, expansion.reassociation,
                                       expansion.outputShape);
}

/// `op` on its operands reshaped by `reshape`.
static ReshapedNormalize reshapeOp(RewriterBase &rewriter, NormalizeOp op,
                                   const Reshape &reshape) {
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  int64_t groups = op.getGroups().value_or(1);
  bool expand = reshape.expandsGroups;

  Value output = op.getOutput();
  SmallVector<OpFoldResult> outputSizes =
      tensor::getMixedSizes(rewriter, loc, output);
  auto isODSOperand = [&](OpOperand &operand, unsigned odsIndex) {
    auto [start, length] = op.getODSOperandIndexAndLength(odsIndex);
    return operand.getOperandNumber() >= start &&
           operand.getOperandNumber() < start + length;
  };
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    // input, output; scale, bias.
    if (isODSOperand(operand, 0) || isODSOperand(operand, 5))
      value = reshapeValue(rewriter, loc, value, reshape.input, expand, groups);
    else if ((isODSOperand(operand, 1) || isODSOperand(operand, 2)) &&
             reshapes(reshape.affine))
      value =
          reshapeValue(rewriter, loc, value, reshape.affine, expand, groups);
    operands.push_back(value);
  }
  SmallVector<Type> resultTypes = llvm::to_vector(op->getResultTypes());
  resultTypes[0] =
      operands[op.getDpsInitOperand(0)->getOperandNumber()].getType();
  auto reshaped =
      cast<NormalizeOp>(mlir::clone(rewriter, op, resultTypes, operands));

  std::optional<int64_t> groupDim = op.getGroupDim();
  auto remap = [&](ArrayRef<int64_t> dims, bool isAxes) {
    SmallVector<int64_t> mapped;
    for (int64_t d : dims) {
      int64_t n = reshape.newDim[d];
      if (expand && groupDim && d == *groupDim) {
        // Reduced: the C/G part; indexing the affine operands: both.
        if (!isAxes)
          mapped.push_back(n);
        mapped.push_back(n + 1);
        continue;
      }
      if (mapped.empty() || mapped.back() != n)
        mapped.push_back(n);
    }
    return mapped;
  };
  SmallVector<int64_t> axes = llvm::to_vector(op.getAxes());
  llvm::sort(axes);
  reshaped.setAxes(remap(axes, /*isAxes=*/true));
  if (std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims())
    reshaped.setAffineDims(remap(*affineDims, /*isAxes=*/false));
  if (expand) {
    reshaped.removeGroupsAttr();
    reshaped.removeGroupDimAttr();
  } else if (groupDim) {
    reshaped.setGroupDim(reshape.newDim[*groupDim]);
  }

  ReshapedNormalize result;
  result.reshapedOp = reshaped;
  result.results.assign(reshaped->result_begin(), reshaped->result_end());
  if (expand)
    result.results[0] = tensor::CollapseShapeOp::create(
        rewriter, loc, output.getType(), result.results[0], reshape.input);
  else
    result.results[0] = tensor::ExpandShapeOp::create(
        rewriter, loc, output.getType(), result.results[0], reshape.input,
        outputSizes);
  return result;
}

/// Replaces an op by its rewrite through `reshape`, where that applies.
template <FailureOr<ReshapedNormalize> (*reshape)(RewriterBase &, NormalizeOp)>
struct ReshapePattern : OpRewritePattern<NormalizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ReshapedNormalize> reshaped = reshape(rewriter, op);
    if (failed(reshaped))
      return rewriter.notifyMatchFailure(op, "nothing to reshape");
    rewriter.replaceOp(op, reshaped->results);
    return success();
  }
};

} // namespace

bool mlir::norm::reducesInnermostDims(NormalizeOp op) {
  int64_t rank = op.getRank();
  if (!op.hasPureTensorSemantics() || rank == 0 ||
      !op.isReductionAxis(rank - 1))
    return false;
  // GroupNorm: its groups become the last parallel dim when the group dim
  // is the first reduced one and every reduced dim is trailing; the rest of
  // the reduced dims must collapse.
  if (std::optional<int64_t> groupDim = op.getGroupDim();
      groupDim && op.getGroups()) {
    int64_t first = rank - static_cast<int64_t>(op.getAxes().size());
    for (int64_t d = first; d < rank; ++d)
      if (!op.isReductionAxis(d))
        return false;
    return !op.isTraining() && *groupDim == first &&
           (first + 1 == rank || isCollapsible(op, first + 1, rank - 1));
  }
  // The trailing run of reduced dims must collapse into one row; reduced
  // dims before it (BatchNorm's N over NCHW) are loops over the rows.
  int64_t first = rank - 1;
  while (first > 0 && op.isReductionAxis(first - 1))
    --first;
  return isCollapsible(op, first, rank - 1);
}

FailureOr<ReshapedNormalize>
mlir::norm::collapseReducedDims(RewriterBase &rewriter, NormalizeOp op) {
  if (!op.hasPureTensorSemantics())
    return failure();
  FailureOr<Reshape> collapse = getCollapse(op);
  if (failed(collapse))
    return failure();
  return reshapeOp(rewriter, op, *collapse);
}

FailureOr<ReshapedNormalize> mlir::norm::expandGroups(RewriterBase &rewriter,
                                                      NormalizeOp op) {
  if (!op.hasPureTensorSemantics() || !op.getGroups() || !op.getGroupDim() ||
      op.isTraining())
    return failure();
  return reshapeOp(rewriter, op, getGroupReshape(op));
}

void mlir::norm::populateCollapseReducedDimsPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<ReshapePattern<collapseReducedDims>>(patterns.getContext(),
                                                    benefit);
}

void mlir::norm::populateExpandGroupsPatterns(RewritePatternSet &patterns,
                                              PatternBenefit benefit) {
  patterns.add<ReshapePattern<expandGroups>>(patterns.getContext(), benefit);
}
