//===- Reference.h - fp64 reference and tolerance policy --------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// An independent fp64 reference of norm.normalize written from the formulas
// (numerics.md §1, two-pass: mean, then the mean of squared deviations),
// the per-element tolerance policy of numerics.md §2.2/§2.3, the baseline
// implementation of the A2 gate, and the comparison of kernel results
// against them. No MLIR dependency: NormSpec is a plain description.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_HARNESS_REFERENCE_H
#define NORM_HARNESS_REFERENCE_H

#include "norm/Harness/HostArray.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace norm {

enum class StatMode { Standard, RMS, L2 };

/// The semantics of one norm.normalize, as in its op documentation.
struct NormSpec {
  StatMode mode = StatMode::Standard;
  std::vector<int64_t> axes; ///< sorted, unique
  double epsilon = 1e-5;
  /// Input dims indexing scale/bias (empty when neither is present).
  std::vector<int64_t> affineDims;
  bool hasScale = false, hasBias = false;
  /// GroupNorm: `groups` groups on `groupDim` (groups == 0: none).
  int64_t groups = 0, groupDim = -1;
  bool givenStats = false;    ///< mean/variance operands given
  bool savedStats = false;    ///< saved-statistics results present
  bool savedVariance = false; ///< second saved result is var, not rstd
  bool training = false;      ///< running statistics updated
  double momentum = 0.1;
  bool unbiased = false;
  DType inType = DType::F32, outType = DType::F32;
  DType accType = DType::F32; ///< F32 or F64
};

/// The operands of one call. Shapes are concrete. Optional operands are
/// present exactly when the spec says so; their dtypes may be the input
/// dtype or the accumulation dtype.
struct NormInputs {
  HostArray x;
  std::optional<HostArray> scale, bias, mean, variance, runningMean, runningVar;
};

/// The statistics shape of a spec for an input shape (op docs).
std::vector<int64_t> statisticsShape(const NormSpec &spec,
                                     const std::vector<int64_t> &xShape);

/// The statistics slice of every element of an input of `xShape`, in
/// row-major order: a linear index into `statisticsShape(spec, xShape)`.
std::vector<int64_t> statisticsIndex(const NormSpec &spec,
                                     const std::vector<int64_t> &xShape);

/// The number of input elements reduced into one statistic (the `n` of the
/// running-variance unbiasing factor; 1 with given statistics).
int64_t reductionSize(const NormSpec &spec, const std::vector<int64_t> &xShape);

/// One expected output: the fp64 reference rounded to the output dtype, and
/// the per-element acceptance bound |got - ref| <= tol.
struct RefOutput {
  std::string name; ///< "y", "saved_mean", "saved_rstd", "saved_var",
                    ///< "saved_inv_norm", "running_mean", "running_var"
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<double> ref; ///< rounded to dtype; NaN/Inf kept
  std::vector<double> tol;
  /// A2 gate (only for "y"): the baseline (two-pass, f32 accumulation, T
  /// storage) and the exact fp64 value before rounding.
  std::vector<double> baseline, exact;
};

/// Computes every result of the op, in result order: y, then the saved
/// statistics (if any), then the running mean and variance (if training).
/// `outDTypes[i]` is the dtype of result i (y's is spec.outType).
std::vector<RefOutput> computeReference(const NormSpec &spec,
                                        const NormInputs &inputs,
                                        const std::vector<DType> &outDTypes);

/// The verdict for one output.
struct Comparison {
  std::string name;
  int64_t numElements = 0;
  double maxRatio = 0; ///< max |got-ref|/tol over finite refs (A1)
  int64_t worstIndex = -1;
  double worstGot = 0, worstRef = 0;
  int64_t nanInfMismatches = 0;     ///< NaN/Inf pattern differences (A1)
  double rmseGot = 0, rmseBase = 0; ///< A2, "y" only (0 otherwise)
  bool rmsePass = true;
  double zeroFraction = 0; ///< fraction of exact zeros in ref (A5)
  bool pass = false;       ///< A1 && A2
};

/// Compares a kernel result with its reference (A1 and, for y, A2).
Comparison compareOutput(const RefOutput &ref, const HostArray &got);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_REFERENCE_H
