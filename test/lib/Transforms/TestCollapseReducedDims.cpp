//===- TestCollapseReducedDims.cpp - apply collapseReducedDims ------------===//
//
// Part of the norm-mlir project.
//
// Testing only: applies the collapse-reduced-dims patterns greedily, so
// that the rewrite is checked on its own (test/Transforms/
// collapse-reduced-dims.mlir); norm-tile-and-vectorize applies it to the
// ops its row strategy takes.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
struct TestCollapseReducedDimsPass
    : PassWrapper<TestCollapseReducedDimsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestCollapseReducedDimsPass)
  StringRef getArgument() const final {
    return "test-norm-collapse-reduced-dims";
  }
  StringRef getDescription() const final {
    return "Rewrite norm.normalize over one dim per run of adjacent reduced "
           "dims (norm::populateCollapseReducedDimsPatterns)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tensor::TensorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateCollapseReducedDimsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

namespace mlir::norm::test {
void registerTestCollapseReducedDimsPass() {
  PassRegistration<TestCollapseReducedDimsPass>();
}
} // namespace mlir::norm::test
