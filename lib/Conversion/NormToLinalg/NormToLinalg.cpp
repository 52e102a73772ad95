//===- NormToLinalg.cpp - convert-norm-to-linalg --------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToLinalg/NormToLinalg.h"
#include "norm/Conversion/Utils/VectorKernelSupport.h"
#include "norm/IR/NormDialect.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_CONVERTNORMTOLINALGPASS
#include "norm/Conversion/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {
struct DecomposeNormalize : OpRewritePattern<NormalizeOp> {
  DecomposeNormalize(MLIRContext *ctx, NormalizeOpFilter filter,
                     PatternBenefit benefit)
      : OpRewritePattern(ctx, benefit), filter(std::move(filter)) {}
  LogicalResult matchAndRewrite(NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "memref form");
    if (filter && !filter(op))
      return rewriter.notifyMatchFailure(op, "filtered out");
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
  NormalizeOpFilter filter;
};

struct ConvertNormToLinalgPass
    : norm::impl::ConvertNormToLinalgPassBase<ConvertNormToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    // The memref form has no decomposition: say so instead of leaving the
    // op behind silently.
    WalkResult walk = getOperation()->walk([&](NormalizeOp op) {
      if (op.hasPureTensorSemantics() ||
          (keepVectorKernels && hasVectorKernel(op)))
        return WalkResult::advance();
      op.emitOpError() << "cannot be decomposed in the memref form: lower "
                          "the tensor form, then bufferize";
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    NormalizeOpFilter filter;
    if (keepVectorKernels)
      filter = [](NormalizeOp op) { return !hasVectorKernel(op); };
    populateNormToLinalgPatterns(patterns, filter);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateNormToLinalgPatterns(RewritePatternSet &patterns,
                                              NormalizeOpFilter filter,
                                              PatternBenefit benefit) {
  patterns.add<DecomposeNormalize>(patterns.getContext(), std::move(filter),
                                   benefit);
}
