// RUN: norm-opt %s -test-norm-skip-empty-masked-steps -split-input-file | FileCheck %s

// A row's sum and sum of squares: the masked last step (its read, the ops
// on it, the broadcast only it uses and the selects) runs under an scf.if
// on the mask's size; otherwise the loop's partial sums pass through.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>, %[[N:.+]]: index, %[[REST:.+]]: index, %[[K:.+]]: f32)
// CHECK: %[[MASK:.+]] = vector.create_mask %[[REST]] : vector<16xi1>
// CHECK: %[[SUMS:.+]]:2 = scf.for
// CHECK: %[[NONEMPTY:.+]] = arith.cmpi sgt, %[[REST]], %{{.+}} : index
// CHECK: %[[STEP:.+]]:2 = scf.if %[[NONEMPTY]] -> (vector<16xf32>, vector<16xf32>) {
// CHECK-NEXT:   %[[T:.+]] = vector.transfer_read %[[X]][%[[N]]], %{{.+}}, %[[MASK]]
// CHECK-NEXT:   %[[KT:.+]] = vector.broadcast %[[K]]
// CHECK-NEXT:   %[[TD:.+]] = arith.mulf %[[T]], %[[KT]]
// CHECK-NEXT:   %[[S2:.+]] = arith.addf %[[SUMS]]#0, %[[TD]]
// CHECK-NEXT:   %[[Q2:.+]] = math.fma %[[TD]], %[[TD]], %[[SUMS]]#1
// CHECK-NEXT:   %[[S:.+]] = arith.select %[[MASK]], %[[S2]], %[[SUMS]]#0
// CHECK-NEXT:   %[[Q:.+]] = arith.select %[[MASK]], %[[Q2]], %[[SUMS]]#1
// CHECK-NEXT:   scf.yield %[[S]], %[[Q]]
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[SUMS]]#0, %[[SUMS]]#1
// CHECK-NEXT: }
// CHECK-NEXT: vector.reduction <add>, %[[STEP]]#0
// CHECK-NEXT: vector.reduction <add>, %[[STEP]]#1
func.func @row_sums(%x: tensor<?xf32>, %n: index, %rest: index, %k: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %mask = vector.create_mask %rest : vector<16xi1>
  %kv = vector.broadcast %k : f32 to vector<16xf32>
  %sums:2 = scf.for %i = %c0 to %n step %c16 iter_args(%s = %zero, %q = %zero) -> (vector<16xf32>, vector<16xf32>) {
    %v = vector.transfer_read %x[%i], %pad {in_bounds = [true]} : tensor<?xf32>, vector<16xf32>
    %d = arith.mulf %v, %kv : vector<16xf32>
    %s1 = arith.addf %s, %d : vector<16xf32>
    %q1 = math.fma %d, %d, %q : vector<16xf32>
    scf.yield %s1, %q1 : vector<16xf32>, vector<16xf32>
  }
  %t = vector.transfer_read %x[%n], %pad, %mask {in_bounds = [true]} : tensor<?xf32>, vector<16xf32>
  %kt = vector.broadcast %k : f32 to vector<16xf32>
  %td = arith.mulf %t, %kt : vector<16xf32>
  %s2 = arith.addf %sums#0, %td : vector<16xf32>
  %q2 = math.fma %td, %td, %sums#1 : vector<16xf32>
  %s3 = arith.select %mask, %s2, %sums#0 : vector<16xi1>, vector<16xf32>
  %q3 = arith.select %mask, %q2, %sums#1 : vector<16xi1>, vector<16xf32>
  %rs = vector.reduction <add>, %s3 : vector<16xf32> into f32
  %rq = vector.reduction <add>, %q3 : vector<16xf32> into f32
  return %rs, %rq : f32, f32
}

// -----

// A value of the step used past the selects (here returned): the step
// stays as it is.
// CHECK-LABEL: func.func @step_used_elsewhere
// CHECK-NOT: scf.if
func.func @step_used_elsewhere(%x: tensor<?xf32>, %n: index, %acc: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>) {
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %n : vector<16xi1>
  %t = vector.transfer_read %x[%n], %pad, %mask {in_bounds = [true]} : tensor<?xf32>, vector<16xf32>
  %s = arith.addf %acc, %t : vector<16xf32>
  %r = arith.select %mask, %s, %acc : vector<16xi1>, vector<16xf32>
  return %r, %t : vector<16xf32>, vector<16xf32>
}

