/*===-- norm-c/Compiler.h - norm specs to kernels ----------------*- C -*-===*\
|*                                                                            *|
|* Part of the norm-mlir project.                                             *|
|*                                                                            *|
|* Coarse entry points over a parsed spec (a module of functions on tensors  *|
|* holding norm.normalize ops, in a context from mlirNormContextCreate):     *|
|* lower it to a JIT-able LLVM-dialect module, compile it ahead of time into *|
|* an object, a C header and libraries (what norm-compile writes), or        *|
|* compile one function into a kernel that is called on raw buffers.        *|
|* Errors are reported as diagnostics of the module's context.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NORM_C_COMPILER_H
#define NORM_C_COMPILER_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Lowers `module` in place: target "cpu" runs norm-lower-to-cpu-pipeline
/// (serial, or OpenMP loops with `openmp`); the result is in the LLVM dialect
/// with _mlir_ciface_<function> entry points that take memref descriptors
/// (arguments, then one out-parameter per result), ready for
/// mlirExecutionEngineCreate. Target "cuda" runs norm-lower-to-nvvm-pipeline
/// (host code launching embedded kernels through norm_cuda_runtime).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirNormLowerToLLVM(MlirModule module,
                                                         MlirStringRef target,
                                                         bool openmp);

/// What `norm-compile --target=TARGET [--openmp] [--cpu-dispatch] -o
/// OUTPUT_BASE` writes: OUTPUT_BASE.o, .h, _launch.c, .json and, with
/// `libraries`, libSTEM.a and libSTEM.so (compiled with the C compiler on
/// PATH). With `cpuDispatch` (cpu only) the object holds the functions for
/// every x86-64 level and the launchers pick the CPU's best at load time.
/// Lowers `module` in place (copies of it with `cpuDispatch`).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirNormCompileAheadOfTime(
    MlirModule module, MlirStringRef outputBase, MlirStringRef target,
    bool openmp, bool cpuDispatch, bool libraries);

/// Parses `spec` (a module of functions on tensors holding norm.normalize
/// ops) in `context` (from mlirNormContextCreate) and lowers it as
/// mlirNormLowerToLLVM does. Returns the lowered module, or a null module
/// with the reasons as diagnostics of `context`.
MLIR_CAPI_EXPORTED MlirModule mlirNormSpecLowerToLLVM(MlirContext context,
                                                      MlirStringRef spec,
                                                      MlirStringRef target,
                                                      bool openmp);

/// Parses `spec` in `context` and compiles it as mlirNormCompileAheadOfTime
/// does.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirNormSpecCompileAheadOfTime(
    MlirContext context, MlirStringRef spec, MlirStringRef outputBase,
    MlirStringRef target, bool openmp, bool cpuDispatch, bool libraries);

/// Element types of kernel arguments and results. bf16 and f16 travel as
/// their 16-bit patterns.
typedef enum MlirNormDType {
  MlirNormDTypeF16 = 0,
  MlirNormDTypeBF16 = 1,
  MlirNormDTypeF32 = 2,
  MlirNormDTypeF64 = 3,
} MlirNormDType;

/// A JIT-compiled function of a spec. It does not refer to the module or its
/// context once created.
typedef struct MlirNormKernel {
  void *ptr;
} MlirNormKernel;

static inline bool mlirNormKernelIsNull(MlirNormKernel kernel) {
  return !kernel.ptr;
}

/// Compiles function `entry` of `module` (not modified) for `target` ("cpu";
/// "cuda" kernels take device buffers). Returns a null kernel, with the
/// reasons as diagnostics, when it cannot.
MLIR_CAPI_EXPORTED MlirNormKernel mlirNormKernelCreate(MlirModule module,
                                                       MlirStringRef entry,
                                                       MlirStringRef target,
                                                       bool openmp);

MLIR_CAPI_EXPORTED void mlirNormKernelDestroy(MlirNormKernel kernel);

MLIR_CAPI_EXPORTED intptr_t
mlirNormKernelGetNumArguments(MlirNormKernel kernel);
MLIR_CAPI_EXPORTED intptr_t mlirNormKernelGetNumResults(MlirNormKernel kernel);

/// The signature of operand `pos`: the arguments, then the results.
MLIR_CAPI_EXPORTED MlirNormDType mlirNormKernelGetDType(MlirNormKernel kernel,
                                                        intptr_t pos);
MLIR_CAPI_EXPORTED intptr_t mlirNormKernelGetRank(MlirNormKernel kernel,
                                                  intptr_t pos);
/// The extent of dim `dim` of operand `pos`, or -1 when it is dynamic (or
/// `pos`/`dim` is out of range: then the rank is -1 too).
MLIR_CAPI_EXPORTED int64_t mlirNormKernelGetDimSize(MlirNormKernel kernel,
                                                    intptr_t pos, intptr_t dim);

/// The call contract: when dim `dim` of operand `pos` must equal a dim of an
/// earlier operand (or an earlier dim of the same one), returns true and
/// writes that operand's position and dim; false for a static extent or the
/// first dim of its extent. A dynamic result dim is always tied to an
/// argument's.
MLIR_CAPI_EXPORTED bool mlirNormKernelGetTiedDim(MlirNormKernel kernel,
                                                 intptr_t pos, intptr_t dim,
                                                 intptr_t *tiedPos,
                                                 intptr_t *tiedDim);

/// Checks the arguments' extents (`argShapes`, one argument after the other)
/// against the call contract and writes the results' extents to
/// `resultShapes` (one result after the other). On failure, returns failure
/// and passes the reason to `onError` (if not null).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirNormKernelInferResultShapes(
    MlirNormKernel kernel, const int64_t *argShapes, int64_t *resultShapes,
    MlirStringCallback onError, void *userData);

/// Runs the kernel on `numBuffers` buffers (the arguments, then the results,
/// each row-major and contiguous), `shapes` holding their extents one after
/// the other. The pointers and shapes are checked against the call contract
/// (no NULL pointer for a non-empty buffer; extents that are static, tied or
/// grouped as the function says; sizes that fit 64 bits) before anything
/// runs; the element types are the caller's business. On failure, returns
/// failure and passes the reason to `onError` (if not null); nothing is
/// written then. Calls on one kernel from several threads are safe.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirNormKernelCall(
    MlirNormKernel kernel, intptr_t numBuffers, void *const *buffers,
    const int64_t *shapes, MlirStringCallback onError, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* NORM_C_COMPILER_H */
