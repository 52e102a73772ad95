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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_CONVERTNORMTOGPUPASS
#include "norm/Conversion/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

/// Whether `op` runs on the host: outside gpu.launch bodies and kernels.
static bool isHostOp(Operation *op) {
  return !op->getParentOfType<gpu::LaunchOp>() &&
         !op->getParentOfType<gpu::GPUModuleOp>();
}

/// Whether `op` reads or writes memref memory (or, with `allocates`,
/// allocates it).
static bool accessesMemory(Operation *op, bool allocates) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    Value value = e.getValue();
    if (!value || !isa<BaseMemRefType>(value.getType()))
      return false;
    if (allocates)
      return isa<MemoryEffects::Allocate>(e.getEffect());
    return isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect());
  });
}

/// Fails on a host op left that reads, writes or allocates memref memory:
/// the host function's buffers are device memory, and host memory handed to
/// a kernel is not readable there. An access is reported before an
/// allocation, which usually only feeds it.
static LogicalResult verifyNoHostMemoryAccess(Operation *root) {
  for (bool allocates : {false, true}) {
    WalkResult walk =
        root->walk<WalkOrder::PreOrder>([&](Operation *op) {
          if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
            return WalkResult::skip();
          if (isa<gpu::GPUDialect>(op->getDialect()) ||
              isa<memref::DeallocOp>(op) || !accessesMemory(op, allocates))
            return WalkResult::advance();
          op->emitOpError()
              << "would run on the host over device memory: the GPU pipeline "
                 "offloads norm.normalize and buffer copies only";
          return WalkResult::interrupt();
        });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

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

/// A host memref.copy between buffers of this pipeline's memrefs, which
/// hold device pointers (bufferization copies the running statistics into
/// their results this way), as a device-to-device gpu.memcpy ordered
/// before the launches that follow it; a host memcpy would dereference
/// device pointers.
struct CopyBetweenDeviceBuffers : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    if (!isHostOp(op))
      return failure();
    auto sourceType = dyn_cast<MemRefType>(op.getSource().getType());
    auto targetType = dyn_cast<MemRefType>(op.getTarget().getType());
    // gpu.memcpy moves one contiguous range.
    if (!sourceType || !targetType || !sourceType.getLayout().isIdentity() ||
        !targetType.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "not two contiguous buffers");
    Location loc = op.getLoc();
    Type tokenType = rewriter.getType<gpu::AsyncTokenType>();
    Value start = gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange{})
                      .getResult(0);
    Value copied =
        gpu::MemcpyOp::create(rewriter, loc, tokenType, ValueRange{start},
                              op.getTarget(), op.getSource())
            .getAsyncToken();
    gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{copied});
    rewriter.eraseOp(op);
    return success();
  }
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
    if (failed(verifyNoHostMemoryAccess(getOperation())))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateNormToGPUPatterns(RewritePatternSet &patterns,
                                           const GPUKernelOptions &options,
                                           PatternBenefit benefit) {
  patterns.add<LowerToGPUKernel>(patterns.getContext(), options, benefit);
  patterns.add<CopyBetweenDeviceBuffers>(patterns.getContext(), benefit);
}
