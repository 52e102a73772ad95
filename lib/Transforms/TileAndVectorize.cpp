//===- TileAndVectorize.cpp - norm-tile-and-vectorize ---------------------===//
//
// Part of the norm-mlir project.
//
// The linalg CPU strategy for norm.normalize ops whose innermost dim is not
// reduced: tile the op over threads through TilingInterface, decompose the
// tile through AggregatedOpInterface, and vectorize the tile's linalg ops
// along the innermost dim, one independent accumulator per vector.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormOps.h"
#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMTILEANDVECTORIZEPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The tile size along the innermost dim: `vectorsPerTile` vectors, halved
/// while a static dim would give fewer than four tiles (the threads need
/// tiles to share), never below one vector nor above the dim.
int64_t chooseInnermostTile(NormalizeOp op,
                            const TileAndVectorizeOptions &options) {
  int64_t lanes = std::max<int64_t>(
      options.vectorBits / op.getAccumulationType().getWidth(), 1);
  int64_t tile = lanes * std::max<int64_t>(options.vectorsPerTile, 1);
  int64_t extent = op.getInputType().getShape().back();
  if (ShapedType::isDynamic(extent))
    return tile;
  while (tile > lanes && llvm::divideCeil(extent, tile) < 4)
    tile = std::max(lanes, tile / 2 / lanes * lanes);
  return std::max<int64_t>(std::min(tile, extent), 1);
}

/// Applies `patterns` to the ops nested in `root`.
LogicalResult applyNested(Operation *root, RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::AnyOp);
  return applyPatternsGreedily(root, std::move(patterns), config);
}

/// Canonicalizations, and tensor.dim of a tile resolved to the tile's size
/// (the masks of a partial tile are then loop-invariant).
void addCanonicalizations(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

/// Whether two masks are one value or two create_masks of the same sizes.
bool isSameMask(Value a, Value b) {
  if (a == b)
    return true;
  auto ma = a ? a.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  auto mb = b ? b.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  return ma && mb && ma.getType() == mb.getType() &&
         ma.getOperands() == mb.getOperands();
}

/// transfer_read(transfer_write(%v, %t[i], %mask)[i], %mask, poison) -> %v:
/// the lanes the mask keeps are %v's, and the others are poison in the
/// read, so %v refines them. Statistics of a partial tile pass from op to
/// op in registers instead of through a tile-sized buffer.
struct ForwardMaskedWrite : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
    if (!write || !read.getMask() ||
        !isSameMask(write.getMask(), read.getMask()) ||
        !read.getPadding().getDefiningOp<ub::PoisonOp>() ||
        write.getVectorType() != read.getVectorType() ||
        write.getPermutationMap() != read.getPermutationMap() ||
        write.getIndices() != read.getIndices())
      return rewriter.notifyMatchFailure(read, "not a masked RAW pair");
    rewriter.replaceOp(read, write.getVector());
    return success();
  }
};

/// Whether the slice [0, sizes) with unit strides covers all of `whole`,
/// provably (the sizes of a partial tile are dynamic).
bool coversWhole(Value whole, ArrayRef<OpFoldResult> offsets,
                 ArrayRef<OpFoldResult> sizes, ArrayRef<OpFoldResult> strides) {
  auto type = cast<RankedTensorType>(whole.getType());
  if (static_cast<int64_t>(sizes.size()) != type.getRank() ||
      !llvm::all_of(offsets, isZeroInteger) ||
      !llvm::all_of(strides, isOneInteger))
    return false;
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
        ValueBoundsConstraintSet::Variable(size),
        ValueBoundsConstraintSet::Variable(whole, dim));
    if (failed(equal) || !*equal)
      return false;
  }
  return true;
}

/// extract_slice of all of a tensor -> the tensor.
struct FoldWholeExtractSlice : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    if (slice.getType() != slice.getSourceType() ||
        !coversWhole(slice.getSource(), slice.getMixedOffsets(),
                     slice.getMixedSizes(), slice.getMixedStrides()))
      return rewriter.notifyMatchFailure(slice, "not the whole tensor");
    rewriter.replaceOp(slice, slice.getSource());
    return success();
  }
};

/// insert_slice over all of a tensor -> the inserted tensor.
struct FoldWholeInsertSlice : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp slice,
                                PatternRewriter &rewriter) const override {
    if (slice.getSourceType() != slice.getDestType() ||
        !coversWhole(slice.getDest(), slice.getMixedOffsets(),
                     slice.getMixedSizes(), slice.getMixedStrides()))
      return rewriter.notifyMatchFailure(slice, "not the whole tensor");
    rewriter.replaceOp(slice, slice.getSource());
    return success();
  }
};

