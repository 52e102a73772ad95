// RUN: norm-opt %s -convert-norm-to-linalg -canonicalize -cse -split-input-file | FileCheck %s

// LayerNorm, bf16: f32 sums and, in the same pass, max|x| for the
// power-of-two scale k that keeps squares of huge and tiny data in range,
// the mean, the centered variance (squared
// scaled deviations from that mean), ε inside rsqrt, then the normalize
// with the affine and the truncation to bf16.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<?x768xbf16>, %[[G:[a-z0-9]+]]: tensor<768xbf16>, %[[B:[a-z0-9]+]]: tensor<768xbf16>, %[[I:[a-z0-9]+]]: tensor<?x768xbf16>)
// CHECK-DAG: %[[RSQRT_EPS:.+]] = arith.constant 316.227753 : f32
// CHECK-DAG: %[[EPS:.+]] = arith.constant 9.99999974E-6 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[N:.+]] = arith.constant 7.680000e+02 : f32
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<?xf32>)
// CHECK: %[[SUMMAX:.+]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x768xbf16>) outs(%[[FILL]], %[[FILL]] : tensor<?xf32>, tensor<?xf32>)
// CHECK:   ^bb0(%{{.+}}: bf16, %[[SACC:.+]]: f32, %[[MACC:.+]]: f32):
// CHECK:   %[[XF:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK:   %[[ABS:.+]] = math.absf %[[XF]]
// CHECK:   %[[SNEXT:.+]] = arith.addf %[[SACC]], %[[XF]]
// CHECK:   %[[MNEXT:.+]] = arith.maximumf %[[MACC]], %[[ABS]]
// CHECK:   linalg.yield %[[SNEXT]], %[[MNEXT]]
// CHECK-NOT: math.absf
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUMMAX]]#0 : tensor<?xf32>)
// CHECK:   arith.divf %{{.+}}, %[[N]] : f32
// CHECK: %[[K:.+]] = linalg.generic {{.*}} ins(%[[SUMMAX]]#1 : tensor<?xf32>)
// CHECK:   arith.bitcast %{{.+}} : f32 to i32
// CHECK:   arith.maxsi %{{.+}}, %c1_i32 : i32
// CHECK:   arith.minsi %{{.+}}, %c253_i32 : i32
// CHECK:   arith.bitcast %{{.+}} : i32 to f32
// The deviation k·x − k·mean is one FMA: its shift −k·mean per slice.
// CHECK: %[[NEGKM:.+]] = linalg.generic {{.*}} ins(%[[MEAN]], %[[K]] : tensor<?xf32>, tensor<?xf32>)
// CHECK:   %[[KM:.+]] = arith.mulf
// CHECK:   arith.negf %[[KM]] : f32
// CHECK: %[[SQ:.+]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[K]], %[[NEGKM]] : tensor<?x768xbf16>, tensor<?xf32>, tensor<?xf32>) outs(%[[FILL]], %[[FILL]] : tensor<?xf32>, tensor<?xf32>)
// CHECK:   %[[E:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK:   %[[XK:.+]] = arith.mulf %[[E]], %{{.+}} fastmath<contract> : f32
// CHECK:   %[[DK:.+]] = arith.addf %[[XK]], %{{.+}} fastmath<contract> : f32
// CHECK:   %[[S1:.+]] = arith.addf %{{.+}}, %[[DK]] : f32
// CHECK:   %[[D2:.+]] = arith.mulf %[[DK]], %[[DK]] fastmath<contract> : f32
// CHECK:   %[[S2:.+]] = arith.addf %[[D2]], %{{.+}} fastmath<contract> : f32
// CHECK:   linalg.yield %[[S1]], %[[S2]]
// CHECK: %[[STATS:.+]]:3 = linalg.generic {{.*}} ins(%[[SQ]]#1, %[[K]], %[[SQ]]#0, %[[MEAN]] : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
// CHECK:   ^bb0(%[[SS:.+]]: f32, %[[KK:.+]]: f32, %[[SD:.+]]: f32, %[[M:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK:   %[[SHIFT:.+]] = arith.divf %[[SD]], %[[N]] : f32
// CHECK:   %[[CORR:.+]] = arith.mulf %[[SD]], %[[SHIFT]] : f32
// CHECK:   %[[CENTERED:.+]] = arith.subf %[[SS]], %[[CORR]] : f32
// CHECK:   %[[VK:.+]] = arith.divf %[[CENTERED]], %[[N]] : f32
// CHECK:   %[[VARK:.+]] = arith.maximumf %[[VK]], %[[ZERO]] : f32
// CHECK:   %[[KBITS:.+]] = arith.bitcast %[[KK]] : f32 to i32
// CHECK:   %[[KINVBITS:.+]] = arith.subi %c2130706432_i32, %[[KBITS]] : i32
// CHECK:   %[[KINV:.+]] = arith.bitcast %[[KINVBITS]] : i32 to f32
// CHECK:   %[[MS:.+]] = arith.mulf %[[SHIFT]], %[[KINV]] : f32
// CHECK:   %[[NEWMEAN:.+]] = arith.addf %[[M]], %[[MS]] : f32
// CHECK:   %[[MEAN2:.+]] = arith.select %{{.+}}, %[[NEWMEAN]], %[[M]] : f32
// CHECK:   %[[V1:.+]] = arith.mulf %[[VARK]], %[[KINV]] : f32
// CHECK:   %[[VAR:.+]] = arith.mulf %[[V1]], %[[KINV]] : f32
// CHECK:   %[[EK:.+]] = arith.mulf %[[KK]], %[[EPS]] : f32
// CHECK:   %[[EK2:.+]] = arith.mulf %[[EK]], %[[KK]] : f32
// CHECK:   %[[VE:.+]] = arith.addf %[[VARK]], %[[EK2]] : f32
// CHECK:   %[[R:.+]] = math.rsqrt %[[VE]] : f32
// CHECK:   %[[RK:.+]] = arith.mulf %[[KK]], %[[R]] : f32
// CHECK:   %[[VU:.+]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK:   %[[RU:.+]] = math.rsqrt %[[VU]] : f32
// CHECK:   %[[EKSELF:.+]] = arith.subf %[[EK2]], %[[EK2]] : f32
// CHECK:   %[[EKFINITE:.+]] = arith.cmpf oeq, %[[EKSELF]], %[[ZERO]] : f32
// CHECK:   %[[RSEL:.+]] = arith.select %[[EKFINITE]], %[[RK]], %[[RU]] : f32
// CHECK:   %[[RSTD:.+]] = arith.minimumf %[[RSEL]], %[[RSQRT_EPS]] : f32
// CHECK:   linalg.yield %[[VAR]], %[[RSTD]], %[[MEAN2]]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[STATS]]#2, %[[STATS]]#1, %[[G]], %[[B]] : {{.*}}) outs(%[[I]] : tensor<?x768xbf16>)
// CHECK:   %[[XC:.+]] = arith.subf
// CHECK:   %[[XHAT:.+]] = arith.mulf %[[XC]], %{{.+}} : f32
// The affine step is one contractible multiply-add, as in every lowering.
// CHECK:   %[[GX:.+]] = arith.mulf %[[XHAT]], %{{.+}} fastmath<contract> : f32
// CHECK:   %[[Y:.+]] = arith.addf %[[GX]], %{{.+}} fastmath<contract> : f32
// CHECK:   arith.truncf %[[Y]] : f32 to bf16
// CHECK-NOT: norm.normalize
func.func @layer_norm(%x: tensor<?x768xbf16>, %g: tensor<768xbf16>, %b: tensor<768xbf16>, %init: tensor<?x768xbf16>) -> tensor<?x768xbf16> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xbf16>) scale(%g : tensor<768xbf16>) bias(%b : tensor<768xbf16>) affine_dims = [1]
      outs(%init : tensor<?x768xbf16>) -> tensor<?x768xbf16>
  return %0 : tensor<?x768xbf16>
}

