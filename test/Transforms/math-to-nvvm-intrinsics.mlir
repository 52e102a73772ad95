// RUN: norm-opt %s -norm-math-to-nvvm-intrinsics -split-input-file | FileCheck %s

// f32 fma, rsqrt and sqrt become an LLVM intrinsic and NVVM intrinsics, so
// convert-gpu-to-nvvm finds no libdevice call to make.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32, %[[C:.+]]: f32)
// CHECK: %[[FMA:.+]] = llvm.intr.fma(%[[A]], %[[B]], %[[C]]) : (f32, f32, f32) -> f32
// CHECK: %[[R:.+]] = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"(%[[FMA]]) : (f32) -> f32
// CHECK: %[[S:.+]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[R]]) : (f32) -> f32
// CHECK: return %[[S]]
func.func @scalars(%a: f32, %b: f32, %c: f32) -> f32 {
  %0 = math.fma %a, %b, %c : f32
  %1 = math.rsqrt %0 : f32
  %2 = math.sqrt %1 : f32
  return %2 : f32
}

// -----

// Vectors: fma as one vector intrinsic, rsqrt element by element.
// CHECK-LABEL: func.func @vectors
// CHECK: llvm.intr.fma(%{{.+}}, %{{.+}}, %{{.+}}) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK: %[[E0:.+]] = vector.extract %{{.+}}[0] : f32 from vector<2xf32>
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"(%[[E0]])
// CHECK: vector.insert %{{.+}}, %{{.+}} [0] : f32 into vector<2xf32>
// CHECK: %[[E1:.+]] = vector.extract %{{.+}}[1] : f32 from vector<2xf32>
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"(%[[E1]])
// CHECK: vector.insert %{{.+}}, %{{.+}} [1] : f32 into vector<2xf32>
// CHECK-NOT: math.
func.func @vectors(%a: vector<2xf32>) -> vector<2xf32> {
  %0 = math.fma %a, %a, %a : vector<2xf32>
  %1 = math.rsqrt %0 : vector<2xf32>
  return %1 : vector<2xf32>
}

// -----

// Other types and other math ops are left to convert-gpu-to-nvvm.
// CHECK-LABEL: func.func @negative_f64_and_exp
// CHECK: math.rsqrt %{{.+}} : f64
// CHECK: math.fma %{{.+}} : f16
// CHECK: math.exp %{{.+}} : f32
func.func @negative_f64_and_exp(%a: f64, %b: f16, %c: f32) -> (f64, f16, f32) {
  %0 = math.rsqrt %a : f64
  %1 = math.fma %b, %b, %b : f16
  %2 = math.exp %c : f32
  return %0, %1, %2 : f64, f16, f32
}
