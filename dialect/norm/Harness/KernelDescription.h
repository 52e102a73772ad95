//===- KernelDescription.h - entry functions as data ------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// What norm-compile records next to a kernel it compiles ahead of time (the
// spec the reference implements, the operands' roles and signatures, the
// call contract), as JSON, for harnesses without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_HARNESS_KERNELDESCRIPTION_H
#define NORM_HARNESS_KERNELDESCRIPTION_H

#include "norm/Harness/Harness.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir {
namespace norm {

/// An entry function as data: what norm-compile records next to a kernel it
/// compiles ahead of time, for harnesses without MLIR.
struct KernelDescription {
  std::string name;
  EntryAnalysis analysis;
  std::vector<TensorSignature> arguments, results;
  CallContract contract;
};
llvm::json::Value toJSON(const KernelDescription &description);
llvm::Expected<KernelDescription>
parseKernelDescription(const llvm::json::Value &value);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_KERNELDESCRIPTION_H
