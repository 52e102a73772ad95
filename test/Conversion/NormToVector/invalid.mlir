// RUN: norm-opt %s --convert-norm-to-vector --split-input-file -verify-diagnostics

func.func @f64(%x: memref<4x16xf64>, %y: memref<4x16xf64>) {
  // expected-error @+1 {{has no CPU vector kernel}}
  norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : memref<4x16xf64>) outs(%y : memref<4x16xf64>)
  return
}

// -----

func.func @inner_dim_not_reduced(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  // expected-error @+1 {{has no CPU vector kernel}}
  norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : memref<4x16xf32>) outs(%y : memref<4x16xf32>)
  return
}
