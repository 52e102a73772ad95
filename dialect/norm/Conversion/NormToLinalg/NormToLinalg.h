//===- NormToLinalg.h - norm.normalize to linalg ----------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_NORMTOLINALG_NORMTOLINALG_H
#define NORM_CONVERSION_NORMTOLINALG_NORMTOLINALG_H

#include "mlir/IR/PatternMatch.h"

#include "mlir/Pass/Pass.h"
#include <functional>

namespace mlir {
class DialectRegistry;
namespace norm {
class NormalizeOp;

#define GEN_PASS_DECL_CONVERTNORMTOLINALGPASS
#include "norm/Conversion/Passes.h.inc"

/// Testing only: numerics bugs the decomposition can plant, to show that
/// the harness catches them. Never set outside tests.
enum class PlantedBug { None, OnePassVariance, NarrowAccumulation };

/// Parses the test-plant-bug option value ("" is None).
FailureOr<PlantedBug> parsePlantedBug(StringRef name);

/// Builds the linalg-on-tensors form of `op` at the builder's insertion
/// point and returns the values that replace its results. Fails (with a
/// diagnostic) on the memref form.
FailureOr<SmallVector<Value>>
decomposeNormalizeOp(OpBuilder &b, NormalizeOp op,
                     PlantedBug bug = PlantedBug::None);

/// Selects the ops a pattern applies to (all when empty).
using NormalizeOpFilter = std::function<bool(NormalizeOp)>;

/// Patterns rewriting norm.normalize into linalg on tensors.
void populateNormToLinalgPatterns(RewritePatternSet &patterns,
                                  PlantedBug bug = PlantedBug::None,
                                  NormalizeOpFilter filter = {},
                                  PatternBenefit benefit = 1);

/// Attaches linalg::AggregatedOpInterface to norm.normalize (its
/// decomposeOperation is decomposeNormalizeOp), for
/// `transform.structured.decompose_interface` and other generic drivers.
void registerAggregatedOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_NORMTOLINALG_NORMTOLINALG_H
