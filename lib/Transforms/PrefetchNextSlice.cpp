//===- PrefetchNextSlice.cpp - norm-prefetch-next-slice -------------------===//
//
// Part of the norm-mlir project.
//
// A slice's first pass reads memory; its later passes find the slice in
// L1/L2 and leave memory idle. Prefetching the next slice during a later
// pass keeps reads in flight, so that the next first pass finds its data in
// L2. Which pass prefetches depends on the slice size: the second pass for
// small slices, the writing (normalize) pass for larger ones, whose lines
// would otherwise evict the current slice before that pass reads it.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMPREFETCHNEXTSLICEPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

/// Bytes read per prefetch: one cache line. One per two lines, left to an
/// adjacent-line prefetcher, ran NCHW BatchNorm training 32x64x56x56 1.5x
/// slower on Zen 4, whose hardware does not fetch the pair.
static constexpr int64_t kPrefetchBytes = 64;

namespace {
/// A whole-vector read of a slice in a loop of a forall iteration.
struct SliceRead {
  vector::TransferReadOp read;
  scf::ForOp loop;
  /// The index that holds the forall's innermost variable among them.
  unsigned sliceDim;
  /// That variable's position among the forall's.
  unsigned forallDim;
  /// How far the index moves per unit of the variable: 1 when it is the
  /// variable or a row of a tile that the forall steps over (`iv + row`),
  /// the rows of a tile of a unit-step forall (`iv * rows + row`).
  int64_t ivScale = 1;
  /// Whether the index is a row of a tile: the tile's rows are `ivScale`
  /// times the forall's step, and the next tile's may be past the last row.
  bool tileRow = false;
};
} // namespace

/// How far `index` moves per unit step of `iv` when it is an affine.apply
/// linear in `iv` (a multi-row tile's row: iv * rows + row), or nothing.
static std::optional<int64_t> getIndexScale(Value index, Value iv) {
  auto apply = index.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return std::nullopt;
  AffineMap map = apply.getAffineMap();
  SmallVector<Value> operands(apply.getMapOperands());
  if (llvm::count(operands, iv) != 1)
    return std::nullopt;
  unsigned p = llvm::find(operands, iv) - operands.begin();
  MLIRContext *ctx = apply.getContext();
  AffineExpr operand = p < map.getNumDims()
                           ? getAffineDimExpr(p, ctx)
                           : getAffineSymbolExpr(p - map.getNumDims(), ctx);
  AffineExpr expr = map.getResult(0);
  AffineExpr moved = expr.replace(operand, operand + 1);
  auto delta = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(moved - expr, map.getNumDims(), map.getNumSymbols()));
  if (!delta || delta.getValue() < 1)
    return std::nullopt;
  return delta.getValue();
}

/// `read` as a SliceRead of `forall`, or nothing.
static std::optional<SliceRead> getSliceRead(scf::ForallOp forall,
                                             vector::TransferReadOp read) {
  Value base = read.getBase();
  auto memrefType = dyn_cast<MemRefType>(base.getType());
  VectorType vectorType = read.getVectorType();
  if (!memrefType || read.getMask() || vectorType.getRank() != 1 ||
      memrefType.getElementType() != vectorType.getElementType() ||
      vectorType.getElementTypeBitWidth() % 8 != 0 ||
      !read.getPermutationMap().isMinorIdentity() ||
      !read.getInBoundsValues()[0] || !forall.isDefinedOutsideOfLoop(base) ||
      !norm::getViewedFunctionArgument(base))
    return std::nullopt;
  auto loop = read->getParentOfType<scf::ForOp>();
  if (!loop || !forall->isProperAncestor(loop))
    return std::nullopt;
  ValueRange indices = read.getIndices();
  if (indices.empty() || loop.isDefinedOutsideOfLoop(indices.back()))
    return std::nullopt;
  std::optional<SliceRead> found;
  SmallVector<Value> ivs = forall.getInductionVars();
  for (auto [d, index] : llvm::enumerate(indices.drop_back())) {
    auto *iv = llvm::find(ivs, index);
    if (iv != ivs.end()) {
      unsigned forallDim = iv - ivs.begin();
      if (!found || forallDim > found->forallDim)
        found = SliceRead{read,
                          loop,
                          static_cast<unsigned>(d),
                          forallDim,
                          1,
                          /*tileRow=*/false};
      continue;
    }
    // Other indices stay the same within the slice's pass.
    if (!loop.isDefinedOutsideOfLoop(index))
      return std::nullopt;
    // A row of a multi-row tile: the next tile's row is `ivScale` on.
    for (auto [k, iv] : llvm::enumerate(ivs)) {
      std::optional<int64_t> scale = getIndexScale(index, iv);
      if (!scale)
        continue;
      if (!found || k > found->forallDim)
        found = SliceRead{read,
                          loop,
                          static_cast<unsigned>(d),
                          static_cast<unsigned>(k),
                          *scale,
                          /*tileRow=*/true};
    }
  }
  return found;
}

