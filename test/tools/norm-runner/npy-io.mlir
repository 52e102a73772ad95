// norm-runner --input/--output round-trips .npy files in every dtype (bf16 as
// uint16 bits) and rejects malformed ones with exit status 2 and a message.
// RUN: %python %S/npy_io.py norm-runner %s | FileCheck %s

// CHECK: f32: exit 0, dtype float32, shape (5, 96), max error ok
// CHECK: f16: exit 0, dtype float16, shape (5, 96), max error ok
// CHECK: f64: exit 0, dtype float64, shape (5, 96), max error ok
// CHECK: bf16: exit 0, dtype uint16, shape (5, 96), max error ok
// CHECK: wrong dtype: exit 2: norm-runner: error: x_f16_as_f32.npy: holds f16, argument #0 is f32
// CHECK: wrong extent: exit 2: norm-runner: error: x_badshape.npy: has extent 97 in dim 1, argument #0 needs 96
// CHECK: wrong rank: exit 2: norm-runner: error: x_rank3.npy: has rank 3, argument #0 has rank 2
// CHECK: wrong scale: exit 2: norm-runner: error: g_short.npy: has extent 95 in dim 0, argument #1 needs 96
// CHECK: too few inputs: exit 2: norm-runner: error: the entry takes 3 arguments, got 2 --input files
// CHECK: too many outputs: exit 2: norm-runner: error: the entry returns 1 results, got 2 --output files
// CHECK: fortran order: exit 2: norm-runner: error: {{.*}}x_fortran.npy{{.*}}Fortran
// CHECK: integer data: exit 2: norm-runner: error: {{.*}}x_int.npy{{.*}}<i4
// CHECK: truncated: exit 2: norm-runner: error: {{.*}}x_truncated.npy{{.*}}
// CHECK: not npy: exit 2: norm-runner: error: {{.*}}x_garbage.npy{{.*}}
// CHECK: missing file: exit 2: norm-runner: error: {{.*}}nope.npy{{.*}}

func.func @ln_f32(%x: tensor<5x96xf32>, %g: tensor<96xf32>, %b: tensor<96xf32>) -> tensor<5x96xf32> {
  %init = tensor.empty() : tensor<5x96xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<5x96xf32>) scale(%g : tensor<96xf32>) bias(%b : tensor<96xf32>) affine_dims = [1]
      outs(%init : tensor<5x96xf32>) -> tensor<5x96xf32>
  return %y : tensor<5x96xf32>
}
func.func @ln_f16(%x: tensor<5x96xf16>, %g: tensor<96xf16>, %b: tensor<96xf16>) -> tensor<5x96xf16> {
  %init = tensor.empty() : tensor<5x96xf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<5x96xf16>) scale(%g : tensor<96xf16>) bias(%b : tensor<96xf16>) affine_dims = [1]
      outs(%init : tensor<5x96xf16>) -> tensor<5x96xf16>
  return %y : tensor<5x96xf16>
}
func.func @ln_f64(%x: tensor<?x?xf64>, %g: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf64>
  %d = tensor.dim %x, %c1 : tensor<?x?xf64>
  %init = tensor.empty(%n, %d) : tensor<?x?xf64>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf64>) scale(%g : tensor<?xf64>) bias(%b : tensor<?xf64>) affine_dims = [1]
      outs(%init : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %y : tensor<?x?xf64>
}
func.func @ln_bf16(%x: tensor<5x96xbf16>, %g: tensor<96xbf16>, %b: tensor<96xbf16>) -> tensor<5x96xbf16> {
  %init = tensor.empty() : tensor<5x96xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<5x96xbf16>) scale(%g : tensor<96xbf16>) bias(%b : tensor<96xbf16>) affine_dims = [1]
      outs(%init : tensor<5x96xbf16>) -> tensor<5x96xbf16>
  return %y : tensor<5x96xbf16>
}
