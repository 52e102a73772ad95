// RUN: norm-opt %s -norm-lower-subgroup-reduce -split-input-file | FileCheck %s
// RUN: not norm-opt %s -split-input-file -norm-lower-subgroup-reduce="subgroup-size=24" 2>&1 | FileCheck %s --check-prefix=SIZE

// SIZE: norm-lower-subgroup-reduce: subgroup-size must be a power of two, got 24

// An f32 warp sum becomes a butterfly of five xor shuffles (offsets 1 to
// 16 over 32 lanes), each followed by an add.
// CHECK-LABEL: gpu.func @warp_sum
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: gpu.shuffle  xor %{{.+}}, %c1_i32, %c32_i32 : f32
// CHECK: arith.addf
// CHECK: gpu.shuffle  xor %{{.+}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.+}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.+}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.+}}, %c16_i32, %c32_i32 : f32
// CHECK: %[[SUM:.+]] = arith.addf
// CHECK: gpu.return %[[SUM]]
gpu.module @kernels {
  gpu.func @warp_sum(%v: f32) -> f32 {
    %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    gpu.return %r : f32
  }
}

// -----

// The integer max of the magnitude bits, likewise with maxsi.
// CHECK-LABEL: gpu.func @warp_max
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: arith.maxsi
// CHECK-NOT: gpu.subgroup_reduce
gpu.module @kernels {
  gpu.func @warp_max(%v: i32) -> i32 {
    %r = gpu.subgroup_reduce maxsi %v uniform : (i32) -> i32
    gpu.return %r : i32
  }
}
