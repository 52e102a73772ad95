// The tiled linalg strategy (norm-tile-and-vectorize) on ops whose innermost
// dim is not reduced, through the CPU pipeline, checked against the fp64
// reference on the adversarial set: BatchNorm inference over [N, C] and
// NHWC (row blocks over threads, vectors of four registers, masked tails),
// serial and on OpenMP threads, in f32, f16 and bf16, static and dynamic; and
// the ops that compute their statistics through the pass's
// computed-statistics form (column tiles, accumulators in registers); and
// LayerNorm / RMSNorm rows through its row strategy (--vector-kernels=0):
// rows of one step, of blocks with a masked tail, 1x100000 (25 blocks), empty,
// and short ones whose tiles of 16, 8 or 1 rows are picked at run time;
// and InstanceNorm over NCHW and LayerNorm over two dims with a 2-D scale,
// whose reduced dims are collapsed into one row first (H·W = 1, a masked
// tail, 90000 elements in 22 blocks and a tail, empty); and NCHW GroupNorm,
// its groups a parallel dim, each group's [C/G, H·W] one row (C/G = 1,
// odd H·W, saved mean and rstd, bf16); and NCHW BatchNorm training, each
// channel's slice N rows of H·W reduced one after the other (saved and
// running statistics, f32 dynamic, bf16); and short static rows, 8 or 16 per
// tile (a dynamic count of rows: fewer than a tile, a tile and a few, none;
// InstanceNorm's rows of H·W with a scale per channel and saved statistics;
// rows under a leading dim, bf16).
// RUN: norm-runner %s --entry bn_nc_inference_f32_dynamic --check --shape 1000x200 --shape 7x1030 --shape 3x1 --shape 0x5 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry bn_nc_inference_f32_dynamic --openmp --check --shape 1000x200 --shape 7x1030 | FileCheck %s
// RUN: norm-runner %s --entry bn_nhwc_inference_f32_dynamic --check --shape 3x7x5x40 --shape 2x1x1x300 --shape 1x3x3x1 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry bn_nhwc_inference_f32_dynamic --openmp --check --shape 3x7x5x40 | FileCheck %s
// RUN: norm-runner %s --entry bn_nc_inference_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry bn_nhwc_inference_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry bn_nc_training_f32_dynamic --check --shape 1000x200 --shape 7x1030 --shape 3x1 --pre-pipeline='norm-tile-and-vectorize{computed-statistics=1}' | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry bn_nhwc_training_bf16_static --openmp --check --pre-pipeline='norm-tile-and-vectorize{computed-statistics=1 vector-bits=256}' | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry bn_nc_training_f32_dynamic --openmp --check --shape 1000x200 --shape 70000x3 --shape 0x5 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry in_nhwc_f32_dynamic --openmp --check --shape 3x5x7x40 --shape 2x1x1x70 | FileCheck %s
// RUN: norm-runner %s --entry in_nhwc_f32_dynamic --check --shape 3x5x7x40 --pre-pipeline='norm-tile-and-vectorize{computed-statistics=1}' | FileCheck %s
// RUN: norm-runner %s --entry ln_short_f32_dynamic --vector-kernels=0 --check --shape 37x128 --shape 3x128 --shape 16x128 --shape 2048x128 --shape 0x128 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry ln_short_f32_dynamic --vector-kernels=0 --openmp --check --shape 37x128 --shape 2048x128 | FileCheck %s
// RUN: norm-runner %s --entry in_nchw_short_f32_static --vector-kernels=0 --check | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry rms_short_bf16_static --vector-kernels=0 --openmp --check | FileCheck %s
// RUN: norm-runner %s --entry ln_f32_dynamic --vector-kernels=0 --check --shape 5x4097 --shape 1x100000 --shape 7x63 --shape 3x1 --shape 0x5 --shape 37x128 --shape 17x64 --shape 9x100 --shape 8x129 --shape 33x16 --shape 7x200 --shape 5x700 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry ln_f32_dynamic --vector-kernels=0 --openmp --check --shape 9x768 --shape 2x8200 --shape 37x128 --shape 33x16 --shape 7x200 | FileCheck %s
// RUN: norm-runner %s --entry rms_bf16_static --vector-kernels=0 --check | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry rms_bf16_static --vector-kernels=0 --openmp --check | FileCheck %s
// RUN: norm-runner %s --entry in_nchw_f32_dynamic --vector-kernels=0 --check --shape 3x5x7x41 --shape 2x3x1x1 --shape 1x2x300x300 --shape 0x3x4x4 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry in_nchw_f32_dynamic --vector-kernels=0 --openmp --check --shape 4x6x9x9 | FileCheck %s
// RUN: norm-runner %s --entry ln2d_f16_static --vector-kernels=0 --check | FileCheck %s
// RUN: norm-runner %s --entry gn_nchw_f32_dynamic --vector-kernels=0 --check --shape 2x8x5x7 --shape 1x4x1x1 --shape 3x12x33x33 --shape 0x4x2x2 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry gn_nchw_f32_dynamic --vector-kernels=0 --openmp --check --shape 2x8x9x9 | FileCheck %s
// RUN: norm-runner %s --entry gn_nchw_bf16_static --vector-kernels=0 --check | FileCheck %s
// NCHW BatchNorm training: a channel's slice is N rows of H·W (N = 1, one
// element, a masked tail, two blocks of a row, empty), running statistics.
// RUN: norm-runner %s --entry bn_nchw_training_f32_dynamic --vector-kernels=0 --check --shape 2x3x5x7 --shape 1x1x1x1 --shape 5x4x1x4099 --shape 1x2x9x9 --shape 0x3x4x4 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry bn_nchw_training_f32_dynamic --vector-kernels=0 --openmp --check --shape 3x5x9x11 | FileCheck %s
// RUN: norm-runner %s --entry bn_nchw_training_bf16_static --vector-kernels=0 --check | FileCheck %s
// Outputs of 16 MiB and more: streaming stores where a row starts 64-byte
// aligned (every fourth 1100-element row; every 400x400 plane, 256x256
// group row, 256-channel NHWC row), ordinary ones elsewhere; the row
// strategy and the row blocks of given statistics.
// RUN: norm-runner %s --entry ln_f32_dynamic --vector-kernels=0 --check --shape 4096x1100 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry gn_nchw_f32_dynamic --vector-kernels=0 --openmp --check --shape 2x32x256x256 | FileCheck %s
// RUN: norm-runner %s --entry bn_nc_inference_f32_dynamic --check --shape 4096x1100 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry bn_nhwc_inference_f32_dynamic --openmp --check --shape 16x32x32x256 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 norm-runner %s --entry in_nchw_f32_dynamic --vector-kernels=0 --openmp --check --shape 2x16x400x400 | FileCheck %s
// CHECK: check: {{[1-9][0-9]*}} passed, 0 failed

