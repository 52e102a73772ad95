//===- Kernel.h - JIT-compiled norm kernels ---------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// Compiles one function of a norm spec (functions on tensors) through
// norm-lower-to-cpu-pipeline and the ExecutionEngine, and calls it on host
// arrays with the memref-in / memref-out ABI: the arguments in order, then
// one out-parameter per result.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_JIT_KERNEL_H
#define NORM_JIT_KERNEL_H

#include "norm/Harness/KernelInterface.h"
#include "norm/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
namespace norm {

/// Compiler settings of a kernel.
struct KernelOptions {
  /// The target and its pipeline's options: cpu (norm-lower-to-cpu-pipeline)
  /// or cuda (norm-lower-to-nvvm-pipeline: JIT-compiled host code launching
  /// PTX kernels through norm_cuda_runtime; see callOnBuffers).
  TargetPipelineOptions pipeline;
  /// A textual pass pipeline run on the spec before the target's pipeline
  /// (a transform schedule, a test pass); empty for none.
  std::string prePipeline;
  /// Where to write the compiled object file (for profiling); empty for
  /// nowhere.
  std::string objectPath;
};

/// The CPU kernel, JIT-compiled.
class Kernel : public KernelInterface {
public:
  /// Compiles function `entry` of `module` (cloned; the caller's module is not
  /// modified). Diagnostics go to the context's handler.
  static llvm::Expected<std::unique_ptr<Kernel>>
  compile(ModuleOp module, llvm::StringRef entry, const KernelOptions &options);
  ~Kernel() override;

  const std::vector<TensorSignature> &arguments() const override {
    return args;
  }
  const std::vector<TensorSignature> &results() const override { return outs; }
  /// Wall time of the whole compile (pipeline + LLVM codegen), seconds.
  double compileSeconds() const override { return compileTime; }
  const CallContract &callContract() const override { return contract; }

  llvm::Error call(const std::vector<const HostArray *> &args,
                   const std::vector<HostArray *> &results) override;
  /// Calls the kernel on raw buffers: the arguments' then the results',
  /// row-major and contiguous with these shapes (checked, with the pointers,
  /// against the call contract; the dtypes are the caller's business). Host
  /// memory for a cpu kernel; device buffers for a cuda kernel, whose launches
  /// go to the runtime's caller stream, if set.
  llvm::Error callOnBuffers(const std::vector<void *> &buffers,
                            const std::vector<std::vector<int64_t>> &shapes);

private:
  Kernel() = default;
  std::unique_ptr<ExecutionEngine> engine;
  std::string symbol;
  bool onDevice = false;
  std::vector<TensorSignature> args, outs;
  CallContract contract;
  double compileTime = 0;
};

} // namespace norm
} // namespace mlir

#endif // NORM_JIT_KERNEL_H
