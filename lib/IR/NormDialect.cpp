//===- NormDialect.cpp - norm dialect -------------------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormDialect.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

using namespace mlir;
using namespace mlir::norm;

#include "norm/IR/NormOpsDialect.cpp.inc"

void NormDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "norm/IR/NormOps.cpp.inc"
      >();
  // Attached by registerAggregatedOpInterfaceExternalModels (NormToLinalg)
  // and registerBufferizableOpInterfaceExternalModels (NormTransforms).
  declarePromisedInterface<linalg::AggregatedOpInterface, NormalizeOp>();
  declarePromisedInterface<bufferization::BufferizableOpInterface,
                           NormalizeOp>();
}
