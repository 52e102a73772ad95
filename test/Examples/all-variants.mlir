// One function per normalization variant: the example spec of README's main
// job (scripts/run-example.sh). It must parse, verify and print back.
// RUN: norm-opt %s | norm-opt | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK: norm.normalize standard axes = [2]
func.func @layer_norm(%x: tensor<?x128x768xbf16>, %gamma: tensor<768xbf16>,
                      %beta: tensor<768xbf16>) -> tensor<?x128x768xbf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x128x768xbf16>
  %init = tensor.empty(%n) : tensor<?x128x768xbf16>
  %y = norm.normalize standard axes = [2] epsilon = 1.0e-05
      ins(%x : tensor<?x128x768xbf16>)
      scale(%gamma : tensor<768xbf16>) bias(%beta : tensor<768xbf16>) affine_dims = [2]
      outs(%init : tensor<?x128x768xbf16>) -> tensor<?x128x768xbf16>
  return %y : tensor<?x128x768xbf16>
}

// CHECK-LABEL: func.func @rms_norm
// CHECK: norm.normalize rms axes = [1]
func.func @rms_norm(%x: tensor<16x4096xf16>, %w: tensor<4096xf16>) -> tensor<16x4096xf16> {
  %init = tensor.empty() : tensor<16x4096xf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<16x4096xf16>) scale(%w : tensor<4096xf16>) affine_dims = [1]
      outs(%init : tensor<16x4096xf16>) -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}

// CHECK-LABEL: func.func @batch_norm_inference
// CHECK: norm.normalize standard axes = [0, 2, 3]
// CHECK-SAME: stats(
func.func @batch_norm_inference(%x: tensor<8x64x28x28xf32>, %gamma: tensor<64xf32>, %beta: tensor<64xf32>,
                                %mean: tensor<64xf32>, %var: tensor<64xf32>) -> tensor<8x64x28x28xf32> {
  %init = tensor.empty() : tensor<8x64x28x28xf32>
  %y = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05
      ins(%x : tensor<8x64x28x28xf32>)
      scale(%gamma : tensor<64xf32>) bias(%beta : tensor<64xf32>) affine_dims = [1]
      stats(%mean, %var : tensor<64xf32>, tensor<64xf32>)
      outs(%init : tensor<8x64x28x28xf32>) -> tensor<8x64x28x28xf32>
  return %y : tensor<8x64x28x28xf32>
}

// PyTorch's training step: returns y, the batch mean and biased variance, and
// the updated running statistics (unbiased running variance).
// CHECK-LABEL: func.func @batch_norm_training
// CHECK: norm.normalize standard axes = [0, 2, 3] epsilon = 1.000000e-05 momentum = 1.000000e-01 unbiased saved_variance
func.func @batch_norm_training(%x: tensor<8x64x28x28xf32>, %gamma: tensor<64xf32>, %beta: tensor<64xf32>,
                               %running_mean: tensor<64xf32>, %running_var: tensor<64xf32>)
    -> (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %init = tensor.empty() : tensor<8x64x28x28xf32>
  %mean = tensor.empty() : tensor<64xf32>
  %var = tensor.empty() : tensor<64xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<8x64x28x28xf32>)
      scale(%gamma : tensor<64xf32>) bias(%beta : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<8x64x28x28xf32>)
      saved(%mean, %var : tensor<64xf32>, tensor<64xf32>)
      running(%running_mean, %running_var : tensor<64xf32>, tensor<64xf32>)
      -> tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4
      : tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// CHECK-LABEL: func.func @instance_norm
// CHECK: norm.normalize standard axes = [2, 3]
func.func @instance_norm(%x: tensor<4x32x64x64xf32>) -> tensor<4x32x64x64xf32> {
  %init = tensor.empty() : tensor<4x32x64x64xf32>
  %y = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<4x32x64x64xf32>) outs(%init : tensor<4x32x64x64xf32>) -> tensor<4x32x64x64xf32>
  return %y : tensor<4x32x64x64xf32>
}

// CHECK-LABEL: func.func @group_norm_channels_first
// CHECK: groups = 32 on 1
func.func @group_norm_channels_first(%x: tensor<2x320x32x32xf32>, %gamma: tensor<320xf32>,
                                     %beta: tensor<320xf32>) -> tensor<2x320x32x32xf32> {
  %init = tensor.empty() : tensor<2x320x32x32xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 1
      ins(%x : tensor<2x320x32x32xf32>)
      scale(%gamma : tensor<320xf32>) bias(%beta : tensor<320xf32>) affine_dims = [1]
      outs(%init : tensor<2x320x32x32xf32>) -> tensor<2x320x32x32xf32>
  return %y : tensor<2x320x32x32xf32>
}

// CHECK-LABEL: func.func @group_norm_channels_last
// CHECK: groups = 32 on 3
func.func @group_norm_channels_last(%x: tensor<2x32x32x320xbf16>, %gamma: tensor<320xbf16>,
                                    %beta: tensor<320xbf16>) -> tensor<2x32x32x320xbf16> {
  %init = tensor.empty() : tensor<2x32x32x320xbf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 3
      ins(%x : tensor<2x32x32x320xbf16>)
      scale(%gamma : tensor<320xbf16>) bias(%beta : tensor<320xbf16>) affine_dims = [3]
      outs(%init : tensor<2x32x32x320xbf16>) -> tensor<2x32x32x320xbf16>
  return %y : tensor<2x32x32x320xbf16>
}

// Weight normalization g * v / ||v|| of a conv weight [O, I, kH, kW].
// CHECK-LABEL: func.func @weight_norm
// CHECK: norm.normalize l2 axes = [1, 2, 3]
func.func @weight_norm(%v: tensor<64x32x3x3xf32>, %g: tensor<64xf32>) -> tensor<64x32x3x3xf32> {
  %init = tensor.empty() : tensor<64x32x3x3xf32>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<64x32x3x3xf32>) scale(%g : tensor<64xf32>) affine_dims = [0]
      outs(%init : tensor<64x32x3x3xf32>) -> tensor<64x32x3x3xf32>
  return %w : tensor<64x32x3x3xf32>
}

// CHECK-LABEL: func.func @l2_normalize
// CHECK: norm.normalize l2 axes = [1]
func.func @l2_normalize(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x256xf32>
  %init = tensor.empty(%n) : tensor<?x256xf32>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<?x256xf32>) outs(%init : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}

// Cosine normalization: both operands l2-normalized (each norm clamped by
// epsilon separately), then x̂ · ŵᵀ.
// CHECK-LABEL: func.func @cosine_norm
// CHECK-COUNT-2: norm.normalize l2 axes = [1]
// CHECK: linalg.matmul
func.func @cosine_norm(%x: tensor<32x128xf32>, %w: tensor<10x128xf32>) -> tensor<32x10xf32> {
  %xi = tensor.empty() : tensor<32x128xf32>
  %wi = tensor.empty() : tensor<10x128xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08
      ins(%x : tensor<32x128xf32>) outs(%xi : tensor<32x128xf32>) -> tensor<32x128xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08
      ins(%w : tensor<10x128xf32>) outs(%wi : tensor<10x128xf32>) -> tensor<10x128xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x10xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x10xf32>) -> tensor<32x10xf32>
  %cos = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<32x128xf32>, tensor<10x128xf32>)
      outs(%acc : tensor<32x10xf32>) -> tensor<32x10xf32>
  return %cos : tensor<32x10xf32>
}
