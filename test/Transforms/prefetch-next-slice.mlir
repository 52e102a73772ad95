// RUN: norm-opt %s -pass-pipeline='builtin.module(func.func(norm-prefetch-next-slice))' -split-input-file | FileCheck %s

// Rows of 768 f32 (3 KiB, static): the second pass over the row prefetches
// the same elements of the next row (clamped to the last one), one prefetch
// per 64-byte line read; the first pass, which reads the prefetched data, and
// the writing pass do not.
// CHECK-LABEL: func.func @small_rows
// CHECK-SAME: (%[[X:.+]]: memref<?x768xf32>, %[[Y:.+]]: memref<?x768xf32>)
// CHECK: %[[ROWS:.+]] = memref.dim %[[X]], %c0
// CHECK: scf.forall (%[[I:.+]]) in (%[[ROWS]]) {
// CHECK:   %[[NEXT:.+]] = arith.addi %[[I]], %c1{{.*}} : index
// CHECK:   %[[IN:.+]] = arith.cmpi ult, %[[NEXT]], %[[ROWS]]
// CHECK:   %[[ROW:.+]] = arith.select %[[IN]], %[[NEXT]], %[[I]]
// CHECK:   scf.for %[[J:[a-z0-9]+]] =
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_read %[[X]][%[[I]], %[[J]]]
// CHECK:   scf.for %[[K:[a-z0-9]+]] =
// CHECK:     memref.prefetch %[[X]][%[[ROW]], %[[K]]], read, locality<2>, data
// CHECK:     %[[K16:.+]] = arith.addi %[[K]], %c16
// CHECK:     memref.prefetch %[[X]][%[[ROW]], %[[K16]]], read, locality<2>, data
// CHECK:     %[[K32:.+]] = arith.addi %[[K]], %c32
// CHECK:     memref.prefetch %[[X]][%[[ROW]], %[[K32]]], read, locality<2>, data
// CHECK:     %[[K48:.+]] = arith.addi %[[K]], %c48
// CHECK:     memref.prefetch %[[X]][%[[ROW]], %[[K48]]], read, locality<2>, data
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_read %[[X]][%[[I]], %[[K]]]
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_write
func.func @small_rows(%x: memref<?x768xf32>, %y: memref<?x768xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c768 = arith.constant 768 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %rows = memref.dim %x, %c0 : memref<?x768xf32>
  scf.forall (%i) in (%rows) {
    %s = scf.for %j = %c0 to %c768 step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %j], %p {in_bounds = [true]} : memref<?x768xf32>, vector<64xf32>
      %n = arith.addf %a, %v : vector<64xf32>
      scf.yield %n : vector<64xf32>
    }
    %q = scf.for %k = %c0 to %c768 step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x768xf32>, vector<64xf32>
      %d = arith.subf %v, %s : vector<64xf32>
      %n = arith.addf %a, %d : vector<64xf32>
      scf.yield %n : vector<64xf32>
    }
    scf.for %k = %c0 to %c768 step %c64 {
      %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x768xf32>, vector<64xf32>
      %d = arith.mulf %v, %q : vector<64xf32>
      vector.transfer_write %d, %y[%i, %k] {in_bounds = [true]} : vector<64xf32>, memref<?x768xf32>
    }
  }
  return
}

// -----

