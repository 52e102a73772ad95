// RUN: norm-opt %s --convert-norm-to-gpu --canonicalize --split-input-file | FileCheck %s

// LayerNorm over rows of 1024 (dynamic row count): one block per row, 256
// threads of 4 floats each. Whether the vector path applies is decided on
// the host (the row length, static, is a multiple of 4: only the 16-byte
// alignment of x, y, γ and β is left to check). The row is static and
// small: each thread loads its vector<4xf32> once, aligned to 16 bytes, and
// every pass reads that register: pass 1 (Σx) ends in one block-wide sum,
// pass 2 (Σd, Σd²) with k = 1 in two; only when its sum of squares is out
// of range does max|x| (an integer maxsi over the magnitude bits) give k
// for a scaled pass 2. The normalize pass loads γ and β and stores y.
// Nothing is allocated. No rows, no launch: the driver rejects an empty
// grid.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: memref.alloc
// CHECK: %[[ROWS:.+]] = memref.dim %arg0, %c0 : memref<?x1024xf32>
// CHECK: %[[XPTR:.+]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: arith.remui %[[XPTR]], %c16 : index
// CHECK: memref.extract_aligned_pointer_as_index %arg3
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK: memref.extract_aligned_pointer_as_index %arg2
// CHECK: %[[VEC:.+]] = arith.andi
// CHECK: %[[ANY:.+]] = arith.cmpi ne, %[[ROWS]], %c0 : index
// CHECK: scf.if %[[ANY]] {
// CHECK: gpu.launch blocks(%[[ROW:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[ROWS]], %{{.+}} = %c1, %{{.+}} = %c1) threads(%[[TID:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c256, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK: scf.if %[[VEC]] {
// CHECK: %[[START:.+]] = arith.muli %[[TID]], %c4 : index
// CHECK: %[[X:.+]] = vector.load %arg0[%[[ROW]], %[[START]]] {alignment = 16 : i64} : memref<?x1024xf32>, vector<4xf32>
// CHECK-NOT: vector.load %arg0
// CHECK: arith.addf %[[X]], %{{.+}} : vector<4xf32>
// CHECK-NOT: vector.load %arg0
// CHECK: gpu.all_reduce add %{{.+}} uniform
// CHECK-NOT: vector.load %arg0
// CHECK: math.fma %[[X]], %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK-NOT: vector.load %arg0
// CHECK: gpu.all_reduce add %{{.+}} uniform
// CHECK: %[[SQ:.+]] = gpu.all_reduce add %{{.+}} uniform
// CHECK: arith.cmpf oge, %[[SQ]], %{{.+}} : f32
// CHECK: scf.if %{{.+}} -> (f32, f32, f32) {
// CHECK: } else {
// CHECK-NOT: vector.load %arg0
// CHECK: arith.bitcast %[[X]] : vector<4xf32> to vector<4xi32>
// CHECK: vector.reduction <maxsi>
// CHECK: gpu.all_reduce maxsi %{{.+}} uniform
// CHECK-NOT: vector.load %arg0
// CHECK: math.fma %[[X]], %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK-COUNT-2: gpu.all_reduce add %{{.+}} uniform
// CHECK: math.rsqrt %{{.+}} : f32
// CHECK: %[[AT:.+]] = arith.muli %[[TID]], %c4 : index
// CHECK: vector.load %arg1[%[[AT]]] {alignment = 16 : i64} : memref<1024xf32>, vector<4xf32>
// CHECK: vector.load %arg2[%[[AT]]] {alignment = 16 : i64} : memref<1024xf32>, vector<4xf32>
// CHECK-NOT: vector.load %arg0
// CHECK: arith.subf %[[X]], %{{.+}} : vector<4xf32>
// CHECK: %[[GX:.+]] = arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : vector<4xf32>
// CHECK: arith.addf %[[GX]], %{{.+}} fastmath<contract> : vector<4xf32>
// CHECK: vector.store %{{.+}}, %arg3[%[[ROW]], %[[AT]]] {alignment = 16 : i64} : memref<?x1024xf32>, vector<4xf32>
// Otherwise element by element: four elements of the row per thread, each
// loaded once, a thread's 256 apart.
// CHECK: } else {
// CHECK: vector.load %arg0[%[[ROW]], %[[TID]]] {alignment = 4 : i64} : memref<?x1024xf32>, vector<1xf32>
// CHECK-COUNT-3: vector.load %arg0[%[[ROW]], %{{.+}}] {alignment = 4 : i64} : memref<?x1024xf32>, vector<1xf32>
// CHECK-NOT: vector.load %arg0
// CHECK: gpu.all_reduce add
// CHECK-NOT: vector.load %arg0
// CHECK-COUNT-4: vector.store %{{.+}}, %arg3[%[[ROW]], %{{.+}}] {alignment = 4 : i64} : memref<?x1024xf32>, vector<1xf32>
// CHECK: gpu.terminator
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @layer_norm(%x: memref<?x1024xf32>, %g: memref<1024xf32>, %b: memref<1024xf32>, %y: memref<?x1024xf32>) {
  norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : memref<?x1024xf32>) scale(%g : memref<1024xf32>) bias(%b : memref<1024xf32>) affine_dims = [1]
      outs(%y : memref<?x1024xf32>)
  return
}

