//===- TestPlantBug.cpp - plant numerics bugs the harness must catch ------===//
//
// Part of the norm-mlir project.
//
// Testing only: rewrites norm.normalize with the numerics numerics.md
// forbids, so that the harness's checks are shown to fail on them
// (test/Integration/CPU/planted-bugs.mlir).
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// n·(E[x²] − E[x]²) as the variance: Σx and Σx² in one reduction, then a
/// norm.normalize with the given (wrong) statistics.
static LogicalResult plantOnePassVariance(RewriterBase &rewriter,
                                          NormalizeOp op) {
  if (op.getMode() != NormMode::standard || !op.hasComputedStatistics() ||
      !op.getSaved().empty() || op.isTraining() || op.getGroups())
    return op.emitOpError()
           << "one-pass-variance: only standard mode with computed "
              "statistics, no saved or running statistics and no groups";
  Location loc = op.getLoc();
  FloatType acc = op.getAccumulationType();
  int64_t rank = op.getRank();
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, op.getInput());
  SmallVector<int64_t> statsShape;
  SmallVector<Value> statsDynamic;
  SmallVector<AffineExpr> statsExprs;
  SmallVector<utils::IteratorType> iterators;
  Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (int64_t d = 0; d < rank; ++d) {
    if (op.isReductionAxis(d)) {
      iterators.push_back(utils::IteratorType::reduction);
      count = arith::MulIOp::create(
          rewriter, loc, count,
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]));
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    statsExprs.push_back(rewriter.getAffineDimExpr(d));
    statsShape.push_back(op.getInputType().getDimSize(d));
    if (ShapedType::isDynamic(statsShape.back()))
      statsDynamic.push_back(cast<Value>(sizes[d]));
  }
  Value n =
      arith::UIToFPOp::create(rewriter, loc, acc,
                              arith::IndexCastUIOp::create(
                                  rewriter, loc, rewriter.getI64Type(), count));
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getFloatAttr(acc, 0));
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, statsShape, acc, statsDynamic);
  Value init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  AffineMap statsMap = AffineMap::get(rank, 0, statsExprs, op.getContext());
  auto sums = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType(), init.getType()},
      ValueRange{op.getInput()}, ValueRange{init, init},
      ArrayRef<AffineMap>{identity, statsMap, statsMap}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = args[0].getType() == acc
                      ? args[0]
                      : arith::ExtFOp::create(b, l, acc, args[0]).getResult();
        Value sum = arith::AddFOp::create(b, l, args[1], x);
        Value square = arith::MulFOp::create(b, l, x, x);
        linalg::YieldOp::create(
            b, l,
            ValueRange{sum, arith::AddFOp::create(b, l, args[2], square)});
      });
  AffineMap statsIdentity = rewriter.getMultiDimIdentityMap(statsShape.size());
  auto moments = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType(), init.getType()},
      ValueRange{sums.getResult(0), sums.getResult(1)},
      ValueRange{empty, empty}, SmallVector<AffineMap>(4, statsIdentity),
      SmallVector<utils::IteratorType>(statsShape.size(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value mean = arith::DivFOp::create(b, l, args[0], n);
        Value meanOfSquares = arith::DivFOp::create(b, l, args[1], n);
        Value variance = arith::SubFOp::create(
            b, l, meanOfSquares, arith::MulFOp::create(b, l, mean, mean));
        linalg::YieldOp::create(b, l, ValueRange{mean, variance});
      });
  auto normalized = NormalizeOp::create(
      rewriter, loc, op->getResultTypes(), op.getInput(), op.getScale(),
      op.getBias(), moments.getResult(0), moments.getResult(1), op.getOutput(),
      ValueRange{}, Value(), Value(), op.getModeAttr(), op.getAxesAttr(),
      op.getEpsilonAttr(), op.getAffineDimsAttr(), IntegerAttr(), IntegerAttr(),
      FloatAttr(), UnitAttr(), UnitAttr(), op.getAccTypeAttr());
  rewriter.replaceOp(op, normalized->getResults());
  return success();
}

/// Accumulation in the input type (f16 for f16 data): the op's own
/// decomposition with its accumulation type overridden. The overridden op is
/// invalid (the verifier asks for f32 or f64) and is replaced at once.
static LogicalResult plantNarrowAccumulation(RewriterBase &rewriter,
                                             NormalizeOp op) {
  op.setAccTypeAttr(TypeAttr::get(op.getInputType().getElementType()));
  FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
  if (failed(results))
    return failure();
  rewriter.replaceOp(op, *results);
  return success();
}

/// An op the verifier rejects (a negative epsilon), left in the IR: what a
/// broken pass would leave for the passes after it.
static LogicalResult plantInvalidOp(RewriterBase &rewriter, NormalizeOp op) {
  rewriter.modifyOpInPlace(op, [&] {
    op.setEpsilonAttr(
        rewriter.getFloatAttr(op.getEpsilonAttr().getType(), -1.0));
  });
  return success();
}

struct TestPlantBugPass : PassWrapper<TestPlantBugPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPlantBugPass)
  TestPlantBugPass() = default;
  TestPlantBugPass(const TestPlantBugPass &pass) : PassWrapper(pass) {}
  StringRef getArgument() const final { return "test-norm-plant-bug"; }
  StringRef getDescription() const final {
    return "Testing only: rewrite norm.normalize with a numerics bug "
           "(one-pass-variance: E[x^2] - E[x]^2; narrow-accumulation: "
           "accumulate in the input type; invalid-op: an epsilon the "
           "verifier rejects)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    tensor::TensorDialect>();
  }
  void runOnOperation() override {
    auto plant =
        llvm::StringSwitch<LogicalResult (*)(RewriterBase &, NormalizeOp)>(bug)
            .Case("one-pass-variance", plantOnePassVariance)
            .Case("narrow-accumulation", plantNarrowAccumulation)
            .Case("invalid-op", plantInvalidOp)
            .Default(nullptr);
    if (!plant) {
      getOperation()->emitError() << "unknown bug '" << bug << "'";
      return signalPassFailure();
    }
    SmallVector<NormalizeOp> ops;
    getOperation()->walk([&](NormalizeOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (NormalizeOp op : ops) {
      rewriter.setInsertionPoint(op);
      if (failed(plant(rewriter, op)))
        return signalPassFailure();
    }
  }
  Option<std::string> bug{*this, "bug",
                          llvm::cl::desc("one-pass-variance, "
                                         "narrow-accumulation or invalid-op")};
};
} // namespace

namespace mlir::norm::test {
void registerTestPlantBugPass() { PassRegistration<TestPlantBugPass>(); }
} // namespace mlir::norm::test
