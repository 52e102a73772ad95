// GroupNorm (8 groups, channels-first) through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry group_norm_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_bf16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_f32_dynamic --check --vector-kernels=0 | FileCheck %s
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @group_norm_f32_static(%x: tensor<2x32x8x8xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<2x32x8x8xf32> {
  %init = tensor.empty() : tensor<2x32x8x8xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : tensor<2x32x8x8xf32>) scale(%g : tensor<32xf32>) bias(%b : tensor<32xf32>) affine_dims = [1]
      outs(%init : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  return %y : tensor<2x32x8x8xf32>
}

func.func @group_norm_f32_dynamic(%x: tensor<?x32x?x?xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<?x32x?x?xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x32x?x?xf32>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x32x?x?xf32>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x32x?x?xf32>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x32x?x?xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : tensor<?x32x?x?xf32>) scale(%g : tensor<32xf32>) bias(%b : tensor<32xf32>) affine_dims = [1]
      outs(%init : tensor<?x32x?x?xf32>) -> tensor<?x32x?x?xf32>
  return %y : tensor<?x32x?x?xf32>
}

func.func @group_norm_f16_static(%x: tensor<2x32x8x8xf16>, %g: tensor<32xf16>, %b: tensor<32xf16>) -> tensor<2x32x8x8xf16> {
  %init = tensor.empty() : tensor<2x32x8x8xf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : tensor<2x32x8x8xf16>) scale(%g : tensor<32xf16>) bias(%b : tensor<32xf16>) affine_dims = [1]
      outs(%init : tensor<2x32x8x8xf16>) -> tensor<2x32x8x8xf16>
  return %y : tensor<2x32x8x8xf16>
}

func.func @group_norm_f16_dynamic(%x: tensor<?x32x?x?xf16>, %g: tensor<32xf16>, %b: tensor<32xf16>) -> tensor<?x32x?x?xf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x32x?x?xf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x32x?x?xf16>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x32x?x?xf16>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x32x?x?xf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : tensor<?x32x?x?xf16>) scale(%g : tensor<32xf16>) bias(%b : tensor<32xf16>) affine_dims = [1]
      outs(%init : tensor<?x32x?x?xf16>) -> tensor<?x32x?x?xf16>
  return %y : tensor<?x32x?x?xf16>
}

func.func @group_norm_bf16_static(%x: tensor<2x32x8x8xbf16>, %g: tensor<32xbf16>, %b: tensor<32xbf16>) -> tensor<2x32x8x8xbf16> {
  %init = tensor.empty() : tensor<2x32x8x8xbf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : tensor<2x32x8x8xbf16>) scale(%g : tensor<32xbf16>) bias(%b : tensor<32xbf16>) affine_dims = [1]
      outs(%init : tensor<2x32x8x8xbf16>) -> tensor<2x32x8x8xbf16>
  return %y : tensor<2x32x8x8xbf16>
}

func.func @group_norm_bf16_dynamic(%x: tensor<?x32x?x?xbf16>, %g: tensor<32xbf16>, %b: tensor<32xbf16>) -> tensor<?x32x?x?xbf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x32x?x?xbf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x32x?x?xbf16>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x32x?x?xbf16>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x32x?x?xbf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : tensor<?x32x?x?xbf16>) scale(%g : tensor<32xbf16>) bias(%b : tensor<32xbf16>) affine_dims = [1]
      outs(%init : tensor<?x32x?x?xbf16>) -> tensor<?x32x?x?xbf16>
  return %y : tensor<?x32x?x?xbf16>
}
