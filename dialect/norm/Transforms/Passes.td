//===- Passes.td - norm transformation passes --------------*- tablegen -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_PASSES_TD
#define NORM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NormCompensateSumsPass : Pass<"norm-compensate-sums"> {
  let summary = "Accumulate linalg sum reductions with Kahan compensation";
  let description = [{
    Rewrites every `linalg.generic` on tensors that reduces by `addf` into
    its destination into a Kahan-compensated sum: a second accumulator
    carries the rounding error of each addition into the next one, so the
    error of a long reduction no longer grows with its length. Strategies
    that accumulate serially (the loop-based CPU lowering) need this to meet
    numerics.md's tolerance on long rows. A non-finite partial sum resets
    the compensation, so Inf and NaN propagate as in a plain sum.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def NormVectorizeElementwisePass : Pass<"norm-vectorize-elementwise"> {
  let summary = "Tile and vectorize elementwise linalg.generic ops on tensors";
  let description = [{
    Tiles every all-parallel `linalg.generic` on tensors to `vector-size`
    elements of its innermost dim (1 in the others) with `scf.for`, and
    vectorizes each tile with masks, so tails and dynamic extents need no
    scalar epilogue. Reductions are left to the strategy that owns their
    accumulation order.
  }];
  let options = [
    Option<"vectorSize", "vector-size", "int64_t", /*default=*/"16",
           "Elements per vector along the innermost dim">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def NormTileAndVectorizePass : Pass<"norm-tile-and-vectorize"> {
  let summary = "Tile norm.normalize over threads and vectorize its linalg "
                "form";
  let description = [{
    The CPU strategy for `norm.normalize` ops (tensor form) whose innermost
    dim is not reduced: BatchNorm over `[N, C]`, NHWC BatchNorm and
    InstanceNorm, any normalization whose statistics run along the
    innermost dim. Each op is decomposed through `AggregatedOpInterface`
    and its linalg ops are tiled with `scf.forall` (the threads), then
    tiled to vector rows (`scf.for` over all dims but the innermost), their
    unit dims folded and vectorized with `linalg::vectorize` (masked for
    dynamic or partial tiles), one vector of four registers per row step:

    - Given statistics (BatchNorm inference): the op is elementwise; its
      normalize step is tiled into blocks of whole rows (about 64 KiB), so
      that each thread streams contiguous memory. The per-channel maps stay
      outside the loop.
    - Computed statistics over leading dims (BatchNorm training over
      `[N, C]` and NHWC), with `computed-statistics`: each reduction, its
      reduced dims collapsed into one, is split into chunks of rows on
      `scf.forall` with upstream's partial reductions
      (`PartialReductionOuterParallel`); a chunk streams its rows, four per
      step, into Kahan-compensated partial sums held contiguously, and the
      partials are merged in chunk order after the loop (one loop nest for
      all of a split's merges). The chunk size depends on
      the shape only (at least 256 KiB, at most 256 chunks), so the result
      is bitwise the same for every thread count.
    - Other computed statistics (NHWC InstanceNorm), with
      `computed-statistics`: `TilingInterface` tiles the op over its
      parallel dims (the innermost by up to `vectors-per-tile` vectors),
      the tile is decomposed, and each reduction is one loop over the rows
      with its compensated accumulators hoisted into vector iteration
      arguments.

    - Computed statistics over the innermost dims (LayerNorm, RMSNorm,
      NCHW InstanceNorm, GroupNorm and BatchNorm), with `row-statistics`:
      GroupNorm's group dim is expanded into [G, C/G] (`expandGroups`), runs
      of reduced dims are collapsed into one (`collapseReducedDims`:
      InstanceNorm's H·W), then one slice per `scf.forall` iteration (a
      GroupNorm slice, [C/G, H·W], is reduced as one contiguous row; a
      BatchNorm slice, [N, H·W], as N rows in a loop), decomposed
      on the tile with the scaled pass tried at k = 1 first (for the
      centered pass, in an `scf.while` that runs it once more, after max|x|,
      only for out-of-range rows; for the others, max|x| and the pass again
      under an `scf.if`). Each pass
      over the row runs in blocks of 64 steps of four-vector partial sums
      (upstream's `PartialReductionOuterReduction`, the partial last step
      peeled and masked, under an `scf.if` on its length, so that a row of
      whole steps skips it); a block ends in one horizontal reduction and the
      blocks' totals join in compensated (Kahan) scalars. The statistics
      stay in registers. The normalize step runs in whole vectors, peeled
      from a masked last step (see norm-stream-stores). Short rows (one
      reduced innermost dim of a static length) take tiles of `rows` rows
      instead, the most (a power of two up to the vector's f32 lanes, at
      least 8) that fit in 4 KiB: each row is reduced in its own loop into
      a lane of the tile's vectors of statistics, whose steps (the
      divisions, the retry test, the square roots) then run once per tile;
      the last M mod `rows` rows take a second `scf.forall`, one per
      iteration.

    Other ops that reduce their innermost dim (a GroupNorm whose group dim
    is not the first reduced one) and the memref form are left as they
    are.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Vector width in bits">,
    Option<"vectorsPerTile", "vectors-per-tile", "int64_t", /*default=*/"16",
           "Vectors along the innermost dim per tile (independent "
           "accumulators)">,
    Option<"computedStatistics", "computed-statistics", "bool",
           /*default=*/"false",
           "Also take the ops that compute their statistics (faster than "
           "serial loops only on several threads)">,
    Option<"rowStatistics", "row-statistics", "bool", /*default=*/"false",
           "Also take the ops that compute their statistics over their "
           "innermost dims (LayerNorm, RMSNorm, NCHW InstanceNorm, GroupNorm "
           "and BatchNorm): one slice per thread tile">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def NormExpandBF16TruncationPass : Pass<"norm-expand-bf16-truncation"> {
  let summary = "f32 -> bf16 truncation as integer rounding; vectors narrowed "
                "by one 16-bit shuffle at 512 bits";
  let description = [{
    Rewrites `arith.truncf` f32 -> bf16 (to nearest even; scalars and
    vectors) into the rounding on the bits (`x + 0x7fff + bit 16 of x`, a
    NaN kept quiet with its sign: `buildBF16RoundedBits`, the rounding the
    vector kernels use too), so that every target rounds the same way
    (`arith-expand-ops` would make every NaN a positive one), then the
    upper 16-bit half of each lane. At `vector-bits` >= 512, 1-D vectors
    take that half by one `vector.shuffle` of the 16-bit halves: with
    AVX-512BW one `vpermt2w` per 32 results, where a shift and a
    truncation take a shift and a `vpmovdw` (two µops) per 16 and an insert
    per 32. Narrower targets shift and truncate, which LLVM lowers to packs
    there (shorter than the byte shuffles a 16-bit shuffle becomes with
    AVX2). Other rounding modes and `extf` (a zero-extension and a shift,
    which beat `vpermt2w`) are left to `arith-expand-ops`; run it before
    that pass. The halves are those of a little-endian target.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Vector width of the target in bits (the shuffle from 512)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def NormMaskedHalfAsIntegerPass : Pass<"norm-masked-half-as-integer"> {
  let summary = "Masked loads and stores of 16-bit floats as 16-bit integers";
  let description = [{
    Rewrites `llvm.intr.masked.load` and `llvm.intr.masked.store` of f16 and
    bf16 vectors into the same operations on i16 vectors plus bitcasts.
    Targets without native 16-bit float vectors (AVX2) widen those types
    through libcalls (`__truncsfbf2`, `__truncsfhf2`); a masked move of the
    bits needs none.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NormMathToNVVMIntrinsicsPass : Pass<"norm-math-to-nvvm-intrinsics"> {
  let summary = "f32 fma, rsqrt and sqrt as NVVM intrinsics, not libdevice "
                "calls";
  let description = [{
    Rewrites f32 `math.fma` into `llvm.intr.fma` and f32 `math.rsqrt` and
    `math.sqrt` (scalars, or vectors element by element) into the NVVM
    intrinsics `llvm.nvvm.rsqrt.approx.f` and `llvm.nvvm.sqrt.rn.f`, the
    instructions libdevice's `__nv_rsqrtf` and `__nv_sqrtf` come down to.
    `convert-gpu-to-nvvm` would otherwise call libdevice for them, and a
    module compiled where libdevice is not found would carry unresolved
    `.extern .func __nv_*` the driver cannot load. Run it on `gpu.module`s
    before `convert-gpu-to-nvvm`; other math ops are left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def NormLowerSubgroupReducePass : Pass<"norm-lower-subgroup-reduce"> {
  let summary = "gpu.subgroup_reduce as butterfly shuffles";
  let description = [{
    Rewrites `gpu.subgroup_reduce` into `gpu.shuffle xor` steps over the
    subgroup (vectors broken into 32-bit pieces first). MLIR 22.1's
    `convert-gpu-to-nvvm` lowers subgroup reductions only to
    `nvvm.redux.sync`, for 32-bit integers on sm_80+ and only when asked;
    a floating-point warp sum is otherwise left illegal. Run it on
    `gpu.module`s before `convert-gpu-to-nvvm`.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "Threads per subgroup (32: an NVIDIA warp)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def NormStreamStoresPass : Pass<"norm-stream-stores", "::mlir::func::FuncOp"> {
  let summary = "Streaming (non-temporal) stores for outputs larger than the "
                "caches";
  let description = [{
    After bufferization: an `scf.for` whose body writes one whole, unmasked
    1-D vector per step (`vector.transfer_write`, in bounds, of a multiple of
    64 bytes) at the loop's induction variable (directly, or into a
    unit-stride subview taken in the step at it), into a buffer that is (a
    view of) an argument of the function of at least `min-bytes`, is
    versioned: where the first store's address is 64-byte aligned and the
    innermost stride is 1 (checked at run time, with the size when it is
    dynamic), a copy of the loop writes with `vector.store` `nontemporal`,
    aligned to 64 bytes, so that a large output is written without being
    read for ownership first; otherwise the loop runs as it was. The
    arguments a function writes are its outputs (inputs are read-only, see
    norm-read-only-arguments). Used on the whole-vector elementwise loops
    that norm-tile-and-vectorize peels (the rows' normalize step, the row
    blocks of given statistics).
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"int64_t(16) << 20",
           "Smallest output (bytes) whose stores stream: about half the L3 of "
           "the machines this targets">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def NormPrefetchNextSlicePass
    : Pass<"norm-prefetch-next-slice", "::mlir::func::FuncOp"> {
  let summary = "Prefetch the next statistics slice while later passes run "
                "over the current one";
  let description = [{
    After bufferization, in an `scf.forall` whose iterations each take one
    slice of an input (the row strategy of norm-tile-and-vectorize): the
    slice's first pass stalls on memory while its later passes run from
    L1/L2 with no read of memory in flight. The pass finds the `scf.for`
    loops of the forall body that read a function argument (or a view of
    one defined outside the forall) with `vector.transfer_read` of whole
    1-D vectors at indices that hold a forall induction variable (or, for
    a tile of short rows read a row per step of a loop, an `affine.apply`
    linear in it: `iv * rows + r` for a constant `rows`, or `iv + r` in a
    forall that steps by the tile's rows, upstream tiling's form, where the
    rows may be a run-time count; the next tile's row is `rows` on, clamped
    to the last row since the last tile may have fewer, and a slice is the
    tile's rows),
    the innermost index moving with the loop;
    loops under an `scf.if` that
    yields values (the rescaled retry, which few slices take) do not count.
    A loop's pass is one more than the deepest pass whose results it uses
    (none: the first pass); a pass made in blocks (a first block, then a
    loop over the others) is several loops of one pass. Where a slice is at
    most `second-pass-bytes`, the loops of the second pass (the centered
    sums; for RMSNorm and L2, which have one reduction pass, the writing
    one) also issue `memref.prefetch` (read, locality 2: into L2) of the
    same elements of the next slice (the innermost forall variable plus its
    step, clamped to the last slice), one per 64-byte line read; where it is
    larger but at most `last-pass-bytes`, the loops that also write the
    function's outputs (the normalize step) do, so that the prefetched
    lines do not evict the slice before its last pass. The size is known statically or
    chosen at run time (the prefetch then targets the current slice, which
    is cached). Larger slices are left to the hardware prefetchers.
  }];
  let options = [
    Option<"secondPassBytes", "second-pass-bytes", "int64_t",
           /*default=*/"int64_t(64) << 10",
           "Largest slice (bytes) prefetched during the second pass">,
    Option<"lastPassBytes", "last-pass-bytes", "int64_t",
           /*default=*/"int64_t(1) << 20",
           "Largest slice (bytes) prefetched during the writing pass">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def NormDistinctResultsPass
    : Pass<"norm-distinct-results", "::mlir::ModuleOp"> {
  let summary = "Give each tensor result of a public function its own value";
  let description = [{
    Where a public `func.func` returns the same tensor value more than once
    (two saved statistics that fold to one empty tensor, say), the later
    occurrences return a `linalg.copy` of it. Each result then becomes its
    own out-parameter after bufferization; upstream
    `buffer-results-to-out-params` cannot hand one buffer to two.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def NormExpandReshapedAllocsPass : Pass<"norm-expand-reshaped-allocs"> {
  let summary = "Allocate buffers in the shape they are expanded to";
  let description = [{
    Rewrites `memref.expand_shape` of a `memref.alloc` (identity layouts)
    into an alloc of the expanded shape, which the alloc's other users see
    through a `memref.collapse_shape`. A function that computes in a
    collapsed shape (an op whose reduced dims were collapsed into one) and
    returns the result expanded then returns the alloc itself, which
    `buffer-results-to-out-params` replaces by the out-parameter: the result
    is written in place instead of copied. Runs after bufferization and
    before the out-parameters and the deallocation pipeline. An expansion
    whose dynamic sizes are not defined before the alloc is left alone.
    `memref.expand_shape` of a `memref.collapse_shape` that restores the
    source's sizes (proven with value bounds) folds to the source, dynamic
    dims included.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NormReadOnlyArgumentsPass
    : Pass<"norm-read-only-arguments", "::mlir::ModuleOp"> {
  let summary = "Mark the tensor arguments of public functions read-only";
  let description = [{
    Sets `bufferization.writable = false` on every tensor argument of every
    public `func.func`. Tensor arguments are values: after bufferization the
    caller's buffers must not be written, even where an op updates its init
    in place (the running statistics of BatchNorm training are read from an
    argument and returned updated). One-shot bufferization then copies
    instead of writing through the argument.
  }];
}

def NormRaiseFromLinalgPass : Pass<"norm-raise-from-linalg"> {
  let summary = "Raise normalizations written in linalg to norm.normalize";
  let description = [{
    Recognizes LayerNorm, RMSNorm, InstanceNorm, BatchNorm (inference, and
    training without a running update) and GroupNorm written as chains of
    linalg ops on tensors (`linalg.generic`, `linalg.reduce`,
    `linalg.broadcast`, `linalg.fill`, the named elementwise ops) with
    `arith` and `math` bodies, as frontends decompose them, and replaces
    each chain by one `norm.normalize`:

    - the mean is a sum reduction into a zero init divided by (or
      multiplied with the reciprocal of) the reduced element count N, a
      constant, or for dynamic extents the `tensor.dim`s of the reduced
      dims converted with `arith.sitofp`;
    - the variance is the mean of centered squares `(x - mean)^2`, or, for
      RMSNorm, the mean of `x^2`; BatchNorm inference takes the mean and
      variance as given tensors (`stats(...)`);
    - the constant epsilon is added to the variance, then `rsqrt`, or
      `sqrt` and a division;
    - an optional scale and bias are broadcast along the dims they index
      (`affine_dims`), reduced or not (InstanceNorm's per-channel affine
      over NCHW is `affine_dims = [1]`), in any order;
    - GroupNorm reduces a `tensor.expand_shape` that splits the channel dim
      into `[G, C/G]` and collapses the result back (`groups = G on C`);
      its affine is applied after the collapse.

    Values of the chain that are exactly the mean or the rstd
    `1/sqrt(var + eps)` (rms: `1/sqrt(mean(x^2) + eps)`) the op computes,
    in the accumulation type, and that are used after the chain (torch's
    `native_layer_norm`, `native_group_norm` and `native_batch_norm` return
    them) are replaced by the op's `saved(...)` results, through a
    `tensor.expand_shape` for keepdim shapes. Uses before the raised op, and
    anything else (a variance, `sqrt(var + eps)`, a statistic in another
    type or with another epsilon), keep their linalg chains.

    The chain is raised only when it computes exactly what the op does: the
    statistics are reduced over the dims they are broadcast along, the
    divisor is the reduced element count, epsilon is a constant inside the
    square root, and the arithmetic is in f32 (f64) with 16-bit inputs
    widened by `arith.extf` (a final `arith.truncf` gives the output type).
    Anything else is left untouched. Intermediate results that become dead
    are erased.

    The one-pass variance `E[x^2] - E[x]^2` is raised only with
    `allow-unstable-variance`: the op computes the centered variance, which
    changes (improves) the numerics of the program. With it, an rstd
    computed from the one-pass variance is also replaced by the saved one.
  }];
  let options = [
    Option<"allowUnstableVariance", "allow-unstable-variance", "bool",
           /*default=*/"false",
           "Also raise the variance computed as E[x^2] - E[x]^2">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::norm::NormDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // NORM_TRANSFORMS_PASSES_TD
