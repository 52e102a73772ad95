// norm-lower-to-nvvm-pipeline end to end, to PTX (format isa, the default):
// each norm op becomes one kernel, embedded as PTX text in a gpu.binary and
// launched by LLVM-dialect host code with a C interface. The PTX is one
// string attribute; sed splits it into one line per instruction. On the main
// path the innermost dim moves as 128-bit global accesses, block sums are
// warp shuffles then shared memory, rsqrt is the hardware approximation,
// and no kernel has a stack frame (.local), device malloc or a libdevice
// call (__nv_*: fma, rsqrt and sqrt are NVVM intrinsics), with or without a
// CUDA toolkit.
// RUN: norm-opt %s -norm-lower-to-nvvm-pipeline -split-input-file \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' \
// RUN:   | FileCheck %s --implicit-check-not=.local --implicit-check-not=malloc --implicit-check-not=__nv_ --implicit-check-not=llvm.intr.memcpy
// The options reach the pass and the target: fewer threads, 8-byte vectors,
// another chip, no C wrappers.
// RUN: norm-opt %s -norm-lower-to-nvvm-pipeline="chip=sm_80 features=+ptx70 block-size=128 vector-bytes=8 c-interface=0" -split-input-file \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' \
// RUN:   | FileCheck %s --check-prefix=OPTS --implicit-check-not=_mlir_ciface_
// A toolkit without libdevice changes nothing.
// RUN: rm -rf %t.nocuda && mkdir -p %t.nocuda
// RUN: norm-opt %s -norm-lower-to-nvvm-pipeline=cuda-toolkit=%t.nocuda -split-input-file 2>&1 \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' \
// RUN:   | FileCheck %s --implicit-check-not=.local --implicit-check-not=malloc --implicit-check-not=__nv_ --implicit-check-not=llvm.intr.memcpy --implicit-check-not=error

// LayerNorm f32, rows of 4096: the grid is the row count (dynamic), the
// vector path is chosen on the host from the pointers' alignment. Pass 1,
// pass 2 and the normalize pass load 4 floats at a time; the normalize pass
// stores them so. Constants stay in the kernel (sunk before outlining): its
// parameters are the four memrefs and the vector-path flag, and the mean is
// an exact multiply by 2^-12.
// CHECK-LABEL: llvm.func @layer_norm(
// CHECK: llvm.ptrtoint
// CHECK: llvm.urem
// CHECK: gpu.launch_func @layer_norm_kernel::@layer_norm_kernel blocks in (%{{.+}}, %{{.+}}, %{{.+}}) threads in (%{{.+}}, %{{.+}}, %{{.+}}) : i64
// CHECK-LABEL: llvm.func @_mlir_ciface_layer_norm(
// CHECK: llvm.call @layer_norm(
// CHECK: gpu.binary @layer_norm_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}>, properties = {{.+}}, assembly = "
// CHECK: .target sm_90
// CHECK: .visible .entry layer_norm_kernel(
// CHECK: layer_norm_kernel_param_24
// CHECK-NOT: layer_norm_kernel_param_25
// CHECK: .maxntid 256, 1, 1
// CHECK: .shared
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync
// CHECK: mul.rn.f32 %{{.+}}, %{{.+}}, 0f39800000;
// CHECK: rsqrt.approx.f32
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32

// OPTS-LABEL: llvm.func @layer_norm(
// OPTS: gpu.launch_func @layer_norm_kernel::@layer_norm_kernel
// OPTS: gpu.binary @layer_norm_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70"{{.*}}>, properties = {{.+}}, assembly = "
// OPTS: .target sm_80
// OPTS: .visible .entry layer_norm_kernel(
// OPTS: .maxntid 128, 1, 1
// OPTS: ld.global.v2.b32
// OPTS: st.global.v2.b32
func.func @layer_norm(%x: tensor<?x4096xf32>, %g: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<?x4096xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4096xf32>
  %init = tensor.empty(%n) : tensor<?x4096xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x4096xf32>) scale(%g : tensor<4096xf32>) bias(%b : tensor<4096xf32>) affine_dims = [1]
      outs(%init : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}

