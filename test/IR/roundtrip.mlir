// Custom form, generic form and bytecode round trips of every variant.
// RUN: norm-opt %s | norm-opt | FileCheck %s
// RUN: norm-opt %s --mlir-print-op-generic | norm-opt | FileCheck %s
// RUN: norm-opt %s --emit-bytecode | norm-opt | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.+]]: tensor<?x768xf32>, %[[G:.+]]: tensor<768xf32>, %[[B:.+]]: tensor<768xf32>, %[[I:.+]]: tensor<?x768xf32>)
// CHECK: norm.normalize standard axes = [1] epsilon = 1.000000e-05
// CHECK-SAME: ins(%[[X]] : tensor<?x768xf32>) scale(%[[G]] : tensor<768xf32>) bias(%[[B]] : tensor<768xf32>) affine_dims = [1]
// CHECK-SAME: outs(%[[I]] : tensor<?x768xf32>) -> tensor<?x768xf32>
func.func @layer_norm(%x: tensor<?x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>, %init: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xf32>)
      scale(%g : tensor<768xf32>) bias(%b : tensor<768xf32>) affine_dims = [1]
      outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %0 : tensor<?x768xf32>
}

// LayerNorm over two dims that are not the trailing ones ([N, D1, D2, T]).
// CHECK-LABEL: func.func @layer_norm_inner_axes
// CHECK: norm.normalize standard axes = [1, 2] epsilon = 1.000000e-05
// CHECK-SAME: affine_dims = [1, 2]
func.func @layer_norm_inner_axes(%x: tensor<4x8x16x3xbf16>, %g: tensor<8x16xf32>, %init: tensor<4x8x16x3xbf16>) -> tensor<4x8x16x3xbf16> {
  %0 = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05
      ins(%x : tensor<4x8x16x3xbf16>) scale(%g : tensor<8x16xf32>) affine_dims = [1, 2]
      outs(%init : tensor<4x8x16x3xbf16>) -> tensor<4x8x16x3xbf16>
  return %0 : tensor<4x8x16x3xbf16>
}

// CHECK-LABEL: func.func @rms_norm
// CHECK: norm.normalize rms axes = [1] epsilon = 9.9999999999999995E-7
// CHECK-SAME: scale(%{{[a-z0-9_]+}} : tensor<4096xf16>) affine_dims = [1]
func.func @rms_norm(%x: tensor<8x4096xf16>, %w: tensor<4096xf16>, %init: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  %0 = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<8x4096xf16>) scale(%w : tensor<4096xf16>) affine_dims = [1]
      outs(%init : tensor<8x4096xf16>) -> tensor<8x4096xf16>
  return %0 : tensor<8x4096xf16>
}

// RMSNorm with saved rstd, explicit f64 accumulation and a narrower output.
// CHECK-LABEL: func.func @rms_norm_saved
// CHECK: norm.normalize rms axes = [1] epsilon = 1.000000e-05 acc = f64
// CHECK-SAME: outs(%{{[a-z0-9_]+}} : tensor<?x?xbf16>) saved(%{{[a-z0-9_]+}} : tensor<?xf64>) -> tensor<?x?xbf16>, tensor<?xf64>
func.func @rms_norm_saved(%x: tensor<?x?xf32>, %init: tensor<?x?xbf16>, %rstd: tensor<?xf64>) -> (tensor<?x?xbf16>, tensor<?xf64>) {
  %0:2 = norm.normalize rms axes = [1] epsilon = 1.0e-05 acc = f64
      ins(%x : tensor<?x?xf32>)
      outs(%init : tensor<?x?xbf16>) saved(%rstd : tensor<?xf64>) -> tensor<?x?xbf16>, tensor<?xf64>
  return %0#0, %0#1 : tensor<?x?xbf16>, tensor<?xf64>
}

