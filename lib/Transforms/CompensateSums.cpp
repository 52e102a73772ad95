//===- CompensateSums.cpp - norm-compensate-sums --------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMCOMPENSATESUMSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {
/// linalg.generic {reduction} ins(...) outs(%acc) { ... yield addf(%out, %t) }
/// becomes a generic with a second, zero-initialized output %c:
///   y = t − c;  s' = s + y;  c' = (s' − s) − y  (0 once s' is not finite)
struct CompensateSum : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() == 0)
      return rewriter.notifyMatchFailure(op, "not a single-output reduction");
    Block *body = op.getBody();
    BlockArgument out = body->getArguments().back();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
    if (!add || add->getBlock() != body || !out.hasOneUse() ||
        !llvm::is_contained(add->getOperands(), out) || !add->hasOneUse())
      return rewriter.notifyMatchFailure(op, "not an addf accumulation");
    Value term = add.getLhs() == out ? add.getRhs() : add.getLhs();
    if (term == out)
      return rewriter.notifyMatchFailure(op, "adds the accumulator to itself");

    Location loc = op.getLoc();
    Value init = op.getDpsInits()[0];
    auto initType = cast<RankedTensorType>(init.getType());
    Type elementType = initType.getElementType();
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elementType));
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init), elementType);
    Value compensation =
        linalg::FillOp::create(rewriter, loc, ValueRange{zero}, ValueRange{empty})
            .getResult(0);

    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps.push_back(maps.back());
    auto compensated = linalg::GenericOp::create(
        rewriter, loc, TypeRange{initType, compensation.getType()},
        op.getDpsInputs(), ValueRange{init, compensation}, maps,
        op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location nl, ValueRange args) {
          IRMapping mapping;
          for (auto [oldArg, newArg] :
               llvm::zip(body->getArguments(), args.drop_back()))
            mapping.map(oldArg, newArg);
          for (Operation &inner : body->without_terminator())
            if (&inner != add.getOperation())
              b.clone(inner, mapping);
          Value sum = args[args.size() - 2], carry = args.back();
          Value t = mapping.lookupOrDefault(term);
          Value y = arith::SubFOp::create(b, nl, t, carry);
          Value next = arith::AddFOp::create(b, nl, sum, y);
          Value lost = arith::SubFOp::create(
              b, nl, arith::SubFOp::create(b, nl, next, sum), y);
          // next − next is 0 exactly when next is finite.
          Value self = arith::SubFOp::create(b, nl, next, next);
          Value finite = arith::CmpFOp::create(
              b, nl, arith::CmpFPredicate::OEQ, self,
              arith::ConstantOp::create(b, nl, b.getZeroAttr(elementType)));
          Value newCarry = arith::SelectOp::create(
              b, nl, finite, lost,
              arith::ConstantOp::create(b, nl, b.getZeroAttr(elementType)));
          linalg::YieldOp::create(b, nl, ValueRange{next, newCarry});
        });
    rewriter.replaceOp(op, compensated.getResult(0));
    return success();
  }
};

struct NormCompensateSumsPass
    : norm::impl::NormCompensateSumsPassBase<NormCompensateSumsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCompensateSumsPatterns(patterns);
    // One rewrite per op: the rewritten generic has two outputs and no
    // longer matches.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateCompensateSumsPatterns(RewritePatternSet &patterns,
                                                PatternBenefit benefit) {
  patterns.add<CompensateSum>(patterns.getContext(), benefit);
}
