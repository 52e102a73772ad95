/*===-- norm-c/Dialect.h - C API of the norm dialect -------------*- C -*-===*\
|*                                                                            *|
|* Part of the norm-mlir project.                                             *|
|*                                                                            *|
|* The dialect handle and the registration of everything a norm spec and     *|
|* the norm pipelines need, for programs built on MLIR's C API.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NORM_C_DIALECT_H
#define NORM_C_DIALECT_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The norm dialect alone: mlirGetDialectHandle__norm__().
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Norm, norm);

/// Inserts the norm dialect and its external models, and every dialect,
/// extension and LLVM IR translation that parsing a spec and running the
/// norm pipelines need.
MLIR_CAPI_EXPORTED void
mlirNormRegisterCompilerDialects(MlirDialectRegistry registry);

/// A context whose registry holds mlirNormRegisterCompilerDialects' dialects,
/// all loaded. Destroy it with mlirContextDestroy.
MLIR_CAPI_EXPORTED MlirContext mlirNormContextCreate(void);

/// Sends the diagnostics of `context` to `callback` instead of stderr: one
/// call per diagnostic, with its location, severity and notes, ending in a
/// newline. Returns the handler's id for mlirContextDetachDiagnosticHandler.
MLIR_CAPI_EXPORTED MlirDiagnosticHandlerID mlirNormContextCaptureDiagnostics(
    MlirContext context, MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* NORM_C_DIALECT_H */