/// Tiles every linalg op of `forall` to vector rows: 1 along every loop but
/// the innermost, which is `innermostSize` or, for 0, whole (`scf.for`
/// loops; reductions accumulate into the loop-carried destination).
LogicalResult tileToVectorRows(RewriterBase &rewriter, scf::ForallOp forall,
                               int64_t innermostSize) {
  SmallVector<linalg::LinalgOp> targets;
  forall.getBody()->walk([&](linalg::LinalgOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ranges.empty())
      return;
    bool outerUnit = llvm::all_of(ArrayRef(ranges).drop_back(),
                                  [](int64_t r) { return r == 1; });
    bool innermostFits =
        innermostSize == 0 || (!ShapedType::isDynamic(ranges.back()) &&
                               ranges.back() <= innermostSize);
    if (!outerUnit || !innermostFits)
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    unsigned numLoops = op.getNumLoops();
    SmallVector<OpFoldResult> sizes(numLoops, rewriter.getIndexAttr(1));
    sizes.back() = rewriter.getIndexAttr(innermostSize);
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return op->emitOpError() << "could not be tiled to vector rows";
    rewriter.replaceOp(op, tiled->replacements);
  }
  return success();
}

/// The threads' tile of an op with given statistics, which is elementwise:
/// whole innermost rows, about `kTileBytes` of them per tile along the
/// second innermost dim (a run-time count for a dynamic row length), 1
/// along the outer dims. Each thread streams contiguous memory.
SmallVector<OpFoldResult> chooseRowBlockTile(RewriterBase &rewriter,
                                             NormalizeOp op) {
  constexpr int64_t kTileBytes = 64 * 1024;
  int64_t rank = op.getRank();
  SmallVector<OpFoldResult> sizes(rank, rewriter.getIndexAttr(1));
  sizes.back() = rewriter.getIndexAttr(0);
  if (rank == 1)
    return sizes;
  ShapedType type = op.getInputType();
  int64_t elementBytes =
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  int64_t rowLength = type.getShape().back();
  if (!ShapedType::isDynamic(rowLength)) {
    sizes[rank - 2] = rewriter.getIndexAttr(
        std::max<int64_t>(kTileBytes / (rowLength * elementBytes), 1));
    return sizes;
  }
  // rows = max(kTileBytes / (rowLength · elementBytes), 1), at run time.
  Location loc = op.getLoc();
  Value length = tensor::DimOp::create(rewriter, loc, op.getInput(), rank - 1);
  Value rowBytes = arith::MulIOp::create(
      rewriter, loc, length,
      arith::ConstantIndexOp::create(rewriter, loc, elementBytes));
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value rows = arith::DivUIOp::create(
      rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, kTileBytes),
      arith::MaxUIOp::create(rewriter, loc, rowBytes, one));
  sizes[rank - 2] =
      arith::MaxUIOp::create(rewriter, loc, rows, one).getResult();
  return sizes;
}

} // namespace

bool mlir::norm::hasInnermostParallelDim(NormalizeOp op) {
  int64_t rank = op.getRank();
  return op.hasPureTensorSemantics() && rank > 0 &&
         !op.isReductionAxis(rank - 1) && !op.getGroups();
}

/// An op that computes its statistics: the op tiled over its parallel dims
/// (reduced dims whole), decomposed on the tile, its sums compensated; one
/// vector of accumulators spans the tile's innermost dim.
static FailureOr<scf::ForallOp>
tileComputedStatistics(RewriterBase &rewriter, NormalizeOp op,
                       const TileAndVectorizeOptions &options,
                       int64_t &vectorSize, int64_t &rowTile) {
  int64_t rank = op.getRank();
  vectorSize = chooseInnermostTile(op, options);
  rowTile = 0;
  SmallVector<OpFoldResult> tileSizes;
  for (int64_t d = 0; d < rank; ++d)
    tileSizes.push_back(rewriter.getIndexAttr(
        op.isReductionAxis(d) ? 0 : (d == rank - 1 ? vectorSize : 1)));
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(tileSizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), tiling);
  if (failed(tiled))
    return op.emitOpError() << "could not be tiled over its parallel dims";
  rewriter.replaceOp(op, tiled->replacements);
  auto forall = cast<scf::ForallOp>(tiled->loops.front().getOperation());

  auto tiledOp = cast<NormalizeOp>(tiled->tiledOps.front());
  FailureOr<SmallVector<Value>> decomposed =
      tiledOp.decomposeOperation(rewriter);
  if (failed(decomposed))
    return failure();
  rewriter.replaceOp(tiledOp, *decomposed);

  // Serial accumulation per lane: compensated sums.
  RewritePatternSet patterns(forall.getContext());
  populateCompensateSumsPatterns(patterns);
  if (failed(applyNested(forall, std::move(patterns))))
    return forall.emitOpError() << "could not compensate the tile's sums";
  return forall;
}