// -----

// RMSNorm: max|x|, then one reduction of scaled squares (each added by one
// FMA, as the centered pass's), no centering, k · rsqrt(mean((k·x)²) + ε·k²).
// CHECK-LABEL: func.func @rms_norm
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:   arith.maximumf
// CHECK: %[[K:.+]] = linalg.generic {{.*}} ins(%[[MAX]] : tensor<8xf32>)
// CHECK: %[[SS:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:   %[[E:.+]] = arith.extf %{{.+}} : f16 to f32
// CHECK:   %[[EK:.+]] = arith.mulf %[[E]], %{{.+}} : f32
// CHECK:   %[[S:.+]] = arith.mulf %[[EK]], %[[EK]] fastmath<contract> : f32
// CHECK:   arith.addf %[[S]], %{{.+}} fastmath<contract> : f32
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[SS]], %[[K]] : tensor<8xf32>, tensor<8xf32>)
// CHECK:   arith.divf
// CHECK:   math.rsqrt
// CHECK:   arith.minimumf
// CHECK: linalg.generic {{.*}} ins(%{{[a-z0-9]+}}, %[[R]], %{{[a-z0-9]+}} : tensor<8x4096xf16>, tensor<8xf32>, tensor<4096xf16>)
// CHECK-NOT: arith.subf
// CHECK: return
func.func @rms_norm(%x: tensor<8x4096xf16>, %w: tensor<4096xf16>, %init: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  %0 = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<8x4096xf16>) scale(%w : tensor<4096xf16>) affine_dims = [1]
      outs(%init : tensor<8x4096xf16>) -> tensor<8x4096xf16>
  return %0 : tensor<8x4096xf16>
}

