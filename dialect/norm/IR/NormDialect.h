//===- NormDialect.h - norm dialect -----------------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMDIALECT_H
#define NORM_IR_NORMDIALECT_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "norm/IR/NormOpsDialect.h.inc"

#endif // NORM_IR_NORMDIALECT_H
