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

/// extract_slice of all of a tensor -> the tensor; insert_slice over all of
/// a tensor -> the inserted tensor. Both are the slice's source.
template <typename SliceOp>
struct FoldWholeSlice : OpRewritePattern<SliceOp> {
  using OpRewritePattern<SliceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp slice,
                                PatternRewriter &rewriter) const override {
    Value whole = slice.getSource(), part = slice.getResult();
    if constexpr (std::is_same_v<SliceOp, tensor::InsertSliceOp>) {
      whole = slice.getDest();
      part = slice.getSource();
    }
    if (part.getType() != whole.getType() ||
        !coversWhole(whole, slice.getMixedOffsets(), slice.getMixedSizes(),
                     slice.getMixedStrides()))
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
  for (linalg::LinalgOp op : targets)
    if (failed(tileToVectorRow(rewriter, op, innermostSize)))
      return op->emitOpError() << "could not be tiled to vector rows";
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

FailureOr<scf::SCFTilingResult>
mlir::norm::tileToVectorRow(RewriterBase &rewriter, linalg::LinalgOp op,
                            int64_t innermostSize) {
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(1));
  sizes.back() = rewriter.getIndexAttr(innermostSize);
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (succeeded(tiled))
    rewriter.replaceOp(op, tiled->replacements);
  return tiled;
}

bool mlir::norm::hasInnermostParallelDim(NormalizeOp op) {
  int64_t rank = op.getRank();
  return op.hasPureTensorSemantics() && rank > 0 &&
         !op.isReductionAxis(rank - 1) && !op.getGroups();
}

/// Compensates the sums nested in `root`.
static LogicalResult compensateSums(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populateCompensateSumsPatterns(patterns);
  if (failed(applyNested(root, std::move(patterns))))
    return root->emitOpError() << "could not compensate its sums";
  return success();
}

/// Tiles `op` on scf.forall (the threads) and replaces it by the loop's
/// results; returns the loop and the tiled op.
static FailureOr<std::pair<scf::ForallOp, Operation *>>
tileOnThreads(RewriterBase &rewriter, TilingInterface op,
              ArrayRef<OpFoldResult> sizes) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(sizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, op, tiling);
  if (failed(tiled))
    return op->emitOpError() << "could not be tiled over threads";
  rewriter.replaceOp(op, tiled->replacements);
  return std::make_pair(
      cast<scf::ForallOp>(tiled->loops.front().getOperation()),
      tiled->tiledOps.front());
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
  FailureOr<std::pair<scf::ForallOp, Operation *>> tiled = tileOnThreads(
      rewriter, cast<TilingInterface>(op.getOperation()), tileSizes);
  if (failed(tiled))
    return failure();
  auto [forall, tiledOp] = *tiled;
  FailureOr<SmallVector<Value>> decomposed =
      cast<NormalizeOp>(tiledOp).decomposeOperation(rewriter);
  if (failed(decomposed))
    return failure();
  rewriter.replaceOp(tiledOp, *decomposed);

  // Serial accumulation per lane: compensated sums.
  if (failed(compensateSums(forall)))
    return failure();
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
  FailureOr<std::pair<scf::ForallOp, Operation *>> tiled = tileOnThreads(
      rewriter, cast<TilingInterface>(normalize.getOperation()), tileSizes);
  if (failed(tiled))
    return failure();
  return tiled->first;
}

/// Vectorizes the linalg ops of a thread tile: vector rows, unit dims
/// folded, `linalg::vectorize`, accumulators hoisted.
static LogicalResult vectorizeTile(RewriterBase &rewriter, scf::ForallOp forall,
                                   int64_t vectorSize, int64_t rowTile) {
  MLIRContext *ctx = forall.getContext();
  // Vector rows, unit dims folded, vectorized.
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
    // An op the vectorizer does not take stays scalar: correct, slower. A
    // reduction left (a merge along its chunks) would need a masked
    // horizontal reduction, which 22.1 lowers to no LLVM.
    if (row.getNumLoops() > 1 || row.getNumReductionLoops() > 0)
      continue;
    SmallVector<int64_t> vectorSizes(row.getNumLoops(), vectorSize);
    SmallVector<bool> scalable(row.getNumLoops(), false);
    rewriter.setInsertionPoint(row);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, row, vectorSizes, scalable);
    if (succeeded(vectorized))
      rewriter.replaceOp(row, vectorized->replacements);
  }

  // Masks as masked transfers, subsets folded into the transfers, and
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
    patterns.add<FoldWholeSlice<tensor::ExtractSliceOp>,
                 FoldWholeSlice<tensor::InsertSliceOp>, ForwardMaskedWrite>(
        ctx);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not simplify the vectorized tile";
  }
  return success();
}

