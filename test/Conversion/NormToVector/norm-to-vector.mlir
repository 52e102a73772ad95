// RUN: norm-opt %s --convert-norm-to-vector --canonicalize --split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-vector="vector-bits=512 accumulators=2" --canonicalize --split-input-file | FileCheck %s --check-prefix=W512

// LayerNorm over rows of 768: one parallel loop over groups of rows, as
// many as fit in 8 KiB (here 2: 3 KiB rows). Pass 1 of each row of the group
// sums x in 4 independent vector<8xf32> accumulators and leaves the sum in a
// lane of the group's vector; the group's means are one vector division.
// Pass 2 of each row sums the deviations and their squares with k = 1 and
// checks the sum of squares; only when it is out of range (not finite, or
// below 2^-60) does max|x| (integer max of the magnitude bits) give a scale
// factor k for a second, scaled pass 2. The statistics of the group are
// computed once on the lane vectors; pass 3 normalizes each row with γ and
// β loaded along it. Nothing is allocated.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: memref.alloc
// CHECK: %[[GROUPS:.+]] = arith.divui %{{.+}}, %c2 : index
// CHECK: scf.parallel (%[[G:.+]]) = (%c0) to (%[[GROUPS]]) step (%c1)
// CHECK: %[[FIRST:.+]] = arith.muli %[[G]], %c2 : index
// CHECK: %[[SIZE:.+]] = arith.minui %{{.+}}, %c2 : index
// A row's sum runs in blocks of 16 chunks (512 elements: 16 terms per
// lane) whose lane sums join compensated totals.
// CHECK: scf.for %[[R1:.+]] = %c0 to %[[SIZE]] step %c1 iter_args({{.*}}) -> (vector<8xf32>)
// CHECK: scf.for %[[B1:.+]] = %c0 to %c768 step %c512 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>)
// CHECK: %[[B1END:.+]] = arith.minui %{{.+}}, %c768 : index
// CHECK: scf.for %{{.+}} = %[[B1]] to %[[B1END]] step %c32 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-4: vector.load %arg0[%{{.+}}, %{{.+}}] : memref<?x768xf32>, vector<8xf32>
// CHECK: vector.reduction <add>
// CHECK: vector.insert %{{.+}}, %{{.+}} [%[[R1]]] : f32 into vector<8xf32>
// CHECK: arith.divf %{{.+}}, %{{.+}} : vector<8xf32>
// While pass 2 runs on the cached row, the same row of the next group is
// prefetched into L2 (two prefetches per 128-byte chunk).
// CHECK: scf.for %[[R2:.+]] = %c0 to %[[SIZE]] step %c1 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.extract %{{.+}}[%[[R2]]] : f32 from vector<8xf32>
// CHECK: scf.while (%{{.+}} = %cst{{.*}}, %{{.+}} = %true) : (f32, i1) -> (f32, f32, f32)
// CHECK: arith.addi %{{.+}}, %c1536 : index
// CHECK: scf.for %[[B2:.+]] = %c0 to %c768 step %c512 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: %[[B2END:.+]] = arith.minui %{{.+}}, %c768 : index
// CHECK: scf.for %{{.+}} = %[[B2]] to %[[B2END]] step %c32 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-2: memref.prefetch %{{.+}}[%{{.+}}], read, locality<2>, data : memref<?xf32>
// CHECK: %[[INRANGE:.+]] = arith.cmpf oge, %{{.+}}, %cst{{.*}} : f32
// CHECK: scf.condition
// The max|x| pass of that rare case is small: one accumulator, no blocks.
// CHECK: scf.for %{{.+}} = %c0 to %c768 step %c8 iter_args({{.*}}) -> (vector<8xi32>)
// CHECK: vector.reduction <maxsi>
// CHECK: scf.yield %{{.+}}, %false : f32, i1
// CHECK: math.rsqrt %{{.+}} : vector<8xf32>
// CHECK: scf.for %[[R3:.+]] = %c0 to %[[SIZE]] step %c1 {
// Outputs beyond 16 MiB whose row starts on a vector boundary are written
// with aligned streaming stores; the others with plain stores.
// CHECK: memref.extract_aligned_pointer_as_index %arg3
// CHECK: scf.if
// CHECK: scf.for %{{.+}} = %c0 to %c768 step %c8
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %arg0
// CHECK: vector.load %arg1
// CHECK: vector.load %arg2
// CHECK: vector.store %{{.+}}, %arg3[%{{.+}}, %{{.+}}] {alignment = 32 : i64, nontemporal = true}
// CHECK: } else {
// CHECK: scf.for %{{.+}} = %c0 to %c768 step %c8
// CHECK: vector.store %{{.+}}, %arg3[%{{.+}}, %{{.+}}] : memref<?x768xf32>, vector<8xf32>
// CHECK: scf.reduce
// CHECK-NOT: memref.alloc
// CHECK: return

