//===- BufferViews.cpp - views of function arguments ----------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

BlockArgument mlir::norm::getViewedFunctionArgument(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(def))
      buffer = subview.getSource();
    else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def))
      buffer = collapse.getSrc();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
      buffer = expand.getSrc();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      buffer = cast.getSource();
    else
      return nullptr;
  }
  auto argument = dyn_cast<BlockArgument>(buffer);
  if (!argument ||
      !isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
    return nullptr;
  return argument;
}
