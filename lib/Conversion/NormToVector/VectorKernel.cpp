//===- VectorKernel.cpp - norm.normalize as a CPU vector kernel -----------===//
//
// Part of the norm-mlir project.
//
// The CPU kernel of a memref-form norm.normalize whose innermost
// (group-expanded) dim is reduced. Dims are classified as reduced or not and
// as indexing the affine parameters or not; consecutive dims of one class
// are collapsed, so every operand is viewed as a few dims and the innermost
// one is a contiguous run. The statistics slices (the non-reduced dims) are
// taken in groups of up to kMaxGroup by the iterations of one scf.parallel;
// each slice is reduced with vector loops carrying several independent
// accumulators, then normalized while its data is still in cache, so DRAM
// sees each element once. No memory is allocated and nothing is called
// inside the loops.
//
// The per-slice formulas are those of the linalg decomposition
// (NormNumerics.h). Sums run in blocks: a block of a run accumulates in
// fresh vector registers, then joins the slice's total, so rounding grows
// with block length plus the number of blocks, not with the slice length.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/Conversion/Utils/KernelLayout.h"
#include "norm/IR/NormNumerics.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

using View = KernelView;

using LoopBody =
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>;

/// What one reduction pass sums: `zeros.size()` vector quantities, each in
/// `accumulators` independent registers in the hot loop.
struct ReductionPass {
  SmallVector<Value> zeros;
  /// Folds one vector of the run (accumulation type) into the quantities;
  /// `mask` is null on whole vectors, else the lanes to count (the others
  /// are 0; see loadPartial).
  std::function<SmallVector<Value>(OpBuilder &, Value x, Value mask,
                                   ValueRange acc)>
      update;
  /// Prefetch the same slice of the next group while this pass runs over
  /// the slice's (by now cached) data: that slice's first pass then finds it
  /// in cache instead of stalling on DRAM.
  bool prefetchNextSlice = false;
};

/// The most slices one group of the parallel loop handles (lanes of the
/// vectors carrying their statistics).
constexpr int64_t kMaxGroup = 8;

class VectorKernelEmitter {
public:
  VectorKernelEmitter(RewriterBase &rewriter, NormalizeOp op,
                      const VectorKernelOptions &options)
      : rewriter(rewriter), op(op), loc(op.getLoc()),
        acc(op.getAccumulationType()), options(options), layout(op) {}

  LogicalResult emit();

private:
  //===--- setup ----------------------------------------------------------===//

  void classifyDims();

  //===--- code -----------------------------------------------------------===//

  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value accConstant(OpBuilder &b, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, v));
  }
  VectorType vectorOf(Type element) {
    return VectorType::get({vectorLength}, element);
  }
  SmallVector<Value> indicesOf(const View &view, ArrayRef<Value> idx,
                               Value runIndex);
  Value loadScalar(OpBuilder &b, const View &view, ArrayRef<Value> idx);
  void storeScalar(OpBuilder &b, Value value, const View &view,
                   ArrayRef<Value> idx);
  /// Loads `vectorLength` elements of the run at `runIndex`, widened to the
  /// accumulation type; masked (with 0 passthrough) when `mask` is set.
  Value loadVector(OpBuilder &b, const View &view, ArrayRef<Value> idx,
                   Value runIndex, Value mask);
  /// The element type of `view`, and its size in bytes.
  static Type elementType(const View &view) {
    return cast<MemRefType>(view.memref.getType()).getElementType();
  }
  static int64_t elementBytes(const View &view) {
    return elementType(view).getIntOrFloatBitWidth() / 8;
  }
  /// The partial vector at the end of the run (from `vectorEnd` on, when
  /// the run is not a whole number of vectors), widened, with zeros in the
  /// lanes outside the run, and the mask of the lanes inside. For 16-bit
  /// data in a run of at least one vector, it is the run's last whole
  /// vector with the lanes before `vectorEnd` zeroed (AVX2 has no 16-bit
  /// masked load): lanes then do not match positions, which sums do not
  /// mind.
  std::pair<Value, Value> loadPartial(OpBuilder &b, ArrayRef<Value> idx);
  using VectorUpdate = function_ref<SmallVector<Value>(
      OpBuilder &, Value v, Value mask, ValueRange acc)>;
  /// Folds the vectors of the run at `runIdx` from `from` (a multiple of
  /// `vectorLength`) on into `accs`: whole vectors one by one, then the
  /// partial vector (loadPartial) if any, with `update(v, mask, accs)`
  /// (`mask` null on whole vectors).
  SmallVector<Value> reduceVectors(OpBuilder &b, ArrayRef<Value> runIdx,
                                   Value from, ValueRange accs,
                                   VectorUpdate update);
  /// Whether the bf16 elements of `view` are loaded two vectors at a time
  /// (see loadPair).
  bool loadsPairs(const View &view);
  /// Loads 2 × `vectorLength` bf16 elements of the run at `runIndex`,
  /// widened to f32 by interleaving them with zeros: one shuffle per vector
  /// (an unpack on x86 and AArch64) instead of a zero-extension and a shift.
  /// The elements come permuted: within each 128-bit lane of the loaded
  /// bits, the first vector holds the lower four and the second the upper
  /// four. Sums do not care; narrowPair undoes the permutation.
  std::pair<Value, Value> loadPair(OpBuilder &b, const View &view,
                                   ArrayRef<Value> idx, Value runIndex);
  /// Rounds two f32 vectors loaded by loadPair to bf16 and packs them back
  /// into element order (one pack per two vectors).
  Value narrowPair(OpBuilder &b, Value lo, Value hi);
  /// loadPair's permutation: for each lane j of the first and the second
  /// vector, which of the 2 × `vectorLength` elements it holds.
  std::pair<SmallVector<int64_t>, SmallVector<int64_t>> pairOrder();
  /// Loads 2 × `vectorLength` elements of a run parameter (any float type)
  /// widened and permuted as loadPair permutes x.
  std::pair<Value, Value> loadPermuted(OpBuilder &b, const View &view,
                                       Value runIndex);

  /// Where the run at `runIdx` prefetches: `distance` elements ahead when
  /// that whole run lies in x, else the run itself (a prefetch of lines
  /// being read costs one µop and no traffic). The loops then prefetch
  /// without clamping.
  Value prefetchBase(OpBuilder &b, ArrayRef<Value> runIdx, Value distance);
  /// Prefetches element `base + offset` of x into L2.
  void prefetch(OpBuilder &b, Value base, Value offset);
  /// Rounds an accumulation-type vector to `element`. bf16 is rounded to
  /// nearest even on the bits here, in a form that stays vectorized (the
  /// generic expansion of truncf to bf16 is scalarized on AVX2).
  Value narrow(OpBuilder &b, Value v, Type element);
  /// The bits of `v` rounded to bf16 as narrow does, in the lower half of
  /// each i32 lane (zeros above).
  Value roundToBF16Bits(OpBuilder &b, Value v);
  /// The linear element index in x (or y) of the start of the run at `idx`.
  Value linearIndex(OpBuilder &b, ArrayRef<Value> idx);
  /// An scf.for that LLVM is asked to neither unroll nor vectorize unless
  /// `unrollable`: the loops here are vectorized (and the reductions
  /// unrolled) already, or run a few times per slice; LLVM's copies of them
  /// cost compile time for nothing. Only the normalize loops, one vector per
  /// iteration, gain from LLVM's unrolling.
  SmallVector<Value> forLoop(OpBuilder &b, Value lb, Value ub, Value step,
                             ValueRange inits, LoopBody body,
                             bool unrollable = false);
  /// The lanes of the vector at run index `i` that lie inside the run.
  Value tailMask(OpBuilder &b, Value i);
  /// How many of the lanes of the vector at run index `i` lie in the run.
  Value tailCount(OpBuilder &b, Value i);
  /// For each vector of the run in [lb, ub): `body(i, mask)`, with `mask`
  /// null when `masked` is false.
  void forEachVector(OpBuilder &b, Value lb, Value ub, bool masked,
                     function_ref<void(OpBuilder &, Value, Value)> body,
                     bool unrollable = false);
  /// Runs `body` for every run of the slice: loops over the outer reduced
  /// dims, filling their entries of `idx`.
  SmallVector<Value> overRuns(
      OpBuilder &b, SmallVector<Value> idx, ValueRange inits,
      function_ref<SmallVector<Value>(OpBuilder &, ArrayRef<Value>, ValueRange)>
          body,
      unsigned level = 0);
  /// Reduces the slice at `idx` with `pass`; returns the total vectors.
  SmallVector<Value> reduceSlice(OpBuilder &b, ArrayRef<Value> idx,
                                 const ReductionPass &pass);
  /// The indices of the slice dims of the slice at linear index `linear`
  /// (the others null).
  SmallVector<Value> sliceIndex(OpBuilder &b, Value linear);
  using SliceBody = function_ref<SmallVector<Value>(
      OpBuilder &, Value r, ArrayRef<Value> idx, ValueRange)>;
  /// A loop over the slices first + r, r < size, carrying `inits`.
  SmallVector<Value> forEachSlice(OpBuilder &b, Value first, Value size,
                                  ValueRange inits, SliceBody body);
  /// The kernel for the `size` slices from `first`, phase by phase: the
  /// first pass of each (Σx; none for rms and l2), their means, the second
  /// pass of each (with its scale factor), their statistics, then the
  /// normalize pass of each. The
  /// latency chains of short slices overlap, and the scalar formulas run
  /// once, on a vector holding one slice per lane.
  void emitGroup(OpBuilder &b, Value first, Value size);
  void normalizeSlice(OpBuilder &b, ArrayRef<Value> idx, Value mean,
                      Value l2Scale, Value rstd);

  RewriterBase &rewriter;
  NormalizeOp op;
  Location loc;
  FloatType acc;
  VectorKernelOptions options;
  int64_t vectorLength = 8;

  KernelLayout layout;
  SmallVector<Value> extents;
  SmallVector<int64_t> sliceDims, outerReducedDims;
  int64_t runDim = 0;

  View x, y, scale, bias, givenMean, givenVariance, running[2];
  SmallVector<View> saved;
  Value count, runLength, chunkEnd, vectorEnd;
  /// Whether the run holds a whole vector; where its last whole vector
  /// starts (0 when it holds none); whether it ends with a partial vector.
  Value hasWholeVector, lastVectorStart, hasPartialVector;
  /// bf16 in and out: the normalize pass loads x with loadPair and stores
  /// with narrowPair up to `pairEnd` (a multiple of 2 × `vectorLength`), and
  /// run parameters that vary along the run are copied, widened and
  /// permuted to match, once per call.
  bool pairedNormalize = false;
  Value pairEnd;
  /// Slices per group (1 to kMaxGroup, chosen at run time).
  Value groupSize;
  /// Row-major strides of the collapsed dims of x and y (in elements).
  SmallVector<Value> strides;
  /// x as one dim, its element count, and how far ahead pass 2 prefetches
  /// (null without slice dims): to the same slice of the next group when
  /// slices are small enough that it fits in L2 beside the current one and
  /// its output, else 0. Larger slices are left to the hardware prefetcher
  /// (a prefetched 160 KiB GroupNorm slice evicts the one being normalized);
  /// prefetching the line being read costs less than a branch, which would
  /// also have LLVM duplicate the loop.
  Value xFlat, elementCount, prefetchDistance;
  /// How far ahead the normalize pass prefetches (null when it does not): to
  /// the next slice when slices are too large for pass 2 to prefetch, up to
  /// 1 MiB, else 0. The normalize pass reads each line of its slice for the
  /// last time, so the prefetched lines only displace lines it is done with,
  /// and DRAM works while the slice is normalized from cache.
  Value normalizePrefetchDistance;
  /// True at run time for outputs much larger than the caches: the normalize
  /// pass then writes whole aligned vectors with streaming stores.
  Value streamOutput;
};

