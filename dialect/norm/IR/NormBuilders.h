//===- NormBuilders.h - one-call builders per norm variant ------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// Builders for the named normalization variants on ranked tensors, so an
// embedding compiler writes one call per variant. Negative dims count from
// the back, as in PyTorch. Each builder creates the `tensor.empty` inits it
// needs (sized with `tensor.dim` for dynamic dims) and returns the op; its
// first result is the normalized tensor.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMBUILDERS_H
#define NORM_IR_NORMBUILDERS_H

#include "norm/IR/NormOps.h"

#include <optional>

namespace mlir {
namespace norm {

/// Everything `norm.normalize` can express, for the general builder.
struct NormalizeOptions {
  NormMode mode = NormMode::standard;
  /// Reduction axes; negative entries count from the back.
  SmallVector<int64_t> axes;
  double epsilon = 1e-5;
  Value scale, bias;
  /// Dims of the input indexing scale/bias; negative entries count from the
  /// back.
  SmallVector<int64_t> affineDims;
  /// GroupNorm: `groups` groups on `groupDim` (negative counts from the back).
  std::optional<int64_t> groups;
  int64_t groupDim = 1;
  /// Given statistics (BatchNorm inference).
  Value mean, variance;
  /// Add the saved-statistics results; with `savedVariance` the second one is
  /// the biased variance instead of rstd.
  bool saveStatistics = false;
  bool savedVariance = false;
  /// BatchNorm training: the running statistics to update.
  Value runningMean, runningVar;
  double momentum = 0.1;
  bool unbiased = true;
  /// Output element type (default: the input's) and accumulation type
  /// (default: f32, or f64 for f64 inputs).
  Type outputElementType;
  Type accType;
};

/// Builds a `norm.normalize` on the ranked tensor `input`.
NormalizeOp buildNormalize(OpBuilder &b, Location loc, Value input,
                           const NormalizeOptions &options);

/// LayerNorm over the last `normalizedRank` dims; scale and bias (optional)
/// have the shape of those dims.
NormalizeOp buildLayerNorm(OpBuilder &b, Location loc, Value input,
                           int64_t normalizedRank, double epsilon,
                           Value scale = {}, Value bias = {});

/// RMSNorm over the last `normalizedRank` dims.
NormalizeOp buildRMSNorm(OpBuilder &b, Location loc, Value input,
                         int64_t normalizedRank, double epsilon,
                         Value scale = {}, Value bias = {});

/// BatchNorm inference with the given per-channel mean and variance.
NormalizeOp buildBatchNormInference(OpBuilder &b, Location loc, Value input,
                                    int64_t channelDim, Value mean,
                                    Value variance, double epsilon,
                                    Value scale = {}, Value bias = {});

/// BatchNorm training: results are the output, the batch mean, the biased
/// batch variance, and the updated running mean and variance.
NormalizeOp buildBatchNormTraining(OpBuilder &b, Location loc, Value input,
                                   int64_t channelDim, Value runningMean,
                                   Value runningVar, double momentum,
                                   double epsilon, bool unbiased,
                                   Value scale = {}, Value bias = {});

/// InstanceNorm: statistics per (batch, channel) over the other dims; dim 0
/// is the batch.
NormalizeOp buildInstanceNorm(OpBuilder &b, Location loc, Value input,
                              int64_t channelDim, double epsilon,
                              Value scale = {}, Value bias = {});

/// GroupNorm with `groups` groups on `channelDim`; dim 0 is the batch.
NormalizeOp buildGroupNorm(OpBuilder &b, Location loc, Value input,
                           int64_t groups, int64_t channelDim, double epsilon,
                           Value scale = {}, Value bias = {});

/// Weight normalization `g · v / ‖v‖₂`, the norm over every dim but
/// `outputDim`; `g` has the extent of `outputDim`.
NormalizeOp buildWeightNorm(OpBuilder &b, Location loc, Value v, Value g,
                            int64_t outputDim = 0);

/// L2 normalization `x / max(‖x‖₂, ε)` over `dim` (PyTorch F.normalize).
NormalizeOp buildL2Normalize(OpBuilder &b, Location loc, Value input,
                             int64_t dim, double epsilon = 1e-12);

/// Cosine normalization of `x` (M×K) against `w` (N×K): both normalized
/// over K with their norms clamped by ε separately, then `x̂ · ŵᵀ` (M×N),
/// accumulated in f32 (f64 for f64).
Value buildCosineNorm(OpBuilder &b, Location loc, Value x, Value w,
                      double epsilon = 1e-8);

} // namespace norm
} // namespace mlir

#endif // NORM_IR_NORMBUILDERS_H