// -----

// RMSNorm on bf16 rows of dynamic length: the host condition also checks
// that the length is a multiple of the 8 elements of a 16-byte vector.
// vector<8xbf16> is widened to f32 for the sums (one, Σx², first with
// k = 1) and the result narrowed back before the store; w is widened as it
// is loaded along the row.
// CHECK-LABEL: func.func @rms_norm_bf16
// CHECK: %[[ROWS:.+]] = memref.dim %arg0, %c0 : memref<?x?xbf16>
// CHECK: %[[LEN:.+]] = memref.dim %arg0, %c1 : memref<?x?xbf16>
// CHECK: %[[REM:.+]] = arith.remui %[[LEN]], %c8 : index
// CHECK: arith.cmpi eq, %[[REM]], %c0 : index
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: memref.extract_aligned_pointer_as_index %arg2
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[VEC:.+]] = arith.andi
// CHECK: gpu.launch blocks(%[[ROW:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[ROWS]], %{{.+}} = %c1, %{{.+}} = %c1) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c256, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK: scf.if %[[VEC]] {
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[LEN]] step %{{.+}} iter_args(%{{.+}}) -> (vector<8xf32>)
// CHECK: %[[X:.+]] = vector.load %arg0[%[[ROW]], %{{.+}}] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: %[[XW:.+]] = arith.extf %[[X]] : vector<8xbf16> to vector<8xf32>
// CHECK: math.fma %[[XW]], %[[XW]], %{{.+}} : vector<8xf32>
// CHECK: gpu.all_reduce add %{{.+}} uniform
// CHECK: scf.if %{{.+}} -> (f32, f32) {
// CHECK: } else {
// CHECK: gpu.all_reduce maxsi %{{.+}} uniform
// CHECK: gpu.all_reduce add %{{.+}} uniform
// CHECK: math.rsqrt
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %[[LEN]] step %{{.+}} {
// CHECK: %[[W:.+]] = vector.load %arg1[%[[J]]] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK: arith.extf %[[W]] : vector<8xbf16> to vector<8xf32>
// CHECK: vector.load %arg0[%[[ROW]], %[[J]]] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: %[[Y:.+]] = arith.truncf %{{.+}} : vector<8xf32> to vector<8xbf16>
// CHECK: vector.store %[[Y]], %arg2[%[[ROW]], %[[J]]] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: } else {
// CHECK: vector.load %arg0[%[[ROW]], %{{.+}}] {alignment = 2 : i64} : memref<?x?xbf16>, vector<1xbf16>
// CHECK: arith.truncf %{{.+}} : vector<1xf32> to vector<1xbf16>
// CHECK: vector.store %{{.+}}, %arg2[%[[ROW]], %{{.+}}] {alignment = 2 : i64} : memref<?x?xbf16>, vector<1xbf16>
func.func @rms_norm_bf16(%x: memref<?x?xbf16>, %w: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : memref<?x?xbf16>) scale(%w : memref<?xbf16>) affine_dims = [1]
      outs(%y : memref<?x?xbf16>)
  return
}

// -----