// Rows of 65536 f32 (256 KiB): the writing pass prefetches, not the second.
// CHECK-LABEL: func.func @large_rows
// CHECK: scf.forall
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:   vector.transfer_read
// CHECK:   scf.for
// CHECK:     memref.prefetch
// CHECK:     vector.transfer_read
// CHECK:     vector.transfer_write
func.func @large_rows(%x: memref<?x65536xf32>, %y: memref<?x65536xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 65536 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %rows = memref.dim %x, %c0 : memref<?x65536xf32>
  scf.forall (%i) in (%rows) {
    %s = scf.for %j = %c0 to %cn step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %j], %p {in_bounds = [true]} : memref<?x65536xf32>, vector<64xf32>
      %n = arith.addf %a, %v : vector<64xf32>
      scf.yield %n : vector<64xf32>
    }
    %q = scf.for %k = %c0 to %cn step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x65536xf32>, vector<64xf32>
      %d = arith.subf %v, %s : vector<64xf32>
      %n = arith.addf %a, %d : vector<64xf32>
      scf.yield %n : vector<64xf32>
    }
    scf.for %k = %c0 to %cn step %c64 {
      %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x65536xf32>, vector<64xf32>
      %d = arith.mulf %v, %q : vector<64xf32>
      vector.transfer_write %d, %y[%i, %k] {in_bounds = [true]} : vector<64xf32>, memref<?x65536xf32>
    }
  }
  return
}

// -----

// Rows of 4 MiB: too large to prefetch (the hardware prefetchers stream
// them); masked reads and reads of a buffer that is no function argument
// never prefetch.
// CHECK-LABEL: func.func @not_prefetched
// CHECK-NOT: memref.prefetch
func.func @not_prefetched(%x: memref<?x1048576xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 1048576 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %rows = memref.dim %x, %c0 : memref<?x1048576xf32>
  %local = memref.alloc(%rows) : memref<?x64xf32>
  scf.forall (%i) in (%rows) {
    %s = scf.for %j = %c0 to %cn step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %j], %p {in_bounds = [true]} : memref<?x1048576xf32>, vector<64xf32>
      %n2 = arith.addf %a, %v : vector<64xf32>
      scf.yield %n2 : vector<64xf32>
    }
    %q = scf.for %k = %c0 to %cn step %c64 iter_args(%a = %s) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x1048576xf32>, vector<64xf32>
      %n2 = arith.addf %a, %v : vector<64xf32>
      scf.yield %n2 : vector<64xf32>
    }
    %m = vector.create_mask %n : vector<64xi1>
    %t = scf.for %k = %c0 to %c64 step %c64 iter_args(%a = %q) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %k], %p, %m {in_bounds = [true]} : memref<?x1048576xf32>, vector<64xf32>
      %w = vector.transfer_read %local[%i, %k], %p {in_bounds = [true]} : memref<?x64xf32>, vector<64xf32>
      %n2 = arith.addf %v, %w : vector<64xf32>
      scf.yield %n2 : vector<64xf32>
    }
    %u = scf.for %k = %c0 to %c64 step %c64 iter_args(%a = %t) -> (vector<64xf32>) {
      %w = vector.transfer_read %local[%i, %k], %p {in_bounds = [true]} : memref<?x64xf32>, vector<64xf32>
      %n2 = arith.addf %a, %w : vector<64xf32>
      scf.yield %n2 : vector<64xf32>
    }
    vector.transfer_write %u, %local[%i, %c0] {in_bounds = [true]} : vector<64xf32>, memref<?x64xf32>
  }
  memref.dealloc %local : memref<?x64xf32>
  return
}

// -----

