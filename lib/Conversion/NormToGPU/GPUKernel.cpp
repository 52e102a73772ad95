//===- GPUKernel.cpp - norm.normalize as a GPU kernel ---------------------===//
//
// Part of the norm-mlir project.
//
// The GPU kernel of a memref-form norm.normalize, as one gpu.launch on the
// collapsed views of KernelLayout. With computed statistics a block owns a
// statistics slice: its threads stride over the slice's innermost reduced
// dim (vectors of `vectorBytes` where the run is contiguous and aligned),
// each pass ends in one block-wide gpu.all_reduce per sum (warp shuffles,
// then shared memory), and the normalize pass reads the slice again while it
// is still in L2. With given statistics the launch is elementwise: a block
// per run of the innermost dim.
//
// The per-slice formulas are those of the linalg decomposition and of the
// CPU kernels (NormNumerics.h), including the power-of-two rescaling of
// slices whose sum of squares is out of range.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/Conversion/Utils/KernelLayout.h"
#include "norm/IR/NormNumerics.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Values of one thread's loop over its part of a slice.
using ElementBody = function_ref<SmallVector<Value>(
    OpBuilder &, ArrayRef<Value> idx, ValueRange runValues, ValueRange iters)>;
/// Values computed once per run of the innermost loop (parameters that do
/// not vary along it).
using RunPrologue =
    function_ref<SmallVector<Value>(OpBuilder &, ArrayRef<Value> idx)>;

class GPUKernelEmitter {
public:
  GPUKernelEmitter(RewriterBase &rewriter, NormalizeOp op,
                   const GPUKernelOptions &options)
      : rewriter(rewriter), op(op), loc(op.getLoc()),
        acc(op.getAccumulationType()), options(options), layout(op) {}

  void emit();

private:
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value accConstant(OpBuilder &b, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, v));
  }
  VectorType accVector(int64_t width) { return VectorType::get({width}, acc); }
  Value splat(OpBuilder &b, Value scalar, int64_t width) {
    return vector::BroadcastOp::create(b, loc, accVector(width), scalar);
  }
  static Type elementType(const KernelView &view) {
    return cast<MemRefType>(view.memref.getType()).getElementType();
  }
  static int64_t elementBytes(const KernelView &view) {
    return elementType(view).getIntOrFloatBitWidth() / 8;
  }
  /// Whether `view` varies along the innermost collapsed dim.
  bool alongInnermost(const KernelView &view) {
    return view.memref && !view.dims.empty() && view.dims.back() == innermost;
  }
  SmallVector<Value> indicesOf(const KernelView &view, ArrayRef<Value> idx) {
    return llvm::map_to_vector(view.dims, [&](int64_t c) { return idx[c]; });
  }
  /// `width` consecutive elements of `view` along the innermost dim from
  /// `idx`, widened to the accumulation type (a vector). `view` must vary
  /// along it when width > 1.
  Value loadVector(OpBuilder &b, const KernelView &view, ArrayRef<Value> idx,
                   int64_t width);
  /// One element of `view` at `idx`, widened.
  Value loadScalar(OpBuilder &b, const KernelView &view, ArrayRef<Value> idx);
  void storeVector(OpBuilder &b, Value v, const KernelView &view,
                   ArrayRef<Value> idx);
  void storeScalar(OpBuilder &b, Value v, const KernelView &view,
                   ArrayRef<Value> idx);
  /// A parameter at `idx`: a vector of `width` when it varies along the
  /// innermost dim, else a scalar (the same for the whole run).
  Value loadParameter(OpBuilder &b, const KernelView &view, ArrayRef<Value> idx,
                      int64_t width) {
    if (alongInnermost(view))
      return loadVector(b, view, idx, width);
    return loadScalar(b, view, idx);
  }
  Value broadcastTo(OpBuilder &b, Value v, int64_t width) {
    return isa<VectorType>(v.getType()) ? v : splat(b, v, width);
  }

  /// The vector width (elements) of the kernel's vector path: `vectorBytes`
  /// of the widest operand moved along the innermost dim; 1 when the
  /// innermost dim cannot be vectorized.
  int64_t vectorWidth(ArrayRef<const KernelView *> views);
  /// Host-side: whether the vector path applies at run time: the innermost
  /// extent is a multiple of `width` and every view moved along it starts
  /// on a boundary of `width` elements.
  Value vectorPathApplies(OpBuilder &b, ArrayRef<const KernelView *> views,
                          int64_t width);
  /// Threads per block for a loop over `extent` (static or dynamic) with
  /// `width` elements per thread and iteration.
  int64_t threadsFor(int64_t extent, int64_t width);

  /// The indices of `dims` (collapsed, ascending) at linear index `linear`
  /// in their row-major space; written into `idx`.
  void delinearize(OpBuilder &b, Value linear, ArrayRef<int64_t> dims,
                   SmallVector<Value> &idx);
  /// This thread's loop over the slice (or run) at `idx`: loops over
  /// `outerDims`, then the innermost dim from threadId·width with a stride
  /// of blockSize·width. Where the innermost extent is shorter than the
  /// block (BatchNorm over [N, C], H = W = 1, at run time), the block's
  /// threads split into a grid: the fewest powers of two of them that cover
  /// the innermost extent, the rest striding over the first outer dim, so
  /// that no thread sums the outer dim alone (slow, and a long sequential
  /// f32 sum). `prologue` runs before each innermost loop.
  SmallVector<Value> overThreadElements(OpBuilder &b, SmallVector<Value> idx,
                                        ArrayRef<int64_t> outerDims,
                                        int64_t width, ValueRange inits,
                                        RunPrologue prologue, ElementBody body,
                                        unsigned level = 0);
  /// The reduction of a per-thread scalar over the threads of the slice: the
  /// block, or the warp with warpSlices.
  Value sliceReduce(OpBuilder &b, Value v, gpu::AllReduceOperation kind);
  /// The sum of a per-thread vector over the threads of the slice.
  Value blockSum(OpBuilder &b, Value v);
  /// x at `at`: the register copy while a resident slice is walked, else a
  /// load.
  Value loadX(OpBuilder &b, ArrayRef<Value> at, int64_t width) {
    return currentX ? currentX : loadVector(b, x, at, width);
  }
  /// Whether this thread's `r`-th vector of a resident slice may lie past
  /// the end of the innermost dim (only the last one of an uneven split).
  bool mayOverrun(int64_t r, int64_t width) {
    return (r + 1) * launchThreads * width > staticExtents[innermost];
  }
  /// The first element of this thread's `r`-th vector of a resident slice.
  Value residentStart(OpBuilder &b, int64_t r, int64_t width) {
    Value first = arith::MulIOp::create(b, loc, threadId, index(b, width));
    return arith::AddIOp::create(b, loc, first,
                                 index(b, r * launchThreads * width));
  }

  /// `body` for the vector path (width `width`) where `useVectors` holds,
  /// else for the element path (width 1); only the latter without it.
  void emitPaths(OpBuilder &b, Value useVectors, int64_t width,
                 function_ref<void(OpBuilder &, int64_t)> body) {
    if (!useVectors) {
      body(b, 1);
      return;
    }
    scf::IfOp::create(
        b, loc, useVectors,
        [&](OpBuilder &tb, Location) {
          body(tb, width);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          body(eb, 1);
          scf::YieldOp::create(eb, loc);
        });
  }
  /// With computed statistics: the body of the block owning one slice.
  void emitSliceBlock(OpBuilder &b, SmallVector<Value> idx, int64_t width);
  /// Thread 0 of the slice at `idx` writes its saved statistics and updates
  /// the running ones.
  void storeSliceStatistics(OpBuilder &b, ArrayRef<Value> idx,
                            const SliceStatistics &stats);
  /// The slices split into `parts` parts along `splitDim`, three launches
  /// in one kernel module sharing a workspace (see emit).
  void emitSplitSlices(OpBuilder &b, ArrayRef<int64_t> sliceDims,
                       Value numSlices, int64_t splitDim, Value parts,
                       int64_t capacity, int64_t threads, int64_t width,
                       Value useVectors);
  /// The normalize pass over this thread's elements of the slice (or run)
  /// at `idx`. With computed statistics `mean` (standard mode), `l2Scale`
  /// (l2) and `rstd` are the slice's; with given ones (all null) they are
  /// loaded once per run, or per element where they vary along the
  /// innermost dim. So are γ and β.
  void normalizePass(OpBuilder &b, SmallVector<Value> idx,
                     ArrayRef<int64_t> outerDims, int64_t width, Value mean,
                     Value l2Scale, Value rstd);
  /// y for the widened `t` with the slice statistics and the parameters.
  Value normalizeValue(OpBuilder &b, Value t, Value mean, Value l2Scale,
                       Value rstd, Value gamma, Value beta);

  RewriterBase &rewriter;
  NormalizeOp op;
  Location loc;
  FloatType acc;
  GPUKernelOptions options;
  KernelLayout layout;
  int64_t innermost = 0;
  double eps = 0;

  KernelView x, y, scale, bias, givenMean, givenVariance, running[2];
  SmallVector<KernelView> saved;
  /// Collapsed extents (host values, captured by the launch) and the
  /// reduced element count of a slice in the accumulation type.
  SmallVector<Value> extents;
  SmallVector<int64_t> staticExtents;
  Value count;
  /// Inside the launch.
  Value threadId, blockSize;
  /// While overThreadElements walks a slice with outer dims: this thread's
  /// place along the innermost dim and the threads there (see it).
  Value innerThreadId, innerThreads;
  /// Threads per block, and the slice elements each thread keeps in
  /// registers for every pass at most.
  int64_t launchThreads = 0;
  static constexpr int64_t kMaxResidentElements = 32;
  /// While a slice block is emitted: how many vectors of its slice each
  /// thread holds in registers (0: each pass reads the slice again), those
  /// vectors, and the one the element loop is at.
  int64_t residentVectors = 0;
  SmallVector<Value> residentX;
  Value currentX;
  /// Short static slices go one per warp, kWarpsPerBlock per block; their
  /// sums are warp reductions (shuffles, no shared memory or barrier).
  bool warpSlices = false;
  /// Long slices that are few split over several blocks each: the part of
  /// the split dim a block covers, inside the launch.
  struct SplitRange {
    int64_t dim;
    Value lower, upper;
  };
  std::optional<SplitRange> split;
  static constexpr int64_t kSplitBelowSlices = 264, kSplitMaxParts = 32,
                           kSplitMinPartElements = 8192;
  static constexpr int64_t kWarp = 32, kWarpsPerBlock = 8,
                           kWarpSliceElements = 16;
};

} // namespace