/// Whether `loop` writes a function argument (an output).
static bool writesArgument(scf::ForOp loop) {
  bool writes = false;
  loop.walk([&](Operation *op) {
    Value base;
    if (auto write = dyn_cast<vector::TransferWriteOp>(op))
      base = write.getBase();
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      base = store.getBase();
    if (base && isa<MemRefType>(base.getType()) &&
        norm::getViewedFunctionArgument(base))
      writes = true;
  });
  return writes;
}

namespace {
/// The slice of one base that a forall iteration reads, and its passes.
class SlicePrefetcher {
public:
  SlicePrefetcher(RewriterBase &rewriter, scf::ForallOp forall,
                  ArrayRef<SliceRead> reads)
      : rewriter(rewriter), forall(forall), reads(reads), loc(forall.getLoc()) {
  }

  void run(int64_t secondPassBytes, int64_t lastPassBytes);

private:
  vector::TransferReadOp firstRead() { return reads.front().read; }
  /// The slice's dims: those the reads index by values that vary within the
  /// iteration.
  SmallVector<int64_t> getSliceDims();
  /// The slice's size in bytes, static or nothing.
  std::optional<int64_t> getStaticSliceBytes();
  /// The same at run time, at the start of the forall body.
  Value createSliceBytes();
  /// The rows of a tile that `slice` reads a row of.
  Value createTileRows(const SliceRead &slice);
  /// The slice prefetched when `prefetch` (else the current one).
  Value createNextSliceIndex(Value prefetch);
  void prefetchIn(scf::ForOp loop, Value nextSlice);

  RewriterBase &rewriter;
  scf::ForallOp forall;
  ArrayRef<SliceRead> reads;
  Location loc;
};
} // namespace

SmallVector<int64_t> SlicePrefetcher::getSliceDims() {
  SmallVector<int64_t> dims;
  for (auto [d, index] : llvm::enumerate(firstRead().getIndices()))
    if (!forall.isDefinedOutsideOfLoop(index) &&
        !llvm::is_contained(forall.getInductionVars(), index))
      dims.push_back(d);
  return dims;
}

std::optional<int64_t> SlicePrefetcher::getStaticSliceBytes() {
  auto type = cast<MemRefType>(firstRead().getBase().getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  for (int64_t d : getSliceDims()) {
    // A multi-row tile's rows.
    if (d == reads.front().sliceDim) {
      std::optional<int64_t> step =
          getConstantIntValue(forall.getMixedStep()[reads.front().forallDim]);
      if (!step)
        return std::nullopt;
      bytes *= reads.front().ivScale * *step;
      continue;
    }
    if (type.isDynamicDim(d))
      return std::nullopt;
    bytes *= type.getDimSize(d);
  }
  return bytes;
}

Value SlicePrefetcher::createSliceBytes() {
  Value base = firstRead().getBase();
  auto type = cast<MemRefType>(base.getType());
  Value bytes = arith::ConstantIndexOp::create(
      rewriter, loc, type.getElementTypeBitWidth() / 8);
  for (int64_t d : getSliceDims())
    bytes = arith::MulIOp::create(
        rewriter, loc, bytes,
        d == reads.front().sliceDim
            ? createTileRows(reads.front())
            : memref::DimOp::create(rewriter, loc, base, d).getResult());
  return bytes;
}

Value SlicePrefetcher::createTileRows(const SliceRead &slice) {
  Value step = getValueOrCreateConstantIndexOp(
      rewriter, loc, forall.getMixedStep()[slice.forallDim]);
  return arith::MulIOp::create(
      rewriter, loc, step,
      arith::ConstantIndexOp::create(rewriter, loc, slice.ivScale));
}

Value SlicePrefetcher::createNextSliceIndex(Value prefetch) {
  unsigned k = reads.front().forallDim;
  Value iv = forall.getInductionVars()[k];
  Value step =
      getValueOrCreateConstantIndexOp(rewriter, loc, forall.getMixedStep()[k]);
  Value upper = getValueOrCreateConstantIndexOp(rewriter, loc,
                                                forall.getMixedUpperBound()[k]);
  Value next = arith::AddIOp::create(rewriter, loc, iv, step);
  // The last slice prefetches itself (cached): no read past the buffer.
  Value inRange = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::ult, next, upper);
  if (prefetch)
    inRange = arith::AndIOp::create(rewriter, loc, inRange, prefetch);
  return arith::SelectOp::create(rewriter, loc, inRange, next, iv);
}