// Dynamic rows: the pass chosen at run time from the row's bytes; the pass
// not chosen prefetches the current row (cached) instead.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME: (%[[X:.+]]: memref<?x?xbf16>, %[[Y:.+]]: memref<?x?xbf16>)
// CHECK: scf.forall (%[[I:.+]]) in
// CHECK:   %[[N:.+]] = memref.dim %[[X]], %c1{{.*}} :
// CHECK:   %[[BYTES:.+]] = arith.muli %{{.+}}, %[[N]]
// CHECK:   %[[SMALL:.+]] = arith.cmpi ule, %[[BYTES]], %c65536
// CHECK:   %[[FITS:.+]] = arith.cmpi ule, %[[BYTES]], %c1048576
// CHECK:   %[[NOTSMALL:.+]] = arith.xori %[[SMALL]], %true
// CHECK:   %[[LARGE:.+]] = arith.andi %[[FITS]], %[[NOTSMALL]]
// CHECK:   %[[IN:.+]] = arith.cmpi ult
// CHECK:   %[[IFSMALL:.+]] = arith.andi %[[IN]], %[[SMALL]]
// CHECK:   %[[ROW1:.+]] = arith.select %[[IFSMALL]], %{{.+}}, %[[I]]
// CHECK:   %[[IN2:.+]] = arith.cmpi ult
// CHECK:   %[[IFLARGE:.+]] = arith.andi %[[IN2]], %[[LARGE]]
// CHECK:   %[[ROW2:.+]] = arith.select %[[IFLARGE]], %{{.+}}, %[[I]]
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:   scf.for %[[K:[a-z0-9]+]] =
// 64 bf16 are 128 bytes: two prefetches per read.
// CHECK:     memref.prefetch %[[X]][%[[ROW1]], %[[K]]]
// CHECK:     %[[K32:.+]] = arith.addi %[[K]], %c32
// CHECK:     memref.prefetch %[[X]][%[[ROW1]], %[[K32]]]
// CHECK-NOT: memref.prefetch
// CHECK:   scf.for %[[L:[a-z0-9]+]] =
// CHECK:     memref.prefetch %[[X]][%[[ROW2]], %[[L]]]
// CHECK:     %[[L32:.+]] = arith.addi %[[L]], %c32
// CHECK:     memref.prefetch %[[X]][%[[ROW2]], %[[L32]]]
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_write
func.func @dynamic_rows(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %p = ub.poison : bf16
  %zero = arith.constant dense<0.0> : vector<64xbf16>
  %rows = memref.dim %x, %c0 : memref<?x?xbf16>
  %cols = memref.dim %x, %c1 : memref<?x?xbf16>
  scf.forall (%i) in (%rows) {
    %s = scf.for %j = %c0 to %cols step %c64 iter_args(%a = %zero) -> (vector<64xbf16>) {
      %v = vector.transfer_read %x[%i, %j], %p {in_bounds = [true]} : memref<?x?xbf16>, vector<64xbf16>
      %n = arith.addf %a, %v : vector<64xbf16>
      scf.yield %n : vector<64xbf16>
    }
    %q = scf.for %k = %c0 to %cols step %c64 iter_args(%a = %zero) -> (vector<64xbf16>) {
      %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x?xbf16>, vector<64xbf16>
      %d = arith.subf %v, %s : vector<64xbf16>
      %n = arith.addf %a, %d : vector<64xbf16>
      scf.yield %n : vector<64xbf16>
    }
    scf.for %l = %c0 to %cols step %c64 {
      %v = vector.transfer_read %x[%i, %l], %p {in_bounds = [true]} : memref<?x?xbf16>, vector<64xbf16>
      %d = arith.mulf %v, %q : vector<64xbf16>
      vector.transfer_write %d, %y[%i, %l] {in_bounds = [true]} : vector<64xbf16>, memref<?x?xbf16>
    }
  }
  return
}

// -----

// One reduction pass (RMSNorm), then a retry under an scf.if that yields
// values, which few slices take: the writing pass is the second and
// prefetches; the retry does not.
// CHECK-LABEL: func.func @one_reduction_pass
// CHECK: scf.forall
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:   scf.if
// CHECK-NOT: memref.prefetch
// CHECK:   } else {
// CHECK-NOT: memref.prefetch
// CHECK:   scf.for
// CHECK-COUNT-4: memref.prefetch
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_write
func.func @one_reduction_pass(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %retry: i1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 1024 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %rows = memref.dim %x, %c0 : memref<?x1024xf32>
  scf.forall (%i) in (%rows) {
    %s = scf.for %j = %c0 to %cn step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %j], %p {in_bounds = [true]} : memref<?x1024xf32>, vector<64xf32>
      %n = arith.addf %a, %v : vector<64xf32>
      scf.yield %n : vector<64xf32>
    }
    %q = scf.if %retry -> (vector<64xf32>) {
      %m = scf.for %k = %c0 to %cn step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
        %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x1024xf32>, vector<64xf32>
        %n = arith.maximumf %a, %v : vector<64xf32>
        scf.yield %n : vector<64xf32>
      }
      scf.yield %m : vector<64xf32>
    } else {
      scf.yield %s : vector<64xf32>
    }
    scf.for %k = %c0 to %cn step %c64 {
      %v = vector.transfer_read %x[%i, %k], %p {in_bounds = [true]} : memref<?x1024xf32>, vector<64xf32>
      %d = arith.mulf %v, %q : vector<64xf32>
      vector.transfer_write %d, %y[%i, %k] {in_bounds = [true]} : vector<64xf32>, memref<?x1024xf32>
    }
  }
  return
}

