/*===-- norm-c/Passes.h - C API of the norm passes ---------------*- C -*-===*\
|*                                                                            *|
|* Part of the norm-mlir project.                                             *|
|*                                                                            *|
|* Registration and creation of every norm pass (tablegen'd from the pass    *|
|* definitions: mlirRegisterNormTransformsPasses,                            *|
|* mlirCreateNormTransformsNormCompensateSumsPass, ...) and of the norm      *|
|* pipelines, so mlirParsePassPipeline accepts them.                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NORM_C_PASSES_H
#define NORM_C_PASSES_H

#include "mlir-c/Pass.h"

#include "norm/Conversion/Passes.capi.h.inc"
#include "norm/Transforms/Passes.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers norm-lower-to-cpu-pipeline and norm-lower-to-nvvm-pipeline.
MLIR_CAPI_EXPORTED void mlirRegisterNormPipelines(void);

/// Registers every norm pass and pipeline.
MLIR_CAPI_EXPORTED void mlirRegisterAllNormPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* NORM_C_PASSES_H */