Value GPUKernelEmitter::loadVector(OpBuilder &b, const KernelView &view,
                                   ArrayRef<Value> idx, int64_t width) {
  Type element = elementType(view);
  Value v = vector::LoadOp::create(
      b, loc, VectorType::get({width}, element), view.memref,
      indicesOf(view, idx), /*nontemporal=*/false,
      llvm::MaybeAlign(width * elementBytes(view)));
  return convertFloat(b, loc, v, acc);
}

Value GPUKernelEmitter::loadScalar(OpBuilder &b, const KernelView &view,
                                   ArrayRef<Value> idx) {
  Value v = memref::LoadOp::create(b, loc, view.memref, indicesOf(view, idx));
  return convertFloat(b, loc, v, acc);
}

void GPUKernelEmitter::storeVector(OpBuilder &b, Value v,
                                   const KernelView &view,
                                   ArrayRef<Value> idx) {
  int64_t width = cast<VectorType>(v.getType()).getNumElements();
  Value narrow = convertFloat(b, loc, v, elementType(view));
  vector::StoreOp::create(b, loc, narrow, view.memref, indicesOf(view, idx),
                          /*nontemporal=*/false,
                          llvm::MaybeAlign(width * elementBytes(view)));
}

void GPUKernelEmitter::storeScalar(OpBuilder &b, Value v,
                                   const KernelView &view,
                                   ArrayRef<Value> idx) {
  memref::StoreOp::create(b, loc, convertFloat(b, loc, v, elementType(view)),
                          view.memref, indicesOf(view, idx));
}

int64_t GPUKernelEmitter::vectorWidth(ArrayRef<const KernelView *> views) {
  int64_t widest = 1;
  for (const KernelView *view : views)
    if (alongInnermost(*view))
      widest = std::max(widest, elementBytes(*view));
  int64_t width = std::max<int64_t>(options.vectorBytes / widest, 1);
  int64_t extent = staticExtents[innermost];
  if (!ShapedType::isDynamic(extent) && extent % width != 0)
    return 1;
  return width;
}

Value GPUKernelEmitter::vectorPathApplies(OpBuilder &b,
                                          ArrayRef<const KernelView *> views,
                                          int64_t width) {
  Value zero = index(b, 0);
  Value applies = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, extents[innermost], index(b, width)),
      zero);
  for (const KernelView *view : views) {
    if (!alongInnermost(*view))
      continue;
    // Identity layouts have offset 0: the aligned pointer is the first
    // element.
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view->memref);
    Value misaligned = arith::RemUIOp::create(
        b, loc, pointer, index(b, width * elementBytes(*view)));
    applies = arith::AndIOp::create(
        b, loc, applies,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misaligned,
                              zero));
  }
  return applies;
}

int64_t GPUKernelEmitter::threadsFor(int64_t extent, int64_t width) {
  if (ShapedType::isDynamic(extent))
    return options.blockSize;
  int64_t perThread = llvm::divideCeil(extent, width);
  int64_t threads = 32;
  while (threads < perThread && threads < options.blockSize)
    threads *= 2;
  return std::min(threads, options.blockSize);
}

