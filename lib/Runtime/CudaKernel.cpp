//===- CudaKernel.cpp - ahead-of-time GPU kernels for the harness ---------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Runtime/CudaKernel.h"
#include "norm/Runtime/CudaRuntime.h"

using namespace mlir;
using namespace mlir::norm;

/// The runtime's sticky error, cleared, as an llvm::Error.
static llvm::Error runtimeError(llvm::StringRef what) {
  const char *message = normCudaGetError();
  std::string text = what.str() + ": " +
                     (message ? message : "the CUDA runtime reported an error");
  normCudaClearError();
  return llvm::createStringError(text);
}

llvm::Error CudaKernel::launch(const std::vector<void *> &buffers,
                               const std::vector<std::vector<int64_t>> &shapes,
                               void *stream) {
  // The launcher's dynamic dims: those of the signature, in order.
  std::vector<int64_t> dims;
  size_t i = 0;
  for (const auto *sigs : {&description.arguments, &description.results})
    for (const TensorSignature &sig : *sigs) {
      for (auto [d, size] : llvm::enumerate(sig.shape))
        if (isDynamicDim(size))
          dims.push_back(shapes[i][d]);
      ++i;
    }
  if (launcher(buffers.data(), dims.data(), stream) != 0)
    return runtimeError("launching " + description.name);
  return llvm::Error::success();
}

llvm::Error CudaKernel::call(const std::vector<const HostArray *> &args,
                             const std::vector<HostArray *> &results) {
  std::vector<void *> buffers;
  std::vector<std::vector<int64_t>> shapes;
  auto release = [&] {
    for (void *buffer : buffers)
      normCudaFree(buffer);
  };
  auto allocate = [&](const HostArray &array) -> bool {
    // One byte at least: an empty tensor still gets a distinct pointer.
    void *buffer = normCudaMalloc(std::max<size_t>(array.bytes.size(), 1));
    if (!buffer)
      return false;
    buffers.push_back(buffer);
    shapes.push_back(array.shape);
    return true;
  };
  for (const HostArray *arg : args)
    if (!allocate(*arg) ||
        normCudaMemcpyHtoD(buffers.back(), arg->data(), arg->bytes.size())) {
      release();
      return runtimeError("copying the arguments of " + description.name);
    }
  for (HostArray *result : results)
    if (!allocate(*result)) {
      release();
      return runtimeError("allocating the results of " + description.name);
    }
  if (llvm::Error error = launch(buffers, shapes, /*stream=*/nullptr)) {
    release();
    return error;
  }
  for (auto [i, result] : llvm::enumerate(results))
    if (normCudaMemcpyDtoH(result->data(), buffers[args.size() + i],
                           result->bytes.size())) {
      release();
      return runtimeError("copying the results of " + description.name);
    }
  release();
  return llvm::Error::success();
}
