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

/// Which ops the patterns decompose (all when empty).
using NormalizeOpFilter = std::function<bool(NormalizeOp)>;

/// Patterns rewriting norm.normalize into linalg on tensors.
void populateNormToLinalgPatterns(RewritePatternSet &patterns,
                                  NormalizeOpFilter filter = {},
                                  PatternBenefit benefit = 1);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_NORMTOLINALG_NORMTOLINALG_H
