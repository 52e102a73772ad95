//===- TestSkipEmptyMaskedSteps.cpp - branch around empty masked steps ----===//
//
// Part of the norm-mlir project.
//
// Testing only: applies norm::populateSkipEmptyMaskedStepsPatterns to the
// whole input, so that the rewrite and the steps it must leave alone are
// checked on hand-written IR (test/Transforms/skip-empty-masked-steps.mlir);
// norm-tile-and-vectorize applies it to the tiles it builds.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
struct TestSkipEmptyMaskedStepsPass
    : PassWrapper<TestSkipEmptyMaskedStepsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestSkipEmptyMaskedStepsPass)
  StringRef getArgument() const final {
    return "test-norm-skip-empty-masked-steps";
  }
  StringRef getDescription() const final {
    return "Branch around the masked last steps of vector partial sums "
           "(norm::populateSkipEmptyMaskedStepsPatterns)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<arith::ArithDialect, scf::SCFDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    norm::populateSkipEmptyMaskedStepsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

namespace mlir::norm::test {
void registerTestSkipEmptyMaskedStepsPass() {
  PassRegistration<TestSkipEmptyMaskedStepsPass>();
}
} // namespace mlir::norm::test