// -----

// A masked read of a memref (which a write may follow) is not moved.
// CHECK-LABEL: func.func @memref_read
// CHECK-NOT: scf.if
func.func @memref_read(%x: memref<?xf32>, %n: index, %acc: vector<16xf32>) -> vector<16xf32> {
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %n : vector<16xi1>
  %t = vector.transfer_read %x[%n], %pad, %mask {in_bounds = [true]} : memref<?xf32>, vector<16xf32>
  %s = arith.addf %acc, %t : vector<16xf32>
  %r = arith.select %mask, %s, %acc : vector<16xi1>, vector<16xf32>
  return %r : vector<16xf32>
}

// -----

// A select on the mask with no masked read behind it: nothing to skip.
// CHECK-LABEL: func.func @no_masked_read
// CHECK-NOT: scf.if
func.func @no_masked_read(%a: vector<16xf32>, %b: vector<16xf32>, %n: index) -> vector<16xf32> {
  %mask = vector.create_mask %n : vector<16xi1>
  %s = arith.addf %a, %b : vector<16xf32>
  %r = arith.select %mask, %s, %a : vector<16xi1>, vector<16xf32>
  return %r : vector<16xf32>
}

// -----

// One mask, a step in each of two loops' bodies: each gets its own branch.
// CHECK-LABEL: func.func @two_blocks
// CHECK-SAME: (%{{.+}}: tensor<?xf32>, %{{.+}}: index, %[[REST:.+]]: index,
// CHECK: scf.for
// CHECK: %[[A:.+]] = arith.cmpi sgt, %[[REST]], %{{.+}} : index
// CHECK-NEXT: scf.if %[[A]] -> (vector<16xf32>) {
// CHECK: scf.for
// CHECK: %[[B:.+]] = arith.cmpi sgt, %[[REST]], %{{.+}} : index
// CHECK-NEXT: scf.if %[[B]] -> (vector<16xf32>) {
func.func @two_blocks(%x: tensor<?xf32>, %n: index, %rest: index, %acc: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %rest : vector<16xi1>
  %r0 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (vector<16xf32>) {
    %t = vector.transfer_read %x[%i], %pad, %mask {in_bounds = [true]} : tensor<?xf32>, vector<16xf32>
    %s = arith.addf %a, %t : vector<16xf32>
    %r = arith.select %mask, %s, %a : vector<16xi1>, vector<16xf32>
    scf.yield %r : vector<16xf32>
  }
  %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (vector<16xf32>) {
    %t = vector.transfer_read %x[%i], %pad, %mask {in_bounds = [true]} : tensor<?xf32>, vector<16xf32>
    %s = arith.maximumf %a, %t : vector<16xf32>
    %r = arith.select %mask, %s, %a : vector<16xi1>, vector<16xf32>
    scf.yield %r : vector<16xf32>
  }
  return %r0, %r1 : vector<16xf32>, vector<16xf32>
}

// -----

// The first select's result is used before the second select: the results
// cannot all be defined at one branch, so the step stays as it is.
// CHECK-LABEL: func.func @select_used_early
// CHECK-NOT: scf.if
func.func @select_used_early(%x: tensor<?xf32>, %n: index, %a: vector<16xf32>, %b: vector<16xf32>) -> (vector<16xf32>, f32) {
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %n : vector<16xi1>
  %t = vector.transfer_read %x[%n], %pad, %mask {in_bounds = [true]} : tensor<?xf32>, vector<16xf32>
  %s = arith.addf %a, %t : vector<16xf32>
  %r = arith.select %mask, %s, %a : vector<16xi1>, vector<16xf32>
  %sum = vector.reduction <add>, %r : vector<16xf32> into f32
  %q = arith.mulf %b, %t : vector<16xf32>
  %r2 = arith.select %mask, %q, %b : vector<16xi1>, vector<16xf32>
  return %r2, %sum : vector<16xf32>, f32
}