// CHECK-LABEL: func.func @batch_norm_inference
// CHECK-SAME: (%[[X:.+]]: tensor<32x64x56x56xf32>, %[[G:.+]]: tensor<64xf32>, %[[B:.+]]: tensor<64xf32>, %[[M:.+]]: tensor<64xf32>, %[[V:.+]]: tensor<64xf32>, %[[I:.+]]: tensor<32x64x56x56xf32>)
// CHECK: norm.normalize standard axes = [0, 2, 3] epsilon = 1.000000e-05
// CHECK-SAME: stats(%[[M]], %[[V]] : tensor<64xf32>, tensor<64xf32>) outs(%[[I]] : tensor<32x64x56x56xf32>)
func.func @batch_norm_inference(%x: tensor<32x64x56x56xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %m: tensor<64xf32>, %v: tensor<64xf32>, %init: tensor<32x64x56x56xf32>) -> tensor<32x64x56x56xf32> {
  %0 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05
      ins(%x : tensor<32x64x56x56xf32>)
      scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      stats(%m, %v : tensor<64xf32>, tensor<64xf32>)
      outs(%init : tensor<32x64x56x56xf32>) -> tensor<32x64x56x56xf32>
  return %0 : tensor<32x64x56x56xf32>
}

// CHECK-LABEL: func.func @batch_norm_training
// CHECK-SAME: %[[RM:[a-z0-9]+]]: tensor<64xf32>, %[[RV:[a-z0-9]+]]: tensor<64xf32>)
// CHECK: %{{[a-z0-9_]+}}:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.000000e-05 momentum = 1.000000e-01 unbiased saved_variance
// CHECK-SAME: saved(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<64xf32>, tensor<64xf32>) running(%[[RM]], %[[RV]] : tensor<64xf32>, tensor<64xf32>)
// CHECK-SAME: -> tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
func.func @batch_norm_training(%x: tensor<32x64x56x56xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %init: tensor<32x64x56x56xf32>, %sm: tensor<64xf32>, %sv: tensor<64xf32>, %rm: tensor<64xf32>, %rv: tensor<64xf32>) -> (tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<32x64x56x56xf32>)
      scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<32x64x56x56xf32>)
      saved(%sm, %sv : tensor<64xf32>, tensor<64xf32>)
      running(%rm, %rv : tensor<64xf32>, tensor<64xf32>)
      -> tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// ONNX-style training step: biased running variance, channels-last, dynamic batch.
// CHECK-LABEL: func.func @batch_norm_training_onnx_nhwc
// CHECK: norm.normalize standard axes = [0, 1, 2] epsilon = 1.000000e-05 momentum = 1.000000e-01 ins
// CHECK-SAME: running(
func.func @batch_norm_training_onnx_nhwc(%x: tensor<?x7x7x16xf32>, %init: tensor<?x7x7x16xf32>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<?x7x7x16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0:3 = norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05 momentum = 0.1
      ins(%x : tensor<?x7x7x16xf32>)
      outs(%init : tensor<?x7x7x16xf32>)
      running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<?x7x7x16xf32>, tensor<16xf32>, tensor<16xf32>
  return %0#0, %0#1, %0#2 : tensor<?x7x7x16xf32>, tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @instance_norm
// CHECK: norm.normalize standard axes = [2, 3] epsilon = 1.000000e-05
// CHECK-SAME: affine_dims = [1]
func.func @instance_norm(%x: tensor<16x64x128x128xf16>, %g: tensor<64xf16>, %b: tensor<64xf16>, %init: tensor<16x64x128x128xf16>) -> tensor<16x64x128x128xf16> {
  %0 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<16x64x128x128xf16>)
      scale(%g : tensor<64xf16>) bias(%b : tensor<64xf16>) affine_dims = [1]
      outs(%init : tensor<16x64x128x128xf16>) -> tensor<16x64x128x128xf16>
  return %0 : tensor<16x64x128x128xf16>
}

// CHECK-LABEL: func.func @group_norm_nchw
// CHECK: norm.normalize standard axes = [1, 2, 3] epsilon = 1.000000e-05 groups = 32 on 1
// CHECK-SAME: saved(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<2x32xf32>, tensor<2x32xf32>)
func.func @group_norm_nchw(%x: tensor<2x320x64x64xf32>, %g: tensor<320xf32>, %b: tensor<320xf32>, %init: tensor<2x320x64x64xf32>, %m: tensor<2x32xf32>, %r: tensor<2x32xf32>) -> (tensor<2x320x64x64xf32>, tensor<2x32xf32>, tensor<2x32xf32>) {
  %0:3 = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 1
      ins(%x : tensor<2x320x64x64xf32>)
      scale(%g : tensor<320xf32>) bias(%b : tensor<320xf32>) affine_dims = [1]
      outs(%init : tensor<2x320x64x64xf32>) saved(%m, %r : tensor<2x32xf32>, tensor<2x32xf32>)
      -> tensor<2x320x64x64xf32>, tensor<2x32xf32>, tensor<2x32xf32>
  return %0#0, %0#1, %0#2 : tensor<2x320x64x64xf32>, tensor<2x32xf32>, tensor<2x32xf32>
}

