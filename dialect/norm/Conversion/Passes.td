//===- Passes.td - norm conversion passes ------------------*- tablegen -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_PASSES_TD
#define NORM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNormToLinalgPass : Pass<"convert-norm-to-linalg"> {
  let summary = "Decompose norm.normalize into linalg on tensors";
  let description = [{
    Rewrites every `norm.normalize` (tensor form) into `linalg.generic`
    reductions and elementwise ops on tensors, the single source of truth of
    the op's semantics for every target:

    * statistics accumulated in the accumulation type (f32, or f64 for f64
      inputs), the variance centered: a reduction for the mean, then a
      reduction of squared deviations from it (never `E[x²] − E[x]²`);
    * `rstd = rsqrt(var + ε)` with ε inside the square root; `l2` divides by
      `max(‖x‖₂, ε)` and yields 0 for a zero slice;
    * GroupNorm by expanding the channel dim into `groups × C/groups`;
    * given statistics, saved statistics, the BatchNorm running update
      (with the unbiased factor `n/(n−1)`, 0 when `n == 1` at run time);
    * a cast epilogue to the output element type.

    The memref form is rejected with a diagnostic: lower the tensor form and
    bufferize afterwards.
  }];
  let options = [
    Option<"testPlantBug", "test-plant-bug", "std::string", /*default=*/"\"\"",
           "Testing only: plant a numerics bug to show the harness catches "
           "it: 'one-pass-variance' (E[x^2] - E[x]^2) or "
           "'narrow-accumulation' (accumulate in the input type)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // NORM_CONVERSION_PASSES_TD
