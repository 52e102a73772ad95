// GroupNorm (8 groups, channels-last) through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry group_norm_channels_last_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_channels_last_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_channels_last_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_channels_last_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_channels_last_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry group_norm_channels_last_bf16_dynamic --check | FileCheck %s
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @group_norm_channels_last_f32_static(%x: tensor<2x8x8x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<2x8x8x32xf32> {
  %init = tensor.empty() : tensor<2x8x8x32xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<2x8x8x32xf32>) scale(%g : tensor<32xf32>) bias(%b : tensor<32xf32>) affine_dims = [3]
      outs(%init : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  return %y : tensor<2x8x8x32xf32>
}

func.func @group_norm_channels_last_f32_dynamic(%x: tensor<?x?x?x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<?x?x?x32xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x32xf32>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x32xf32>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x32xf32>
  %init = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?x32xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<?x?x?x32xf32>) scale(%g : tensor<32xf32>) bias(%b : tensor<32xf32>) affine_dims = [3]
      outs(%init : tensor<?x?x?x32xf32>) -> tensor<?x?x?x32xf32>
  return %y : tensor<?x?x?x32xf32>
}

func.func @group_norm_channels_last_f16_static(%x: tensor<2x8x8x32xf16>, %g: tensor<32xf16>, %b: tensor<32xf16>) -> tensor<2x8x8x32xf16> {
  %init = tensor.empty() : tensor<2x8x8x32xf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<2x8x8x32xf16>) scale(%g : tensor<32xf16>) bias(%b : tensor<32xf16>) affine_dims = [3]
      outs(%init : tensor<2x8x8x32xf16>) -> tensor<2x8x8x32xf16>
  return %y : tensor<2x8x8x32xf16>
}

func.func @group_norm_channels_last_f16_dynamic(%x: tensor<?x?x?x32xf16>, %g: tensor<32xf16>, %b: tensor<32xf16>) -> tensor<?x?x?x32xf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x32xf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x32xf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x32xf16>
  %init = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?x32xf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<?x?x?x32xf16>) scale(%g : tensor<32xf16>) bias(%b : tensor<32xf16>) affine_dims = [3]
      outs(%init : tensor<?x?x?x32xf16>) -> tensor<?x?x?x32xf16>
  return %y : tensor<?x?x?x32xf16>
}

func.func @group_norm_channels_last_bf16_static(%x: tensor<2x8x8x32xbf16>, %g: tensor<32xbf16>, %b: tensor<32xbf16>) -> tensor<2x8x8x32xbf16> {
  %init = tensor.empty() : tensor<2x8x8x32xbf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<2x8x8x32xbf16>) scale(%g : tensor<32xbf16>) bias(%b : tensor<32xbf16>) affine_dims = [3]
      outs(%init : tensor<2x8x8x32xbf16>) -> tensor<2x8x8x32xbf16>
  return %y : tensor<2x8x8x32xbf16>
}

func.func @group_norm_channels_last_bf16_dynamic(%x: tensor<?x?x?x32xbf16>, %g: tensor<32xbf16>, %b: tensor<32xbf16>) -> tensor<?x?x?x32xbf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x32xbf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x32xbf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x32xbf16>
  %init = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?x32xbf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<?x?x?x32xbf16>) scale(%g : tensor<32xbf16>) bias(%b : tensor<32xbf16>) affine_dims = [3]
      outs(%init : tensor<?x?x?x32xbf16>) -> tensor<?x?x?x32xbf16>
  return %y : tensor<?x?x?x32xbf16>
}
