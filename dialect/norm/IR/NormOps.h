//===- NormOps.h - norm dialect operations ----------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMOPS_H
#define NORM_IR_NORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "norm/IR/NormDialect.h"
#include "norm/IR/NormEnums.h.inc"

#define GET_OP_CLASSES
#include "norm/IR/NormOps.h.inc"

#endif // NORM_IR_NORMOPS_H
