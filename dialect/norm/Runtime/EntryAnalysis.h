//===- EntryAnalysis.h - what an entry function computes --------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_RUNTIME_ENTRYANALYSIS_H
#define NORM_RUNTIME_ENTRYANALYSIS_H

#include "norm/Runtime/Harness.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace norm {

/// Recognizes the entry function; fails with a message saying what the
/// harness cannot check.
llvm::Expected<EntryAnalysis> analyzeEntry(func::FuncOp func);

} // namespace norm
} // namespace mlir

#endif // NORM_RUNTIME_ENTRYANALYSIS_H