void VectorKernelEmitter::classifyDims() {
  runDim = layout.getNumDims() - 1;
  for (int64_t c = 0; c < runDim; ++c)
    (layout.isReduced(c) ? outerReducedDims : sliceDims).push_back(c);
}

SmallVector<Value> VectorKernelEmitter::indicesOf(const View &view,
                                                  ArrayRef<Value> idx,
                                                  Value runIndex) {
  return llvm::map_to_vector(
      view.dims, [&](int64_t c) { return c == runDim ? runIndex : idx[c]; });
}

Value VectorKernelEmitter::loadScalar(OpBuilder &b, const View &view,
                                      ArrayRef<Value> idx) {
  Value v = memref::LoadOp::create(b, loc, view.memref,
                                   indicesOf(view, idx, Value()));
  return convertFloat(b, loc, v, acc);
}

void VectorKernelEmitter::storeScalar(OpBuilder &b, Value value,
                                      const View &view, ArrayRef<Value> idx) {
  Type element = elementType(view);
  memref::StoreOp::create(b, loc, convertFloat(b, loc, value, element),
                          view.memref, indicesOf(view, idx, Value()));
}

Value VectorKernelEmitter::loadVector(OpBuilder &b, const View &view,
                                      ArrayRef<Value> idx, Value runIndex,
                                      Value mask) {
  Type element = elementType(view);
  VectorType type = vectorOf(element);
  SmallVector<Value> indices = indicesOf(view, idx, runIndex);
  Value v;
  if (mask && elementBytes(view) == 2) {
    // AVX2 has no 16-bit masked load; LLVM would expand one into a branch
    // per lane. The elements are loaded one by one instead, as bits (a
    // scalar bf16 in a register would cost conversion calls). Only runs
    // shorter than a vector and parameter copies get here (see loadPartial).
    VectorType bits = vectorOf(b.getI16Type());
    VectorType one = VectorType::get({1}, element);
    VectorType oneBits = VectorType::get({1}, b.getI16Type());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(bits));
    v = forLoop(b, index(b, 0), tailCount(b, runIndex), index(b, 1), {zero},
                [&](OpBuilder &lb, Value j, ValueRange args) {
                  SmallVector<Value> at = indicesOf(
                      view, idx, arith::AddIOp::create(lb, loc, runIndex, j));
                  Value e = vector::BitCastOp::create(
                      lb, loc, oneBits,
                      vector::LoadOp::create(lb, loc, one, view.memref, at));
                  return SmallVector<Value>{vector::InsertOp::create(
                      lb, loc, vector::ExtractOp::create(lb, loc, e, 0),
                      args[0], OpFoldResult(j))};
                })[0];
    v = vector::BitCastOp::create(b, loc, type, v);
  } else if (mask) {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    v = vector::MaskedLoadOp::create(b, loc, type, view.memref, indices, mask,
                                     zero);
  } else {
    v = vector::LoadOp::create(b, loc, type, view.memref, indices);
  }
  return convertFloat(b, loc, v, acc);
}

std::pair<Value, Value> VectorKernelEmitter::loadPartial(OpBuilder &b,
                                                         ArrayRef<Value> idx) {
  if (elementBytes(x) != 2) {
    Value mask = tailMask(b, vectorEnd);
    return {loadVector(b, x, idx, vectorEnd, mask), mask};
  }
  auto partial = scf::IfOp::create(
      b, loc, hasWholeVector,
      [&](OpBuilder &tb, Location) {
        // The lanes before vectorEnd - lastVectorStart were summed already.
        VectorType maskType = vectorOf(tb.getI1Type());
        Value summed = vector::CreateMaskOp::create(
            tb, loc, maskType,
            ValueRange{
                arith::SubIOp::create(tb, loc, vectorEnd, lastVectorStart)});
        Value mask = arith::XOrIOp::create(
            tb, loc, summed,
            arith::ConstantOp::create(tb, loc,
                                      DenseElementsAttr::get(maskType, true)));
        Value v = arith::SelectOp::create(
            tb, loc, mask, loadVector(tb, x, idx, lastVectorStart, Value()),
            arith::ConstantOp::create(tb, loc, tb.getZeroAttr(vectorOf(acc))));
        scf::YieldOp::create(tb, loc, ValueRange{v, mask});
      },
      [&](OpBuilder &eb, Location) {
        Value mask = tailMask(eb, vectorEnd);
        scf::YieldOp::create(
            eb, loc, ValueRange{loadVector(eb, x, idx, vectorEnd, mask), mask});
      });
  return {partial.getResult(0), partial.getResult(1)};
}

