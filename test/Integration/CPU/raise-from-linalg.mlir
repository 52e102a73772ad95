// Normalizations written as linalg chains (as frontends decompose them) and
// the norm.normalize ops norm-raise-from-linalg makes of them compute the
// same thing: both run through the CPU pipeline on the same inputs, and both
// must meet numerics.md's tolerance against an fp64 reference.
// RUN: norm-opt %s --norm-raise-from-linalg -o %t.raised.mlir
// RUN: FileCheck %s --check-prefix=RAISED --input-file %t.raised.mlir
// RUN: %python %S/Inputs/compare_raised.py norm-runner %s %t.raised.mlir | FileCheck %s
// The raised ops also pass the harness's own checks.
// RUN: norm-runner %t.raised.mlir --entry layer_norm --check | FileCheck %s --check-prefix=HARNESS
// RUN: norm-runner %t.raised.mlir --entry group_norm --check | FileCheck %s --check-prefix=HARNESS
// RUN: norm-runner %t.raised.mlir --entry instance_norm --check | FileCheck %s --check-prefix=HARNESS

// RAISED-LABEL: func.func @layer_norm
// RAISED: norm.normalize standard axes = [1]
// RAISED-LABEL: func.func @rms_norm_f16
// RAISED: norm.normalize rms axes = [1]
// RAISED-LABEL: func.func @batch_norm_inference
// RAISED: norm.normalize standard axes = [0, 2, 3]
// RAISED-SAME: stats(
// RAISED-LABEL: func.func @group_norm
// RAISED: norm.normalize standard axes = [1, 2, 3] epsilon = {{.*}} groups = 4 on 1
// RAISED-NOT: linalg.
// RAISED-LABEL: func.func @instance_norm
// RAISED: norm.normalize standard axes = [2, 3] {{.*}} affine_dims = [1]
// RAISED-NOT: linalg.
// RAISED-LABEL: func.func @native_layer_norm
// RAISED: norm.normalize standard axes = [1] {{.*}} affine_dims = [1]
// RAISED-SAME: saved(
// RAISED-NOT: linalg.

// CHECK: layer_norm: unraised pass, raised pass
// CHECK: rms_norm_f16: unraised pass, raised pass
// CHECK: batch_norm_inference: unraised pass, raised pass
// CHECK: group_norm: unraised pass, raised pass
// CHECK: instance_norm: unraised pass, raised pass
// CHECK: native_layer_norm: unraised pass, raised pass
// CHECK: native_layer_norm mean: unraised pass, raised pass
// CHECK: native_layer_norm rstd: unraised pass, raised pass
// CHECK: all agree

// HARNESS: check: {{[0-9]+}} passed, 0 failed

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#grp = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>

// torch-mlir's native_layer_norm: mean, centered squares, rsqrt, affine.
func.func @layer_norm(%x: tensor<16x384xf32>, %g: tensor<384xf32>, %b: tensor<384xf32>) -> tensor<16x384xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.840000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x384xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %diff = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<16x384xf32>, tensor<16xf32>) outs(%e2 : tensor<16x384xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<16x384xf32>
  %sqsum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%diff : tensor<16x384xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<16xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sqsum : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%diff, %rstd, %g, %b : tensor<16x384xf32>, tensor<16xf32>, tensor<384xf32>, tensor<384xf32>) outs(%e2 : tensor<16x384xf32>) {
  ^bb0(%in: f32, %r: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    %1 = arith.mulf %0, %gi : f32
    %2 = arith.addf %1, %bi : f32
    linalg.yield %2 : f32
  } -> tensor<16x384xf32>
  return %y : tensor<16x384xf32>
}

// Llama-style RMSNorm: f16 data widened, mean of squares, rsqrt, the weight
// widened, the result narrowed.
func.func @rms_norm_f16(%x: tensor<8x512xf16>, %w: tensor<512xf16>) -> tensor<8x512xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 5.120000e+02 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x512xf32>
  %eh = tensor.empty() : tensor<8x512xf16>
  %xf = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x512xf16>) outs(%e2 : tensor<8x512xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<8x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %ss = linalg.reduce ins(%xf : tensor<8x512xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.mulf %in, %in : f32
      %1 = arith.addf %0, %init : f32
      linalg.yield %1 : f32
    }
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %rstd, %w : tensor<8x512xf32>, tensor<8xf32>, tensor<512xf16>) outs(%eh : tensor<8x512xf16>) {
  ^bb0(%in: f32, %r: f32, %wi: f16, %out: f16):
    %0 = arith.mulf %in, %r : f32
    %1 = arith.extf %wi : f16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.truncf %2 : f32 to f16
    linalg.yield %3 : f16
  } -> tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}

