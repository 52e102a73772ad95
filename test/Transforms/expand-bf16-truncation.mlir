// RUN: norm-opt %s -split-input-file -norm-expand-bf16-truncation | FileCheck %s
// RUN: norm-opt %s -split-input-file -norm-expand-bf16-truncation=vector-bits=256 | FileCheck %s --check-prefix=NARROW

// CHECK-LABEL: func.func @truncf_vector
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>)
// CHECK-DAG: %[[C16:.+]] = arith.constant dense<16> : vector<16xi32>
// CHECK-DAG: %[[C1:.+]] = arith.constant dense<1> : vector<16xi32>
// CHECK-DAG: %[[BIAS:.+]] = arith.constant dense<32767> : vector<16xi32>
// CHECK-DAG: %[[QUIET:.+]] = arith.constant dense<4194304> : vector<16xi32>
// CHECK: %[[X:.+]] = arith.bitcast %[[V]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[SH:.+]] = arith.shrui %[[X]], %[[C16]]
// CHECK: %[[LSB:.+]] = arith.andi %[[SH]], %[[C1]]
// CHECK: %[[INC:.+]] = arith.addi %[[LSB]], %[[BIAS]]
// CHECK: %[[R:.+]] = arith.addi %[[X]], %[[INC]]
// CHECK: %[[NAN:.+]] = arith.cmpf uno, %[[V]], %[[V]]
// CHECK: %[[Q:.+]] = arith.ori %[[X]], %[[QUIET]]
// CHECK: %[[SEL:.+]] = arith.select %[[NAN]], %[[Q]], %[[R]]
// CHECK: %[[H:.+]] = vector.bitcast %[[SEL]] : vector<16xi32> to vector<32xi16>
// CHECK: %[[U:.+]] = vector.shuffle %[[H]], %[[H]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xi16>, vector<32xi16>
// CHECK: %[[B:.+]] = arith.bitcast %[[U]] : vector<16xi16> to vector<16xbf16>
// CHECK-NOT: arith.truncf
// CHECK: return %[[B]]
// Narrower targets round the same way and shift and truncate.
// NARROW-LABEL: func.func @truncf_vector
// NARROW-NOT: vector.shuffle
// NARROW: %[[SEL:.+]] = arith.select
// NARROW: %[[SH:.+]] = arith.shrui %[[SEL]], %{{.+}} : vector<16xi32>
// NARROW: %[[T:.+]] = arith.trunci %[[SH]] : vector<16xi32> to vector<16xi16>
// NARROW: arith.bitcast %[[T]] : vector<16xi16> to vector<16xbf16>
// NARROW-NOT: arith.truncf
func.func @truncf_vector(%v: vector<16xf32>) -> vector<16xbf16> {
  %t = arith.truncf %v : vector<16xf32> to vector<16xbf16>
  return %t : vector<16xbf16>
}

// -----

// An explicit round-to-nearest-even is the same rounding.
// CHECK-LABEL: func.func @truncf_nearest_even
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [1, 3, 5, 7] : vector<8xi16>, vector<8xi16>
// CHECK-NOT: arith.truncf
func.func @truncf_nearest_even(%v: vector<4xf32>) -> vector<4xbf16> {
  %t = arith.truncf %v to_nearest_even : vector<4xf32> to vector<4xbf16>
  return %t : vector<4xbf16>
}

// -----

// Scalars and 2-D vectors get the rounding, narrowed by a shift and a
// truncation at any width.
// CHECK-LABEL: func.func @scalar_and_2d
// CHECK-NOT: vector.shuffle
// CHECK: arith.cmpf uno, %{{.+}}, %{{.+}} : f32
// CHECK: %[[S:.+]] = arith.shrui %{{.+}}, %{{.+}} : i32
// CHECK: arith.trunci %[[S]] : i32 to i16
// CHECK: arith.cmpf uno, %{{.+}}, %{{.+}} : vector<2x16xf32>
// CHECK: %[[M:.+]] = arith.shrui %{{.+}}, %{{.+}} : vector<2x16xi32>
// CHECK: arith.trunci %[[M]] : vector<2x16xi32> to vector<2x16xi16>
// CHECK-NOT: arith.truncf
func.func @scalar_and_2d(%s: f32, %m: vector<2x16xf32>)
    -> (bf16, vector<2x16xbf16>) {
  %b = arith.truncf %s : f32 to bf16
  %c = arith.truncf %m : vector<2x16xf32> to vector<2x16xbf16>
  return %b, %c : bf16, vector<2x16xbf16>
}

// -----

// Other rounding modes, f16 targets and f64 sources stay.
// CHECK-LABEL: func.func @negative
// CHECK-NOT: vector.shuffle
// CHECK: arith.truncf %{{.+}} toward_zero : vector<16xf32> to vector<16xbf16>
// CHECK: arith.truncf %{{.+}} : vector<16xf32> to vector<16xf16>
// CHECK: arith.truncf %{{.+}} : vector<16xf64> to vector<16xbf16>
// CHECK-NOT: vector.shuffle
// NARROW-LABEL: func.func @negative
// NARROW-NOT: arith.shrui
func.func @negative(%v: vector<16xf32>, %d: vector<16xf64>)
    -> (vector<16xbf16>, vector<16xf16>, vector<16xbf16>) {
  %a = arith.truncf %v toward_zero : vector<16xf32> to vector<16xbf16>
  %e = arith.truncf %v : vector<16xf32> to vector<16xf16>
  %f = arith.truncf %d : vector<16xf64> to vector<16xbf16>
  return %a, %e, %f : vector<16xbf16>, vector<16xf16>, vector<16xbf16>
}