SmallVector<Value> VectorKernelEmitter::reduceVectors(OpBuilder &b,
                                                      ArrayRef<Value> runIdx,
                                                      Value from,
                                                      ValueRange accs,
                                                      VectorUpdate update) {
  SmallVector<Value> whole =
      forLoop(b, from, vectorEnd, index(b, vectorLength), accs,
              [&](OpBuilder &lb, Value i, ValueRange current) {
                return update(lb, loadVector(lb, x, runIdx, i, Value()),
                              Value(), current);
              });
  return scf::IfOp::create(
             b, loc, hasPartialVector,
             [&](OpBuilder &tb, Location) {
               auto [v, mask] = loadPartial(tb, runIdx);
               scf::YieldOp::create(tb, loc, update(tb, v, mask, whole));
             },
             [&](OpBuilder &eb, Location) {
               scf::YieldOp::create(eb, loc, whole);
             })
      ->getResults();
}

bool VectorKernelEmitter::loadsPairs(const View &view) {
  Type element = elementType(view);
  return element.isBF16() && acc.isF32() && vectorLength % 4 == 0;
}

std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
VectorKernelEmitter::pairOrder() {
  // A 128-bit lane of the loaded bits holds 8 bf16 elements; an unpack
  // widens its lower or its upper four into one 128-bit lane of f32.
  SmallVector<int64_t> lo, hi;
  for (int64_t j = 0; j < vectorLength; ++j) {
    lo.push_back(8 * (j / 4) + j % 4);
    hi.push_back(8 * (j / 4) + 4 + j % 4);
  }
  return {lo, hi};
}

std::pair<Value, Value> VectorKernelEmitter::loadPair(OpBuilder &b,
                                                      const View &view,
                                                      ArrayRef<Value> idx,
                                                      Value runIndex) {
  Type element = elementType(view);
  VectorType bits = VectorType::get({2 * vectorLength}, b.getI16Type());
  Value loaded = vector::LoadOp::create(
      b, loc, VectorType::get({2 * vectorLength}, element), view.memref,
      indicesOf(view, idx, runIndex));
  loaded = vector::BitCastOp::create(b, loc, bits, loaded);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(bits));
  auto widen = [&](ArrayRef<int64_t> order) -> Value {
    // bf16 bits in the upper half of each 32-bit lane, zeros below.
    SmallVector<int64_t> mask;
    for (int64_t e : order)
      mask.append({0, 2 * vectorLength + e});
    Value interleaved = vector::ShuffleOp::create(b, loc, zero, loaded, mask);
    return vector::BitCastOp::create(b, loc, vectorOf(acc), interleaved);
  };
  auto [lo, hi] = pairOrder();
  return {widen(lo), widen(hi)};
}

std::pair<Value, Value> VectorKernelEmitter::loadPermuted(OpBuilder &b,
                                                          const View &view,
                                                          Value runIndex) {
  Type element = elementType(view);
  SmallVector<Value> noIdx(extents.size());
  Value v = vector::LoadOp::create(
      b, loc, VectorType::get({2 * vectorLength}, element), view.memref,
      indicesOf(view, noIdx, runIndex));
  v = convertFloat(b, loc, v, acc);
  auto [lo, hi] = pairOrder();
  return {vector::ShuffleOp::create(b, loc, v, v, lo),
          vector::ShuffleOp::create(b, loc, v, v, hi)};
}

Value VectorKernelEmitter::narrowPair(OpBuilder &b, Value lo, Value hi) {
  VectorType bits = VectorType::get({2 * vectorLength}, b.getI16Type());
  // Zeros above the rounded bf16 in each 32-bit lane: the two vectors then
  // pack with one unsigned-saturating pack.
  auto halves = [&](Value v) -> Value {
    return vector::BitCastOp::create(b, loc, bits, roundToBF16Bits(b, v));
  };
  Value loBits = halves(lo), hiBits = halves(hi);
  auto [loOrder, hiOrder] = pairOrder();
  SmallVector<int64_t> mask(2 * vectorLength);
  for (int64_t j = 0; j < vectorLength; ++j) {
    mask[loOrder[j]] = 2 * j;
    mask[hiOrder[j]] = 2 * vectorLength + 2 * j;
  }
  Value packed = vector::ShuffleOp::create(b, loc, loBits, hiBits, mask);
  return vector::BitCastOp::create(
      b, loc, VectorType::get({2 * vectorLength}, b.getBF16Type()), packed);
}

Value VectorKernelEmitter::roundToBF16Bits(OpBuilder &b, Value v) {
  return arith::ShRUIOp::create(
      b, loc, buildBF16RoundedBits(b, loc, v),
      createScalarOrSplatConstant(b, loc, vectorOf(b.getI32Type()), 16));
}

Value VectorKernelEmitter::narrow(OpBuilder &b, Value v, Type element) {
  if (!element.isBF16() || !acc.isF32())
    return convertFloat(b, loc, v, element);
  Value narrowBits = arith::TruncIOp::create(b, loc, vectorOf(b.getI16Type()),
                                             roundToBF16Bits(b, v));
  return arith::BitcastOp::create(b, loc, vectorOf(element), narrowBits);
}

Value VectorKernelEmitter::prefetchBase(OpBuilder &b, ArrayRef<Value> runIdx,
                                        Value distance) {
  Value start = linearIndex(b, runIdx);
  Value target = arith::AddIOp::create(b, loc, start, distance);
  Value fits = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ule,
      arith::AddIOp::create(b, loc, target, runLength), elementCount);
  return arith::SelectOp::create(b, loc, fits, target, start);
}

void VectorKernelEmitter::prefetch(OpBuilder &b, Value base, Value offset) {
  memref::PrefetchOp::create(
      b, loc, xFlat, ValueRange{arith::AddIOp::create(b, loc, base, offset)},
      /*isWrite=*/false,
      /*localityHint=*/2, /*isDataCache=*/true);
}

Value VectorKernelEmitter::linearIndex(OpBuilder &b, ArrayRef<Value> idx) {
  Value linear = index(b, 0);
  for (int64_t c = 0; c < runDim; ++c)
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, idx[c], strides[c]));
  return linear;
}

SmallVector<Value> VectorKernelEmitter::forLoop(OpBuilder &b, Value lb,
                                                Value ub, Value step,
                                                ValueRange inits, LoopBody body,
                                                bool unrollable) {
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, inits,
      [&](OpBuilder &nb, Location nl, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, nl, body(nb, iv, args));
      });
  if (!unrollable) {
    // The lowering to cf and then LLVM carries the attribute to the latch
    // branch, which takes it as its loop metadata.
    MLIRContext *ctx = b.getContext();
    BoolAttr yes = b.getBoolAttr(true);
    auto noVectorize =
        LLVM::LoopVectorizeAttr::get(ctx, yes, {}, {}, {}, {}, {}, {});
    auto noUnroll = LLVM::LoopUnrollAttr::get(ctx, yes, {}, {}, {}, {}, {}, {});
    loop->setAttr("loop_annotation",
                  LLVM::LoopAnnotationAttr::get(ctx, {}, noVectorize, {},
                                                noUnroll, {}, {}, {}, {}, {},
                                                {}, {}, {}, {}, {}, {}));
  }
  return SmallVector<Value>(loop.getResults());
}

Value VectorKernelEmitter::tailCount(OpBuilder &b, Value i) {
  return arith::MinUIOp::create(b, loc,
                                arith::SubIOp::create(b, loc, runLength, i),
                                index(b, vectorLength));
}

