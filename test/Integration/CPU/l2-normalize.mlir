// L2 normalization (F.normalize) through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry l2_normalize_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry l2_normalize_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry l2_normalize_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry l2_normalize_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry l2_normalize_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry l2_normalize_bf16_dynamic --check | FileCheck %s
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @l2_normalize_f32_static(%x: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %init = tensor.empty() : tensor<32x256xf32>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<32x256xf32>) outs(%init : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %y : tensor<32x256xf32>
}

func.func @l2_normalize_f32_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @l2_normalize_f16_static(%x: tensor<32x256xf16>) -> tensor<32x256xf16> {
  %init = tensor.empty() : tensor<32x256xf16>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<32x256xf16>) outs(%init : tensor<32x256xf16>) -> tensor<32x256xf16>
  return %y : tensor<32x256xf16>
}

func.func @l2_normalize_f16_dynamic(%x: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf16>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<?x?xf16>) outs(%init : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @l2_normalize_bf16_static(%x: tensor<32x256xbf16>) -> tensor<32x256xbf16> {
  %init = tensor.empty() : tensor<32x256xbf16>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<32x256xbf16>) outs(%init : tensor<32x256xbf16>) -> tensor<32x256xbf16>
  return %y : tensor<32x256xbf16>
}

func.func @l2_normalize_bf16_dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xbf16>
  %y = norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : tensor<?x?xbf16>) outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
