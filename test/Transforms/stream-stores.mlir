// RUN: norm-opt %s -pass-pipeline='builtin.module(func.func(norm-stream-stores))' -split-input-file | FileCheck %s
// RUN: norm-opt %s -pass-pipeline='builtin.module(func.func(norm-stream-stores{min-bytes=1024}))' -split-input-file | FileCheck %s --check-prefix=SMALL

// A row's whole vectors into a dynamic output: versioned on the output's
// size and the first store's alignment; the streaming copy stores with
// vector.store nontemporal, aligned to 64 bytes; the other is the loop as it
// was.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME: (%[[X:.+]]: memref<?x?xf32>, %[[Y:.+]]: memref<?x?xf32>, %[[ROW:.+]]: index, %[[N:.+]]: index)
// CHECK: %[[VIEW:.+]] = memref.subview %[[Y]][%[[ROW]], 0]
// CHECK: memref.dim %[[Y]], %c0
// CHECK: memref.dim %[[Y]], %c1
// CHECK: %[[LARGE:.+]] = arith.cmpi uge, %{{.+}}, %c16777216
// CHECK: %{{.+}}, %[[OFFSET:.+]], %{{.+}}, %[[STRIDE:.+]] = memref.extract_strided_metadata %[[VIEW]]
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[REM:.+]] = arith.remui %{{.+}}, %c64
// CHECK: %[[ALIGNED:.+]] = arith.cmpi eq, %[[REM]], %c0
// CHECK: %[[UNIT:.+]] = arith.cmpi eq, %[[STRIDE]], %c1
// CHECK: %[[OK:.+]] = arith.andi %[[ALIGNED]], %[[UNIT]]
// CHECK: %[[STREAM:.+]] = arith.andi %[[LARGE]], %[[OK]]
// CHECK: scf.if %[[STREAM]] {
// CHECK:   scf.for
// CHECK:     vector.store %{{.+}}, %[[VIEW]][%{{.+}}] {alignment = 64 : i64, nontemporal = true} : memref<?xf32, strided<[1], offset: ?>>, vector<64xf32>
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     vector.transfer_write %{{.+}}, %[[VIEW]][%{{.+}}] {in_bounds = [true]}
// CHECK: }
func.func @dynamic_rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %row: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %view = memref.subview %y[%row, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
  scf.for %i = %c0 to %n step %c64 {
    %v = vector.transfer_read %x[%row, %i], %pad {in_bounds = [true]} : memref<?x?xf32>, vector<64xf32>
    %w = arith.addf %v, %v : vector<64xf32>
    vector.transfer_write %w, %view[%i] {in_bounds = [true]} : vector<64xf32>, memref<?xf32, strided<[1], offset: ?>>
  }
  return
}

// -----

// The tiled form: each step stores into its own subview of the row; the
// subview's offsets compose with the store's indices.
// CHECK-LABEL: func.func @step_subview
// CHECK: %[[ROWS:.+]] = memref.subview %[[Y:.+]][%{{.+}}, 0]
// CHECK: memref.extract_strided_metadata %[[ROWS]]
// CHECK: memref.extract_aligned_pointer_as_index %[[ROWS]]
// CHECK: scf.if
// CHECK:   scf.for %[[I:.+]] =
// CHECK:     %[[STEP:.+]] = memref.subview %[[ROWS]][%{{.+}}, %[[I]]] [1, 64]
// CHECK:     vector.store %{{.+}}, %[[STEP]][%c0, %c0] {alignment = 64 : i64, nontemporal = true}
// CHECK: } else {
// CHECK:     vector.transfer_write
func.func @step_subview(%y: memref<?x?xf32>, %r: index, %rows: index, %n: index, %v: vector<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %block = memref.subview %y[%r, 0] [%rows, %n] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  scf.for %i = %c0 to %n step %c64 {
    %step = memref.subview %block[%r, %i] [1, 64] [1, 1] : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<1x64xf32, strided<[?, 1], offset: ?>>
    vector.transfer_write %v, %step[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, memref<1x64xf32, strided<[?, 1], offset: ?>>
  }
  return
}

// -----

// A static output: its size is known, only the alignment is checked; below
// min-bytes the loop is left alone.
// CHECK-LABEL: func.func @static_large
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: %[[OK:.+]] = arith.andi %{{.+}}, %{{.+}}
// CHECK: arith.andi %[[TRUE]], %[[OK]]
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<4096x4096xbf16>, vector<64xbf16>
// SMALL-LABEL: func.func @static_large
// SMALL: nontemporal = true
func.func @static_large(%y: memref<4096x4096xbf16>, %row: index, %v: vector<64xbf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  scf.for %i = %c0 to %c4096 step %c64 {
    vector.transfer_write %v, %y[%row, %i] {in_bounds = [true]} : vector<64xbf16>, memref<4096x4096xbf16>
  }
  return
}

// CHECK-LABEL: func.func @static_small
// CHECK-NOT: nontemporal
// SMALL-LABEL: func.func @static_small
// SMALL: nontemporal = true
func.func @static_small(%y: memref<64x64xf32>, %row: index, %v: vector<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c64 {
    vector.transfer_write %v, %y[%row, %i] {in_bounds = [true]} : vector<64xf32>, memref<64x64xf32>
  }
  return
}

// -----

// Left alone: a masked store, a store not at the induction variable, a row
// index that changes along the loop, a step of less than 64 bytes, a
// buffer that is not an argument, two stores.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: nontemporal
// CHECK-NOT: scf.if
// CHECK: return
// SMALL-LABEL: func.func @left_alone
// SMALL-NOT: nontemporal
func.func @left_alone(%y: memref<?x?xf32>, %n: index, %v: vector<64xf32>, %w: vector<8xf32>, %m: vector<64xi1>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c64 {
    vector.transfer_write %v, %y[%c0, %i], %m {in_bounds = [true]} : vector<64xf32>, memref<?x?xf32>
  }
  scf.for %i = %c0 to %n step %c64 {
    vector.transfer_write %v, %y[%c0, %n] {in_bounds = [true]} : vector<64xf32>, memref<?x?xf32>
  }
  scf.for %i = %c0 to %n step %c64 {
    vector.transfer_write %v, %y[%i, %i] {in_bounds = [true]} : vector<64xf32>, memref<?x?xf32>
  }
  scf.for %i = %c0 to %n step %c8 {
    vector.transfer_write %w, %y[%c0, %i] {in_bounds = [true]} : vector<8xf32>, memref<?x?xf32>
  }
  %alloc = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c64 {
    vector.transfer_write %v, %alloc[%i] {in_bounds = [true]} : vector<64xf32>, memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c64 {
    vector.transfer_write %v, %y[%c0, %i] {in_bounds = [true]} : vector<64xf32>, memref<?x?xf32>
    vector.transfer_write %v, %y[%c8, %i] {in_bounds = [true]} : vector<64xf32>, memref<?x?xf32>
  }
  memref.dealloc %alloc : memref<?xf32>
  return
}