Value VectorKernelEmitter::tailMask(OpBuilder &b, Value i) {
  Value remaining = arith::SubIOp::create(b, loc, runLength, i);
  return vector::CreateMaskOp::create(b, loc, vectorOf(b.getI1Type()),
                                      ValueRange{remaining});
}

void VectorKernelEmitter::forEachVector(
    OpBuilder &b, Value lb, Value ub, bool masked,
    function_ref<void(OpBuilder &, Value, Value)> body, bool unrollable) {
  forLoop(
      b, lb, ub, index(b, vectorLength), {},
      [&](OpBuilder &vb, Value i, ValueRange) {
        body(vb, i, masked ? tailMask(vb, i) : Value());
        return SmallVector<Value>();
      },
      unrollable);
}

SmallVector<Value> VectorKernelEmitter::overRuns(
    OpBuilder &b, SmallVector<Value> idx, ValueRange inits,
    function_ref<SmallVector<Value>(OpBuilder &, ArrayRef<Value>, ValueRange)>
        body,
    unsigned level) {
  if (level == outerReducedDims.size())
    return body(b, idx, inits);
  int64_t dim = outerReducedDims[level];
  return forLoop(b, index(b, 0), extents[dim], index(b, 1), inits,
                 [&](OpBuilder &nb, Value iv, ValueRange args) {
                   SmallVector<Value> inner = idx;
                   inner[dim] = iv;
                   return overRuns(nb, inner, args, body, level + 1);
                 });
}

SmallVector<Value> VectorKernelEmitter::reduceSlice(OpBuilder &b,
                                                    ArrayRef<Value> idx,
                                                    const ReductionPass &pass) {
  int64_t unroll = options.accumulators;
  int64_t chunk = unroll * vectorLength;
  // A block: a chunk per term of each lane (kLaneTermsPerBlock).
  int64_t block = kLaneTermsPerBlock * chunk;
  unsigned numQuantities = pass.zeros.size();
  // bf16 chunks load two vectors at a time (sums do not mind the order).
  bool pairs = loadsPairs(x) && unroll % 2 == 0;
  // The totals are compensated (Kahan): a slice may hold millions of
  // blocks or short runs. `totals` holds the sums, then their carries.
  auto joinTotals = [&](OpBuilder &jb, ValueRange totals,
                        ArrayRef<Value> partials) {
    SmallVector<Value> next(totals.begin(), totals.end());
    for (unsigned q = 0; q < numQuantities; ++q)
      std::tie(next[q], next[numQuantities + q]) = buildCompensatedAdd(
          jb, loc, totals[q], totals[numQuantities + q], partials[q]);
    return next;
  };
  // Accumulates the chunks of the run in [lb, ub) into `accs`.
  auto chunkLoop = [&](OpBuilder &lb, ArrayRef<Value> runIdx, Value nextRun,
                       Value begin, Value end, ValueRange accs) {
    return forLoop(
        lb, begin, end, index(lb, chunk), accs,
        [&](OpBuilder &cb, Value i, ValueRange current) {
          SmallVector<Value> next(current.begin(), current.end());
          auto accumulate = [&](int64_t u, Value v) {
            SmallVector<Value> lane;
            for (unsigned q = 0; q < numQuantities; ++q)
              lane.push_back(current[q * unroll + u]);
            SmallVector<Value> updated = pass.update(cb, v, Value(), lane);
            for (unsigned q = 0; q < numQuantities; ++q)
              next[q * unroll + u] = updated[q];
          };
          for (int64_t u = 0; u < unroll; u += pairs ? 2 : 1) {
            Value offset =
                arith::AddIOp::create(cb, loc, i, index(cb, u * vectorLength));
            if (nextRun && (u == 0 || 2 * u == unroll))
              prefetch(cb, nextRun, offset);
            if (pairs) {
              auto [lo, hi] = loadPair(cb, x, runIdx, offset);
              accumulate(u, lo);
              accumulate(u + 1, hi);
            } else {
              accumulate(u, loadVector(cb, x, runIdx, offset, Value()));
            }
          }
          return next;
        });
  };
  // Pairwise join of the accumulators of each quantity.
  auto joinAccumulators = [&](OpBuilder &jb, ArrayRef<Value> accs) {
    SmallVector<Value> joined;
    for (unsigned q = 0; q < numQuantities; ++q) {
      SmallVector<Value> level(accs.begin() + q * unroll,
                               accs.begin() + (q + 1) * unroll);
      while (level.size() > 1) {
        SmallVector<Value> up;
        for (size_t j = 0; j + 1 < level.size(); j += 2)
          up.push_back(arith::AddFOp::create(jb, loc, level[j], level[j + 1]));
        if (level.size() % 2)
          up.push_back(level.back());
        level = up;
      }
      joined.push_back(level[0]);
    }
    return joined;
  };
  SmallVector<Value> zeros;
  for (unsigned q = 0; q < numQuantities; ++q)
    zeros.append(unroll, pass.zeros[q]);
  auto runBody = [&](OpBuilder &rb, ArrayRef<Value> runIdx,
                     ValueRange totals) -> SmallVector<Value> {
    Value nextRun;
    if (pass.prefetchNextSlice && prefetchDistance)
      nextRun = prefetchBase(rb, runIdx, prefetchDistance);
    // The tail first: it starts the run's totals, and the first block adds
    // to them without compensation, which a short run then never pays for
    // (a select, not a branch LLVM would duplicate the loop for). Whole
    // vectors, then the partial one.
    SmallVector<Value> run =
        reduceVectors(rb, runIdx, chunkEnd, pass.zeros, pass.update);
    run.append(pass.zeros.begin(), pass.zeros.end());
    // Blocks: fresh accumulators each, compensated into the totals.
    run = forLoop(
        rb, index(rb, 0), chunkEnd, index(rb, block), run,
        [&](OpBuilder &bb, Value blockStart, ValueRange runTotals) {
          Value blockEnd = arith::MinUIOp::create(
              bb, loc,
              arith::AddIOp::create(bb, loc, blockStart, index(bb, block)),
              chunkEnd);
          SmallVector<Value> partial = joinAccumulators(
              bb, chunkLoop(bb, runIdx, nextRun, blockStart, blockEnd, zeros));
          SmallVector<Value> compensated = joinTotals(bb, runTotals, partial);
          Value isFirst = arith::CmpIOp::create(
              bb, loc, arith::CmpIPredicate::eq, blockStart, index(bb, 0));
          for (unsigned q = 0; q < numQuantities; ++q) {
            compensated[q] = arith::SelectOp::create(
                bb, loc, isFirst,
                arith::AddFOp::create(bb, loc, runTotals[q], partial[q]),
                compensated[q]);
            compensated[numQuantities + q] =
                arith::SelectOp::create(bb, loc, isFirst, pass.zeros[q],
                                        compensated[numQuantities + q]);
          }
          return compensated;
        });
    if (outerReducedDims.empty())
      return run;
    // The slice's totals over its runs, compensated, carries included.
    SmallVector<Value> next(totals.begin(), totals.end());
    for (unsigned q = 0; q < numQuantities; ++q) {
      Value carry = arith::AddFOp::create(rb, loc, totals[numQuantities + q],
                                          run[numQuantities + q]);
      std::tie(next[q], next[numQuantities + q]) =
          buildCompensatedAdd(rb, loc, totals[q], carry, run[q]);
    }
    return next;
  };
  SmallVector<Value> inits(pass.zeros);
  inits.append(pass.zeros.begin(), pass.zeros.end());
  SmallVector<Value> totals =
      overRuns(b, SmallVector<Value>(idx), inits, runBody);
  totals.resize(numQuantities);
  return totals;
}

