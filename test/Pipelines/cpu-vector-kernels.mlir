// The CPU strategy of norm-lower-to-cpu-pipeline for row norms: after
// bufferization the ops become vector kernels (convert-norm-to-vector). The
// statistics and normalize loops of a row run inside one parallel loop,
// the hot loops carry vector accumulators of the target width, and nothing
// is allocated, copied or called.
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=vector-bits=256 -mlir-print-ir-after=convert-norm-to-vector -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=vector-bits=512 -mlir-print-ir-after=convert-norm-to-vector -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX512
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline="vector-bits=256 openmp=1" | FileCheck %s --check-prefix=LLVM

// AVX2-LABEL: func.func @layer_norm
// AVX2-NOT: memref.alloc
// AVX2-NOT: memref.copy
// AVX2-NOT: call
// AVX2: scf.parallel
// AVX2-NOT: scf.reduce
// Pass 1: Σx in 4 accumulators.
// AVX2: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2-NOT: scf.reduce
// Pass 2 (Σd, Σd²) first with k = 1; max|x| and a scaled pass 2 only for
// slices whose sum of squares is out of range.
// AVX2: scf.while
// AVX2-NOT: scf.reduce
// AVX2: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2: scf.condition
// AVX2-NOT: scf.reduce
// AVX2: iter_args({{.*}}) -> (vector<8xi32>)
// AVX2-NOT: scf.reduce
// AVX2-NOT: call
// AVX2: vector.store {{.*}} : memref<?x4096xf32>, vector<8xf32>
// AVX2: scf.reduce
// AVX2-NOT: memref.alloc
// AVX2-NOT: memref.copy
// AVX2-NOT: call
// AVX2: return

// AVX2-LABEL: func.func @rms_norm
// The bf16 weight is widened to f32 once, outside the row loop, and
// permuted as the paired loads of x are.
// AVX2: memref.alloc(%{{.+}}) : memref<?xf32>
// AVX2: vector.load {{.*}} : memref<?xbf16>, vector<16xbf16>
// AVX2: vector.shuffle
// AVX2: vector.store {{.*}} : memref<?xf32>, vector<8xf32>
// AVX2-NOT: memref.alloc
// AVX2: scf.parallel
// AVX2-NOT: scf.reduce
// One pass, Σx² (max|x| only for slices whose sum is out of range).
// AVX2: scf.while
// AVX2-NOT: scf.reduce
// AVX2: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2: scf.condition
// AVX2-NOT: scf.reduce
// AVX2: iter_args({{.*}}) -> (vector<8xi32>)
// AVX2-NOT: scf.reduce
// AVX2-NOT: call
// The normalize pass: pairs of vectors, then at most one vector.
// AVX2: vector.load {{.*}} : memref<?x?xbf16>, vector<16xbf16>
// AVX2: vector.store {{.*}} : memref<?x?xbf16>, vector<16xbf16>
// AVX2: vector.load {{.*}} : memref<?x?xbf16>, vector<8xbf16>
// AVX2: arith.extf {{.*}} : vector<8xbf16> to vector<8xf32>
// AVX2: vector.store {{.*}} : memref<?x?xbf16>, vector<8xbf16>
// AVX2: scf.reduce
// AVX2-NOT: memref.alloc
// AVX2: memref.dealloc
// AVX2-NOT: memref.alloc
// AVX2: return

// AVX512-LABEL: func.func @layer_norm
// AVX512: iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// AVX512: scf.while
// AVX512: iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// AVX512: vector.store {{.*}} : memref<?x4096xf32>, vector<16xf32>
// AVX512-LABEL: func.func @rms_norm
// AVX512: vector.load {{.*}} : memref<?x?xbf16>, vector<32xbf16>
// AVX512: vector.store {{.*}} : memref<?x?xbf16>, vector<32xbf16>

// In LLVM form the row loop is an OpenMP worksharing loop holding the
// reductions and the stores; the loops call nothing (no malloc, no
// memrefCopy, no libm or 16-bit float conversion routine).
// LLVM-LABEL: llvm.func @layer_norm
// LLVM-NOT: llvm.call
// LLVM: omp.parallel
// LLVM: omp.wsloop
// LLVM: llvm.intr.vector.reduce.fadd
// LLVM: llvm.intr.vector.reduce.fadd
// LLVM: llvm.intr.vector.reduce.smax
// LLVM: llvm.store {{.*}} : vector<8xf32>, !llvm.ptr
// LLVM: omp.yield
// LLVM-NOT: llvm.call
// LLVM: llvm.return
// LLVM-LABEL: llvm.func @_mlir_ciface_layer_norm
// RMSNorm allocates its widened weight once per call, outside the row loop.
// LLVM-LABEL: llvm.func @rms_norm
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call
// The scalar tail of the weight's widening keeps its annotation down to the
// latch branch, where the translation makes it !llvm.loop metadata.
// LLVM: llvm.br ^{{.+}} {loop_annotation = #{{.+}}}
// LLVM-NOT: llvm.call
// LLVM: omp.wsloop
// LLVM: omp.yield
// LLVM-NOT: llvm.call
// LLVM: llvm.call @free
// LLVM-NOT: llvm.call
// LLVM: llvm.return

func.func @layer_norm(%x: tensor<?x4096xf32>, %g: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<?x4096xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4096xf32>
  %init = tensor.empty(%n) : tensor<?x4096xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x4096xf32>) scale(%g : tensor<4096xf32>) bias(%b : tensor<4096xf32>) affine_dims = [1]
      outs(%init : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}

func.func @rms_norm(%x: tensor<?x?xbf16>, %w: tensor<?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %d = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %init = tensor.empty(%n, %d) : tensor<?x?xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x?xbf16>) scale(%w : tensor<?xbf16>) affine_dims = [1]
      outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
