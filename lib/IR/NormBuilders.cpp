//===- NormBuilders.cpp - one-call builders per norm variant --------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::norm;

static int64_t normalizeDim(int64_t dim, int64_t rank) {
  return dim < 0 ? dim + rank : dim;
}

static SmallVector<int64_t> normalizeDims(ArrayRef<int64_t> dims,
                                          int64_t rank) {
  return llvm::map_to_vector(dims,
                             [&](int64_t d) { return normalizeDim(d, rank); });
}

/// Creates a `tensor.empty` of `shape` whose dynamic extents are those of the
/// listed dims of `source` (`sourceDims[i]` for result dim i).
static Value buildEmpty(OpBuilder &b, Location loc, Value source,
                        ArrayRef<int64_t> shape, ArrayRef<int64_t> sourceDims,
                        Type elementType) {
  SmallVector<Value> dynamicSizes;
  for (auto [extent, dim] : llvm::zip(shape, sourceDims))
    if (ShapedType::isDynamic(extent))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, source, dim));
  return tensor::EmptyOp::create(b, loc, shape, elementType, dynamicSizes);
}

NormalizeOp mlir::norm::buildNormalize(OpBuilder &b, Location loc, Value input,
                                       const NormalizeOptions &options) {
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t rank = inType.getRank();
  MLIRContext *ctx = b.getContext();

  SmallVector<int64_t> axes = normalizeDims(options.axes, rank);
  llvm::sort(axes);
  std::optional<int64_t> groupDim;
  if (options.groups)
    groupDim = normalizeDim(options.groupDim, rank);

  Type outElementType = options.outputElementType ? options.outputElementType
                                                  : inType.getElementType();
  Type accType = options.accType ? options.accType
                 : inType.getElementType().isF64()
                     ? Type(Float64Type::get(ctx))
                     : Type(Float32Type::get(ctx));

  SmallVector<int64_t> allDims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  Value output =
      buildEmpty(b, loc, input, inType.getShape(), allDims, outElementType);

  SmallVector<Value> saved;
  if (options.saveStatistics) {
    // The groups dim is static; every other statistics dim takes its
    // extent from the input dim it stands for.
    SmallVector<int64_t> statsShape, statsDims;
    for (int64_t d : NormalizeOp::getStatisticsDims(rank, axes, groupDim)) {
      statsShape.push_back(d < 0 ? *options.groups : inType.getDimSize(d));
      statsDims.push_back(d < 0 ? *groupDim : d);
    }
    unsigned numSaved = options.mode == NormMode::standard ? 2 : 1;
    for (unsigned i = 0; i < numSaved; ++i)
      saved.push_back(
          buildEmpty(b, loc, input, statsShape, statsDims, accType));
  }

  SmallVector<Type> resultTypes = {output.getType()};
  for (Value v : saved)
    resultTypes.push_back(v.getType());
  if (options.runningMean) {
    resultTypes.push_back(options.runningMean.getType());
    resultTypes.push_back(options.runningVar.getType());
  }

  bool hasAffine = options.scale || options.bias;
  return NormalizeOp::create(
      b, loc, resultTypes, input, options.scale, options.bias, options.mean,
      options.variance, output, saved, options.runningMean, options.runningVar,
      NormModeAttr::get(ctx, options.mode), b.getDenseI64ArrayAttr(axes),
      b.getF64FloatAttr(options.epsilon),
      hasAffine
          ? b.getDenseI64ArrayAttr(normalizeDims(options.affineDims, rank))
          : DenseI64ArrayAttr(),
      options.groups ? b.getI64IntegerAttr(*options.groups) : IntegerAttr(),
      groupDim ? b.getI64IntegerAttr(*groupDim) : IntegerAttr(),
      options.runningMean ? b.getF64FloatAttr(options.momentum) : FloatAttr(),
      options.runningMean && options.unbiased ? b.getUnitAttr() : UnitAttr(),
      options.saveStatistics && options.savedVariance ? b.getUnitAttr()
                                                      : UnitAttr(),
      options.accType ? TypeAttr::get(options.accType) : TypeAttr());
}

static int64_t rankOf(Value v) {
  return cast<ShapedType>(v.getType()).getRank();
}

/// The last `count` dims of a rank-`rank` value.
static SmallVector<int64_t> trailingDims(int64_t rank, int64_t count) {
  return llvm::to_vector(llvm::seq<int64_t>(rank - count, rank));
}

/// Every dim but dim 0 and `channelDim`.
static SmallVector<int64_t> spatialDims(int64_t rank, int64_t channelDim) {
  SmallVector<int64_t> dims;
  for (int64_t d = 1; d < rank; ++d)
    if (d != channelDim)
      dims.push_back(d);
  return dims;
}

/// Statistics over the last `normalizedRank` dims, affine over the same.
static NormalizeOptions trailingOptions(NormMode mode, Value input,
                                        int64_t normalizedRank, double epsilon,
                                        Value scale, Value bias) {
  NormalizeOptions options;
  options.mode = mode;
  options.axes = trailingDims(rankOf(input), normalizedRank);
  options.affineDims = options.axes;
  options.epsilon = epsilon;
  options.scale = scale;
  options.bias = bias;
  return options;
}

NormalizeOp mlir::norm::buildLayerNorm(OpBuilder &b, Location loc, Value input,
                                       int64_t normalizedRank, double epsilon,
                                       Value scale, Value bias) {
  return buildNormalize(b, loc, input,
                        trailingOptions(NormMode::standard, input,
                                        normalizedRank, epsilon, scale, bias));
}

