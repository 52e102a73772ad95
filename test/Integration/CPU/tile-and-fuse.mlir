// norm.normalize tiled and fused with upstream's transform ops: a linalg.add
// producer and a ReLU consumer in one scf.forall over row tiles, the norm
// decomposed on its tile; run under mlir-runner and compared with the same
// computation left whole (lowered by the pipeline alone).
// RUN: norm-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/tile-and-fuse-schedule.mlir --transform-interpreter -canonicalize -cse | FileCheck %s --check-prefix=FUSED
// RUN: norm-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/tile-and-fuse-schedule.mlir --transform-interpreter -norm-lower-to-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// FUSED-LABEL: func.func @fused
// FUSED: scf.forall (%{{.+}}) = (0) to (16) step (4)
// FUSED-NOT: scf.forall
// FUSED: linalg.add ins({{.*}} : tensor<4x64xf32>, tensor<4x64xf32>)
// FUSED-NOT: norm.normalize
// FUSED: iterator_types = ["parallel", "reduction"]
// FUSED: math.rsqrt
// FUSED: arith.maximumf
// FUSED: scf.forall.in_parallel
// FUSED-LABEL: func.func @whole
// FUSED: norm.normalize

// Max |fused − whole| ≤ 1e-5, and the outputs are not all zero.
// CHECK: [1]
// CHECK: [1]

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(memref<*xf32>)

func.func @fused(%x: tensor<16x64xf32>, %r: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %s = linalg.add ins(%x, %r : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %n = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%s : tensor<16x64xf32>) scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) attrs = {fuse_root} {
  ^bb0(%v: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

func.func @whole(%x: tensor<16x64xf32>, %r: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %s = linalg.add ins(%x, %r : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %n = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%s : tensor<16x64xf32>) scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
      outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// An offset, uneven pattern: x[i, j] = 100 + ((7i + 13j) mod 17) − 8,
// r[i, j] = ((5i + 3j) mod 11) / 4; γ[j] = 1 + j/64, β[j] = j/128 − 0.25.
func.func @inputs() -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<16x64xf32>
  %x, %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      outs(%e, %e : tensor<16x64xf32>, tensor<16x64xf32>) {
  ^bb0(%o0: f32, %o1: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %c17 = arith.constant 17 : index
    %i7 = arith.muli %i, %c7 : index
    %j13 = arith.muli %j, %c13 : index
    %a = arith.addi %i7, %j13 : index
    %am = arith.remui %a, %c17 : index
    %i5 = arith.muli %i, %c5 : index
    %j3 = arith.muli %j, %c3 : index
    %bb = arith.addi %i5, %j3 : index
    %bm = arith.remui %bb, %c11 : index
    %ai = arith.index_cast %am : index to i64
    %bi = arith.index_cast %bm : index to i64
    %af = arith.uitofp %ai : i64 to f32
    %bf = arith.uitofp %bi : i64 to f32
    %c92 = arith.constant 92.0 : f32
    %q = arith.constant 0.25 : f32
    %xv = arith.addf %af, %c92 : f32
    %rv = arith.mulf %bf, %q : f32
    linalg.yield %xv, %rv : f32, f32
  } -> (tensor<16x64xf32>, tensor<16x64xf32>)
  %e1 = tensor.empty() : tensor<64xf32>
  %g, %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e1, %e1 : tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%o0: f32, %o1: f32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.uitofp %ji : i64 to f32
    %one = arith.constant 1.0 : f32
    %s64 = arith.constant 0.015625 : f32
    %s128 = arith.constant 0.0078125 : f32
    %q = arith.constant 0.25 : f32
    %g0 = arith.mulf %jf, %s64 : f32
    %gv = arith.addf %one, %g0 : f32
    %b0 = arith.mulf %jf, %s128 : f32
    %bv = arith.subf %b0, %q : f32
    linalg.yield %gv, %bv : f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>)
  return %x, %r, %g, %b : tensor<16x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
}

func.func @main() {
  %x, %r, %g, %b = func.call @inputs() : () -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>)
  %y0 = func.call @fused(%x, %r, %g, %b) : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
  %y1 = func.call @whole(%x, %r, %g, %b) : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %total = linalg.generic {indexing_maps = [#id, #id, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y0, %y1 : tensor<16x64xf32>, tensor<16x64xf32>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %c: f32, %m: f32, %t: f32):
    %d0 = arith.subf %a, %c : f32
    %d = math.absf %d0 : f32
    %mx = arith.maximumf %m, %d : f32
    %aa = math.absf %a : f32
    %tt = arith.addf %t, %aa : f32
    linalg.yield %mx, %tt : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %tol = arith.constant 1.0e-05 : f32
  %min = arith.constant 100.0 : f32
  %flags = tensor.empty() : tensor<1xf32>
  %ok0 = tensor.extract %diff[] : tensor<f32>
  %ok1 = tensor.extract %total[] : tensor<f32>
  %c0 = arith.cmpf ole, %ok0, %tol : f32
  %c1 = arith.cmpf oge, %ok1, %min : f32
  %f0 = arith.uitofp %c0 : i1 to f32
  %f1 = arith.uitofp %c1 : i1 to f32
  %t0 = tensor.from_elements %f0 : tensor<1xf32>
  %t1 = tensor.from_elements %f1 : tensor<1xf32>
  %m0 = bufferization.to_buffer %t0 : tensor<1xf32> to memref<1xf32>
  %m1 = bufferization.to_buffer %t1 : tensor<1xf32> to memref<1xf32>
  %u0 = memref.cast %m0 : memref<1xf32> to memref<*xf32>
  %u1 = memref.cast %m1 : memref<1xf32> to memref<*xf32>
  func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  return
}