// Short static rows (128 floats): a warp per row, 8 rows per block of 256
// threads, so the 64 rows take 8 blocks. A block's warp w owns row
// 8·block + w (the spare warps of a last partial block skip everything),
// its lane the thread index; the row is in registers (one vector<4xf32> a
// lane) and the sums are warp reductions: no shared memory, no barrier.
// L2 mode sums (k·x)² once.
// CHECK-LABEL: func.func @short_rows
// CHECK: gpu.launch blocks(%[[B:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c8, %{{.+}} = %c1, %{{.+}} = %c1) threads(%[[T:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c256, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK: %[[WARP:.+]] = arith.divui %[[T]], %c32 : index
// CHECK: %[[FIRST:.+]] = arith.muli %[[B]], %c8 : index
// CHECK: %[[ROW:.+]] = arith.addi %[[FIRST]], %[[WARP]] : index
// CHECK: %[[LANE:.+]] = arith.remui %[[T]], %c32 : index
// CHECK: %[[MINE:.+]] = arith.cmpi ult, %[[ROW]], %c64 : index
// CHECK: scf.if %[[MINE]] {
// CHECK: scf.if
// CHECK: %[[AT:.+]] = arith.muli %[[LANE]], %c4 : index
// CHECK: vector.load %arg0[%[[ROW]], %[[AT]]] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK-NOT: gpu.all_reduce
// CHECK: gpu.subgroup_reduce add %{{.+}} uniform : (f32) -> f32
// CHECK-NOT: gpu.all_reduce
// CHECK: gpu.subgroup_reduce maxsi %{{.+}} uniform : (i32) -> i32
// CHECK-NOT: gpu.all_reduce
// CHECK: vector.store %{{.+}}, %arg1[%[[ROW]], %{{.+}}] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
func.func @short_rows(%x: memref<64x128xf32>, %y: memref<64x128xf32>) {
  norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : memref<64x128xf32>) outs(%y : memref<64x128xf32>)
  return
}

// -----

// GroupNorm NCHW, 8 groups of 4 channels: the channel dim is expanded and
// the spatial dims collapsed into one run of 64; a block per (n, group)
// slice (16), its id split into both. The run is 16 vectors: 16 of the 32
// threads cover it, and the other 16 take every other channel of the group
// (the loop around the run's); γ and β are loaded once per channel, outside
// the run's loop.
// CHECK-LABEL: func.func @group_norm
// CHECK: memref.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 8, 4, 8, 8] : memref<2x32x8x8xf32> into memref<2x8x4x8x8xf32>
// CHECK: %[[X:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : memref<2x8x4x8x8xf32> into memref<2x8x4x64xf32>
// CHECK: %[[Y:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : memref<2x8x4x8x8xf32> into memref<2x8x4x64xf32>
// CHECK: %[[G:.+]] = memref.expand_shape %arg1 {{\[}}[0, 1]] output_shape [8, 4] : memref<32xf32> into memref<8x4xf32>
// CHECK: %[[B:.+]] = memref.expand_shape %arg2 {{\[}}[0, 1]] output_shape [8, 4] : memref<32xf32> into memref<8x4xf32>
// CHECK: gpu.launch blocks(%[[BID:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c16, %{{.+}} = %c1, %{{.+}} = %c1) threads(%[[TID:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%[[NT:[a-z0-9_]+]] = %c32, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK: %[[GROUP:.+]] = arith.remui %[[BID]], %c8 : index
// CHECK: %[[N:.+]] = arith.divui %[[BID]], %c8 : index
// CHECK: scf.if
// CHECK: %[[INNER:.+]] = arith.minui %[[NT]], %c16 : index
// CHECK: %[[LANE:.+]] = arith.remui %[[TID]], %[[INNER]] : index
// CHECK: %[[FIRSTC:.+]] = arith.divui %[[TID]], %[[INNER]] : index
// CHECK: %[[CSTEP:.+]] = arith.divui %[[NT]], %[[INNER]] : index
// CHECK: scf.for %[[C:.+]] = %[[FIRSTC]] to %c4 step %[[CSTEP]] iter_args(%{{.+}}) -> (vector<4xf32>)
// CHECK: %[[START:.+]] = arith.muli %[[LANE]], %c4 : index
// CHECK: %[[STEP:.+]] = arith.muli %[[INNER]], %c4 : index
// CHECK: scf.for %[[I:.+]] = %[[START]] to %c64 step %[[STEP]] iter_args(%{{.+}}) -> (vector<4xf32>)
// CHECK: vector.load %[[X]][%[[N]], %[[GROUP]], %[[C]], %[[I]]] {alignment = 16 : i64} : memref<2x8x4x64xf32>, vector<4xf32>
// CHECK: gpu.all_reduce add
// CHECK: math.rsqrt
// CHECK: scf.for %[[C2:.+]] = %{{.+}} to %c4 step %{{.+}} {
// CHECK: memref.load %[[G]][%[[GROUP]], %[[C2]]] : memref<8x4xf32>
// CHECK: memref.load %[[B]][%[[GROUP]], %[[C2]]] : memref<8x4xf32>
// CHECK: scf.for %[[I2:.+]] = %{{.+}} to %c64 step %{{.+}} {
// CHECK: vector.store %{{.+}}, %[[Y]][%[[N]], %[[GROUP]], %[[C2]], %[[I2]]] {alignment = 16 : i64} : memref<2x8x4x64xf32>, vector<4xf32>
func.func @group_norm(%x: memref<2x32x8x8xf32>, %g: memref<32xf32>, %b: memref<32xf32>, %y: memref<2x32x8x8xf32>) {
  norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : memref<2x32x8x8xf32>) scale(%g : memref<32xf32>) bias(%b : memref<32xf32>) affine_dims = [1]
      outs(%y : memref<2x32x8x8xf32>)
  return
}

