//===- InputGen.h - seeded random and adversarial inputs --------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The test vectors of the harness: seeded random inputs and the adversarial
// set of numerics.md §3 that applies to a spec and a shape. No MLIR
// dependency.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_HARNESS_INPUTGEN_H
#define NORM_HARNESS_INPUTGEN_H

#include "norm/Harness/Reference.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace norm {

/// The dtypes of the operands of one call (input dtype comes from the spec).
struct OperandDTypes {
  DType scale = DType::F32, bias = DType::F32, mean = DType::F32,
        variance = DType::F32, runningMean = DType::F32,
        runningVar = DType::F32;
};

struct TestCase {
  std::string name;  ///< e.g. "random", "offset_1e4", "nan_row"
  NormInputs inputs; ///< values already rounded to their dtypes
  /// True when exact zeros in the reference are the point of the test
  /// (zero rows for l2, constant rows): exempt from the A5 zero-trust rule.
  bool zerosExpected = false;
  /// True when the case is degenerate for accuracy (e.g. bf16 rows that
  /// round to constants): reported, not counted as accuracy evidence.
  bool degenerate = false;
};

/// Seeded random normal inputs (scale/bias ~ randn, variance ~ U(0.5, 2)).
TestCase makeRandomCase(const NormSpec &spec,
                        const std::vector<int64_t> &xShape,
                        const OperandDTypes &dtypes, uint64_t seed);

/// The adversarial cases of numerics.md §3 that apply to `spec` on
/// `xShape`: offset data (100, 1e4), offset ramp, constant rows (with
/// eps > 0), huge and tiny values, f16/bf16 square overflow, subnormal mix,
/// one huge value, outlier channels, NaN and Inf in one slice (isolation),
/// zero rows (l2), bf16 ulp > std, cancel-affine; each seeded from `seed`.
std::vector<TestCase> makeAdversarialCases(const NormSpec &spec,
                                           const std::vector<int64_t> &xShape,
                                           const OperandDTypes &dtypes,
                                           uint64_t seed);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_INPUTGEN_H
