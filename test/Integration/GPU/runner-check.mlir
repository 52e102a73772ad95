// On a GPU: the kernels of norm-lower-to-nvvm-pipeline pass norm-runner's
// checks against the fp64 reference (random and adversarial inputs,
// property checks), for every variant in test/Examples/all-variants.mlir
// that has a GPU kernel, f32 and bf16.
// REQUIRES: cuda-driver
// RUN: norm-runner %s --target=cuda --check --entry layer_norm | FileCheck %s
// RUN: norm-runner %s --target=cuda --check --entry rms_norm_bf16 | FileCheck %s
// RUN: norm-runner %norm_src_root/test/Examples/all-variants.mlir --target=cuda --check --entry batch_norm_training | FileCheck %s
// RUN: norm-runner %norm_src_root/test/Examples/all-variants.mlir --target=cuda --check --entry group_norm_channels_last | FileCheck %s
// RUN: norm-runner %norm_src_root/test/Examples/all-variants.mlir --target=cuda --check --entry weight_norm | FileCheck %s

// CHECK: check: {{[1-9][0-9]*}} passed, 0 failed

func.func @layer_norm(%x: tensor<?x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x768xf32>
  %init = tensor.empty(%m) : tensor<?x768xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xf32>) scale(%g : tensor<768xf32>) bias(%b : tensor<768xf32>) affine_dims = [1]
      outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

func.func @rms_norm_bf16(%x: tensor<?x?xbf16>, %w: tensor<?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x?xbf16>) scale(%w : tensor<?xbf16>) affine_dims = [1]
      outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
