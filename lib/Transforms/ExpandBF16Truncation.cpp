//===- ExpandBF16Truncation.cpp - norm-expand-bf16-truncation -------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormNumerics.h"
#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMEXPANDBF16TRUNCATIONPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {
/// truncf f32 -> bf16 (to nearest even) as the rounding on the bits
/// (buildBF16RoundedBits), then the upper 16-bit half of each lane: picked
/// by one shuffle for 1-D vectors when `shuffle` is set, else shifted down
/// and truncated.
struct TruncFToBF16OnBits : OpRewritePattern<arith::TruncFOp> {
  TruncFToBF16OnBits(MLIRContext *context, bool shuffle, PatternBenefit benefit)
      : OpRewritePattern(context, benefit), shuffle(shuffle) {}

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getIn().getType()).isF32() ||
        !getElementTypeOrSelf(op.getType()).isBF16())
      return rewriter.notifyMatchFailure(op, "not f32 -> bf16");
    if (auto vector = dyn_cast<VectorType>(op.getType());
        vector && vector.isScalable())
      return rewriter.notifyMatchFailure(op, "scalable vector");
    if (std::optional<arith::RoundingMode> mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not rounded to nearest even");
    Location loc = op.getLoc();
    Value rounded = norm::buildBF16RoundedBits(rewriter, loc, op.getIn());
    auto vector = dyn_cast<VectorType>(op.getType());
    Value narrow;
    if (shuffle && vector && vector.getRank() == 1) {
      int64_t n = vector.getDimSize(0);
      Value halves = vector::BitCastOp::create(
          rewriter, loc, VectorType::get({2 * n}, rewriter.getI16Type()),
          rounded);
      SmallVector<int64_t> upper;
      for (int64_t j = 0; j < n; ++j)
        upper.push_back(2 * j + 1);
      narrow = vector::ShuffleOp::create(rewriter, loc, halves, halves, upper);
    } else {
      Value shifted = arith::ShRUIOp::create(
          rewriter, loc, rounded,
          createScalarOrSplatConstant(rewriter, loc, rounded.getType(), 16));
      Type i16 = rewriter.getI16Type();
      narrow = arith::TruncIOp::create(
          rewriter, loc, vector ? vector.clone(i16) : i16, shifted);
    }
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), narrow);
    return success();
  }

  bool shuffle;
};

struct NormExpandBF16TruncationPass
    : norm::impl::NormExpandBF16TruncationPassBase<
          NormExpandBF16TruncationPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateExpandBF16TruncationPatterns(patterns,
                                               /*shuffle=*/vectorBits >= 512);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateExpandBF16TruncationPatterns(
    RewritePatternSet &patterns, bool shuffle, PatternBenefit benefit) {
  patterns.add<TruncFToBF16OnBits>(patterns.getContext(), shuffle, benefit);
}