// -----

// BatchNorm inference: no reduction; rstd from the given variance.
// CHECK-LABEL: func.func @batch_norm_inference
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x3x4x4xf32>, %[[M:[a-z0-9]+]]: tensor<3xf32>, %[[V:[a-z0-9]+]]: tensor<3xf32>
// CHECK-NOT: "reduction"
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[V]] : tensor<3xf32>)
// CHECK:   math.rsqrt
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X]], %[[M]], %[[R]] : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
func.func @batch_norm_inference(%x: tensor<2x3x4x4xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %init: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
  %0 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05
      ins(%x : tensor<2x3x4x4xf32>) stats(%m, %v : tensor<3xf32>, tensor<3xf32>)
      outs(%init : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

// BatchNorm training: reductions over N and W, the running update reads the
// running inits and uses the unbiased factor n/(n-1), or 0 when n == 1.
// CHECK-LABEL: func.func @batch_norm_training
// CHECK-SAME: %[[RM:[a-z0-9]+]]: tensor<8xf32>, %[[RV:[a-z0-9]+]]: tensor<8xf32>)
// CHECK-DAG: %[[KEEP:.+]] = arith.constant 0.899999976 : f32
// CHECK-DAG: %[[TAKE:.+]] = arith.constant 1.000000e-01 : f32
// CHECK: %[[N:.+]] = arith.uitofp %{{.+}} : i64 to f32
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK: %[[STATS:.+]]:3 = linalg.generic
// CHECK: %[[NM1:.+]] = arith.subf %[[N]], %{{.+}} : f32
// CHECK: %[[RATIO:.+]] = arith.divf %[[N]], %[[NM1]] : f32
// CHECK: %[[FACTOR:.+]] = arith.select %{{.+}}, %[[RATIO]], %{{.+}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[STATS]]#2, %[[STATS]]#0 : tensor<8xf32>, tensor<8xf32>) outs(%[[RM]], %[[RV]] : tensor<8xf32>, tensor<8xf32>)
// CHECK:   ^bb0(%[[BM:.+]]: f32, %[[BV:.+]]: f32, %[[OM:.+]]: f32, %[[OV:.+]]: f32):
// CHECK:   %[[UNB:.+]] = arith.mulf %[[BV]], %[[FACTOR]] : f32
// CHECK:   arith.mulf %[[OM]], %[[KEEP]] : f32
// CHECK:   arith.mulf %[[BM]], %[[TAKE]] : f32
// CHECK:   arith.mulf %[[OV]], %[[KEEP]] : f32
// CHECK:   arith.mulf %[[UNB]], %[[TAKE]] : f32
func.func @batch_norm_training(%x: tensor<?x8x5xf32>, %init: tensor<?x8x5xf32>, %rm: tensor<8xf32>, %rv: tensor<8xf32>) -> (tensor<?x8x5xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased
      ins(%x : tensor<?x8x5xf32>) outs(%init : tensor<?x8x5xf32>) running(%rm, %rv : tensor<8xf32>, tensor<8xf32>)
      -> tensor<?x8x5xf32>, tensor<8xf32>, tensor<8xf32>
  return %0#0, %0#1, %0#2 : tensor<?x8x5xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// InstanceNorm with saved mean and rstd. The copies into the saved inits
// are identity generics on tensors that canonicalization folds away.
// CHECK-LABEL: func.func @instance_norm_saved
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK: %[[STATS:.+]]:3 = linalg.generic
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK: return %[[Y]], %[[STATS]]#2, %[[STATS]]#1
func.func @instance_norm_saved(%x: tensor<2x3x4x4xf32>, %init: tensor<2x3x4x4xf32>, %sm: tensor<2x3xf32>, %sr: tensor<2x3xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0:3 = norm.normalize standard axes = [2, 3] epsilon = 1.0e-05
      ins(%x : tensor<2x3x4x4xf32>) outs(%init : tensor<2x3x4x4xf32>) saved(%sm, %sr : tensor<2x3xf32>, tensor<2x3xf32>)
      -> tensor<2x3x4x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  return %0#0, %0#1, %0#2 : tensor<2x3x4x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// GroupNorm, channels-last: the channel dim is expanded into [G, C/G]; the
// statistics are [N, G]; the affine is expanded the same way; the result is
// collapsed back.
// CHECK-LABEL: func.func @group_norm_nhwc
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x4x4x12xf32>, %[[G:[a-z0-9]+]]: tensor<12xf32>, %[[I:[a-z0-9]+]]: tensor<2x4x4x12xf32>)
// CHECK: %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1], [2], [3, 4]] output_shape [2, 4, 4, 3, 4] : tensor<2x4x4x12xf32> into tensor<2x4x4x3x4xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%[[XE]] : tensor<2x4x4x3x4xf32>) outs(%{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: %[[GE:.+]] = tensor.expand_shape %[[G]] {{\[}}[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
// CHECK: %[[IE:.+]] = tensor.expand_shape %[[I]] {{\[}}[0], [1], [2], [3, 4]]
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} ins(%[[XE]], %{{.+}}, %{{.+}}, %[[GE]] : {{.*}}) outs(%[[IE]] : tensor<2x4x4x3x4xf32>)
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2], [3, 4]] : tensor<2x4x4x3x4xf32> into tensor<2x4x4x12xf32>
// CHECK: return %[[C]]
func.func @group_norm_nhwc(%x: tensor<2x4x4x12xf32>, %g: tensor<12xf32>, %init: tensor<2x4x4x12xf32>) -> tensor<2x4x4x12xf32> {
  %0 = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 3 on 3
      ins(%x : tensor<2x4x4x12xf32>) scale(%g : tensor<12xf32>) affine_dims = [3]
      outs(%init : tensor<2x4x4x12xf32>) -> tensor<2x4x4x12xf32>
  return %0 : tensor<2x4x4x12xf32>
}