void VectorKernelEmitter::normalizeSlice(OpBuilder &b, ArrayRef<Value> idx,
                                         Value meanValue, Value l2Scale,
                                         Value rstd) {
  VectorType accVector = vectorOf(acc);
  auto splat = [&](OpBuilder &nb, Value s) -> Value {
    return vector::BroadcastOp::create(nb, loc, accVector, s);
  };
  bool scaleOnRun = layout.isAffine(runDim);
  Type outElement = elementType(y);
  int64_t outBytes = elementBytes(y);
  bool sixteenBit = outBytes == 2 || elementBytes(x) == 2;
  Value meanV = meanValue ? splat(b, meanValue) : Value();
  Value l2V = l2Scale ? splat(b, l2Scale) : Value();
  Value rstdV = splat(b, rstd);

  auto runBody = [&](OpBuilder &rb, ArrayRef<Value> runIdx,
                     ValueRange) -> SmallVector<Value> {
    // Per-run affine parameters when they do not vary along the run.
    Value gammaRun, betaRun;
    if (!scaleOnRun) {
      if (scale.memref)
        gammaRun = splat(rb, loadScalar(rb, scale, runIdx));
      if (bias.memref)
        betaRun = splat(rb, loadScalar(rb, bias, runIdx));
    }
    // y for the widened x vector `t`, with the parameters at `at`.
    auto normalize = [&](OpBuilder &sb, Value t, Value at, Value mask) {
      Value gamma, beta;
      if (scale.memref)
        gamma = scaleOnRun ? loadVector(sb, scale, runIdx, at, mask) : gammaRun;
      if (bias.memref)
        beta = scaleOnRun ? loadVector(sb, bias, runIdx, at, mask) : betaRun;
      return buildNormalizedValue(sb, loc, t, meanV, l2V, rstdV, gamma, beta);
    };
    auto step = [&](OpBuilder &sb, Value i, Value mask, bool streaming) {
      Value t = normalize(sb, loadVector(sb, x, runIdx, i, mask), i, mask);
      t = narrow(sb, t, outElement);
      SmallVector<Value> indices = indicesOf(y, runIdx, i);
      if (mask && outBytes == 2) {
        // As the 16-bit tail loads of short runs: element by element, as
        // bits.
        Value bits =
            vector::BitCastOp::create(sb, loc, vectorOf(sb.getI16Type()), t);
        forLoop(
            sb, index(sb, 0), tailCount(sb, i), index(sb, 1), {},
            [&](OpBuilder &lb, Value j, ValueRange) {
              Value e = vector::BroadcastOp::create(
                  lb, loc, VectorType::get({1}, lb.getI16Type()),
                  vector::ExtractOp::create(lb, loc, bits, OpFoldResult(j)));
              vector::StoreOp::create(
                  lb, loc,
                  vector::BitCastOp::create(
                      lb, loc, VectorType::get({1}, outElement), e),
                  y.memref,
                  indicesOf(y, runIdx, arith::AddIOp::create(lb, loc, i, j)));
              return SmallVector<Value>();
            });
      } else if (mask)
        vector::MaskedStoreOp::create(sb, loc, y.memref, indices, mask, t);
      else if (streaming)
        vector::StoreOp::create(sb, loc, t, y.memref, indices,
                                /*nontemporal=*/true,
                                llvm::MaybeAlign(vectorLength * outBytes));
      else
        vector::StoreOp::create(sb, loc, t, y.memref, indices);
    };
    auto pairStep = [&](OpBuilder &sb, Value i, bool streaming) {
      auto [lo, hi] = loadPair(sb, x, runIdx, i);
      Value hiAt = arith::AddIOp::create(sb, loc, i, index(sb, vectorLength));
      Value packed = narrowPair(sb, normalize(sb, lo, i, Value()),
                                normalize(sb, hi, hiAt, Value()));
      vector::StoreOp::create(
          sb, loc, packed, y.memref, indicesOf(y, runIdx, i),
          /*nontemporal=*/streaming,
          streaming ? llvm::MaybeAlign(2 * vectorLength * outBytes)
                    : llvm::MaybeAlign());
    };
    // With 16-bit data, the partial vector at the end of a run of at least
    // one vector is the last whole vector of the run, loaded before any
    // store (y may be x) and stored whole at the end.
    Value lastX;
    if (sixteenBit) {
      Value partial =
          arith::AndIOp::create(rb, loc, hasWholeVector, hasPartialVector);
      lastX =
          scf::IfOp::create(
              rb, loc, partial,
              [&](OpBuilder &tb, Location) {
                scf::YieldOp::create(
                    tb, loc,
                    loadVector(tb, x, runIdx, lastVectorStart, Value()));
              },
              [&](OpBuilder &eb, Location) {
                scf::YieldOp::create(eb, loc,
                                     Value(arith::ConstantOp::create(
                                         eb, loc, eb.getZeroAttr(accVector))));
              })
              .getResult(0);
    }
    Value nextRun;
    if (normalizePrefetchDistance)
      nextRun = prefetchBase(rb, runIdx, normalizePrefetchDistance);
    auto fullVectors = [&](OpBuilder &lb, bool streaming) {
      if (pairedNormalize) {
        forLoop(
            lb, index(lb, 0), pairEnd, index(lb, 2 * vectorLength), {},
            [&](OpBuilder &sb, Value i, ValueRange) {
              if (nextRun)
                prefetch(sb, nextRun, i);
              pairStep(sb, i, streaming);
              return SmallVector<Value>();
            },
            /*unrollable=*/true);
        return;
      }
      forEachVector(
          lb, index(lb, 0), vectorEnd, /*masked=*/false,
          [&](OpBuilder &sb, Value i, Value) {
            if (nextRun)
              prefetch(sb, nextRun, i);
            step(sb, i, Value(), streaming);
          },
          /*unrollable=*/true);
    };
    // Streaming stores need the run to start on a boundary of their width.
    Value runStart = arith::AddIOp::create(
        rb, loc,
        memref::ExtractAlignedPointerAsIndexOp::create(rb, loc, y.memref),
        arith::MulIOp::create(rb, loc, linearIndex(rb, runIdx),
                              index(rb, outBytes)));
    Value aligned = arith::CmpIOp::create(
        rb, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(
            rb, loc, runStart,
            index(rb, (pairedNormalize ? 2 : 1) * vectorLength * outBytes)),
        index(rb, 0));
    Value stream = arith::AndIOp::create(rb, loc, streamOutput, aligned);
    scf::IfOp::create(
        rb, loc, stream,
        [&](OpBuilder &tb, Location) {
          fullVectors(tb, /*streaming=*/true);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          fullVectors(eb, /*streaming=*/false);
          scf::YieldOp::create(eb, loc);
        });
    // After the pairs, at most one whole vector (not streamed: it is at most
    // one line).
    if (pairedNormalize)
      forEachVector(rb, pairEnd, vectorEnd, /*masked=*/false,
                    [&](OpBuilder &sb, Value i, Value) {
                      step(sb, i, Value(), /*streaming=*/false);
                    });
    // Then the partial vector, if any.
    scf::IfOp::create(rb, loc, hasPartialVector, [&](OpBuilder &pb, Location) {
      auto masked = [&](OpBuilder &mb) {
        step(mb, vectorEnd, tailMask(mb, vectorEnd), /*streaming=*/false);
      };
      if (!sixteenBit) {
        masked(pb);
        scf::YieldOp::create(pb, loc);
        return;
      }
      scf::IfOp::create(
          pb, loc, hasWholeVector,
          [&](OpBuilder &tb, Location) {
            // Paired run parameters keep an unpermuted copy of their last
            // vector past the run's end.
            Value at =
                pairedNormalize && scaleOnRun ? runLength : lastVectorStart;
            Value t = narrow(tb, normalize(tb, lastX, at, Value()), outElement);
            vector::StoreOp::create(tb, loc, t, y.memref,
                                    indicesOf(y, runIdx, lastVectorStart));
            scf::YieldOp::create(tb, loc);
          },
          [&](OpBuilder &eb, Location) {
            masked(eb);
            scf::YieldOp::create(eb, loc);
          });
      scf::YieldOp::create(pb, loc);
    });
    return {};
  };
  overRuns(b, SmallVector<Value>(idx), {}, runBody);
}