/// Whether the reduced dims of `op` are its leading dims (BatchNorm over
/// [N, C] and NHWC): those ops split their reduced dims across threads.
static bool hasLeadingAxes(NormalizeOp op) {
  ArrayRef<int64_t> axes = op.getAxes();
  for (auto [i, axis] : llvm::enumerate(axes))
    if (axis != static_cast<int64_t>(i))
      return false;
  return !axes.empty() && static_cast<int64_t>(axes.size()) < op.getRank();
}

/// The rows per chunk of a split reduction over [M, rowElements]: at least
/// `kChunkBytes` of data (the chunk's partial sums stay in L1 while its rows
/// stream), and at most `kMaxChunks` chunks (the merge reads every chunk's
/// partials). A run-time value.
static Value chooseChunkRows(RewriterBase &rewriter, Location loc, Value x,
                             int64_t numReduced) {
  constexpr int64_t kChunkBytes = 256 * 1024;
  constexpr int64_t kMaxChunks = 256;
  auto type = cast<ShapedType>(x.getType());
  int64_t elementBytes =
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value rows = index(1), rowElements = index(1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value extent = tensor::DimOp::create(rewriter, loc, x, d);
    Value &product = d < numReduced ? rows : rowElements;
    product = arith::MulIOp::create(rewriter, loc, product, extent);
  }
  Value one = index(1);
  Value rowBytes = arith::MaxUIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, rowElements, index(elementBytes)),
      one);
  Value forCache =
      arith::CeilDivUIOp::create(rewriter, loc, index(kChunkBytes), rowBytes);
  Value forMerge =
      arith::CeilDivUIOp::create(rewriter, loc, rows, index(kMaxChunks));
  Value chunk = arith::MaxUIOp::create(rewriter, loc, forCache, forMerge);
  return arith::MaxUIOp::create(rewriter, loc, chunk, one);
}

/// A chunk's partial sums are a column of the [channels, chunks] partials
/// tensor (upstream's layout), strided: accumulate into a contiguous copy and
/// write it back once per chunk, so that the row loop's accumulators are
/// unit-stride vectors.
static void accumulateContiguously(RewriterBase &rewriter, scf::ForallOp chunks,
                                   ArrayRef<Operation *> partialOps) {
  for (Operation *partial : partialOps) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(partial);
    if (!linalgOp || partial->getParentOp() != chunks)
      continue;
    Location loc = partial->getLoc();
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
      auto shared =
          slice ? dyn_cast<BlockArgument>(slice.getSource()) : BlockArgument();
      if (!shared || shared.getOwner() != chunks.getBody())
        continue;
      rewriter.setInsertionPoint(partial);
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, slice),
          slice.getType().getElementType());
      Value local = linalg::CopyOp::create(rewriter, loc, ValueRange{slice},
                                           ValueRange{empty})
                        .getResult(0);
      init.set(local);
      OpResult result = linalgOp.getTiedOpResult(&init);
      rewriter.setInsertionPointAfter(partial);
      auto back = linalg::CopyOp::create(rewriter, loc, ValueRange{result},
                                         ValueRange{slice});
      rewriter.replaceAllUsesExcept(result, back.getResult(0), back);
    }
  }
}

