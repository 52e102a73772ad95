// Weight normalization g·v/‖v‖ through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry weight_norm_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry weight_norm_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry weight_norm_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry weight_norm_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry weight_norm_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry weight_norm_bf16_dynamic --check | FileCheck %s
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @weight_norm_f32_static(%v: tensor<16x8x3x3xf32>, %g: tensor<16xf32>) -> tensor<16x8x3x3xf32> {
  %init = tensor.empty() : tensor<16x8x3x3xf32>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<16x8x3x3xf32>) scale(%g : tensor<16xf32>) affine_dims = [0]
      outs(%init : tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
  return %w : tensor<16x8x3x3xf32>
}

func.func @weight_norm_f32_dynamic(%v: tensor<?x?x3x3xf32>, %g: tensor<?xf32>) -> tensor<?x?x3x3xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %v, %c0 : tensor<?x?x3x3xf32>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %v, %c1 : tensor<?x?x3x3xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?x3x3xf32>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<?x?x3x3xf32>) scale(%g : tensor<?xf32>) affine_dims = [0]
      outs(%init : tensor<?x?x3x3xf32>) -> tensor<?x?x3x3xf32>
  return %w : tensor<?x?x3x3xf32>
}

func.func @weight_norm_f16_static(%v: tensor<16x8x3x3xf16>, %g: tensor<16xf16>) -> tensor<16x8x3x3xf16> {
  %init = tensor.empty() : tensor<16x8x3x3xf16>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<16x8x3x3xf16>) scale(%g : tensor<16xf16>) affine_dims = [0]
      outs(%init : tensor<16x8x3x3xf16>) -> tensor<16x8x3x3xf16>
  return %w : tensor<16x8x3x3xf16>
}

func.func @weight_norm_f16_dynamic(%v: tensor<?x?x3x3xf16>, %g: tensor<?xf16>) -> tensor<?x?x3x3xf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %v, %c0 : tensor<?x?x3x3xf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %v, %c1 : tensor<?x?x3x3xf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?x3x3xf16>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<?x?x3x3xf16>) scale(%g : tensor<?xf16>) affine_dims = [0]
      outs(%init : tensor<?x?x3x3xf16>) -> tensor<?x?x3x3xf16>
  return %w : tensor<?x?x3x3xf16>
}

func.func @weight_norm_bf16_static(%v: tensor<16x8x3x3xbf16>, %g: tensor<16xbf16>) -> tensor<16x8x3x3xbf16> {
  %init = tensor.empty() : tensor<16x8x3x3xbf16>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<16x8x3x3xbf16>) scale(%g : tensor<16xbf16>) affine_dims = [0]
      outs(%init : tensor<16x8x3x3xbf16>) -> tensor<16x8x3x3xbf16>
  return %w : tensor<16x8x3x3xbf16>
}

func.func @weight_norm_bf16_dynamic(%v: tensor<?x?x3x3xbf16>, %g: tensor<?xbf16>) -> tensor<?x?x3x3xbf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %v, %c0 : tensor<?x?x3x3xbf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %v, %c1 : tensor<?x?x3x3xbf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?x3x3xbf16>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<?x?x3x3xbf16>) scale(%g : tensor<?xbf16>) affine_dims = [0]
      outs(%init : tensor<?x?x3x3xbf16>) -> tensor<?x?x3x3xbf16>
  return %w : tensor<?x?x3x3xbf16>
}
