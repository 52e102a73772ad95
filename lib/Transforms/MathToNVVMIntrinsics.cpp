//===- MathToNVVMIntrinsics.cpp - norm-math-to-nvvm-intrinsics ------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMMATHTONVVMINTRINSICSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

static bool isF32OrVectorOfF32(Type type) {
  return getElementTypeOrSelf(type).isF32();
}

namespace {
struct FmaToIntrinsic : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp op,
                                PatternRewriter &rewriter) const override {
    if (!isF32OrVectorOfF32(op.getType()))
      return rewriter.notifyMatchFailure(op, "not f32");
    rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, op.getA(), op.getB(),
                                             op.getC());
    return success();
  }
};

/// A unary f32 math op as a scalar NVVM intrinsic, element by element on
/// vectors.
template <typename MathOp>
struct UnaryToIntrinsic : OpRewritePattern<MathOp> {
  UnaryToIntrinsic(MLIRContext *ctx, StringRef intrinsic)
      : OpRewritePattern<MathOp>(ctx), intrinsic(intrinsic) {}
  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isF32OrVectorOfF32(type))
      return rewriter.notifyMatchFailure(op, "not f32");
    Location loc = op.getLoc();
    StringAttr name = rewriter.getStringAttr(intrinsic);
    Type f32 = rewriter.getF32Type();
    auto call = [&](Value v) -> Value {
      SmallVector<Value, 1> operands = {v};
      return LLVM::CallIntrinsicOp::create(rewriter, loc, f32, name, operands)
          .getResult(0);
    };
    auto vector = dyn_cast<VectorType>(type);
    if (!vector) {
      rewriter.replaceOp(op, call(op.getOperand()));
      return success();
    }
    if (vector.getRank() != 1 || vector.isScalable())
      return rewriter.notifyMatchFailure(op, "not a fixed 1-D vector");
    Value result =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(vector));
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i) {
      SmallVector<int64_t, 1> position = {i};
      Value element =
          vector::ExtractOp::create(rewriter, loc, op.getOperand(), position);
      Value scalar = call(element);
      result =
          vector::InsertOp::create(rewriter, loc, scalar, result, position);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
  std::string intrinsic;
};

struct NormMathToNVVMIntrinsicsPass
    : norm::impl::NormMathToNVVMIntrinsicsPassBase<
          NormMathToNVVMIntrinsicsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateMathToNVVMIntrinsicsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateMathToNVVMIntrinsicsPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FmaToIntrinsic>(ctx);
  patterns.add<UnaryToIntrinsic<math::RsqrtOp>>(ctx,
                                                "llvm.nvvm.rsqrt.approx.f");
  patterns.add<UnaryToIntrinsic<math::SqrtOp>>(ctx, "llvm.nvvm.sqrt.rn.f");
}
