// The edges of the numerics contract, checked against the fp64 reference on
// both paths: the smallest and largest epsilon an f32 accumulation holds
// (constant and zero rows give beta, never NaN), the saved inverse norm of a
// zero l2 slice (1/eps, +Inf with eps = 0), momentum 0 (the running
// statistics stay as they are, even for a batch holding Inf or NaN), an
// f16 input with an f32 output, and long slices holding one huge element
// (A2 of the one_huge case): a vector lane adds at most 16 terms before
// they join the compensated totals, or the lane that holds the huge square
// rounds the others away and biases the variance low. These seeds and
// shapes failed A2 with 64 terms per lane (rmse/base 4.3-6.5).
// RUN: norm-runner %s --entry smallest_epsilon --check | FileCheck %s
// RUN: norm-runner %s --entry smallest_epsilon --check --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry smallest_epsilon_rms --check | FileCheck %s
// RUN: norm-runner %s --entry largest_epsilon --check | FileCheck %s
// RUN: norm-runner %s --entry l2_saved --check | FileCheck %s
// RUN: norm-runner %s --entry l2_saved --check --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry l2_saved_eps0 --check | FileCheck %s
// RUN: norm-runner %s --entry momentum0 --check | FileCheck %s
// RUN: norm-runner %s --entry momentum0 --check --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry f16_to_f32 --check | FileCheck %s
// RUN: norm-runner %s --entry ln_long --check --shape 2x14700 --seed 5 | FileCheck %s
// RUN: norm-runner %s --entry ln_long --check --shape 2x14700 --seed 5 --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry ln_long --check --shape 2x14700 --seed 8 --vector-kernels=0 | FileCheck %s
// RUN: norm-runner %s --entry bn_training_nchw --check --shape 3x2x70x70 | FileCheck %s
// RUN: norm-runner %s --entry bn_training_nchw --check --shape 3x2x70x70 --vector-kernels=0 | FileCheck %s
// A zero row's saved inverse norm, from a file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; x = np.ones((3, 16), np.float32); x[1] = 0; np.save('%t/x.npy', x)"
// RUN: norm-runner %s --entry l2_saved --input %t/x.npy --output %t/y.npy --output %t/s.npy
// RUN: %python -c "import numpy as np; print(np.load('%t/s.npy'))" | FileCheck %s --check-prefix=SAVED
// RUN: norm-runner %s --entry l2_saved_eps0 --input %t/x.npy --output %t/y.npy --output %t/s.npy
// RUN: %python -c "import numpy as np; print(np.load('%t/s.npy'))" | FileCheck %s --check-prefix=SAVED0
// CHECK: check: {{[0-9]+}} passed, 0 failed
// SAVED: [0.25 1.   0.25]
// SAVED0: [0.25  inf 0.25]

func.func @smallest_epsilon(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.2e-38
      ins(%x : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
func.func @smallest_epsilon_rms(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.2e-38
      ins(%x : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
func.func @largest_epsilon(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %y = norm.normalize standard axes = [1] epsilon = 3.0e+38
      ins(%x : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
func.func @l2_saved(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %s = tensor.empty(%n) : tensor<?xf32>
  %y:2 = norm.normalize l2 axes = [1] epsilon = 1.0
      ins(%x : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) saved(%s : tensor<?xf32>) -> tensor<?x16xf32>, tensor<?xf32>
  return %y#0, %y#1 : tensor<?x16xf32>, tensor<?xf32>
}
func.func @l2_saved_eps0(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %s = tensor.empty(%n) : tensor<?xf32>
  %y:2 = norm.normalize l2 axes = [1] epsilon = 0.0
      ins(%x : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) saved(%s : tensor<?xf32>) -> tensor<?x16xf32>, tensor<?xf32>
  return %y#0, %y#1 : tensor<?x16xf32>, tensor<?xf32>
}
func.func @momentum0(%x: tensor<?x8xf32>, %rm: tensor<8xf32>, %rv: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %r:3 = norm.normalize standard axes = [0] epsilon = 1.0e-05 momentum = 0.0
      ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) running(%rm, %rv : tensor<8xf32>, tensor<8xf32>)
      -> tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>
  return %r#0, %r#1, %r#2 : tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>
}
func.func @f16_to_f32(%x: tensor<?x64xf16>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf16>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x64xf16>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
func.func @ln_long(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %m = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
func.func @bn_training_nchw(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %init = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %sm = tensor.empty(%d1) : tensor<?xf32>
  %sv = tensor.empty(%d1) : tensor<?xf32>
  %r:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 saved_variance
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?x?x?xf32>) saved(%sm, %sv : tensor<?xf32>, tensor<?xf32>)
      -> tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#0, %r#1, %r#2 : tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>
}
