// RUN: norm-opt %s -norm-compensate-sums -split-input-file | FileCheck %s
// RUN: norm-opt %s -norm-compensate-sums -norm-compensate-sums -split-input-file | FileCheck %s

// A sum reduction gets a zero-initialized compensation output and the Kahan
// update; the compensation resets when the partial sum is not finite.
// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[X:.+]]: tensor<4x?xf32>, %[[INIT:.+]]: tensor<4xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[C0:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[R:.+]]:2 = linalg.generic {{.*}} ins(%[[X]] : tensor<4x?xf32>) outs(%[[INIT]], %[[C0]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[IN:.+]]: f32, %[[S:.+]]: f32, %[[C:.+]]: f32):
// CHECK:   %[[T:.+]] = arith.mulf %[[IN]], %[[IN]] : f32
// CHECK:   %[[Y:.+]] = arith.subf %[[T]], %[[C]] : f32
// CHECK:   %[[NEXT:.+]] = arith.addf %[[S]], %[[Y]] : f32
// CHECK:   %[[D:.+]] = arith.subf %[[NEXT]], %[[S]] : f32
// CHECK:   %[[LOST:.+]] = arith.subf %[[D]], %[[Y]] : f32
// CHECK:   %[[SELF:.+]] = arith.subf %[[NEXT]], %[[NEXT]] : f32
// CHECK:   %[[FINITE:.+]] = arith.cmpf oeq, %[[SELF]], %{{.+}} : f32
// CHECK:   %[[CARRY:.+]] = arith.select %[[FINITE]], %[[LOST]], %{{.+}} : f32
// CHECK:   linalg.yield %[[NEXT]], %[[CARRY]] : f32, f32
// CHECK: return %[[R]]#0
func.func @sum(%x: tensor<4x?xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x?xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %out, %sq : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Two sums in one reduction: one compensation each. Running the pass twice
// changes nothing more (the rewritten generic does not match again).
// CHECK-LABEL: func.func @two_sums
// CHECK: linalg.generic {{.*}} outs(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-COUNT-2: arith.select
// CHECK: linalg.yield %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : f32, f32, f32, f32
func.func @two_sums(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init, %init : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %a: f32, %b: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %a, %in : f32
    %t = arith.addf %b, %sq : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A sum beside a max (the decomposition's Σx and max|x| pass): the sum gets
// its compensation, the max stays as it is; twice changes nothing more.
// CHECK-LABEL: func.func @sum_and_max
// CHECK: %[[R:.+]]:3 = linalg.generic {{.*}} outs(%{{.+}}, %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[IN:.+]]: f32, %[[S:.+]]: f32, %[[M:.+]]: f32, %[[C:.+]]: f32):
// CHECK:   %[[ABS:.+]] = math.absf %[[IN]]
// CHECK:   %[[MAX:.+]] = arith.maximumf %[[M]], %[[ABS]]
// CHECK:   %[[Y:.+]] = arith.subf %[[IN]], %[[C]]
// CHECK:   %[[NEXT:.+]] = arith.addf %[[S]], %[[Y]]
// CHECK:   %[[CARRY:.+]] = arith.select
// CHECK:   linalg.yield %[[NEXT]], %[[MAX]], %[[CARRY]] : f32, f32, f32
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @sum_and_max(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init, %init : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %s: f32, %m: f32):
    %a = math.absf %in : f32
    %sum = arith.addf %s, %in : f32
    %max = arith.maximumf %m, %a : f32
    linalg.yield %sum, %max : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A max reduction and an elementwise op are not sums: unchanged.
// CHECK-LABEL: func.func @negative_not_sums
// CHECK-NOT: linalg.fill
// CHECK: arith.maximumf
// CHECK-NOT: arith.select
func.func @negative_not_sums(%x: tensor<4x8xf32>, %init: tensor<4xf32>, %o: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %0, %1 : tensor<4xf32>, tensor<4x8xf32>
}