// -----

// A pass in blocks: a first block, then a loop over the others. The second
// pass is its two loops (they use the first pass's results), not the first
// pass's block loop (which uses only the first block's totals).
// CHECK-LABEL: func.func @passes_in_blocks
// CHECK: scf.forall
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK-NOT: memref.prefetch
// CHECK:   scf.for
// CHECK-COUNT-4: memref.prefetch
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK-COUNT-4: memref.prefetch
// CHECK-NOT: memref.prefetch
func.func @passes_in_blocks(%x: memref<?x8192xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %c8192 = arith.constant 8192 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %rows = memref.dim %x, %c0 : memref<?x8192xf32>
  scf.forall (%i) in (%rows) {
    %f = scf.for %j = %c0 to %c4096 step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %j], %p {in_bounds = [true]} : memref<?x8192xf32>, vector<64xf32>
      %n = arith.addf %a, %v : vector<64xf32>
      scf.yield %n : vector<64xf32>
    }
    %s = scf.for %b = %c4096 to %c8192 step %c4096 iter_args(%t = %f) -> (vector<64xf32>) {
      %blk = scf.for %j = %c0 to %c4096 step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
        %at = arith.addi %b, %j : index
        %v = vector.transfer_read %x[%i, %at], %p {in_bounds = [true]} : memref<?x8192xf32>, vector<64xf32>
        %n = arith.addf %a, %v : vector<64xf32>
        scf.yield %n : vector<64xf32>
      }
      %u = arith.addf %t, %blk : vector<64xf32>
      scf.yield %u : vector<64xf32>
    }
    %f2 = scf.for %j = %c0 to %c4096 step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
      %v = vector.transfer_read %x[%i, %j], %p {in_bounds = [true]} : memref<?x8192xf32>, vector<64xf32>
      %d = arith.subf %v, %s : vector<64xf32>
      %n = arith.addf %a, %d : vector<64xf32>
      scf.yield %n : vector<64xf32>
    }
    %s2 = scf.for %b = %c4096 to %c8192 step %c4096 iter_args(%t = %f2) -> (vector<64xf32>) {
      %blk = scf.for %j = %c0 to %c4096 step %c64 iter_args(%a = %zero) -> (vector<64xf32>) {
        %at = arith.addi %b, %j : index
        %v = vector.transfer_read %x[%i, %at], %p {in_bounds = [true]} : memref<?x8192xf32>, vector<64xf32>
        %d = arith.subf %v, %s : vector<64xf32>
        %n = arith.addf %a, %d : vector<64xf32>
        scf.yield %n : vector<64xf32>
      }
      %u = arith.addf %t, %blk : vector<64xf32>
      scf.yield %u : vector<64xf32>
    }
    %r = vector.reduction <add>, %s2 : vector<64xf32> into f32
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// -----