// CHECK-LABEL: func.func @group_norm_nhwc
// CHECK: norm.normalize standard axes = [1, 2, 3] epsilon = 1.000000e-05 groups = 32 on 3
// CHECK-SAME: affine_dims = [3]
func.func @group_norm_nhwc(%x: tensor<1x96x96x512xbf16>, %g: tensor<512xbf16>, %b: tensor<512xbf16>, %init: tensor<1x96x96x512xbf16>) -> tensor<1x96x96x512xbf16> {
  %0 = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 3
      ins(%x : tensor<1x96x96x512xbf16>)
      scale(%g : tensor<512xbf16>) bias(%b : tensor<512xbf16>) affine_dims = [3]
      outs(%init : tensor<1x96x96x512xbf16>) -> tensor<1x96x96x512xbf16>
  return %0 : tensor<1x96x96x512xbf16>
}

// CHECK-LABEL: func.func @weight_norm
// CHECK: norm.normalize l2 axes = [1, 2, 3] epsilon = 0.000000e+00
// CHECK-SAME: scale(%{{[a-z0-9_]+}} : tensor<256xf32>) affine_dims = [0]
func.func @weight_norm(%v: tensor<256x128x3x3xf32>, %g: tensor<256xf32>, %init: tensor<256x128x3x3xf32>) -> tensor<256x128x3x3xf32> {
  %0 = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<256x128x3x3xf32>) scale(%g : tensor<256xf32>) affine_dims = [0]
      outs(%init : tensor<256x128x3x3xf32>) -> tensor<256x128x3x3xf32>
  return %0 : tensor<256x128x3x3xf32>
}

// CHECK-LABEL: func.func @l2_normalize
// CHECK: norm.normalize l2 axes = [0] epsilon = 9.9999999999999998E-13
// CHECK-SAME: ins(%{{[a-z0-9_]+}} : tensor<?x?xf64>) outs(%{{[a-z0-9_]+}} : tensor<?x?xf64>) -> tensor<?x?xf64>
func.func @l2_normalize(%x: tensor<?x?xf64>, %init: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = norm.normalize l2 axes = [0] epsilon = 1.0e-12
      ins(%x : tensor<?x?xf64>) outs(%init : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// Cosine normalization: two l2 normalizations (each norm clamped separately)
// and a matmul with the second operand transposed.
// CHECK-LABEL: func.func @cosine_norm
// CHECK: %[[XN:.+]] = norm.normalize l2 axes = [1] epsilon = 1.000000e-08
// CHECK: %[[WN:.+]] = norm.normalize l2 axes = [1] epsilon = 1.000000e-08
// CHECK: linalg.matmul
// CHECK-SAME: ins(%[[XN]], %[[WN]] : tensor<16x64xf32>, tensor<32x64xf32>)
func.func @cosine_norm(%x: tensor<16x64xf32>, %w: tensor<32x64xf32>) -> tensor<16x32xf32> {
  %xi = tensor.empty() : tensor<16x64xf32>
  %wi = tensor.empty() : tensor<32x64xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08
      ins(%x : tensor<16x64xf32>) outs(%xi : tensor<16x64xf32>) -> tensor<16x64xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08
      ins(%w : tensor<32x64xf32>) outs(%wi : tensor<32x64xf32>) -> tensor<32x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<16x64xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// The buffer form writes its inits and returns nothing.
// CHECK-LABEL: func.func @layer_norm_memref
// CHECK: norm.normalize standard axes = [1] epsilon = 1.000000e-05 ins(%{{[a-z0-9_]+}} : memref<?x1024xf32>)
// CHECK-SAME: outs(%{{[a-z0-9_]+}} : memref<?x1024xf32>){{$}}
func.func @layer_norm_memref(%x: memref<?x1024xf32>, %g: memref<1024xf32>, %b: memref<1024xf32>, %y: memref<?x1024xf32>) {
  norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : memref<?x1024xf32>)
      scale(%g : memref<1024xf32>) bias(%b : memref<1024xf32>) affine_dims = [1]
      outs(%y : memref<?x1024xf32>)
  return
}
