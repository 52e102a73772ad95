// Variants of the GPU bundle beyond bench/specs/: L2 normalization, weight
// normalization of conv weights, channels-last GroupNorm in bf16, and
// InstanceNorm with its spatial size fixed; BatchNorm training and GroupNorm
// at fixed shapes (few long slices: split over several blocks each), the
// large ones timed only, small ones that split the same way checked. The reduced dims are static where
// a model fixes them (feature size, kernel shape, image size), so that the
// GPU kernels keep each slice in registers.

func.func @l2_normalize_f32(%x: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x768xf32>
  %init = tensor.empty(%d0) : tensor<?x768xf32>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<?x768xf32>) outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

func.func @weight_norm_f32(%v: tensor<?x512x3x3xf32>, %g: tensor<?xf32>) -> tensor<?x512x3x3xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %v, %c0 : tensor<?x512x3x3xf32>
  %init = tensor.empty(%d0) : tensor<?x512x3x3xf32>
  %w = norm.normalize l2 axes = [1, 2, 3] epsilon = 0.0
      ins(%v : tensor<?x512x3x3xf32>) scale(%g : tensor<?xf32>) affine_dims = [0]
      outs(%init : tensor<?x512x3x3xf32>) -> tensor<?x512x3x3xf32>
  return %w : tensor<?x512x3x3xf32>
}

func.func @instance_norm_f32_128x128(%x: tensor<?x?x128x128xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?x128x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x128x128xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x128x128xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?x128x128xf32>
  %y = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<?x?x128x128xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?x128x128xf32>) -> tensor<?x?x128x128xf32>
  return %y : tensor<?x?x128x128xf32>
}

func.func @group_norm_nhwc_bf16(%x: tensor<?x?x?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>) -> tensor<?x?x?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xbf16>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xbf16>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xbf16>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xbf16>
  %init = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xbf16>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 3
      ins(%x : tensor<?x?x?x?xbf16>) scale(%g : tensor<?xbf16>) bias(%b : tensor<?xbf16>) affine_dims = [3]
      outs(%init : tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16>
  return %y : tensor<?x?x?x?xbf16>
}

func.func @batch_norm_training_f32_32x64x56x56(%x: tensor<32x64x56x56xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %rm: tensor<64xf32>, %rv: tensor<64xf32>) -> (tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>) {
  %init = tensor.empty() : tensor<32x64x56x56xf32>
  %y:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 1.000000e-01 unbiased
      ins(%x : tensor<32x64x56x56xf32>) scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<32x64x56x56xf32>) running(%rm, %rv : tensor<64xf32>, tensor<64xf32>)
      -> tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>
  return %y#0, %y#1, %y#2 : tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>
}

func.func @batch_norm_training_f32_32x256x56x56(%x: tensor<32x256x56x56xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>, %rm: tensor<256xf32>, %rv: tensor<256xf32>) -> (tensor<32x256x56x56xf32>, tensor<256xf32>, tensor<256xf32>) {
  %init = tensor.empty() : tensor<32x256x56x56xf32>
  %y:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 1.000000e-01 unbiased
      ins(%x : tensor<32x256x56x56xf32>) scale(%g : tensor<256xf32>) bias(%b : tensor<256xf32>) affine_dims = [1]
      outs(%init : tensor<32x256x56x56xf32>) running(%rm, %rv : tensor<256xf32>, tensor<256xf32>)
      -> tensor<32x256x56x56xf32>, tensor<256xf32>, tensor<256xf32>
  return %y#0, %y#1, %y#2 : tensor<32x256x56x56xf32>, tensor<256xf32>, tensor<256xf32>
}

func.func @group_norm_f32_2x320x64x64(%x: tensor<2x320x64x64xf32>, %g: tensor<320xf32>, %b: tensor<320xf32>) -> tensor<2x320x64x64xf32> {
  %init = tensor.empty() : tensor<2x320x64x64xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 1
      ins(%x : tensor<2x320x64x64xf32>) scale(%g : tensor<320xf32>) bias(%b : tensor<320xf32>) affine_dims = [1]
      outs(%init : tensor<2x320x64x64xf32>) -> tensor<2x320x64x64xf32>
  return %y : tensor<2x320x64x64xf32>
}

func.func @group_norm_f32_1x512x96x96(%x: tensor<1x512x96x96xf32>, %g: tensor<512xf32>, %b: tensor<512xf32>) -> tensor<1x512x96x96xf32> {
  %init = tensor.empty() : tensor<1x512x96x96xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 1
      ins(%x : tensor<1x512x96x96xf32>) scale(%g : tensor<512xf32>) bias(%b : tensor<512xf32>) affine_dims = [1]
      outs(%init : tensor<1x512x96x96xf32>) -> tensor<1x512x96x96xf32>
  return %y : tensor<1x512x96x96xf32>
}

func.func @batch_norm_training_f32_16x16x32x32(%x: tensor<16x16x32x32xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<16x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>) {
  %init = tensor.empty() : tensor<16x16x32x32xf32>
  %y:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 1.000000e-01 unbiased
      ins(%x : tensor<16x16x32x32xf32>) scale(%g : tensor<16xf32>) bias(%b : tensor<16xf32>) affine_dims = [1]
      outs(%init : tensor<16x16x32x32xf32>) running(%rm, %rv : tensor<16xf32>, tensor<16xf32>)
      -> tensor<16x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>
  return %y#0, %y#1, %y#2 : tensor<16x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>
}

func.func @group_norm_f32_1x128x64x64(%x: tensor<1x128x64x64xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<1x128x64x64xf32> {
  %init = tensor.empty() : tensor<1x128x64x64xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 1
      ins(%x : tensor<1x128x64x64xf32>) scale(%g : tensor<128xf32>) bias(%b : tensor<128xf32>) affine_dims = [1]
      outs(%init : tensor<1x128x64x64xf32>) -> tensor<1x128x64x64xf32>
  return %y : tensor<1x128x64x64xf32>
}