// A multi-row tile (8 rows of 128 f32, a row per step of a loop in each
// pass): the second pass over row r of tile t prefetches row r of tile t + 1
// (8 rows on; the last tile its own), r + 8 · (next - t), clamped to the
// last row (a partial last tile has fewer rows).
// CHECK-LABEL: func.func @row_tiles
// CHECK-SAME: (%[[X:.+]]: memref<?x128xf32>, %[[Y:.+]]: memref<?x128xf32>, %[[TILES:.+]]: index)
// CHECK: scf.forall (%[[T:.+]]) in (%[[TILES]]) {
// CHECK:   %[[NEXT:.+]] = arith.addi %[[T]], %c1{{.*}} : index
// CHECK:   %[[IN:.+]] = arith.cmpi ult, %[[NEXT]], %[[TILES]]
// CHECK:   %[[TILE:.+]] = arith.select %[[IN]], %[[NEXT]], %[[T]]
// CHECK:   scf.for %[[R0:[a-z0-9]+]] =
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_read
// CHECK:   scf.for %[[R1:[a-z0-9]+]] =
// CHECK:     %[[ROW:.+]] = affine.apply #{{.+}}()[%[[R1]], %[[T]]]
// CHECK:     %[[STEPS:.+]] = arith.subi %[[TILE]], %[[T]]
// CHECK:     %[[ON:.+]] = arith.muli %[[STEPS]], %c8
// CHECK:     %[[NEXTROW:.+]] = arith.addi %[[ROW]], %[[ON]]
// CHECK:     %[[ROWS:.+]] = memref.dim %[[X]], %c0
// CHECK:     %[[LAST:.+]] = arith.subi %[[ROWS]], %c1
// CHECK:     %[[CLAMPED:.+]] = arith.minui %[[NEXTROW]], %[[LAST]]
// CHECK:     scf.for %[[K:[a-z0-9]+]] =
// CHECK:       memref.prefetch %[[X]][%[[CLAMPED]], %[[K]]], read, locality<2>, data
// CHECK:       vector.transfer_read %[[X]][%[[ROW]], %[[K]]]
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_write
func.func @row_tiles(%x: memref<?x128xf32>, %y: memref<?x128xf32>, %tiles: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %lanes = arith.constant dense<0.0> : vector<8xf32>
  scf.forall (%t) in (%tiles) {
    %s = scf.for %r = %c0 to %c8 step %c1 iter_args(%l = %lanes) -> (vector<8xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 8)>()[%r, %t]
      %v = scf.for %j = %c0 to %c128 step %c32 iter_args(%a = %zero) -> (vector<32xf32>) {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x128xf32>, vector<32xf32>
        %n = arith.addf %a, %e : vector<32xf32>
        scf.yield %n : vector<32xf32>
      }
      %h = vector.reduction <add>, %v : vector<32xf32> into f32
      %u = vector.insert %h, %l [%r] : f32 into vector<8xf32>
      scf.yield %u : vector<8xf32>
    }
    %q = scf.for %r = %c0 to %c8 step %c1 iter_args(%l = %lanes) -> (vector<8xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 8)>()[%r, %t]
      %m = vector.extract %s[%r] : f32 from vector<8xf32>
      %mb = vector.broadcast %m : f32 to vector<32xf32>
      %v = scf.for %j = %c0 to %c128 step %c32 iter_args(%a = %zero) -> (vector<32xf32>) {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x128xf32>, vector<32xf32>
        %d = arith.subf %e, %mb : vector<32xf32>
        %n = arith.addf %a, %d : vector<32xf32>
        scf.yield %n : vector<32xf32>
      }
      %h = vector.reduction <add>, %v : vector<32xf32> into f32
      %u = vector.insert %h, %l [%r] : f32 into vector<8xf32>
      scf.yield %u : vector<8xf32>
    }
    scf.for %r = %c0 to %c8 step %c1 {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 8)>()[%r, %t]
      %m = vector.extract %q[%r] : f32 from vector<8xf32>
      %mb = vector.broadcast %m : f32 to vector<32xf32>
      scf.for %j = %c0 to %c128 step %c32 {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x128xf32>, vector<32xf32>
        %d = arith.mulf %e, %mb : vector<32xf32>
        vector.transfer_write %d, %y[%row, %j] {in_bounds = [true]} : vector<32xf32>, memref<?x128xf32>
      }
    }
  }
  return
}