void SlicePrefetcher::prefetchIn(scf::ForOp loop, Value nextSlice) {
  for (SliceRead slice : reads) {
    if (slice.loop != loop)
      continue;
    vector::TransferReadOp read = slice.read;
    VectorType vectorType = read.getVectorType();
    int64_t elementBytes = vectorType.getElementTypeBitWidth() / 8;
    int64_t vectorBytes = vectorType.getNumElements() * elementBytes;
    // A row of a multi-row tile: the same row of the next tile,
    // index + ivScale · (next - iv), computed before the pass.
    Value index = read.getIndices()[slice.sliceDim];
    Value iv = forall.getInductionVars()[slice.forallDim];
    Value nextIndex = nextSlice;
    if (index != iv) {
      rewriter.setInsertionPoint(loop);
      Location loopLoc = loop.getLoc();
      Value moved = arith::MulIOp::create(
          rewriter, loopLoc,
          arith::SubIOp::create(rewriter, loopLoc, nextSlice, iv),
          arith::ConstantIndexOp::create(rewriter, loopLoc, slice.ivScale));
      nextIndex = arith::AddIOp::create(rewriter, loopLoc, index, moved);
      // The next tile may be a partial last one: its row r is then the
      // last row (in bounds, and cached by then).
      if (slice.tileRow) {
        Value rows = memref::DimOp::create(rewriter, loopLoc, read.getBase(),
                                           slice.sliceDim);
        Value last = arith::SubIOp::create(
            rewriter, loopLoc, rows,
            arith::ConstantIndexOp::create(rewriter, loopLoc, 1));
        nextIndex = arith::MinUIOp::create(rewriter, loopLoc, nextIndex, last);
      }
    }
    rewriter.setInsertionPoint(read);
    for (int64_t offset = 0; offset < vectorBytes; offset += kPrefetchBytes) {
      SmallVector<Value> indices(read.getIndices());
      indices[slice.sliceDim] = nextIndex;
      if (offset > 0)
        indices.back() = arith::AddIOp::create(
            rewriter, read.getLoc(), indices.back(),
            arith::ConstantIndexOp::create(rewriter, read.getLoc(),
                                           offset / elementBytes));
      memref::PrefetchOp::create(rewriter, read.getLoc(), read.getBase(),
                                 indices, /*isWrite=*/false,
                                 /*localityHint=*/2, /*isDataCache=*/true);
    }
  }
}

/// Whether `loop` runs under an scf.if of `forall` that yields values: the
/// rescaled retry of the scaled pass, which few slices take.
static bool isConditionalPass(scf::ForallOp forall, scf::ForOp loop) {
  for (Operation *op = loop->getParentOp(); op && op != forall;
       op = op->getParentOp())
    if (auto branch = dyn_cast<scf::IfOp>(op);
        branch && branch.getNumResults() > 0)
      return true;
  return false;
}

