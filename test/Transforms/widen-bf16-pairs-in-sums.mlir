// RUN: norm-opt %s -test-norm-widen-bf16-pairs-in-sums -split-input-file | FileCheck %s

// A row's sum and sum of squared deviations: the loop's bf16 elements are
// widened as pairs (even ones shifted up, odd ones masked), both sums reduced
// whole after a masked tail.
// CHECK-LABEL: func.func @deviation_sums
// CHECK-DAG: %[[SIXTEEN:.+]] = arith.constant dense<16> : vector<8xi32>
// CHECK-DAG: %[[UPPER:.+]] = arith.constant dense<-65536> : vector<8xi32>
// CHECK: scf.for
// CHECK: %[[X:.+]] = vector.transfer_read
// CHECK-NOT: arith.extf
// CHECK: %[[BITS:.+]] = vector.bitcast %[[X]] : vector<16xbf16> to vector<8xi32>
// CHECK: %[[EVEN:.+]] = arith.shli %[[BITS]], %[[SIXTEEN]] : vector<8xi32>
// CHECK: %[[EVENF:.+]] = vector.bitcast %[[EVEN]] : vector<8xi32> to vector<8xf32>
// CHECK: %[[ODD:.+]] = arith.andi %[[BITS]], %[[UPPER]] : vector<8xi32>
// CHECK: %[[ODDF:.+]] = vector.bitcast %[[ODD]] : vector<8xi32> to vector<8xf32>
// CHECK: vector.shuffle %[[EVENF]], %[[ODDF]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
// CHECK: scf.yield
// The tail, outside the loop, keeps its element order.
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK: vector.reduction <add>
// CHECK: vector.reduction <add>
func.func @deviation_sums(%x: memref<?xbf16>, %n: index, %mean: f32, %mask: vector<16xi1>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %m = vector.broadcast %mean : f32 to vector<16xf32>
  %sums:2 = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero, %q = %zero) -> (vector<16xf32>, vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %w = arith.extf %v : vector<16xbf16> to vector<16xf32>
    %d = arith.subf %w, %m : vector<16xf32>
    %s1 = arith.addf %s, %d : vector<16xf32>
    %q1 = math.fma %d, %d, %q : vector<16xf32>
    scf.yield %s1, %q1 : vector<16xf32>, vector<16xf32>
  }
  %t = vector.transfer_read %x[%n], %pad, %mask {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
  %tw = arith.extf %t : vector<16xbf16> to vector<16xf32>
  %td = arith.subf %tw, %m : vector<16xf32>
  %s2 = arith.addf %sums#0, %td : vector<16xf32>
  %s3 = arith.select %mask, %s2, %sums#0 : vector<16xi1>, vector<16xf32>
  %q2 = arith.mulf %td, %td : vector<16xf32>
  %q3 = arith.addf %q2, %sums#1 : vector<16xf32>
  %q4 = arith.select %mask, %q3, %sums#1 : vector<16xi1>, vector<16xf32>
  %r0 = vector.reduction <add>, %s3 : vector<16xf32> into f32
  %r1 = vector.reduction <add>, %q4 : vector<16xf32> into f32
  return %r0, %r1 : f32, f32
}

// -----

// The sums are stored lane by lane, not reduced: element order kept.
// CHECK-LABEL: func.func @sums_stored
// CHECK: scf.for
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK-NOT: arith.shli
func.func @sums_stored(%x: memref<?xbf16>, %n: index, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %sum = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero) -> (vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %w = arith.extf %v : vector<16xbf16> to vector<16xf32>
    %s1 = arith.addf %s, %w : vector<16xf32>
    scf.yield %s1 : vector<16xf32>
  }
  vector.transfer_write %sum, %out[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  return
}

// -----

// A weighted sum: the weights are in element order, so the elements must be.
// CHECK-LABEL: func.func @weighted_sum
// CHECK: scf.for
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK-NOT: arith.shli
func.func @weighted_sum(%x: memref<?xbf16>, %weights: vector<16xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %sum = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero) -> (vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %w = arith.extf %v : vector<16xbf16> to vector<16xf32>
    %p = arith.mulf %w, %weights : vector<16xf32>
    %s1 = arith.addf %s, %p : vector<16xf32>
    scf.yield %s1 : vector<16xf32>
  }
  %r = vector.reduction <add>, %sum : vector<16xf32> into f32
  return %r : f32
}

