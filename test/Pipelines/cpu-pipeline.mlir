// norm-lower-to-cpu-pipeline: the memref-in / memref-out ABI after
// bufferization, then the LLVM dialect with C interfaces, vector code and
// no 16-bit float libcall.
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline -mlir-print-ir-after=buffer-results-to-out-params -o /dev/null 2>&1 | FileCheck %s --check-prefix=ABI
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline="vector-kernels=0 vector-bits=512" | FileCheck %s --check-prefixes=CHECK,W512
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline="vector-kernels=0 vector-bits=256" | FileCheck %s --check-prefixes=CHECK,W256
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=vector-bits=256 | FileCheck %s --check-prefix=KERNEL
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=openmp=1 | FileCheck %s --check-prefix=OMP
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline="openmp=1 vector-kernels=0" | FileCheck %s --check-prefix=OMP

// Each tensor result is a trailing out-parameter; the running statistics
// arguments stay inputs (read-only) with their own out-parameters.
// ABI: func.func @layer_norm(%{{.+}}: memref<?x768xbf16>, %{{.+}}: memref<768xbf16>, %{{.+}}: memref<768xbf16>, %{{.+}}: memref<?x768xbf16>) {
// ABI: func.func @batch_norm_training(%{{.+}}: memref<4x8x5xf32>, %[[RM:.+]]: memref<8xf32>, %[[RV:.+]]: memref<8xf32>, %{{.+}}: memref<4x8x5xf32>, %{{.+}}: memref<8xf32>, %{{.+}}: memref<8xf32>) {

// CHECK-NOT: norm.normalize
// CHECK-NOT: linalg.
// Without the vector kernels a LayerNorm takes the row strategy of
// norm-tile-and-vectorize: a 768-element row is whole steps of four
// vectors (16 f32 lanes at 512 bits, 8 at 256), no mask, widened to f32 in
// registers. The width is pinned: the host's differs between machines.
// CHECK-LABEL: llvm.func @layer_norm
// CHECK-NOT: llvm.intr.masked.load
// W512: llvm.load {{.*}} -> vector<64xbf16>
// W256: llvm.load {{.*}} -> vector<32xbf16>
// CHECK-NOT: llvm.intr.masked.load
// The second pass over a row prefetches the next row into L2
// (norm-prefetch-next-slice).
// CHECK: "llvm.intr.prefetch"(%{{.+}}) <{cache = 1 : i32, hint = 2 : i32, rw = 0 : i32}>
// CHECK-NOT: llvm.intr.masked.load
// CHECK-NOT: __truncsfbf2
// CHECK-LABEL: llvm.func @_mlir_ciface_layer_norm
// CHECK-LABEL: llvm.func @batch_norm_training
// CHECK-LABEL: llvm.func @_mlir_ciface_batch_norm_training

// With the vector kernels (the default): bf16 rows load as vector<8xbf16>
// and widen to f32 in registers.
// KERNEL-NOT: norm.normalize
// KERNEL-NOT: linalg.
// KERNEL-LABEL: llvm.func @layer_norm
// KERNEL: llvm.load {{.*}} -> vector<8xbf16>
// KERNEL-NOT: __truncsfbf2
// KERNEL-LABEL: llvm.func @_mlir_ciface_layer_norm
// KERNEL-LABEL: llvm.func @batch_norm_training
// Its runs (5 elements) are shorter than a vector: masked loads only.
// KERNEL: llvm.intr.masked.load {{.*}} -> vector<8xf32>
// KERNEL-LABEL: llvm.func @_mlir_ciface_batch_norm_training

// OMP: llvm.func @layer_norm
// OMP: omp.parallel
// OMP: omp.wsloop

func.func @layer_norm(%x: tensor<?x768xbf16>, %g: tensor<768xbf16>, %b: tensor<768xbf16>) -> tensor<?x768xbf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x768xbf16>
  %init = tensor.empty(%n) : tensor<?x768xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xbf16>) scale(%g : tensor<768xbf16>) bias(%b : tensor<768xbf16>) affine_dims = [1]
      outs(%init : tensor<?x768xbf16>) -> tensor<?x768xbf16>
  return %y : tensor<?x768xbf16>
}
func.func @batch_norm_training(%x: tensor<4x8x5xf32>, %rm: tensor<8xf32>, %rv: tensor<8xf32>) -> (tensor<4x8x5xf32>, tensor<8xf32>, tensor<8xf32>) {
  %init = tensor.empty() : tensor<4x8x5xf32>
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased
      ins(%x : tensor<4x8x5xf32>) outs(%init : tensor<4x8x5xf32>) running(%rm, %rv : tensor<8xf32>, tensor<8xf32>)
      -> tensor<4x8x5xf32>, tensor<8xf32>, tensor<8xf32>
  return %0#0, %0#1, %0#2 : tensor<4x8x5xf32>, tensor<8xf32>, tensor<8xf32>
}
