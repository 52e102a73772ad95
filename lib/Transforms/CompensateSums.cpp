//===- CompensateSums.cpp - norm-compensate-sums --------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormNumerics.h"
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
/// linalg.generic {reduction} ins(...) outs(%acc...) {
///   ... yield addf(%out_i, %t_i)... }
/// gets one zero-initialized compensation output %c_i per sum:
///   y = t − c;  s' = s + y;  c' = (s' − s) − y  (0 once s' is not finite)
/// Outputs with other combiners (a max beside the sums) stay as they are.
struct CompensateSum : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    // A rewritten generic does not match again: its sums feed the
    // compensation too (their accumulators have several uses), and its
    // compensations are selects.
    if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0)
      return rewriter.notifyMatchFailure(op, "not a reduction on tensors");
    Block *body = op.getBody();
    unsigned numInits = op.getNumDpsInits();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    // The outputs that are sums: their index, add and summand.
    SmallVector<unsigned> sums;
    SmallVector<arith::AddFOp> adds;
    SmallVector<Value> terms;
    for (unsigned i = 0; i < numInits; ++i) {
      BlockArgument out = body->getArgument(op.getNumDpsInputs() + i);
      auto add = yield.getOperand(i).getDefiningOp<arith::AddFOp>();
      if (!add || add->getBlock() != body || !out.hasOneUse() ||
          !llvm::is_contained(add->getOperands(), out) || !add->hasOneUse())
        continue;
      Value term = add.getLhs() == out ? add.getRhs() : add.getLhs();
      if (term == out)
        continue;
      sums.push_back(i);
      adds.push_back(add);
      terms.push_back(term);
    }
    if (sums.empty())
      return rewriter.notifyMatchFailure(op, "no addf accumulation");

    Location loc = op.getLoc();
    SmallVector<Value> inits(op.getDpsInits());
    SmallVector<Type> resultTypes(op->getResultTypes());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (unsigned i : sums) {
      Value init = op.getDpsInits()[i];
      Type elementType = getElementTypeOrSelf(init.getType());
      Value zero = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getZeroAttr(elementType));
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, init),
          elementType);
      inits.push_back(linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                             ValueRange{empty})
                          .getResult(0));
      resultTypes.push_back(init.getType());
      maps.push_back(op.getMatchingIndexingMap(op.getDpsInitOperand(i)));
    }
    unsigned numInputs = op.getNumDpsInputs();
    auto compensated = linalg::GenericOp::create(
        rewriter, loc, resultTypes, op.getDpsInputs(), inits, maps,
        op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location nl, ValueRange args) {
          IRMapping mapping;
          for (auto [oldArg, newArg] :
               llvm::zip(body->getArguments(),
                         args.take_front(body->getNumArguments())))
            mapping.map(oldArg, newArg);
          for (Operation &inner : body->without_terminator())
            if (!llvm::is_contained(adds, dyn_cast<arith::AddFOp>(&inner)))
              b.clone(inner, mapping);
          SmallVector<Value> yielded, carries;
          for (unsigned i = 0; i < numInits; ++i)
            yielded.push_back(mapping.lookupOrDefault(yield.getOperand(i)));
          for (auto [q, i] : llvm::enumerate(sums)) {
            auto [next, carry] = buildCompensatedAdd(
                b, nl, args[numInputs + i], args[numInputs + numInits + q],
                mapping.lookupOrDefault(terms[q]));
            yielded[i] = next;
            carries.push_back(carry);
          }
          yielded.append(carries);
          linalg::YieldOp::create(b, nl, yielded);
        });
    rewriter.replaceOp(op, compensated->getResults().take_front(numInits));
    return success();
  }
};

struct NormCompensateSumsPass
    : norm::impl::NormCompensateSumsPassBase<NormCompensateSumsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCompensateSumsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateCompensateSumsPatterns(RewritePatternSet &patterns,
                                                PatternBenefit benefit) {
  patterns.add<CompensateSum>(patterns.getContext(), benefit);
}
