// norm-runner --target=cuda compiles the spec (JIT host code, PTX kernels)
// before it looks for a GPU; without a driver it says so and fails, and a
// target it does not know is an error.
// UNSUPPORTED: cuda-driver
// RUN: not norm-runner %s --target=cuda --check 2>&1 | FileCheck %s
// RUN: not norm-runner %s --target=cuda --bench 2>&1 | FileCheck %s
// RUN: not norm-runner %s --target=rocm --check 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not norm-runner %s --target=cuda --openmp --check 2>&1 | FileCheck %s --check-prefix=CPUONLY

// CHECK: norm-runner: error: --target=cuda: no usable GPU: {{.*}}the CUDA driver (libcuda.so.1) was not found
// TARGET: norm-runner: error: --target: 'rocm' is neither cpu nor cuda
// CPUONLY: norm-runner: error: --openmp and --dump-object are CPU options

func.func @layer_norm(%x: tensor<?x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x768xf32>
  %init = tensor.empty(%m) : tensor<?x768xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xf32>) scale(%g : tensor<768xf32>) bias(%b : tensor<768xf32>) affine_dims = [1]
      outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}
