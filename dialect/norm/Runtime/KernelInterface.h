//===- KernelInterface.h - what the harness runs ----------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The kernel as the harness sees it: a signature and a call on host arrays.
// Implemented by the JIT-compiled CPU kernel (Kernel.h) and by the
// ahead-of-time GPU kernels of the GPU bundle (CudaKernel.h). No MLIR
// dependency.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_RUNTIME_KERNELINTERFACE_H
#define NORM_RUNTIME_KERNELINTERFACE_H

#include "norm/Runtime/HostArray.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace mlir {
namespace norm {

/// A dynamic dim in a signature (the value of ShapedType::kDynamic).
constexpr int64_t kDynamicDim = std::numeric_limits<int64_t>::min();
inline bool isDynamicDim(int64_t d) { return d == kDynamicDim; }

/// The type of one argument or result of the entry function.
struct TensorSignature {
  DType dtype = DType::F32;
  std::vector<int64_t> shape; ///< kDynamicDim for dynamic dims
};

class KernelInterface {
public:
  virtual ~KernelInterface();

  virtual const std::vector<TensorSignature> &arguments() const = 0;
  virtual const std::vector<TensorSignature> &results() const = 0;
  /// Wall time of the whole compile, seconds (0 when compiled ahead of
  /// time).
  virtual double compileSeconds() const = 0;

  /// Runs the kernel. `args` and `results` match the signature in number and
  /// dtype, their shapes match its static dims; `results` are preallocated
  /// with their shapes.
  virtual llvm::Error call(const std::vector<const HostArray *> &args,
                           const std::vector<HostArray *> &results) = 0;
};

} // namespace norm
} // namespace mlir

#endif // NORM_RUNTIME_KERNELINTERFACE_H
