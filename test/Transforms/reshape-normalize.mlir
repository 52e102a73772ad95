// RUN: norm-opt %s -test-norm-reshape-normalize -split-input-file | FileCheck %s

// InstanceNorm over NCHW: H and W are one reduced dim; the per-channel
// affine operands and the statistics keep their shapes, the output is
// expanded back with the input's dynamic sizes.
// CHECK-LABEL: func.func @instance_norm_nchw
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<?x?x?x?xf32>, %[[G:[a-z0-9]+]]: tensor<?xf32>, %{{[a-z0-9]+}}: tensor<?xf32>, %[[INIT:[a-z0-9]+]]: tensor<?x?x?x?xf32>
// CHECK-DAG: %[[D0:.+]] = tensor.dim %[[INIT]], %c0
// CHECK-DAG: %[[D3:.+]] = tensor.dim %[[INIT]], %c3
// CHECK: %[[XC:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
// CHECK: %[[OC:.+]] = tensor.collapse_shape %[[INIT]] {{\[}}[0], [1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [2] epsilon = 1.000000e-05
// CHECK-SAME: ins(%[[XC]] : tensor<?x?x?xf32>) scale(%[[G]] : tensor<?xf32>) bias(%{{.+}} : tensor<?xf32>) affine_dims = [1]
// CHECK-SAME: outs(%[[OC]] : tensor<?x?x?xf32>) saved(%{{.+}}, %{{.+}} : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape %[[Y]]#0 {{\[}}[0], [1], [2, 3]] output_shape [%[[D0]], %{{.+}}, %{{.+}}, %[[D3]]]
// CHECK: return %[[E]], %[[Y]]#1, %[[Y]]#2
func.func @instance_norm_nchw(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %init: tensor<?x?x?x?xf32>, %s: tensor<?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %y:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?x?x?xf32>) saved(%s, %s : tensor<?x?xf32>, tensor<?x?xf32>)
      -> tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
  return %y#0, %y#1, %y#2 : tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// LayerNorm over [H, W] with a [H, W] scale: the scale collapses with the
// input. The axes may be listed in any order.
// CHECK-LABEL: func.func @layer_norm_2d
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : tensor<8x16x32xbf16> into tensor<8x512xbf16>
// CHECK: %[[GC:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<16x32xbf16> into tensor<512xbf16>
// CHECK: norm.normalize rms axes = [1] epsilon =
// CHECK-SAME: scale(%[[GC]] : tensor<512xbf16>) affine_dims = [1]
// CHECK-SAME: -> tensor<8x512xbf16>
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [8, 16, 32] : tensor<8x512xbf16> into tensor<8x16x32xbf16>
func.func @layer_norm_2d(%x: tensor<8x16x32xbf16>, %g: tensor<16x32xbf16>) -> tensor<8x16x32xbf16> {
  %init = tensor.empty() : tensor<8x16x32xbf16>
  %y = norm.normalize rms axes = [2, 1] epsilon = 1.0e-06
      ins(%x : tensor<8x16x32xbf16>) scale(%g : tensor<16x32xbf16>) affine_dims = [1, 2]
      outs(%init : tensor<8x16x32xbf16>) -> tensor<8x16x32xbf16>
  return %y : tensor<8x16x32xbf16>
}

// -----

