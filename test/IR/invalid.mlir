// Every diagnostic of the norm.normalize verifier.
// RUN: norm-opt %s -split-input-file -verify-diagnostics

func.func @negative_unranked_input(%x: tensor<*xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'input' must be a ranked tensor or a memref, got 'tensor<*xf32>'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<*xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_vector_scale(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %g: vector<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'scale' must be a ranked tensor or a memref, got 'vector<8xf32>'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) scale(%g : vector<8xf32>) affine_dims = [1] outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_mixed_tensor_memref(%x: tensor<4x8xf32>, %o: memref<4x8xf32>) {
  // expected-error@+1 {{operands must be all tensors or all memrefs, but 'output' is 'memref<4x8xf32>' while 'input' is 'tensor<4x8xf32>'}}
  norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : memref<4x8xf32>)
  return
}

// -----

func.func @negative_integer_input(%x: tensor<4x8xi32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'input' element type must be f16, bf16, f32 or f64, got 'i32'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xi32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_fp8_output(%x: tensor<4x8xf32>, %o: tensor<4x8xf8E4M3FN>) -> tensor<4x8xf8E4M3FN> {
  // expected-error@+1 {{'output' element type must be f16, bf16, f32 or f64, got 'f8E4M3FN'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf8E4M3FN>) -> tensor<4x8xf8E4M3FN>
  return %0 : tensor<4x8xf8E4M3FN>
}

// -----

func.func @negative_f16_accumulation(%x: tensor<4x8xf16>, %o: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error@+1 {{'acc' type must be f32 or f64, got 'f16'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 acc = f16 ins(%x : tensor<4x8xf16>) outs(%o : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @negative_narrow_accumulation(%x: tensor<4x8xf64>, %o: tensor<4x8xf64>) -> tensor<4x8xf64> {
  // expected-error@+1 {{'acc' type 'f32' is narrower than the input element type 'f64'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 acc = f32 ins(%x : tensor<4x8xf64>) outs(%o : tensor<4x8xf64>) -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}

// -----

func.func @negative_empty_axes(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'axes' must not be empty}}
  %0 = norm.normalize standard axes = [] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_axis_out_of_range(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'axes' entry 2 is out of range for an input of rank 2}}
  %0 = norm.normalize standard axes = [2] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_negative_axis(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'axes' entry -1 is out of range for an input of rank 2}}
  %0 = norm.normalize standard axes = [-1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_duplicate_axis(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'axes' contains 1 more than once}}
  %0 = norm.normalize standard axes = [1, 1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_nan_epsilon(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'epsilon' must be finite, got nan}}
  %0 = norm.normalize standard axes = [1] epsilon = 0x7FF8000000000000 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_inf_epsilon(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'epsilon' must be finite, got INF}}
  %0 = norm.normalize rms axes = [1] epsilon = 0x7FF0000000000000 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_negative_epsilon(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'epsilon' must be non-negative, got -5.000000e-01}}
  %0 = norm.normalize standard axes = [1] epsilon = -0.5 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_output_shape(%x: tensor<4x8xf32>, %o: tensor<4x9xf32>) -> tensor<4x9xf32> {
  // expected-error@+1 {{'output' shape (4x9) does not match 'input' shape (4x8)}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x9xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

func.func @negative_output_rank(%x: tensor<4x8xf32>, %o: tensor<32xf32>) -> tensor<32xf32> {
  // expected-error@+1 {{'output' shape (32) does not match 'input' shape (4x8)}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<32xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

func.func @negative_groups_without_dim(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'groups' and 'group_dim' must be given together}}
  %0 = "norm.normalize"(%x, %o) <{axes = array<i64: 1>, epsilon = 1.0e-05 : f64, groups = 2 : i64, mode = 0 : i32, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 1, 0, 0, 0>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_zero_groups(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'groups' must be positive, got 0}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 groups = 0 on 1 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_group_dim_out_of_range(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'group_dim' 3 is out of range for an input of rank 2}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 groups = 2 on 3 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_group_dim_not_reduced(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'group_dim' 0 must be one of the reduction 'axes'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 groups = 2 on 0 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_groups_do_not_divide(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'groups' (3) must divide the extent 8 of the group dim 1}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 groups = 3 on 1 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_affine_dims_without_affine(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'affine_dims' given without 'scale' or 'bias'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) affine_dims = [1] outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_affine_without_dims(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'affine_dims' is required with 'scale' or 'bias'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) scale(%g : tensor<8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_affine_dim_out_of_range(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'affine_dims' entry 2 is out of range for an input of rank 2}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) scale(%g : tensor<8xf32>) affine_dims = [2] outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_duplicate_affine_dim(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %g: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'affine_dims' contains 1 more than once}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) scale(%g : tensor<8x8xf32>) affine_dims = [1, 1] outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_scale_rank(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %g: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'scale' must have rank 1 (one dim per 'affine_dims' entry), got 2}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) scale(%g : tensor<4x8xf32>) affine_dims = [1] outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_bias_extent(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'bias' dim 0 has extent 4, expected 8 (input dim 1)}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) bias(%b : tensor<4xf32>) affine_dims = [1] outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_scale_element_type(%x: tensor<4x8xf16>, %o: tensor<4x8xf16>, %g: tensor<8xf64>) -> tensor<4x8xf16> {
  // expected-error@+1 {{'scale' element type must be the input element type ('f16') or the accumulation type ('f32'), got 'f64'}}
  %0 = norm.normalize rms axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf16>) scale(%g : tensor<8xf64>) affine_dims = [1] outs(%o : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @negative_mean_without_variance(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'mean' and 'variance' must be given together}}
  %0 = "norm.normalize"(%x, %m, %o) <{axes = array<i64: 0, 2>, epsilon = 1.0e-05 : f64, mode = 0 : i32, operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 1, 0, 0, 0>}> : (tensor<2x3x5xf32>, tensor<3xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_given_stats_rms(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{given statistics require 'standard' mode, got 'rms'}}
  %0 = norm.normalize rms axes = [0, 2] epsilon = 1.0e-05 ins(%x : tensor<2x3x5xf32>) stats(%m, %v : tensor<3xf32>, tensor<3xf32>) outs(%o : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_given_stats_training(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{given statistics cannot be combined with 'running' statistics}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 ins(%x : tensor<2x3x5xf32>) stats(%m, %v : tensor<3xf32>, tensor<3xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_given_stats_saved(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{given statistics cannot be combined with 'saved' results}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 ins(%x : tensor<2x3x5xf32>) stats(%m, %v : tensor<3xf32>, tensor<3xf32>) outs(%o : tensor<2x3x5xf32>) saved(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_given_stats_shape(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<2xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'variance' must have the statistics shape (3), got (2)}}
  %0 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 ins(%x : tensor<2x3x5xf32>) stats(%m, %v : tensor<3xf32>, tensor<2xf32>) outs(%o : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_given_stats_element_type(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf16>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'mean' element type must be the input element type ('f32') or the accumulation type ('f32'), got 'f16'}}
  %0 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 ins(%x : tensor<2x3x5xf32>) stats(%m, %v : tensor<3xf16>, tensor<3xf32>) outs(%o : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_saved_variance_rms(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %r: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'saved_variance' requires 'standard' mode and 'saved' inits}}
  %0:2 = norm.normalize rms axes = [1] epsilon = 1.0e-05 saved_variance ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) saved(%r : tensor<4xf32>) -> tensor<4x8xf32>, tensor<4xf32>
  return %0#0 : tensor<4x8xf32>
}

// -----

func.func @negative_saved_variance_without_saved(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'saved_variance' requires 'standard' mode and 'saved' inits}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 saved_variance ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_saved_count_standard(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %r: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'saved' expects 2 init(s) in 'standard' mode (mean and rstd (or variance)), got 1}}
  %0:2 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) saved(%r : tensor<4xf32>) -> tensor<4x8xf32>, tensor<4xf32>
  return %0#0 : tensor<4x8xf32>
}

// -----

func.func @negative_saved_count_l2(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %r: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'saved' expects 1 init(s) in 'l2' mode (the inverse norm), got 2}}
  %0:3 = norm.normalize l2 axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) saved(%r, %r : tensor<4xf32>, tensor<4xf32>) -> tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
  return %0#0 : tensor<4x8xf32>
}