// W512-LABEL: func.func @layer_norm
// W512: scf.for %[[B:.+]] = %c0 to %c768 step %c512 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>)
// W512: %[[BEND:.+]] = arith.minui %{{.+}}, %c768 : index
// W512: scf.for %{{.+}} = %[[B]] to %[[BEND]] step %c32 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>)
func.func @layer_norm(%x: memref<?x768xf32>, %g: memref<768xf32>, %b: memref<768xf32>, %y: memref<?x768xf32>) {
  norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : memref<?x768xf32>) scale(%g : memref<768xf32>) bias(%b : memref<768xf32>) affine_dims = [1]
      outs(%y : memref<?x768xf32>)
  return
}

// -----

// Dynamic row length: the group size is chosen at run time. A row is summed
// as a masked tail, then blocks of whole chunks, each in fresh
// accumulators; the first block adds to the tail's sums, later ones are
// compensated into the totals. f16 is widened in registers.
// CHECK-LABEL: func.func @rms_norm_dynamic
// CHECK: %[[REM:.+]] = arith.remui %[[N:.+]], %c32
// CHECK: %[[CHUNKEND:.+]] = arith.subi %[[N]], %[[REM]]
// Once per kernel: whether a run holds a whole vector, where its last one
// starts, whether a partial vector ends it.
// CHECK: %[[VREM:.+]] = arith.remui %[[N]], %c8
// CHECK: %[[VECEND:.+]] = arith.subi %[[N]], %[[VREM]]
// CHECK: %[[WHOLE:.+]] = arith.cmpi uge, %[[N]], %c8 : index
// CHECK: %[[NMAX:.+]] = arith.maxui %[[N]], %c8 : index
// CHECK: %[[LAST:.+]] = arith.subi %[[NMAX]], %c8 : index
// CHECK: %[[HASPARTIAL:.+]] = arith.cmpi ult, %[[VECEND]], %[[N]] : index
// CHECK: %[[BYTES:.+]] = arith.maxui %{{.+}}, %c1 : index
// CHECK: %[[FIT:.+]] = arith.divui %c8192, %[[BYTES]] : index
// CHECK: %[[CAPPED:.+]] = arith.minui %[[FIT]], %c8 : index
// CHECK: arith.maxui %[[CAPPED]], %c1 : index
// CHECK: scf.parallel
// RMSNorm needs one pass, Σx², first with k = 1.
// CHECK: scf.while
// The tail first: whole vectors, then the partial one. AVX2 has no 16-bit
// masked load: in a run of at least one vector, the partial vector is the
// run's last whole vector with the lanes already summed zeroed.
// CHECK: %[[TAIL:.+]] = scf.for %{{.+}} = %[[CHUNKEND]] to %[[VECEND]] step %c8
// CHECK: %[[PARTIAL:.+]] = scf.if %[[HASPARTIAL]] -> (vector<8xf32>) {
// CHECK: scf.if %[[WHOLE]] -> (vector<8xf32>) {
// CHECK: %[[SUMMED:.+]] = arith.subi %[[VECEND]], %[[LAST]] : index
// CHECK: %[[BEFORE:.+]] = vector.create_mask %[[SUMMED]] : vector<8xi1>
// CHECK: %[[TOCOUNT:.+]] = arith.xori %[[BEFORE]], %{{.+}} : vector<8xi1>
// CHECK: vector.load %arg0[%{{.+}}, %[[LAST]]] : memref<?x?xf16>, vector<8xf16>
// CHECK: arith.select %[[TOCOUNT]], %{{.+}}, %{{.+}} : vector<8xi1>, vector<8xf32>
// Shorter runs: element by element, as i16, in a loop LLVM keeps rolled.
// CHECK: } else {
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %c1 iter_args(%{{.+}} = %{{.+}}) -> (vector<8xi16>)
// CHECK: vector.load %arg0[%{{.+}}, %{{.+}}] : memref<?x?xf16>, vector<1xf16>
// CHECK: vector.insert %{{.+}}, %{{.+}} [%{{.+}}] : i16 into vector<8xi16>
// CHECK: } {loop_annotation = #{{.+}}}
// CHECK: scf.for %[[BLOCK:.+]] = %c0 to %[[CHUNKEND]] step %c512 iter_args(%{{.+}} = %[[PARTIAL]], %{{.+}} = %{{.+}})
// CHECK: arith.minui
// CHECK: scf.for %{{.+}} = %[[BLOCK]] to %{{.+}} step %c32
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[BLOCK]], %c0 : index
// CHECK: arith.select %[[FIRST]]
// CHECK: scf.condition
// max|x| on the second try only.
// CHECK: vector.reduction <maxsi>
// The normalize pass loads the last whole vector of x before any store (y
// may be x), and stores it whole after the others.
// CHECK: %[[LASTX:.+]] = scf.if %{{.+}} -> (vector<8xf32>) {
// CHECK: vector.load %arg0[%{{.+}}, %[[LAST]]] : memref<?x?xf16>, vector<8xf16>
// CHECK: vector.load {{.*}} : memref<?x?xf16>, vector<8xf16>
// CHECK: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: scf.if %[[HASPARTIAL]] {
// CHECK: scf.if %[[WHOLE]] {
// CHECK: vector.load %{{.+}}[%[[LAST]]] : memref<?xf32>, vector<8xf32>
// CHECK: arith.mulf %[[LASTX]]
// CHECK: vector.store %{{.+}}, %arg2[%{{.+}}, %[[LAST]]] : memref<?x?xf16>, vector<8xf16>
// CHECK: } else {
// CHECK: vector.maskedload {{.*}} : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: %[[HALF:.+]] = vector.bitcast %{{.+}} : vector<8xf16> to vector<8xi16>
// CHECK: scf.for %[[J:.+]] = %c0 to %{{.+}} step %c1 {
// CHECK: vector.extract %[[HALF]][%[[J]]] : i16 from vector<8xi16>
// CHECK: vector.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<?x?xf16>, vector<1xf16>
// CHECK: } {loop_annotation = #{{.+}}}
func.func @rms_norm_dynamic(%x: memref<?x?xf16>, %w: memref<?xf16>, %y: memref<?x?xf16>) {
  norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : memref<?x?xf16>) scale(%w : memref<?xf16>) affine_dims = [1]
      outs(%y : memref<?x?xf16>)
  return
}

