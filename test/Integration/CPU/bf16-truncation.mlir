// f32 -> bf16 truncation, run through norm-lower-to-cpu-pipeline: vectors
// narrowed by norm-expand-bf16-truncation's 16-bit shuffle (vector-bits=512)
// or by a shift and a truncation (256), and scalars, give the same bits,
// rounded to nearest even, on the edge cases: ties to even either way, a
// carry into the exponent and into Inf, NaNs (signalling ones made quiet,
// the sign kept), denormals and signed zeros. The bits come from a global
// so that nothing folds the truncation.
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=vector-bits=512 \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=vector-bits=256 \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: norm-opt %s -norm-lower-to-cpu-pipeline=vector-bits=512 \
// RUN: | FileCheck %s --check-prefix=IR

// 1.0, 1 + half an ulp (tie, even below), 1 + 3 half ulps (tie, even
// above), just above and below a tie, FLT_MAX (to Inf), -Inf, a quiet NaN,
// a signalling NaN, a negative NaN with every bit set, the smallest
// denormal, a denormal tie to zero, one to 2, -FLT_MIN's neighbour (carry
// into the exponent), -0.0, and pi.
memref.global "private" constant @bits : memref<16xi32> = dense<[
  1065353216, 1065385984, 1065451520, 1065385985, 1065385983, 2139095039,
  -8388608, 2143289344, 2139095041, -1, 1, 32768, 98304, -2139095041,
  -2147483648, 1078530011]>

// IR-LABEL: llvm.func @main
// IR: llvm.shufflevector {{.*}} [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xi16>
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.get_global @bits : memref<16xi32>
  %x = vector.load %m[%c0] : memref<16xi32>, vector<16xi32>
  %f = arith.bitcast %x : vector<16xi32> to vector<16xf32>
  %t = arith.truncf %f : vector<16xf32> to vector<16xbf16>
  %h = arith.bitcast %t : vector<16xbf16> to vector<16xi16>
  %u = arith.extui %h : vector<16xi16> to vector<16xi32>
  // CHECK: ( 16256, 16256, 16258, 16257, 16256, 32640, 65408, 32704, 32704, 65535, 0, 0, 2, 32896, 32768, 16457 )
  vector.print %u : vector<16xi32>
  // Scalars round the same way.
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant dense<0> : vector<16xi32>
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %z) -> vector<16xi32> {
    %xi = memref.load %m[%i] : memref<16xi32>
    %fi = arith.bitcast %xi : i32 to f32
    %ti = arith.truncf %fi : f32 to bf16
    %hi = arith.bitcast %ti : bf16 to i16
    %ui = arith.extui %hi : i16 to i32
    %next = vector.insert %ui, %acc [%i] : i32 into vector<16xi32>
    scf.yield %next : vector<16xi32>
  }
  // CHECK: ( 16256, 16256, 16258, 16257, 16256, 32640, 65408, 32704, 32704, 65535, 0, 0, 2, 32896, 32768, 16457 )
  vector.print %s : vector<16xi32>
  return
}
