// Every diagnostic of convert-norm-to-gpu: a memref-form op it has no kernel
// for, and invalid pass options.
// RUN: norm-opt %s --convert-norm-to-gpu --split-input-file --verify-diagnostics
// RUN: not norm-opt %s --convert-norm-to-gpu=block-size=48 --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTIONS -DGOT="48 and 16"
// RUN: not norm-opt %s --convert-norm-to-gpu=block-size=16 --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTIONS -DGOT="16 and 16"
// RUN: not norm-opt %s --convert-norm-to-gpu=block-size=2048 --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTIONS -DGOT="2048 and 16"
// RUN: not norm-opt %s --convert-norm-to-gpu=vector-bytes=32 --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTIONS -DGOT="256 and 32"
// RUN: not norm-opt %s --convert-norm-to-gpu=vector-bytes=12 --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTIONS -DGOT="256 and 12"
// RUN: not norm-opt %s --convert-norm-to-gpu=vector-bytes=2 --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTIONS -DGOT="256 and 2"

// Bad options are reported on the module, before any op is looked at.
// OPTIONS: error: convert-norm-to-gpu: block-size must be a power of two in [32, 1024] and vector-bytes one of 4, 8, 16; got [[GOT]]{{$}}
// OPTIONS-NOT: error: 'norm.normalize' op has no GPU kernel

// f64 input: the accumulation type follows it.
func.func @negative_f64_input(%x: memref<4x8xf64>, %y: memref<4x8xf64>) {
  // expected-error@+1 {{'norm.normalize' op has no GPU kernel: it accumulates in f64 (GPU kernels accumulate in f32)}}
  norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : memref<4x8xf64>) outs(%y : memref<4x8xf64>)
  return
}

// -----

// f32 operands, explicit f64 accumulation.
func.func @negative_acc_f64(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  // expected-error@+1 {{'norm.normalize' op has no GPU kernel: it accumulates in f64 (GPU kernels accumulate in f32)}}
  norm.normalize rms axes = [1] epsilon = 1.0e-06 acc = f64
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// An f64 output needs the f64 accumulation (the verifier says so), which
// GPU kernels do not have.
func.func @negative_f64_output(%x: memref<4x8xf32>, %y: memref<4x8xf64>) {
  // expected-error@+1 {{'norm.normalize' op has no GPU kernel: it accumulates in f64 (GPU kernels accumulate in f32)}}
  norm.normalize rms axes = [1] epsilon = 1.0e-06 acc = f64
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf64>)
  return
}

// -----

// A strided input (padded rows): the kernels index identity layouts only.
func.func @negative_strided(%x: memref<4x8xf32, strided<[16, 1]>>, %y: memref<4x8xf32>) {
  // expected-error@+1 {{'norm.normalize' op has no GPU kernel: it has an operand with a non-identity layout}}
  norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : memref<4x8xf32, strided<[16, 1]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// A strided output.
func.func @negative_strided_output(%x: memref<4x8xf32>, %y: memref<4x8xf32, strided<[16, 1], offset: 4>>) {
  // expected-error@+1 {{'norm.normalize' op has no GPU kernel: it has an operand with a non-identity layout}}
  norm.normalize l2 axes = [1] epsilon = 1.0e-12
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32, strided<[16, 1], offset: 4>>)
  return
}

// -----

// A transposed γ (affine_dims = [2, 1]): valid, but not ascending.
func.func @negative_unsorted_affine_dims(%x: memref<2x4x8xf32>, %g: memref<8x4xf32>, %y: memref<2x4x8xf32>) {
  // expected-error@+1 {{'norm.normalize' op has no GPU kernel: it has affine_dims out of ascending order}}
  norm.normalize standard axes = [1, 2] epsilon = 1.0e-05
      ins(%x : memref<2x4x8xf32>) scale(%g : memref<8x4xf32>) affine_dims = [2, 1]
      outs(%y : memref<2x4x8xf32>)
  return
}

// -----

// A host op over a (device) buffer left beside the kernels: the host would
// dereference device memory.
func.func @negative_host_fill(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %z: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  // expected-error@+1 {{'linalg.fill' op would run on the host over device memory: the GPU pipeline offloads norm.normalize and buffer copies only}}
  linalg.fill ins(%zero : f32) outs(%z : memref<4xf32>)
  return
}

// -----

// A host allocation handed to a kernel: host memory is not readable there.
func.func @negative_host_alloc(%x: memref<4x8xf32>) {
  // expected-error@+1 {{'memref.alloc' op would run on the host over device memory: the GPU pipeline offloads norm.normalize and buffer copies only}}
  %y = memref.alloc() : memref<4x8xf32>
  norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// A copy of a strided view is not one contiguous gpu.memcpy.
func.func @negative_strided_copy(%a: memref<8x8xf32>, %b: memref<8x4xf32>) {
  %view = memref.subview %a[0, 0] [8, 4] [1, 1] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 1]>>
  // expected-error@+1 {{'memref.copy' op would run on the host over device memory: the GPU pipeline offloads norm.normalize and buffer copies only}}
  memref.copy %view, %b : memref<8x4xf32, strided<[8, 1]>> to memref<8x4xf32>
  return
}
