// RUN: norm-opt %s -norm-vectorize-elementwise -split-input-file | FileCheck %s
// RUN: not norm-opt %s -norm-vectorize-elementwise=vector-size=0 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: vector-size must be positive, got 0

// The innermost dim is tiled by 16 (1 elsewhere); a dynamic tile is masked.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1
// CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16
// CHECK:     %[[MASK:.+]] = vector.create_mask %c1{{.*}}, %{{.+}} : vector<1x16xi1>
// CHECK:     vector.mask %[[MASK]] { vector.transfer_read {{.*}} : tensor<1x?xbf16>, vector<1x16xbf16> }
// CHECK:     arith.extf %{{.+}} : vector<1x16xbf16> to vector<1x16xf32>
// CHECK:     arith.mulf %{{.+}} : vector<1x16xf32>
// CHECK:     vector.mask %[[MASK]] { vector.transfer_write
func.func @dynamic_rows(%x: tensor<?x?xbf16>, %o: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c = arith.constant 2.0 : f32
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xbf16>) outs(%o : tensor<?x?xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %e = arith.extf %in : bf16 to f32
    %m = arith.mulf %e, %c : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Reductions are left alone.
// CHECK-LABEL: func.func @negative_reduction
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @negative_reduction(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
