// The harness catches the numerics bugs numerics.md forbids, planted through
// the test pass test-norm-plant-bug (test/lib, never in a pipeline):
// E[x²] − E[x]² fails on offset data, f16 accumulation fails broadly.
// RUN: norm-runner %s --entry layer_norm_f32 --check | FileCheck %s --check-prefix=CLEAN
// RUN: norm-runner %s --entry layer_norm_f16 --check | FileCheck %s --check-prefix=CLEAN
// RUN: not norm-runner %s --entry layer_norm_f32 --check --pre-pipeline=test-norm-plant-bug{bug=one-pass-variance} | FileCheck %s --check-prefix=ONEPASS
// RUN: not norm-runner %s --entry layer_norm_f16 --check --pre-pipeline=test-norm-plant-bug{bug=narrow-accumulation} | FileCheck %s --check-prefix=NARROW
// An op the verifier rejects, left by a pre-pipeline pass, stops the compile
// with the verifier's message (the target pipeline verifies only its ends):
// RUN: not norm-runner %s --entry layer_norm_f32 --check --pre-pipeline=test-norm-plant-bug{bug=invalid-op} 2>&1 | FileCheck %s --check-prefix=INVALID

// CLEAN: check: {{[0-9]+}} passed, 0 failed

// ONEPASS-DAG: offset_1e4 y {{.*}} FAIL
// ONEPASS-DAG: offset_ramp_1e4 y {{.*}} FAIL
// ONEPASS: check: {{[0-9]+}} passed, {{[1-9][0-9]*}} failed

// NARROW-DAG: random y {{.*}} FAIL
// NARROW-DAG: offset_100 y {{.*}} FAIL
// NARROW-DAG: square_overflow y {{.*}} FAIL
// NARROW: check: {{[0-9]+}} passed, {{[1-9][0-9]*}} failed

// INVALID: error: 'norm.normalize' op 'epsilon' must be non-negative
// INVALID: error: the pre-pipeline failed on @layer_norm_f32
// INVALID-NOT: check:

func.func @layer_norm_f32(%x: tensor<8x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<8x768xf32> {
  %init = tensor.empty() : tensor<8x768xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<8x768xf32>) scale(%g : tensor<768xf32>) bias(%b : tensor<768xf32>) affine_dims = [1]
      outs(%init : tensor<8x768xf32>) -> tensor<8x768xf32>
  return %y : tensor<8x768xf32>
}
func.func @layer_norm_f16(%x: tensor<8x4096xf16>, %g: tensor<4096xf16>, %b: tensor<4096xf16>) -> tensor<8x4096xf16> {
  %init = tensor.empty() : tensor<8x4096xf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<8x4096xf16>) scale(%g : tensor<4096xf16>) bias(%b : tensor<4096xf16>) affine_dims = [1]
      outs(%init : tensor<8x4096xf16>) -> tensor<8x4096xf16>
  return %y : tensor<8x4096xf16>
}
