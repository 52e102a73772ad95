//===- NormOps.td - norm dialect operations ----------------*- tablegen -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_IR_NORMOPS_TD
#define NORM_IR_NORMOPS_TD

include "norm/IR/NormBase.td"
include "norm/IR/NormAttrs.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"
include "mlir/Dialect/Linalg/IR/LinalgInterfaces.td"
include "mlir/IR/OpBase.td"

def Norm_NormalizeOp : Norm_Op<"normalize", [
    AttrSizedOperandSegments,
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>,
    DeclareOpInterfaceMethods<TilingInterface,
      ["getIterationDomain",
       "getLoopIteratorTypes",
       "getTiledImplementation",
       "getResultTilePosition",
       "getIterationDomainTileFromResultTile",
       "generateResultTileValue",
       "getIterationDomainTileFromOperandTiles",
       "getTiledImplementationFromOperandTiles",
       "isOpFusableWithConsumerSlice",
       "isOpFusableWithProducerSlices"]>]> {
  let summary = "Normalize a tensor over a set of axes";
  let description = [{
    Computes, for every element of `input`,

    ```
    standard: y = γ · (x − mean) / sqrt(var + ε) + β
    rms:      y = γ · x / sqrt(mean(x²) + ε) + β
    l2:       y = γ · x / max(‖x‖₂, ε) + β      (0 where ‖x‖₂ = 0)
    ```

    where the statistics are taken over the reduction `axes` of `input`
    (any non-empty subset of its dims, not only trailing ones). `var` is the
    biased (population) variance, computed centered: the mean first, then the
    mean of squared deviations. Statistics are accumulated in `acc`
    (default: f32 for f16/bf16/f32 inputs, f64 for f64 inputs).

    **Statistics shape.** The statistics have one element per slice that is
    reduced: the shape of `input` with the reduction axes removed, except that
    with `groups = G on D` the group dim `D` (which must be among the axes)
    contributes `G` elements in its place. GroupNorm over NCHW with
    `axes = [1, 2, 3]` and `groups = 32 on 1` has statistics of shape
    `[N, 32]`; the `C / G` channels of a group are reduced with the spatial
    dims. Channels-last works the same with `on 3`.

    **Affine.** `scale` (γ) and `bias` (β) are optional. `affine_dims` lists,
    in order, the dims of `input` that index them: the scale has rank
    `size(affine_dims)` and `scale.shape[i] == input.shape[affine_dims[i]]`.
    LayerNorm uses the reduced dims, BatchNorm/InstanceNorm/GroupNorm the
    channel dim, weight normalization dim 0.

    **Given statistics.** With `stats(%mean, %var)` nothing is reduced: the
    op normalizes with the given (statistics-shaped) mean and variance, as
    BatchNorm inference does. Only `standard` mode takes given statistics.

    **Saved statistics.** `saved(...)` adds results with the statistics
    computed for the batch, for backward passes: `mean` and `rstd`
    (`1/sqrt(var + ε)`) in `standard` mode, or `mean` and the biased batch
    variance with `saved_variance`; `rstd` alone in `rms` mode
    (`1/sqrt(mean(x²) + ε)`) and `1/max(‖x‖₂, ε)` alone in `l2` mode.

    **Training.** `running(%running_mean, %running_var)` makes the op a
    BatchNorm training step: the output is normalized with the batch
    statistics and the running statistics (read from those inits) are
    updated as `running ← (1 − momentum) · running + momentum · batch`
    (PyTorch's convention; ONNX's momentum is `1 − momentum`). With
    `unbiased` the variance that enters the running update is multiplied by
    `n / (n − 1)`, `n` being the number of reduced elements (PyTorch);
    without it the biased variance is used (ONNX). A statically known `n` of
    1 with `unbiased` is rejected; a dynamic `n` of 1 updates the running
    variance with a variance of 0 instead of producing NaN.

    **Output.** The output has the shape of `input`; its element type may be
    narrower than the input's (a cast epilogue). The op is in destination
    passing style: `outs` holds the output init, then the `saved` inits, then
    the running statistics. On tensors it returns one result per init; on
    memrefs it writes the inits and returns nothing.

    **Tiling and decomposition.** The op implements `TilingInterface` over
    the dims of `input`: the dims that are not in `axes` are parallel, the
    axes are reductions and can only be taken whole, so a tile is a
    `norm.normalize` on whole slices. The statistics-shaped operands and
    results are tiled by the parallel dims they are indexed by; the
    `groups` dim of GroupNorm is one of the axes, so GroupNorm tiles over
    its other (batch) dims only and keeps each group whole. With given
    statistics (`mean`/`variance` operands) nothing is reduced: every dim is
    parallel and a tile may split the axes too (GroupNorm still keeps its
    groups whole). It implements
    `AggregatedOpInterface`: `decomposeOperation` gives the linalg form on
    tensors, which carries the numerics of every target.

    **Cosine normalization** is the composition of two `l2` normalizations,
    one per operand, and a matmul: each norm is clamped by ε separately.
    `norm::buildCosineNorm` builds it.

    Examples (one per variant):

    ```mlir
    // LayerNorm over the last dim.
    %0 = norm.normalize standard axes = [1] epsilon = 1.0e-05
        ins(%x : tensor<?x768xf32>)
        scale(%g : tensor<768xf32>) bias(%b : tensor<768xf32>) affine_dims = [1]
        outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>

    // RMSNorm, f16 in and out, f32 accumulation (the default).
    %1 = norm.normalize rms axes = [1] epsilon = 1.0e-06
        ins(%h : tensor<8x4096xf16>) scale(%w : tensor<4096xf16>) affine_dims = [1]
        outs(%hi : tensor<8x4096xf16>) -> tensor<8x4096xf16>

    // BatchNorm inference: given statistics, elementwise.
    %2 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05
        ins(%a : tensor<32x64x56x56xf32>)
        scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
        stats(%m, %v : tensor<64xf32>, tensor<64xf32>)
        outs(%ai : tensor<32x64x56x56xf32>) -> tensor<32x64x56x56xf32>

    // BatchNorm training with a PyTorch-style running update.
    %3:5 = norm.normalize standard axes = [0, 2, 3] epsilon = 1.0e-05
        momentum = 1.000000e-01 unbiased saved_variance
        ins(%a : tensor<32x64x56x56xf32>)
        scale(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) affine_dims = [1]
        outs(%ai : tensor<32x64x56x56xf32>)
        saved(%sm, %sv : tensor<64xf32>, tensor<64xf32>)
        running(%rm, %rv : tensor<64xf32>, tensor<64xf32>)
        -> tensor<32x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>,
           tensor<64xf32>, tensor<64xf32>

    // GroupNorm, 32 groups on the channel dim of NCHW.
    %4 = norm.normalize standard axes = [1, 2, 3] epsilon = 1.0e-05
        groups = 32 on 1
        ins(%c : tensor<2x320x64x64xf32>)
        scale(%g : tensor<320xf32>) bias(%b : tensor<320xf32>) affine_dims = [1]
        outs(%ci : tensor<2x320x64x64xf32>) -> tensor<2x320x64x64xf32>

    // L2 normalization (PyTorch F.normalize over dim 1).
    %5 = norm.normalize l2 axes = [1] epsilon = 1.0e-12
        ins(%e : tensor<16x128xf32>) outs(%ei : tensor<16x128xf32>)
        -> tensor<16x128xf32>
    ```
  }];

  let arguments = (ins
    AnyShaped:$input,
    Optional<AnyShaped>:$scale,
    Optional<AnyShaped>:$bias,
    Optional<AnyShaped>:$mean,
    Optional<AnyShaped>:$variance,
    AnyShaped:$output,
    Variadic<AnyShaped>:$saved,
    Optional<AnyShaped>:$running_mean,
    Optional<AnyShaped>:$running_var,
    Norm_ModeAttr:$mode,
    DenseI64ArrayAttr:$axes,
    F64Attr:$epsilon,
    OptionalAttr<DenseI64ArrayAttr>:$affine_dims,
    OptionalAttr<I64Attr>:$groups,
    OptionalAttr<I64Attr>:$group_dim,
    OptionalAttr<F64Attr>:$momentum,
    UnitAttr:$unbiased,
    UnitAttr:$saved_variance,
    OptionalAttr<TypeAttr>:$acc_type
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);

  let assemblyFormat = [{
    $mode `axes` `=` $axes `epsilon` `=` $epsilon
    (`groups` `=` $groups^ `on` $group_dim)?
    (`momentum` `=` $momentum^)?
    (`unbiased` $unbiased^)?
    (`saved_variance` $saved_variance^)?
    (`acc` `=` $acc_type^)?
    attr-dict
    custom<ClauseKeyword>(ref($epsilon), "\"ins\"")
    `(` $input `:` type($input) `)`
    (`scale` `(` $scale^ `:` type($scale) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`affine_dims` `=` $affine_dims^)?
    (`stats` `(` $mean^ `,` $variance `:` type($mean) `,` type($variance) `)`)?
    custom<ClauseKeyword>(ref($epsilon), "\"outs\"")
    `(` $output `:` type($output) `)`
    (`saved` `(` $saved^ `:` type($saved) `)`)?
    (`running` `(` $running_mean^ `,` $running_var `:` type($running_mean) `,`
                 type($running_var) `)`)?
    (`->` type($results)^)?
  }];

  let extraClassDeclaration = [{
    /// The inits are contiguous: output, saved statistics, running statistics.
    MutableOperandRange getDpsInitsMutable();

    ShapedType getInputType() { return cast<ShapedType>(getInput().getType()); }
    ShapedType getOutputType() {
      return cast<ShapedType>(getOutput().getType());
    }
    int64_t getRank() { return getInputType().getRank(); }

    /// True when the statistics are computed from the input (not given).
    bool hasComputedStatistics() { return !getMean(); }
    /// True for a BatchNorm training step (running statistics updated).
    bool isTraining() { return static_cast<bool>(getRunningMean()); }
    /// True when `d` is one of the reduction axes.
    bool isReductionAxis(int64_t d) { return llvm::is_contained(getAxes(), d); }

    /// The element type statistics are accumulated in.
    FloatType getAccumulationType();
    /// For each statistics dim, the input dim it stands for, or -1 for the
    /// `groups` dim (whose extent is `groups`).
    static SmallVector<int64_t>
    getStatisticsDims(int64_t rank, ArrayRef<int64_t> axes,
                      std::optional<int64_t> groupDim);
    SmallVector<int64_t> getStatisticsDims() {
      return getStatisticsDims(getRank(), getAxes(),
                               getGroups() ? getGroupDim() : std::nullopt);
    }
    /// The number of input elements reduced into one statistic, or
    /// ShapedType::kDynamic when not statically known.
    int64_t getStaticReductionSize();
    /// The number of `saved` results the mode expects.
    unsigned getExpectedNumSaved() {
      return getMode() == NormMode::standard ? 2 : 1;
    }
  }];

  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

#endif // NORM_IR_NORMOPS_TD
