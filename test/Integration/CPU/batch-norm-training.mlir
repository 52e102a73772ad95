// BatchNorm training (batch statistics, saved mean and variance, PyTorch running update) through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry batch_norm_training_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_training_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_training_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_training_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_training_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_training_bf16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_training_f32_dynamic --check --vector-kernels=0 | FileCheck %s
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @batch_norm_training_f32_static(%x: tensor<4x16x8x8xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %init = tensor.empty() : tensor<4x16x8x8xf32>
  %sm = tensor.empty() : tensor<16xf32>
  %sv = tensor.empty() : tensor<16xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<4x16x8x8xf32>) scale(%g : tensor<16xf32>) bias(%b : tensor<16xf32>) affine_dims = [1]
      outs(%init : tensor<4x16x8x8xf32>) saved(%sm, %sv : tensor<16xf32>, tensor<16xf32>) running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

func.func @batch_norm_training_f32_dynamic(%x: tensor<?x16x?x?xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<?x16x?x?xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x16x?x?xf32>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x16x?x?xf32>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x16x?x?xf32>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x16x?x?xf32>
  %sm = tensor.empty() : tensor<16xf32>
  %sv = tensor.empty() : tensor<16xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x16x?x?xf32>) scale(%g : tensor<16xf32>) bias(%b : tensor<16xf32>) affine_dims = [1]
      outs(%init : tensor<?x16x?x?xf32>) saved(%sm, %sv : tensor<16xf32>, tensor<16xf32>) running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<?x16x?x?xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x16x?x?xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

func.func @batch_norm_training_f16_static(%x: tensor<4x16x8x8xf16>, %g: tensor<16xf16>, %b: tensor<16xf16>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<4x16x8x8xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %init = tensor.empty() : tensor<4x16x8x8xf16>
  %sm = tensor.empty() : tensor<16xf32>
  %sv = tensor.empty() : tensor<16xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<4x16x8x8xf16>) scale(%g : tensor<16xf16>) bias(%b : tensor<16xf16>) affine_dims = [1]
      outs(%init : tensor<4x16x8x8xf16>) saved(%sm, %sv : tensor<16xf32>, tensor<16xf32>) running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<4x16x8x8xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<4x16x8x8xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

func.func @batch_norm_training_f16_dynamic(%x: tensor<?x16x?x?xf16>, %g: tensor<16xf16>, %b: tensor<16xf16>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<?x16x?x?xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x16x?x?xf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x16x?x?xf16>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x16x?x?xf16>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x16x?x?xf16>
  %sm = tensor.empty() : tensor<16xf32>
  %sv = tensor.empty() : tensor<16xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x16x?x?xf16>) scale(%g : tensor<16xf16>) bias(%b : tensor<16xf16>) affine_dims = [1]
      outs(%init : tensor<?x16x?x?xf16>) saved(%sm, %sv : tensor<16xf32>, tensor<16xf32>) running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<?x16x?x?xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x16x?x?xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

func.func @batch_norm_training_bf16_static(%x: tensor<4x16x8x8xbf16>, %g: tensor<16xbf16>, %b: tensor<16xbf16>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<4x16x8x8xbf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %init = tensor.empty() : tensor<4x16x8x8xbf16>
  %sm = tensor.empty() : tensor<16xf32>
  %sv = tensor.empty() : tensor<16xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<4x16x8x8xbf16>) scale(%g : tensor<16xbf16>) bias(%b : tensor<16xbf16>) affine_dims = [1]
      outs(%init : tensor<4x16x8x8xbf16>) saved(%sm, %sv : tensor<16xf32>, tensor<16xf32>) running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<4x16x8x8xbf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<4x16x8x8xbf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

func.func @batch_norm_training_bf16_dynamic(%x: tensor<?x16x?x?xbf16>, %g: tensor<16xbf16>, %b: tensor<16xbf16>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<?x16x?x?xbf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x16x?x?xbf16>
  %c2 = arith.constant 2 : index
  %d2 = tensor.dim %x, %c2 : tensor<?x16x?x?xbf16>
  %c3 = arith.constant 3 : index
  %d3 = tensor.dim %x, %c3 : tensor<?x16x?x?xbf16>
  %init = tensor.empty(%d0, %d2, %d3) : tensor<?x16x?x?xbf16>
  %sm = tensor.empty() : tensor<16xf32>
  %sv = tensor.empty() : tensor<16xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x16x?x?xbf16>) scale(%g : tensor<16xbf16>) bias(%b : tensor<16xbf16>) affine_dims = [1]
      outs(%init : tensor<?x16x?x?xbf16>) saved(%sm, %sv : tensor<16xf32>, tensor<16xf32>) running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<?x16x?x?xbf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x16x?x?xbf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