// -----

// A tile of 8 rows of 65536 f32 (2 MiB, over last-pass-bytes): no prefetch.
// CHECK-LABEL: func.func @large_row_tiles
// CHECK-NOT: memref.prefetch
func.func @large_row_tiles(%x: memref<?x65536xf32>, %y: memref<?x65536xf32>, %tiles: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 65536 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %lanes = arith.constant dense<0.0> : vector<8xf32>
  scf.forall (%t) in (%tiles) {
    %s = scf.for %r = %c0 to %c8 step %c1 iter_args(%l = %lanes) -> (vector<8xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 8)>()[%r, %t]
      %v = scf.for %j = %c0 to %c128 step %c32 iter_args(%a = %zero) -> (vector<32xf32>) {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x65536xf32>, vector<32xf32>
        %n = arith.addf %a, %e : vector<32xf32>
        scf.yield %n : vector<32xf32>
      }
      %h = vector.reduction <add>, %v : vector<32xf32> into f32
      %u = vector.insert %h, %l [%r] : f32 into vector<8xf32>
      scf.yield %u : vector<8xf32>
    }
    %q = scf.for %r = %c0 to %c8 step %c1 iter_args(%l = %lanes) -> (vector<8xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 8)>()[%r, %t]
      %m = vector.extract %s[%r] : f32 from vector<8xf32>
      %mb = vector.broadcast %m : f32 to vector<32xf32>
      %v = scf.for %j = %c0 to %c128 step %c32 iter_args(%a = %zero) -> (vector<32xf32>) {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x65536xf32>, vector<32xf32>
        %d = arith.subf %e, %mb : vector<32xf32>
        %n = arith.addf %a, %d : vector<32xf32>
        scf.yield %n : vector<32xf32>
      }
      %h = vector.reduction <add>, %v : vector<32xf32> into f32
      %u = vector.insert %h, %l [%r] : f32 into vector<8xf32>
      scf.yield %u : vector<8xf32>
    }
    scf.for %r = %c0 to %c8 step %c1 {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 8)>()[%r, %t]
      %m = vector.extract %q[%r] : f32 from vector<8xf32>
      %mb = vector.broadcast %m : f32 to vector<32xf32>
      scf.for %j = %c0 to %c128 step %c32 {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x65536xf32>, vector<32xf32>
        %d = arith.mulf %e, %mb : vector<32xf32>
        vector.transfer_write %d, %y[%row, %j] {in_bounds = [true]} : vector<32xf32>, memref<?x65536xf32>
      }
    }
  }
  return
}

// -----