// -----

// A product of two sums (each lane of one pairs with a lane of the other):
// element order kept.
// CHECK-LABEL: func.func @sums_multiplied
// CHECK: scf.for
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK-NOT: arith.shli
func.func @sums_multiplied(%x: memref<?xbf16>, %y: memref<?xbf16>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %sums:2 = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero, %t = %zero) -> (vector<16xf32>, vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %w = arith.extf %v : vector<16xbf16> to vector<16xf32>
    %s1 = arith.addf %s, %w : vector<16xf32>
    %u = vector.transfer_read %y[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %uw = arith.extf %u : vector<16xbf16> to vector<16xf32>
    %t1 = arith.addf %t, %uw : vector<16xf32>
    scf.yield %s1, %t1 : vector<16xf32>, vector<16xf32>
  }
  %p = arith.mulf %sums#0, %sums#1 : vector<16xf32>
  %r = vector.reduction <add>, %p : vector<16xf32> into f32
  return %r : f32
}

// -----

// The loop's two sums added lane by lane: a lane of one meets the same lane
// of the other, which the pairs keep; but the pattern asks for terms that do
// not depend on the loop, so it leaves the loop alone.
// CHECK-LABEL: func.func @sums_added_together
// CHECK: scf.for
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK-NOT: arith.shli
func.func @sums_added_together(%x: memref<?xbf16>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %sums:2 = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero, %t = %zero) -> (vector<16xf32>, vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %w = arith.extf %v : vector<16xbf16> to vector<16xf32>
    %s1 = arith.addf %s, %w : vector<16xf32>
    %sq = arith.mulf %w, %w : vector<16xf32>
    %t1 = arith.addf %t, %sq : vector<16xf32>
    scf.yield %s1, %t1 : vector<16xf32>, vector<16xf32>
  }
  %p = arith.addf %sums#0, %sums#1 : vector<16xf32>
  %r = vector.reduction <add>, %p : vector<16xf32> into f32
  return %r : f32
}

// -----

// f16 is not widened by a shift: left alone.
// CHECK-LABEL: func.func @f16_sum
// CHECK: arith.extf %{{.+}} : vector<16xf16> to vector<16xf32>
// CHECK-NOT: arith.shli
func.func @f16_sum(%x: memref<?xf16>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %sum = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero) -> (vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xf16>, vector<16xf16>
    %w = arith.extf %v : vector<16xf16> to vector<16xf32>
    %s1 = arith.addf %s, %w : vector<16xf32>
    scf.yield %s1 : vector<16xf32>
  }
  %r = vector.reduction <add>, %sum : vector<16xf32> into f32
  return %r : f32
}

// -----

// The elements are also stored, in a nested region: element order kept.
// CHECK-LABEL: func.func @elements_stored_in_region
// CHECK: scf.for
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK-NOT: arith.shli
func.func @elements_stored_in_region(%x: memref<?xbf16>, %n: index, %out: memref<?xf32>, %store: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %sum = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero) -> (vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %w = arith.extf %v : vector<16xbf16> to vector<16xf32>
    scf.if %store {
      vector.transfer_write %w, %out[%i] {in_bounds = [true]} : vector<16xf32>, memref<?xf32>
    }
    %s1 = arith.addf %s, %w : vector<16xf32>
    scf.yield %s1 : vector<16xf32>
  }
  %r = vector.reduction <add>, %sum : vector<16xf32> into f32
  return %r : f32
}

// -----

// Two widths of widened vectors in one loop: left alone.
// CHECK-LABEL: func.func @two_widths
// CHECK: scf.for
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK: arith.extf %{{.+}} : vector<8xbf16> to vector<8xf32>
// CHECK-NOT: arith.shli
func.func @two_widths(%x: memref<?xbf16>, %n: index, %out: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %sum = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero) -> (vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<16xbf16>
    %w = arith.extf %v : vector<16xbf16> to vector<16xf32>
    %h = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : memref<?xbf16>, vector<8xbf16>
    %hw = arith.extf %h : vector<8xbf16> to vector<8xf32>
    vector.transfer_write %hw, %out[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
    %s1 = arith.addf %s, %w : vector<16xf32>
    scf.yield %s1 : vector<16xf32>
  }
  %r = vector.reduction <add>, %sum : vector<16xf32> into f32
  return %r : f32
}
