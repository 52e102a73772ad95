// InstanceNorm with saved mean and rstd through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry instance_norm_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry instance_norm_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry instance_norm_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry instance_norm_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry instance_norm_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry instance_norm_bf16_dynamic --check | FileCheck %s
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @instance_norm_f32_static(%x: tensor<2x8x16x16xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<2x8x16x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %init = tensor.empty() : tensor<2x8x16x16xf32>
  %sm = tensor.empty() : tensor<2x8xf32>
  %sr = tensor.empty() : tensor<2x8xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<2x8x16x16xf32>) scale(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) affine_dims = [1]
      outs(%init : tensor<2x8x16x16xf32>) saved(%sm, %sr : tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8x16x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>
  return %r#0, %r#1, %r#2 : tensor<2x8x16x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

func.func @instance_norm_f32_dynamic(%x: tensor<?x8x?x?xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<?x8x?x?xf32>, tensor<?x8xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x8x?x?xf32>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x8x?x?xf32>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x8x?x?xf32>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x8x?x?xf32>
  %sm = tensor.empty(%d0) : tensor<?x8xf32>
  %sr = tensor.empty(%d0) : tensor<?x8xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<?x8x?x?xf32>) scale(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) affine_dims = [1]
      outs(%init : tensor<?x8x?x?xf32>) saved(%sm, %sr : tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8x?x?xf32>, tensor<?x8xf32>, tensor<?x8xf32>
  return %r#0, %r#1, %r#2 : tensor<?x8x?x?xf32>, tensor<?x8xf32>, tensor<?x8xf32>
}

func.func @instance_norm_f16_static(%x: tensor<2x8x16x16xf16>, %g: tensor<8xf16>, %b: tensor<8xf16>) -> (tensor<2x8x16x16xf16>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %init = tensor.empty() : tensor<2x8x16x16xf16>
  %sm = tensor.empty() : tensor<2x8xf32>
  %sr = tensor.empty() : tensor<2x8xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<2x8x16x16xf16>) scale(%g : tensor<8xf16>) bias(%b : tensor<8xf16>) affine_dims = [1]
      outs(%init : tensor<2x8x16x16xf16>) saved(%sm, %sr : tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8x16x16xf16>, tensor<2x8xf32>, tensor<2x8xf32>
  return %r#0, %r#1, %r#2 : tensor<2x8x16x16xf16>, tensor<2x8xf32>, tensor<2x8xf32>
}

func.func @instance_norm_f16_dynamic(%x: tensor<?x8x?x?xf16>, %g: tensor<8xf16>, %b: tensor<8xf16>) -> (tensor<?x8x?x?xf16>, tensor<?x8xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x8x?x?xf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x8x?x?xf16>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x8x?x?xf16>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x8x?x?xf16>
  %sm = tensor.empty(%d0) : tensor<?x8xf32>
  %sr = tensor.empty(%d0) : tensor<?x8xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<?x8x?x?xf16>) scale(%g : tensor<8xf16>) bias(%b : tensor<8xf16>) affine_dims = [1]
      outs(%init : tensor<?x8x?x?xf16>) saved(%sm, %sr : tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8x?x?xf16>, tensor<?x8xf32>, tensor<?x8xf32>
  return %r#0, %r#1, %r#2 : tensor<?x8x?x?xf16>, tensor<?x8xf32>, tensor<?x8xf32>
}

func.func @instance_norm_bf16_static(%x: tensor<2x8x16x16xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> (tensor<2x8x16x16xbf16>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %init = tensor.empty() : tensor<2x8x16x16xbf16>
  %sm = tensor.empty() : tensor<2x8xf32>
  %sr = tensor.empty() : tensor<2x8xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<2x8x16x16xbf16>) scale(%g : tensor<8xbf16>) bias(%b : tensor<8xbf16>) affine_dims = [1]
      outs(%init : tensor<2x8x16x16xbf16>) saved(%sm, %sr : tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8x16x16xbf16>, tensor<2x8xf32>, tensor<2x8xf32>
  return %r#0, %r#1, %r#2 : tensor<2x8x16x16xbf16>, tensor<2x8xf32>, tensor<2x8xf32>
}

func.func @instance_norm_bf16_dynamic(%x: tensor<?x8x?x?xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> (tensor<?x8x?x?xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x8x?x?xbf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x8x?x?xbf16>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x8x?x?xbf16>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x8x?x?xbf16>
  %sm = tensor.empty(%d0) : tensor<?x8xf32>
  %sr = tensor.empty(%d0) : tensor<?x8xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<?x8x?x?xbf16>) scale(%g : tensor<8xbf16>) bias(%b : tensor<8xbf16>) affine_dims = [1]
      outs(%init : tensor<?x8x?x?xbf16>) saved(%sm, %sr : tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8x?x?xbf16>, tensor<?x8xf32>, tensor<?x8xf32>
  return %r#0, %r#1, %r#2 : tensor<?x8x?x?xbf16>, tensor<?x8xf32>, tensor<?x8xf32>
}