// -----

// bf16 in and out: x is loaded 16 elements at a time and widened by
// interleaving with zeros (an unpack per 128-bit lane), which leaves the
// elements permuted: the sums do not mind, the normalize pass packs them back
// into order, and γ (f32) and β (bf16) are copied once, widened and permuted
// to match.
// CHECK-DAG: #[[$NO_UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[$NO_VECTORIZE:.+]] = #llvm.loop_vectorize<disable = true>
// CHECK-DAG: #[[$ROLLED:.+]] = #llvm.loop_annotation<vectorize = #[[$NO_VECTORIZE]], unroll = #[[$NO_UNROLL]]>
// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK: %[[WG:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: %[[G:.+]] = vector.load %arg1[%{{.+}}] : memref<?xf32>, vector<16xf32>
// CHECK: %[[GLO:.+]] = vector.shuffle %[[G]], %[[G]] [0, 1, 2, 3, 8, 9, 10, 11]
// CHECK: %[[GHI:.+]] = vector.shuffle %[[G]], %[[G]] [4, 5, 6, 7, 12, 13, 14, 15]
// CHECK: vector.store %[[GLO]], %[[WG]]
// CHECK: vector.store %[[GHI]], %[[WG]]
// The last (fewer than 16) elements one by one, in a loop LLVM is asked to
// keep rolled and scalar, and an unpermuted copy of the last vector past the
// end for the normalize pass's partial vector.
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 {
// CHECK: memref.load %arg1
// CHECK: } {loop_annotation = #[[$ROLLED]]}
// CHECK: vector.load %arg1[%{{.+}}] : memref<?xf32>, vector<8xf32>
// CHECK: vector.store %{{.+}}, %[[WG]][%[[N:.+]]] : memref<?xf32>, vector<8xf32>
// CHECK: %[[WB:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: %[[B:.+]] = vector.load %arg2[%{{.+}}] : memref<?xbf16>, vector<16xbf16>
// CHECK: %[[BW:.+]] = arith.extf %[[B]] : vector<16xbf16> to vector<16xf32>
// CHECK: vector.shuffle %[[BW]], %[[BW]] [0, 1, 2, 3, 8, 9, 10, 11]
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: } {loop_annotation = #[[$ROLLED]]}
// CHECK: scf.parallel
// Pass 1: one load feeds two accumulators.
// CHECK: scf.for {{.+}} step %c32 iter_args(%[[A0:.+]] = %{{.+}}, %[[A1:.+]] = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}})
// CHECK: %[[X:.+]] = vector.load %arg0[%{{.+}}, %{{.+}}] : memref<?x?xbf16>, vector<16xbf16>
// CHECK: %[[XB:.+]] = vector.bitcast %[[X]] : vector<16xbf16> to vector<16xi16>
// CHECK: %[[LO:.+]] = vector.shuffle %[[ZERO:.+]], %[[XB]] [0, 16, 0, 17, 0, 18, 0, 19, 0, 24, 0, 25, 0, 26, 0, 27]
// CHECK: %[[LOF:.+]] = vector.bitcast %[[LO]] : vector<16xi16> to vector<8xf32>
// CHECK: %[[HI:.+]] = vector.shuffle %[[ZERO]], %[[XB]] [0, 20, 0, 21, 0, 22, 0, 23, 0, 28, 0, 29, 0, 30, 0, 31]
// CHECK: %[[HIF:.+]] = vector.bitcast %[[HI]] : vector<16xi16> to vector<8xf32>
// CHECK-DAG: arith.addf %[[A0]], %[[LOF]]
// CHECK-DAG: arith.addf %[[A1]], %[[HIF]]
// The normalize pass: γ and β from the permuted copies, one pack, one store.
// CHECK: scf.for %[[I:.+]] = %c0 to %{{.+}} step %c16 {
// CHECK: vector.load %arg0[%{{.+}}, %[[I]]] : memref<?x?xbf16>, vector<16xbf16>
// CHECK: vector.load %[[WG]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK: vector.load %[[WB]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK: %[[PACKED:.+]] = vector.shuffle %{{.+}}, %{{.+}} [0, 2, 4, 6, 16, 18, 20, 22, 8, 10, 12, 14, 24, 26, 28, 30] : vector<16xi16>, vector<16xi16>
// CHECK: %[[Y:.+]] = vector.bitcast %[[PACKED]] : vector<16xi16> to vector<16xbf16>
// CHECK: vector.store %[[Y]], %arg3[%{{.+}}, %[[I]]] {alignment = 32 : i64, nontemporal = true} : memref<?x?xbf16>, vector<16xbf16>
// Then at most one unpermuted vector, and the partial one: the run's last
// whole vector, with γ and β from the unpermuted copies past the end.
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c8 {
// CHECK: vector.load %[[WG]][%[[N]]] : memref<?xf32>, vector<8xf32>
// CHECK: vector.load %[[WB]][%[[N]]] : memref<?xf32>, vector<8xf32>
// W512-LABEL: func.func @layer_norm_bf16
// W512: vector.shuffle %{{.+}}, %{{.+}} [0, 32, 0, 33, 0, 34, 0, 35, 0, 40, 0, 41, 0, 42, 0, 43, 0, 48, 0, 49, 0, 50, 0, 51, 0, 56, 0, 57, 0, 58, 0, 59] : vector<32xi16>, vector<32xi16>
// W512: vector.shuffle %{{.+}}, %{{.+}} [0, 2, 4, 6, 32, 34, 36, 38, 8, 10, 12, 14, 40, 42, 44, 46, 16, 18, 20, 22, 48, 50, 52, 54, 24, 26, 28, 30, 56, 58, 60, 62]
// W512: vector.store %{{.+}}, %arg3[%{{.+}}, %{{.+}}] {alignment = 64 : i64, nontemporal = true} : memref<?x?xbf16>, vector<32xbf16>
func.func @layer_norm_bf16(%x: memref<?x?xbf16>, %g: memref<?xf32>, %b: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : memref<?x?xbf16>) scale(%g : memref<?xf32>) bias(%b : memref<?xbf16>) affine_dims = [1]
      outs(%y : memref<?x?xbf16>)
  return
}

// -----

// GroupNorm (8 groups of 4 channels): the views expand the channel dim and
// collapse the spatial dims into one run; the slices are (n, group) and γ
// is loaded once per (channel, run).
// CHECK-LABEL: func.func @group_norm
// CHECK: memref.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 8, 4, 4, 4]
// CHECK: memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : memref<2x8x4x4x4xbf16> into memref<2x8x4x16xbf16>
// CHECK: memref.expand_shape %arg1 {{\[}}[0, 1]] output_shape [8, 4] : memref<32xbf16> into memref<8x4xbf16>
// 16 slices of 128 bytes: 2 groups of 8.
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c2) step (%c1)
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<8x4xbf16>
func.func @group_norm(%x: memref<2x32x4x4xbf16>, %g: memref<32xbf16>, %y: memref<2x32x4x4xbf16>) {
  norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : memref<2x32x4x4xbf16>) scale(%g : memref<32xbf16>) affine_dims = [1]
      outs(%y : memref<2x32x4x4xbf16>)
  return
}