// -----

// RMSNorm f32, rows of dynamic length (the host also checks length % 4).
// CHECK-LABEL: llvm.func @rms_norm(
// CHECK: llvm.urem
// CHECK: gpu.launch_func @rms_norm_kernel::@rms_norm_kernel
// CHECK-LABEL: llvm.func @_mlir_ciface_rms_norm(
// CHECK: gpu.binary @rms_norm_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "
// CHECK: .visible .entry rms_norm_kernel(
// CHECK: .maxntid 256, 1, 1
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: rsqrt.approx.f32
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
func.func @rms_norm(%x: tensor<?x?xf32>, %w: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %d) : tensor<?x?xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x?xf32>) scale(%w : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// RMSNorm bf16: 8 bf16 per 128-bit access, unpacked to f32 in registers
// (cvt.f32.bf16) and packed back in pairs (cvt.rn.bf16x2.f32, sm_90).
// CHECK-LABEL: llvm.func @rms_norm_bf16(
// CHECK: gpu.launch_func @rms_norm_bf16_kernel::@rms_norm_bf16_kernel
// CHECK-LABEL: llvm.func @_mlir_ciface_rms_norm_bf16(
// CHECK: gpu.binary @rms_norm_bf16_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "
// CHECK: .visible .entry rms_norm_bf16_kernel(
// CHECK: .maxntid 256, 1, 1
// CHECK: ld.global.v4.b32
// CHECK: cvt.f32.bf16
// CHECK: shfl.sync.bfly.b32
// CHECK: rsqrt.approx.f32
// CHECK: ld.global.v4.b32
// CHECK: cvt.f32.bf16
// CHECK: cvt.rn.bf16x2.f32
// CHECK: st.global.v4.b32
func.func @rms_norm_bf16(%x: tensor<?x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4096xbf16>
  %init = tensor.empty(%n) : tensor<?x4096xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x4096xbf16>) scale(%w : tensor<4096xbf16>) affine_dims = [1]
      outs(%init : tensor<?x4096xbf16>) -> tensor<?x4096xbf16>
  return %y : tensor<?x4096xbf16>
}

// -----

// GroupNorm f32 NCHW, 32 groups: a block per (n, group), 2·32 = 64.
// CHECK-LABEL: llvm.func @group_norm(
// CHECK-DAG: %[[GRID:.+]] = llvm.mlir.constant(64 : index) : i64
// CHECK-DAG: %[[THREADS:.+]] = llvm.mlir.constant(256 : index) : i64
// CHECK: gpu.launch_func @group_norm_kernel::@group_norm_kernel blocks in (%[[GRID]], %{{.+}}, %{{.+}}) threads in (%[[THREADS]], %{{.+}}, %{{.+}}) : i64
// CHECK-LABEL: llvm.func @_mlir_ciface_group_norm(
// CHECK: gpu.binary @group_norm_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "
// CHECK: .visible .entry group_norm_kernel(
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: rsqrt.approx.f32
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
func.func @group_norm(%x: tensor<2x320x32x32xf32>, %gamma: tensor<320xf32>, %beta: tensor<320xf32>) -> tensor<2x320x32x32xf32> {
  %init = tensor.empty() : tensor<2x320x32x32xf32>
  %y = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05 groups = 32 on 1
      ins(%x : tensor<2x320x32x32xf32>)
      scale(%gamma : tensor<320xf32>) bias(%beta : tensor<320xf32>) affine_dims = [1]
      outs(%init : tensor<2x320x32x32xf32>) -> tensor<2x320x32x32xf32>
  return %y : tensor<2x320x32x32xf32>
}

// -----

