// RUN: norm-opt %s -convert-norm-to-linalg -split-input-file -verify-diagnostics

// The memref form has no decomposition: a diagnostic, not a silent no-op.
func.func @negative_memref_form(%x: memref<4x8xf32>, %o: memref<4x8xf32>) {
  // expected-error@+1 {{cannot be decomposed in the memref form: lower the tensor form, then bufferize}}
  norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : memref<4x8xf32>) outs(%o : memref<4x8xf32>)
  return
}

