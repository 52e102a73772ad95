// Cosine normalization (two l2 normalizations and a matmul) through the CPU pipeline, checked against the fp64 reference.
// RUN: norm-runner %s --entry cosine_norm_f32_static --check | FileCheck %s
// RUN: norm-runner %s --entry cosine_norm_f32_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry cosine_norm_f16_static --check | FileCheck %s
// RUN: norm-runner %s --entry cosine_norm_f16_dynamic --check | FileCheck %s
// RUN: norm-runner %s --entry cosine_norm_bf16_static --check | FileCheck %s
// RUN: norm-runner %s --entry cosine_norm_bf16_dynamic --check | FileCheck %s
// CHECK: check: {{[0-9]+}} passed, 0 failed

func.func @cosine_norm_f32_static(%x: tensor<16x64xf32>, %w: tensor<10x64xf32>) -> tensor<16x10xf32> {
  %xi = tensor.empty() : tensor<16x64xf32>
  %wi = tensor.empty() : tensor<10x64xf32>
  %e = tensor.empty() : tensor<16x10xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<16x64xf32>) outs(%xi : tensor<16x64xf32>) -> tensor<16x64xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%w : tensor<10x64xf32>) outs(%wi : tensor<10x64xf32>) -> tensor<10x64xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x10xf32>) -> tensor<16x10xf32>
  %cos = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<16x64xf32>, tensor<10x64xf32>) outs(%acc : tensor<16x10xf32>) -> tensor<16x10xf32>
  return %cos : tensor<16x10xf32>
}

func.func @cosine_norm_f32_dynamic(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %xi = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %w0 = tensor.dim %w, %c0 : tensor<?x?xf32>
  %w1 = tensor.dim %w, %c1 : tensor<?x?xf32>
  %wi = tensor.empty(%w0, %w1) : tensor<?x?xf32>
  %e = tensor.empty(%d0, %w0) : tensor<?x?xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<?x?xf32>) outs(%xi : tensor<?x?xf32>) -> tensor<?x?xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%w : tensor<?x?xf32>) outs(%wi : tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %cos = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %cos : tensor<?x?xf32>
}

func.func @cosine_norm_f16_static(%x: tensor<16x64xf16>, %w: tensor<10x64xf16>) -> tensor<16x10xf32> {
  %xi = tensor.empty() : tensor<16x64xf32>
  %wi = tensor.empty() : tensor<10x64xf32>
  %e = tensor.empty() : tensor<16x10xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<16x64xf16>) outs(%xi : tensor<16x64xf32>) -> tensor<16x64xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%w : tensor<10x64xf16>) outs(%wi : tensor<10x64xf32>) -> tensor<10x64xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x10xf32>) -> tensor<16x10xf32>
  %cos = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<16x64xf32>, tensor<10x64xf32>) outs(%acc : tensor<16x10xf32>) -> tensor<16x10xf32>
  return %cos : tensor<16x10xf32>
}

func.func @cosine_norm_f16_dynamic(%x: tensor<?x?xf16>, %w: tensor<?x?xf16>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf16>
  %xi = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %w0 = tensor.dim %w, %c0 : tensor<?x?xf16>
  %w1 = tensor.dim %w, %c1 : tensor<?x?xf16>
  %wi = tensor.empty(%w0, %w1) : tensor<?x?xf32>
  %e = tensor.empty(%d0, %w0) : tensor<?x?xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<?x?xf16>) outs(%xi : tensor<?x?xf32>) -> tensor<?x?xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%w : tensor<?x?xf16>) outs(%wi : tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %cos = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %cos : tensor<?x?xf32>
}

func.func @cosine_norm_bf16_static(%x: tensor<16x64xbf16>, %w: tensor<10x64xbf16>) -> tensor<16x10xf32> {
  %xi = tensor.empty() : tensor<16x64xf32>
  %wi = tensor.empty() : tensor<10x64xf32>
  %e = tensor.empty() : tensor<16x10xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<16x64xbf16>) outs(%xi : tensor<16x64xf32>) -> tensor<16x64xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%w : tensor<10x64xbf16>) outs(%wi : tensor<10x64xf32>) -> tensor<10x64xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x10xf32>) -> tensor<16x10xf32>
  %cos = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<16x64xf32>, tensor<10x64xf32>) outs(%acc : tensor<16x10xf32>) -> tensor<16x10xf32>
  return %cos : tensor<16x10xf32>
}

func.func @cosine_norm_bf16_dynamic(%x: tensor<?x?xbf16>, %w: tensor<?x?xbf16>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %xi = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %w0 = tensor.dim %w, %c0 : tensor<?x?xbf16>
  %w1 = tensor.dim %w, %c1 : tensor<?x?xbf16>
  %wi = tensor.empty(%w0, %w1) : tensor<?x?xf32>
  %e = tensor.empty(%d0, %w0) : tensor<?x?xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<?x?xbf16>) outs(%xi : tensor<?x?xf32>) -> tensor<?x?xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%w : tensor<?x?xbf16>) outs(%wi : tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %cos = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %cos : tensor<?x?xf32>
}
