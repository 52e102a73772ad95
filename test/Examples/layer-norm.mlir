// The example spec of README's main job (scripts/run-example.sh): a BERT-style
// LayerNorm over 768 features, any number of rows, compiled and checked
// against the fp64 reference by norm-runner.
// RUN: norm-runner %s --check --shape 64x768 | FileCheck %s
// CHECK: max |y - y_fp64|
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @layer_norm(%x: tensor<?x768xf32>, %gamma: tensor<768xf32>,
                      %beta: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x768xf32>
  %init = tensor.empty(%rows) : tensor<?x768xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xf32>)
      scale(%gamma : tensor<768xf32>) bias(%beta : tensor<768xf32>) affine_dims = [1]
      outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}
