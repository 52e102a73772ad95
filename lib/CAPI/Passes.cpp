//===- Passes.cpp - C API of the norm passes and pipelines ----------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm-c/Passes.h"
#include "norm/Conversion/Passes.h"
#include "norm/Pipelines/Pipelines.h"
#include "norm/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::norm;

#ifdef __cplusplus
extern "C" {
#endif

#include "norm/Conversion/Passes.capi.cpp.inc"
#include "norm/Transforms/Passes.capi.cpp.inc"

#ifdef __cplusplus
}
#endif

void mlirRegisterNormPipelines(void) { registerNormPipelines(); }

void mlirRegisterAllNormPasses(void) {
  mlirRegisterNormConversionPasses();
  mlirRegisterNormTransformsPasses();
  mlirRegisterNormPipelines();
}
