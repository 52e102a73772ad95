// The testing-only planted bugs that the harness must catch
// (test/Integration/CPU/planted-bugs.mlir runs them).
// RUN: norm-opt %s -convert-norm-to-linalg=test-plant-bug=one-pass-variance -canonicalize -cse | FileCheck %s --check-prefix=ONEPASS
// RUN: norm-opt %s -convert-norm-to-linalg=test-plant-bug=narrow-accumulation -canonicalize -cse | FileCheck %s --check-prefix=NARROW

// ONEPASS-LABEL: func.func @layer_norm
// ONEPASS: %[[SUM:.+]] = linalg.generic
// ONEPASS: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
// ONEPASS:   arith.divf
// ONEPASS: %[[SS:.+]] = linalg.generic
// ONEPASS:   %[[E:.+]] = arith.extf
// ONEPASS:   arith.mulf %[[E]], %[[E]] : f32
// ONEPASS: linalg.generic {{.*}} ins(%[[SS]], %[[MEAN]] : tensor<4xf32>, tensor<4xf32>)
// ONEPASS:   ^bb0(%[[S:.+]]: f32, %[[M:.+]]: f32, %{{.+}}: f32):
// ONEPASS:   %[[M2:.+]] = arith.mulf %[[M]], %[[M]] : f32
// ONEPASS:   %[[NM2:.+]] = arith.mulf %[[M2]], %{{.+}} : f32
// ONEPASS:   arith.subf %[[S]], %[[NM2]] : f32

// NARROW-LABEL: func.func @layer_norm
// NARROW-NOT: f32
// NARROW: return
func.func @layer_norm(%x: tensor<4x64xf16>, %init: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<4x64xf16>) outs(%init : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}