// -----

// BatchNorm training (NCHW): a block per channel (16); the batch dim is a
// loop inside the block around the threads' loop over H·W, whose 16
// vectors take 16 of the 32 threads: the other 16 take every other batch
// row. After
// the normalize pass thread 0 alone stores the saved mean and variance and
// updates the running statistics (unbiased variance, momentum 0.1).
// CHECK-LABEL: func.func @batch_norm_training
// CHECK: %[[X:.+]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<4x16x8x8xf32> into memref<4x16x64xf32>
// CHECK: gpu.launch blocks(%[[CH:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c16, %{{.+}} = %c1, %{{.+}} = %c1) threads(%[[TID:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%[[NT:[a-z0-9_]+]] = %c32, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK: scf.if
// CHECK: %[[INNER:.+]] = arith.minui %[[NT]], %c16 : index
// CHECK: %[[FIRSTN:.+]] = arith.divui %[[TID]], %[[INNER]] : index
// CHECK: %[[NSTEP:.+]] = arith.divui %[[NT]], %[[INNER]] : index
// CHECK: scf.for %[[BATCH:.+]] = %[[FIRSTN]] to %c4 step %[[NSTEP]] iter_args(%{{.+}}) -> (vector<4xf32>)
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %c64 step %{{.+}} iter_args(%{{.+}}) -> (vector<4xf32>)
// CHECK: vector.load %[[X]][%[[BATCH]], %[[CH]], %[[I]]] {alignment = 16 : i64} : memref<4x16x64xf32>, vector<4xf32>
// CHECK: gpu.all_reduce add
// CHECK: vector.store
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[TID]], %c0 : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store %{{.+}}, %arg4[%[[CH]]] : memref<16xf32>
// CHECK: memref.store %{{.+}}, %arg5[%[[CH]]] : memref<16xf32>
// CHECK: memref.load %arg1[%[[CH]]] : memref<16xf32>
// CHECK: memref.store %{{.+}}, %arg1[%[[CH]]] : memref<16xf32>
// CHECK: memref.load %arg2[%[[CH]]] : memref<16xf32>
// CHECK: memref.store %{{.+}}, %arg2[%[[CH]]] : memref<16xf32>
// CHECK: } else {
func.func @batch_norm_training(%x: memref<4x16x8x8xf32>, %rm: memref<16xf32>, %rv: memref<16xf32>, %y: memref<4x16x8x8xf32>, %sm: memref<16xf32>, %sv: memref<16xf32>) {
  norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : memref<4x16x8x8xf32>) outs(%y : memref<4x16x8x8xf32>)
      saved(%sm, %sv : memref<16xf32>, memref<16xf32>)
      running(%rm, %rv : memref<16xf32>, memref<16xf32>)
  return
}

// -----

// BatchNorm inference (given statistics): elementwise, a block per run of
// H·W (N·C = 512 blocks), nothing reduced. The channel's mean, rsqrt(var + ε),
// γ and β are loaded once per block, before the threads' loop.
// CHECK-LABEL: func.func @batch_norm_inference
// CHECK: %[[X:.+]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<8x64x28x28xf32> into memref<8x64x784xf32>
// CHECK: gpu.launch blocks(%[[BID:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c512, %{{.+}} = %c1, %{{.+}} = %c1) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c256, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK-NOT: gpu.all_reduce
// CHECK: %[[CH:.+]] = arith.remui %[[BID]], %c64 : index
// CHECK: %[[N:.+]] = arith.divui %[[BID]], %c64 : index
// CHECK: scf.if
// CHECK: memref.load %arg3[%[[CH]]] : memref<64xf32>
// CHECK: %[[VAR:.+]] = memref.load %arg4[%[[CH]]] : memref<64xf32>
// CHECK: %[[VE:.+]] = arith.addf %[[VAR]], %{{.+}} : f32
// CHECK: math.rsqrt %[[VE]] : f32
// CHECK: memref.load %arg1[%[[CH]]] : memref<64xf32>
// CHECK: memref.load %arg2[%[[CH]]] : memref<64xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %c784 step %{{.+}} {
// CHECK-NOT: memref.load
// CHECK: vector.load %[[X]][%[[N]], %[[CH]], %[[I]]] {alignment = 16 : i64} : memref<8x64x784xf32>, vector<4xf32>
// CHECK: vector.store
// CHECK-NOT: gpu.all_reduce
// CHECK: return
func.func @batch_norm_inference(%x: memref<8x64x28x28xf32>, %g: memref<64xf32>, %b: memref<64xf32>, %m: memref<64xf32>, %v: memref<64xf32>, %y: memref<8x64x28x28xf32>) {
  norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05
      ins(%x : memref<8x64x28x28xf32>) scale(%g : memref<64xf32>) bias(%b : memref<64xf32>) affine_dims = [1]
      stats(%m, %v : memref<64xf32>, memref<64xf32>)
      outs(%y : memref<8x64x28x28xf32>)
  return
}

