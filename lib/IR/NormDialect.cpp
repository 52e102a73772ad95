//===- NormDialect.cpp - norm dialect -------------------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormDialect.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"

using namespace mlir;
using namespace mlir::norm;

#include "norm/IR/NormOpsDialect.cpp.inc"

void NormDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "norm/IR/NormOps.cpp.inc"
      >();
  // Attached by registerBufferizableOpInterfaceExternalModels
  // (NormTransforms).
  declarePromisedInterface<bufferization::BufferizableOpInterface,
                           NormalizeOp>();
}
