// norm-compile --target=cuda: a host object with the kernels, a C header
// documenting each launcher, plain-C launchers and a JSON description. The
// launchers compile warning-free as C11, and a C program links them with
// the static CUDA runtime alone (no MLIR, no libcuda at link time); it runs
// the kernel on a GPU, and without one the launcher reports the missing
// driver.
// RUN: rm -rf %t && mkdir -p %t
// RUN: norm-compile %s --target=cuda -o %t/k
// RUN: FileCheck %s --check-prefix=HEADER < %t/k.h
// RUN: FileCheck %s --check-prefix=LAUNCH < %t/k_launch.c
// RUN: FileCheck %s --check-prefix=JSON < %t/k.json
// RUN: nm %t/k.o | FileCheck %s --check-prefix=SYMS
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: clang -std=c11 -Wall -Wextra -Werror -c %t/k_launch.c -o %t/k_launch.o
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t -I%norm_src_root/dialect %S/Inputs/driver.c %t/k_launch.o %t/k.o %norm_obj_root/lib/libnorm_cuda_runtime_static.a -lstdc++ -ldl -lpthread -lm -o %t/driver
// RUN: %t/driver | FileCheck %s --check-prefix=DRIVER
// RUN: not norm-compile %s --target=rocm -o %t/c 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not norm-compile %s --target=cuda --openmp -o %t/c 2>&1 | FileCheck %s --check-prefix=OPENMP

// HEADER: #ifndef NORM_GENERATED_K_H
// HEADER: #include <stdint.h>
// HEADER: /* layer_norm:
// HEADER-NEXT: norm.normalize standard axes = [1] epsilon = 1.000000e-05
// HEADER-NEXT: args[0] arg0: f32 [?, 768]; dims[0] = dim 0
// HEADER-NEXT: args[1] arg1: f32 [768]
// HEADER-NEXT: args[2] arg2: f32 [768]
// HEADER-NEXT: args[3] (written) result0: f32 [?, 768]; dims[1] = dim 0
// HEADER: int norm_layer_norm(void *const *args, const int64_t *dims, void *stream);
// HEADER: /* rms_norm_bf16:
// HEADER: args[0] arg0: bf16 [8, ?]; dims[0] = dim 1
// HEADER: int norm_rms_norm_bf16(void *const *args, const int64_t *dims, void *stream);

// LAUNCH: #include "k.h"
// LAUNCH: void _mlir_ciface_layer_norm(norm_memref_2 *, norm_memref_1 *, norm_memref_1 *, norm_memref_2 *);
// The call contract: the result's dim 0 is the input's.
// LAUNCH: static const norm_call_dim norm_contract_layer_norm_dims[] = {
// LAUNCH-NEXT: {-1, -1, 1}, {768, -1, 1}, {768, -1, 1}, {768, -1, 1},
// LAUNCH-NEXT: {-1, 0, 1}, {768, -1, 1}};
// LAUNCH: int norm_layer_norm(void *const *args, const int64_t *dims, void *stream) {
// LAUNCH-NEXT: if (!args || !dims) {
// LAUNCH: const int64_t extents[6] = {dims[0], 768, 768, 768, dims[1], 768};
// LAUNCH-NEXT: void *const pointers[4] = {args[0], args[1], args[2], args[3]};
// LAUNCH: if (norm_call_check(&norm_contract_layer_norm, extents, pointers, reason, sizeof(reason)) !=
// LAUNCH: return NORM_CALL_INVALID;
// LAUNCH-NEXT: }
// LAUNCH-NEXT: norm_memref_2 m0 = {args[0], args[0], 0, {extents[0], extents[1]}, {0}};
// LAUNCH-NEXT: m0.strides[1] = 1;
// LAUNCH-NEXT: m0.strides[0] = m0.strides[1] * m0.sizes[1];
// LAUNCH: normCudaSetStream(stream);
// LAUNCH-NEXT: _mlir_ciface_layer_norm(&m0, &m1, &m2, &m3);
// LAUNCH-NEXT: normCudaSetStream(previous);
// LAUNCH-NEXT: return normCudaGetError() != NULL ? 2 : 0;

// JSON: "launcher": "norm_layer_norm"
// JSON: "name": "layer_norm"
// JSON: "launcher": "norm_rms_norm_bf16"

// FILES: k.h
// FILES-NEXT: k.json
// FILES-NEXT: k.o
// FILES-NEXT: k_launch.c
// FILES-NEXT: k_launch.o
// FILES-NEXT: libk.a
// FILES-NEXT: libk.so

// SYMS-DAG: T _mlir_ciface_layer_norm
// SYMS-DAG: T _mlir_ciface_rms_norm_bf16
// SYMS-DAG: U mgpuLaunchKernel
// SYMS-DAG: U mgpuModuleLoad

// DRIVER: contradicting dims: launcher returned 1: norm_layer_norm: result #0 has extent 5 in dim 0, expected 4 (dim 0 of argument #0)
// DRIVER-NEXT: negative dims: launcher returned 1: norm_layer_norm: argument #0 has the negative extent -5 in dim 0
// DRIVER-NEXT: NULL scale: launcher returned 1: norm_layer_norm: argument #1 is a NULL pointer
// DRIVER-NEXT: {{no GPU: launcher returned 2: .*libcuda.so.1|layer_norm: OK}}

// TARGET: norm-compile: --target=rocm is not supported (supported: cpu, cuda)
// OPENMP: norm-compile: --openmp is a --target=cpu option

func.func @layer_norm(%x: tensor<?x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x768xf32>
  %init = tensor.empty(%m) : tensor<?x768xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xf32>) scale(%g : tensor<768xf32>) bias(%b : tensor<768xf32>) affine_dims = [1]
      outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

func.func @rms_norm_bf16(%x: tensor<8x?xbf16>, %w: tensor<?xbf16>) -> tensor<8x?xbf16> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<8x?xbf16>
  %init = tensor.empty(%n) : tensor<8x?xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<8x?xbf16>) scale(%w : tensor<?xbf16>) affine_dims = [1]
      outs(%init : tensor<8x?xbf16>) -> tensor<8x?xbf16>
  return %y : tensor<8x?xbf16>
}
