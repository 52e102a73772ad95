//===- CollapseReducedDims.cpp - one dim per run of reduced dims ----------===//
//
// Part of the norm-mlir project.
//
// InstanceNorm over NCHW reduces H and W, LayerNorm over [H, W] both dims:
// adjacent reduced dims of a row-major tensor are one contiguous run of
// memory, so the op is the same normalization over one collapsed dim. The
// statistics are indexed by the parallel dims only and keep their shape;
// the input, the output and the affine operands are reshaped.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// How the dims of the input and of the affine operands collapse.
struct Collapse {
  SmallVector<ReassociationIndices> input, affine;
  /// The new dim of each old input dim.
  SmallVector<int64_t> newDim;
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

/// The collapse of every collapsible run of two or more reduced dims;
/// failure if there is none.
static FailureOr<Collapse> getCollapse(NormalizeOp op) {
  int64_t rank = op.getRank();
  Collapse collapse;
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
  if (std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims()) {
    // Consecutive affine dims that land in one input group share a group.
    for (auto [position, d] : llvm::enumerate(*affineDims)) {
      if (position > 0 &&
          collapse.newDim[d] == collapse.newDim[(*affineDims)[position - 1]])
        collapse.affine.back().push_back(position);
      else
        collapse.affine.push_back({static_cast<int64_t>(position)});
    }
  }
  return collapse;
}

static Value collapseValue(OpBuilder &b, Location loc, Value value,
                           ArrayRef<ReassociationIndices> reassociation) {
  return tensor::CollapseShapeOp::create(b, loc, value, reassociation);
}

struct CollapseReducedDimsPattern : OpRewritePattern<NormalizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<CollapsedNormalize> collapsed = collapseReducedDims(rewriter, op);
    if (failed(collapsed))
      return rewriter.notifyMatchFailure(op, "no run of reduced dims");
    rewriter.replaceOp(op, collapsed->results);
    return success();
  }
};

} // namespace

bool mlir::norm::reducesInnermostDims(NormalizeOp op) {
  int64_t rank = op.getRank();
  int64_t first = rank - static_cast<int64_t>(op.getAxes().size());
  if (!op.hasPureTensorSemantics() || op.getGroups())
    return false;
  for (int64_t d = first; d < rank; ++d)
    if (!op.isReductionAxis(d))
      return false;
  return isCollapsible(op, first, rank - 1);
}

FailureOr<CollapsedNormalize>
mlir::norm::collapseReducedDims(RewriterBase &rewriter, NormalizeOp op) {
  if (!op.hasPureTensorSemantics())
    return failure();
  FailureOr<Collapse> collapse = getCollapse(op);
  if (failed(collapse))
    return failure();
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);

  Value output = op.getOutput();
  SmallVector<OpFoldResult> outputSizes =
      tensor::getMixedSizes(rewriter, loc, output);
  auto isODSOperand = [&](OpOperand &operand, unsigned odsIndex) {
    auto [start, length] = op.getODSOperandIndexAndLength(odsIndex);
    return operand.getOperandNumber() >= start &&
           operand.getOperandNumber() < start + length;
  };
  auto collapses = [](ArrayRef<ReassociationIndices> reassociation) {
    return llvm::any_of(reassociation, [](const ReassociationIndices &group) {
      return group.size() > 1;
    });
  };
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    // input, output; scale, bias.
    if (isODSOperand(operand, 0) || isODSOperand(operand, 5))
      value = collapseValue(rewriter, loc, value, collapse->input);
    else if ((isODSOperand(operand, 1) || isODSOperand(operand, 2)) &&
             collapses(collapse->affine))
      value = collapseValue(rewriter, loc, value, collapse->affine);
    operands.push_back(value);
  }
  SmallVector<Type> resultTypes = llvm::to_vector(op->getResultTypes());
  resultTypes[0] =
      operands[op.getDpsInitOperand(0)->getOperandNumber()].getType();
  auto collapsed =
      cast<NormalizeOp>(mlir::clone(rewriter, op, resultTypes, operands));

  auto remap = [&](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> mapped;
    for (int64_t d : dims)
      if (mapped.empty() || mapped.back() != collapse->newDim[d])
        mapped.push_back(collapse->newDim[d]);
    return mapped;
  };
  SmallVector<int64_t> axes = llvm::to_vector(op.getAxes());
  llvm::sort(axes);
  collapsed.setAxes(remap(axes));
  if (std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims())
    collapsed.setAffineDims(remap(*affineDims));
  if (std::optional<int64_t> groupDim = op.getGroupDim())
    collapsed.setGroupDim(collapse->newDim[*groupDim]);

  CollapsedNormalize result;
  result.collapsedOp = collapsed;
  result.results.assign(collapsed->result_begin(), collapsed->result_end());
  result.results[0] = tensor::ExpandShapeOp::create(
      rewriter, loc, output.getType(), result.results[0], collapse->input,
      outputSizes);
  return result;
}

void mlir::norm::populateCollapseReducedDimsPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<CollapseReducedDimsPattern>(patterns.getContext(), benefit);
}