// BatchNorm training f32 NCHW: a block per channel (64); thread 0 writes
// the saved and running statistics with scalar stores after the vector
// normalize pass. The running statistics are first copied into their
// results device to device (a host memcpy would read device pointers) on
// a stream synchronized before the launch.
// CHECK-LABEL: llvm.func @batch_norm_training(
// CHECK-DAG: %[[GRID:.+]] = llvm.mlir.constant(64 : index) : i64
// CHECK-DAG: %[[THREADS:.+]] = llvm.mlir.constant(256 : index) : i64
// CHECK: %[[S1:.+]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuMemcpy(%{{.+}}, %{{.+}}, %{{.+}}, %[[S1]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S1]])
// CHECK: %[[S2:.+]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuMemcpy(%{{.+}}, %{{.+}}, %{{.+}}, %[[S2]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S2]])
// CHECK: gpu.launch_func @batch_norm_training_kernel::@batch_norm_training_kernel blocks in (%[[GRID]], %{{.+}}, %{{.+}}) threads in (%[[THREADS]], %{{.+}}, %{{.+}}) : i64
// CHECK-LABEL: llvm.func @_mlir_ciface_batch_norm_training(
// CHECK: gpu.binary @batch_norm_training_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "
// CHECK: .visible .entry batch_norm_training_kernel(
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: rsqrt.approx.f32
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK: st.global.b32
func.func @batch_norm_training(%x: tensor<8x64x28x28xf32>, %gamma: tensor<64xf32>, %beta: tensor<64xf32>,
                               %running_mean: tensor<64xf32>, %running_var: tensor<64xf32>)
    -> (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %init = tensor.empty() : tensor<8x64x28x28xf32>
  %mean = tensor.empty() : tensor<64xf32>
  %var = tensor.empty() : tensor<64xf32>
  %r:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<8x64x28x28xf32>)
      scale(%gamma : tensor<64xf32>) bias(%beta : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<8x64x28x28xf32>)
      saved(%mean, %var : tensor<64xf32>, tensor<64xf32>)
      running(%running_mean, %running_var : tensor<64xf32>, tensor<64xf32>)
      -> tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4
      : tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// BatchNorm inference f32: elementwise, a block per (n, channel) run of
// H·W (8·64 = 512), no block-wide reduction at all; rsqrt(var + ε) once per
// block.
// CHECK-LABEL: llvm.func @batch_norm_inference(
// CHECK-DAG: %[[GRID:.+]] = llvm.mlir.constant(512 : index) : i64
// CHECK-DAG: %[[THREADS:.+]] = llvm.mlir.constant(256 : index) : i64
// CHECK: gpu.launch_func @batch_norm_inference_kernel::@batch_norm_inference_kernel blocks in (%[[GRID]], %{{.+}}, %{{.+}}) threads in (%[[THREADS]], %{{.+}}, %{{.+}}) : i64
// CHECK-LABEL: llvm.func @_mlir_ciface_batch_norm_inference(
// CHECK: gpu.binary @batch_norm_inference_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "
// CHECK: .visible .entry batch_norm_inference_kernel(
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK: rsqrt.approx.f32
// CHECK-NOT: shfl.sync
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
func.func @batch_norm_inference(%x: tensor<8x64x28x28xf32>, %gamma: tensor<64xf32>, %beta: tensor<64xf32>,
                                %mean: tensor<64xf32>, %var: tensor<64xf32>) -> tensor<8x64x28x28xf32> {
  %init = tensor.empty() : tensor<8x64x28x28xf32>
  %y = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05
      ins(%x : tensor<8x64x28x28xf32>)
      scale(%gamma : tensor<64xf32>) bias(%beta : tensor<64xf32>) affine_dims = [1]
      stats(%mean, %var : tensor<64xf32>, tensor<64xf32>)
      outs(%init : tensor<8x64x28x28xf32>) -> tensor<8x64x28x28xf32>
  return %y : tensor<8x64x28x28xf32>
}

// -----

