// Functions whose arguments feed several operands, and the edge cases the
// contract now covers, checked against the fp64 reference: one argument as
// both scale and bias, the input as its own scale, both running statistics
// from one argument, GroupNorm with given (N, G) statistics, a rank-0 bias
// with a dynamic batch (the batch-invariance row slices none of them).
// RUN: norm-runner %s --entry same_scale_bias --check | FileCheck %s
// RUN: norm-runner %s --entry input_as_scale --check | FileCheck %s
// RUN: norm-runner %s --entry rank0_bias --check | FileCheck %s --check-prefixes=CHECK,BATCH
// RUN: norm-runner %s --entry group_given --check | FileCheck %s
// RUN: norm-runner %s --entry group_given --check --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry running_from_one_argument --check | FileCheck %s
// RUN: norm-runner %s --entry cosine_same_argument --check | FileCheck %s
// BATCH: batch-invariance {{.*}} pass
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @same_scale_bias(%x: tensor<?x8xf32>, %g: tensor<8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x8xf32>) scale(%g : tensor<8xf32>) bias(%g : tensor<8xf32>) affine_dims = [1]
      outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func @input_as_scale(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<8xf32>) scale(%x : tensor<8xf32>) affine_dims = [0]
      outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func @rank0_bias(%x: tensor<?x8xf32>, %b: tensor<f32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x8xf32>) bias(%b : tensor<f32>) affine_dims = []
      outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func @group_given(%x: tensor<?x8x4xf32>, %m: tensor<?x2xf32>, %v: tensor<?x2xf32>) -> tensor<?x8x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8x4xf32>
  %e = tensor.empty(%n) : tensor<?x8x4xf32>
  %y = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05 groups = 2 on 1
      ins(%x : tensor<?x8x4xf32>) stats(%m, %v : tensor<?x2xf32>, tensor<?x2xf32>)
      outs(%e : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
  return %y : tensor<?x8x4xf32>
}
func.func @running_from_one_argument(%x: tensor<4x8xf32>, %rm: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %r:3 = norm.normalize standard axes = [0] epsilon = 1.0e-05 momentum = 0.1
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) running(%rm, %rm : tensor<8xf32>, tensor<8xf32>)
      -> tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
  return %r#0, %r#1, %r#2 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func @cosine_same_argument(%x: tensor<?x8xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty(%n, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<?x8xf32>, tensor<?x8xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}