// The pipeline takes the strategy for given statistics, and for computed
// ones with OpenMP only (the serial loops are faster on one thread), and
// leaves no copy and no call (allocation, libcall) in the threads' loops of
// an inference.
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=vector-bits=512 -mlir-print-ir-after=norm-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=PATH
// PATH-LABEL: func.func @bn_nc_inference_f32_dynamic
// PATH: scf.forall
// PATH: scf.for
// PATH: vector.transfer_read {{.*}} vector<64xf32>
// PATH-NOT: linalg.generic
// PATH-NOT: norm.normalize
// PATH-LABEL: func.func @bn_nc_training_f32_dynamic
// PATH-NOT: scf.forall
// PATH: norm.normalize
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline="openmp=1 vector-bits=512" -mlir-print-ir-after=norm-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=OMP
// OMP-LABEL: func.func @bn_nc_training_f32_dynamic
// OMP-COUNT-4: scf.forall
// OMP-NOT: norm.normalize
// OMP-LABEL: func.func @bn_nhwc_inference_f32_dynamic
// Without the vector kernels, InstanceNorm over NCHW and the 2-D LayerNorm
// take the row strategy on their collapsed form, and the result is written
// in place (norm-expand-reshaped-allocs): no copy. The normalize step's
// whole vectors stream their stores into outputs of 16 MiB or more (a
// run-time check for dynamic shapes: norm-stream-stores), not into small
// static ones.
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline="vector-kernels=0 vector-bits=512" -mlir-print-ir-after=norm-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS-LABEL: func.func @in_nchw_f32_dynamic
// ROWS: %[[X:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
// ROWS: scf.forall (%[[N:.+]], %[[T:.+]]) = (0, 0) to (%{{.+}}, %{{.+}}) step (1, %[[RPT:.+]]) shared_outs
// ROWS: affine.min #{{.+}}(%[[T]])[%{{.+}}, %[[RPT]]]
// ROWS: %[[C:.+]] = affine.apply #{{.+}}()[%[[T]], %{{.+}}]
// ROWS: vector.transfer_read %[[X]][%[[N]], %[[C]], %{{.+}}], {{.*}} : tensor<?x?x?xf32>, vector<64xf32>
// ROWS-NOT: norm.normalize
// ROWS: tensor.expand_shape
// ROWS-LABEL: func.func @ln2d_f16_static
// ROWS: tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<24x33xf16> into tensor<792xf16>
// ROWS: scf.forall (%{{.+}}) in (5)
// ROWS: vector<64xf16>
// ROWS-NOT: norm.normalize
// ROWS-LABEL: func.func @gn_nchw_f32_dynamic
// ROWS: %[[GX:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<?x4x?x?xf32> into tensor<?x4x?xf32>
// ROWS: scf.forall (%[[GN:.+]], %[[GG:.+]]) in (%{{.+}}, 4)
// ROWS: vector.transfer_read %[[GX]][%[[GN]], %[[GG]], %{{.+}}], {{.*}} : tensor<?x4x?xf32>, vector<64xf32>
// ROWS-NOT: norm.normalize
// ROWS-LABEL: func.func @bn_nchw_training_f32_dynamic
// ROWS: %[[BX:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
// ROWS: scf.forall (%[[BC:.+]]) in
// ROWS: scf.for %[[BN:[^ ]+]] = {{.*}} -> (f32, f32)
// ROWS: vector.transfer_read %[[BX]][%[[BN]], %[[BC]], %{{.+}}], {{.*}} : tensor<?x?x?xf32>, vector<64xf32>
// ROWS-NOT: norm.normalize
// ROWS: tensor.expand_shape
// Short rows: tiles of 8 rows of 128 f32 (4 KiB) or 16 of 64 f32 and of
// 128 bf16 (a dynamic row length picks them at run time: in_nchw_f32_dynamic
// above), one forall stepping r rows at a time (upstream tiling), the last
// tile taking the rows left; the tile's statistics in registers (no tensor.empty in the tile
// before its statistics step; the partial tile's statistics results are
// written in place once bufferized: no malloc, ROWSLLVM below).
// ROWS-LABEL: func.func @ln_short_f32_dynamic
// ROWS: scf.forall
// ROWS: %[[LNROWS:.+]] = affine.min
// ROWS: scf.while ({{.*}}) : (vector<8xf32>, i1) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xi1>)
// ROWS: tensor.parallel_insert_slice %{{.+}} [%[[LNROWS]], 128] [1, 1]
// ROWS-NOT: scf.forall
// ROWS-NOT: norm.normalize
// ROWS-LABEL: func.func @in_nchw_short_f32_static
// ROWS: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (3, 21) step (1, 16)
// ROWS: %[[INROWS:.+]] = affine.min
// ROWS-NOT: tensor.empty
// ROWS: scf.while ({{.*}}) : (vector<1x16xf32>, i1) -> (vector<1x16xf32>, vector<1x16xf32>, vector<1x16xf32>, vector<1x16xi1>)
// ROWS: tensor.parallel_insert_slice %{{.+}} [1, %[[INROWS]], 64] [1, 1, 1]
// ROWS: tensor.parallel_insert_slice %{{.+}} [1, %[[INROWS]]] [1, 1]
// ROWS: tensor.parallel_insert_slice %{{.+}} [1, %[[INROWS]]] [1, 1]
// ROWS-NOT: scf.forall
// ROWS-NOT: norm.normalize
// ROWS-LABEL: func.func @rms_short_bf16_static
// ROWS: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (3, 45) step (1, 16)
// ROWS: %[[RMSROWS:.+]] = affine.min
// ROWS-NOT: tensor.empty
// ROWS: scf.if %{{.+}} -> (vector<1x16xf32>, vector<1x16xf32>)
// ROWS: tensor.parallel_insert_slice %{{.+}} [1, %[[RMSROWS]], 128] [1, 1, 1]
// ROWS-NOT: scf.forall
// ROWS-NOT: norm.normalize
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline="vector-kernels=0 vector-bits=512" | FileCheck %s --check-prefix=ROWSLLVM
// ROWSLLVM-NOT: memrefCopy
// ROWSLLVM-LABEL: llvm.func @ln_f32_dynamic(
// ROWSLLVM: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<64xf32>, !llvm.ptr
// ROWSLLVM-LABEL: llvm.func @rms_bf16_static(
// ROWSLLVM-NOT: nontemporal
// ROWSLLVM-LABEL: llvm.func @in_nchw_f32_dynamic(
// ROWSLLVM-NOT: memrefCopy
// ROWSLLVM: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<64xf32>, !llvm.ptr
// ROWSLLVM-NOT: memrefCopy
// ROWSLLVM-LABEL: llvm.func @ln2d_f16_static(
// ROWSLLVM-NOT: memrefCopy
// ROWSLLVM-NOT: nontemporal
// ROWSLLVM-LABEL: llvm.func @gn_nchw_f32_dynamic(
// ROWSLLVM: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<64xf32>, !llvm.ptr
// ROWSLLVM-LABEL: llvm.func @gn_nchw_bf16_static(
// ROWSLLVM-NOT: nontemporal
// ROWSLLVM-LABEL: llvm.func @bn_nchw_training_f32_dynamic(
// ROWSLLVM-NOT: memrefCopy
// ROWSLLVM-LABEL: llvm.func @ln_short_f32_dynamic(
// ROWSLLVM-NOT: malloc
// ROWSLLVM-NOT: alloca
// ROWSLLVM: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<64xf32>, !llvm.ptr
// ROWSLLVM-NOT: malloc
// ROWSLLVM-NOT: alloca
// ROWSLLVM-LABEL: llvm.func @in_nchw_short_f32_static(
// ROWSLLVM-NOT: malloc
// ROWSLLVM-NOT: alloca
// ROWSLLVM-LABEL: llvm.func @rms_short_bf16_static(
// ROWSLLVM-NOT: alloca
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=openmp=1 | FileCheck %s --check-prefix=LLVM
// LLVM-NOT: memrefCopy
// LLVM-LABEL: llvm.func @bn_nc_inference_f32_dynamic(
// LLVM: omp.parallel
// LLVM-NOT: llvm.call
// LLVM: omp.wsloop
// LLVM-NOT: llvm.call
// LLVM: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<{{[0-9]+}}xf32>, !llvm.ptr
// LLVM-NOT: llvm.call
// LLVM: llvm.intr.masked.load
// LLVM-NOT: llvm.call
// LLVM: llvm.intr.masked.store
// LLVM-NOT: llvm.call
// LLVM: omp.terminator
// LLVM-LABEL: llvm.func @_mlir_ciface_bn_nc_inference_f32_dynamic(
// LLVM-NOT: memrefCopy

