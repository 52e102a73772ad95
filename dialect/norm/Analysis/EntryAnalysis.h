//===- EntryAnalysis.h - what an entry function computes --------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_ANALYSIS_ENTRYANALYSIS_H
#define NORM_ANALYSIS_ENTRYANALYSIS_H

#include "norm/Harness/Harness.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace norm {

/// Recognizes the entry function; fails with a message saying what the
/// harness cannot check.
llvm::Expected<EntryAnalysis> analyzeEntry(func::FuncOp func);

/// Reads a tensor type at a function boundary as a signature; fails for
/// element types the harness does not carry.
llvm::Expected<TensorSignature> getTensorSignature(Type type);

} // namespace norm
} // namespace mlir

#endif // NORM_ANALYSIS_ENTRYANALYSIS_H
