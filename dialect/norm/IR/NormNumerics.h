//===- NormNumerics.h - the op's per-slice scalar formulas ------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The scalar formulas that turn per-slice sums into statistics (numerics.md
// §1). Every lowering of norm.normalize (linalg on tensors, CPU vector
// kernels, GPU kernels) builds them through these functions, so they cannot
// drift apart. Values are of the accumulation type: scalars, or vectors
// where a function says so.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMNUMERICS_H
#define NORM_IR_NORMNUMERICS_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {
class NormalizeOp;

/// a·c + addend with the product and the sum contractible into one FMA (one
/// rounding) where the target has it: CPUs from x86-64-v3 and every NVIDIA
/// GPU; the x86-64 baseline rounds twice rather than call fmaf. Scalars or
/// vectors.
Value buildMultiplyAdd(OpBuilder &b, Location loc, Value a, Value c,
                       Value addend);

/// The normalize step of one element (or vector) t of the accumulation
/// type: ((t − mean)·l2Scale·rstd)·γ + β, the last product and sum one
/// buildMultiplyAdd. mean, l2Scale, γ and β may be null (absent); all are of
/// t's type.
Value buildNormalizedValue(OpBuilder &b, Location loc, Value t, Value mean,
                           Value l2Scale, Value rstd, Value gamma, Value beta);

/// A power of two k with k·maxAbs in [1, 2), computed on the exponent bits so
/// that scaling by it is exact; k stays a normal number. Sums of squares of
/// k·x neither overflow for huge data nor underflow for tiny data.
Value buildScaleFactor(OpBuilder &b, Location loc, Value maxAbs);

/// rsqrt(v + ε) from the scaled moment v_k = k²·v, as k · rsqrt(v_k + ε·k²)
/// (exact scaling). Where ε·k² overflows, rsqrt(v_k/k² + ε); the result is
/// clamped to 1/sqrt(ε). NaN propagates.
Value buildScaledRsqrt(OpBuilder &b, Location loc, Value momentK, Value k,
                       double eps);

/// Statistics of a standard-mode slice.
struct CenteredStatistics {
  Value variance, rstd, mean;
};

/// Björck's corrected two-pass statistics from the sums of the scaled
/// deviations d = k·(x − mean) of one slice: var = (Σd² − (Σd)²/n)/n / k²,
/// clamped at 0, and the mean corrected by (Σd/n)/k unless that is not
/// finite (a slice holding Inf keeps its infinite mean).
CenteredStatistics buildCenteredStatistics(OpBuilder &b, Location loc,
                                           Value sumSquares, Value k,
                                           Value sumDeviations, Value mean,
                                           Value count, double eps);

/// l2: the inverse norm 1/max(‖k·x‖, ε·k) applied after scaling by k, 0 for
/// a zero slice even with ε = 0; returns it and the saved 1/max(‖x‖, ε)
/// (1/ε for a zero slice, +Inf with ε = 0).
std::pair<Value, Value> buildL2Inverse(OpBuilder &b, Location loc,
                                       Value sumSquares, Value k, Value maxAbs,
                                       double eps);

/// rsqrt(variance + ε) for given statistics.
Value buildGivenRstd(OpBuilder &b, Location loc, Value variance, double eps);

/// The unbiased factor n/(n − 1), 0 when n ≤ 1 (never NaN).
Value buildUnbiasFactor(OpBuilder &b, Location loc, Value count);

/// running ← (1 − momentum)·running + momentum·batch.
Value buildRunningUpdate(OpBuilder &b, Location loc, Value running, Value batch,
                         double momentum);

/// v − v == 0: true exactly where v is finite (scalars or vectors).
Value buildIsFinite(OpBuilder &b, Location loc, Value v);

/// One compensated (Kahan) step: adds `term` to `sum` whose lost low part
/// is `carry`; returns the new sum and carry. The carry of a sum that is no
/// longer finite is 0, so Inf and NaN propagate as such. Scalars or vectors.
std::pair<Value, Value> buildCompensatedAdd(OpBuilder &b, Location loc,
                                            Value sum, Value carry, Value term);

/// The terms a vector lane (or accumulator) adds plainly before its sum joins
/// compensated totals (buildCompensatedAdd), as numpy's pairwise sum does.
/// A lane holding a dominant term (one huge element of a slice) rounds the
/// terms it adds away: with 64 that biased the variance low (1.4 ulp of y on
/// that element on average) and failed A2 of one_huge. Every target's
/// blocked sums take their block length from here.
inline constexpr int64_t kLaneTermsPerBlock = 16;

/// Converts a float scalar or vector to the element type `type` (extf or
/// truncf; no-op when equal). f64 to f16/bf16 goes through roundToOddF32:
/// LLVM lowers the direct truncation to a libcall (__truncdfbf2,
/// __truncdfhf2) that JIT-compiled and plain C code lack.
Value convertFloat(OpBuilder &b, Location loc, Value v, Type type);

/// Rounds an f64 scalar or vector to f32 with round-to-odd (toward zero,
/// the last bit set when inexact). Rounding that to nearest even at 16 bits
/// gives the correctly rounded result, f32 keeping more than twice the bits
/// of f16/bf16 plus two.
Value roundToOddF32(OpBuilder &b, Location loc, Value v);

/// The bits of f32 `v` (scalar or vector) as an i32 whose upper half is `v`
/// rounded to bf16, to nearest even: a carry into the exponent gives the
/// next binade or Inf, as rounding should, and a NaN stays a quiet NaN with
/// its sign. The lower half is not zero; shift or pick the upper half. Every
/// expansion of truncf to bf16 in this project rounds with it.
Value buildBF16RoundedBits(OpBuilder &b, Location loc, Value v);

/// The statistics of one slice as a kernel computed them (null where the
/// mode has none): mean and variance (standard), rstd, and the saved
/// inverse norm (l2).
struct SliceStatistics {
  Value mean, variance, rstd, savedInverseNorm;
};

/// The values of `op`'s saved statistics for one slice, in result order:
/// mean and rstd (or the variance with `saved_variance`) in standard mode,
/// rstd for rms, the inverse norm for l2.
SmallVector<Value> getSavedValues(NormalizeOp op, const SliceStatistics &s);

/// The batch variance that enters a training `op`'s running update: unbiased
/// by n/(n − 1) (`n` = `count`) when the op says so.
Value buildRunningVarianceInput(OpBuilder &b, Location loc, NormalizeOp op,
                                Value variance, Value count);

} // namespace norm
} // namespace mlir

#endif // NORM_IR_NORMNUMERICS_H
