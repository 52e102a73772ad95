//===- ExpandReshapedAllocs.cpp - norm-expand-reshaped-allocs -------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMEXPANDRESHAPEDALLOCSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

/// expand_shape(alloc) → alloc of the expanded shape; the old alloc's users
/// get collapse_shape(new alloc), which identity layouts always allow.
struct ExpandReshapedAlloc : OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    auto alloc = expand.getSrc().getDefiningOp<memref::AllocOp>();
    MemRefType expandedType = expand.getResultType();
    if (!alloc || !alloc.getType().getLayout().isIdentity() ||
        !expandedType.getLayout().isIdentity() ||
        !alloc.getSymbolOperands().empty())
      return rewriter.notifyMatchFailure(expand, "not an identity alloc");
    // The new alloc takes the old one's place, so the expanded sizes must
    // be defined there.
    DominanceInfo dominance(alloc->getParentOp());
    SmallVector<Value> dynamicSizes;
    for (OpFoldResult size : expand.getMixedOutputShape()) {
      auto value = dyn_cast<Value>(size);
      if (!value)
        continue;
      if (!dominance.properlyDominates(value, alloc))
        return rewriter.notifyMatchFailure(expand,
                                           "a size is defined after the alloc");
      dynamicSizes.push_back(value);
    }
    if (dynamicSizes.size() !=
        static_cast<size_t>(expandedType.getNumDynamicDims()))
      return rewriter.notifyMatchFailure(expand, "static size of a ? dim");
    SmallVector<ReassociationIndices> reassociation =
        expand.getReassociationIndices();
    if (memref::CollapseShapeOp::computeCollapsedType(
            expandedType, reassociation) != alloc.getType())
      return rewriter.notifyMatchFailure(expand, "collapses to another type");
    rewriter.setInsertionPoint(alloc);
    auto expanded =
        memref::AllocOp::create(rewriter, alloc.getLoc(), expandedType,
                                dynamicSizes, alloc.getAlignmentAttr());
    auto collapsed = memref::CollapseShapeOp::create(rewriter, alloc.getLoc(),
                                                     expanded, reassociation);
    rewriter.replaceOp(expand, expanded.getResult());
    rewriter.replaceOp(alloc, collapsed.getResult());
    return success();
  }
};

/// expand_shape(collapse_shape(A)) with the same reassociation back to the
/// sizes of A is A. Upstream's fold gives up with two dynamic dims, whose
/// sizes it does not compare.
struct FoldExpandOfCollapse : OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    auto collapse = expand.getSrc().getDefiningOp<memref::CollapseShapeOp>();
    if (!collapse || collapse.getSrcType() != expand.getResultType() ||
        collapse.getReassociationIndices() != expand.getReassociationIndices())
      return rewriter.notifyMatchFailure(expand, "not a round trip");
    Value source = collapse.getSrc();
    for (auto [d, size] : llvm::enumerate(expand.getMixedOutputShape())) {
      FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
          ValueBoundsConstraintSet::Variable(size),
          ValueBoundsConstraintSet::Variable(source, d));
      if (failed(equal) || !*equal)
        return rewriter.notifyMatchFailure(expand, "sizes may differ");
    }
    rewriter.replaceOp(expand, source);
    return success();
  }
};

struct NormExpandReshapedAllocsPass
    : norm::impl::NormExpandReshapedAllocsPassBase<
          NormExpandReshapedAllocsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateExpandReshapedAllocsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::norm::populateExpandReshapedAllocsPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<ExpandReshapedAlloc, FoldExpandOfCollapse>(patterns.getContext(),
                                                          benefit);
}