SmallVector<Value> VectorKernelEmitter::sliceIndex(OpBuilder &b, Value linear) {
  SmallVector<Value> idx(extents.size());
  if (sliceDims.empty())
    return idx;
  for (int64_t c : llvm::reverse(llvm::drop_begin(sliceDims))) {
    idx[c] = arith::RemUIOp::create(b, loc, linear, extents[c]);
    linear = arith::DivUIOp::create(b, loc, linear, extents[c]);
  }
  idx[sliceDims.front()] = linear;
  return idx;
}

SmallVector<Value> VectorKernelEmitter::forEachSlice(OpBuilder &b, Value first,
                                                     Value size,
                                                     ValueRange inits,
                                                     SliceBody body) {
  return forLoop(b, index(b, 0), size, index(b, 1), inits,
                 [&](OpBuilder &sb, Value r, ValueRange args) {
                   SmallVector<Value> idx =
                       sliceIndex(sb, arith::AddIOp::create(sb, loc, first, r));
                   return body(sb, r, idx, args);
                 });
}

void VectorKernelEmitter::emitGroup(OpBuilder &b, Value first, Value size) {
  double eps = op.getEpsilon().convertToDouble();
  NormMode mode = op.getMode();
  Type bits = b.getIntegerType(acc.getWidth());
  VectorType accVector = vectorOf(acc);
  VectorType bitsVector = vectorOf(bits);
  VectorType groupVector = VectorType::get({kMaxGroup}, acc);
  auto zerosOf = [&](VectorType type) -> Value {
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  };
  Value zeroVector = zerosOf(accVector);
  Value zeroBits = zerosOf(bitsVector);
  Value absMask = createScalarOrSplatConstant(b, loc, bitsVector, 0x7fffffff);
  // max |x| as the integer max of the magnitude bits: the same value as a
  // NaN-propagating float max (NaN bits exceed Inf's), in one instruction.
  auto absBits = [&](OpBuilder &cb, Value v) -> Value {
    return arith::AndIOp::create(
        cb, loc, arith::BitcastOp::create(cb, loc, bitsVector, v), absMask);
  };
  auto reduceAdd = [&](OpBuilder &cb, Value v) -> Value {
    return vector::ReductionOp::create(cb, loc, vector::CombiningKind::ADD, v);
  };
  auto reduceMaxAbs = [&](OpBuilder &cb, Value v) -> Value {
    return vector::ReductionOp::create(cb, loc, vector::CombiningKind::MAXSI,
                                       v);
  };
  // Per-slice values travel between the phases as lanes of group vectors.
  auto insert = [&](OpBuilder &cb, Value scalar, Value group, Value r) {
    return vector::InsertOp::create(cb, loc, scalar, group, OpFoldResult(r))
        .getResult();
  };
  auto extract = [&](OpBuilder &cb, Value group, Value r) -> Value {
    return vector::ExtractOp::create(cb, loc, group, OpFoldResult(r));
  };
  auto splat = [&](OpBuilder &cb, Value scalar) -> Value {
    return vector::BroadcastOp::create(cb, loc, accVector, scalar);
  };
  Value groupCount = vector::BroadcastOp::create(b, loc, groupVector, count);

  // max|x| of one slice (the integer max of its magnitude bits), for the
  // rare slices that need a scale factor: one accumulator and no blocks
  // (a max needs no compensation), so that the code stays small.
  auto maxAbsOfSlice = [&](OpBuilder &sb, ArrayRef<Value> idx) -> Value {
    // The partial vector's lanes outside the run are 0: no mask needed.
    auto update = [&](OpBuilder &vb, Value v, Value,
                      ValueRange m) -> SmallVector<Value> {
      return {arith::MaxSIOp::create(vb, loc, m[0], absBits(vb, v))};
    };
    Value bitsMax =
        overRuns(sb, SmallVector<Value>(idx), {zeroBits},
                 [&](OpBuilder &rb, ArrayRef<Value> runIdx, ValueRange m) {
                   return reduceVectors(rb, runIdx, index(rb, 0), m, update);
                 })[0];
    return arith::BitcastOp::create(sb, loc, acc, reduceMaxAbs(sb, bitsMax));
  };
  // Runs a scaled pass with k = 1 first. Its sum of squares (`squares`-th
  // result) decides: finite and at least 2^-60, no square overflowed, and
  // squares that underflowed are off by less than 2^-90·n of the sum (each
  // by at most 2^-150). Scaling by a power of two is exact, so the results
  // are then those of the scaled pass, bit for bit unless a square
  // underflowed. Otherwise (rare: huge, tiny, constant or non-finite
  // slices) k comes from max|x| and the pass runs again. Returns the pass's
  // results, then k, then a value that is 0 exactly when the slice is
  // (max|x|, or the sum of squares when k stayed 1).
  auto scaledPass =
      [&](OpBuilder &sb, ArrayRef<Value> idx, unsigned squares,
          function_ref<SmallVector<Value>(OpBuilder &, Value k)> pass) {
        Value one = accConstant(sb, 1.0);
        Value isTrue = arith::ConstantOp::create(sb, loc, sb.getBoolAttr(true));
        SmallVector<Type> resultTypes(squares + 1, acc);
        resultTypes.append({acc, acc});
        auto loop = scf::WhileOp::create(
            sb, loc, resultTypes, ValueRange{one, isTrue, one},
            [&](OpBuilder &wb, Location, ValueRange args) {
              Value k = args[0], firstTry = args[1];
              SmallVector<Value> sums = pass(wb, k);
              Value sq = sums[squares];
              Value inRange = arith::AndIOp::create(
                  wb, loc, buildIsFinite(wb, loc, sq),
                  arith::CmpFOp::create(wb, loc, arith::CmpFPredicate::OGE, sq,
                                        accConstant(wb, 0x1p-60)));
              Value again = arith::AndIOp::create(
                  wb, loc, firstTry,
                  arith::XOrIOp::create(wb, loc, inRange, isTrue));
              Value zeroProbe =
                  arith::SelectOp::create(wb, loc, firstTry, sq, args[2]);
              SmallVector<Value> out(sums.begin(), sums.end());
              out.append({k, zeroProbe});
              scf::ConditionOp::create(wb, loc, again, out);
            },
            [&](OpBuilder &wb, Location, ValueRange args) {
              Value maxAbs = maxAbsOfSlice(wb, idx);
              Value falseValue =
                  arith::ConstantOp::create(wb, loc, wb.getBoolAttr(false));
              scf::YieldOp::create(wb, loc,
                                   ValueRange{buildScaleFactor(wb, loc, maxAbs),
                                              falseValue, maxAbs});
            });
        return SmallVector<Value>(loop.getResults());
      };

  // The statistics of the group's slices, one lane each.
  Value meanValues, rstdValues, varianceValues, l2Scales, savedL2Values;
  if (op.hasComputedStatistics() && mode == NormMode::standard) {
    // Pass 1 of every slice: Σx.
    Value sums =
        forEachSlice(b, first, size, {zerosOf(groupVector)},
                     [&](OpBuilder &sb, Value r, ArrayRef<Value> idx,
                         ValueRange lanes) -> SmallVector<Value> {
                       ReductionPass pass;
                       pass.zeros = {zeroVector};
                       pass.update = [&](OpBuilder &cb, Value v, Value,
                                         ValueRange a) -> SmallVector<Value> {
                         return {arith::AddFOp::create(cb, loc, a[0], v)};
                       };
                       Value sum = reduceAdd(sb, reduceSlice(sb, idx, pass)[0]);
                       return {insert(sb, sum, lanes[0], r)};
                     })[0];
    Value means = arith::DivFOp::create(b, loc, sums, groupCount);
    // Pass 2 of every slice: Σd and Σd² with d = k·(x − mean), computed as
    // k·x − k·mean in one FMA: k is a power of two, so both forms round
    // once, identically.
    SmallVector<Value> seconds = forEachSlice(
        b, first, size,
        {zerosOf(groupVector), zerosOf(groupVector), zerosOf(groupVector)},
        [&](OpBuilder &sb, Value r, ArrayRef<Value> idx,
            ValueRange lanes) -> SmallVector<Value> {
          Value mean = extract(sb, means, r);
          SmallVector<Value> sums = scaledPass(
              sb, idx, /*squares=*/1,
              [&](OpBuilder &pb, Value k) -> SmallVector<Value> {
                Value kV = splat(pb, k);
                Value negScaledMeanV = splat(
                    pb, arith::NegFOp::create(
                            pb, loc, arith::MulFOp::create(pb, loc, mean, k)));
                ReductionPass pass;
                pass.zeros = {zeroVector, zeroVector};
                pass.prefetchNextSlice = true;
                pass.update = [&](OpBuilder &cb, Value v, Value mask,
                                  ValueRange a) -> SmallVector<Value> {
                  Value d = buildMultiplyAdd(cb, loc, v, kV, negScaledMeanV);
                  if (mask)
                    d = arith::SelectOp::create(cb, loc, mask, d, zeroVector);
                  return {arith::AddFOp::create(cb, loc, a[0], d),
                          buildMultiplyAdd(cb, loc, d, d, a[1])};
                };
                SmallVector<Value> totals = reduceSlice(pb, idx, pass);
                return {reduceAdd(pb, totals[0]), reduceAdd(pb, totals[1])};
              });
          return {insert(sb, sums[0], lanes[0], r),
                  insert(sb, sums[1], lanes[1], r),
                  insert(sb, sums[2], lanes[2], r)};
        });
    CenteredStatistics stats = buildCenteredStatistics(
        b, loc, seconds[1], seconds[2], seconds[0], means, groupCount, eps);
    meanValues = stats.mean;
    rstdValues = stats.rstd;
    varianceValues = stats.variance;
  } else if (op.hasComputedStatistics()) {
    // One pass of every slice: Σ(k·x)².
    SmallVector<Value> lanesOut = forEachSlice(
        b, first, size,
        {zerosOf(groupVector), zerosOf(groupVector), zerosOf(groupVector)},
        [&](OpBuilder &sb, Value r, ArrayRef<Value> idx,
            ValueRange lanes) -> SmallVector<Value> {
          SmallVector<Value> sums = scaledPass(
              sb, idx, /*squares=*/0,
              [&](OpBuilder &pb, Value k) -> SmallVector<Value> {
                Value kV = splat(pb, k);
                ReductionPass pass;
                pass.zeros = {zeroVector};
                pass.prefetchNextSlice = true;
                pass.update = [&](OpBuilder &cb, Value v, Value,
                                  ValueRange a) -> SmallVector<Value> {
                  Value scaled = arith::MulFOp::create(cb, loc, v, kV);
                  return {buildMultiplyAdd(cb, loc, scaled, scaled, a[0])};
                };
                return {reduceAdd(pb, reduceSlice(pb, idx, pass)[0])};
              });
          return {insert(sb, sums[0], lanes[0], r),
                  insert(sb, sums[1], lanes[1], r),
                  insert(sb, sums[2], lanes[2], r)};
        });
    Value sumSquares = lanesOut[0], scales = lanesOut[1];
    if (mode == NormMode::rms) {
      Value ms = arith::DivFOp::create(b, loc, sumSquares, groupCount);
      rstdValues = buildScaledRsqrt(b, loc, ms, scales, eps);
    } else {
      std::tie(rstdValues, savedL2Values) =
          buildL2Inverse(b, loc, sumSquares, scales, lanesOut[2], eps);
      l2Scales = scales;
    }
  }

  // Normalize every slice, and store its statistics.
  forEachSlice(
      b, first, size, {},
      [&](OpBuilder &sb, Value r, ArrayRef<Value> idx,
          ValueRange) -> SmallVector<Value> {
        auto lane = [&](Value group) -> Value {
          return group ? extract(sb, group, r) : Value();
        };
        Value meanValue = lane(meanValues), rstd = lane(rstdValues);
        if (!op.hasComputedStatistics()) {
          meanValue = loadScalar(sb, givenMean, idx);
          rstd =
              buildGivenRstd(sb, loc, loadScalar(sb, givenVariance, idx), eps);
        }
        normalizeSlice(sb, idx, meanValue, lane(l2Scales), rstd);

        SliceStatistics stats{meanValue, lane(varianceValues), rstd,
                              lane(savedL2Values)};
        if (!saved.empty())
          for (auto [view, value] : llvm::zip(saved, getSavedValues(op, stats)))
            storeScalar(sb, value, view, idx);
        if (op.isTraining()) {
          double momentum = op.getMomentum()->convertToDouble();
          Value variance =
              buildRunningVarianceInput(sb, loc, op, stats.variance, count);
          storeScalar(sb,
                      buildRunningUpdate(sb, loc,
                                         loadScalar(sb, running[0], idx),
                                         stats.mean, momentum),
                      running[0], idx);
          storeScalar(sb,
                      buildRunningUpdate(sb, loc,
                                         loadScalar(sb, running[1], idx),
                                         variance, momentum),
                      running[1], idx);
        }
        return {};
      });
}

