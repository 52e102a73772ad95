// norm-runner --bench prints, per shape, the time per call, the bytes of the
// byte model (arguments read once, results written once), GB/s and a
// same-process copy of the same traffic as the roofline. Timings are not
// asserted here (benchmarks live outside the test suite); the byte model is.
// RUN: norm-runner %s --bench --bench-seconds=0.01 --shape 8x256 --shape 3x1000 --json %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: not norm-runner %s --bench --check 2>&1 | FileCheck %s --check-prefix=BOTH
// --dump-object writes the compiled kernel, with its C interface, for
// profiling it under a driver of one's own.
// RUN: rm -f %t.o
// RUN: norm-runner %s --bench --bench-seconds=0.001 --shape 4x16 --dump-object=%t.o | FileCheck %s --check-prefix=DUMP
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: not norm-runner %s --dump-object=%t.missing/k.o 2>&1 | FileCheck %s --check-prefix=NODIR

// CHECK: norm-runner: @layer_norm of {{.*}}bench.mlir, 1 thread(s)
// CHECK: shape us/call MB moved GB/s copy GB/s of copy
// 8x256 f32 in and out plus 2x256 affine: (2048 + 2048 + 512) * 4 bytes.
// CHECK: 8x256 {{[0-9.]+}} 0.018 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}%
// 3x1000: (3000 + 3000 + 2000) * 4 bytes.
// CHECK: 3x1000 {{[0-9.]+}} 0.032 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}%
// CHECK: compile: {{[0-9.]+}} ms

// DUMP: 4x16
// SYMBOLS: T _mlir_ciface_layer_norm
// SYMBOLS: T layer_norm
// NODIR: norm-runner: error: --dump-object: cannot write {{.*}}missing/k.o: {{.+}}

// JSON: "bench": [
// JSON: "bytes": 18432
// JSON: "shape": "8x256"
// JSON: "bytes": 32000
// JSON: "shape": "3x1000"

// BOTH: --check and --bench are separate runs

func.func @layer_norm(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %d) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
