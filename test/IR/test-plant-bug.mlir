// The testing-only planted bugs that the harness must catch
// (test/Integration/CPU/planted-bugs.mlir runs them).
// RUN: norm-opt %s -test-norm-plant-bug=bug=one-pass-variance -canonicalize -cse | FileCheck %s --check-prefix=ONEPASS
// RUN: norm-opt %s -test-norm-plant-bug=bug=narrow-accumulation -canonicalize -cse | FileCheck %s --check-prefix=NARROW
// RUN: not norm-opt %s -test-norm-plant-bug=bug=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS

// ONEPASS-LABEL: func.func @layer_norm
// ONEPASS: %[[SUMS:.+]]:2 = linalg.generic
// ONEPASS:   %[[E:.+]] = arith.extf
// ONEPASS:   arith.mulf %[[E]], %[[E]] : f32
// ONEPASS: %[[MOM:.+]]:2 = linalg.generic {{.*}} ins(%[[SUMS]]#0, %[[SUMS]]#1 : tensor<4xf32>, tensor<4xf32>)
// ONEPASS:   %[[M:.+]] = arith.divf
// ONEPASS:   %[[MS:.+]] = arith.divf
// ONEPASS:   %[[M2:.+]] = arith.mulf %[[M]], %[[M]] : f32
// ONEPASS:   arith.subf %[[MS]], %[[M2]] : f32
// ONEPASS: norm.normalize standard {{.*}} stats(%[[MOM]]#0, %[[MOM]]#1

// NARROW-LABEL: func.func @layer_norm
// NARROW-NOT: f32
// NARROW-NOT: norm.normalize
// NARROW: return

// BOGUS: unknown bug 'bogus'
func.func @layer_norm(%x: tensor<4x64xf16>, %init: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<4x64xf16>) outs(%init : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}
