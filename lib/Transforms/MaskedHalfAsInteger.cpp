//===- MaskedHalfAsInteger.cpp - norm-masked-half-as-integer --------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMMASKEDHALFASINTEGERPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

/// The i16 vector of the same shape when `type` is a vector of f16 or bf16.
static VectorType integerVectorFor(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !isa<Float16Type, BFloat16Type>(vector.getElementType()))
    return {};
  return vector.clone(IntegerType::get(type.getContext(), 16));
}

namespace {
struct MaskedLoadAsInteger : OpRewritePattern<LLVM::MaskedLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::MaskedLoadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType bits = integerVectorFor(op.getType());
    if (!bits)
      return rewriter.notifyMatchFailure(op, "not a 16-bit float vector");
    Location loc = op.getLoc();
    Value passThru = op.getPassThru();
    if (passThru)
      passThru = LLVM::BitcastOp::create(rewriter, loc, bits, passThru);
    Value load = LLVM::MaskedLoadOp::create(
        rewriter, loc, bits, op.getData(), op.getMask(), passThru,
        op.getAlignmentAttr(), op.getNontemporalAttr());
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, op.getType(), load);
    return success();
  }
};

struct MaskedStoreAsInteger : OpRewritePattern<LLVM::MaskedStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::MaskedStoreOp op,
                                PatternRewriter &rewriter) const override {
    VectorType bits = integerVectorFor(op.getValue().getType());
    if (!bits)
      return rewriter.notifyMatchFailure(op, "not a 16-bit float vector");
    Value value =
        LLVM::BitcastOp::create(rewriter, op.getLoc(), bits, op.getValue());
    rewriter.modifyOpInPlace(op, [&] { op.getValueMutable().assign(value); });
    return success();
  }
};

struct NormMaskedHalfAsIntegerPass
    : norm::impl::NormMaskedHalfAsIntegerPassBase<NormMaskedHalfAsIntegerPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateMaskedHalfAsIntegerPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateMaskedHalfAsIntegerPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<MaskedLoadAsInteger, MaskedStoreAsInteger>(patterns.getContext(),
                                                          benefit);
}
