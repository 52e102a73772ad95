//===- CallContractAnalysis.h - a function's call contract ------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_ANALYSIS_CALLCONTRACTANALYSIS_H
#define NORM_ANALYSIS_CALLCONTRACTANALYSIS_H

#include "norm/Harness/CallContract.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace norm {

/// The contract of a public function on ranked tensors or memrefs of f16,
/// bf16, f32 or f64 (arguments, then results): which extents must agree, as
/// the function's ops relate them. norm.normalize ties its input, output,
/// scale/bias (`affine_dims`), statistics, saved and running operands and
/// requires whole groups in the group dim; linalg ops tie the operand dims
/// their indexing maps give the same loop; destination-style ops tie each
/// result to its init; tensor.empty ties a dynamic size to the
/// `tensor.dim` it is; reshapes tie the dims they keep. Static extents
/// spread over what they are tied to. Fails when a dynamic extent of a
/// result does not follow from the arguments, or when two static extents
/// that must agree differ.
llvm::Expected<CallContract> deriveCallContract(func::FuncOp func);

} // namespace norm
} // namespace mlir

#endif // NORM_ANALYSIS_CALLCONTRACTANALYSIS_H