LogicalResult VectorKernelEmitter::emit() {
  OpBuilder &b = rewriter;
  b.setInsertionPoint(op);
  vectorLength = std::max<int64_t>(options.vectorBits / acc.getWidth(), 1);
  classifyDims();

  // Operands with a layout other than the identity go through identity
  // copies, so that every view collapses.
  SmallVector<std::pair<Value, Value>> copyBack;
  SmallVector<Value> temporaries;
  auto contiguous = [&](Value v, bool read, bool written) -> Value {
    if (!v)
      return v;
    auto type = cast<MemRefType>(v.getType());
    if (type.getLayout().isIdentity())
      return v;
    auto identity = MemRefType::get(type.getShape(), type.getElementType());
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0, e = type.getRank(); i < e; ++i)
      if (type.isDynamicDim(i))
        dynamicSizes.push_back(memref::DimOp::create(b, loc, v, i));
    Value copy = memref::AllocOp::create(b, loc, identity, dynamicSizes);
    if (read)
      linalg::CopyOp::create(b, loc, v, copy);
    if (written)
      copyBack.push_back({copy, v});
    temporaries.push_back(copy);
    return copy;
  };
  x = layout.fullView(b, loc, contiguous(op.getInput(), true, false));
  y = layout.fullView(b, loc, contiguous(op.getOutput(), false, true));
  if (Value s = contiguous(op.getScale(), true, false))
    scale = layout.affineView(b, loc, s);
  if (Value s = contiguous(op.getBias(), true, false))
    bias = layout.affineView(b, loc, s);
  if (Value m = contiguous(op.getMean(), true, false))
    givenMean = layout.statisticsView(b, loc, m);
  if (Value v = contiguous(op.getVariance(), true, false))
    givenVariance = layout.statisticsView(b, loc, v);
  for (Value s : op.getSaved())
    saved.push_back(layout.statisticsView(b, loc, contiguous(s, false, true)));
  if (op.isTraining()) {
    running[0] = layout.statisticsView(
        b, loc, contiguous(op.getRunningMean(), true, true));
    running[1] = layout.statisticsView(
        b, loc, contiguous(op.getRunningVar(), true, true));
  }

  extents = getValueOrCreateConstantIndexOp(
      b, loc, memref::getMixedSizes(b, loc, x.memref));

  strides.assign(extents.size(), Value());
  Value elements = index(b, 1);
  for (int64_t c = extents.size() - 1; c >= 0; --c) {
    strides[c] = elements;
    elements = arith::MulIOp::create(b, loc, elements, extents[c]);
  }
  if (!sliceDims.empty()) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t c = 0, e = extents.size(); c < e; ++c)
      all[0].push_back(c);
    xFlat = collapseContiguous(b, loc, x.memref, all);
    elementCount = elements;
    prefetchDistance = strides[sliceDims.back()];
  }
  // Streaming stores beyond 16 MiB of output (half this class of L3).
  int64_t outBytes = elementBytes(y);
  streamOutput = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ugt,
      arith::MulIOp::create(b, loc, elements, index(b, outBytes)),
      index(b, int64_t(16) << 20));

  // Loop bounds of the runs, and the element count of a slice.
  runLength = extents[runDim];
  int64_t chunk = options.accumulators * vectorLength;
  chunkEnd = arith::SubIOp::create(
      b, loc, runLength,
      arith::RemUIOp::create(b, loc, runLength, index(b, chunk)));
  vectorEnd = arith::SubIOp::create(
      b, loc, runLength,
      arith::RemUIOp::create(b, loc, runLength, index(b, vectorLength)));
  hasWholeVector = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         runLength, index(b, vectorLength));
  lastVectorStart = arith::SubIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, runLength, index(b, vectorLength)),
      index(b, vectorLength));
  hasPartialVector = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           vectorEnd, runLength);
  Value n = runLength;
  for (int64_t c : outerReducedDims)
    n = arith::MulIOp::create(b, loc, n, extents[c]);
  int64_t inBytes = elementBytes(x);
  count = arith::UIToFPOp::create(
      b, loc, acc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), n));
  // Slices per group: as many as fit in 8 KiB (a quarter of L1: the group's
  // outputs and parameters are cached too), at most kMaxGroup.
  Value sliceBytes = arith::MaxUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, n, index(b, inBytes)), index(b, 1));
  groupSize = arith::MaxUIOp::create(
      b, loc,
      arith::MinUIOp::create(b, loc,
                             arith::DivUIOp::create(b, loc,
                                                    index(b, int64_t(8) << 10),
                                                    sliceBytes),
                             index(b, kMaxGroup)),
      index(b, 1));
  // Pass 2 prefetches slices of up to 64 KiB, the normalize pass larger
  // ones of up to 1 MiB (twice L2: the lines of larger ones would be evicted
  // before use). Decided here when the slice size is static.
  constexpr int64_t kPass2PrefetchBytes = int64_t(64) << 10;
  constexpr int64_t kNormalizePrefetchBytes = int64_t(1024) << 10;
  std::optional<int64_t> staticSliceBytes = inBytes;
  SmallVector<int64_t> sliceExtentDims(outerReducedDims);
  sliceExtentDims.push_back(runDim);
  for (int64_t c : sliceExtentDims) {
    std::optional<int64_t> extent = getConstantIntValue(extents[c]);
    staticSliceBytes = extent && staticSliceBytes
                           ? std::optional(*extent * *staticSliceBytes)
                           : std::nullopt;
  }
  if (prefetchDistance) {
    auto atMost = [&](int64_t bytes) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                   sliceBytes, index(b, bytes));
    };
    Value slice = prefetchDistance;
    if (!staticSliceBytes || *staticSliceBytes > kPass2PrefetchBytes)
      normalizePrefetchDistance = arith::SelectOp::create(
          b, loc,
          arith::AndIOp::create(
              b, loc, atMost(kNormalizePrefetchBytes),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                    sliceBytes, index(b, kPass2PrefetchBytes))),
          slice, index(b, 0));
    if (staticSliceBytes && *staticSliceBytes > kPass2PrefetchBytes)
      prefetchDistance = Value();
    else
      prefetchDistance = arith::SelectOp::create(
          b, loc, atMost(kPass2PrefetchBytes),
          arith::MulIOp::create(b, loc, slice, groupSize), index(b, 0));
  }

  pairedNormalize = loadsPairs(x) && loadsPairs(y);
  if (pairedNormalize)
    pairEnd = arith::SubIOp::create(
        b, loc, runLength,
        arith::RemUIOp::create(b, loc, runLength, index(b, 2 * vectorLength)));

  // 16-bit affine parameters that vary along the run only (LayerNorm,
  // RMSNorm) are widened to f32 once, so that the normalize loop of every
  // row loads them as they are; with pairedNormalize, all such parameters
  // are, and permuted as x is.
  auto widenRunParameter = [&](View &view) {
    if (!view.memref || view.dims.size() != 1 || view.dims[0] != runDim ||
        (elementType(view) == acc && !pairedNormalize))
      return;
    // Paired, the copy has one more vector: the run's last whole vector,
    // unpermuted, for the normalize pass's partial vector.
    Value wideLength =
        pairedNormalize
            ? arith::AddIOp::create(b, loc, runLength, index(b, vectorLength))
            : runLength;
    Value wide = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, acc),
        ValueRange{wideLength});
    temporaries.push_back(wide);
    View wideView{wide, {runDim}};
    SmallVector<Value> noIdx(extents.size());
    auto widen = [&](OpBuilder &wb, Value i, Value mask) {
      Value v = loadVector(wb, view, noIdx, i, mask);
      if (mask)
        vector::MaskedStoreOp::create(wb, loc, wide, ValueRange{i}, mask, v);
      else
        vector::StoreOp::create(wb, loc, v, wide, ValueRange{i});
    };
    if (pairedNormalize) {
      forLoop(b, index(b, 0), pairEnd, index(b, 2 * vectorLength), {},
              [&](OpBuilder &pb, Value i, ValueRange) {
                auto [lo, hi] = loadPermuted(pb, view, i);
                vector::StoreOp::create(pb, loc, lo, wide, ValueRange{i});
                vector::StoreOp::create(
                    pb, loc, hi, wide,
                    ValueRange{arith::AddIOp::create(pb, loc, i,
                                                     index(pb, vectorLength))});
                return SmallVector<Value>();
              });
      // Fewer than 2 × vectorLength elements remain: one by one, as scalars.
      forLoop(b, pairEnd, runLength, index(b, 1), {},
              [&](OpBuilder &sb, Value i, ValueRange) {
                Value e = memref::LoadOp::create(sb, loc, view.memref, {i});
                memref::StoreOp::create(sb, loc, convertFloat(sb, loc, e, acc),
                                        wide, {i});
                return SmallVector<Value>();
              });
      scf::IfOp::create(b, loc, hasWholeVector, [&](OpBuilder &tb, Location) {
        Value last = loadVector(tb, view, noIdx, lastVectorStart, Value());
        vector::StoreOp::create(tb, loc, last, wide, ValueRange{runLength});
        scf::YieldOp::create(tb, loc);
      });
    } else {
      forEachVector(b, index(b, 0), vectorEnd, /*masked=*/false, widen);
      forEachVector(b, vectorEnd, runLength, /*masked=*/true, widen);
    }
    view = wideView;
  };
  if (scale.memref)
    widenRunParameter(scale);
  if (bias.memref)
    widenRunParameter(bias);

  // One parallel loop over groups of slices.
  if (sliceDims.empty()) {
    emitGroup(b, index(b, 0), index(b, 1));
  } else {
    Value slices = index(b, 1);
    for (int64_t c : sliceDims)
      slices = arith::MulIOp::create(b, loc, slices, extents[c]);
    Value groups = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, slices,
            arith::SubIOp::create(b, loc, groupSize, index(b, 1))),
        groupSize);
    auto parallel = scf::ParallelOp::create(
        b, loc, ValueRange{index(b, 0)}, ValueRange{groups},
        ValueRange{index(b, 1)}, [&](OpBuilder &pb, Location, ValueRange ivs) {
          Value first = arith::MulIOp::create(pb, loc, ivs[0], groupSize);
          Value size = arith::MinUIOp::create(
              pb, loc, groupSize,
              arith::SubIOp::create(pb, loc, slices, first));
          emitGroup(pb, first, size);
        });
    b.setInsertionPointAfter(parallel);
  }

  for (auto [copy, original] : copyBack)
    linalg::CopyOp::create(b, loc, copy, original);
  for (Value t : temporaries)
    memref::DeallocOp::create(b, loc, t);
  rewriter.eraseOp(op);
  return success();
}

} // namespace

LogicalResult
mlir::norm::lowerToVectorKernel(RewriterBase &rewriter, NormalizeOp op,
                                const VectorKernelOptions &options) {
  if (!op.hasPureBufferSemantics())
    return rewriter.notifyMatchFailure(op, "tensor form");
  if (!hasVectorKernel(op))
    return rewriter.notifyMatchFailure(op, "no vector kernel");
  return VectorKernelEmitter(rewriter, op, options).emit();
}

int64_t mlir::norm::getHostVectorBits() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512f") ? 512 : 256;
}