// -----

// BatchNorm training channels-last (NHWC): the innermost dim (C) is not
// reduced, so a block per channel and its threads stride over the collapsed
// N·H·W element by element: no vector path, no host condition.
// CHECK-LABEL: func.func @batch_norm_channels_last
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: %[[X:.+]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : memref<?x7x7x64xf32> into memref<?x64xf32>
// CHECK: %[[NHW:.+]] = memref.dim %[[X]], %c0 : memref<?x64xf32>
// CHECK: gpu.launch blocks(%[[CH:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c64, %{{.+}} = %c1, %{{.+}} = %c1) threads(%[[TID:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%[[NT:[a-z0-9_]+]] = %c256, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK-NOT: scf.if
// CHECK: scf.for %[[I:.+]] = %[[TID]] to %[[NHW]] step %[[NT]] iter_args(%{{.+}}) -> (vector<1xf32>)
// CHECK: vector.load %[[X]][%[[I]], %[[CH]]] {alignment = 4 : i64} : memref<?x64xf32>, vector<1xf32>
// CHECK-NOT: vector<4xf32>
// CHECK: scf.if %{{.+}} -> (f32, f32, f32) {
// CHECK-NOT: vector<4xf32>
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %[[CH]]] {alignment = 4 : i64} : memref<?x64xf32>, vector<1xf32>
// CHECK-NOT: vector<4xf32>
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %arg1[%[[CH]]] : memref<64xf32>
// CHECK: memref.store %{{.+}}, %arg2[%[[CH]]] : memref<64xf32>
func.func @batch_norm_channels_last(%x: memref<?x7x7x64xf32>, %rm: memref<64xf32>, %rv: memref<64xf32>, %y: memref<?x7x7x64xf32>) {
  norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased
      ins(%x : memref<?x7x7x64xf32>) outs(%y : memref<?x7x7x64xf32>)
      running(%rm, %rv : memref<64xf32>, memref<64xf32>)
  return
}

// -----

// The tensor form is left for bufferization.
// CHECK-LABEL: func.func @tensor_form
// CHECK-NOT: gpu.launch
// CHECK: norm.normalize rms
func.func @tensor_form(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<4x16xf32>) outs(%y : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A row of 1000 does not split evenly over 256 threads of 4 floats: the
// threads past the end (tid ≥ 250) load nothing and skip every step of the
// passes, so the zeros they hold never reach a sum.
// CHECK-LABEL: func.func @uneven_resident_row
// CHECK: gpu.launch
// CHECK: scf.if %{{.+}} {
// CHECK: %[[START:.+]] = arith.muli %{{.+}}, %c4 : index
// CHECK: %[[INSIDE:.+]] = arith.cmpi ult, %[[START]], %c1000 : index
// CHECK: %[[X:.+]] = scf.if %[[INSIDE]] -> (vector<4xf32>) {
// CHECK: vector.load %arg0[%{{.+}}, %[[START]]] {alignment = 16 : i64}
// CHECK: } else {
// CHECK: scf.yield %[[ZEROS:.+]] : vector<4xf32>
// CHECK: %[[ON:.+]] = arith.cmpi ult, %{{.+}}, %c1000 : index
// CHECK: scf.if %[[ON]] -> (vector<4xf32>) {
// CHECK: math.fma %[[X]], %[[X]], %{{.+}} : vector<4xf32>
// CHECK: gpu.all_reduce add
// CHECK: math.rsqrt
// CHECK: %[[STORING:.+]] = arith.cmpi ult, %[[AT:.+]], %c1000 : index
// CHECK: scf.if %[[STORING]] {
// CHECK: vector.store %{{.+}}, %arg2[%{{.+}}, %[[AT]]] {alignment = 16 : i64}
func.func @uneven_resident_row(%x: memref<?x1000xf32>, %g: memref<1000xf32>, %y: memref<?x1000xf32>) {
  norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : memref<?x1000xf32>) scale(%g : memref<1000xf32>) affine_dims = [1]
      outs(%y : memref<?x1000xf32>)
  return
}

