//===- CudaKernel.h - ahead-of-time GPU kernels for the harness -*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// A GPU kernel for the harness: compiled ahead of time by norm-compile
// --target=cuda (called through its C launcher) or JIT-compiled host code
// (norm-runner --target=cuda). The harness's checks run on it unchanged:
// every call copies the arguments to fresh device buffers, launches, and
// copies the results back. No MLIR dependency; the CUDA driver is reached
// through norm_cuda_runtime.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_HARNESS_CUDAKERNEL_H
#define NORM_HARNESS_CUDAKERNEL_H

#include "norm/Harness/KernelDescription.h"

#include <functional>

namespace mlir {
namespace norm {

/// The C launcher norm-compile emits: device pointers of the arguments and
/// results in order, the dynamic dims in order of appearance, a stream.
using CudaLauncher = int (*)(void *const *args, const int64_t *dims,
                             void *stream);

/// Runs a kernel on device buffers (the arguments' then the results', with
/// their shapes) on `stream`, without synchronizing.
using DeviceLaunch = std::function<llvm::Error(
    const std::vector<void *> &buffers,
    const std::vector<std::vector<int64_t>> &shapes, void *stream)>;

class CudaKernel : public KernelInterface {
public:
  CudaKernel(std::string name, std::vector<TensorSignature> arguments,
             std::vector<TensorSignature> results, CallContract contract,
             DeviceLaunch launcher, double compileSeconds = 0)
      : name(std::move(name)), args(std::move(arguments)),
        outs(std::move(results)), contract(std::move(contract)),
        launcher(std::move(launcher)), compileTime(compileSeconds) {}
  /// A kernel compiled by norm-compile, through its C launcher.
  static CudaKernel fromLauncher(const KernelDescription &description,
                                 CudaLauncher launcher);

  const std::vector<TensorSignature> &arguments() const override {
    return args;
  }
  const std::vector<TensorSignature> &results() const override { return outs; }
  double compileSeconds() const override { return compileTime; }
  const CallContract &callContract() const override { return contract; }
  /// Copies the arguments to fresh device buffers, launches, synchronizes
  /// and copies the results back.
  llvm::Error call(const std::vector<const HostArray *> &args,
                   const std::vector<HostArray *> &results) override;
  llvm::Error launch(const std::vector<void *> &buffers,
                     const std::vector<std::vector<int64_t>> &shapes,
                     void *stream) {
    return launcher(buffers, shapes, stream);
  }
  const std::string &getName() const { return name; }

private:
  std::string name;
  std::vector<TensorSignature> args, outs;
  CallContract contract;
  DeviceLaunch launcher;
  double compileTime;
};

/// The runtime's sticky error, cleared, as an llvm::Error about `what`.
llvm::Error takeCudaError(llvm::StringRef what);

/// --bench on the GPU: per input shape, the kernel on device buffers timed
/// with CUDA events on one stream (enough repetitions for about `targetMs`,
/// best of three batches), and a device-to-device copy of half the byte
/// count (so as many bytes read and written as the byte model) timed the
/// same way in the same run. Prints a table and appends one JSON object per
/// shape to `rows` (dtype, shape, eps, groups, bytes, us, gbps, copy_gbps,
/// pct_copy). Returns 0, or 1 when a shape failed (and said why).
int runCudaBench(CudaKernel &kernel, const EntryAnalysis &analysis,
                 const std::vector<std::vector<int64_t>> &shapes,
                 double targetMs, llvm::raw_ostream &os,
                 llvm::json::Array &rows);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_CUDAKERNEL_H
