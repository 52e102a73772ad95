// Calls that break a function's shapes, shapes too large for the machine
// or for 64-bit sizes, and inputs with no size: every one a clear error and
// exit status 2, never a crash, an LLVM abort or a partial write.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones((1, 8, 2, 2), np.float32)); np.save('%t/x20.npy', np.ones((20, 16), np.float32)); np.save('%t/g.npy', np.ones(16, np.float32))"
// RUN: not norm-runner %s --entry group_norm --input %t/x.npy --output %t/y.npy 2>&1 | FileCheck %s --check-prefix=GROUPS
// GROUPS: norm-runner: error: the --input files do not fit the function: argument #0 has extent 8 in dim 1, which does not split into 16 groups (arguments #0 {{.*}}x.npy)
// RUN: not norm-runner %s --entry dynamic_affine_dim --input %t/x20.npy --input %t/g.npy --output %t/y.npy 2>&1 | FileCheck %s --check-prefix=AFFINE
// AFFINE: norm-runner: error: the --input files do not fit the function: argument #0 has extent 20 in dim 0, expected 16
// RUN: not norm-runner %s --entry group_norm --check --shape 1x30x2x2 2>&1 | FileCheck %s --check-prefix=SHAPEGROUPS
// SHAPEGROUPS: norm-runner: error: --check: the input shape 1x30x2x2 does not split dim 1 into 16 groups
// RUN: not norm-runner %s --entry layer_norm --check --shape 8x767 2>&1 | FileCheck %s --check-prefix=FIT
// FIT: norm-runner: error: --check: the input shape 8x767 has extent 767 in dim 1, the input type 768 (argument #0 is f32 ?x768)
// RUN: not norm-runner %s --entry layer_norm --bench --shape 8x768x1 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: norm-runner: error: --bench: the input shape 8x768x1 has rank 3, the input rank 2
// RUN: not norm-runner %s --entry layer_norm --check --shape 99999999999999x768 2>&1 | FileCheck %s --check-prefix=MEMORY
// MEMORY: norm-runner: error: --check: the input shape 99999999999999x768 needs about {{.*}} EiB, more than this machine's {{.*}}
// RUN: not norm-runner %s --entry layer_norm --check --shape 2305843009213693952x768 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: norm-runner: error: --check: the input shape 2305843009213693952x768 is too large: its byte size overflows 64 bits
// RUN: not norm-runner %s --entry huge_static --check 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: norm-runner: error: --check: the input shape 1048576x1048576 needs about {{.*}} TiB, more than this machine's
// RUN: not norm-runner %s --entry layer_norm --input /dev/zero --input %t/g.npy --input %t/g.npy --output %t/y.npy 2>&1 | FileCheck %s --check-prefix=DEVZERO
// DEVZERO: norm-runner: error: /dev/zero: not a regular file (a pipe, device or directory); .npy inputs are read from files
// RUN: mkfifo %t/fifo
// RUN: not norm-runner %s --entry layer_norm --input %t/fifo --input %t/g.npy --input %t/g.npy --output %t/y.npy 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: norm-runner: error: {{.*}}fifo: not a regular file

func.func @group_norm(%x: tensor<?x?x2x2xf32>) -> tensor<?x?x2x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x2x2xf32>
  %c = tensor.dim %x, %c1 : tensor<?x?x2x2xf32>
  %e = tensor.empty(%n, %c) : tensor<?x?x2x2xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 16 on 1
      ins(%x : tensor<?x?x2x2xf32>) outs(%e : tensor<?x?x2x2xf32>) -> tensor<?x?x2x2xf32>
  return %y : tensor<?x?x2x2xf32>
}

// dim 0 of %x is dynamic, but the scale fixes it to 16.
func.func @dynamic_affine_dim(%x: tensor<?x16xf32>, %g: tensor<16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x16xf32>) scale(%g : tensor<16xf32>) affine_dims = [0]
      outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

func.func @layer_norm(%x: tensor<?x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x768xf32>
  %e = tensor.empty(%n) : tensor<?x768xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xf32>) scale(%g : tensor<768xf32>) bias(%b : tensor<768xf32>) affine_dims = [1]
      outs(%e : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

func.func @huge_static(%x: tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32> {
  %e = tensor.empty() : tensor<1048576x1048576xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<1048576x1048576xf32>) outs(%e : tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32>
  return %y : tensor<1048576x1048576xf32>
}
