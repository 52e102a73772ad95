// Runs norm kernels lowered by norm-lower-to-cpu-pipeline under upstream
// mlir-runner and checks the printed values (hand-computed below).
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// Rows [1 2 3 4] (mean 2.5, var 1.25) and [2 2 2 6] (mean 3, var 3), ε = 0.
func.func @layer_norm(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %init = tensor.empty() : tensor<2x4xf32>
  %y = norm.normalize standard axes = [1] epsilon = 0.0
      ins(%x : tensor<2x4xf32>) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// RMSNorm of bf16 rows [3 4] (ms 12.5) and [0 0] with γ = [1 2], ε = 0.5,
// into f32: x / sqrt(ms + ε) · γ.
func.func @rms_norm(%x: tensor<2x2xbf16>, %g: tensor<2xbf16>) -> tensor<2x2xf32> {
  %init = tensor.empty() : tensor<2x2xf32>
  %y = norm.normalize rms axes = [1] epsilon = 0.5
      ins(%x : tensor<2x2xbf16>) scale(%g : tensor<2xbf16>) affine_dims = [1]
      outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// GroupNorm with 2 groups of 2 channels over [1, 4, 1]: groups [1 3]
// (mean 2, var 1) and [5 5] (constant: 0 with ε > 0).
func.func @group_norm(%x: tensor<1x4x1xf32>) -> tensor<1x4x1xf32> {
  %init = tensor.empty() : tensor<1x4x1xf32>
  %y = norm.normalize standard axes = [1, 2] epsilon = 1.0e-05 groups = 2 on 1
      ins(%x : tensor<1x4x1xf32>) outs(%init : tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  return %y : tensor<1x4x1xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 6.0]]> : tensor<2x4xf32>
  %y = func.call @layer_norm(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %ym = bufferization.to_buffer %y : tensor<2x4xf32> to memref<2x4xf32>
  %yu = memref.cast %ym : memref<2x4xf32> to memref<*xf32>
  // CHECK: [-1.34164, -0.447214, 0.447214, 1.34164]
  // CHECK: [-0.57735, -0.57735, -0.57735, 1.73205]
  func.call @printMemrefF32(%yu) : (memref<*xf32>) -> ()

  %r = arith.constant dense<[[3.0, 4.0], [0.0, 0.0]]> : tensor<2x2xbf16>
  %g = arith.constant dense<[1.0, 2.0]> : tensor<2xbf16>
  %z = func.call @rms_norm(%r, %g) : (tensor<2x2xbf16>, tensor<2xbf16>) -> tensor<2x2xf32>
  %zm = bufferization.to_buffer %z : tensor<2x2xf32> to memref<2x2xf32>
  %zu = memref.cast %zm : memref<2x2xf32> to memref<*xf32>
  // CHECK: [0.83205{{[0-9]*}}, 2.2188{{[0-9]*}}]
  // CHECK: [0, 0]
  func.call @printMemrefF32(%zu) : (memref<*xf32>) -> ()

  %cg = arith.constant dense<[[[1.0], [3.0], [5.0], [5.0]]]> : tensor<1x4x1xf32>
  %gn = func.call @group_norm(%cg) : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %gm = bufferization.to_buffer %gn : tensor<1x4x1xf32> to memref<1x4x1xf32>
  %gu = memref.cast %gm : memref<1x4x1xf32> to memref<*xf32>
  // CHECK: [-0.999995]
  // CHECK: [0.999995]
  // CHECK: [0]
  // CHECK: [0]
  func.call @printMemrefF32(%gu) : (memref<*xf32>) -> ()
  return
}