func.func @bn_nc_inference_f32_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %m: tensor<?xf32>, %v: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %c) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      stats(%m, %v : tensor<?xf32>, tensor<?xf32>)
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @bn_nc_training_f32_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %rm: tensor<?xf32>, %rv: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %c) : tensor<?x?xf32>
  %sm = tensor.empty(%c) : tensor<?xf32>
  %sv = tensor.empty(%c) : tensor<?xf32>
  %r:5 = norm.normalize standard axes = [0] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) saved(%sm, %sv : tensor<?xf32>, tensor<?xf32>)
      running(%rm, %rv : tensor<?xf32>, tensor<?xf32>)
      -> tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

func.func @bn_nhwc_inference_f32_dynamic(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %m: tensor<?xf32>, %v: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %init = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %y = norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [3]
      stats(%m, %v : tensor<?xf32>, tensor<?xf32>)
      outs(%init : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}

func.func @bn_nc_inference_bf16_static(%x: tensor<37x70xbf16>, %g: tensor<70xbf16>, %b: tensor<70xbf16>, %m: tensor<70xf32>, %v: tensor<70xf32>) -> tensor<37x70xbf16> {
  %init = tensor.empty() : tensor<37x70xbf16>
  %y = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<37x70xbf16>) scale(%g : tensor<70xbf16>) bias(%b : tensor<70xbf16>) affine_dims = [1]
      stats(%m, %v : tensor<70xf32>, tensor<70xf32>)
      outs(%init : tensor<37x70xbf16>) -> tensor<37x70xbf16>
  return %y : tensor<37x70xbf16>
}