// BatchNorm inference, NCHW, one fused generic with sqrt and a division.
func.func @batch_norm_inference(%x: tensor<4x8x6x6xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>,
                                %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8x6x6xf32> {
  %eps = arith.constant 9.99999974E-6 : f32
  %e = tensor.empty() : tensor<4x8x6x6xf32>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #ch, #ch, #ch, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %m, %v, %g, %b : tensor<4x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      outs(%e : tensor<4x8x6x6xf32>) {
  ^bb0(%in: f32, %mi: f32, %vi: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.subf %in, %mi : f32
    %1 = arith.addf %vi, %eps : f32
    %2 = math.sqrt %1 : f32
    %3 = arith.divf %0, %2 : f32
    %4 = arith.mulf %3, %gi : f32
    %5 = arith.addf %4, %bi : f32
    linalg.yield %5 : f32
  } -> tensor<4x8x6x6xf32>
  return %y : tensor<4x8x6x6xf32>
}

// GroupNorm(4), NCHW: expand C into [4, C/4], reduce [C/4, H, W], collapse.
func.func @group_norm(%x: tensor<2x16x8x8xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<2x16x8x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.560000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %x5 = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 4, 4, 8, 8]
      : tensor<2x16x8x8xf32> into tensor<2x4x4x8x8xf32>
  %es = tensor.empty() : tensor<2x4xf32>
  %e5 = tensor.empty() : tensor<2x4x4x8x8xf32>
  %e4 = tensor.empty() : tensor<2x16x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%x5 : tensor<2x4x4x8x8xf32>) outs(%acc : tensor<2x4xf32>) dimensions = [2, 3, 4]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x4xf32>) outs(%es : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %diff = linalg.generic {indexing_maps = [#id5, #grp, #id5],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x5, %mean : tensor<2x4x4x8x8xf32>, tensor<2x4xf32>) outs(%e5 : tensor<2x4x4x8x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x4x8x8xf32>
  %ss = linalg.generic {indexing_maps = [#id5, #grp],
                        iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%diff : tensor<2x4x4x8x8xf32>) outs(%acc : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<2x4xf32>
  %norm5 = linalg.generic {indexing_maps = [#id5, #grp, #id5],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%diff, %ss : tensor<2x4x4x8x8xf32>, tensor<2x4xf32>) outs(%e5 : tensor<2x4x4x8x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %s, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.mulf %in, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<2x4x4x8x8xf32>
  %norm = tensor.collapse_shape %norm5 [[0], [1, 2], [3], [4]] : tensor<2x4x4x8x8xf32> into tensor<2x16x8x8xf32>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%norm, %g, %b : tensor<2x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e4 : tensor<2x16x8x8xf32>) {
  ^bb0(%in: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.mulf %in, %gi : f32
    %1 = arith.addf %0, %bi : f32
    linalg.yield %1 : f32
  } -> tensor<2x16x8x8xf32>
  return %y : tensor<2x16x8x8xf32>
}

// InstanceNorm, NCHW, as torch-mlir decomposes it: keepdim statistics per
// (n, c) over [H, W], the per-channel affine unsqueezed to [1, C, 1, 1].
#kd4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#cb4 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
func.func @instance_norm(%x: tensor<2x8x6x6xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8x6x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.600000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %ek = tensor.empty() : tensor<2x8x1x1xf32>
  %e4 = tensor.empty() : tensor<2x8x6x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #kd4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x8x6x6xf32>) outs(%acc : tensor<2x8x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x1x1xf32>
  %mean = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<2x8x1x1xf32>) outs(%ek : tensor<2x8x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x1x1xf32>
  %diff = linalg.generic {indexing_maps = [#id4, #kd4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean : tensor<2x8x6x6xf32>, tensor<2x8x1x1xf32>) outs(%e4 : tensor<2x8x6x6xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x6x6xf32>
  %sqsum = linalg.generic {indexing_maps = [#id4, #kd4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%diff : tensor<2x8x6x6xf32>) outs(%acc : tensor<2x8x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x1x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sqsum : tensor<2x8x1x1xf32>) outs(%ek : tensor<2x8x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<2x8x1x1xf32>
  %g4 = tensor.expand_shape %g [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
  %b4 = tensor.expand_shape %b [[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id4, #kd4, #cb4, #cb4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%diff, %rstd, %g4, %b4 : tensor<2x8x6x6xf32>, tensor<2x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>)
      outs(%e4 : tensor<2x8x6x6xf32>) {
  ^bb0(%in: f32, %r: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    %1 = arith.mulf %0, %gi : f32
    %2 = arith.addf %1, %bi : f32
    linalg.yield %2 : f32
  } -> tensor<2x8x6x6xf32>
  return %y : tensor<2x8x6x6xf32>
}

// torch-mlir's native_layer_norm returning (output, mean, rstd), the
// statistics keepdim [N, 1]: raised, they are the op's saved results.
#kd2 = affine_map<(d0, d1) -> (d0, 0)>
func.func @native_layer_norm(%x: tensor<16x384xf32>, %g: tensor<384xf32>, %b: tensor<384xf32>)
    -> (tensor<16x384xf32>, tensor<16x1xf32>, tensor<16x1xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.840000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %ek = tensor.empty() : tensor<16x1xf32>
  %e2 = tensor.empty() : tensor<16x384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ek : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #kd2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x384xf32>) outs(%acc : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %mean = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf32>) outs(%ek : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %diff = linalg.generic {indexing_maps = [#id2, #kd2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<16x384xf32>, tensor<16x1xf32>) outs(%e2 : tensor<16x384xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<16x384xf32>
  %sqsum = linalg.generic {indexing_maps = [#id2, #kd2], iterator_types = ["parallel", "reduction"]}
      ins(%diff : tensor<16x384xf32>) outs(%acc : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sqsum : tensor<16x1xf32>) outs(%ek : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id2, #kd2, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%diff, %rstd, %g, %b : tensor<16x384xf32>, tensor<16x1xf32>, tensor<384xf32>, tensor<384xf32>) outs(%e2 : tensor<16x384xf32>) {
  ^bb0(%in: f32, %r: f32, %gi: f32, %bi: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    %1 = arith.mulf %0, %gi : f32
    %2 = arith.addf %1, %bi : f32
    linalg.yield %2 : f32
  } -> tensor<16x384xf32>
  return %y, %mean, %rstd : tensor<16x384xf32>, tensor<16x1xf32>, tensor<16x1xf32>
}
