//===- VectorKernelSupport.cpp - which ops have a CPU vector kernel -------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/Utils/VectorKernelSupport.h"
#include "norm/IR/NormOps.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

bool mlir::norm::hasVectorKernel(NormalizeOp op) {
  if (!op.getAccumulationType().isF32())
    return false;
  for (Value v : op->getOperands()) {
    Type element = getElementTypeOrSelf(v.getType());
    if (!element.isF32() && !element.isF16() && !element.isBF16())
      return false;
  }
  if (std::optional<ArrayRef<int64_t>> dims = op.getAffineDims())
    if (!llvm::is_sorted(*dims) || llvm::adjacent_find(*dims) != dims->end())
      return false;
  int64_t rank = op.getRank();
  return rank > 0 && op.isReductionAxis(rank - 1);
}
