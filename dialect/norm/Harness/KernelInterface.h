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

#ifndef NORM_HARNESS_KERNELINTERFACE_H
#define NORM_HARNESS_KERNELINTERFACE_H

#include "norm/Harness/CallContract.h"
#include "norm/Harness/HostArray.h"

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
  /// The extents a call must have (arguments, then results).
  virtual const CallContract &callContract() const = 0;

  /// Runs the kernel on `args` and preallocated `results`, after checking
  /// their number and dtypes against the signature and their shapes against
  /// the call contract; nothing runs when a check fails.
  virtual llvm::Error call(const std::vector<const HostArray *> &args,
                           const std::vector<HostArray *> &results) = 0;
};

/// The checks of KernelInterface::call, shared by its implementations: the
/// number of arrays, their dtypes, and their shapes against the contract.
llvm::Error checkHostCall(const KernelInterface &kernel,
                          const std::vector<const HostArray *> &args,
                          const std::vector<HostArray *> &results);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_KERNELINTERFACE_H