/// An op that computes its statistics over its leading dims: decomposed
/// whole; each reduction (its reduced dims collapsed into one) split into
/// chunks of rows on scf.forall with upstream's partial reductions
/// (PartialReductionOuterParallel), each chunk streaming its rows into
/// compensated partial sums, the partials merged in chunk order by a
/// column-tiled, vectorized reduction; the normalize step in row blocks.
/// The chunking depends on the shape only, so the result is bitwise the same
/// for every thread count.
static LogicalResult splitComputedStatistics(RewriterBase &rewriter,
                                             NormalizeOp op, int64_t lanes) {
  int64_t vectorSize = 4 * lanes;
  int64_t numReduced = op.getAxes().size();
  Location loc = op.getLoc();
  Value input = op.getInput();
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> blockSizes = chooseRowBlockTile(rewriter, op);
  Value chunkRows = chooseChunkRows(rewriter, loc, input, numReduced);

  // The decomposition's ops are the ones inserted before `op`.
  Block *block = op->getBlock();
  Operation *before = op->getPrevNode();
  FailureOr<SmallVector<Value>> decomposed = op.decomposeOperation(rewriter);
  if (failed(decomposed))
    return failure();
  SmallVector<linalg::LinalgOp> reductions;
  for (Operation &nested : llvm::make_range(
           before ? std::next(before->getIterator()) : block->begin(),
           op->getIterator()))
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&nested))
      if (linalgOp.getNumReductionLoops() > 0)
        reductions.push_back(linalgOp);
  rewriter.replaceOp(op, *decomposed);
  auto normalize = (*decomposed)[0].getDefiningOp<linalg::GenericOp>();
  if (!normalize || normalize.getNumLoops() != blockSizes.size())
    return emitError(loc) << "the decomposition's normalize step is not an "
                             "elementwise linalg.generic over the input";

  ReassociationIndices leading =
      llvm::to_vector(llvm::seq<int64_t>(0, numReduced));
  for (linalg::LinalgOp reduction : reductions) {
    // [d0 .. dk-1, rest] -> [M, rest].
    if (numReduced > 1) {
      SmallVector<ReassociationIndices> folded = {leading};
      rewriter.setInsertionPoint(reduction);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(reduction, folded, rewriter);
      if (failed(collapsed))
        return reduction->emitOpError() << "could not collapse its reduced "
                                           "dims";
      rewriter.replaceOp(reduction, collapsed->results);
      reduction = collapsed->collapsedOp;
    }
    // Chunks of rows on threads, partials merged after the loop.
    SmallVector<OpFoldResult> sizes(reduction.getNumLoops(),
                                    rewriter.getIndexAttr(0));
    sizes[0] = chunkRows;
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(sizes);
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    tiling.setReductionTilingStrategy(
        ReductionTilingStrategy::PartialReductionOuterParallel);
    tiling.setReductionDims({0});
    rewriter.setInsertionPoint(reduction);
    FailureOr<scf::SCFTilingResult> split = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(reduction.getOperation()), tiling);
    if (failed(split))
      return reduction->emitOpError()
             << "could not be split into partial reductions";
    rewriter.replaceOp(reduction, split->replacements);
    auto chunks = cast<scf::ForallOp>(split->loops.front().getOperation());
    accumulateContiguously(rewriter, chunks, split->tiledOps);
    if (failed(compensateSums(chunks)) ||
        failed(vectorizeTile(rewriter, chunks, vectorSize, vectorSize)))
      return failure();

    // The merge: a reduction over the chunks, tiled over columns with its
    // accumulators in registers.
    for (Operation *merge : split->mergeOps) {
      auto named = dyn_cast<linalg::LinalgOp>(merge);
      if (!named)
        return merge->emitOpError() << "is not a linalg merge";
      linalg::GenericOp generic;
      if (auto g = dyn_cast<linalg::GenericOp>(merge)) {
        generic = g;
      } else {
        rewriter.setInsertionPoint(merge);
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, named);
        if (failed(generalized))
          return merge->emitOpError() << "could not be generalized";
        generic = *generalized;
      }
      // Threads over the parallel (channel) dims, `vectorSize` of the
      // innermost one per tile; the chunks dim whole.
      SmallVector<utils::IteratorType> iterators =
          generic.getIteratorTypesArray();
      SmallVector<OpFoldResult> columns;
      for (utils::IteratorType type : iterators)
        columns.push_back(rewriter.getIndexAttr(
            type == utils::IteratorType::reduction ? 0 : 1));
      for (int64_t d = iterators.size() - 1; d >= 0; --d) {
        if (iterators[d] == utils::IteratorType::parallel) {
          columns[d] = rewriter.getIndexAttr(vectorSize);
          break;
        }
      }
      FailureOr<std::pair<scf::ForallOp, Operation *>> mergeLoop =
          tileOnThreads(rewriter, cast<TilingInterface>(generic.getOperation()),
                        columns);
      if (failed(mergeLoop) || failed(compensateSums(mergeLoop->first)) ||
          failed(vectorizeTile(rewriter, mergeLoop->first, vectorSize, 0)))
        return failure();
    }
  }

  // The normalize step: row blocks, vector rows.
  FailureOr<std::pair<scf::ForallOp, Operation *>> rowsLoop = tileOnThreads(
      rewriter, cast<TilingInterface>(normalize.getOperation()), blockSizes);
  if (failed(rowsLoop))
    return failure();
  return vectorizeTile(rewriter, rowsLoop->first, vectorSize, vectorSize);
}

LogicalResult
mlir::norm::tileAndVectorizeNormalize(RewriterBase &rewriter, NormalizeOp op,
                                      const TileAndVectorizeOptions &options) {
  if (!hasInnermostParallelDim(op))
    return rewriter.notifyMatchFailure(
        op, "not a tensor-form op whose innermost dim is parallel");
  int64_t lanes = std::max<int64_t>(
      options.vectorBits / op.getAccumulationType().getWidth(), 1);
  if (op.hasComputedStatistics() && hasLeadingAxes(op))
    return splitComputedStatistics(rewriter, op, lanes);

  // Threads: scf.forall over tiles, each with its op's linalg form.
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
