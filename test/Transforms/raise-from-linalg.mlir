// RUN: norm-opt %s -norm-raise-from-linalg -split-input-file | FileCheck %s --check-prefixes=CHECK,STABLE
// RUN: norm-opt %s -norm-raise-from-linalg=allow-unstable-variance=true -split-input-file | FileCheck %s --check-prefixes=CHECK,UNSTABLE

// LayerNorm over the last dim as torch-mlir decomposes it: sum, divide by
// N, centered squares, rsqrt(var + eps), then the broadcast affine.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>, %[[G:.+]]: tensor<64xf32>, %[[B:.+]]: tensor<64xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<8x64xf32>
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<8x64xf32>) scale(%[[G]] : tensor<64xf32>) bias(%[[B]] : tensor<64xf32>) affine_dims = [1]
// CHECK-SAME: outs(%[[INIT]] : tensor<8x64xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @layer_norm(%x: tensor<8x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %diff = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%diff : tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  %sqsum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sqsum : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  %norm = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%diff, %rstd : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id2, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%norm, %g, %b : tensor<8x64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.mulf %in, %gi : f32
    %1 = arith.addf %0, %bi : f32
    linalg.yield %1 : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// The same with named ops (linalg.reduce, linalg.broadcast, linalg.sub, ...),
// keepdim statistics, sqrt and a division, the affine in the other operand
// order, and a dynamic batch dim.
// CHECK-LABEL: func.func @layer_norm_named_sqrt
// CHECK-SAME: (%[[X:.+]]: tensor<?x32xf32>, %[[G:.+]]: tensor<32xf32>, %[[B:.+]]: tensor<32xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x32xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[N]]) : tensor<?x32xf32>
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1] epsilon = 0.0010000000474974513
// CHECK-SAME: ins(%[[X]] : tensor<?x32xf32>) scale(%[[G]] : tensor<32xf32>) bias(%[[B]] : tensor<32xf32>) affine_dims = [1]
// CHECK-SAME: outs(%[[INIT]] : tensor<?x32xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
func.func @layer_norm_named_sqrt(%x: tensor<?x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.200000e+01 : f32
  %epsc = arith.constant 1.000000e-03 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x32xf32>
  %e1 = tensor.empty(%d0) : tensor<?xf32>
  %e2 = tensor.empty(%d0) : tensor<?x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%x : tensor<?x32xf32>) outs(%acc : tensor<?xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %nfill = linalg.fill ins(%n : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %mean = linalg.div ins(%sum, %nfill : tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %mean2 = tensor.expand_shape %mean [[0, 1]] output_shape [%d0, 1] : tensor<?xf32> into tensor<?x1xf32>
  %meanb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
      ins(%mean2 : tensor<?x1xf32>) outs(%e2 : tensor<?x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x32xf32>
  %diff = linalg.sub ins(%x, %meanb : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %sq = linalg.mul ins(%diff, %diff : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %sqsum = linalg.reduce ins(%sq : tensor<?x32xf32>) outs(%acc : tensor<?xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %var = linalg.div ins(%sqsum, %nfill : tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %var2 = tensor.expand_shape %var [[0, 1]] output_shape [%d0, 1] : tensor<?xf32> into tensor<?x1xf32>
  %e3 = tensor.empty(%d0) : tensor<?x1xf32>
  %eps = linalg.fill ins(%epsc : f32) outs(%e3 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %vareps = linalg.add ins(%var2, %eps : tensor<?x1xf32>, tensor<?x1xf32>) outs(%e3 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %std = linalg.sqrt ins(%vareps : tensor<?x1xf32>) outs(%e3 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %stdc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%std : tensor<?x1xf32>) outs(%e2 : tensor<?x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x32xf32>
  %norm = linalg.div ins(%diff, %stdc : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %gb = linalg.broadcast ins(%g : tensor<32xf32>) outs(%e2 : tensor<?x32xf32>) dimensions = [0]
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e2 : tensor<?x32xf32>) dimensions = [0]
  %scaled = linalg.mul ins(%gb, %norm : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %y = linalg.add ins(%bb, %scaled : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}

// -----

// RMSNorm on f16 data computed in f32: extf, mean of squares as a multiply
// by 1/N, rsqrt, the f16 weight widened, and a final truncf.
// CHECK-LABEL: func.func @rms_norm_f16
// CHECK-SAME: (%[[X:.+]]: tensor<4x128xf16>, %[[W:.+]]: tensor<128xf16>)
// CHECK-NOT: linalg.
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<4x128xf16>
// CHECK: %[[Y:.+]] = norm.normalize rms axes = [1] epsilon = 9.9999999747524271E-7
// CHECK-SAME: ins(%[[X]] : tensor<4x128xf16>) scale(%[[W]] : tensor<128xf16>) affine_dims = [1]
// CHECK-SAME: outs(%[[INIT]] : tensor<4x128xf16>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rms_norm_f16(%x: tensor<4x128xf16>, %w: tensor<128xf16>) -> tensor<4x128xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %inv = arith.constant 7.812500e-03 : f32
  %two = arith.constant 2.000000e+00 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x128xf32>
  %eh = tensor.empty() : tensor<4x128xf16>
  %xf = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x128xf16>) outs(%e2 : tensor<4x128xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xf : tensor<4x128xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.powf %in, %two : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %rstd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %inv : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %rstd, %w : tensor<4x128xf32>, tensor<4xf32>, tensor<128xf16>) outs(%eh : tensor<4x128xf16>) {
  ^bb0(%in: f32, %r: f32, %wi: f16, %out: f16):
    %0 = arith.mulf %in, %r : f32
    %1 = arith.extf %wi : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.truncf %2 : f32 to f16
    linalg.yield %3 : f16
  } -> tensor<4x128xf16>
  return %y : tensor<4x128xf16>
}

// -----

// BatchNorm inference on NCHW with the running statistics given, one fused
// generic as elementwise fusion leaves it.
// CHECK-LABEL: func.func @batch_norm_inference
// CHECK-SAME: (%[[X:.+]]: tensor<2x16x5x5xf32>, %[[M:.+]]: tensor<16xf32>, %[[V:.+]]: tensor<16xf32>, %[[G:.+]]: tensor<16xf32>, %[[B:.+]]: tensor<16xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x16x5x5xf32>
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [0, 2, 3] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<2x16x5x5xf32>) scale(%[[G]] : tensor<16xf32>) bias(%[[B]] : tensor<16xf32>) affine_dims = [1]
// CHECK-SAME: stats(%[[M]], %[[V]] : tensor<16xf32>, tensor<16xf32>)
// CHECK-SAME: outs(%[[INIT]] : tensor<2x16x5x5xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @batch_norm_inference(%x: tensor<2x16x5x5xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>,
                                %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<2x16x5x5xf32> {
  %eps = arith.constant 9.99999974E-6 : f32
  %e = tensor.empty() : tensor<2x16x5x5xf32>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #ch, #ch, #ch, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %m, %v, %g, %b : tensor<2x16x5x5xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
      outs(%e : tensor<2x16x5x5xf32>) {
  ^bb0(%in: f32, %mi: f32, %vi: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.subf %in, %mi : f32
    %1 = arith.addf %vi, %eps : f32
    %2 = math.sqrt %1 : f32
    %3 = arith.divf %0, %2 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    linalg.yield %5 : f32
  } -> tensor<2x16x5x5xf32>
  return %y : tensor<2x16x5x5xf32>
}

// -----

// BatchNorm inference with keepdim [1, C, 1, 1] statistics and parameters:
// their unit dims are collapsed away.
// CHECK-LABEL: func.func @batch_norm_keepdim
// CHECK-SAME: (%[[X:.+]]: tensor<2x16x5x5xf32>, %[[M:.+]]: tensor<1x16x1x1xf32>, %[[V:.+]]: tensor<1x16x1x1xf32>, %[[G:.+]]: tensor<1x16x1x1xf32>)
// CHECK-DAG: %[[G1:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
// CHECK-DAG: %[[M1:.+]] = tensor.collapse_shape %[[M]] {{\[}}[0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
// CHECK-DAG: %[[V1:.+]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
// CHECK: norm.normalize standard axes = [0, 2, 3] epsilon = 0.10000000149011612
// CHECK-SAME: ins(%[[X]] : tensor<2x16x5x5xf32>) scale(%[[G1]] : tensor<16xf32>) affine_dims = [1]
// CHECK-SAME: stats(%[[M1]], %[[V1]] : tensor<16xf32>, tensor<16xf32>)
// CHECK-NOT: linalg.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#kd = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
func.func @batch_norm_keepdim(%x: tensor<2x16x5x5xf32>, %m: tensor<1x16x1x1xf32>, %v: tensor<1x16x1x1xf32>,
                              %g: tensor<1x16x1x1xf32>) -> tensor<2x16x5x5xf32> {
  %eps = arith.constant 1.000000e-01 : f64
  %e = tensor.empty() : tensor<2x16x5x5xf32>
  %ek = tensor.empty() : tensor<1x16x1x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x16x1x1xf32>) outs(%ek : tensor<1x16x1x1xf32>) {
  ^bb0(%vi: f32, %out: f32):
    %0 = arith.truncf %eps : f64 to f32
    %1 = arith.addf %vi, %0 : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<1x16x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id4, #kd, #kd, #kd, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %m, %rstd, %g : tensor<2x16x5x5xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>)
      outs(%e : tensor<2x16x5x5xf32>) {
  ^bb0(%in: f32, %mi: f32, %ri: f32, %gi: f32, %out: f32):
    %0 = arith.subf %in, %mi : f32
    %1 = arith.mulf %0, %ri : f32
    %2 = arith.mulf %gi, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<2x16x5x5xf32>
  return %y : tensor<2x16x5x5xf32>
}

// -----

// GroupNorm(2) on NCHW: the channel dim split by tensor.expand_shape, the
// statistics reduced over [C/G, H, W], the result collapsed back, then the
// per-channel affine.
// CHECK-LABEL: func.func @group_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x8x4x4xf32>, %[[G:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x8x4x4xf32>
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1, 2, 3] epsilon = 9.9999997473787516E-6 groups = 2 on 1
// CHECK-SAME: ins(%[[X]] : tensor<2x8x4x4xf32>) scale(%[[G]] : tensor<8xf32>) bias(%[[B]] : tensor<8xf32>) affine_dims = [1]
// CHECK-SAME: outs(%[[INIT]] : tensor<2x8x4x4xf32>)
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.collapse_shape
// CHECK: return %[[Y]]
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#grp = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @group_norm(%x: tensor<2x8x4x4xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %x5 = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 4, 4]
      : tensor<2x8x4x4xf32> into tensor<2x2x4x4x4xf32>
  %es = tensor.empty() : tensor<2x2xf32>
  %e5 = tensor.empty() : tensor<2x2x4x4x4xf32>
  %e4 = tensor.empty() : tensor<2x8x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2xf32>) -> tensor<2x2xf32>
  %sum = linalg.reduce ins(%x5 : tensor<2x2x4x4x4xf32>) outs(%acc : tensor<2x2xf32>) dimensions = [2, 3, 4]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x2xf32>) outs(%es : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<2x2xf32>
  %diff = linalg.generic {indexing_maps = [#id5, #grp, #id5],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x5, %mean : tensor<2x2x4x4x4xf32>, tensor<2x2xf32>) outs(%e5 : tensor<2x2x4x4x4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x4x4x4xf32>
  %ss = linalg.generic {indexing_maps = [#id5, #grp],
                        iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%diff : tensor<2x2x4x4x4xf32>) outs(%acc : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<2x2xf32>
  %norm5 = linalg.generic {indexing_maps = [#id5, #grp, #id5],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%diff, %ss : tensor<2x2x4x4x4xf32>, tensor<2x2xf32>) outs(%e5 : tensor<2x2x4x4x4xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %s, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.mulf %in, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<2x2x4x4x4xf32>
  %norm = tensor.collapse_shape %norm5 [[0], [1, 2], [3], [4]] : tensor<2x2x4x4x4xf32> into tensor<2x8x4x4xf32>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%norm, %g, %b : tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e4 : tensor<2x8x4x4xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.mulf %in, %gi : f32
    %1 = arith.addf %0, %bi : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// -----

// GroupNorm without affine: the collapse is the last op.
// CHECK-LABEL: func.func @group_norm_no_affine
// CHECK-SAME: (%[[X:.+]]: tensor<1x6x10xf32>)
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1, 2] epsilon = 5.000000e-01 groups = 3 on 1
// CHECK-SAME: ins(%[[X]] : tensor<1x6x10xf32>) outs(%{{.+}} : tensor<1x6x10xf32>)
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.collapse_shape
// CHECK: return %[[Y]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#grp = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @group_norm_no_affine(%x: tensor<1x6x10xf32>) -> tensor<1x6x10xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.000000e+01 : f32
  %eps = arith.constant 5.000000e-01 : f32
  %x4 = tensor.expand_shape %x [[0], [1, 2], [3]] output_shape [1, 3, 2, 10] : tensor<1x6x10xf32> into tensor<1x3x2x10xf32>
  %es = tensor.empty() : tensor<1x3xf32>
  %e4 = tensor.empty() : tensor<1x3x2x10xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<1x3xf32>) -> tensor<1x3xf32>
  %sum = linalg.reduce ins(%x4 : tensor<1x3x2x10xf32>) outs(%acc : tensor<1x3xf32>) dimensions = [2, 3]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id4, #grp, #grp], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x4, %sum : tensor<1x3x2x10xf32>, tensor<1x3xf32>) outs(%acc : tensor<1x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %s, %n : f32
    %1 = arith.subf %in, %0 : f32
    %2 = arith.mulf %1, %1 : f32
    %3 = arith.addf %2, %out : f32
    linalg.yield %3 : f32
  } -> tensor<1x3xf32>
  %norm = linalg.generic {indexing_maps = [#id4, #grp, #grp, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x4, %sum, %ss : tensor<1x3x2x10xf32>, tensor<1x3xf32>, tensor<1x3xf32>) outs(%e4 : tensor<1x3x2x10xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %0 = arith.divf %s, %n : f32
    %1 = arith.subf %in, %0 : f32
    %2 = arith.divf %q, %n : f32
    %3 = arith.addf %eps, %2 : f32
    %4 = math.sqrt %3 : f32
    %5 = arith.divf %1, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<1x3x2x10xf32>
  %y = tensor.collapse_shape %norm [[0], [1, 2], [3]] : tensor<1x3x2x10xf32> into tensor<1x6x10xf32>
  return %y : tensor<1x6x10xf32>
}

// -----

// The one-pass variance E[x^2] - E[x]^2: raised only on request, since the
// op computes the centered variance.
// CHECK-LABEL: func.func @layer_norm_unstable_variance
// STABLE-NOT: norm.normalize
// STABLE: linalg.generic
// UNSTABLE: %[[Y:.+]] = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6
// UNSTABLE-SAME: ins(%{{.+}} : tensor<8x64xf32>) outs(%{{.+}} : tensor<8x64xf32>)
// UNSTABLE-NOT: linalg.
// UNSTABLE: return %[[Y]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @layer_norm_unstable_variance(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sums:2 = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%acc, %acc : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32):
    %0 = arith.addf %in, %s : f32
    %1 = arith.mulf %in, %in : f32
    %2 = arith.addf %1, %q : f32
    linalg.yield %0, %2 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sums#0, %sums#1 : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %ex2 = arith.divf %q, %n : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %in, %mean : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// LayerNorm after elementwise fusion: the statistics and the normalization
// recompute the mean inside their bodies. The negative cases below each
// change one thing in it.
// CHECK-LABEL: func.func @layer_norm_fused
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>)
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6 ins(%[[X]] : tensor<8x64xf32>) outs(%{{.+}} : tensor<8x64xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @layer_norm_fused(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %n2 = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n2 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// The variance is divided by N - 1 (the unbiased estimate): not the op.
// CHECK-LABEL: func.func @negative_wrong_divisor
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_wrong_divisor(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %n2 = arith.constant 6.300000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n2 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// epsilon added to the standard deviation, not to the variance.
// CHECK-LABEL: func.func @negative_epsilon_outside_sqrt
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_epsilon_outside_sqrt(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %n2 = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n2 : f32
    %sd = math.sqrt %v : f32
    %se = arith.addf %sd, %eps : f32
    %o = arith.divf %d, %se : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// epsilon added after the rsqrt.
// CHECK-LABEL: func.func @negative_epsilon_after_rsqrt
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_epsilon_after_rsqrt(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %n2 = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n2 : f32
    %r = math.rsqrt %v : f32
    %re = arith.addf %r, %eps : f32
    %o = arith.mulf %d, %re : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// The statistics are reduced over dim 1 but broadcast along dim 0 (square
// shape, so the IR is valid): each row is normalized with another row's
// statistics.
// CHECK-LABEL: func.func @negative_statistics_broadcast_on_other_dim
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_statistics_broadcast_on_other_dim(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.600000e+01 : f32
  %n2 = arith.constant 1.600000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.reduce ins(%x : tensor<16x16xf32>) outs(%acc : tensor<16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<16x16xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n2 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}

// -----

// epsilon is not a constant.
// CHECK-LABEL: func.func @negative_dynamic_epsilon
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_dynamic_epsilon(%x: tensor<8x64xf32>, %eps: f32) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %n2 = arith.constant 6.400000e+01 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n2 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// The statistics are accumulated in f16: the op would accumulate in f32,
// so raising would change the numerics.
// CHECK-LABEL: func.func @negative_f16_accumulation
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_f16_accumulation(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %n = arith.constant 6.400000e+01 : f16
  %n2 = arith.constant 6.400000e+01 : f16
  %eps = arith.constant 9.99999974E-6 : f16
  %e1 = tensor.empty() : tensor<8xf16>
  %e2 = tensor.empty() : tensor<8x64xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e1 : tensor<8xf16>) -> tensor<8xf16>
  %sum = linalg.reduce ins(%x : tensor<8x64xf16>) outs(%acc : tensor<8xf16>) dimensions = [1]
    (%in: f16, %init: f16) {
      %0 = arith.addf %in, %init : f16
      linalg.yield %0 : f16
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf16>, tensor<8xf16>) outs(%acc : tensor<8xf16>) {
  ^bb0(%in: f16, %s: f16, %out: f16):
    %m = arith.divf %s, %n : f16
    %d = arith.subf %in, %m : f16
    %d2 = arith.mulf %d, %d : f16
    %a = arith.addf %d2, %out : f16
    linalg.yield %a : f16
  } -> tensor<8xf16>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<8x64xf16>, tensor<8xf16>, tensor<8xf16>) outs(%e2 : tensor<8x64xf16>) {
  ^bb0(%in: f16, %s: f16, %q: f16, %out: f16):
    %m = arith.divf %s, %n : f16
    %d = arith.subf %in, %m : f16
    %v = arith.divf %q, %n2 : f16
    %ve = arith.addf %v, %eps : f16
    %r = math.rsqrt %ve : f16
    %o = arith.mulf %d, %r : f16
    linalg.yield %o : f16
  } -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// The reduced dim is dynamic: the divisor cannot be checked against it.
// CHECK-LABEL: func.func @negative_dynamic_reduced_dim
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_dynamic_reduced_dim(%x: tensor<8x?xf32>) -> tensor<8x?xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %n2 = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<8x?xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty(%d1) : tensor<8x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x?xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x?xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<8x?xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x?xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n2 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x?xf32>
  return %y : tensor<8x?xf32>
}

// -----

// Both dims dynamic: N is the extent of the reduced dim, queried with
// tensor.dim and converted as torch-mlir does.
// CHECK-LABEL: func.func @layer_norm_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>)
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6 ins(%[[X]] : tensor<?x?xf32>) outs(%{{.+}} : tensor<?x?xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @layer_norm_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %i = arith.index_cast %d1 : index to i64
  %n = arith.sitofp %i : i64 to f32
  %e1 = tensor.empty(%d0) : tensor<?xf32>
  %e2 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%acc : tensor<?xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// N queried on the wrong dim (the batch dim) of a dynamic input.
// CHECK-LABEL: func.func @negative_dynamic_count_wrong_dim
// CHECK-NOT: norm.normalize
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @negative_dynamic_count_wrong_dim(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %i = arith.index_cast %d0 : index to i64
  %n = arith.sitofp %i : i64 to f32
  %e1 = tensor.empty(%d0) : tensor<?xf32>
  %e2 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%acc : tensor<?xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// RMSNorm without the division by N: x / sqrt(sum(x^2) + eps) is not a
// normalization the op computes.
// CHECK-LABEL: func.func @negative_rms_sum_not_mean
// CHECK-NOT: norm.normalize
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @negative_rms_sum_not_mean(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.reduce ins(%x : tensor<4x128xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.mulf %in, %in : f32
      %1 = arith.addf %0, %init : f32
      linalg.yield %1 : f32
    }
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<4x128xf32>, tensor<4xf32>) outs(%e2 : tensor<4x128xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.addf %s, %eps : f32
    %1 = math.sqrt %0 : f32
    %2 = arith.divf %in, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<4x128xf32>
  return %y : tensor<4x128xf32>
}

// -----

// The mean is taken over dim 1 but the squares are summed over dim 0.
// CHECK-LABEL: func.func @negative_variance_over_other_dim
// CHECK-NOT: norm.normalize
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @negative_variance_over_other_dim(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.600000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.reduce ins(%x : tensor<16x16xf32>) outs(%acc : tensor<16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  // Loop d0 is the row of the statistic, d1 is reduced, but x is read
  // transposed: the squares of column d0 are summed.
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<16x16xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}

// -----

// torch's native_layer_norm also returns the mean and rstd: they are the
// op's saved statistics, and their chains die with the rest.
// CHECK-LABEL: func.func @layer_norm_statistics_used
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6 ins(%[[X]] : tensor<8x64xf32>)
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]#0, %[[Y]]#1, %[[Y]]#2
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @layer_norm_statistics_used(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y, %mean, %rstd : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// In a reduction, another init's block argument is that result's partial
// sum, not the mean: the "centered" squares here use a running partial sum.
// CHECK-LABEL: func.func @negative_partial_sum_as_mean
// CHECK-NOT: norm.normalize
// CHECK: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @negative_partial_sum_as_mean(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sums:2 = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%acc, %acc : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32):
    %0 = arith.addf %in, %s : f32
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %1 = arith.addf %d2, %q : f32
    linalg.yield %0, %1 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sums#0, %sums#1 : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// torch-mlir's native_layer_norm: keepdim statistics (sums into [N, 1]),
// the affine, and (output, mean, rstd) returned. The mean and rstd are the
// saved results, expanded back to [N, 1].
// CHECK-LABEL: func.func @native_layer_norm
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>, %[[G:.+]]: tensor<64xf32>, %[[B:.+]]: tensor<64xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<8x64xf32>) scale(%[[G]] : tensor<64xf32>) bias(%[[B]] : tensor<64xf32>) affine_dims = [1]
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8xf32>)
// CHECK-DAG: %[[MEAN:.+]] = tensor.expand_shape %[[Y]]#1 {{\[}}[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
// CHECK-DAG: %[[RSTD:.+]] = tensor.expand_shape %[[Y]]#2 {{\[}}[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]#0, %[[MEAN]], %[[RSTD]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#kd = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @native_layer_norm(%x: tensor<8x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>)
    -> (tensor<8x64xf32>, tensor<8x1xf32>, tensor<8x1xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %ek = tensor.empty() : tensor<8x1xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ek : tensor<8x1xf32>) -> tensor<8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #kd], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %mean = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<8x1xf32>) outs(%ek : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %diff = linalg.generic {indexing_maps = [#id2, #kd, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<8x64xf32>, tensor<8x1xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%diff : tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  %sqsum = linalg.generic {indexing_maps = [#id2, #kd], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<8x64xf32>) outs(%acc : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %var = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sqsum : tensor<8x1xf32>) outs(%ek : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %vareps = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%var : tensor<8x1xf32>) outs(%ek : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %eps : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%vareps : tensor<8x1xf32>) outs(%ek : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.rsqrt %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %norm = linalg.generic {indexing_maps = [#id2, #kd, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%diff, %rstd : tensor<8x64xf32>, tensor<8x1xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  %scaled = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%norm, %g : tensor<8x64xf32>, tensor<64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %gi: f32, %out: f32):
    %0 = arith.mulf %in, %gi : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%scaled, %b : tensor<8x64xf32>, tensor<64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %bi: f32, %out: f32):
    %0 = arith.addf %in, %bi : f32
    linalg.yield %0 : f32
  } -> tensor<8x64xf32>
  return %y, %mean, %rstd : tensor<8x64xf32>, tensor<8x1xf32>, tensor<8x1xf32>
}

// -----

// The same over a dynamic batch, with named ops: the keepdim expansion of
// the saved results takes its extent from them.
// CHECK-LABEL: func.func @native_layer_norm_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x32xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<?xf32>, tensor<?xf32>)
// CHECK-DAG: %[[MEAN:.+]] = tensor.expand_shape %[[Y]]#1 {{\[}}[0, 1]] output_shape [%{{.+}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK-DAG: %[[RSTD:.+]] = tensor.expand_shape %[[Y]]#2 {{\[}}[0, 1]] output_shape [%{{.+}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]#0, %[[MEAN]], %[[RSTD]]
func.func @native_layer_norm_dynamic(%x: tensor<?x32xf32>) -> (tensor<?x32xf32>, tensor<?x1xf32>, tensor<?x1xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.200000e+01 : f32
  %epsc = arith.constant 9.99999974E-6 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x32xf32>
  %e1 = tensor.empty(%d0) : tensor<?xf32>
  %e2 = tensor.empty(%d0) : tensor<?x32xf32>
  %ek = tensor.empty(%d0) : tensor<?x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %nfill = linalg.fill ins(%n : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%x : tensor<?x32xf32>) outs(%acc : tensor<?xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %mean1 = linalg.div ins(%sum, %nfill : tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %mean = tensor.expand_shape %mean1 [[0, 1]] output_shape [%d0, 1] : tensor<?xf32> into tensor<?x1xf32>
  %meanb = linalg.broadcast ins(%mean1 : tensor<?xf32>) outs(%e2 : tensor<?x32xf32>) dimensions = [1]
  %diff = linalg.sub ins(%x, %meanb : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %sq = linalg.mul ins(%diff, %diff : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %sqsum = linalg.reduce ins(%sq : tensor<?x32xf32>) outs(%acc : tensor<?xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %var = linalg.div ins(%sqsum, %nfill : tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %var2 = tensor.expand_shape %var [[0, 1]] output_shape [%d0, 1] : tensor<?xf32> into tensor<?x1xf32>
  %eps = linalg.fill ins(%epsc : f32) outs(%ek : tensor<?x1xf32>) -> tensor<?x1xf32>
  %vareps = linalg.add ins(%var2, %eps : tensor<?x1xf32>, tensor<?x1xf32>) outs(%ek : tensor<?x1xf32>) -> tensor<?x1xf32>
  %rstd = linalg.rsqrt ins(%vareps : tensor<?x1xf32>) outs(%ek : tensor<?x1xf32>) -> tensor<?x1xf32>
  %rstdb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
      ins(%rstd : tensor<?x1xf32>) outs(%e2 : tensor<?x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x32xf32>
  %y = linalg.mul ins(%diff, %rstdb : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %y, %mean, %rstd : tensor<?x32xf32>, tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// RMSNorm on f16 data that also returns its f32 rstd: saved(rstd) alone.
// CHECK-LABEL: func.func @rms_norm_rstd_used
// CHECK-SAME: (%[[X:.+]]: tensor<4x128xf16>)
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]]:2 = norm.normalize rms axes = [1] epsilon = 9.9999999747524271E-7
// CHECK-SAME: ins(%[[X]] : tensor<4x128xf16>)
// CHECK-SAME: saved(%{{.+}} : tensor<4xf32>) -> tensor<4x128xf16>, tensor<4xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]#0, %[[Y]]#1
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rms_norm_rstd_used(%x: tensor<4x128xf16>) -> (tensor<4x128xf16>, tensor<4xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.280000e+02 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %eh = tensor.empty() : tensor<4x128xf16>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf16>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.addf %1, %out : f32
    linalg.yield %2 : f32
  } -> tensor<4xf32>
  %rstd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.sqrt %1 : f32
    %cst1 = arith.constant 1.000000e+00 : f32
    %3 = arith.divf %cst1, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd : tensor<4x128xf16>, tensor<4xf32>) outs(%eh : tensor<4x128xf16>) {
  ^bb0(%in: f16, %r: f32, %out: f16):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.mulf %0, %r : f32
    %2 = arith.truncf %1 : f32 to f16
    linalg.yield %2 : f16
  } -> tensor<4x128xf16>
  return %y, %rstd : tensor<4x128xf16>, tensor<4xf32>
}

// -----

// torch-mlir's native_group_norm: statistics of shape [N, G] on the split
// input, returned with the output.
// CHECK-LABEL: func.func @native_group_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x8x4x4xf32>, %[[G:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [1, 2, 3] epsilon = 9.9999997473787516E-6 groups = 2 on 1
// CHECK-SAME: ins(%[[X]] : tensor<2x8x4x4xf32>) scale(%[[G]] : tensor<8xf32>) bias(%[[B]] : tensor<8xf32>) affine_dims = [1]
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]#0, %[[Y]]#1, %[[Y]]#2
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#grp = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @native_group_norm(%x: tensor<2x8x4x4xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<2x8x4x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %x5 = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 4, 4]
      : tensor<2x8x4x4xf32> into tensor<2x2x4x4x4xf32>
  %es = tensor.empty() : tensor<2x2xf32>
  %e5 = tensor.empty() : tensor<2x2x4x4x4xf32>
  %e4 = tensor.empty() : tensor<2x8x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2xf32>) -> tensor<2x2xf32>
  %sum = linalg.reduce ins(%x5 : tensor<2x2x4x4x4xf32>) outs(%acc : tensor<2x2xf32>) dimensions = [2, 3, 4]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %mean = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x2xf32>) outs(%es : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<2x2xf32>
  %diff = linalg.generic {indexing_maps = [#id5, #grp, #id5],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x5, %mean : tensor<2x2x4x4x4xf32>, tensor<2x2xf32>) outs(%e5 : tensor<2x2x4x4x4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x4x4x4xf32>
  %ss = linalg.generic {indexing_maps = [#id5, #grp],
                        iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%diff : tensor<2x2x4x4x4xf32>) outs(%acc : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<2x2xf32>
  %rstd = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<2x2xf32>) outs(%es : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<2x2xf32>
  %norm5 = linalg.generic {indexing_maps = [#id5, #grp, #id5],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%diff, %rstd : tensor<2x2x4x4x4xf32>, tensor<2x2xf32>) outs(%e5 : tensor<2x2x4x4x4xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x4x4x4xf32>
  %norm = tensor.collapse_shape %norm5 [[0], [1, 2], [3], [4]] : tensor<2x2x4x4x4xf32> into tensor<2x8x4x4xf32>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%norm, %g, %b : tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e4 : tensor<2x8x4x4xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.mulf %in, %gi : f32
    %1 = arith.addf %0, %bi : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x4x4xf32>
  return %y, %mean, %rstd : tensor<2x8x4x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// native_batch_norm in training mode (without the running update): batch
// statistics per channel over [N, H, W], saved as [C].
// CHECK-LABEL: func.func @native_batch_norm_training
// CHECK-SAME: (%[[X:.+]]: tensor<2x4x3x3xf32>, %[[G:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 0.10000000149011612
// CHECK-SAME: ins(%[[X]] : tensor<2x4x3x3xf32>) scale(%[[G]] : tensor<4xf32>) bias(%[[B]] : tensor<4xf32>) affine_dims = [1]
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>)
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]#0, %[[Y]]#1, %[[Y]]#2
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @native_batch_norm_training(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.800000e+01 : f32
  %eps = arith.constant 1.000000e-01 : f32
  %ec = tensor.empty() : tensor<4xf32>
  %e4 = tensor.empty() : tensor<2x4x3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ec : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%x : tensor<2x4x3x3xf32>) outs(%acc : tensor<4xf32>) dimensions = [0, 2, 3]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%ec : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id4, #ch, #ch],
                        iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %mean : tensor<2x4x3x3xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.addf %1, %out : f32
    linalg.yield %2 : f32
  } -> tensor<4xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<4xf32>) outs(%ec : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #ch, #ch, #ch, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %rstd, %g, %b : tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      outs(%e4 : tensor<2x4x3x3xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = arith.mulf %0, %r : f32
    %2 = arith.mulf %1, %gi : f32
    %3 = arith.addf %2, %bi : f32
    linalg.yield %3 : f32
  } -> tensor<2x4x3x3xf32>
  return %y, %mean, %rstd : tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Values of the chain that are not exactly the op's statistics keep their
// chains: the variance, the mean doubled, the mean narrowed to f16 (the op
// saves f32), "rstd" without epsilon and with another epsilon. The output
// is still raised, without saved results.
// CHECK-LABEL: func.func @negative_not_statistics
// CHECK: %[[M:[0-9]+]]:3 = linalg.generic
// CHECK: %[[R:[0-9]+]]:3 = linalg.generic
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6
// CHECK-NOT: saved(
// CHECK-SAME: -> tensor<8x64xf32>
// CHECK: return %[[Y]], %{{[0-9]+}}, %[[M]]#1, %[[M]]#2, %[[R]]#1, %[[R]]#2
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @negative_not_statistics(%x: tensor<8x64xf32>)
    -> (tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf16>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %eps3 = arith.constant 1.000000e-03 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %eh = tensor.empty() : tensor<8xf16>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %m:3 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e1, %e1, %eh : tensor<8xf32>, tensor<8xf32>, tensor<8xf16>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32, %o2: f16):
    %0 = arith.divf %in, %n : f32
    %1 = arith.mulf %0, %two : f32
    %2 = arith.truncf %0 : f32 to f16
    linalg.yield %0, %1, %2 : f32, f32, f16
  } -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf16>)
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m#0 : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %mi: f32, %out: f32):
    %d = arith.subf %in, %mi : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %var = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %r:3 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%var : tensor<8xf32>) outs(%e1, %e1, %e1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32, %o2: f32):
    %0 = arith.addf %in, %eps : f32
    %1 = math.rsqrt %0 : f32
    %2 = math.rsqrt %in : f32
    %3 = arith.addf %in, %eps3 : f32
    %4 = math.rsqrt %3 : f32
    linalg.yield %1, %2, %4 : f32, f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m#0, %r#0 : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %mi: f32, %ri: f32, %out: f32):
    %d = arith.subf %in, %mi : f32
    %o = arith.mulf %d, %ri : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y, %var, %m#1, %m#2, %r#1, %r#2
      : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf16>, tensor<8xf32>, tensor<8xf32>
}

// -----

// The standard deviation sqrt(var + eps), not its reciprocal, is returned:
// it keeps its chain; the output (divided by it) is raised.
// CHECK-LABEL: func.func @negative_std_returned
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>)
// CHECK: %[[STD:[0-9]+]] = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6 ins(%[[X]] : tensor<8x64xf32>)
// CHECK-NOT: saved(
// CHECK-SAME: -> tensor<8x64xf32>
// CHECK: return %[[Y]], %[[STD]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @negative_std_returned(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %std = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.sqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %std : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %sd: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %o = arith.divf %d, %sd : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y, %std : tensor<8x64xf32>, tensor<8xf32>
}

// -----

// The rstd is also used before the raised output (by %twice): that use keeps
// its chain, the use after it takes the saved rstd.
// CHECK-LABEL: func.func @statistic_used_before_output
// CHECK: %[[RSTD:[0-9]+]] = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK: %[[TWICE:[0-9]+]] = linalg.generic {{.*}} ins(%[[RSTD]] : tensor<8xf32>)
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [1]
// CHECK-SAME: saved(
// CHECK: return %[[Y]]#0, %[[Y]]#2, %[[TWICE]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @statistic_used_before_output(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  %twice = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%rstd : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %two : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %rstd : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %r: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y, %rstd, %twice : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// InstanceNorm on NCHW as torch-mlir decomposes it: keepdim statistics per
// (n, c) over [H, W], then the per-channel weight and bias unsqueezed to
// [1, C, 1, 1]. The affine is indexed by dim 1, which is not reduced.
// CHECK-LABEL: func.func @instance_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf32>, %[[G:.+]]: tensor<3xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x3x4x5xf32>
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [2, 3] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4x5xf32>) scale(%[[G]] : tensor<3xf32>) bias(%[[B]] : tensor<3xf32>) affine_dims = [1]
// CHECK-SAME: outs(%[[INIT]] : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#kd = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#cb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
func.func @instance_norm(%x: tensor<2x3x4x5xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.000000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %ek = tensor.empty() : tensor<2x3x1x1xf32>
  %e4 = tensor.empty() : tensor<2x3x4x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #kd], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x3x4x5xf32>) outs(%acc : tensor<2x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x1x1xf32>
  %mean = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<2x3x1x1xf32>) outs(%ek : tensor<2x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x1x1xf32>
  %diff = linalg.generic {indexing_maps = [#id4, #kd, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean : tensor<2x3x4x5xf32>, tensor<2x3x1x1xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4x5xf32>
  %sq = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%diff : tensor<2x3x4x5xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4x5xf32>
  %sqsum = linalg.generic {indexing_maps = [#id4, #kd], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%sq : tensor<2x3x4x5xf32>) outs(%acc : tensor<2x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x1x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sqsum : tensor<2x3x1x1xf32>) outs(%ek : tensor<2x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<2x3x1x1xf32>
  %norm = linalg.generic {indexing_maps = [#id4, #kd, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%diff, %rstd : tensor<2x3x4x5xf32>, tensor<2x3x1x1xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4x5xf32>
  %g4 = tensor.expand_shape %g [[0, 1, 2, 3]] output_shape [1, 3, 1, 1] : tensor<3xf32> into tensor<1x3x1x1xf32>
  %b4 = tensor.expand_shape %b [[0, 1, 2, 3]] output_shape [1, 3, 1, 1] : tensor<3xf32> into tensor<1x3x1x1xf32>
  %scaled = linalg.generic {indexing_maps = [#id4, #cb, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%norm, %g4 : tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %gi: f32, %out: f32):
    %0 = arith.mulf %in, %gi : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4x5xf32>
  %y = linalg.generic {indexing_maps = [#id4, #cb, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %b4 : tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %bi: f32, %out: f32):
    %0 = arith.addf %in, %bi : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}

// -----

// InstanceNorm without affine (affine=False), statistics per (n, c) of
// shape [N, C], one fused normalization generic.
// CHECK-LABEL: func.func @instance_norm_no_affine
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [2, 3] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4x5xf32>) outs(%{{.+}} : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @instance_norm_no_affine(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.000000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %es = tensor.empty() : tensor<2x3xf32>
  %e4 = tensor.empty() : tensor<2x3x4x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.reduce ins(%x : tensor<2x3x4x5xf32>) outs(%acc : tensor<2x3xf32>) dimensions = [2, 3]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id4, #nc, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %sum : tensor<2x3x4x5xf32>, tensor<2x3xf32>) outs(%acc : tensor<2x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#id4, #nc, #nc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<2x3x4x5xf32>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}

// -----

// Channels-last InstanceNorm (NHWC): statistics per (n, c) over [H, W],
// the affine indexed by dim 3.
// CHECK-LABEL: func.func @instance_norm_nhwc
// CHECK-SAME: (%[[X:.+]]: tensor<2x4x5x3xf32>, %[[G:.+]]: tensor<3xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [1, 2] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<2x4x5x3xf32>) scale(%[[G]] : tensor<3xf32>) bias(%[[B]] : tensor<3xf32>) affine_dims = [3]
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @instance_norm_nhwc(%x: tensor<2x4x5x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x4x5x3xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.000000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %es = tensor.empty() : tensor<2x3xf32>
  %e4 = tensor.empty() : tensor<2x4x5x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.reduce ins(%x : tensor<2x4x5x3xf32>) outs(%acc : tensor<2x3xf32>) dimensions = [1, 2]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id4, #nc, #nc], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x, %sum : tensor<2x4x5x3xf32>, tensor<2x3xf32>) outs(%acc : tensor<2x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#id4, #nc, #nc, #c, #c, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sum, %ss, %g, %b : tensor<2x4x5x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) outs(%e4 : tensor<2x4x5x3xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %gi: f32, %bi: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    %o1 = arith.mulf %o, %gi : f32
    %o2 = arith.addf %o1, %bi : f32
    linalg.yield %o2 : f32
  } -> tensor<2x4x5x3xf32>
  return %y : tensor<2x4x5x3xf32>
}

// -----

// A per-(n, c) scale stored transposed as [C, N]: affine_dims lists the
// input dim of each scale dim, in the scale's order.
// CHECK-LABEL: func.func @instance_norm_transposed_scale
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf32>, %[[S:.+]]: tensor<3x2xf32>)
// CHECK: %[[Y:.+]] = norm.normalize standard axes = [2, 3] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4x5xf32>) scale(%[[S]] : tensor<3x2xf32>) affine_dims = [1, 0]
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#nc = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#cn = affine_map<(d0, d1, d2, d3) -> (d1, d0)>
func.func @instance_norm_transposed_scale(%x: tensor<2x3x4x5xf32>, %s: tensor<3x2xf32>) -> tensor<2x3x4x5xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.000000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %es = tensor.empty() : tensor<2x3xf32>
  %e4 = tensor.empty() : tensor<2x3x4x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.reduce ins(%x : tensor<2x3x4x5xf32>) outs(%acc : tensor<2x3xf32>) dimensions = [2, 3]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id4, #nc, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %sum : tensor<2x3x4x5xf32>, tensor<2x3xf32>) outs(%acc : tensor<2x3xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %m = arith.divf %sm, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  %norm = linalg.generic {indexing_maps = [#id4, #nc, #nc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<2x3x4x5xf32>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %sm: f32, %q: f32, %out: f32):
    %m = arith.divf %sm, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<2x3x4x5xf32>
  %y = linalg.generic {indexing_maps = [#id4, #cn, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%norm, %s : tensor<2x3x4x5xf32>, tensor<3x2xf32>) outs(%e4 : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %si: f32, %out: f32):
    %0 = arith.mulf %in, %si : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}

// -----

// The scale reads the same input dim twice (its diagonal): no affine_dims
// says that, so only the core is raised.
// CHECK-LABEL: func.func @negative_scale_diagonal
// CHECK-SAME: (%[[X:.+]]: tensor<4x4x8xf32>, %[[S:.+]]: tensor<4x4xf32>)
// CHECK: %[[N:.+]] = norm.normalize standard axes = [2] epsilon = 9.9999997473787516E-6
// CHECK-SAME: ins(%[[X]] : tensor<4x4x8xf32>) outs(%{{.+}} : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} ins(%[[N]], %[[S]] : tensor<4x4x8xf32>, tensor<4x4xf32>)
// CHECK: return %[[Y]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
#diag = affine_map<(d0, d1, d2) -> (d1, d1)>
func.func @negative_scale_diagonal(%x: tensor<4x4x8xf32>, %s: tensor<4x4xf32>) -> tensor<4x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 8.000000e+00 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %es = tensor.empty() : tensor<4x4xf32>
  %e3 = tensor.empty() : tensor<4x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<4x4xf32>) -> tensor<4x4xf32>
  %sum = linalg.reduce ins(%x : tensor<4x4x8xf32>) outs(%acc : tensor<4x4xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %ss = linalg.generic {indexing_maps = [#id3, #rows, #rows], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %sum : tensor<4x4x8xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %m = arith.divf %sm, %n : f32
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x4xf32>
  %norm = linalg.generic {indexing_maps = [#id3, #rows, #rows, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum, %ss : tensor<4x4x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>) outs(%e3 : tensor<4x4x8xf32>) {
  ^bb0(%in: f32, %sm: f32, %q: f32, %out: f32):
    %m = arith.divf %sm, %n : f32
    %d = arith.subf %in, %m : f32
    %v = arith.divf %q, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<4x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #diag, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%norm, %s : tensor<4x4x8xf32>, tensor<4x4xf32>) outs(%e3 : tensor<4x4x8xf32>) {
  ^bb0(%in: f32, %si: f32, %out: f32):
    %0 = arith.mulf %in, %si : f32
    linalg.yield %0 : f32
  } -> tensor<4x4x8xf32>
  return %y : tensor<4x4x8xf32>
}

// -----

// One-pass statistics that are also returned: only with
// allow-unstable-variance are the output and the rstd raised (the saved
// rstd is computed from the centered variance).
// CHECK-LABEL: func.func @unstable_variance_rstd_used
// STABLE-NOT: norm.normalize
// STABLE: return %{{[0-9]+}}, %{{[0-9]+}} :
// UNSTABLE-NOT: linalg.
// UNSTABLE: %[[Y:.+]]:3 = norm.normalize standard axes = [1] epsilon = 9.9999997473787516E-6
// UNSTABLE-SAME: saved(
// UNSTABLE-NOT: linalg.
// UNSTABLE: return %[[Y]]#0, %[[Y]]#2
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @unstable_variance_rstd_used(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sums:2 = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%acc, %acc : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32):
    %0 = arith.addf %in, %s : f32
    %1 = arith.mulf %in, %in : f32
    %2 = arith.addf %1, %q : f32
    linalg.yield %0, %2 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %rstd = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%sums#0, %sums#1 : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%s: f32, %q: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %ex2 = arith.divf %q, %n : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sums#0, %rstd : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %r: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %in, %mean : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x64xf32>
  return %y, %rstd : tensor<8x64xf32>, tensor<8xf32>
}

// -----

// Statistics over every dim (rank-0 saved results): the keepdim mean is
// expanded to [1, 1], the rstd is returned through a collapse to rank 0.
// CHECK-LABEL: func.func @layer_norm_all_dims_saved
// CHECK-NOT: linalg.
// CHECK: %[[Y:.+]]:3 = norm.normalize standard axes = [0, 1] epsilon = 9.9999997473787516E-6
// CHECK-SAME: saved(%{{.+}}, %{{.+}} : tensor<f32>, tensor<f32>)
// CHECK: %[[MEAN:.+]] = tensor.expand_shape %[[Y]]#1 [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]#0, %[[MEAN]], %[[Y]]#2
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> (0, 0)>
func.func @layer_norm_all_dims_saved(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<1x1xf32>, tensor<f32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.200000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %ek = tensor.empty() : tensor<1x1xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ek : tensor<1x1xf32>) -> tensor<1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%acc : tensor<1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<1x1xf32>
  %mean = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<1x1xf32>) outs(%ek : tensor<1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<1x1xf32>
  %sqsum = linalg.generic {indexing_maps = [#id2, #all, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x, %mean : tensor<4x8xf32>, tensor<1x1xf32>) outs(%acc : tensor<1x1xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %0 = arith.mulf %d, %d : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<1x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sqsum : tensor<1x1xf32>) outs(%ek : tensor<1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<1x1xf32>
  %r0 = tensor.collapse_shape %rstd [] : tensor<1x1xf32> into tensor<f32>
  %y = linalg.generic {indexing_maps = [#id2, #all, #all, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd : tensor<4x8xf32>, tensor<1x1xf32>, tensor<1x1xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<4x8xf32>
  return %y, %mean, %r0 : tensor<4x8xf32>, tensor<1x1xf32>, tensor<f32>
}