// Tiles over a forall that steps by the rows per tile (upstream tiling's
// form), known at run time only (a dynamic row length picks 8 or 16): tile
// t's row r is t + r, the last tile min(rows, M - t) rows, and the next
// tile's row r is (next - t) on, clamped to the last row.
// CHECK-LABEL: func.func @stepped_row_tiles
// CHECK-SAME: (%[[X:.+]]: memref<?x128xf32>, %[[Y:.+]]: memref<?x128xf32>, %{{.+}}: i1)
// CHECK: %[[RPT:.+]] = arith.select
// CHECK: scf.forall (%[[T:.+]]) = (0) to (%[[M:.+]]) step (%[[RPT]]) {
// CHECK:   arith.muli %[[RPT]], %c1{{[_0-9]*}} : index
// CHECK:   %[[NEXT:.+]] = arith.addi %[[T]], %[[RPT]]
// CHECK:   %[[TILE:.+]] = arith.select %{{.+}}, %[[NEXT]], %[[T]]
// CHECK:   scf.for
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_read
// CHECK:   scf.for %[[R1:[a-z0-9]+]] =
// CHECK:     %[[ROW:.+]] = affine.apply #{{.+}}()[%[[R1]], %[[T]]]
// CHECK:     %[[STEPS:.+]] = arith.subi %[[TILE]], %[[T]]
// CHECK:     %[[ON:.+]] = arith.muli %[[STEPS]], %c1{{[_0-9]*}} : index
// CHECK:     %[[NEXTROW:.+]] = arith.addi %[[ROW]], %[[ON]]
// CHECK:     %[[ROWS:.+]] = memref.dim %[[X]], %c0
// CHECK:     %[[LAST:.+]] = arith.subi %[[ROWS]], %c1
// CHECK:     %[[CLAMPED:.+]] = arith.minui %[[NEXTROW]], %[[LAST]]
// CHECK:     scf.for %[[K:[a-z0-9]+]] =
// CHECK:       memref.prefetch %[[X]][%[[CLAMPED]], %[[K]]], read, locality<2>, data
// CHECK:       vector.transfer_read %[[X]][%[[ROW]], %[[K]]]
// The tile's size is known at run time only: the last pass prefetches too,
// the next tile where the tile is over second-pass-bytes, else its own.
// CHECK:   scf.for
// CHECK:       memref.prefetch
// CHECK:       vector.transfer_write
func.func @stepped_row_tiles(%x: memref<?x128xf32>, %y: memref<?x128xf32>, %wide: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %rows = arith.select %wide, %c16, %c8 : index
  %m = memref.dim %x, %c0 : memref<?x128xf32>
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %lanes = arith.constant dense<0.0> : vector<16xf32>
  scf.forall (%t) = (0) to (%m) step (%rows) {
    %n = affine.min affine_map<(d0)[s0, s1] -> (s0, s1 - d0)>(%t)[%rows, %m]
    %s = scf.for %r = %c0 to %n step %c1 iter_args(%l = %lanes) -> (vector<16xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%r, %t]
      %v = scf.for %j = %c0 to %c128 step %c32 iter_args(%a = %zero) -> (vector<32xf32>) {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x128xf32>, vector<32xf32>
        %u = arith.addf %a, %e : vector<32xf32>
        scf.yield %u : vector<32xf32>
      }
      %h = vector.reduction <add>, %v : vector<32xf32> into f32
      %w = vector.insert %h, %l [%r] : f32 into vector<16xf32>
      scf.yield %w : vector<16xf32>
    }
    %q = scf.for %r = %c0 to %n step %c1 iter_args(%l = %lanes) -> (vector<16xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%r, %t]
      %m0 = vector.extract %s[%r] : f32 from vector<16xf32>
      %mb = vector.broadcast %m0 : f32 to vector<32xf32>
      %v = scf.for %j = %c0 to %c128 step %c32 iter_args(%a = %zero) -> (vector<32xf32>) {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x128xf32>, vector<32xf32>
        %d = arith.subf %e, %mb : vector<32xf32>
        %u = arith.addf %a, %d : vector<32xf32>
        scf.yield %u : vector<32xf32>
      }
      %h = vector.reduction <add>, %v : vector<32xf32> into f32
      %w = vector.insert %h, %l [%r] : f32 into vector<16xf32>
      scf.yield %w : vector<16xf32>
    }
    scf.for %r = %c0 to %n step %c1 {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%r, %t]
      %m0 = vector.extract %q[%r] : f32 from vector<16xf32>
      %mb = vector.broadcast %m0 : f32 to vector<32xf32>
      scf.for %j = %c0 to %c128 step %c32 {
        %e = vector.transfer_read %x[%row, %j], %p {in_bounds = [true]} : memref<?x128xf32>, vector<32xf32>
        %d = arith.mulf %e, %mb : vector<32xf32>
        vector.transfer_write %d, %y[%row, %j] {in_bounds = [true]} : vector<32xf32>, memref<?x128xf32>
      }
    }
  }
  return
}
