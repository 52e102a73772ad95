// norm.normalize through TilingInterface: tiles hold whole slices; the
// statistics-shaped operands and results are tiled by the parallel dims.
// RUN: norm-opt %s --transform-interpreter --split-input-file -verify-diagnostics -canonicalize -cse | FileCheck %s

// BatchNorm training tiled over channels: running statistics and saved
// results are sliced by the channel tile, the reduced dims stay whole.
// CHECK-LABEL: func.func @batch_norm_training
// CHECK: scf.forall (%{{.+}}) in (4)
// CHECK: %[[C:.+]] = affine.apply
// CHECK: tensor.extract_slice %{{.+}}[0, %[[C]], 0, 0] [8, 16, 7, 7]
// CHECK: %[[T:.+]]:5 = norm.normalize standard axes = [0, 2, 3]
// CHECK-SAME: ins(%{{.+}} : tensor<8x16x7x7xf32>)
// CHECK-SAME: running(%{{.+}}, %{{.+}} : tensor<16xf32>, tensor<16xf32>)
// CHECK: tensor.parallel_insert_slice %[[T]]#0 into %{{.+}}[0, %[[C]], 0, 0] [8, 16, 7, 7]
// CHECK: tensor.parallel_insert_slice %[[T]]#4 into %{{.+}}[%[[C]]] [16]
func.func @batch_norm_training(%x: tensor<8x64x7x7xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %rm: tensor<64xf32>, %rv: tensor<64xf32>) -> (tensor<8x64x7x7xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %init = tensor.empty() : tensor<8x64x7x7xf32>
  %sm = tensor.empty() : tensor<64xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased
      ins(%x : tensor<8x64x7x7xf32>) scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<8x64x7x7xf32>) saved(%sm, %sm : tensor<64xf32>, tensor<64xf32>)
      running(%rm, %rv : tensor<64xf32>, tensor<64xf32>)
      -> tensor<8x64x7x7xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<8x64x7x7xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.normalize"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [0, 16, 0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// GroupNorm tiles over its batch dim only: the (N, G) statistics keep all G.
// CHECK-LABEL: func.func @group_norm
// CHECK: scf.forall (%[[N:.+]]) in (4)
// CHECK: norm.normalize standard axes = [1, 2] epsilon = 1.000000e-05 groups = 8 on 1
// CHECK-SAME: ins(%{{.+}} : tensor<1x32x9xf32>)
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<1x8xf32>, tensor<1x8xf32>)
func.func @group_norm(%x: tensor<4x32x9xf32>) -> (tensor<4x32x9xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %init = tensor.empty() : tensor<4x32x9xf32>
  %s = tensor.empty() : tensor<4x8xf32>
  %r:3 = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05 groups = 8 on 1
      ins(%x : tensor<4x32x9xf32>) outs(%init : tensor<4x32x9xf32>) saved(%s, %s : tensor<4x8xf32>, tensor<4x8xf32>)
      -> tensor<4x32x9xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  return %r#0, %r#1, %r#2 : tensor<4x32x9xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.normalize"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [1, 0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// With given statistics nothing is reduced: BatchNorm inference tiles along
// its axes too (blocks of rows of an NHWC tensor), the per-channel
// statistics, scale and bias sliced by the channel tile only.
// CHECK-LABEL: func.func @batch_norm_inference_nhwc
// CHECK: scf.forall (%[[N:.+]], %[[H:.+]], %[[C:.+]]) in (2, 3, 2)
// CHECK-DAG: %[[H0:.+]] = affine.apply {{.*}}(%[[H]])
// CHECK-DAG: %[[C0:.+]] = affine.apply {{.*}}(%[[C]])
// CHECK: tensor.extract_slice %{{.+}}[%[[N]], %[[H0]], 0, %[[C0]]] [1, 2, 5, 8]
// CHECK: tensor.extract_slice %{{.+}}[%[[C0]]] [8]
// CHECK: norm.normalize standard axes = [0, 1, 2]
// CHECK-SAME: ins(%{{[^ ]+}} : tensor<1x2x5x8xf32>)
// CHECK-SAME: stats(%{{[^ ]+}}, %{{[^ ]+}} : tensor<8xf32>, tensor<8xf32>)
func.func @batch_norm_inference_nhwc(%x: tensor<2x6x5x16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<2x6x5x16xf32> {
  %init = tensor.empty() : tensor<2x6x5x16xf32>
  %y = norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05
      ins(%x : tensor<2x6x5x16xf32>) stats(%m, %v : tensor<16xf32>, tensor<16xf32>)
      outs(%init : tensor<2x6x5x16xf32>) -> tensor<2x6x5x16xf32>
  return %y : tensor<2x6x5x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.normalize"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [1, 2, 0, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A reduction dim cannot be split.
func.func @negative_tile_reduction(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %init = tensor.empty() : tensor<8x64xf32>
  // expected-error@+5 {{cannot be tiled along reduction dim 1: a tile holds whole slices}}
  // expected-warning@+4 {{tiling is not thread safe at axis #1}}
  // expected-error@+3 {{faild to tile operation}}
  // expected-error@+2 {{failed to generate tiling loops}}
  // expected-note@+1 {{when applied to this op}}
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<8x64xf32>) outs(%init : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.normalize"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error@+1 {{transform.structured.tile_using_forall failed to apply}}
    %tiled, %loop = transform.structured.tile_using_forall %op tile_sizes [0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
