//===- NormToGPU.cpp - convert-norm-to-gpu --------------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_CONVERTNORMTOGPUPASS
#include "norm/Conversion/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {
struct LowerToGPUKernel : OpRewritePattern<NormalizeOp> {
  LowerToGPUKernel(MLIRContext *ctx, const GPUKernelOptions &options,
                   PatternBenefit benefit)
      : OpRewritePattern(ctx, benefit), options(options) {}
  LogicalResult matchAndRewrite(NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    return lowerToGPUKernel(rewriter, op, options);
  }
  GPUKernelOptions options;
};

struct ConvertNormToGPUPass
    : norm::impl::ConvertNormToGPUPassBase<ConvertNormToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (blockSize < 32 || blockSize > 1024 || (blockSize & (blockSize - 1)) ||
        vectorBytes < 4 || vectorBytes > 16 ||
        (vectorBytes & (vectorBytes - 1))) {
      getOperation()->emitError()
          << "convert-norm-to-gpu: block-size must be a power of two in "
             "[32, 1024] and vector-bytes one of 4, 8, 16; got "
          << static_cast<int64_t>(blockSize) << " and "
          << static_cast<int64_t>(vectorBytes);
      return signalPassFailure();
    }
    // A memref-form op without a kernel would be left behind: say so.
    WalkResult walk = getOperation()->walk([](NormalizeOp op) {
      std::string why;
      if (!op.hasPureBufferSemantics() || hasGPUKernel(op, why))
        return WalkResult::advance();
      op.emitOpError() << "has no GPU kernel: it " << why;
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    GPUKernelOptions options;
    options.blockSize = blockSize;
    options.vectorBytes = vectorBytes;
    RewritePatternSet patterns(&getContext());
    populateNormToGPUPatterns(patterns, options);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::norm::populateNormToGPUPatterns(RewritePatternSet &patterns,
                                           const GPUKernelOptions &options,
                                           PatternBenefit benefit) {
  patterns.add<LowerToGPUKernel>(patterns.getContext(), options, benefit);
}
