// RUN: norm-opt %s -norm-tile-and-vectorize -split-input-file | FileCheck %s
// RUN: norm-opt %s -norm-tile-and-vectorize="computed-statistics=1" -split-input-file | FileCheck %s --check-prefix=STATS
// RUN: norm-opt %s -norm-tile-and-vectorize="row-statistics=1" -split-input-file | FileCheck %s --check-prefix=SLICE
// RUN: norm-opt %s -norm-tile-and-vectorize="row-statistics=1 vector-bits=256" -split-input-file | FileCheck %s --check-prefix=SLICE256
// RUN: not norm-opt %s -norm-tile-and-vectorize="vectors-per-tile=0" -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: vector-bits must be at least 8 and vectors-per-tile positive, got 512 and 0

// Given statistics: decomposed whole, the normalize step tiled into blocks of
// whole rows (64 KiB: 16 rows of 1024 f32) on scf.forall, each row in masked
// vector<64xf32> (four 512-bit registers); the per-channel rstd map stays
// outside the loop.
// CHECK-LABEL: func.func @bn_nc_inference
// CHECK: linalg.generic
// CHECK: math.rsqrt
// CHECK: scf.forall (%[[ROW:.+]]) = (0) to (4096) step (16)
// CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}}
// CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C64:.+]] iter_args
// CHECK:       vector.transfer_read %{{.+}} : tensor<4096x1024xf32>, vector<64xf32>
// CHECK:       arith.subf {{.*}} : vector<64xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<64xf32>, tensor<1x64xf32>
// CHECK:   scf.forall.in_parallel
// CHECK-NOT: linalg.generic
// CHECK: return
// STATS-LABEL: func.func @bn_nc_inference
// STATS: scf.forall ({{.+}}) = (0) to (4096) step (16)
func.func @bn_nc_inference(%x: tensor<4096x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>, %m: tensor<1024xf32>, %v: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %init = tensor.empty() : tensor<4096x1024xf32>
  %y = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<4096x1024xf32>) scale(%g : tensor<1024xf32>) bias(%b : tensor<1024xf32>) affine_dims = [1]
      stats(%m, %v : tensor<1024xf32>, tensor<1024xf32>)
      outs(%init : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}

// -----

