//===- TestWidenBF16PairsInSums.cpp - apply the bf16 pair widening --------===//
//
// Part of the norm-mlir project.
//
// Testing only: applies norm::populateWidenBF16PairsInSumsPatterns to every
// loop, so that the rewrite and the loops it must leave alone are checked on
// hand-written IR (test/Transforms/widen-bf16-pairs-in-sums.mlir);
// norm-tile-and-vectorize applies it to the loops it builds.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;

namespace {
struct TestWidenBF16PairsInSumsPass
    : PassWrapper<TestWidenBF16PairsInSumsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestWidenBF16PairsInSumsPass)
  StringRef getArgument() const final {
    return "test-norm-widen-bf16-pairs-in-sums";
  }
  StringRef getDescription() const final {
    return "Widen bf16 in lane pairs in loops that only sum them "
           "(norm::populateWidenBF16PairsInSumsPatterns)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateWidenBF16PairsInSumsPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

namespace mlir::norm::test {
void registerTestWidenBF16PairsInSumsPass() {
  PassRegistration<TestWidenBF16PairsInSumsPass>();
}
} // namespace mlir::norm::test