// BatchNorm training over NCHW: N stays alone, H and W collapse; the
// running statistics keep their shape.
// CHECK-LABEL: func.func @batch_norm_training
// CHECK: norm.normalize standard axes = [0, 2] epsilon = 1.000000e-05 momentum = 1.000000e-01
// CHECK-SAME: ins(%{{[a-z_0-9]+}} : tensor<4x3x25xf32>)
// CHECK-SAME: running(%{{.+}}, %{{.+}} : tensor<3xf32>, tensor<3xf32>) -> tensor<4x3x25xf32>, tensor<3xf32>, tensor<3xf32>
func.func @batch_norm_training(%x: tensor<4x3x5x5xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>) -> (tensor<4x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %init = tensor.empty() : tensor<4x3x5x5xf32>
  %y:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1
      ins(%x : tensor<4x3x5x5xf32>)
      outs(%init : tensor<4x3x5x5xf32>) running(%rm, %rv : tensor<3xf32>, tensor<3xf32>)
      -> tensor<4x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %y#0, %y#1, %y#2 : tensor<4x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// GroupNorm: C becomes [G, C/G] (the scale too), G a parallel dim, C/G a
// reduced one, no groups left; then H and W collapse (C/G does not join
// them: the scale holds it). The statistics keep their [N, G] shape.
// CHECK-LABEL: func.func @group_norm
// CHECK: %[[X:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 4, 2, 6, 6] : tensor<2x8x6x6xf32> into tensor<2x4x2x6x6xf32>
// CHECK: %[[G:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
// CHECK: %[[XC:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2], [3, 4]] : tensor<2x4x2x6x6xf32> into tensor<2x4x2x36xf32>
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [2, 3] epsilon = 1.000000e-05 ins(%[[XC]] : tensor<2x4x2x36xf32>) scale(%[[G]] : tensor<4x2xf32>) affine_dims = [1, 2]
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape %[[Y]]#0 {{\[}}[0], [1], [2], [3, 4]]
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[E]] {{\[}}[0], [1, 2], [3], [4]] : tensor<2x4x2x6x6xf32> into tensor<2x8x6x6xf32>
// CHECK: return %[[R]], %[[Y]]#1, %[[Y]]#2
func.func @group_norm(%x: tensor<2x8x6x6xf32>, %g: tensor<8xf32>) -> (tensor<2x8x6x6xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %init = tensor.empty() : tensor<2x8x6x6xf32>
  %s = tensor.empty() : tensor<2x4xf32>
  %y:3 = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 4 on 1
      ins(%x : tensor<2x8x6x6xf32>) scale(%g : tensor<8xf32>) affine_dims = [1]
      outs(%init : tensor<2x8x6x6xf32>) saved(%s, %s : tensor<2x4xf32>, tensor<2x4xf32>)
      -> tensor<2x8x6x6xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  return %y#0, %y#1, %y#2 : tensor<2x8x6x6xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// GroupNorm over NHWC with a dynamic C: C/G is computed; G lands between
// the reduced dims, so only H and W collapse.
// CHECK-LABEL: func.func @group_norm_nhwc
// CHECK: %[[C:.+]] = tensor.dim %{{.+}}, %c3
// CHECK: %[[CG:.+]] = arith.divui %[[C]], %c8
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] output_shape [%{{.+}}, %{{.+}}, %{{.+}}, 8, %[[CG]]] : tensor<?x?x?x?xf32> into tensor<?x?x?x8x?xf32>
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] : tensor<?x?x?x8x?xf32> into tensor<?x?x8x?xf32>
// CHECK: norm.normalize rms axes = [1, 3] epsilon = 1.000000e-05 ins(%{{[a-z_0-9]+}} : tensor<?x?x8x?xf32>) outs
func.func @group_norm_nhwc(%x: tensor<?x?x?x?xf32>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %y = norm.normalize rms axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<?x?x?x?xf32>) outs(%init : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}

// -----

// Left alone: the scale holds W but not H (the run cannot be one dim), or
// its dims are in the other order; one reduced dim; memrefs.
// CHECK-LABEL: func.func @not_collapsible
// CHECK-NOT: tensor.collapse_shape
// CHECK: norm.normalize standard axes = [1, 2]
// CHECK: norm.normalize standard axes = [1, 2]
// CHECK: norm.normalize standard axes = [1]
// CHECK-NOT: tensor.collapse_shape
// CHECK: norm.normalize standard axes = [1, 2]
// CHECK-SAME: memref<2x3x4xf32>
func.func @not_collapsible(%x: tensor<2x3x4xf32>, %w: tensor<4xf32>, %hw: tensor<4x3xf32>, %m: memref<2x3x4xf32>, %mo: memref<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %init = tensor.empty() : tensor<2x3x4xf32>
  %a = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05
      ins(%x : tensor<2x3x4xf32>) scale(%w : tensor<4xf32>) affine_dims = [2]
      outs(%init : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %b = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05
      ins(%x : tensor<2x3x4xf32>) scale(%hw : tensor<4x3xf32>) affine_dims = [2, 1]
      outs(%init : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %c = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  norm.normalize standard axes = [1, 2] epsilon = 1.0e-05
      ins(%m : memref<2x3x4xf32>) outs(%mo : memref<2x3x4xf32>)
  return %a, %b, %c : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