void GPUKernelEmitter::delinearize(OpBuilder &b, Value linear,
                                   ArrayRef<int64_t> dims,
                                   SmallVector<Value> &idx) {
  if (dims.empty())
    return;
  for (int64_t c : llvm::reverse(llvm::drop_begin(dims))) {
    idx[c] = arith::RemUIOp::create(b, loc, linear, extents[c]);
    linear = arith::DivUIOp::create(b, loc, linear, extents[c]);
  }
  idx[dims.front()] = linear;
}

SmallVector<Value>
GPUKernelEmitter::overThreadElements(OpBuilder &b, SmallVector<Value> idx,
                                     ArrayRef<int64_t> outerDims, int64_t width,
                                     ValueRange inits, RunPrologue prologue,
                                     ElementBody body, unsigned level) {
  if (level < outerDims.size()) {
    int64_t dim = outerDims[level];
    Value lower = index(b, 0), upper = extents[dim];
    if (split && split->dim == dim) {
      lower = split->lower;
      upper = split->upper;
    }
    Value stepValue = index(b, 1);
    if (level == 0 && residentVectors == 0) {
      // Threads along the innermost dim: the least power of two covering
      // its vectors, at most the block; the others stride over this dim.
      Value needed = arith::CeilDivUIOp::create(b, loc, extents[innermost],
                                                index(b, width));
      Value threads = index(b, 1024);
      for (int64_t t = 512; t >= 1; t /= 2)
        threads = arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, needed,
                                  index(b, t)),
            index(b, t), threads);
      innerThreads = arith::MinUIOp::create(b, loc, threads, blockSize);
      innerThreadId = arith::RemUIOp::create(b, loc, threadId, innerThreads);
      lower = arith::AddIOp::create(
          b, loc, lower,
          arith::DivUIOp::create(b, loc, threadId, innerThreads));
      stepValue = arith::DivUIOp::create(b, loc, blockSize, innerThreads);
    }
    auto loop = scf::ForOp::create(
        b, loc, lower, upper, stepValue, inits,
        [&](OpBuilder &lb, Location, Value i, ValueRange iters) {
          SmallVector<Value> inner(idx);
          inner[dim] = i;
          scf::YieldOp::create(lb, loc,
                               overThreadElements(lb, inner, outerDims, width,
                                                  iters, prologue, body,
                                                  level + 1));
        });
    if (level == 0)
      innerThreadId = innerThreads = Value();
    return SmallVector<Value>(loop.getResults());
  }
  SmallVector<Value> runValues;
  if (prologue)
    runValues = prologue(b, idx);
  if (residentVectors > 0) {
    // The slice is in registers: the element loop, unrolled over them.
    SmallVector<Value> iters(inits);
    for (int64_t r = 0; r < residentVectors; ++r) {
      SmallVector<Value> inner(idx);
      inner[innermost] = residentStart(b, r, width);
      currentX = residentX[r];
      if (!mayOverrun(r, width)) {
        iters = body(b, inner, runValues, iters);
        continue;
      }
      Value inside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                inner[innermost], extents[innermost]);
      auto guard = scf::IfOp::create(
          b, loc, inside,
          [&](OpBuilder &tb, Location) {
            scf::YieldOp::create(tb, loc, body(tb, inner, runValues, iters));
          },
          [&](OpBuilder &eb, Location) {
            scf::YieldOp::create(eb, loc, iters);
          });
      iters.assign(guard.getResults().begin(), guard.getResults().end());
    }
    currentX = Value();
    return iters;
  }
  Value widthValue = index(b, width);
  Value start = arith::MulIOp::create(
      b, loc, innerThreadId ? innerThreadId : threadId, widthValue);
  Value step = arith::MulIOp::create(
      b, loc, innerThreads ? innerThreads : blockSize, widthValue);
  Value end = extents[innermost];
  if (split && split->dim == innermost) {
    // A part of a split row: its range, whose bounds are whole vectors.
    start = arith::AddIOp::create(b, loc, split->lower, start);
    end = split->upper;
  }
  auto loop = scf::ForOp::create(
      b, loc, start, end, step, inits,
      [&](OpBuilder &lb, Location, Value i, ValueRange iters) {
        SmallVector<Value> inner(idx);
        inner[innermost] = i;
        scf::YieldOp::create(lb, loc, body(lb, inner, runValues, iters));
      });
  return SmallVector<Value>(loop.getResults());
}

Value GPUKernelEmitter::sliceReduce(OpBuilder &b, Value v,
                                    gpu::AllReduceOperation kind) {
  // Every thread of the slice gets here: the conditions around are uniform.
  if (warpSlices)
    return gpu::SubgroupReduceOp::create(b, loc, v, kind, /*uniform=*/true);
  return gpu::AllReduceOp::create(
      b, loc, v, gpu::AllReduceOperationAttr::get(b.getContext(), kind),
      b.getUnitAttr());
}

Value GPUKernelEmitter::blockSum(OpBuilder &b, Value v) {
  Value partial =
      vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, v);
  return sliceReduce(b, partial, gpu::AllReduceOperation::ADD);
}

Value GPUKernelEmitter::normalizeValue(OpBuilder &b, Value t, Value mean,
                                       Value l2Scale, Value rstd, Value gamma,
                                       Value beta) {
  int64_t width = cast<VectorType>(t.getType()).getNumElements();
  auto splat = [&](Value v) -> Value {
    return v ? broadcastTo(b, v, width) : Value();
  };
  return buildNormalizedValue(b, loc, t, splat(mean), splat(l2Scale),
                              splat(rstd), splat(gamma), splat(beta));
}

