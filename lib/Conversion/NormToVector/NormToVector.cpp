//===- NormToVector.cpp - convert-norm-to-vector --------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_CONVERTNORMTOVECTORPASS
#include "norm/Conversion/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {
struct LowerToVectorKernel : OpRewritePattern<NormalizeOp> {
  LowerToVectorKernel(MLIRContext *ctx, const VectorKernelOptions &options,
                      PatternBenefit benefit)
      : OpRewritePattern(ctx, benefit), options(options) {}
  LogicalResult matchAndRewrite(NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    return lowerToVectorKernel(rewriter, op, options);
  }
  VectorKernelOptions options;
};

struct ConvertNormToVectorPass
    : norm::impl::ConvertNormToVectorPassBase<ConvertNormToVectorPass> {
  using Base::Base;
  void runOnOperation() override {
    if (vectorBits < 64 || vectorBits % 64 || accumulators < 1) {
      getOperation()->emitError()
          << "convert-norm-to-vector: vector-bits must be a positive multiple "
             "of 64 and accumulators positive, got "
          << static_cast<int64_t>(vectorBits) << " and "
          << static_cast<int64_t>(accumulators);
      return signalPassFailure();
    }
    // A memref-form op without a kernel would be left behind: say so.
    WalkResult walk = getOperation()->walk([](NormalizeOp op) {
      if (!op.hasPureBufferSemantics() || hasVectorKernel(op))
        return WalkResult::advance();
      op.emitOpError() << "has no CPU vector kernel (it needs f32 "
                          "accumulation, f32/f16/bf16 operands, ascending "
                          "affine dims and the innermost dim reduced): lower "
                          "the tensor form through linalg instead";
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    VectorKernelOptions options;
    options.vectorBits = vectorBits;
    options.accumulators = accumulators;
    RewritePatternSet patterns(&getContext());
    populateNormToVectorPatterns(patterns, options);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::norm::populateNormToVectorPatterns(
    RewritePatternSet &patterns, const VectorKernelOptions &options,
    PatternBenefit benefit) {
  patterns.add<LowerToVectorKernel>(patterns.getContext(), options, benefit);
}
