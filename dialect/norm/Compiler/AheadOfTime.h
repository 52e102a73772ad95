//===- AheadOfTime.h - norm spec to kernels, ahead of time ------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The compiler behind norm-compile and the C API: the ahead-of-time compile
// of every public function of a spec into an object, a C header, plain-C
// launchers, a JSON description and (optionally) a static and a shared
// library.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_COMPILER_AHEADOFTIME_H
#define NORM_COMPILER_AHEADOFTIME_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir {
namespace norm {

struct AheadOfTimeOptions {
  /// cpu (this host's vector width) or cuda.
  std::string target = "cpu";
  /// cpu: parallel loops on OpenMP threads (the caller links libomp).
  bool openmp = false;
  /// cpu: compile for every x86-64 level (baseline SSE2 with 128-bit
  /// vectors, x86-64-v3 with AVX2 and 256-bit, x86-64-v4 with AVX-512 and
  /// 512-bit) into one object; the launchers pick the highest the CPU
  /// supports when the library is loaded. Otherwise: this host's level.
  bool cpuDispatch = false;
  /// cuda: the embedded kernels, isa (PTX), bin (cubin) or fatbin.
  std::string gpuFormat = "isa";
  /// cuda: the GPU architecture.
  std::string chip = "sm_90";
  /// Also compile the launchers with the C compiler on PATH and write
  /// libSTEM.a and libSTEM.so.
  bool libraries = true;
};

/// Lowers `module` in place to the LLVM dialect with the pipeline of
/// `options.target` (norm-lower-to-cpu-pipeline with `options.openmp` and
/// `vectorBits`, 0 for this host's; or norm-lower-to-nvvm-pipeline with the
/// GPU options). Errors, invalid options included, are reported to the
/// context's diagnostic handler.
LogicalResult lowerToLLVM(ModuleOp module, const AheadOfTimeOptions &options,
                          int64_t vectorBits = 0);

/// Compiles every public function of `module` (lowered in place, except
/// with `cpuDispatch`, which lowers copies) and writes
/// `outputBase` + .o, .h, _launch.c and .json, and with `libraries` the
/// libraries libSTEM.a and libSTEM.so next to them (STEM being the file name
/// of `outputBase`). Errors are reported to the context's diagnostic
/// handler.
LogicalResult compileAheadOfTime(ModuleOp module, StringRef outputBase,
                                 const AheadOfTimeOptions &options);

} // namespace norm
} // namespace mlir

#endif // NORM_COMPILER_AHEADOFTIME_H