void GPUKernelEmitter::emitSliceBlock(OpBuilder &b, SmallVector<Value> idx,
                                      int64_t width) {
  SmallVector<int64_t> outerReduced;
  for (int64_t c = 0; c < innermost; ++c)
    if (layout.isReduced(c))
      outerReduced.push_back(c);
  NormMode mode = op.getMode();
  Value zeros =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(accVector(width)));
  // A static slice that fits is loaded once into registers; every pass then
  // reads those, so memory sees each element once.
  residentVectors = 0;
  residentX.clear();
  int64_t extent = staticExtents[innermost];
  if (outerReduced.empty() && !ShapedType::isDynamic(extent)) {
    int64_t vectors = llvm::divideCeil(extent, launchThreads * width);
    if (vectors * width <= kMaxResidentElements)
      residentVectors = vectors;
  }
  for (int64_t r = 0; r < residentVectors; ++r) {
    SmallVector<Value> at(idx);
    at[innermost] = residentStart(b, r, width);
    if (!mayOverrun(r, width)) {
      residentX.push_back(loadVector(b, x, at, width));
      continue;
    }
    // Past the end: zeros, which no pass reads (their steps are skipped).
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         at[innermost], extents[innermost]);
    auto guarded = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &tb, Location) {
          scf::YieldOp::create(tb, loc, loadVector(tb, x, at, width));
        },
        [&](OpBuilder &eb, Location) { scf::YieldOp::create(eb, loc, zeros); });
    residentX.push_back(guarded.getResult(0));
  }
  auto sliceSums =
      [&](OpBuilder &sb, unsigned numSums,
          function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
              update) {
        SmallVector<Value> inits(numSums, zeros);
        SmallVector<Value> partials =
            overThreadElements(sb, idx, outerReduced, width, inits, nullptr,
                               [&](OpBuilder &eb, ArrayRef<Value> at,
                                   ValueRange, ValueRange sums) {
                                 return update(eb, loadX(eb, at, width), sums);
                               });
        return llvm::map_to_vector(partials,
                                   [&](Value p) { return blockSum(sb, p); });
      };
  // max|x| of the slice, on the magnitude bits (NaN is the largest).
  auto sliceMaxAbs = [&](OpBuilder &sb) -> Value {
    VectorType bitsType = VectorType::get({width}, sb.getI32Type());
    Value magnitude = arith::ConstantOp::create(
        sb, loc,
        DenseElementsAttr::get(bitsType,
                               sb.getI32IntegerAttr(0x7fffffff).getValue()));
    Value zeroBits =
        arith::ConstantOp::create(sb, loc, sb.getZeroAttr(bitsType));
    Value partial =
        overThreadElements(
            sb, idx, outerReduced, width, {zeroBits}, nullptr,
            [&](OpBuilder &eb, ArrayRef<Value> at, ValueRange,
                ValueRange m) -> SmallVector<Value> {
              Value bits = arith::BitcastOp::create(eb, loc, bitsType,
                                                    loadX(eb, at, width));
              bits = arith::AndIOp::create(eb, loc, bits, magnitude);
              return {arith::MaxSIOp::create(eb, loc, m[0], bits)};
            })
            .front();
    Value threadMax = vector::ReductionOp::create(
        sb, loc, vector::CombiningKind::MAXSI, partial);
    Value blockMax = sliceReduce(sb, threadMax, gpu::AllReduceOperation::MAXSI);
    return arith::BitcastOp::create(sb, loc, acc, blockMax);
  };
  // A scaled pass with k = 1 first; its sum of squares (the `squares`-th
  // sum) decides whether it stands, as in the CPU kernels: finite and at
  // least 2^-60. Otherwise (huge, tiny, constant or non-finite slices) k
  // comes from max|x| and the pass runs again. The condition is uniform
  // over the block, so every thread reaches the same reductions. Returns
  // the sums, k, and a value that is 0 exactly when the slice is.
  auto scaledPass =
      [&](OpBuilder &sb, unsigned squares,
          function_ref<SmallVector<Value>(OpBuilder &, Value)> pass) {
        SmallVector<Value> first = pass(sb, accConstant(sb, 1.0));
        Value sq = first[squares];
        Value inRange = arith::AndIOp::create(
            sb, loc, buildIsFinite(sb, loc, sq),
            arith::CmpFOp::create(sb, loc, arith::CmpFPredicate::OGE, sq,
                                  accConstant(sb, 0x1p-60)));
        auto branch = scf::IfOp::create(
            sb, loc, inRange,
            [&](OpBuilder &tb, Location) {
              SmallVector<Value> out(first);
              out.append({accConstant(tb, 1.0), sq});
              scf::YieldOp::create(tb, loc, out);
            },
            [&](OpBuilder &eb, Location) {
              Value maxAbs = sliceMaxAbs(eb);
              Value k = buildScaleFactor(eb, loc, maxAbs);
              SmallVector<Value> out = pass(eb, k);
              out.append({k, maxAbs});
              scf::YieldOp::create(eb, loc, out);
            });
        return SmallVector<Value>(branch.getResults());
      };

  Value mean, rstd, variance, l2Scale, savedL2;
  if (mode == NormMode::standard) {
    Value sum = sliceSums(b, 1, [&](OpBuilder &eb, Value v, ValueRange s) {
      return SmallVector<Value>{arith::AddFOp::create(eb, loc, s[0], v)};
    })[0];
    Value firstMean = arith::DivFOp::create(b, loc, sum, count);
    // Σd and Σd² with d = k·(x − mean) as one FMA (k is a power of two).
    SmallVector<Value> sums =
        scaledPass(b, /*squares=*/1, [&](OpBuilder &pb, Value k) {
          Value kV = splat(pb, k, width);
          Value negScaledMean =
              splat(pb,
                    arith::NegFOp::create(
                        pb, loc, arith::MulFOp::create(pb, loc, firstMean, k)),
                    width);
          return sliceSums(pb, 2, [&](OpBuilder &eb, Value v, ValueRange s) {
            Value d = math::FmaOp::create(eb, loc, v, kV, negScaledMean);
            return SmallVector<Value>{arith::AddFOp::create(eb, loc, s[0], d),
                                      math::FmaOp::create(eb, loc, d, d, s[1])};
          });
        });
    CenteredStatistics stats = buildCenteredStatistics(
        b, loc, sums[1], sums[2], sums[0], firstMean, count, eps);
    mean = stats.mean;
    rstd = stats.rstd;
    variance = stats.variance;
  } else {
    // Σ(k·x)² in one pass.
    SmallVector<Value> sums =
        scaledPass(b, /*squares=*/0, [&](OpBuilder &pb, Value k) {
          Value kV = splat(pb, k, width);
          return sliceSums(pb, 1, [&](OpBuilder &eb, Value v, ValueRange s) {
            Value scaled = arith::MulFOp::create(eb, loc, v, kV);
            return SmallVector<Value>{
                math::FmaOp::create(eb, loc, scaled, scaled, s[0])};
          });
        });
    Value sumSquares = sums[0], k = sums[1];
    if (mode == NormMode::rms) {
      Value meanSquare = arith::DivFOp::create(b, loc, sumSquares, count);
      rstd = buildScaledRsqrt(b, loc, meanSquare, k, eps);
    } else {
      std::tie(rstd, savedL2) =
          buildL2Inverse(b, loc, sumSquares, k, sums[2], eps);
      l2Scale = k;
    }
  }

  normalizePass(b, idx, outerReduced, width, mean, l2Scale, rstd);

  storeSliceStatistics(b, idx, SliceStatistics{mean, variance, rstd, savedL2});
}