// -----

// BatchNorm training over 32x64x56x56: 64 channels would be 64 blocks on a
// GPU of 132 SMs. Each channel is split into 5 parts along N (a block each,
// 320 blocks), over three launches in one kernel module that share a
// workspace (Σx and max|x| per part; Σd and Σd² per part, every block
// combining its channel's partials in part order; then the statistics and
// the normalize pass, the first part writing the saved and running
// statistics). Part p covers [p·32/5, (p+1)·32/5) of N.
// The workspace belongs to the call: allocated on the launches' stream
// before them, freed after them.
// CHECK-LABEL: func.func @split_batch_norm
// CHECK: %[[READY:.+]] = gpu.wait async
// CHECK: %[[WSM:.+]], %[[ALLOCATED:.+]] = gpu.alloc async [%[[READY]]] () : memref<1280xf32>
// CHECK: gpu.launch blocks(%[[B1:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c320, %{{.+}} = %c1, %{{.+}} = %c1) threads(%{{.+}}) in (%{{.+}} = %c256, %{{.+}} = %c1, %{{.+}} = %c1) module(@[[WS:[a-z0-9_]+_split[a-z0-9_]*]]_kernels) function(@[[WS]]_partial)
// CHECK: %[[PART:.+]] = arith.remui %[[B1]], %c5 : index
// CHECK: %[[LOW:.+]] = arith.muli %[[PART]], %c32 : index
// CHECK: arith.divui %[[LOW]], %c5 : index
// CHECK: %[[LO:.+]] = arith.select
// CHECK: %[[NEXT:.+]] = arith.addi %[[PART]], %c1 : index
// CHECK: %[[HIGH:.+]] = arith.muli %[[NEXT]], %c32 : index
// CHECK: %[[HIDIV:.+]] = arith.divui %[[HIGH]], %c5 : index
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[NEXT]], %c5 : index
// CHECK: %[[HI:.+]] = arith.select %[[LAST]], %c32, %[[HIDIV]] : index
// The run (784 vectors) covers the block: every thread strides over it,
// each part's rows one after the other.
// CHECK: %[[INNER:.+]] = arith.minui %[[NT:.+]], %c1024 : index
// CHECK: %[[FIRST:.+]] = arith.divui %{{.+}}, %[[INNER]] : index
// CHECK: %[[FROM:.+]] = arith.addi %[[LO]], %[[FIRST]] : index
// CHECK: %[[ROWSTEP:.+]] = arith.divui %[[NT]], %[[INNER]] : index
// CHECK: scf.for %{{.+}} = %[[FROM]] to %[[HI]] step %[[ROWSTEP]] iter_args({{.+}}) -> (vector<4xf32>, vector<4xi32>)
// CHECK: gpu.all_reduce add
// CHECK: gpu.all_reduce maxsi
// CHECK: memref.store %{{.+}}, %[[WSM]][%{{.+}}] : memref<1280xf32>
// CHECK: gpu.launch {{.+}} module(@[[WS]]_kernels) function(@[[WS]]_deviation)
// CHECK: scf.for %{{.+}} = %c0 to %c5 step %c1 iter_args({{.+}}) -> (f32, i32, f32, f32)
// CHECK: math.fma
// CHECK: gpu.all_reduce add
// CHECK: gpu.all_reduce add
// CHECK: gpu.launch {{.+}} module(@[[WS]]_kernels) function(@[[WS]]_normalize)
// CHECK: scf.for %{{.+}} = %c0 to %c5 step %c1 iter_args({{.+}}) -> (f32, i32, f32, f32)
// CHECK: math.rsqrt
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<32x64x3136xf32>, vector<4xf32>
// CHECK: %[[FIRSTPART:.+]] = arith.cmpi eq, %{{.+}}, %c0 : index
// CHECK: scf.if %[[FIRSTPART]] {
// CHECK: memref.store %{{.+}}, %arg6
// CHECK: memref.store %{{.+}}, %arg7
// CHECK: %[[FREED:.+]] = gpu.dealloc async [%[[ALLOCATED]]] %[[WSM]] : memref<1280xf32>
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK-NOT: memref.global
func.func @split_batch_norm(%x: memref<32x64x56x56xf32>, %g: memref<64xf32>, %b: memref<64xf32>, %y: memref<32x64x56x56xf32>, %sm: memref<64xf32>, %sv: memref<64xf32>, %rm: memref<64xf32>, %rv: memref<64xf32>) {
  norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 1.000000e-01 unbiased saved_variance
      ins(%x : memref<32x64x56x56xf32>) scale(%g : memref<64xf32>) bias(%b : memref<64xf32>) affine_dims = [1]
      outs(%y : memref<32x64x56x56xf32>) saved(%sm, %sv : memref<64xf32>, memref<64xf32>) running(%rm, %rv : memref<64xf32>, memref<64xf32>)
  return
}