/// An op with given statistics is elementwise: decomposed whole, its
/// normalize step tiled into row blocks, each row in vectors of four
/// registers. The per-channel maps stay outside the loop (once per call).
static FailureOr<scf::ForallOp>
tileGivenStatistics(RewriterBase &rewriter, NormalizeOp op, int64_t lanes,
                    int64_t &vectorSize, int64_t &rowTile) {
  vectorSize = rowTile = 4 * lanes;
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> tileSizes = chooseRowBlockTile(rewriter, op);
  Location loc = op.getLoc();
  FailureOr<SmallVector<Value>> decomposed = op.decomposeOperation(rewriter);
  if (failed(decomposed))
    return failure();
  rewriter.replaceOp(op, *decomposed);
  auto normalize = (*decomposed)[0].getDefiningOp<linalg::GenericOp>();
  if (!normalize || normalize.getNumLoops() != tileSizes.size())
    return emitError(loc) << "the decomposition's normalize step is not an "
                             "elementwise linalg.generic over the input";
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(tileSizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(normalize);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(normalize.getOperation()), tiling);
  if (failed(tiled))
    return normalize.emitOpError() << "could not be tiled into row blocks";
  rewriter.replaceOp(normalize, tiled->replacements);
  return cast<scf::ForallOp>(tiled->loops.front().getOperation());
}

/// Vectorizes the linalg ops of a thread tile: vector rows, unit dims
/// folded, `linalg::vectorize`, accumulators hoisted.
static FailureOr<scf::ForallOp> vectorizeTile(RewriterBase &rewriter,
                                              scf::ForallOp forall,
                                              int64_t vectorSize,
                                              int64_t rowTile) {
  MLIRContext *ctx = forall.getContext();
  // 4. Vector rows, unit dims folded, vectorized.
  if (failed(tileToVectorRows(rewriter, forall, rowTile)))
    return failure();
  {
    RewritePatternSet patterns(ctx);
    linalg::ControlDropUnitDims control;
    control.rankReductionStrategy =
        linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
    linalg::populateFoldUnitExtentDimsPatterns(patterns, control);
    linalg::populateFoldUnitExtentDimsCanonicalizationPatterns(patterns,
                                                               control);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not fold the tile's unit dims";
  }
  SmallVector<linalg::LinalgOp> rows;
  forall.getBody()->walk([&](linalg::LinalgOp row) { rows.push_back(row); });
  for (linalg::LinalgOp row : rows) {
    // An op the vectorizer does not take stays scalar: correct, slower.
    if (row.getNumLoops() > 1)
      continue;
    SmallVector<int64_t> vectorSizes(row.getNumLoops(), vectorSize);
    SmallVector<bool> scalable(row.getNumLoops(), false);
    rewriter.setInsertionPoint(row);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, row, vectorSizes, scalable);
    if (succeeded(vectorized))
      rewriter.replaceOp(row, vectorized->replacements);
  }

  // 5. Masks as masked transfers, subsets folded into the transfers, and
  // the accumulators hoisted into the row loops' iteration arguments.
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not simplify the vectorized tile";
  }
  SmallVector<scf::ForOp> loops;
  forall.getBody()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    moveLoopInvariantCode(loop);
    hoistLoopInvariantSubsets(rewriter, loop);
  }
  {
    RewritePatternSet patterns(ctx);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    tensor::populateFoldTensorSubsetOpPatterns(patterns);
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
    patterns
        .add<FoldWholeExtractSlice, FoldWholeInsertSlice, ForwardMaskedWrite>(
            ctx);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not simplify the vectorized tile";
  }
  return forall;
}

FailureOr<scf::ForallOp>
mlir::norm::tileAndVectorizeNormalize(RewriterBase &rewriter, NormalizeOp op,
                                      const TileAndVectorizeOptions &options) {
  if (!hasInnermostParallelDim(op))
    return rewriter.notifyMatchFailure(
        op, "not a tensor-form op whose innermost dim is parallel");

  // 1. Threads: scf.forall over tiles, each with its op's linalg form.
  int64_t lanes = std::max<int64_t>(
      options.vectorBits / op.getAccumulationType().getWidth(), 1);
  int64_t vectorSize, rowTile;
  FailureOr<scf::ForallOp> forall =
      op.hasComputedStatistics()
          ? tileComputedStatistics(rewriter, op, options, vectorSize, rowTile)
          : tileGivenStatistics(rewriter, op, lanes, vectorSize, rowTile);
  if (failed(forall))
    return failure();
  return vectorizeTile(rewriter, *forall, vectorSize, rowTile);
}

namespace {
struct NormTileAndVectorizePass
    : norm::impl::NormTileAndVectorizePassBase<NormTileAndVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits < 8 || vectorsPerTile < 1) {
      getOperation()->emitError()
          << "vector-bits must be at least 8 and vectors-per-tile positive, "
             "got "
          << static_cast<int64_t>(vectorBits) << " and "
          << static_cast<int64_t>(vectorsPerTile);
      return signalPassFailure();
    }
    TileAndVectorizeOptions options;
    options.vectorBits = vectorBits;
    options.vectorsPerTile = vectorsPerTile;
    SmallVector<NormalizeOp> targets;
    getOperation()->walk([&](NormalizeOp op) {
      if (hasInnermostParallelDim(op) &&
          (computedStatistics || !op.hasComputedStatistics()))
        targets.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (NormalizeOp op : targets)
      if (failed(tileAndVectorizeNormalize(rewriter, op, options)))
        return signalPassFailure();
  }
};
} // namespace
