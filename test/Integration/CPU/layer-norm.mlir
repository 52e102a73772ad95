// LayerNorm over the last dim through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry layer_norm_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry layer_norm_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry layer_norm_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry layer_norm_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry layer_norm_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry layer_norm_bf16_dynamic --check | FileCheck %s
// bf16 data with an f32 γ: the vector kernel copies γ permuted to match its
// paired bf16 loads.
// RUN: norm-runner %s --entry layer_norm_bf16_f32_scale --check | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry layer_norm_f32_dynamic --check --openmp | FileCheck %s
// The linalg path (the fallback for ops without a vector kernel) too:
// RUN: norm-runner %s --entry layer_norm_f32_dynamic --check --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry layer_norm_bf16_dynamic --check --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry layer_norm_eps0_f32_dynamic --check | FileCheck %s --check-prefixes=CHECK,EPS0
// ε = 0: y(4x) must equal y(x) bit for bit, and tiny data (1e-20) must not
// lose its variance to underflowing squares.
// EPS0: random scale-inv-bitwise {{.*}} pass
// EPS0: tiny y {{.*}} pass
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @layer_norm_f32_static(%x: tensor<16x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<16x1024xf32> {
  %init = tensor.empty() : tensor<16x1024xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<16x1024xf32>) scale(%g : tensor<1024xf32>) bias(%b : tensor<1024xf32>) affine_dims = [1]
      outs(%init : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  return %y : tensor<16x1024xf32>
}

func.func @layer_norm_f32_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @layer_norm_f16_static(%x: tensor<16x1024xf16>, %g: tensor<1024xf16>, %b: tensor<1024xf16>) -> tensor<16x1024xf16> {
  %init = tensor.empty() : tensor<16x1024xf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<16x1024xf16>) scale(%g : tensor<1024xf16>) bias(%b : tensor<1024xf16>) affine_dims = [1]
      outs(%init : tensor<16x1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

func.func @layer_norm_f16_dynamic(%x: tensor<?x?xf16>, %g: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf16>) scale(%g : tensor<?xf16>) bias(%b : tensor<?xf16>) affine_dims = [1]
      outs(%init : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @layer_norm_bf16_static(%x: tensor<16x1024xbf16>, %g: tensor<1024xbf16>, %b: tensor<1024xbf16>) -> tensor<16x1024xbf16> {
  %init = tensor.empty() : tensor<16x1024xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<16x1024xbf16>) scale(%g : tensor<1024xbf16>) bias(%b : tensor<1024xbf16>) affine_dims = [1]
      outs(%init : tensor<16x1024xbf16>) -> tensor<16x1024xbf16>
  return %y : tensor<16x1024xbf16>
}

func.func @layer_norm_bf16_dynamic(%x: tensor<?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xbf16>) scale(%g : tensor<?xbf16>) bias(%b : tensor<?xbf16>) affine_dims = [1]
      outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @layer_norm_bf16_f32_scale(%x: tensor<?x?xbf16>, %g: tensor<?xf32>, %b: tensor<?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xbf16>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xbf16>) affine_dims = [1]
      outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @layer_norm_eps0_f32_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %d) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [1] epsilon = 0.0
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