// -----

func.func @negative_saved_shape_groups(%x: tensor<2x8x5xf32>, %o: tensor<2x8x5xf32>, %r: tensor<2x8xf32>) -> tensor<2x8x5xf32> {
  // expected-error@+1 {{'saved' must have the statistics shape (2x4), got (2x8)}}
  %0:2 = norm.normalize rms axes = [1, 2] epsilon = 1.0e-05 groups = 4 on 1 ins(%x : tensor<2x8x5xf32>) outs(%o : tensor<2x8x5xf32>) saved(%r : tensor<2x8xf32>) -> tensor<2x8x5xf32>, tensor<2x8xf32>
  return %0#0 : tensor<2x8x5xf32>
}

// -----

func.func @negative_running_mean_without_var(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'running_mean' and 'running_var' must be given together}}
  %0:2 = "norm.normalize"(%x, %o, %m) <{axes = array<i64: 0, 2>, epsilon = 1.0e-05 : f64, momentum = 1.0e-01 : f64, mode = 0 : i32, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 1, 0, 1, 0>}> : (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<3xf32>) -> (tensor<2x3x5xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_momentum_without_running(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'momentum' given without 'running' statistics}}
  %0 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_unbiased_without_running(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'unbiased' given without 'running' statistics}}
  %0 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 unbiased ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_running_l2(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'running' statistics require 'standard' mode, got 'l2'}}
  %0:3 = norm.normalize l2 axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_running_without_momentum(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'momentum' is required with 'running' statistics}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_nan_momentum(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'momentum' must be in [0, 1] (the weight of the batch statistics in the running update), got nan}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0x7FF8000000000000 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_unbiased_single_element(%x: tensor<1x3x1xf32>, %o: tensor<1x3x1xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x3x1xf32> {
  // expected-error@+1 {{'unbiased' running variance needs more than one reduced element per statistic, but the reduction size is 1}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased ins(%x : tensor<1x3x1xf32>) outs(%o : tensor<1x3x1xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x1xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<1x3x1xf32>
}

// -----

func.func @negative_running_var_shape(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<2x3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'running_var' must have the statistics shape (3), got (2x3)}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<2x3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_memref_with_results(%x: memref<4x8xf32>, %o: memref<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{must have no results with memref operands}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : memref<4x8xf32>) outs(%o : memref<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_missing_saved_result(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{expects one result per init (3), got 1}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) saved(%a, %b : tensor<4xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_result_type(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf16> {
  // expected-error@+1 {{result #0 type 'tensor<4x8xf16>' must match its init type 'tensor<4x8xf32>'}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// Static extents of different operands must agree even where the input's is
// dynamic: the output says 8, so 3 groups cannot split it.
func.func @negative_groups_do_not_divide_output_extent(%x: tensor<4x?xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'groups' (3) must divide the extent 8 of the group dim 1}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 groups = 3 on 1 ins(%x : tensor<4x?xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_scale_bias_disagree(%x: tensor<?x?xf32>, %o: tensor<?x?xf32>, %g: tensor<8xf32>, %b: tensor<6xf32>) -> tensor<?x?xf32> {
  // expected-error@+1 {{'bias' dim 0 has extent 6, expected 8 (input dim 1)}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<?x?xf32>) scale(%g : tensor<8xf32>) bias(%b : tensor<6xf32>) affine_dims = [1] outs(%o : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @negative_running_disagrees_with_output(%x: tensor<1x?x4xf32>, %o: tensor<1x2x4xf32>, %rm: tensor<6xf32>, %rv: tensor<?xf32>) -> (tensor<1x2x4xf32>, tensor<6xf32>, tensor<?xf32>) {
  // expected-error@+1 {{'running_mean' must have the statistics shape (2), got (6)}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 ins(%x : tensor<1x?x4xf32>) outs(%o : tensor<1x2x4xf32>) running(%rm, %rv : tensor<6xf32>, tensor<?xf32>) -> tensor<1x2x4xf32>, tensor<6xf32>, tensor<?xf32>
  return %0#0, %0#1, %0#2 : tensor<1x2x4xf32>, tensor<6xf32>, tensor<?xf32>
}

// -----

func.func @negative_epsilon_above_f32(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'epsilon' 1.000000e+39 is outside what the f32 accumulation represents: use 0 or a value in [1.175494e-38, 3.402823e+38], or acc = f64}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e+39 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// 1e-50 rounds to 0 in f32, and 1/sqrt(1e-78) would overflow it.
func.func @negative_epsilon_below_f32(%x: tensor<4x8xbf16>, %o: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error@+1 {{'epsilon' 1.000000e-50 is outside what the f32 accumulation represents}}
  %0 = norm.normalize rms axes = [1] epsilon = 1.0e-50 ins(%x : tensor<4x8xbf16>) outs(%o : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @tiny_epsilon_with_f64_accumulation(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-50 acc = f64 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_momentum_above_one(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'momentum' must be in [0, 1] (the weight of the batch statistics in the running update), got 1.000000e+30}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 1.0e+30 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_momentum_below_zero(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'momentum' must be in [0, 1] (the weight of the batch statistics in the running update), got -1.000000e+300}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = -1.0e+300 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_output_wider_than_accumulation(%x: tensor<4x8xf32>, %o: tensor<4x8xf64>) -> tensor<4x8xf64> {
  // expected-error@+1 {{'output' element type 'f64' is wider than the accumulation type 'f32' the op computes in; use acc = f64}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf64>) -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}

// -----

func.func @wider_output_with_f64_accumulation(%x: tensor<4x8xf32>, %o: tensor<4x8xf64>) -> tensor<4x8xf64> {
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 acc = f64 ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf64>) -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}

// -----

func.func @negative_byte_size_overflows(%x: tensor<4294967296x4294967296xf32>, %o: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error@+1 {{'input' type 'tensor<4294967296x4294967296xf32>' is too large: its byte size overflows int64 (at most 9223372036854775807 bytes)}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4294967296x4294967296xf32>) outs(%o : tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

// -----

func.func @negative_misspelt_clause(%x: tensor<2x3x5xf32>, %o: tensor<2x3x5xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{unexpected keyword 'momentun': expected groups, momentum, unbiased, saved_variance, acc, attributes or ins (did you mean 'momentum'?)}}
  %0:3 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentun = 0.1 ins(%x : tensor<2x3x5xf32>) outs(%o : tensor<2x3x5xf32>) running(%m, %v : tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %0#0 : tensor<2x3x5xf32>
}

// -----

func.func @negative_misplaced_clause(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{unexpected keyword 'scael': expected scale, bias, affine_dims, stats or outs (did you mean 'scale'?)}}
  %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05 ins(%x : tensor<4x8xf32>) scael(%g : tensor<8xf32>) affine_dims = [1] outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
