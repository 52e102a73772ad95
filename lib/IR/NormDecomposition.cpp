//===- NormDecomposition.cpp - norm.normalize as linalg on tensors --------===//
//
// Part of the norm-mlir project.
//
// The decomposition of norm.normalize into linalg.generic reductions and
// elementwise ops. It is the single source of truth of the op's numerics
// (numerics.md §1) for every target.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormDecomposition.h"
#include "norm/IR/NormNumerics.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Builds the decomposition of one op. GroupNorm is handled by expanding the
/// group dim `D` of every operand indexed by it into `[G, D/G]`; in that
/// expanded iteration space the `G` dim is parallel and the `D/G` dim is
/// reduced, so every variant is a set of parallel and reduction dims.
class NormalizeDecomposer {
public:
  NormalizeDecomposer(OpBuilder &b, NormalizeOp op,
                      const DecomposeOptions &options)
      : b(b), op(op), options(options), loc(op.getLoc()),
        acc(op.getAccumulationType()) {}

  FailureOr<SmallVector<Value>> run();

private:
  //===--- iteration space ------------------------------------------------===//

  /// The expanded dim of original dim `d` (its first one for the group dim).
  int64_t expandedDim(int64_t d) const {
    return groupDim && d > *groupDim ? d + 1 : d;
  }

