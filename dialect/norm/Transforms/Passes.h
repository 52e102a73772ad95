//===- Passes.h - norm transformation passes --------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_PASSES_H
#define NORM_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {

#define GEN_PASS_DECL
#include "norm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "norm/Transforms/Passes.h.inc"

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_PASSES_H