void GPUKernelEmitter::storeSliceStatistics(OpBuilder &b, ArrayRef<Value> idx,
                                            const SliceStatistics &stats) {
  if (saved.empty() && !op.isTraining())
    return;
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, index(b, 0));
  scf::IfOp::create(b, loc, isFirst, [&](OpBuilder &tb, Location) {
    if (!saved.empty())
      for (auto [view, value] : llvm::zip(saved, getSavedValues(op, stats)))
        storeScalar(tb, value, view, idx);
    if (op.isTraining()) {
      double momentum = op.getMomentum()->convertToDouble();
      Value variance =
          buildRunningVarianceInput(tb, loc, op, stats.variance, count);
      storeScalar(tb,
                  buildRunningUpdate(tb, loc, loadScalar(tb, running[0], idx),
                                     stats.mean, momentum),
                  running[0], idx);
      storeScalar(tb,
                  buildRunningUpdate(tb, loc, loadScalar(tb, running[1], idx),
                                     variance, momentum),
                  running[1], idx);
    }
    scf::YieldOp::create(tb, loc);
  });
}

void GPUKernelEmitter::normalizePass(OpBuilder &b, SmallVector<Value> idx,
                                     ArrayRef<int64_t> outerDims, int64_t width,
                                     Value mean, Value l2Scale, Value rstd) {
  bool given = !rstd;
  overThreadElements(
      b, idx, outerDims, width, {},
      [&](OpBuilder &pb, ArrayRef<Value> at) -> SmallVector<Value> {
        // What is constant along the run, loaded once per run.
        SmallVector<Value> params;
        if (given && !alongInnermost(givenMean))
          params.push_back(loadScalar(pb, givenMean, at));
        if (given && !alongInnermost(givenVariance))
          params.push_back(
              buildGivenRstd(pb, loc, loadScalar(pb, givenVariance, at), eps));
        for (const KernelView *view : {&scale, &bias})
          if (view->memref && !alongInnermost(*view))
            params.push_back(loadScalar(pb, *view, at));
        return params;
      },
      [&](OpBuilder &eb, ArrayRef<Value> at, ValueRange runParams,
          ValueRange) -> SmallVector<Value> {
        unsigned next = 0;
        Value elementMean = mean, elementRstd = rstd;
        if (given) {
          elementMean = alongInnermost(givenMean)
                            ? loadVector(eb, givenMean, at, width)
                            : runParams[next++];
          elementRstd =
              alongInnermost(givenVariance)
                  ? buildGivenRstd(
                        eb, loc, loadVector(eb, givenVariance, at, width), eps)
                  : runParams[next++];
        }
        auto parameter = [&](const KernelView &view) -> Value {
          if (!view.memref)
            return Value();
          if (alongInnermost(view))
            return loadVector(eb, view, at, width);
          return runParams[next++];
        };
        Value gamma = parameter(scale);
        Value beta = parameter(bias);
        Value t = normalizeValue(eb, loadX(eb, at, width), elementMean, l2Scale,
                                 elementRstd, gamma, beta);
        storeVector(eb, t, y, at);
        return {};
      });
}

