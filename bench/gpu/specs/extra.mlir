// Variants of the GPU bundle beyond bench/specs/: L2 normalization, weight
// normalization of conv weights, channels-last GroupNorm in bf16, and
// InstanceNorm with its spatial size fixed. The reduced dims are static where
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
