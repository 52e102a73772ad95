//===- Registration.h - what a norm tool registers --------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The one registration of the dialects, interfaces, translations, passes
// and pipelines a spec and its pipelines need, as MLIR's InitAll*: norm-opt,
// norm-runner, norm-compile and the C API call these.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_COMPILER_REGISTRATION_H
#define NORM_COMPILER_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace norm {

/// The norm dialect and its external models, every upstream dialect and
/// extension, and the translations to LLVM IR.
void registerCompilerDialects(DialectRegistry &registry);

/// Every upstream pass, the norm passes and the norm pipelines.
void registerCompilerPasses();

} // namespace norm
} // namespace mlir

#endif // NORM_COMPILER_REGISTRATION_H
