//===- VectorizeElementwise.cpp - norm-vectorize-elementwise --------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMVECTORIZEELEMENTWISEPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {
struct NormVectorizeElementwisePass
    : norm::impl::NormVectorizeElementwisePassBase<
          NormVectorizeElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorSize < 1) {
      getOperation()->emitError() << "vector-size must be positive, got "
                                  << static_cast<int64_t>(vectorSize);
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> targets;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && op.getNumLoops() > 0 &&
          op.getNumReductionLoops() == 0)
        targets.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : targets) {
      unsigned numLoops = op.getNumLoops();
      FailureOr<scf::SCFTilingResult> tiled =
          norm::tileToVectorRow(rewriter, op, vectorSize);
      if (failed(tiled)) {
        op.emitError() << "could not be tiled for vectorization";
        return signalPassFailure();
      }
      SmallVector<int64_t> vectorSizes(numLoops, 1);
      vectorSizes.back() = vectorSize;
      for (Operation *tile : tiled->tiledOps) {
        rewriter.setInsertionPoint(tile);
        // Pass the scalable flags explicitly: an empty list builds mask
        // types that print like, but are not, vector<16xi1>.
        SmallVector<bool> scalable(numLoops, false);
        FailureOr<linalg::VectorizationResult> vectorized =
            linalg::vectorize(rewriter, tile, vectorSizes, scalable);
        // A tile the vectorizer does not support stays scalar: correct,
        // only slower.
        if (succeeded(vectorized))
          rewriter.replaceOp(tile, vectorized->replacements);
      }
    }
  }
};
} // namespace
