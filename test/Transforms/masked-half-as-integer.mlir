// RUN: norm-opt %s -norm-masked-half-as-integer | FileCheck %s

// CHECK-LABEL: llvm.func @bf16_load_store
// CHECK-SAME: (%[[P:.+]]: !llvm.ptr, %[[M:.+]]: vector<16xi1>, %[[PT:.+]]: vector<16xbf16>)
// CHECK: %[[PTI:.+]] = llvm.bitcast %[[PT]] : vector<16xbf16> to vector<16xi16>
// CHECK: %[[L:.+]] = llvm.intr.masked.load %[[P]], %[[M]], %[[PTI]] {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xi16>) -> vector<16xi16>
// The bitcasts between the load and the store fold away.
// CHECK: llvm.intr.masked.store %[[L]], %[[P]], %[[M]] {alignment = 2 : i32} : vector<16xi16>, vector<16xi1> into !llvm.ptr
llvm.func @bf16_load_store(%p: !llvm.ptr, %m: vector<16xi1>, %pt: vector<16xbf16>) {
  %v = llvm.intr.masked.load %p, %m, %pt {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xbf16>) -> vector<16xbf16>
  llvm.intr.masked.store %v, %p, %m {alignment = 2 : i32} : vector<16xbf16>, vector<16xi1> into !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @f16_load_no_passthru
// CHECK: llvm.intr.masked.load %{{.+}}, %{{.+}} {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>) -> vector<8xi16>
// CHECK: llvm.bitcast %{{.+}} : vector<8xi16> to vector<8xf16>
llvm.func @f16_load_no_passthru(%p: !llvm.ptr, %m: vector<8xi1>) -> vector<8xf16> {
  %v = llvm.intr.masked.load %p, %m {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>) -> vector<8xf16>
  llvm.return %v : vector<8xf16>
}

// f32 is left alone.
// CHECK-LABEL: llvm.func @negative_f32
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.intr.masked.load {{.*}} -> vector<16xf32>
llvm.func @negative_f32(%p: !llvm.ptr, %m: vector<16xi1>) -> vector<16xf32> {
  %v = llvm.intr.masked.load %p, %m {alignment = 4 : i32} : (!llvm.ptr, vector<16xi1>) -> vector<16xf32>
  llvm.return %v : vector<16xf32>
}