func.func @bn_nhwc_inference_f16_static(%x: tensor<2x5x3x24xf16>, %g: tensor<24xf16>, %b: tensor<24xf16>, %m: tensor<24xf16>, %v: tensor<24xf16>) -> tensor<2x5x3x24xf16> {
  %init = tensor.empty() : tensor<2x5x3x24xf16>
  %y = norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05
      ins(%x : tensor<2x5x3x24xf16>) scale(%g : tensor<24xf16>) bias(%b : tensor<24xf16>) affine_dims = [3]
      stats(%m, %v : tensor<24xf16>, tensor<24xf16>)
      outs(%init : tensor<2x5x3x24xf16>) -> tensor<2x5x3x24xf16>
  return %y : tensor<2x5x3x24xf16>
}

func.func @bn_nhwc_training_bf16_static(%x: tensor<2x5x3x40xbf16>, %g: tensor<40xbf16>, %b: tensor<40xbf16>, %rm: tensor<40xf32>, %rv: tensor<40xf32>) -> (tensor<2x5x3x40xbf16>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) {
  %init = tensor.empty() : tensor<2x5x3x40xbf16>
  %sm = tensor.empty() : tensor<40xf32>
  %sv = tensor.empty() : tensor<40xf32>
  %r:5 = norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<2x5x3x40xbf16>) scale(%g : tensor<40xbf16>) bias(%b : tensor<40xbf16>) affine_dims = [3]
      outs(%init : tensor<2x5x3x40xbf16>) saved(%sm, %sv : tensor<40xf32>, tensor<40xf32>)
      running(%rm, %rv : tensor<40xf32>, tensor<40xf32>)
      -> tensor<2x5x3x40xbf16>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<2x5x3x40xbf16>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>
}