  /// Expands dim `dim` of `value` into [G, extent/G] when `dim` is the group
  /// dim of the original input; returns `value` unchanged otherwise.
  Value expandGroupDim(Value value, int64_t dim) {
    auto type = cast<RankedTensorType>(value.getType());
    GroupExpansion expansion = getGroupExpansion(
        b, loc, type, tensor::getMixedSizes(b, loc, value), dim, *groups);
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(expansion.shape, type.getElementType()),
        value, expansion.reassociation, expansion.outputShape);
  }

  AffineMap identityMap() { return b.getMultiDimIdentityMap(rank); }

  /// Projection of the iteration space onto the statistics (parallel) dims.
  AffineMap statisticsMap() {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        exprs.push_back(b.getAffineDimExpr(d));
    return AffineMap::get(rank, 0, exprs, b.getContext());
  }

  AffineMap statisticsIdentityMap() {
    return b.getMultiDimIdentityMap(statsSizes.size());
  }

  SmallVector<utils::IteratorType> iteratorTypes() {
    return llvm::map_to_vector(reduced, [](bool r) {
      return r ? utils::IteratorType::reduction : utils::IteratorType::parallel;
    });
  }

  //===--- scalar helpers -------------------------------------------------===//

  Value toAcc(OpBuilder &nb, Location nl, Value v) {
    return convertFloat(nb, nl, v, acc);
  }
  Value accConstant(double value) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, value));
  }

  //===--- tensor helpers -------------------------------------------------===//

  Value emptyStatistics(Type elementType) {
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    for (OpFoldResult size : statsSizes) {
      std::optional<int64_t> c = getConstantIntValue(size);
      shape.push_back(c ? *c : ShapedType::kDynamic);
      if (!c)
        dynamic.push_back(cast<Value>(size));
    }
    return tensor::EmptyOp::create(b, loc, shape, elementType, dynamic);
  }

  Value filledStatistics(double value) {
    return linalg::FillOp::create(b, loc, ValueRange{accConstant(value)},
                                  ValueRange{emptyStatistics(acc)})
        .getResult(0);
  }
  Value zeroStatistics() { return filledStatistics(0.0); }

  /// A reduction over the reduced dims of `x` (and statistics-shaped
  /// `extraStats`) into a zero-initialized statistics tensor; `update` maps
  /// the loaded values and the statistic so far to its next value.
  Value accumulate(
      ValueRange extraStats,
      function_ref<Value(OpBuilder &, Location, ValueRange, Value)> update) {
    SmallVector<Value> ins = {x};
    ins.append(extraStats.begin(), extraStats.end());
    SmallVector<AffineMap> maps = {identityMap()};
    maps.append(extraStats.size(), statisticsMap());
    maps.push_back(statisticsMap());
    Value init = zeroStatistics();
    return linalg::GenericOp::create(
               b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
               iteratorTypes(),
               [&](OpBuilder &nb, Location nl, ValueRange args) {
                 linalg::YieldOp::create(
                     nb, nl, update(nb, nl, args.drop_back(), args.back()));
               })
        .getResult(0);
  }

  /// `accumulate` of the accumulation-type summand `term` of the loaded
  /// values. With `max`, the combiner is maximumf (NaN-propagating) instead
  /// of addf.
  Value reduce(ValueRange extraStats,
               function_ref<Value(OpBuilder &, Location, ValueRange)> term,
               bool max = false) {
    return accumulate(
        extraStats,
        [&](OpBuilder &nb, Location nl, ValueRange args, Value sum) -> Value {
          Value t = term(nb, nl, args);
          if (max)
            return arith::MaximumFOp::create(nb, nl, sum, t);
          return arith::AddFOp::create(nb, nl, sum, t);
        });
  }

  /// An elementwise op over statistics-shaped tensors producing
  /// `outs.size()` statistics-shaped results written into `outs`.
  SmallVector<Value> mapStatistics(
      ValueRange ins, ValueRange outs,
      function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>
          body) {
    SmallVector<AffineMap> maps(ins.size() + outs.size(),
                                statisticsIdentityMap());
    SmallVector<utils::IteratorType> iters(statsSizes.size(),
                                           utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        b, loc, outs.getTypes(), ins, outs, maps, iters,
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          linalg::YieldOp::create(nb, nl, body(nb, nl, args));
        });
    return SmallVector<Value>(generic.getResults());
  }

  /// max |x| over each statistics slice.
  Value maxAbs() {
    return reduce(
        {},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          return math::AbsFOp::create(nb, nl, toAcc(nb, nl, args[0]))
              .getResult();
        },
        /*max=*/true);
  }

  /// Σx and max |x| over each statistics slice, in one pass over x (the
  /// same values as `reduce` and `maxAbs` give one after the other).
  std::pair<Value, Value> sumAndMaxAbs() {
    SmallVector<AffineMap> maps = {identityMap(), statisticsMap(),
                                   statisticsMap()};
    Value sumInit = zeroStatistics(), maxInit = zeroStatistics();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{sumInit.getType(), maxInit.getType()}, ValueRange{x},
        ValueRange{sumInit, maxInit}, maps, iteratorTypes(),
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value t = toAcc(nb, nl, args[0]);
          Value magnitude = math::AbsFOp::create(nb, nl, t);
          linalg::YieldOp::create(
              nb, nl,
              ValueRange{
                  arith::AddFOp::create(nb, nl, args[1], t),
                  arith::MaximumFOp::create(nb, nl, args[2], magnitude)});
        });
    return {generic.getResult(0), generic.getResult(1)};
  }

  /// The per-slice power-of-two scale factors (buildScaleFactor).
  Value scaleFactors(Value maxAbsStats) {
    return mapStatistics(maxAbsStats, emptyStatistics(acc),
                         [&](OpBuilder &nb, Location nl, ValueRange args) {
                           return SmallVector<Value>{
                               buildScaleFactor(nb, nl, args[0])};
                         })[0];
  }

  /// Σ k·(x − mean) and Σ (k·(x − mean))² per statistics slice, in one
  /// pass. Each deviation is one FMA, k·x − k·mean, which costs what x − mean
  /// does when k is not a constant 1; k is a power of two, so it is exactly
  /// k·(x − mean) rounded unless k·mean underflows.
  std::pair<Value, Value> centeredSums(Value mean, Value k) {
    Value shift = mapStatistics(
        ValueRange{mean, k}, emptyStatistics(acc),
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          return SmallVector<Value>{arith::NegFOp::create(
              nb, nl, arith::MulFOp::create(nb, nl, args[0], args[1]))};
        })[0];
    SmallVector<AffineMap> maps = {identityMap(), statisticsMap(),
                                   statisticsMap(), statisticsMap(),
                                   statisticsMap()};
    Value init = zeroStatistics();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType(), init.getType()},
        ValueRange{x, k, shift}, ValueRange{init, init}, maps, iteratorTypes(),
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value d = buildMultiplyAdd(nb, nl, toAcc(nb, nl, args[0]), args[1],
                                     args[2]);
          // d² and the sum in one FMA, as every lowering.
          linalg::YieldOp::create(
              nb, nl,
              ValueRange{arith::AddFOp::create(nb, nl, args[3], d),
                         buildMultiplyAdd(nb, nl, d, d, args[4])});
        });
    return {generic.getResult(0), generic.getResult(1)};
  }

  /// The slices whose sum of squares `squares` is not finite or is below
  /// 2^-60 (an i1 statistics tensor), and whether there is any.
  std::pair<Value, Value> slicesToRetry(Value squares) {
    Value retry = mapStatistics(
        squares, emptyStatistics(b.getI1Type()),
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value inRange = arith::AndIOp::create(
              nb, nl, buildIsFinite(nb, nl, args[0]),
              arith::CmpFOp::create(
                  nb, nl, arith::CmpFPredicate::OGE, args[0],
                  arith::ConstantOp::create(nb, nl,
                                            nb.getFloatAttr(acc, 0x1p-60))));
          Value isTrue =
              arith::ConstantOp::create(nb, nl, nb.getBoolAttr(true));
          return SmallVector<Value>{
              arith::XOrIOp::create(nb, nl, inRange, isTrue)};
        })[0];
    // Whether any slice retries: an or over the statistics.
    Value isFalse = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    Value none =
        linalg::FillOp::create(b, loc, ValueRange{isFalse},
                               ValueRange{tensor::EmptyOp::create(
                                   b, loc, ArrayRef<int64_t>{}, b.getI1Type())})
            .getResult(0);
    SmallVector<AffineMap> anyMaps = {
        statisticsIdentityMap(),
        AffineMap::get(statsSizes.size(), 0, b.getContext())};
    Value any =
        linalg::GenericOp::create(
            b, loc, TypeRange{none.getType()}, ValueRange{retry},
            ValueRange{none}, anyMaps,
            SmallVector<utils::IteratorType>(statsSizes.size(),
                                             utils::IteratorType::reduction),
            [&](OpBuilder &nb, Location nl, ValueRange args) {
              linalg::YieldOp::create(
                  nb, nl,
                  arith::OrIOp::create(nb, nl, args[1], args[0]).getResult());
            })
            .getResult(0);
    Value anyRetry = tensor::ExtractOp::create(b, loc, any, ValueRange{});
    return {retry, anyRetry};
  }

  /// A scaled pass `pass(k)` (its `squares`-th result a sum of squares),
  /// k from max|x|; or, with `retryScaling`, with k = 1 first. The slices whose
  /// sum of squares is not finite or is below 2^-60 (huge, tiny, constant or
  /// non-finite slices: rare) take k from max|x| and the pass again, under an
  /// scf.if that runs only when some slice needs it. Scaling by a power of two
  /// is exact, so the results are those of k = 1, bit for bit unless a square
  /// underflowed (as the vector kernels). Returns k, the pass's results, then a
  /// value that is 0 exactly when the slice is: max|x|, or the sum of squares
  /// when k stayed 1.
  SmallVector<Value>
  scaledWithRetry(unsigned squares,
                  function_ref<SmallVector<Value>(Value k)> pass,
                  Value knownMaxima = nullptr) {
    if (!options.retryScaling) {
      // k from max|x| always (from the pass that gave `knownMaxima`, if any).
      Value maxima = knownMaxima ? knownMaxima : maxAbs();
      Value k = scaleFactors(maxima);
      SmallVector<Value> results = {k};
      llvm::append_range(results, pass(k));
      results.push_back(maxima);
      return results;
    }
    Value one = filledStatistics(1.0);
    SmallVector<Value> first = pass(one);
    auto [retry, anyRetry] = slicesToRetry(first[squares]);

    SmallVector<Value> kept = {one};
    kept.append(first.begin(), first.end());
    kept.push_back(first[squares]);
    auto branch = scf::IfOp::create(b, loc, ValueRange(kept).getTypes(),
                                    anyRetry, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      scf::YieldOp::create(b, loc, kept);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      Value maxima = maxAbs();
      Value k = scaleFactors(maxima);
      SmallVector<Value> second = pass(k);
      SmallVector<Value> retried = {k};
      retried.append(second.begin(), second.end());
      retried.push_back(maxima);
      SmallVector<Value> ins = {retry};
      ins.append(retried);
      ins.append(kept);
      SmallVector<Value> outs;
      for (size_t i = 0; i < kept.size(); ++i)
        outs.push_back(emptyStatistics(acc));
      unsigned n = kept.size();
      SmallVector<Value> chosen = mapStatistics(
          ins, outs, [&](OpBuilder &nb, Location nl, ValueRange args) {
            SmallVector<Value> picked;
            for (unsigned i = 0; i < n; ++i)
              picked.push_back(arith::SelectOp::create(
                  nb, nl, args[0], args[1 + i], args[1 + n + i]));
            return picked;
          });
      scf::YieldOp::create(b, loc, chosen);
    }
    return SmallVector<Value>(branch.getResults());
  }

  /// As scaledWithRetry with `retryScaling`, for a pass whose cost does not
  /// depend on k being 1 (the FMA form of centeredSums): the pass is built
  /// once, in the before region of an scf.while that runs it with k = 1,
  /// then, when some slice needs it, once more with those slices' k from
  /// max|x| (the other slices keep k = 1 and get the same bits again).
  /// Returns k and the pass's results.
  SmallVector<Value>
  scaledInLoop(unsigned squares, unsigned numResults,
               function_ref<SmallVector<Value>(Value k)> pass) {
    Value isTrue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    Value one = filledStatistics(1.0);
    SmallVector<Value> inits = {one, isTrue};
    // k, the pass's results (statistics like k), the retry mask.
    SmallVector<Type> types(1 + numResults, one.getType());
    types.push_back(cast<RankedTensorType>(one.getType()).clone(b.getI1Type()));
    auto loop = scf::WhileOp::create(b, loc, types, inits);
    OpBuilder::InsertionGuard guard(b);
    Block *before =
        b.createBlock(&loop.getBefore(), {}, ValueRange(inits).getTypes(),
                      SmallVector<Location>(inits.size(), loc));
    Value k = before->getArgument(0), isFirst = before->getArgument(1);
    SmallVector<Value> results = pass(k);
    assert(results.size() == numResults && "a result per statistic");
    auto [retry, anyRetry] = slicesToRetry(results[squares]);
    SmallVector<Value> forwarded = {k};
    forwarded.append(results);
    forwarded.push_back(retry);
    scf::ConditionOp::create(
        b, loc, arith::AndIOp::create(b, loc, anyRetry, isFirst), forwarded);
    Block *after =
        b.createBlock(&loop.getAfter(), {}, ValueRange(forwarded).getTypes(),
                      SmallVector<Location>(forwarded.size(), loc));
    Value maxima = maxAbs();
    Value rescaled = mapStatistics(
        ValueRange{after->getArguments().back(), maxima}, emptyStatistics(acc),
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value unit =
              arith::ConstantOp::create(nb, nl, nb.getFloatAttr(acc, 1.0));
          return SmallVector<Value>{arith::SelectOp::create(
              nb, nl, args[0], buildScaleFactor(nb, nl, args[1]), unit)};
        })[0];
    scf::YieldOp::create(
        b, loc,
        ValueRange{rescaled,
                   arith::ConstantOp::create(b, loc, b.getBoolAttr(false))});
    // The loop's results: the before region's forwarded values, less the
    // retry mask.
    return SmallVector<Value>(loop.getResults().drop_back());
  }

  /// Σ (k·x)² per statistics slice, k the slice's scale factor: each square
  /// added by one FMA, as the centered pass's squares.
  Value scaledSumOfSquares(Value k) {
    return accumulate(k, [&](OpBuilder &nb, Location nl, ValueRange args,
                             Value sum) {
      Value v = arith::MulFOp::create(nb, nl, toAcc(nb, nl, args[0]), args[1]);
      return buildMultiplyAdd(nb, nl, v, v, sum);
    });
  }

  /// The number of elements reduced into one statistic, in `acc`.
  Value reductionCount() {
    int64_t staticCount = 1;
    Value dynamicCount;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d])
        continue;
      if (std::optional<int64_t> c = getConstantIntValue(sizes[d])) {
        staticCount *= *c;
        continue;
      }
      Value v = cast<Value>(sizes[d]);
      dynamicCount =
          dynamicCount ? arith::MulIOp::create(b, loc, dynamicCount, v) : v;
    }
    if (!dynamicCount)
      return accConstant(static_cast<double>(staticCount));
    Value count = arith::MulIOp::create(
        b, loc, dynamicCount,
        arith::ConstantIndexOp::create(b, loc, staticCount));
    Value i64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count);
    return arith::UIToFPOp::create(b, loc, acc, i64);
  }

  /// Writes a statistics-shaped accumulation-type value into `init`.
  Value store(Value stats, Value init) {
    Type elementType = cast<ShapedType>(init.getType()).getElementType();
    return mapStatistics(
        stats, init, [&](OpBuilder &nb, Location nl, ValueRange args) {
          return SmallVector<Value>{convertFloat(nb, nl, args[0], elementType)};
        })[0];
  }

  OpBuilder &b;
  NormalizeOp op;
  DecomposeOptions options;
  Location loc;
  FloatType acc;
  std::optional<int64_t> groups, groupDim;
  int64_t rank = 0;
  SmallVector<bool> reduced;
  SmallVector<OpFoldResult> sizes, statsSizes;
  Value x;
  /// l2 only: the scale factor k applied before the inverse norm, and the
  /// inverse norm 1/max(‖x‖, ε) itself for the saved result.
  Value l2Scale, savedL2;
};