void GPUKernelEmitter::emitSplitSlices(OpBuilder &b,
                                       ArrayRef<int64_t> sliceDims,
                                       Value numSlices, int64_t splitDim,
                                       Value parts, int64_t capacity,
                                       int64_t threads, int64_t width,
                                       Value useVectors) {
  MLIRContext *ctx = b.getContext();
  auto module = op->getParentOfType<ModuleOp>();
  // The workspace: per (slice, part) Σx, the max|x| bits, Σd (or Σ(k·x)²)
  // and Σd². It belongs to the call: allocated on the launches' stream
  // before them and freed after them in stream order, so that calls of one
  // kernel on several streams at once never share it.
  constexpr int64_t kFields = 4;
  auto workspaceType = MemRefType::get({capacity * kFields}, b.getF32Type());
  auto tokenType = gpu::AsyncTokenType::get(ctx);
  Value ready =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange()).getResult(0);
  auto alloc =
      gpu::AllocOp::create(b, loc, workspaceType, tokenType, ValueRange{ready},
                           ValueRange(), ValueRange(), /*hostShared=*/false);
  Value workspace = alloc.getMemref();
  Value allocated = alloc.getAsyncToken();
  // Kernels named after the function, so that profiles name them; a second
  // split op in one function gets a suffix.
  std::string base = "norm";
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    base = func.getName().str();
  std::string name = base + "_split";
  auto taken = [&](StringRef kernels) {
    bool found =
        static_cast<bool>(SymbolTable::lookupSymbolIn(module, kernels));
    module.walk(
        [&](gpu::LaunchOp launch) { found |= launch.getModule() == kernels; });
    return found;
  };
  for (int i = 1; taken(name + "_kernels"); ++i)
    name = base + "_split" + std::to_string(i);
  auto kernelModule = FlatSymbolRefAttr::get(ctx, name + "_kernels");

  SmallVector<int64_t> outerReduced;
  for (int64_t c = 0; c < innermost; ++c)
    if (layout.isReduced(c))
      outerReduced.push_back(c);
  Value numBlocks = arith::MulIOp::create(b, loc, numSlices, parts);
  Value one = index(b, 1);
  NormMode mode = op.getMode();

  // One launch: block (slice s, part p) with the part's range of the split
  // dim; `body(b, width, idx, workspace, slot, part)` per path.
  auto launchParts =
      [&](StringRef function,
          function_ref<void(OpBuilder &, int64_t, ArrayRef<Value>, Value, Value,
                            Value)>
              body) {
        auto launch = gpu::LaunchOp::create(
            b, loc, numBlocks, one, one, index(b, threads), one, one,
            /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
            /*asyncDependencies=*/{}, /*workgroupAttributions=*/{},
            /*privateAttributions=*/{}, nullptr, nullptr, nullptr, kernelModule,
            FlatSymbolRefAttr::get(ctx, name + "_" + function.str()));
        OpBuilder kb = OpBuilder::atBlockBegin(&launch.getBody().front());
        threadId = launch.getThreadIds().x;
        blockSize = launch.getBlockSize().x;
        Value block = launch.getBlockIds().x;
        Value slice = arith::DivUIOp::create(kb, loc, block, parts);
        Value part = arith::RemUIOp::create(kb, loc, block, parts);
        SmallVector<Value> idx(layout.getNumDims());
        delinearize(kb, slice, sliceDims, idx);
        // Part p covers [p·E/P, (p+1)·E/P) of the split dim, in whole
        // vectors when that is the threads' dim (the last part ends at E).
        Value extent = extents[splitDim];
        int64_t unit = splitDim == innermost ? width : 1;
        auto bound = [&](Value p) -> Value {
          Value units =
              arith::DivUIOp::create(kb, loc, extent, index(kb, unit));
          Value at = arith::MulIOp::create(
              kb, loc,
              arith::DivUIOp::create(
                  kb, loc, arith::MulIOp::create(kb, loc, p, units), parts),
              index(kb, unit));
          Value last = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::eq,
                                             p, parts);
          return arith::SelectOp::create(kb, loc, last, extent, at);
        };
        split = SplitRange{
            splitDim, bound(part),
            bound(arith::AddIOp::create(kb, loc, part, index(kb, 1)))};
        Value ws = workspace;
        Value slot = arith::MulIOp::create(kb, loc, block, index(kb, kFields));
        emitPaths(kb, useVectors, width, [&](OpBuilder &pb, int64_t w) {
          body(pb, w, idx, ws, slot, part);
        });
        gpu::TerminatorOp::create(kb, loc);
        split.reset();
      };
  auto field = [&](OpBuilder &fb, Value base, int64_t f) {
    return arith::AddIOp::create(fb, loc, base, index(fb, f));
  };
  auto onThreadZero = [&](OpBuilder &tb, function_ref<void(OpBuilder &)> fn) {
    Value isFirst = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq,
                                          threadId, index(tb, 0));
    scf::IfOp::create(tb, loc, isFirst, [&](OpBuilder &ib, Location) {
      fn(ib);
      scf::YieldOp::create(ib, loc);
    });
  };
  // The slice's totals of field `f` over its parts, in part order (every
  // block of the slice gets the same bits); max for the magnitude bits.
  auto totals = [&](OpBuilder &tb, Value ws, Value slot, Value part) {
    Value first = arith::SubIOp::create(
        tb, loc, slot,
        arith::MulIOp::create(tb, loc, part, index(tb, kFields)));
    Value zero = accConstant(tb, 0.0);
    Value zeroBits =
        arith::ConstantOp::create(tb, loc, tb.getI32IntegerAttr(0));
    auto loop = scf::ForOp::create(
        tb, loc, index(tb, 0), parts, index(tb, 1),
        ValueRange{zero, zeroBits, zero, zero},
        [&](OpBuilder &lb, Location, Value q, ValueRange sums) {
          Value at = arith::AddIOp::create(
              lb, loc, first,
              arith::MulIOp::create(lb, loc, q, index(lb, kFields)));
          auto read = [&](int64_t f) -> Value {
            return memref::LoadOp::create(lb, loc, ws,
                                          ValueRange{field(lb, at, f)});
          };
          Value bits =
              arith::BitcastOp::create(lb, loc, lb.getI32Type(), read(1));
          scf::YieldOp::create(
              lb, loc,
              ValueRange{arith::AddFOp::create(lb, loc, sums[0], read(0)),
                         arith::MaxSIOp::create(lb, loc, sums[1], bits),
                         arith::AddFOp::create(lb, loc, sums[2], read(2)),
                         arith::AddFOp::create(lb, loc, sums[3], read(3))});
        });
    SmallVector<Value> out(loop.getResults());
    out[1] = arith::BitcastOp::create(tb, loc, acc, out[1]);
    return out;
  };
  auto store = [&](OpBuilder &sb, Value ws, Value slot, int64_t f, Value v) {
    memref::StoreOp::create(sb, loc, v, ws, ValueRange{field(sb, slot, f)});
  };

  // 1. Per part: Σx (standard mode) and max|x| (as the magnitude bits).
  launchParts("partial", [&](OpBuilder &kb, int64_t w, ArrayRef<Value> idx,
                             Value ws, Value slot, Value) {
    VectorType bitsType = VectorType::get({w}, kb.getI32Type());
    Value magnitude = arith::ConstantOp::create(
        kb, loc,
        DenseElementsAttr::get(bitsType,
                               kb.getI32IntegerAttr(0x7fffffff).getValue()));
    SmallVector<Value> inits = {
        arith::ConstantOp::create(kb, loc, kb.getZeroAttr(accVector(w))),
        arith::ConstantOp::create(kb, loc, kb.getZeroAttr(bitsType))};
    SmallVector<Value> partial = overThreadElements(
        kb, SmallVector<Value>(idx), outerReduced, w, inits, nullptr,
        [&](OpBuilder &eb, ArrayRef<Value> at, ValueRange,
            ValueRange a) -> SmallVector<Value> {
          Value v = loadX(eb, at, w);
          Value bits = arith::AndIOp::create(
              eb, loc, arith::BitcastOp::create(eb, loc, bitsType, v),
              magnitude);
          return {arith::AddFOp::create(eb, loc, a[0], v),
                  arith::MaxSIOp::create(eb, loc, a[1], bits)};
        });
    Value sum = blockSum(kb, partial[0]);
    Value maxBits =
        sliceReduce(kb,
                    vector::ReductionOp::create(
                        kb, loc, vector::CombiningKind::MAXSI, partial[1]),
                    gpu::AllReduceOperation::MAXSI);
    onThreadZero(kb, [&](OpBuilder &tb) {
      store(tb, ws, slot, 0, sum);
      store(tb, ws, slot, 1, arith::BitcastOp::create(tb, loc, acc, maxBits));
    });
  });

  // The slice's mean and scale factor from the partials (the same in every
  // block and in both later launches).
  auto meanAndScale = [&](OpBuilder &tb, ArrayRef<Value> sums) {
    Value mean = arith::DivFOp::create(tb, loc, sums[0], count);
    return std::make_pair(mean, buildScaleFactor(tb, loc, sums[1]));
  };

  // 2. Per part: Σd and Σd² with d = k·x − k·mean, or Σ(k·x)².
  launchParts("deviation", [&](OpBuilder &kb, int64_t w, ArrayRef<Value> idx,
                               Value ws, Value slot, Value part) {
    SmallVector<Value> sums = totals(kb, ws, slot, part);
    auto [mean, k] = meanAndScale(kb, sums);
    Value kV = splat(kb, k, w);
    Value negScaledMean = splat(
        kb,
        arith::NegFOp::create(kb, loc, arith::MulFOp::create(kb, loc, mean, k)),
        w);
    Value zeros =
        arith::ConstantOp::create(kb, loc, kb.getZeroAttr(accVector(w)));
    bool standard = mode == NormMode::standard;
    SmallVector<Value> partial = overThreadElements(
        kb, SmallVector<Value>(idx), outerReduced, w, {zeros, zeros}, nullptr,
        [&](OpBuilder &eb, ArrayRef<Value> at, ValueRange,
            ValueRange a) -> SmallVector<Value> {
          Value v = loadX(eb, at, w);
          if (!standard) {
            Value scaled = arith::MulFOp::create(eb, loc, v, kV);
            return {math::FmaOp::create(eb, loc, scaled, scaled, a[0]), a[1]};
          }
          Value d = math::FmaOp::create(eb, loc, v, kV, negScaledMean);
          return {arith::AddFOp::create(eb, loc, a[0], d),
                  math::FmaOp::create(eb, loc, d, d, a[1])};
        });
    Value first = blockSum(kb, partial[0]);
    Value second = standard ? blockSum(kb, partial[1]) : accConstant(kb, 0.0);
    onThreadZero(kb, [&](OpBuilder &tb) {
      store(tb, ws, slot, 2, first);
      store(tb, ws, slot, 3, second);
    });
  });

  // 3. Per part: the statistics from the partials, the normalize pass, and
  // the statistics written by the slice's first part.
  launchParts("normalize", [&](OpBuilder &kb, int64_t w, ArrayRef<Value> idx,
                               Value ws, Value slot, Value part) {
    SmallVector<Value> sums = totals(kb, ws, slot, part);
    auto [mean, k] = meanAndScale(kb, sums);
    SliceStatistics stats;
    Value l2Scale;
    if (mode == NormMode::standard) {
      CenteredStatistics centered = buildCenteredStatistics(
          kb, loc, sums[3], k, sums[2], mean, count, eps);
      stats = {centered.mean, centered.variance, centered.rstd, Value()};
    } else if (mode == NormMode::rms) {
      Value meanSquare = arith::DivFOp::create(kb, loc, sums[2], count);
      stats.rstd = buildScaledRsqrt(kb, loc, meanSquare, k, eps);
    } else {
      std::tie(stats.rstd, stats.savedInverseNorm) =
          buildL2Inverse(kb, loc, sums[2], k, sums[1], eps);
      l2Scale = k;
    }
    normalizePass(kb, SmallVector<Value>(idx), outerReduced, w, stats.mean,
                  l2Scale, stats.rstd);
    Value firstPart = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::eq,
                                            part, index(kb, 0));
    scf::IfOp::create(kb, loc, firstPart, [&](OpBuilder &tb, Location) {
      storeSliceStatistics(tb, idx, stats);
      scf::YieldOp::create(tb, loc);
    });
  });
  Value freed = gpu::DeallocOp::create(b, loc, tokenType, ValueRange{allocated},
                                       workspace)
                    .getAsyncToken();
  gpu::WaitOp::create(b, loc, Type(), ValueRange{freed});
}

