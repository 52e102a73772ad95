// RUN: norm-opt %s -norm-expand-reshaped-allocs -split-input-file | FileCheck %s

// The alloc takes the expanded (returned) shape; its users see it
// collapsed.
// CHECK-LABEL: func.func @expand_of_alloc
// CHECK-SAME: (%[[A:.+]]: index, %[[B:.+]]: index, %[[C:.+]]: index)
// CHECK: %[[ALLOC:.+]] = memref.alloc(%[[A]], %[[B]], %[[C]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK: %[[VIEW:.+]] = memref.collapse_shape %[[ALLOC]] {{\[}}[0], [1, 2]] : memref<?x?x?xf32> into memref<?x?xf32>
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[VIEW]] : memref<?x?xf32>)
// CHECK-NOT: memref.expand_shape
// CHECK: return %[[ALLOC]]
func.func @expand_of_alloc(%a: index, %b: index, %c: index) -> memref<?x?x?xf32> {
  %bc = arith.muli %b, %c : index
  %m = memref.alloc(%a, %bc) {alignment = 64 : i64} : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%m : memref<?x?xf32>)
  %e = memref.expand_shape %m [[0], [1, 2]] output_shape [%a, %b, %c] : memref<?x?xf32> into memref<?x?x?xf32>
  return %e : memref<?x?x?xf32>
}

// -----

// A collapse expanded back to the sizes of its source is the source, with
// several dynamic dims (upstream's fold takes one at most).
// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[M:.+]]: memref<?x?x?x?xf32>)
// CHECK-NOT: memref.expand_shape
// CHECK: return %[[M]]
func.func @round_trip(%m: memref<?x?x?x?xf32>) -> memref<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = memref.dim %m, %c0 : memref<?x?x?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?x?x?xf32>
  %d2 = memref.dim %m, %c2 : memref<?x?x?x?xf32>
  %d3 = memref.dim %m, %c3 : memref<?x?x?x?xf32>
  %c = memref.collapse_shape %m [[0], [1], [2, 3]] : memref<?x?x?x?xf32> into memref<?x?x?xf32>
  %e = memref.expand_shape %c [[0], [1], [2, 3]] output_shape [%d0, %d1, %d2, %d3] : memref<?x?x?xf32> into memref<?x?x?x?xf32>
  return %e : memref<?x?x?x?xf32>
}

// -----

// Left alone: the sizes are not those of the source (unrelated values), a
// size defined after the alloc, a strided source.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: memref.expand_shape
func.func @left_alone(%m: memref<?x?x?x?xf32>, %a: index, %b: index, %c: index, %d: index, %s: memref<?x?xf32, strided<[?, 1]>>) -> (memref<?x?x?x?xf32>, memref<?x?x?xf32>, memref<?x?x?xf32>) {
  %c1 = memref.collapse_shape %m [[0], [1], [2, 3]] : memref<?x?x?x?xf32> into memref<?x?x?xf32>
  %e1 = memref.expand_shape %c1 [[0], [1], [2, 3]] output_shape [%a, %b, %c, %d] : memref<?x?x?xf32> into memref<?x?x?x?xf32>
  %n = arith.muli %a, %b : index
  %alloc = memref.alloc(%n, %n) : memref<?x?xf32>
  %late = arith.addi %a, %b : index
  %e2 = memref.expand_shape %alloc [[0], [1, 2]] output_shape [%n, %late, %a] : memref<?x?xf32> into memref<?x?x?xf32>
  %e3 = memref.expand_shape %s [[0], [1, 2]] output_shape [%a, %b, %c] : memref<?x?xf32, strided<[?, 1]>> into memref<?x?x?xf32, strided<[?, ?, 1]>>
  %r = memref.cast %e3 : memref<?x?x?xf32, strided<[?, ?, 1]>> to memref<?x?x?xf32>
  return %e1, %e2, %r : memref<?x?x?x?xf32>, memref<?x?x?xf32>, memref<?x?x?xf32>
}
