// RUN: norm-opt %s -norm-distinct-results | FileCheck %s

// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[A:.+]]: tensor<?x4xf32>)
// CHECK: %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?x4xf32>
// CHECK: %[[C:.+]] = linalg.copy ins(%[[A]] : tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: return %[[A]], %[[C]], %{{.+}} : tensor<?x4xf32>, tensor<?x4xf32>, index
func.func @twice(%a: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, index) {
  %c0 = arith.constant 0 : index
  return %a, %a, %c0 : tensor<?x4xf32>, tensor<?x4xf32>, index
}

// CHECK-LABEL: func.func @negative_distinct
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @negative_distinct(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// A private function keeps its results: its callers are internal.
// CHECK-LABEL: func.func private @negative_private
// CHECK-NOT: linalg.copy
func.func private @negative_private(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %a, %a : tensor<4xf32>, tensor<4xf32>
}
