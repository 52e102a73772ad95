// norm.normalize bufferizes to its memref form, in place into its inits: no
// copy for the output and saved statistics (write-only), a copy for running
// statistics that alias read-only arguments.
// RUN: norm-opt %s --norm-read-only-arguments --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.+]]: memref<4x16xf32>, %[[G:.+]]: memref<16xf32>) -> memref<4x16xf32>
// CHECK: %[[Y:.+]] = memref.alloc() {{.*}} : memref<4x16xf32>
// CHECK-NOT: memref.copy
// CHECK: norm.normalize standard axes = [1] epsilon = 1.000000e-05 ins(%[[X]] : memref<4x16xf32>) scale(%[[G]] : memref<16xf32>) affine_dims = [1] outs(%[[Y]] : memref<4x16xf32>)
// CHECK-NOT: ->
// CHECK: return %[[Y]]
func.func @layer_norm(%x: tensor<4x16xf32>, %g: tensor<16xf32>) -> tensor<4x16xf32> {
  %init = tensor.empty() : tensor<4x16xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<4x16xf32>) scale(%g : tensor<16xf32>) affine_dims = [1]
      outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @batch_norm_training
// CHECK-SAME: (%[[X:.+]]: memref<4x8x5xf32>, %[[RM:.+]]: memref<8xf32>, %[[RV:.+]]: memref<8xf32>)
// CHECK-DAG: %[[NEWRM:.+]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK-DAG: memref.copy %[[RM]], %[[NEWRM]]
// CHECK-DAG: %[[NEWRV:.+]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK-DAG: memref.copy %[[RV]], %[[NEWRV]]
// CHECK: norm.normalize {{.*}} running(%[[NEWRM]], %[[NEWRV]] : memref<8xf32>, memref<8xf32>)
// CHECK: return %{{.+}}, %[[NEWRM]], %[[NEWRV]]
func.func @batch_norm_training(%x: tensor<4x8x5xf32>, %rm: tensor<8xf32>, %rv: tensor<8xf32>) -> (tensor<4x8x5xf32>, tensor<8xf32>, tensor<8xf32>) {
  %init = tensor.empty() : tensor<4x8x5xf32>
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased
      ins(%x : tensor<4x8x5xf32>) outs(%init : tensor<4x8x5xf32>) running(%rm, %rv : tensor<8xf32>, tensor<8xf32>)
      -> tensor<4x8x5xf32>, tensor<8xf32>, tensor<8xf32>
  return %0#0, %0#1, %0#2 : tensor<4x8x5xf32>, tensor<8xf32>, tensor<8xf32>
}