// LayerNorm f32 over rows of 256: a warp per row, 8 rows per block. The
// row is loaded once, two 16-byte vectors a lane, and every sum is a warp
// butterfly: no shared memory and no barrier in the kernel.
// CHECK-LABEL: llvm.func @short_layer_norm(
// CHECK: gpu.launch_func @short_layer_norm_kernel::@short_layer_norm_kernel
// CHECK: gpu.binary @short_layer_norm_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "
// CHECK: .visible .entry short_layer_norm_kernel(
// CHECK: .maxntid 256, 1, 1
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT: bar.sync
// CHECK: shfl.sync.bfly.b32 {{.+}}, 16, 31, -1;
// CHECK-NOT: bar.sync
// CHECK: rsqrt.approx.f32
// CHECK-NOT: bar.sync
// CHECK: st.global.v4.b32
func.func @short_layer_norm(%x: tensor<?x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x256xf32>
  %init = tensor.empty(%m) : tensor<?x256xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x256xf32>) scale(%g : tensor<256xf32>) bias(%b : tensor<256xf32>) affine_dims = [1]
      outs(%init : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}

// -----

// BatchNorm training with few channels: three kernels in one module,
// launched in order, sharing a workspace for the parts' partial sums that
// the call allocates on its stream (no device global: calls on two streams
// each have their own). The running statistics' copies come first.
// CHECK-LABEL: llvm.func @split_batch_norm(
// CHECK-COUNT-2: llvm.call @mgpuMemcpy(
// CHECK: %[[STREAM:.+]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuMemAlloc(%{{.+}}, %[[STREAM]], %{{.+}})
// CHECK: gpu.launch_func @[[MOD:[a-z0-9_]+_split[a-z0-9_]*]]_kernels::@[[MOD]]_partial
// CHECK: gpu.launch_func @[[MOD]]_kernels::@[[MOD]]_deviation
// CHECK: gpu.launch_func @[[MOD]]_kernels::@[[MOD]]_normalize
// CHECK: llvm.call @mgpuMemFree(%{{.+}}, %[[STREAM]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK: gpu.binary @[[MOD]]_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "
// CHECK-NOT: .global .align 4 .b8
// CHECK-DAG: .visible .entry [[MOD]]_partial(
// CHECK-DAG: .visible .entry [[MOD]]_deviation(
// CHECK-DAG: .visible .entry [[MOD]]_normalize(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
func.func @split_batch_norm(%x: tensor<32x64x56x56xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>,
                            %rm: tensor<64xf32>, %rv: tensor<64xf32>)
    -> (tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>) {
  %init = tensor.empty() : tensor<32x64x56x56xf32>
  %y:3 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05 momentum = 1.000000e-01 unbiased
      ins(%x : tensor<32x64x56x56xf32>) scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      outs(%init : tensor<32x64x56x56xf32>) running(%rm, %rv : tensor<64xf32>, tensor<64xf32>)
      -> tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>
  return %y#0, %y#1, %y#2 : tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// 65536 rows of 65536 (2^32 elements): the block's row offset is computed in
// 64 bits (block id, widened, times 2^18 bytes), and no 32-bit multiply
// computes an address.
// CHECK-LABEL: llvm.func @more_than_2_31_elements(
// CHECK: .visible .entry more_than_2_31_elements_kernel(
// CHECK-NOT: mul.lo.s32
// CHECK-NOT: mad.lo.s32
// CHECK: mov.u32 [[BLOCK:%r[0-9]+]], %ctaid.x;
// CHECK-NOT: mul.lo.s32
// CHECK: cvt.u64.u32 [[WIDE:%rd[0-9]+]], [[BLOCK]];
// CHECK-NOT: mul.lo.s32
// CHECK: shl.b64 %rd{{[0-9]+}}, [[WIDE]], 18;
// CHECK-NOT: mul.lo.s32
// CHECK-NOT: mad.lo.s32
// CHECK: ld.global.v4.b32
// CHECK-NOT: mul.lo.s32
// CHECK-NOT: mad.lo.s32
// CHECK: st.global.v4.b32
func.func @more_than_2_31_elements(%x: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
  %e = tensor.empty() : tensor<65536x65536xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<65536x65536xf32>) outs(%e : tensor<65536x65536xf32>) -> tensor<65536x65536xf32>
  return %y : tensor<65536x65536xf32>
}