void GPUKernelEmitter::emit() {
  OpBuilder &b = rewriter;
  b.setInsertionPoint(op);
  eps = op.getEpsilon().convertToDouble();
  innermost = layout.getNumDims() - 1;

  x = layout.fullView(b, loc, op.getInput());
  y = layout.fullView(b, loc, op.getOutput());
  if (Value s = op.getScale())
    scale = layout.affineView(b, loc, s);
  if (Value s = op.getBias())
    bias = layout.affineView(b, loc, s);
  if (Value m = op.getMean())
    givenMean = layout.statisticsView(b, loc, m);
  if (Value v = op.getVariance())
    givenVariance = layout.statisticsView(b, loc, v);
  for (Value s : op.getSaved())
    saved.push_back(layout.statisticsView(b, loc, s));
  if (op.isTraining()) {
    running[0] = layout.statisticsView(b, loc, op.getRunningMean());
    running[1] = layout.statisticsView(b, loc, op.getRunningVar());
  }

  auto xType = cast<MemRefType>(x.memref.getType());
  for (int64_t c = 0; c <= innermost; ++c) {
    extents.push_back(memref::DimOp::create(b, loc, x.memref, c));
    staticExtents.push_back(xType.getDimSize(c));
  }

  // Blocks: one per slice (the non-reduced dims), or with given statistics
  // one per run of the innermost dim (every dim but it).
  bool computed = op.hasComputedStatistics();
  SmallVector<int64_t> blockDims;
  for (int64_t c = 0; c < innermost; ++c)
    if (!computed || !layout.isReduced(c))
      blockDims.push_back(c);
  if (computed && !layout.isReduced(innermost))
    blockDims.push_back(innermost);
  Value numBlocks = index(b, 1);
  for (int64_t c : blockDims)
    numBlocks = arith::MulIOp::create(b, loc, numBlocks, extents[c]);
  if (computed) {
    Value n = index(b, 1);
    for (int64_t c = 0; c <= innermost; ++c)
      if (layout.isReduced(c))
        n = arith::MulIOp::create(b, loc, n, extents[c]);
    count = arith::UIToFPOp::create(
        b, loc, acc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), n));
  }

  // The innermost dim is the threads' dim when it is reduced (or with given
  // statistics); otherwise the slice's last reduced dim is, element by
  // element.
  bool threadsOnInnermost = !computed || layout.isReduced(innermost);
  if (!threadsOnInnermost) {
    for (int64_t c = innermost - 1; c >= 0; --c)
      if (layout.isReduced(c)) {
        innermost = c;
        break;
      }
  }
  SmallVector<const KernelView *> moved = {&x,    &y,         &scale,
                                           &bias, &givenMean, &givenVariance};
  int64_t width = threadsOnInnermost ? vectorWidth(moved) : 1;
  Value useVectors = width > 1 ? vectorPathApplies(b, moved, width) : Value();
  int64_t threads = threadsFor(staticExtents[innermost], width);
  // A static slice whose only reduced dim is the threads' one may stay in
  // registers (emitSliceBlock): more threads, up to 1024, where that makes
  // it fit, preferring at most 16 elements per thread under 512 threads.
  bool singleRun =
      llvm::none_of(llvm::seq<int64_t>(0, innermost),
                    [&](int64_t c) { return layout.isReduced(c); });
  int64_t extent = staticExtents[innermost];
  if (computed && threadsOnInnermost && singleRun &&
      !ShapedType::isDynamic(extent)) {
    auto perThread = [&](int64_t t) {
      return llvm::divideCeil(extent, t * width) * width;
    };
    while (perThread(threads) > 16 && threads < 512)
      threads *= 2;
    while (perThread(threads) > kMaxResidentElements && threads < 1024)
      threads *= 2;
  }
  launchThreads = threads;

  // Few long slices (BatchNorm's channels, the groups of one image's
  // GroupNorm, a few long rows) would leave most of the GPU idle with a
  // block each: each slice is split into parts along its outermost reduced
  // dim (a row along itself, in whole vectors), a block per part, the
  // parts' sums combined through a workspace over three launches.
  // Static shapes decide here; dynamic ones on the host at run time, with
  // the single launch below as the other branch.
  if (computed && threadsOnInnermost) {
    // The outermost reduced dim; the threads' own for a single run (a row).
    int64_t splitDim =
        *llvm::find_if(llvm::seq<int64_t>(0, innermost + 1),
                       [&](int64_t c) { return layout.isReduced(c); });
    int64_t slices = 1, sliceElements = 1;
    bool slicesStatic = true, elementsStatic = true;
    for (int64_t c = 0; c <= innermost; ++c) {
      bool reduced = layout.isReduced(c);
      if (ShapedType::isDynamic(staticExtents[c]))
        (reduced ? elementsStatic : slicesStatic) = false;
      else
        (reduced ? sliceElements : slices) *= staticExtents[c];
    }
    bool isStatic = slicesStatic && elementsStatic;
    // Slices known to be too short for two parts never split.
    bool tooShort = elementsStatic && sliceElements < 2 * kSplitMinPartElements;
    if (tooShort) {
      // The single launch below.
    } else if (isStatic) {
      if (slices > 0 && slices < kSplitBelowSlices) {
        int64_t parts = std::min(
            {static_cast<int64_t>(llvm::divideCeil(kSplitBelowSlices, slices)),
             kSplitMaxParts, staticExtents[splitDim],
             sliceElements / kSplitMinPartElements});
        if (parts > 1) {
          // A part of a split row is shorter than the row the threads were
          // chosen for.
          int64_t partThreads =
              splitDim == innermost
                  ? threadsFor(llvm::divideCeil(sliceElements, parts), width)
                  : threads;
          emitSplitSlices(b, blockDims, index(b, slices), splitDim,
                          index(b, parts), slices * parts, partThreads, width,
                          useVectors);
          rewriter.eraseOp(op);
          return;
        }
      }
    } else {
      // parts = min(⌈264 / slices⌉, 32, extent of the split dim,
      // elements / 8192), split when at least 2 (and slices > 0).
      Value slicesValue = numBlocks;
      Value sliceElementsValue = index(b, 1);
      for (int64_t c = 0; c <= innermost; ++c)
        if (layout.isReduced(c))
          sliceElementsValue =
              arith::MulIOp::create(b, loc, sliceElementsValue, extents[c]);
      auto minimum = [&](Value lhs, Value rhs) -> Value {
        return arith::MinUIOp::create(b, loc, lhs, rhs);
      };
      Value parts = arith::CeilDivUIOp::create(
          b, loc, index(b, kSplitBelowSlices),
          arith::MaxUIOp::create(b, loc, slicesValue, index(b, 1)));
      parts = minimum(parts, index(b, kSplitMaxParts));
      parts = minimum(parts, extents[splitDim]);
      parts = minimum(parts,
                      arith::DivUIOp::create(b, loc, sliceElementsValue,
                                             index(b, kSplitMinPartElements)));
      Value fewSlices = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slicesValue,
                                index(b, kSplitBelowSlices)),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, slicesValue,
                                index(b, 0)));
      Value splits = arith::AndIOp::create(
          b, loc, fewSlices,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, parts,
                                index(b, 2)));
      auto choice = scf::IfOp::create(b, loc, splits, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(choice.thenBlock()->getTerminator());
        emitSplitSlices(b, blockDims, slicesValue, splitDim, parts,
                        kSplitBelowSlices * kSplitMaxParts, threads, width,
                        useVectors);
      }
      // The single launch below goes to the other branch.
      b.setInsertionPoint(choice.elseBlock()->getTerminator());
    }
  }

  // A static slice of at most kWarp · kWarpSliceElements elements fits the
  // registers of one warp: a warp per slice, several per block (longer ones
  // take a block each: the warp's loads in flight would not cover them).
  warpSlices = computed && threadsOnInnermost && singleRun &&
               !ShapedType::isDynamic(extent) &&
               extent <= kWarp * kWarpSliceElements;
  Value numSlices = numBlocks;
  if (warpSlices) {
    threads = kWarp * kWarpsPerBlock;
    launchThreads = kWarp;
    numBlocks =
        arith::CeilDivUIOp::create(b, loc, numSlices, index(b, kWarpsPerBlock));
  }

  // An empty grid is not a launch the driver accepts: no slices (or runs),
  // no launch.
  Value hasBlocks = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          numBlocks, index(b, 0));
  auto guard = scf::IfOp::create(b, loc, hasBlocks, /*withElseRegion=*/false);
  OpBuilder gb = guard.getThenBodyBuilder();
  Value one = index(gb, 1);
  auto launch = gpu::LaunchOp::create(gb, loc, numBlocks, one, one,
                                      index(gb, threads), one, one);
  OpBuilder kb = OpBuilder::atBlockBegin(&launch.getBody().front());
  threadId = launch.getThreadIds().x;
  blockSize = launch.getBlockSize().x;
  Value slice = launch.getBlockIds().x;
  Value sliceInRange;
  if (warpSlices) {
    // Warp w of block b owns slice b · kWarpsPerBlock + w; its lanes are the
    // slice's threads.
    Value warp = arith::DivUIOp::create(kb, loc, threadId, index(kb, kWarp));
    slice = arith::AddIOp::create(
        kb, loc,
        arith::MulIOp::create(kb, loc, slice, index(kb, kWarpsPerBlock)), warp);
    threadId = arith::RemUIOp::create(kb, loc, threadId, index(kb, kWarp));
    blockSize = index(kb, kWarp);
    sliceInRange = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::ult,
                                         slice, numSlices);
  }
  SmallVector<Value> idx(layout.getNumDims());
  delinearize(kb, slice, blockDims, idx);
  auto body = [&](OpBuilder &bb, int64_t w) {
    if (computed) {
      emitSliceBlock(bb, idx, w);
      residentVectors = 0;
      residentX.clear();
    } else {
      // Given statistics: elementwise over the run.
      normalizePass(bb, idx, {}, w, Value(), Value(), Value());
    }
  };
  auto paths = [&](OpBuilder &pb) { emitPaths(pb, useVectors, width, body); };
  if (sliceInRange) {
    // The last block's spare warps have no slice (uniform per warp).
    scf::IfOp::create(kb, loc, sliceInRange, [&](OpBuilder &tb, Location) {
      paths(tb);
      scf::YieldOp::create(tb, loc);
    });
  } else {
    paths(kb);
  }
  gpu::TerminatorOp::create(kb, loc);
  rewriter.eraseOp(op);
}

