//===- NormBase.td - norm dialect definition ---------------*- tablegen -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMBASE_TD
#define NORM_IR_NORMBASE_TD

include "mlir/IR/OpBase.td"

def Norm_Dialect : Dialect {
  let name = "norm";
  let cppNamespace = "::mlir::norm";
  let summary = "Normalization kernels: one op for the whole family";
  let description = [{
    The `norm` dialect captures the normalization framework

    ```
    y = γ · (x − μ) / sqrt(σ² + ε) + β
    ```

    with statistics taken over a set of axes, in one op, `norm.normalize`.
    BatchNorm (inference and training), LayerNorm, RMSNorm, InstanceNorm,
    GroupNorm, weight normalization, L2 normalization and (by composition)
    cosine normalization are all instances of it. The op lowers through
    `linalg` to vectorized, multi-threaded CPU code and to NVVM.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

class Norm_Op<string mnemonic, list<Trait> traits = []>
    : Op<Norm_Dialect, mnemonic, traits>;

#endif // NORM_IR_NORMBASE_TD