// -----

// GroupNorm with a dynamic channel dim: C/G computed at run time.
// CHECK-LABEL: func.func @group_norm_dynamic
// CHECK: %[[C:.+]] = tensor.dim %{{.+}}, %c1 : tensor<?x?x5xf32>
// CHECK: %[[CG:.+]] = arith.divui %[[C]], %c4 : index
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3]] output_shape [%{{.+}}, 4, %[[CG]], 5] : tensor<?x?x5xf32> into tensor<?x4x?x5xf32>
func.func @group_norm_dynamic(%x: tensor<?x?x5xf32>, %init: tensor<?x?x5xf32>) -> tensor<?x?x5xf32> {
  %0 = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05 groups = 4 on 1
      ins(%x : tensor<?x?x5xf32>) outs(%init : tensor<?x?x5xf32>) -> tensor<?x?x5xf32>
  return %0 : tensor<?x?x5xf32>
}

// -----

// L2: x / max(‖x‖, ε) computed as (k·x) / max(‖k·x‖, ε·k) with k from
// max|x| (scaled up or down), and 0 for a zero slice (max|x| = 0) even with
// ε = 0; the weight-norm scale multiplies afterwards.
// CHECK-LABEL: func.func @weight_norm
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK:   arith.maximumf
// CHECK: %[[K:.+]] = linalg.generic {{.*}} ins(%[[MAX]] : tensor<4xf32>)
// CHECK: %[[SS:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK: %[[INV:.+]]:2 = linalg.generic {{.*}} ins(%[[SS]], %[[K]], %[[MAX]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK:   ^bb0(%[[S:.+]]: f32, %[[KK:.+]]: f32, %[[M:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK:   %[[NORM:.+]] = math.sqrt %[[S]] : f32
// CHECK:   %[[EK:.+]] = arith.mulf %[[KK]], %[[ZERO]] : f32
// CHECK:   %[[CL:.+]] = arith.maximumf %[[NORM]], %[[EK]] : f32
// CHECK:   %[[R:.+]] = arith.divf %[[ONE]], %[[CL]] : f32
// CHECK:   %[[ISZ:.+]] = arith.cmpf oeq, %[[M]], %[[ZERO]] : f32
// CHECK:   arith.select %[[ISZ]], %[[ZERO]], %[[R]] : f32
// CHECK: linalg.generic {{.*}} ins(%{{[a-z0-9]+}}, %[[K]], %[[INV]]#0, %{{[a-z0-9]+}} : tensor<4x3x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK:   arith.mulf
// CHECK:   arith.mulf
// CHECK:   arith.mulf
func.func @weight_norm(%v: tensor<4x3x2xf32>, %g: tensor<4xf32>, %init: tensor<4x3x2xf32>) -> tensor<4x3x2xf32> {
  %0 = norm.normalize l2 axes = [1, 2] epsilon = 0.0
      ins(%v : tensor<4x3x2xf32>) scale(%g : tensor<4xf32>) affine_dims = [0]
      outs(%init : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

// f64 inputs accumulate in f64; a narrower output gets a truncf epilogue.
// CHECK-LABEL: func.func @f64_to_f32
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<16xf64>)
// CHECK-NOT: arith.extf
// CHECK: arith.truncf %{{.+}} : f64 to f32
func.func @f64_to_f32(%x: tensor<16x32xf64>, %init: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<16x32xf64>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// f64 to a 16-bit output rounds to odd at f32 (toward zero, the last bit set
// when inexact), then to nearest even: correctly rounded, and no
// __truncdfbf2 libcall.
// CHECK-LABEL: func.func @f64_to_bf16
// CHECK: %[[NEAR:.+]] = arith.truncf %[[Y:.+]] : f64 to f32
// CHECK: %[[BACK:.+]] = arith.extf %[[NEAR]] : f32 to f64
// CHECK-DAG: %[[AWAY:.+]] = arith.cmpf ogt, %{{.+}}, %{{.+}} : f64
// CHECK-DAG: %[[BITS:.+]] = arith.bitcast %[[NEAR]] : f32 to i32
// CHECK: %[[DOWN:.+]] = arith.subi %[[BITS]], %{{.+}} : i32
// CHECK: %[[TZ:.+]] = arith.select %[[AWAY]], %[[DOWN]], %[[BITS]] : i32
// CHECK: %[[INEXACT:.+]] = arith.cmpf une, %[[BACK]], %[[Y]] : f64
// CHECK: %[[STICKY:.+]] = arith.ori %[[TZ]], %{{.+}} : i32
// CHECK: %[[ODD:.+]] = arith.select %[[INEXACT]], %[[STICKY]], %[[BITS]] : i32
// CHECK: %[[F32:.+]] = arith.bitcast %[[ODD]] : i32 to f32
// CHECK: arith.truncf %[[F32]] : f32 to bf16
// CHECK-NOT: f64 to bf16
func.func @f64_to_bf16(%x: tensor<16x32xf64>, %init: tensor<16x32xbf16>) -> tensor<16x32xbf16> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<16x32xf64>) outs(%init : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %0 : tensor<16x32xbf16>
}

// -----

// A group dim that is dynamic on the input but static on the output: each
// operand is expanded with its own extent.
// CHECK-LABEL: func.func @group_norm_static_output
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [8, 2, %{{.+}}] : tensor<8x?xf32> into tensor<8x2x?xf32>
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [8, 2, 4] : tensor<8x8xf32> into tensor<8x2x4xf32>
func.func @group_norm_static_output(%x: tensor<8x?xf32>, %o: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = norm.normalize standard axes = [1] epsilon = 1.0e-05 groups = 2 on 1
      ins(%x : tensor<8x?xf32>) outs(%o : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