// -----

// With dynamic shapes the split is decided on the host: parts = min(⌈264 /
// channels⌉, 32, N, elements per channel / 8192); at least 2 parts and
// fewer than 264 channels take the three split launches (workspace sized
// for the most parts: 264 · 32 · 4 floats), else the single launch.
// CHECK-LABEL: func.func @dynamic_split_batch_norm
// CHECK: %[[N:.+]] = memref.dim %arg0, %c0
// CHECK: %[[C:.+]] = memref.dim %arg0, %c1
// CHECK: %[[P0:.+]] = arith.ceildivui %c264, %{{.+}} : index
// CHECK: %[[P1:.+]] = arith.minui %[[P0]], %c32 : index
// CHECK: %[[P2:.+]] = arith.minui %[[P1]], %[[N]] : index
// CHECK: %[[PARTS:.+]] = arith.minui %[[P2]], %{{.+}} : index
// CHECK: %[[ENOUGH:.+]] = arith.cmpi uge, %[[PARTS]], %c2 : index
// CHECK: %[[SPLIT:.+]] = arith.andi %{{.+}}, %[[ENOUGH]] : i1
// CHECK: scf.if %[[SPLIT]] {
// CHECK: %[[WSM:.+]], %{{.+}} = gpu.alloc async [%{{.+}}] () : memref<33792xf32>
// CHECK: gpu.launch {{.+}} module(@[[WS:[a-z0-9_]+_split[a-z0-9_]*]]_kernels) function(@[[WS]]_partial)
// CHECK: memref.store %{{.+}}, %[[WSM]][%{{.+}}] : memref<33792xf32>
// CHECK: gpu.launch {{.+}} function(@[[WS]]_deviation)
// CHECK: gpu.launch {{.+}} function(@[[WS]]_normalize)
// CHECK: gpu.dealloc async [%{{.+}}] %[[WSM]] : memref<33792xf32>
// CHECK: } else {
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C]],
// CHECK-NOT: module(
// CHECK-NOT: memref.global
func.func @dynamic_split_batch_norm(%x: memref<?x?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>, %y: memref<?x?x?xf32>) {
  norm.normalize standard axes = [0, 2] epsilon = 1.0e-05
      ins(%x : memref<?x?x?xf32>) scale(%g : memref<?xf32>) bias(%b : memref<?xf32>) affine_dims = [1]
      outs(%y : memref<?x?x?xf32>)
  return
}

// -----

// A few long rows (16 of 65536) are split along the row itself: 8 parts of
// 8192 floats, a block of 256 threads each (128 blocks), the part bounds in
// whole vectors of 4; each thread starts at its part's start.
// CHECK-LABEL: func.func @split_rows
// CHECK: gpu.launch blocks(%[[B:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c128, %{{.+}} = %c1, %{{.+}} = %c1) threads(%[[T:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%[[NT:[a-z0-9_]+]] = %c256, %{{.+}} = %c1, %{{.+}} = %c1) module(@[[WS:[a-z0-9_]+_split[a-z0-9_]*]]_kernels) function(@[[WS]]_partial)
// CHECK: %[[ROW:.+]] = arith.divui %[[B]], %c8 : index
// CHECK: %[[PART:.+]] = arith.remui %[[B]], %c8 : index
// CHECK: %[[UNITS:.+]] = arith.muli %[[PART]], %c16384 : index
// CHECK: %[[FIRST:.+]] = arith.divui %[[UNITS]], %c8 : index
// CHECK: %[[START:.+]] = arith.muli %[[FIRST]], %c4 : index
// CHECK: %[[LO:.+]] = arith.select %{{.+}}, %c65536, %[[START]] : index
// CHECK: %[[HI:.+]] = arith.select %{{.+}}, %c65536, %{{.+}} : index
// CHECK: scf.if
// CHECK: %[[MINE:.+]] = arith.muli %[[T]], %c4 : index
// CHECK: %[[STEP:.+]] = arith.muli %[[NT]], %c4 : index
// CHECK: %[[FROM:.+]] = arith.addi %[[LO]], %[[MINE]] : index
// CHECK: scf.for %[[I:.+]] = %[[FROM]] to %[[HI]] step %[[STEP]]
// CHECK: vector.load %arg0[%[[ROW]], %[[I]]] {alignment = 16 : i64} : memref<16x65536xf32>, vector<4xf32>
// CHECK: function(@[[WS]]_deviation)
// CHECK: function(@[[WS]]_normalize)
// CHECK: gpu.dealloc async [%{{.+}}] %{{.+}} : memref<512xf32>
func.func @split_rows(%x: memref<16x65536xf32>, %g: memref<65536xf32>, %b: memref<65536xf32>, %y: memref<16x65536xf32>) {
  norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : memref<16x65536xf32>) scale(%g : memref<65536xf32>) bias(%b : memref<65536xf32>) affine_dims = [1]
      outs(%y : memref<16x65536xf32>)
  return
}

