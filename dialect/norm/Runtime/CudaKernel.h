//===- CudaKernel.h - ahead-of-time GPU kernels for the harness -*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// A GPU kernel compiled by norm-compile --target=cuda, called through its C
// launcher on host arrays: the harness's checks run on it unchanged. Every
// call copies the arguments to fresh device buffers, launches, and copies
// the results back. No MLIR dependency; the CUDA driver is reached through
// norm_cuda_runtime.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_RUNTIME_CUDAKERNEL_H
#define NORM_RUNTIME_CUDAKERNEL_H

#include "norm/Runtime/Harness.h"

namespace mlir {
namespace norm {

/// The C launcher norm-compile emits: device pointers of the arguments and
/// results in order, the dynamic dims in order of appearance, a stream.
using CudaLauncher = int (*)(void *const *args, const int64_t *dims,
                             void *stream);

class CudaKernel : public KernelInterface {
public:
  CudaKernel(KernelDescription description, CudaLauncher launcher)
      : description(std::move(description)), launcher(launcher) {}

  const std::vector<TensorSignature> &arguments() const override {
    return description.arguments;
  }
  const std::vector<TensorSignature> &results() const override {
    return description.results;
  }
  double compileSeconds() const override { return 0; }
  llvm::Error call(const std::vector<const HostArray *> &args,
                   const std::vector<HostArray *> &results) override;

  const KernelDescription &getDescription() const { return description; }
  /// Launches on device buffers (already holding the arguments) on
  /// `stream`, without synchronizing; `shapes` are those of the arguments
  /// then the results.
  llvm::Error launch(const std::vector<void *> &buffers,
                     const std::vector<std::vector<int64_t>> &shapes,
                     void *stream);

private:
  KernelDescription description;
  CudaLauncher launcher;
};

} // namespace norm
} // namespace mlir

#endif // NORM_RUNTIME_CUDAKERNEL_H
