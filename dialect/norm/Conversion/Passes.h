//===- Passes.h - norm conversion passes ------------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_PASSES_H
#define NORM_CONVERSION_PASSES_H

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/Conversion/NormToLinalg/NormToLinalg.h"
#include "norm/Conversion/NormToVector/NormToVector.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {

#define GEN_PASS_REGISTRATION
#include "norm/Conversion/Passes.h.inc"

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_PASSES_H
