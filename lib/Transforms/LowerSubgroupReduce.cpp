//===- LowerSubgroupReduce.cpp - norm-lower-subgroup-reduce ---------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMLOWERSUBGROUPREDUCEPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {
struct NormLowerSubgroupReducePass
    : norm::impl::NormLowerSubgroupReducePassBase<NormLowerSubgroupReducePass> {
  using Base::Base;
  void runOnOperation() override {
    if (subgroupSize < 1 || (subgroupSize & (subgroupSize - 1))) {
      getOperation()->emitError()
          << "norm-lower-subgroup-reduce: subgroup-size must be a power of "
             "two, got "
          << static_cast<unsigned>(subgroupSize);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    norm::populateLowerSubgroupReducePatterns(patterns, subgroupSize);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::norm::populateLowerSubgroupReducePatterns(
    RewritePatternSet &patterns, unsigned subgroupSize) {
  // Vectors and 16-bit values first become 32-bit pieces, then each piece a
  // butterfly of shuffles.
  populateGpuBreakDownSubgroupReducePatterns(patterns,
                                             /*maxShuffleBitwidth=*/32);
  populateGpuLowerSubgroupReduceToShufflePatterns(patterns, subgroupSize,
                                                  /*shuffleBitwidth=*/32);
  populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
      patterns, subgroupSize, /*shuffleBitwidth=*/32);
}