func.func @in_nhwc_f32_dynamic(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %init = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %sm = tensor.empty(%d0, %d3) : tensor<?x?xf32>
  %sr = tensor.empty(%d0, %d3) : tensor<?x?xf32>
  %r:3 = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [3]
      outs(%init : tensor<?x?x?x?xf32>) saved(%sm, %sr : tensor<?x?xf32>, tensor<?x?xf32>)
      -> tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
  return %r#0, %r#1, %r#2 : tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @ln_f32_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @rms_bf16_static(%x: tensor<6x2050xbf16>, %g: tensor<2050xbf16>) -> tensor<6x2050xbf16> {
  %init = tensor.empty() : tensor<6x2050xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<6x2050xbf16>) scale(%g : tensor<2050xbf16>) affine_dims = [1]
      outs(%init : tensor<6x2050xbf16>) -> tensor<6x2050xbf16>
  return %y : tensor<6x2050xbf16>
}

func.func @in_nchw_f32_dynamic(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %init = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %sm = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %sr = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?x?x?xf32>) saved(%sm, %sr : tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
  return %r#0, %r#1, %r#2 : tensor<?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @ln2d_f16_static(%x: tensor<5x24x33xf16>, %g: tensor<24x33xf16>, %b: tensor<24x33xf16>) -> tensor<5x24x33xf16> {
  %init = tensor.empty() : tensor<5x24x33xf16>
  %y = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05
      ins(%x : tensor<5x24x33xf16>) scale(%g : tensor<24x33xf16>) bias(%b : tensor<24x33xf16>) affine_dims = [1, 2]
      outs(%init : tensor<5x24x33xf16>) -> tensor<5x24x33xf16>
  return %y : tensor<5x24x33xf16>
}

func.func @gn_nchw_f32_dynamic(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %init = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 4 on 1
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}