void SlicePrefetcher::run(int64_t secondPassBytes, int64_t lastPassBytes) {
  // The passes every slice makes over its data, in program order.
  SmallVector<scf::ForOp> passes;
  for (SliceRead slice : reads)
    if (!llvm::is_contained(passes, slice.loop) &&
        !isConditionalPass(forall, slice.loop))
      passes.push_back(slice.loop);
  if (passes.size() < 2)
    return;
  // A pass's depth: 0 for the first (nothing it uses comes from a pass over
  // the slice), else one more than the deepest pass it uses the results of.
  // A pass made in blocks (a first block, then a loop over the others) is
  // several loops of one depth.
  DenseMap<Operation *, unsigned> depth;
  for (scf::ForOp pass : passes) {
    unsigned d = 0;
    BackwardSliceOptions options;
    options.omitBlockArguments = true;
    options.inclusive = true;
    pass->walk([&](Operation *op) {
      for (Value operand : op->getOperands()) {
        // A loop's induction variable or iteration argument is not a
        // result of the passes it follows.
        if (!pass.isDefinedOutsideOfLoop(operand) ||
            isa<BlockArgument>(operand))
          continue;
        SetVector<Operation *> slice;
        if (failed(getBackwardSlice(operand, &slice, options)))
          continue;
        for (Operation *producer : slice)
          for (auto [earlier, earlierDepth] : depth)
            if (producer == earlier || producer->isProperAncestor(earlier))
              d = std::max(d, earlierDepth + 1);
      }
    });
    depth[pass] = d;
  }
  SmallVector<scf::ForOp> writing, second;
  for (scf::ForOp pass : passes) {
    if (writesArgument(pass))
      writing.push_back(pass);
    else if (depth[pass] == 1)
      second.push_back(pass);
  }
  // Small slices: the second pass, or the writing one where that is the
  // second (RMSNorm, L2: one reduction pass).
  SmallVector<scf::ForOp> smallTargets = second.empty() ? writing : second;

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(forall.getBody());
  if (std::optional<int64_t> bytes = getStaticSliceBytes()) {
    if (*bytes > lastPassBytes)
      return;
    Value next = createNextSliceIndex(Value());
    for (scf::ForOp pass : *bytes <= secondPassBytes ? smallTargets : writing)
      prefetchIn(pass, next);
    return;
  }
  Value bytes = createSliceBytes();
  auto atMost = [&](int64_t limit) -> Value {
    return arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ule, bytes,
        arith::ConstantIndexOp::create(rewriter, loc, limit));
  };
  if (smallTargets == writing) {
    Value next = createNextSliceIndex(atMost(lastPassBytes));
    for (scf::ForOp pass : writing)
      prefetchIn(pass, next);
    return;
  }
  Value small = atMost(secondPassBytes);
  Value large =
      arith::AndIOp::create(rewriter, loc, atMost(lastPassBytes),
                            arith::XOrIOp::create(rewriter, loc, small,
                                                  arith::ConstantIntOp::create(
                                                      rewriter, loc, true, 1)));
  Value nextIfSmall = createNextSliceIndex(small);
  Value nextIfLarge = createNextSliceIndex(large);
  for (scf::ForOp pass : smallTargets)
    prefetchIn(pass, nextIfSmall);
  for (scf::ForOp pass : writing)
    prefetchIn(pass, nextIfLarge);
}

namespace {
struct NormPrefetchNextSlicePass
    : norm::impl::NormPrefetchNextSlicePassBase<NormPrefetchNextSlicePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ForallOp> foralls;
    getOperation().walk([&](scf::ForallOp forall) {
      if (forall.getOutputs().empty())
        foralls.push_back(forall);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : foralls) {
      // The reads of each base, in program order.
      llvm::MapVector<Value, SmallVector<SliceRead>> slices;
      forall.getBody()->walk([&](vector::TransferReadOp read) {
        if (std::optional<SliceRead> slice = getSliceRead(forall, read))
          slices[read.getBase()].push_back(*slice);
      });
      for (auto &entry : slices) {
        ArrayRef<SliceRead> reads = entry.second;
        // One slice per base: every read holds the same forall variable.
        if (llvm::any_of(reads, [&](const SliceRead &r) {
              return r.forallDim != reads.front().forallDim ||
                     r.sliceDim != reads.front().sliceDim;
            }))
          continue;
        SlicePrefetcher(rewriter, forall, reads)
            .run(secondPassBytes, lastPassBytes);
      }
    }
  }
};
} // namespace