FailureOr<SmallVector<Value>> NormalizeDecomposer::run() {
  if (!op.hasPureTensorSemantics())
    return op.emitOpError()
           << "cannot be decomposed in the memref form: lower the tensor "
              "form, then bufferize";

  groups = op.getGroups();
  groupDim = op.getGroupDim();
  rank = op.getRank() + (groupDim ? 1 : 0);

  // The expanded iteration space.
  reduced.assign(rank, false);
  for (int64_t axis : op.getAxes())
    reduced[expandedDim(axis)] = true;
  x = op.getInput();
  if (groupDim) {
    reduced[*groupDim] = false;
    reduced[*groupDim + 1] = true;
    x = expandGroupDim(x, *groupDim);
  }
  sizes = tensor::getMixedSizes(b, loc, x);
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      statsSizes.push_back(sizes[d]);

  double eps = op.getEpsilon().convertToDouble();
  NormMode mode = op.getMode();

  // Statistics, each statistics-shaped in the accumulation type.
  Value mean, rstd, variance, count;
  if (!op.hasComputedStatistics()) {
    mean = op.getMean();
    rstd = mapStatistics(op.getVariance(), emptyStatistics(acc),
                         [&](OpBuilder &nb, Location nl, ValueRange args) {
                           return SmallVector<Value>{buildGivenRstd(
                               nb, nl, toAcc(nb, nl, args[0]), eps)};
                         })[0];
  } else if (mode == NormMode::standard) {
    count = reductionCount();
    // Straight-line: Σx and max|x| in one pass (k from max|x| always);
    // with retryScaling max|x| is only read for slices out of range.
    Value sum, maxima;
    if (options.retryScaling)
      sum = reduce({}, [&](OpBuilder &nb, Location nl, ValueRange args) {
        return toAcc(nb, nl, args[0]);
      });
    else
      std::tie(sum, maxima) = sumAndMaxAbs();
    mean = mapStatistics(sum, emptyStatistics(acc),
                         [&](OpBuilder &nb, Location nl, ValueRange args) {
                           return SmallVector<Value>{
                               arith::DivFOp::create(nb, nl, args[0], count)};
                         })[0];
    // Centered: the deviations d = x − mean from the mean just computed,
    // scaled by k so that their squares neither overflow nor underflow.
    // Σd corrects the rounding of the mean (Björck's corrected two-pass):
    // var = (Σd² − (Σd)²/n)/n, with var = var_k / k² and
    // rstd = k · rsqrt(var_k + ε·k²).
    auto centered = [&](Value k) -> SmallVector<Value> {
      auto [deviations, squares] = centeredSums(mean, k);
      return {deviations, squares};
    };
    SmallVector<Value> scaled =
        options.retryScaling
            ? scaledInLoop(/*squares=*/1, /*numResults=*/2, centered)
            : scaledWithRetry(/*squares=*/1, centered, maxima);
    Value k = scaled[0], deviations = scaled[1], squares = scaled[2];
    SmallVector<Value> varAndRstd = mapStatistics(
        ValueRange{squares, k, deviations, mean},
        ValueRange{emptyStatistics(acc), emptyStatistics(acc),
                   emptyStatistics(acc)},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          CenteredStatistics stats = buildCenteredStatistics(
              nb, nl, args[0], args[1], args[2], args[3], count, eps);
          return SmallVector<Value>{stats.variance, stats.rstd, stats.mean};
        });
    variance = varAndRstd[0];
    rstd = varAndRstd[1];
    mean = varAndRstd[2];
  } else {
    // Σ(k·x)² with k from max|x|: the squares neither overflow for huge
    // data nor underflow for tiny data, whose norm still counts.
    SmallVector<Value> scaled =
        scaledWithRetry(/*squares=*/0, [&](Value k) -> SmallVector<Value> {
          return {scaledSumOfSquares(k)};
        });
    Value k = scaled[0], sumSquares = scaled[1], maxima = scaled[2];
    if (mode == NormMode::rms) {
      count = reductionCount();
      rstd = mapStatistics(ValueRange{sumSquares, k}, emptyStatistics(acc),
                           [&](OpBuilder &nb, Location nl, ValueRange args) {
                             Value ms =
                                 arith::DivFOp::create(nb, nl, args[0], count);
                             return SmallVector<Value>{
                                 buildScaledRsqrt(nb, nl, ms, args[1], eps)};
                           })[0];
    } else {
      // x / max(‖x‖, ε) = (k·x) / max(‖k·x‖, ε·k); 0 for a zero slice, even
      // with ε = 0. NaN propagates through maximumf. The normalize step
      // multiplies by k, then by this inverse (savedL2 is their product).
      SmallVector<Value> inverses =
          mapStatistics(ValueRange{sumSquares, k, maxima},
                        ValueRange{emptyStatistics(acc), emptyStatistics(acc)},
                        [&](OpBuilder &nb, Location nl, ValueRange args) {
                          auto [scaledInv, saved] = buildL2Inverse(
                              nb, nl, args[0], args[1], args[2], eps);
                          return SmallVector<Value>{scaledInv, saved};
                        });
      rstd = inverses[0];
      savedL2 = inverses[1];
      l2Scale = k;
    }
  }

  // Normalize: y = ((x − mean) · rstd) · γ + β, then the cast epilogue.
  std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims();
  auto affineOperand = [&](Value v, SmallVectorImpl<Value> &ins,
                           SmallVectorImpl<AffineMap> &maps) {
    SmallVector<AffineExpr> exprs;
    for (auto [i, d] : llvm::enumerate(*affineDims)) {
      exprs.push_back(b.getAffineDimExpr(expandedDim(d)));
      if (groupDim && d == *groupDim)
        exprs.push_back(b.getAffineDimExpr(expandedDim(d) + 1));
    }
    if (groupDim)
      for (auto [i, d] : llvm::enumerate(*affineDims))
        if (d == *groupDim)
          v = expandGroupDim(v, i);
    ins.push_back(v);
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
  };
  SmallVector<Value> ins = {x};
  SmallVector<AffineMap> maps = {identityMap()};
  if (mean) {
    ins.push_back(mean);
    maps.push_back(statisticsMap());
  }
  if (l2Scale) {
    ins.push_back(l2Scale);
    maps.push_back(statisticsMap());
  }
  ins.push_back(rstd);
  maps.push_back(statisticsMap());
  if (Value scale = op.getScale())
    affineOperand(scale, ins, maps);
  if (Value bias = op.getBias())
    affineOperand(bias, ins, maps);
  Value outInit = op.getOutput();
  if (groupDim)
    outInit = expandGroupDim(outInit, *groupDim);
  maps.push_back(identityMap());
  Type outElementType = op.getOutputType().getElementType();
  bool hasMean = static_cast<bool>(mean), hasScale = !!op.getScale(),
       hasBias = !!op.getBias(), hasL2Scale = static_cast<bool>(l2Scale);
  Value y =
      linalg::GenericOp::create(
          b, loc, TypeRange{outInit.getType()}, ins, ValueRange{outInit}, maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            unsigned next = 0;
            auto nextIf = [&](bool present) -> Value {
              return present ? toAcc(nb, nl, args[next++]) : Value();
            };
            Value t = nextIf(true);
            Value mean = nextIf(hasMean), l2 = nextIf(hasL2Scale);
            Value rstd = nextIf(true);
            Value gamma = nextIf(hasScale), beta = nextIf(hasBias);
            t = buildNormalizedValue(nb, nl, t, mean, l2, rstd, gamma, beta);
            linalg::YieldOp::create(nb, nl,
                                    convertFloat(nb, nl, t, outElementType));
          })
          .getResult(0);
  if (groupDim) {
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t d = 0; d < op.getRank(); ++d) {
      int64_t e = expandedDim(d);
      if (d == *groupDim)
        reassociation.push_back({e, e + 1});
      else
        reassociation.push_back({e});
    }
    y = tensor::CollapseShapeOp::create(b, loc, op.getOutputType(), y,
                                        reassociation);
  }

  SmallVector<Value> results = {y};
  OperandRange saved = op.getSaved();
  if (!saved.empty()) {
    if (mode == NormMode::standard) {
      results.push_back(store(mean, saved[0]));
      results.push_back(
          store(op.getSavedVariance() ? variance : rstd, saved[1]));
    } else {
      results.push_back(store(savedL2 ? savedL2 : rstd, saved[0]));
    }
  }

  if (op.isTraining()) {
    // running ← (1 − momentum)·running + momentum·batch, with the variance
    // unbiased by n/(n−1) when asked (0 for n == 1 rather than NaN).
    double momentum = op.getMomentum()->convertToDouble();
    Value factor =
        op.getUnbiased() ? buildUnbiasFactor(b, loc, count) : accConstant(1.0);
    Value runningMean = op.getRunningMean(), runningVar = op.getRunningVar();
    SmallVector<Value> updated = mapStatistics(
        ValueRange{mean, variance}, ValueRange{runningMean, runningVar},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          auto update = [&](Value batch, Value running) {
            Value sum = buildRunningUpdate(nb, nl, toAcc(nb, nl, running),
                                           batch, momentum);
            return convertFloat(nb, nl, sum, running.getType());
          };
          Value unbiased = arith::MulFOp::create(nb, nl, args[1], factor);
          return SmallVector<Value>{update(args[0], args[2]),
                                    update(unbiased, args[3])};
        });
    results.append(updated.begin(), updated.end());
  }
  return results;
}

} // namespace

FailureOr<SmallVector<Value>>
mlir::norm::decomposeNormalizeOp(OpBuilder &b, NormalizeOp op,
                                 const DecomposeOptions &options) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  return NormalizeDecomposer(b, op, options).run();
}
