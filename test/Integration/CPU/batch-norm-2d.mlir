// BatchNorm over [N, C] (axes = [0]: the innermost dim is not reduced, so no
// vector kernel; the linalg path, tiled by norm-tile-and-vectorize for given
// statistics, see tiled-linalg.mlir) through the CPU pipeline, checked
// against the fp64 reference.
// RUN: norm-runner %s --entry batch_norm_2d_inference_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_2d_training_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry batch_norm_2d_training_bf16_static --check | FileCheck %s
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline -mlir-print-ir-after=convert-norm-to-linalg -o /dev/null 2>&1 | FileCheck %s --check-prefix=PATH
// CHECK: check: {{[0-9]+}} passed, 0 failed
// PATH-NOT: norm.normalize
// PATH: linalg.generic

func.func @batch_norm_2d_inference_f32_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %m: tensor<?xf32>, %v: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %c) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      stats(%m, %v : tensor<?xf32>, tensor<?xf32>)
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @batch_norm_2d_training_f32_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %rm: tensor<?xf32>, %rv: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %c) : tensor<?x?xf32>
  %sm = tensor.empty(%c) : tensor<?xf32>
  %sv = tensor.empty(%c) : tensor<?xf32>
  %r:5 = norm.normalize standard axes = [0] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) saved(%sm, %sv : tensor<?xf32>, tensor<?xf32>)
      running(%rm, %rv : tensor<?xf32>, tensor<?xf32>)
      -> tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

func.func @batch_norm_2d_training_bf16_static(%x: tensor<64x24xbf16>, %g: tensor<24xbf16>, %b: tensor<24xbf16>, %rm: tensor<24xf32>, %rv: tensor<24xf32>) -> (tensor<64x24xbf16>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>) {
  %init = tensor.empty() : tensor<64x24xbf16>
  %sm = tensor.empty() : tensor<24xf32>
  %sv = tensor.empty() : tensor<24xf32>
  %r:5 = norm.normalize standard axes = [0] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<64x24xbf16>) scale(%g : tensor<24xbf16>) bias(%b : tensor<24xbf16>) affine_dims = [1]
      outs(%init : tensor<64x24xbf16>) saved(%sm, %sv : tensor<24xf32>, tensor<24xf32>)
      running(%rm, %rv : tensor<24xf32>, tensor<24xf32>)
      -> tensor<64x24xbf16>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<64x24xbf16>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>
}