// -----

// The host function's memrefs hold device pointers: a copy between two of
// them (bufferization's copy of the running statistics into their results)
// becomes a device-to-device gpu.memcpy, waited for before the launch.
// CHECK-LABEL: func.func @copy_between_device_buffers
// CHECK-NOT: memref.copy
// CHECK: %[[READY:.+]] = gpu.wait async
// CHECK: %[[COPIED:.+]] = gpu.memcpy async [%[[READY]]] %arg3, %arg2 : memref<64xf32>, memref<64xf32>
// CHECK: gpu.wait [%[[COPIED]]]
// CHECK: gpu.launch
func.func @copy_between_device_buffers(%x: memref<8x64xf32>, %y: memref<8x64xf32>,
                                       %running: memref<64xf32>, %updated: memref<64xf32>) {
  memref.copy %running, %updated : memref<64xf32> to memref<64xf32>
  norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : memref<8x64xf32>) outs(%y : memref<8x64xf32>)
  return
}

// -----

// BatchNorm over a dynamic [N, C, H·W]: H·W may be 1 at run time
// (BatchNorm1d over [N, C]). The threads along the run are the least power
// of two covering its vectors, at most the block; the rest stride over the
// part's batch rows, so a long channel is never one thread's sequential sum.
// CHECK-LABEL: func.func @batch_norm_over_nc
// CHECK: gpu.launch {{.+}} threads(%[[TID:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%[[NT:[a-z0-9_]+]] = %c256, %{{.+}} = %c1, %{{.+}} = %c1) module(@[[WS:[a-z0-9_]+]]_split_kernels) function(@[[WS]]_split_partial)
// CHECK: %[[VECTORS:.+]] = arith.ceildivui %[[LEN:.+]], %c4 : index
// CHECK: %[[LE512:.+]] = arith.cmpi ule, %[[VECTORS]], %c512 : index
// CHECK: arith.select %[[LE512]], %c512, %c1024 : index
// CHECK-COUNT-8: arith.select
// CHECK: %[[LE1:.+]] = arith.cmpi ule, %[[VECTORS]], %c1 : index
// CHECK: %[[POW2:.+]] = arith.select %[[LE1]], %c1, %{{.+}} : index
// CHECK: %[[INNER:.+]] = arith.minui %[[POW2]], %[[NT]] : index
// CHECK: %[[LANE:.+]] = arith.remui %[[TID]], %[[INNER]] : index
// CHECK: %[[ROW:.+]] = arith.divui %[[TID]], %[[INNER]] : index
// CHECK: %[[FROM:.+]] = arith.addi %{{.+}}, %[[ROW]] : index
// CHECK: %[[ROWSTEP:.+]] = arith.divui %[[NT]], %[[INNER]] : index
// CHECK: scf.for %{{.+}} = %[[FROM]] to %{{.+}} step %[[ROWSTEP]]
// CHECK: %[[START:.+]] = arith.muli %[[LANE]], %c4 : index
// CHECK: %[[STEP:.+]] = arith.muli %[[INNER]], %c4 : index
// CHECK: scf.for %{{.+}} = %[[START]] to %[[LEN]] step %[[STEP]]
func.func @batch_norm_over_nc(%x: memref<?x?x?xf32>, %rm: memref<?xf32>, %rv: memref<?xf32>, %y: memref<?x?x?xf32>, %sm: memref<?xf32>, %sv: memref<?xf32>) {
  norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : memref<?x?x?xf32>) outs(%y : memref<?x?x?xf32>)
      saved(%sm, %sv : memref<?xf32>, memref<?xf32>)
      running(%rm, %rv : memref<?xf32>, memref<?xf32>)
  return
}