// -----

// BatchNorm training (NCHW): the slices are channels, the batch dim is an
// outer reduced loop around each run of H·W; the saved and running
// statistics are stored once per channel.
// CHECK-LABEL: func.func @batch_norm_training
// CHECK: memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<4x16x8x8xf32> into memref<4x16x64xf32>
// CHECK: scf.parallel (%[[G:.+]]) = (%c0) to (%c2) step (%c1)
// CHECK: %[[FIRST:.+]] = arith.muli %[[G]], %c8 : index
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1
// CHECK: scf.for %[[R:.+]] = %c0 to %{{.+}} step %c1 {
// CHECK: %[[C:.+]] = arith.addi %[[FIRST]], %[[R]] : index
// CHECK: memref.store %{{.+}}, %arg4[%[[C]]]
// CHECK: memref.store %{{.+}}, %arg5[%[[C]]]
// CHECK: memref.load %arg1[%[[C]]]
// CHECK: memref.store %{{.+}}, %arg1[%[[C]]]
// CHECK: memref.load %arg2[%[[C]]]
// CHECK: memref.store %{{.+}}, %arg2[%[[C]]]
func.func @batch_norm_training(%x: memref<4x16x8x8xf32>, %rm: memref<16xf32>, %rv: memref<16xf32>, %y: memref<4x16x8x8xf32>, %sm: memref<16xf32>, %sv: memref<16xf32>) {
  norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : memref<4x16x8x8xf32>) outs(%y : memref<4x16x8x8xf32>)
      saved(%sm, %sv : memref<16xf32>, memref<16xf32>)
      running(%rm, %rv : memref<16xf32>, memref<16xf32>)
  return
}