// Computed statistics are left alone by default. With computed-statistics
// the op is decomposed and each reduction is split into chunks of rows on
// scf.forall (upstream's partial reductions into a [channels, chunks]
// tensor): Σx and max|x| in one pass, then the centered sums; a chunk's
// accumulators (the sums compensated) are vector<64xf32> iteration
// arguments of its row loop, which takes four rows per step; the merges over
// the chunks (the sums and the maxima in one loop nest) run after the loop,
// tiled over the channels; the normalize step is tiled into row blocks.
// CHECK-LABEL: func.func @bn_training
// CHECK-NOT: scf.forall
// CHECK: norm.normalize
// STATS-LABEL: func.func @bn_training
// STATS: %[[SUMS:.+]] = linalg.fill {{.*}} -> tensor<64x?xf32>
// STATS: %[[MAXIMA:.+]] = linalg.fill {{.*}} -> tensor<64x?xf32>
// STATS: scf.forall (%{{.+}}) = (0) to (256) step (%{{.+}}) shared_outs(%{{.+}} = %[[SUMS]], %{{.+}} = %[[MAXIMA]]) -> (tensor<64x?xf32>, tensor<64x?xf32>)
// STATS:   scf.for {{.*}} step %c4{{[_0-9]*}} iter_args({{.*}}) -> (vector<64xf32>, vector<64xf32>, vector<64xf32>)
// STATS-COUNT-4: vector.transfer_read {{.*}} : tensor<256x64xf32>, vector<64xf32>
// STATS:     arith.maximumf {{.*}} : vector<64xf32>
// STATS:     arith.addf {{.*}} : vector<64xf32>
// STATS:   scf.forall.in_parallel
// STATS: scf.forall (%{{.+}}) = (0) to (64) step (64)
// STATS:   linalg.generic {{.*}} iterator_types = ["reduction"]
// STATS-DAG: arith.addf
// STATS-DAG: arith.maximumf
// STATS:   linalg.yield
// STATS-NOT: scf.forall (
// STATS: scf.forall (%{{.+}}) = (0) to (256) step (%{{.+}}) shared_outs
// STATS:   scf.for {{.*}} -> (vector<64xf32>, vector<64xf32>, vector<64xf32>, vector<64xf32>)
// STATS: scf.forall (%{{.+}}) = (0) to (64) step (64)
// STATS:   linalg.generic {{.*}} iterator_types = ["reduction"]
// STATS:   linalg.yield %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^ ]+}} : f32, f32, f32, f32
// STATS-NOT: scf.forall (
// STATS: math.rsqrt
// STATS: scf.forall (%{{.+}}) = (0) to (256) step (256)
// STATS:   vector.transfer_write {{.*}} : vector<64xf32>, tensor<1x64xf32>
// STATS-NOT: norm.normalize
// STATS: return
func.func @bn_training(%x: tensor<256x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<256x64xf32> {
  %init = tensor.empty() : tensor<256x64xf32>
  %r = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<256x64xf32>) scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

// -----

// Dynamic sizes: a chunk's partial steps read x and update its contiguous
// partials with masked transfers on the tensors themselves, and its
// partials start from the combiner's identity in a buffer of their own
// (alloc_tensor), not from a copy of their strided column: the chunk has no
// slice but the column it inserts (bufferization's analysis would prove each
// slice pair equivalent through a Presburger problem).
// STATS-LABEL: func.func @bn_training_dynamic
// STATS: scf.forall (%{{.+}}) = (0) to (%{{.+}}) step (%{{.+}}) shared_outs(%[[SUMS:[^ ]+]] = %{{.+}}, %[[MAXIMA:[^ ]+]] = %{{.+}}) -> (tensor<?x?xf32>, tensor<?x?xf32>)
// STATS:   %[[SUMCOL:.+]] = tensor.extract_slice %[[SUMS]][0, %{{.+}}] [%{{.+}}, 1] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
// STATS:   %[[MAXCOL:.+]] = tensor.extract_slice %[[MAXIMA]][0, %{{.+}}] [%{{.+}}, 1] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
// STATS-NOT: tensor.extract_slice
// STATS-NOT: tensor.insert_slice
// STATS:   bufferization.alloc_tensor(%{{.+}}) : tensor<?xf32>
// One masked loop fills them, not a peeled pair (they are in L1).
// STATS-NEXT: scf.for %{{.+}} = %c0{{[_0-9]*}} to %{{.+}} step %c64{{[_0-9]*}} iter_args
// STATS-NEXT:   affine.min
// STATS-NEXT:   vector.create_mask
// STATS-NEXT:   vector.transfer_write
// STATS-NEXT:   scf.yield
// STATS-NEXT: }
// STATS-NEXT: bufferization.alloc_tensor(%{{.+}}) : tensor<?xf32>
// STATS-NOT: tensor.extract_slice
// STATS-NOT: tensor.insert_slice
// Blocks of four rows (unroll-and-jam): a column's partials are read once,
// the block's four rows of x join them in registers, and they are written
// once.
// STATS:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c4{{[_0-9]*}} iter_args
// STATS:     scf.for %[[COL:[^ ]+]] = %{{.+}} to %{{.+}} step %c64{{[_0-9]*}} iter_args(%[[P0:[^ ]+]] = %{{[^,]+}}, %[[P1:[^ ]+]] = %{{[^,]+}}, %[[P2:[^ ]+]] = %{{[^)]+}})
// STATS:       vector.transfer_read %arg0[%{{.+}}, %[[COL]]], %{{.+}}, %{{.+}} {in_bounds = [true]} : tensor<?x?xf32>, vector<64xf32>
// STATS-NEXT:  vector.transfer_read %[[P0]][%[[COL]]]
// STATS-NEXT:  vector.transfer_read %[[P1]][%[[COL]]]
// STATS-NEXT:  vector.transfer_read %[[P2]][%[[COL]]]
// STATS-NOT:   vector.transfer_write
// STATS:       vector.transfer_read %arg0[%{{.+}}, %[[COL]]]
// STATS-NOT:   vector.transfer_write
// STATS:       vector.transfer_read %arg0[%{{.+}}, %[[COL]]]
// STATS-NOT:   vector.transfer_write
// STATS:       vector.transfer_read %arg0[%{{.+}}, %[[COL]]]
// STATS-NOT:   vector.transfer_read
// STATS:       vector.transfer_write %{{.+}}, %[[P0]][%[[COL]]]
// STATS-NEXT:  vector.transfer_write %{{.+}}, %[[P1]][%[[COL]]]
// STATS-NEXT:  vector.transfer_write %{{.+}}, %[[P2]][%[[COL]]]
// STATS-NEXT:  scf.yield
// The chunk's last rows (fewer than four): a row per step, a column's
// partials in registers across them.
// STATS:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c4{{[_0-9]*}} iter_args
// STATS:     scf.for %[[COL2:[^ ]+]] = %{{.+}} to %{{.+}} step %c64{{[_0-9]*}} iter_args
// STATS-COUNT-3: vector.transfer_read %{{.+}}[%[[COL2]]]
// STATS:       scf.for %{{.+}} step %c1{{[_0-9]*}} iter_args({{.*}}) -> (vector<64xf32>, vector<64xf32>, vector<64xf32>)
// STATS:         vector.transfer_read %arg0[%{{.+}}, %[[COL2]]]
// STATS-NOT: tensor.extract_slice
// STATS-NOT: tensor.insert_slice
// STATS:   scf.for %{{.+}} iter_args(%{{.+}} = %[[MAXCOL]]) -> (tensor<?xf32>)
// STATS-NOT: tensor.extract_slice
// STATS-NOT: tensor.insert_slice
// STATS:   scf.for %{{.+}} iter_args(%{{.+}} = %[[SUMCOL]]) -> (tensor<?xf32>)
// STATS-NOT: tensor.extract_slice
// STATS-NOT: tensor.insert_slice
// STATS:   tensor.parallel_insert_slice %{{.+}} into %[[SUMS]][0, %{{.+}}] [%{{.+}}, 1] [1, 1]
func.func @bn_training_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// NHWC with dynamic sizes: whole rows of C, kTileBytes / (4·C) of them per
// tile along W, computed at run time; masked transfers for the tail of C.
// CHECK-LABEL: func.func @bn_nhwc_inference_dynamic
// CHECK: %[[C:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x?x?x?xf32>
// CHECK: %[[BYTES:.+]] = arith.muli %[[C]], %{{.+}} : index
// CHECK: arith.divui
// CHECK: %[[ROWS:.+]] = arith.maxui
// CHECK: scf.forall (%{{.+}}, %{{.+}}, %{{.+}}) = (0, 0, 0) to (%{{.+}}, %{{.+}}, %{{.+}}) step (1, 1, %[[ROWS]])
// CHECK:   %[[MASK:.+]] = vector.create_mask %{{.+}} : vector<64xi1>
// CHECK:   vector.transfer_read {{.*}}, %[[MASK]] {{.*}} vector<64xf32>
// CHECK:   vector.transfer_write {{.*}}, %[[MASK]] {{.*}} vector<64xf32>
func.func @bn_nhwc_inference_dynamic(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %m: tensor<?xf32>, %v: tensor<?xf32>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %y = norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [3]
      stats(%m, %v : tensor<?xf32>, tensor<?xf32>)
      outs(%init : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}

// -----

// Ops that reduce their innermost dim (LayerNorm) and GroupNorm are left for
// the other strategies, except LayerNorm with row-statistics: one row per
// thread tile, each pass a loop of four-vector partial sums (768 = 12 whole
// steps, no mask) and one horizontal reduction, the statistics in
// registers (no tensor in the tile), and the scaled pass tried with k = 1
// before a max|x| pass under an scf.if.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: scf.forall
// CHECK: norm.normalize
// STATS-LABEL: func.func @layer_norm
// STATS-NOT: scf.forall
// STATS: norm.normalize
// SLICE-LABEL: func.func @layer_norm
// SLICE: scf.forall (%[[ROW:.+]]) in (8)
// SLICE-NOT: tensor.empty
// SLICE: scf.for {{.*}} step %c64{{.*}} -> (vector<64xf32>)
// SLICE: vector.transfer_read %{{.+}}[%[[ROW]], %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<8x768xf32>, vector<64xf32>
// SLICE: vector.reduction <add>, %{{.+}} : vector<64xf32> into f32
// SLICE: scf.while ({{.*}}) : (f32, i1) -> (f32, f32, f32, i1) {
// SLICE: scf.for {{.*}} -> (vector<64xf32>, vector<64xf32>)
// SLICE-COUNT-2: vector.reduction <add>
// SLICE: scf.condition
// SLICE: } do {
// SLICE: math.absf {{.*}} : vector<64xf32>
// SLICE: vector.reduction <maximumf>
// SLICE: }
// The deviation pass is built once, in the loop's before region.
// SLICE-NOT: -> (vector<64xf32>, vector<64xf32>)
// SLICE-NOT: tensor.empty
// SLICE: vector.transfer_write {{.*}} : vector<64xf32>, tensor<768xf32>
// SLICE: scf.forall.in_parallel
// SLICE-NOT: norm.normalize
// SLICE256-LABEL: func.func @layer_norm
// SLICE256: scf.for {{.*}} -> (vector<32xf32>)
func.func @layer_norm(%x: tensor<8x768xf32>, %init: tensor<8x768xf32>) -> tensor<8x768xf32> {
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<8x768xf32>) outs(%init : tensor<8x768xf32>) -> tensor<8x768xf32>
  return %y : tensor<8x768xf32>
}

// -----

// A dynamic row: blocks of 1024 elements (16 steps) whose totals join in
// compensated scalars, each block's partial last step masked and merged
// into the partial sums with a select, under an scf.if on its length (a
// row that is a whole number of steps skips it). The first block runs before the loop
// over the others, so a row of one block runs no block loop. The rows per
// tile follow the row's bytes at run time: 16 rows up to 256 bytes, 8 up to
// 512, then (for inputs of at most 8 MiB) 4 up to 1024 and 2 up to 4096,
// else one; a tile's rows are a loop to min(rows, M - t).
// SLICE-LABEL: func.func @rms_norm_dynamic
// SLICE: %[[N:.+]] = tensor.dim %{{.+}}, %c1
// SLICE: %[[BYTES:.+]] = arith.muli %[[N]], %c2
// SLICE: %[[INPUT:.+]] = arith.muli %{{.+}}, %[[BYTES]]
// SLICE: %[[CACHED:.+]] = arith.cmpi ule, %[[INPUT]], %c8388608
// SLICE: %[[LE4096:.+]] = arith.cmpi ule, %[[BYTES]], %c4096
// SLICE: %[[TWO:.+]] = arith.andi %[[LE4096]], %[[CACHED]]
// SLICE: %[[R2:.+]] = arith.select %[[TWO]], %c2{{.*}}, %c1
// SLICE: %[[LE1024:.+]] = arith.cmpi ule, %[[BYTES]], %c1024
// SLICE: %[[FOUR:.+]] = arith.andi %[[LE1024]], %[[CACHED]]
// SLICE: %[[R4:.+]] = arith.select %[[FOUR]], %c4, %[[R2]]
// SLICE: %[[LE512:.+]] = arith.cmpi ule, %[[BYTES]], %c512
// SLICE: %[[R8:.+]] = arith.select %[[LE512]], %c8, %[[R4]]
// SLICE: %[[LE256:.+]] = arith.cmpi ule, %[[BYTES]], %c256
// SLICE: %[[RPT:.+]] = arith.select %[[LE256]], %c16, %[[R8]]
// SLICE: %[[M:.+]] = tensor.dim %{{.+}}, %c0
// SLICE: scf.forall (%[[T:.+]]) = (0) to (%[[M]]) step (%[[RPT]])
// SLICE: %[[ROWS:.+]] = affine.min #{{.+}}(%[[T]])[%[[M]], %[[RPT]]]
// SLICE: scf.for %{{.+}} = %{{.+}} to %[[ROWS]] step %c1{{.*}} -> (vector<16xf32>)
// SLICE: %[[FIRST:.+]] = scf.for {{.*}} -> (vector<64xf32>)
// SLICE: %[[FIRSTLEFT:.+]] = arith.cmpi sgt, %[[FIRSTREST:.+]], %c0
// SLICE: %[[FIRSTSUMS:.+]] = scf.if %[[FIRSTLEFT]] -> (vector<64xf32>) {
// SLICE: arith.select %{{.+}}, %{{.+}}, %[[FIRST]] : vector<64xi1>, vector<64xf32>
// SLICE: } else {
// SLICE-NEXT: scf.yield %[[FIRST]] : vector<64xf32>
// SLICE: vector.reduction <add>, %[[FIRSTSUMS]], %{{.+}} : vector<64xf32> into f32
// SLICE: scf.for %{{.+}} = %c1024 to %{{.+}} step %c1024 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (f32, f32)
// SLICE: %[[BLOCK:.+]] = scf.for {{.*}} -> (vector<64xf32>)
// SLICE: %[[RESTMASK:.+]] = vector.create_mask %[[REST:.+]] : vector<64xi1>
// SLICE: %[[LEFT:.+]] = arith.cmpi sgt, %[[REST]], %c0
// SLICE: %[[SUMS:.+]] = scf.if %[[LEFT]] -> (vector<64xf32>) {
// SLICE: vector.transfer_read {{.*}}, %[[RESTMASK]] {in_bounds = [true]} : tensor<?x?xbf16>, vector<64xbf16>
// SLICE: arith.select %[[RESTMASK]], %{{.+}}, %[[BLOCK]] : vector<64xi1>, vector<64xf32>
// SLICE: } else {
// SLICE-NEXT: scf.yield %[[BLOCK]] : vector<64xf32>
// SLICE: vector.reduction <add>, %[[SUMS]], %{{.+}}
// SLICE: scf.yield %{{.+}}, %{{.+}} : f32, f32
// The rescale retry (under the scf.if, for rows whose squares overflow)
// runs all of a row's blocks in one loop from 0: no peeled first block.
// SLICE: scf.if %{{.+}} -> (vector<16xf32>, vector<16xf32>)
// SLICE-NOT: vector.reduction
// SLICE: scf.for %{{.+}} = %c0{{.*}} to %{{.+}} step %c1024 {{.*}} -> (f32)
// SLICE: vector.reduction <maximumf>
// SLICE-NOT: vector.reduction
// SLICE: scf.for %{{.+}} = %c0{{.*}} to %{{.+}} step %c1024 {{.*}} -> (f32, f32)
// SLICE: vector.reduction <add>
// SLICE: } else {
// SLICE-NOT: tensor.empty
// SLICE: scf.forall.in_parallel
func.func @rms_norm_dynamic(%x: tensor<?x?xbf16>, %init: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x?xbf16>) outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

// -----

// bf16 scale and bias: widened to f32 once, ahead of the rows' loop, not in
// every row's normalize step. The statistics' sums widen the rows' bf16
// in lane pairs (a shift and a mask, no shuffle instruction); the normalize
// step, whose lanes are stored, in element order.
// SLICE-LABEL: func.func @layer_norm_bf16_affine
// SLICE-SAME: (%[[X:.+]]: tensor<?x?xbf16>, %[[G:.+]]: tensor<?xbf16>, %[[B:.+]]: tensor<?xbf16>,
// SLICE: %[[G32:.+]] = linalg.generic {{.*}} ins(%[[G]] : tensor<?xbf16>) outs(%{{.+}} : tensor<?xf32>)
// SLICE:   arith.extf %{{.+}} : bf16 to f32
// SLICE: %[[B32:.+]] = linalg.generic {{.*}} ins(%[[B]] : tensor<?xbf16>) outs(%{{.+}} : tensor<?xf32>)
// SLICE: scf.forall
// SLICE-NOT: scf.forall.in_parallel
// SLICE: scf.for {{.*}} -> (vector<64xf32>) {
// SLICE-NEXT: vector.transfer_read %[[X]]{{.*}} : tensor<?x?xbf16>, vector<64xbf16>
// SLICE-NEXT: %[[MBITS:.+]] = vector.bitcast %{{.+}} : vector<64xbf16> to vector<32xi32>
// SLICE-NEXT: arith.shli %[[MBITS]], %{{.+}} : vector<32xi32>
// SLICE-NEXT: vector.bitcast
// SLICE-NEXT: arith.andi %[[MBITS]], %{{.+}} : vector<32xi32>
// SLICE-NEXT: vector.bitcast
// SLICE-NEXT: vector.shuffle {{.*}} : vector<32xf32>, vector<32xf32>
// SLICE-NEXT: arith.addf
// SLICE: scf.for {{.*}} -> (vector<64xf32>, vector<64xf32>) {
// SLICE-NEXT: vector.transfer_read %[[X]]{{.*}} : tensor<?x?xbf16>, vector<64xbf16>
// SLICE-NEXT: %[[DBITS:.+]] = vector.bitcast %{{.+}} : vector<64xbf16> to vector<32xi32>
// SLICE-NEXT: arith.shli %[[DBITS]], %{{.+}} : vector<32xi32>
// SLICE: vector.transfer_read %[[G32]]{{.*}} : tensor<?xf32>, vector<64xf32>
// SLICE: vector.transfer_read %[[B32]]{{.*}} : tensor<?xf32>, vector<64xf32>
// SLICE: arith.extf %{{.+}} : vector<64xbf16> to vector<64xf32>
// SLICE: arith.truncf %{{.+}} : vector<64xf32> to vector<64xbf16>
// SLICE-NOT: arith.shli
// SLICE: scf.forall.in_parallel
func.func @layer_norm_bf16_affine(%x: tensor<?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>, %init: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x?xbf16>) scale(%g : tensor<?xbf16>) bias(%b : tensor<?xbf16>) affine_dims = [1]
      outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

// -----

// NCHW BatchNorm training: H·W collapsed into one row, one channel per
// scf.forall iteration; the channel's slice is N rows of H·W, reduced by a
// loop over the rows that carries the compensated totals (f32 sum and
// carry), each row in vector steps; the running statistics are tiled with
// the channel. Left alone without row-statistics.
// CHECK-LABEL: func.func @bn_nchw_training
// CHECK-NOT: scf.forall
// CHECK: norm.normalize
// STATS-LABEL: func.func @bn_nchw_training
// STATS-NOT: scf.forall
// STATS: norm.normalize
// SLICE-LABEL: func.func @bn_nchw_training
// SLICE: %[[X:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<2x3x4x100xf32> into tensor<2x3x400xf32>
// SLICE: scf.forall (%[[C:.+]]) in (3) shared_outs(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<2x3x400xf32>, tensor<3xf32>, tensor<3xf32>)
// SLICE: scf.for %[[N:[^ ]+]] = %{{.+}} to %c2{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args({{.*}}) -> (f32, f32)
// SLICE:   scf.for {{.*}} step %c64{{[_0-9]*}} iter_args({{.*}}) -> (vector<64xf32>)
// SLICE:     vector.transfer_read %[[X]][%[[N]], %[[C]], %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<2x3x400xf32>, vector<64xf32>
// SLICE:   vector.reduction <add>
// SLICE: scf.while ({{.*}}) : (f32, i1) -> (f32, f32, f32, i1)
// SLICE: scf.for %{{.+}} -> (f32, f32, f32, f32)
// SLICE: } do {
// SLICE: math.rsqrt
// SLICE-NOT: norm.normalize
// SLICE: tensor.expand_shape
func.func @bn_nchw_training(%x: tensor<2x3x4x100xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>) -> (tensor<2x3x4x100xf32>, tensor<3xf32>, tensor<3xf32>) {
  %init = tensor.empty() : tensor<2x3x4x100xf32>
  %r:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1
      ins(%x : tensor<2x3x4x100xf32>) scale(%g : tensor<3xf32>) bias(%b : tensor<3xf32>) affine_dims = [1]
      outs(%init : tensor<2x3x4x100xf32>) running(%rm, %rv : tensor<3xf32>, tensor<3xf32>)
      -> tensor<2x3x4x100xf32>, tensor<3xf32>, tensor<3xf32>
  return %r#0, %r#1, %r#2 : tensor<2x3x4x100xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @group_norm_channels_last
// CHECK-NOT: scf.forall
// CHECK: norm.normalize
func.func @group_norm_channels_last(%x: tensor<2x4x4x32xf32>, %init: tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32> {
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 3
      ins(%x : tensor<2x4x4x32xf32>) outs(%init : tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32>
  return %y : tensor<2x4x4x32xf32>
}

// -----

// Short rows (128 f32): tiles of 8 rows (4 KiB, at 256 and 512 bits), each
// row reduced in its own loop into a lane of the tile's sums, so that the
// statistics steps (the divisions, the retry test, the square roots) run
// once per tile in vectors; the normalize step reads its row's lane. One
// forall (upstream tiling) stepping 8 rows at a time: the last tile takes
// the min(8, M - t) rows left, its lanes past them masked out of the retry
// test.
// SLICE-LABEL: func.func @layer_norm_short_rows
// SLICE: %[[M:.+]] = tensor.dim %{{.+}}, %c0
// SLICE: scf.forall (%[[T:.+]]) = (0) to (%[[M]]) step (8) shared_outs(%{{.+}} = %{{.+}}) -> (tensor<?x128xf32>)
// SLICE: %[[ROWS:.+]] = affine.min #{{.+}}(%[[T]])[%[[M]]]
// SLICE-NOT: tensor.empty
// SLICE: scf.for %{{.+}} = %{{.+}} to %[[ROWS]] step %c1{{.*}} iter_args(%{{.+}} = %{{.+}}) -> (vector<8xf32>)
// SLICE: vector.reduction <add>, %{{.+}} : vector<64xf32> into f32
// SLICE: vector.insert %{{.+}}, %{{.+}} [%{{.+}}] : f32 into vector<8xf32>
// SLICE: arith.divf %{{.+}}, %{{.+}} : vector<8xf32>
// SLICE: scf.while ({{.*}}) : (vector<8xf32>, i1) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xi1>)
// SLICE: %[[LIVE:.+]] = vector.create_mask %[[ROWS]] : vector<8xi1>
// SLICE: vector.mask %[[LIVE]] { vector.reduction <or>, %{{.+}} : vector<8xi1> into i1 } : vector<8xi1> -> i1
// SLICE: scf.condition(%{{.+}}) {{.*}} : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xi1>
// SLICE: } do {
// SLICE: math.rsqrt %{{.+}} : vector<8xf32>
// SLICE-NOT: tensor.empty
// SLICE: vector.extract %{{.+}}[%{{.+}}] : f32 from vector<8xf32>
// SLICE-NOT: tensor.empty
// SLICE: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%[[T]], 0] [%[[ROWS]], 128] [1, 1]
// SLICE-NOT: scf.forall
// SLICE-NOT: norm.normalize
// SLICE256-LABEL: func.func @layer_norm_short_rows
// SLICE256: scf.forall
// SLICE256: %[[ROWS:.+]] = affine.min
// SLICE256: scf.for %{{.+}} = %{{.+}} to %[[ROWS]] step %c1{{.*}} iter_args(%{{.+}} = %{{.+}}) -> (vector<8xf32>)
// SLICE256: vector.reduction <add>, %{{.+}} : vector<32xf32> into f32
// SLICE256: scf.while ({{.*}}) : (vector<8xf32>, i1) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xi1>)
// SLICE256: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [%[[ROWS]], 128] [1, 1]
// SLICE256-NOT: scf.forall
func.func @layer_norm_short_rows(%x: tensor<?x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>, %init: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x128xf32>) scale(%g : tensor<128xf32>) bias(%b : tensor<128xf32>) affine_dims = [1]
      outs(%init : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}

// -----

// Whole tiles only (48 = 3 · 16 rows of 64 f32 at 512 bits, 6 · 8 at
// 256): no loop for the rows left.
// SLICE-LABEL: func.func @rms_norm_short_rows_static
// SLICE: scf.forall (%{{.+}}) = (0) to (48) step (16)
// SLICE: scf.if %{{.+}} -> (vector<16xf32>, vector<16xf32>)
// SLICE: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [16, 64] [1, 1]
// SLICE-NOT: scf.forall
// SLICE256-LABEL: func.func @rms_norm_short_rows_static
// SLICE256: scf.forall (%{{.+}}) = (0) to (48) step (8)
// SLICE256: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [8, 64] [1, 1]
// SLICE256-NOT: scf.forall
func.func @rms_norm_short_rows_static(%x: tensor<48x64xf32>, %g: tensor<64xf32>, %init: tensor<48x64xf32>) -> tensor<48x64xf32> {
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<48x64xf32>) scale(%g : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<48x64xf32>) -> tensor<48x64xf32>
  return %y : tensor<48x64xf32>
}

// -----

// Rows of 256 bf16 (512 B) are short: 8 per tile at 256 bits and, halved
// from 16 to fit 4 KiB, at 512. Rows of 512 bf16 are not: 4 would fit.
// SLICE-LABEL: func.func @rms_norm_short_rows_bf16
// SLICE: scf.forall (%{{.+}}) = (0) to (16) step (8)
// SLICE: vector<8xf32>
// SLICE: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [8, 256] [1, 1]
// SLICE-NOT: scf.forall
// SLICE-LABEL: func.func @rms_norm_long_rows_bf16
// SLICE: scf.forall (%{{.+}}) in (16)
// SLICE-NOT: vector<8xf32>
// SLICE: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [1, 512] [1, 1]
// SLICE256-LABEL: func.func @rms_norm_short_rows_bf16
// SLICE256: scf.forall (%{{.+}}) = (0) to (16) step (8)
// SLICE256: vector<8xf32>
// SLICE256: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [8, 256] [1, 1]
// SLICE256-NOT: scf.forall
// SLICE256-LABEL: func.func @rms_norm_long_rows_bf16
// SLICE256: scf.forall (%{{.+}}) in (16)
// SLICE256-NOT: vector<8xf32>
// SLICE256: tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 0] [1, 512] [1, 1]
func.func @rms_norm_short_rows_bf16(%x: tensor<16x256xbf16>, %g: tensor<256xbf16>, %init: tensor<16x256xbf16>) -> tensor<16x256xbf16> {
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<16x256xbf16>) scale(%g : tensor<256xbf16>) affine_dims = [1]
      outs(%init : tensor<16x256xbf16>) -> tensor<16x256xbf16>
  return %y : tensor<16x256xbf16>
}
func.func @rms_norm_long_rows_bf16(%x: tensor<16x512xbf16>, %g: tensor<512xbf16>, %init: tensor<16x512xbf16>) -> tensor<16x512xbf16> {
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<16x512xbf16>) scale(%g : tensor<512xbf16>) affine_dims = [1]
      outs(%init : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  return %y : tensor<16x512xbf16>
}
