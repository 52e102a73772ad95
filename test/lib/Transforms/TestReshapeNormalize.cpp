//===- TestReshapeNormalize.cpp - apply the reshape patterns --------------===//
//
// Part of the norm-mlir project.
//
// Testing only: applies the expand-groups and collapse-reduced-dims
// patterns greedily, so that the rewrites are checked on their own
// (test/Transforms/reshape-normalize.mlir); norm-tile-and-vectorize applies
// them to the ops its row strategy takes.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
struct TestReshapeNormalizePass
    : PassWrapper<TestReshapeNormalizePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestReshapeNormalizePass)
  StringRef getArgument() const final { return "test-norm-reshape-normalize"; }
  StringRef getDescription() const final {
    return "Rewrite norm.normalize without groups and over one dim per run "
           "of adjacent reduced dims (norm::populateExpandGroupsPatterns, "
           "norm::populateCollapseReducedDimsPatterns)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tensor::TensorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateExpandGroupsPatterns(patterns);
    norm::populateCollapseReducedDimsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

namespace mlir::norm::test {
void registerTestReshapeNormalizePass() {
  PassRegistration<TestReshapeNormalizePass>();
}
} // namespace mlir::norm::test