bool mlir::norm::hasGPUKernel(NormalizeOp op, std::string &why) {
  if (!op.hasPureBufferSemantics()) {
    why = "is not in memref form";
    return false;
  }
  if (!op.getAccumulationType().isF32()) {
    why = "accumulates in " +
          std::string(op.getAccumulationType().isF64() ? "f64"
                                                       : "a non-f32 "
                                                         "type") +
          " (GPU kernels accumulate in f32)";
    return false;
  }
  if (std::optional<ArrayRef<int64_t>> dims = op.getAffineDims())
    if (!llvm::is_sorted(*dims)) {
      why = "has affine_dims out of ascending order";
      return false;
    }
  for (Value operand : op->getOperands()) {
    auto type = cast<MemRefType>(operand.getType());
    Type element = type.getElementType();
    if (!element.isF32() && !element.isF16() && !element.isBF16()) {
      why = "has an operand of element type other than f32, f16 or bf16";
      return false;
    }
    if (!type.getLayout().isIdentity()) {
      why = "has an operand with a non-identity layout";
      return false;
    }
  }
  return true;
}

LogicalResult mlir::norm::lowerToGPUKernel(RewriterBase &rewriter,
                                           NormalizeOp op,
                                           const GPUKernelOptions &options) {
  std::string why;
  if (!hasGPUKernel(op, why))
    return rewriter.notifyMatchFailure(op, why);
  GPUKernelEmitter(rewriter, op, options).emit();
  return success();
}
