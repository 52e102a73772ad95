// RUN: norm-opt %s -canonicalize -split-input-file | FileCheck %s

// Axes are a set: canonicalization sorts them.
// CHECK-LABEL: func.func @sort_axes
// CHECK: norm.normalize standard axes = [0, 2, 3]
func.func @sort_axes(%x: tensor<2x3x4x5xf32>, %o: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %0 = norm.normalize standard axes = [3, 0, 2] epsilon = 1.0e-05
      ins(%x : tensor<2x3x4x5xf32>) outs(%o : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// A scale of ones and a bias of zeros are dropped, with affine_dims.
// CHECK-LABEL: func.func @drop_identity_affine
// CHECK-NOT: arith.constant
// CHECK: norm.normalize standard axes = [1] epsilon = 1.000000e-05 ins(%{{[a-z0-9_]+}} : tensor<4x8xf32>) outs(
func.func @drop_identity_affine(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ones = arith.constant dense<1.0> : tensor<8xf32>
  %zeros = arith.constant dense<0.0> : tensor<8xf32>
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<4x8xf32>)
      scale(%ones : tensor<8xf32>) bias(%zeros : tensor<8xf32>) affine_dims = [1]
      outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Only the identity part goes: a real scale stays, the zero bias is dropped.
// CHECK-LABEL: func.func @drop_identity_bias
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xbf16>, %[[G:.+]]: tensor<8xbf16>, %[[O:.+]]: tensor<4x8xbf16>)
// CHECK: norm.normalize rms axes = [1] epsilon = 1.000000e-05 ins(%[[X]] : tensor<4x8xbf16>) scale(%[[G]] : tensor<8xbf16>) affine_dims = [1] outs(%[[O]]
func.func @drop_identity_bias(%x: tensor<4x8xbf16>, %g: tensor<8xbf16>, %o: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %zeros = arith.constant dense<0.0> : tensor<8xbf16>
  %0 = norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<4x8xbf16>)
      scale(%g : tensor<8xbf16>) bias(%zeros : tensor<8xbf16>) affine_dims = [1]
      outs(%o : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// Training results keep their uses when the identity scale is dropped.
// CHECK-LABEL: func.func @drop_identity_scale_training
// CHECK: %[[R:.+]]:3 = norm.normalize standard axes = [0, 2] epsilon = 1.000000e-05 momentum = 1.000000e-01 unbiased ins
// CHECK-NOT: scale(
// CHECK-SAME: bias(
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
func.func @drop_identity_scale_training(%x: tensor<2x3x5xf32>, %b: tensor<3xf32>, %o: tensor<2x3x5xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>) -> (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %ones = arith.constant dense<1.0> : tensor<3xf32>
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased
      ins(%x : tensor<2x3x5xf32>)
      scale(%ones : tensor<3xf32>) bias(%b : tensor<3xf32>) affine_dims = [1]
      outs(%o : tensor<2x3x5xf32>) running(%rm, %rv : tensor<3xf32>, tensor<3xf32>)
      -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0, %0#1, %0#2 : tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// A scale that is not all ones stays.
// CHECK-LABEL: func.func @negative_keep_scale
// CHECK: %[[S:.+]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK: norm.normalize standard axes = [1] epsilon = 1.000000e-05 ins(%{{[a-z0-9_]+}} : tensor<4x8xf32>) scale(%[[S]] : tensor<8xf32>) affine_dims = [1]
func.func @negative_keep_scale(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %twos = arith.constant dense<2.0> : tensor<8xf32>
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<4x8xf32>) scale(%twos : tensor<8xf32>) affine_dims = [1]
      outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A normalization whose result is unused stays: on tensors it has no side
// effects, but DCE of it is left to the generic patterns, which need Pure.
// Sorted axes and non-constant affine operands leave the op unchanged.
// CHECK-LABEL: func.func @negative_canonical_already
// CHECK: norm.normalize standard axes = [1] epsilon = 1.000000e-05 ins(%{{[a-z0-9_]+}} : tensor<4x8xf32>) scale(%{{[a-z0-9_]+}} : tensor<8xf32>) bias(%{{[a-z0-9_]+}} : tensor<8xf32>) affine_dims = [1]
func.func @negative_canonical_already(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<4x8xf32>) scale(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) affine_dims = [1]
      outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