// -----

// Slices of 128 KiB: too large for pass 2 to prefetch the next one, which
// the normalize pass prefetches instead, as it reads each line of its own
// slice for the last time.
// CHECK-LABEL: func.func @instance_norm_large_slices
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c32 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-NOT: memref.prefetch
// CHECK: math.rsqrt
// CHECK: scf.for %{{.+}} = %c0 to %c32768 step %c8
// CHECK: memref.prefetch %{{.+}}[%{{.+}}], read, locality<2>, data : memref<262144xf32>
func.func @instance_norm_large_slices(%x: memref<2x4x128x256xf32>, %y: memref<2x4x128x256xf32>) {
  norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : memref<2x4x128x256xf32>) outs(%y : memref<2x4x128x256xf32>)
  return
}

// -----

// A strided operand is copied to an identity buffer around the kernel (and
// the output copied back), outside the loops.
// CHECK-LABEL: func.func @strided
// CHECK: %[[IN:.+]] = memref.alloc() : memref<4x16xf32>
// CHECK: linalg.copy ins(%arg0 : memref<4x16xf32, strided<[32, 1]>>) outs(%[[IN]] : memref<4x16xf32>)
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<4x16xf32>
// CHECK: scf.for
// CHECK: vector.store
// CHECK: linalg.copy ins(%[[OUT]] : memref<4x16xf32>) outs(%arg1 : memref<4x16xf32, strided<[32, 1]>>)
// CHECK: memref.dealloc %[[IN]]
// CHECK: memref.dealloc %[[OUT]]
func.func @strided(%x: memref<4x16xf32, strided<[32, 1]>>, %y: memref<4x16xf32, strided<[32, 1]>>) {
  norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : memref<4x16xf32, strided<[32, 1]>>) outs(%y : memref<4x16xf32, strided<[32, 1]>>)
  return
}

// -----

// The tensor form is left for convert-norm-to-linalg.
// CHECK-LABEL: func.func @tensor_form
// CHECK: norm.normalize
func.func @tensor_form(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<4x16xf32>) outs(%y : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Found by random-specs: a view collapsing a 0 with a dynamic extent is
// dynamic (0 × ? is not a static 0 to the verifier); the kernel, empty,
// then folds away.
// CHECK-LABEL: func.func @empty_static_dim
// CHECK-NOT: norm.normalize
// CHECK: return
func.func @empty_static_dim(%x: memref<0x1x?xf16>, %y: memref<0x1x?xf16>) {
  norm.normalize rms axes = [0, 2] epsilon = 1.0e-06
      ins(%x : memref<0x1x?xf16>) outs(%y : memref<0x1x?xf16>)
  return
}