func.func @gn_nchw_bf16_static(%x: tensor<2x16x9x9xbf16>, %g: tensor<16xbf16>, %b: tensor<16xbf16>) -> (tensor<2x16x9x9xbf16>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %init = tensor.empty() : tensor<2x16x9x9xbf16>
  %sm = tensor.empty() : tensor<2x4xf32>
  %sr = tensor.empty() : tensor<2x4xf32>
  %y:3 = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 4 on 1
      ins(%x : tensor<2x16x9x9xbf16>) scale(%g : tensor<16xbf16>) bias(%b : tensor<16xbf16>) affine_dims = [1]
      outs(%init : tensor<2x16x9x9xbf16>) saved(%sm, %sr : tensor<2x4xf32>, tensor<2x4xf32>)
      -> tensor<2x16x9x9xbf16>, tensor<2x4xf32>, tensor<2x4xf32>
  return %y#0, %y#1, %y#2 : tensor<2x16x9x9xbf16>, tensor<2x4xf32>, tensor<2x4xf32>
}

func.func @bn_nchw_training_f32_dynamic(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %rm: tensor<?xf32>, %rv: tensor<?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
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
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?x?x?xf32>) saved(%sm, %sv : tensor<?xf32>, tensor<?xf32>) running(%rm, %rv : tensor<?xf32>, tensor<?xf32>)
      -> tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

func.func @bn_nchw_training_bf16_static(%x: tensor<3x6x5x70xbf16>, %g: tensor<6xbf16>, %b: tensor<6xbf16>, %rm: tensor<6xf32>, %rv: tensor<6xf32>) -> (tensor<3x6x5x70xbf16>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %init = tensor.empty() : tensor<3x6x5x70xbf16>
  %sm = tensor.empty() : tensor<6xf32>
  %sv = tensor.empty() : tensor<6xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<3x6x5x70xbf16>) scale(%g : tensor<6xbf16>) bias(%b : tensor<6xbf16>) affine_dims = [1]
      outs(%init : tensor<3x6x5x70xbf16>) saved(%sm, %sv : tensor<6xf32>, tensor<6xf32>)
      running(%rm, %rv : tensor<6xf32>, tensor<6xf32>)
      -> tensor<3x6x5x70xbf16>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<3x6x5x70xbf16>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

func.func @ln_short_f32_dynamic(%x: tensor<?x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x128xf32>
  %init = tensor.empty(%m) : tensor<?x128xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x128xf32>) scale(%g : tensor<128xf32>) bias(%b : tensor<128xf32>) affine_dims = [1]
      outs(%init : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}

func.func @in_nchw_short_f32_static(%x: tensor<3x21x8x8xf32>, %g: tensor<21xf32>, %b: tensor<21xf32>) -> (tensor<3x21x8x8xf32>, tensor<3x21xf32>, tensor<3x21xf32>) {
  %init = tensor.empty() : tensor<3x21x8x8xf32>
  %sm = tensor.empty() : tensor<3x21xf32>
  %sr = tensor.empty() : tensor<3x21xf32>
  %r:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<3x21x8x8xf32>) scale(%g : tensor<21xf32>) bias(%b : tensor<21xf32>) affine_dims = [1]
      outs(%init : tensor<3x21x8x8xf32>) saved(%sm, %sr : tensor<3x21xf32>, tensor<3x21xf32>) -> tensor<3x21x8x8xf32>, tensor<3x21xf32>, tensor<3x21xf32>
  return %r#0, %r#1, %r#2 : tensor<3x21x8x8xf32>, tensor<3x21xf32>, tensor<3x21xf32>
}

func.func @rms_short_bf16_static(%x: tensor<3x45x128xbf16>, %g: tensor<128xbf16>) -> tensor<3x45x128xbf16> {
  %init = tensor.empty() : tensor<3x45x128xbf16>
  %y = norm.normalize rms axes = [2] epsilon = 1.0e-06
      ins(%x : tensor<3x45x128xbf16>) scale(%g : tensor<128xbf16>) affine_dims = [2]
      outs(%init : tensor<3x45x128xbf16>) -> tensor<3x45x128xbf16>
  return %y : tensor<3x45x128xbf16>
}
