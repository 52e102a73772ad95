//===- NormOps.h - norm dialect operations ----------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMOPS_H
#define NORM_IR_NORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "norm/IR/NormDialect.h"
#include "norm/IR/NormEnums.h.inc"

#define GET_OP_CLASSES
#include "norm/IR/NormOps.h.inc"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

namespace mlir {
namespace norm {

/// The expand_shape (tensor or memref) that splits the GroupNorm dim `dim` of
/// an operand into [groups, extent/groups], with the group size taken from
/// that operand's own extent (static where the input's may be dynamic).
struct GroupExpansion {
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> outputShape;
};
GroupExpansion getGroupExpansion(OpBuilder &b, Location loc, ShapedType type,
                                 ArrayRef<OpFoldResult> sizes, int64_t dim,
                                 int64_t groups);

} // namespace norm
} // namespace mlir

#endif // NORM_IR_NORMOPS_H