NormalizeOp mlir::norm::buildRMSNorm(OpBuilder &b, Location loc, Value input,
                                     int64_t normalizedRank, double epsilon,
                                     Value scale, Value bias) {
  return buildNormalize(b, loc, input,
                        trailingOptions(NormMode::rms, input, normalizedRank,
                                        epsilon, scale, bias));
}

/// Per-channel affine on `channelDim`; statistics over the spatial dims (every
/// dim but 0 and the channel dim), and over dim 0 too with `overBatch`.
static NormalizeOptions channelOptions(Value input, int64_t channelDim,
                                       bool overBatch, double epsilon,
                                       Value scale, Value bias) {
  int64_t rank = rankOf(input);
  channelDim = normalizeDim(channelDim, rank);
  NormalizeOptions options;
  options.epsilon = epsilon;
  options.scale = scale;
  options.bias = bias;
  options.affineDims = {channelDim};
  options.axes = spatialDims(rank, channelDim);
  if (overBatch)
    options.axes.insert(options.axes.begin(), 0);
  return options;
}

NormalizeOp mlir::norm::buildBatchNormInference(OpBuilder &b, Location loc,
                                                Value input, int64_t channelDim,
                                                Value mean, Value variance,
                                                double epsilon, Value scale,
                                                Value bias) {
  NormalizeOptions options = channelOptions(
      input, channelDim, /*overBatch=*/true, epsilon, scale, bias);
  options.mean = mean;
  options.variance = variance;
  return buildNormalize(b, loc, input, options);
}

NormalizeOp mlir::norm::buildBatchNormTraining(
    OpBuilder &b, Location loc, Value input, int64_t channelDim,
    Value runningMean, Value runningVar, double momentum, double epsilon,
    bool unbiased, Value scale, Value bias) {
  NormalizeOptions options = channelOptions(
      input, channelDim, /*overBatch=*/true, epsilon, scale, bias);
  options.saveStatistics = true;
  options.savedVariance = true;
  options.runningMean = runningMean;
  options.runningVar = runningVar;
  options.momentum = momentum;
  options.unbiased = unbiased;
  return buildNormalize(b, loc, input, options);
}

NormalizeOp mlir::norm::buildInstanceNorm(OpBuilder &b, Location loc,
                                          Value input, int64_t channelDim,
                                          double epsilon, Value scale,
                                          Value bias) {
  return buildNormalize(b, loc, input,
                        channelOptions(input, channelDim, /*overBatch=*/false,
                                       epsilon, scale, bias));
}

NormalizeOp mlir::norm::buildGroupNorm(OpBuilder &b, Location loc, Value input,
                                       int64_t groups, int64_t channelDim,
                                       double epsilon, Value scale,
                                       Value bias) {
  int64_t rank = rankOf(input);
  NormalizeOptions options = channelOptions(
      input, channelDim, /*overBatch=*/false, epsilon, scale, bias);
  options.axes = llvm::to_vector(llvm::seq<int64_t>(1, rank));
  options.groups = groups;
  options.groupDim = options.affineDims.front();
  return buildNormalize(b, loc, input, options);
}

NormalizeOp mlir::norm::buildWeightNorm(OpBuilder &b, Location loc, Value v,
                                        Value g, int64_t outputDim) {
  int64_t rank = rankOf(v);
  outputDim = normalizeDim(outputDim, rank);
  NormalizeOptions options;
  options.mode = NormMode::l2;
  options.epsilon = 0.0;
  for (int64_t d = 0; d < rank; ++d)
    if (d != outputDim)
      options.axes.push_back(d);
  options.scale = g;
  options.affineDims = {outputDim};
  return buildNormalize(b, loc, v, options);
}

NormalizeOp mlir::norm::buildL2Normalize(OpBuilder &b, Location loc,
                                         Value input, int64_t dim,
                                         double epsilon) {
  NormalizeOptions options;
  options.mode = NormMode::l2;
  options.axes = {dim};
  options.epsilon = epsilon;
  return buildNormalize(b, loc, input, options);
}

Value mlir::norm::buildCosineNorm(OpBuilder &b, Location loc, Value x, Value w,
                                  double epsilon) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type accType = xType.getElementType().isF64() ? Type(b.getF64Type())
                                                : Type(b.getF32Type());
  // Normalize in the accumulation type so the matmul accumulates in it too.
  NormalizeOptions options;
  options.mode = NormMode::l2;
  options.axes = {1};
  options.epsilon = epsilon;
  options.outputElementType = accType;
  Value xHat = buildNormalize(b, loc, x, options)->getResult(0);
  Value wHat = buildNormalize(b, loc, w, options)->getResult(0);

  SmallVector<int64_t> shape = {xType.getDimSize(0), wType.getDimSize(0)};
  SmallVector<Value> dynamicSizes;
  if (ShapedType::isDynamic(shape[0]))
    dynamicSizes.push_back(tensor::DimOp::create(b, loc, x, 0));
  if (ShapedType::isDynamic(shape[1]))
    dynamicSizes.push_back(tensor::DimOp::create(b, loc, w, 0));
  Value empty = tensor::EmptyOp::create(b, loc, shape, accType, dynamicSizes);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  Value init =
      linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
          .getResult(0);
  return linalg::MatmulTransposeBOp::create(b, loc, TypeRange{init.getType()},
                                            ValueRange{xHat, wHat},
                                            ValueRange{init})
      ->getResult(0);
}
