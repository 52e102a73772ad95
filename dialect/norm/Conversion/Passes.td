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
    reductions and elementwise ops on tensors with the op's
    `AggregatedOpInterface::decomposeOperation`, the single source of truth
    of the op's semantics for every target:

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
    Option<"keepVectorKernels", "keep-vector-kernels", "bool",
           /*default=*/"false",
           "Leave the ops that have a CPU vector kernel (see "
           "convert-norm-to-vector) for bufferization and that kernel">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvertNormToVectorPass : Pass<"convert-norm-to-vector"> {
  let summary = "Lower memref-form norm.normalize to CPU vector kernels";
  let description = [{
    Rewrites every memref-form `norm.normalize` whose innermost dim (after
    expanding the GroupNorm channel dim) is reduced, with f32 accumulation,
    into one kernel:

    * consecutive dims of the same kind (reduced or not, indexing the affine
      parameters or not) are collapsed, so the innermost dim is one
      contiguous run and every operand a small view;
    * one `scf.parallel` over groups of statistics slices (rows for
      LayerNorm and RMSNorm, channels for BatchNorm, (n, group) for
      GroupNorm): as many slices as fit in 8 KiB, at most 8, chosen at run
      time. A group runs phase by phase: the first reduction pass of each
      slice, the second of each, the normalize pass of each; the slices'
      sums travel as lanes of vectors, and the statistics formulas run once
      per group on those vectors. The latency chains of short rows overlap;
      long slices make groups of one;
    * passes per slice: standard mode sums x, then the deviations d and
      d²; rms and l2 sum x² in one pass. These sums are first taken with the
      scale factor k = 1; only a slice whose sum of squares is not finite or
      below 2^-60 (huge, tiny, constant, NaN/Inf) takes max|x| for k and
      sums again, scaled. Scaling by a power of two is exact, so the result
      is the scaled one, bit for bit unless a negligible square underflowed;
    * per slice, reductions in `vector<W x f32>` with `accumulators`
      independent accumulators, in blocks: the tail (the last partial
      chunk) and the first block start the totals, later blocks join them
      compensated (Kahan); 32-bit partial vectors are masked; for 16-bit
      ones (AVX2 has no 16-bit masked load or store) a run of at least one
      vector uses its last whole vector (loaded before any store, lanes
      already counted zeroed, stored whole), shorter runs move element by
      element;
    * every loop but the normalize loops (one vector per iteration) carries
      an LLVM loop annotation against unrolling and vectorization: they are
      vectorized or unrolled here already, or run a few times per slice, and
      LLVM's copies of them cost compile time for nothing;
    * the statistics passes and the normalize pass of a slice run back to
      back, so it is read from DRAM once;
    * prefetches into L2: while the second reduction pass runs on a cached
      slice of at most 64 KiB, the same slice of the next group; while the
      normalize pass runs on a larger slice of at most 1 MiB, the next
      slice (the normalize pass reads each line for the last time, so the
      prefetched lines displace only finished ones, and DRAM works while
      the slice is normalized from cache). Outputs larger than 16 MiB are
      written with aligned streaming (non-temporal) stores where a run
      starts on a vector boundary;
    * f16 and bf16 widened to f32 in registers. bf16 is loaded two vectors
      at a time and widened by interleaving with zeros (an unpack per
      128-bit lane), which permutes the elements: sums do not mind, the
      normalize pass packs its two results back in order, and run
      parameters (γ, β along the run) are copied once per call, widened and
      permuted to match; no allocation, copy or call in the loops.

    The per-slice formulas are those of `convert-norm-to-linalg` (the same
    functions build them). Operands with a non-identity layout are copied to
    identity buffers around the kernel. A memref-form op with no kernel is
    an error; tensor-form ops are left alone.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Vector register width in bits (256: AVX2, 512: AVX-512)">,
    Option<"accumulators", "accumulators", "int64_t", /*default=*/"4",
           "Independent vector accumulators per statistic">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def ConvertNormToGPUPass : Pass<"convert-norm-to-gpu"> {
  let summary = "Lower memref-form norm.normalize to GPU kernels (gpu.launch)";
  let description = [{
    Rewrites every memref-form `norm.normalize` with f32 accumulation,
    f32/f16/bf16 operands of identity layout and ascending affine dims into
    one `gpu.launch` over the collapsed views of the op (the GroupNorm
    channel dim expanded, consecutive dims of one class collapsed, as for
    the CPU kernels):

    * computed statistics: a block per statistics slice. Its threads stride
      over the slice's innermost reduced dim (loops over the outer reduced
      dims); where that dim has fewer vectors than the block has threads
      (checked at run time for dynamic extents), only the least power of
      two covering them do, and the others stride over the first outer
      reduced dim. Each thread sums in registers, and each sum ends
      in a block-wide `gpu.all_reduce` (warp shuffles, then shared memory in
      workgroup attributions, never device malloc). A slice whose only
      reduced dim is the innermost one, of static extent, is loaded once
      into registers (at most 32 elements per thread, with up to 1024
      threads) and every pass reads those; other slices are read again from
      memory (L2) by each pass. Standard mode sums x,
      then d = k·(x − mean) and d²; rms and l2 sum (k·x)². The sums are
      first taken with k = 1; a slice whose sum of squares is not finite or
      below 2^-60 takes k from max|x| and sums again, scaled (the condition
      is uniform over the block). The statistics formulas are those of
      `convert-norm-to-linalg` (the same functions build them). The
      normalize pass then runs over the slice (registers or L2) and thread 0
      writes the saved and running statistics;
    * few long slices (fewer than 264, at least 16384 elements:
      BatchNorm's channels, one image's GroupNorm groups, a few long rows;
      decided here for static shapes, on the host at run time for dynamic
      ones) are split along their outermost reduced dim (a row along itself,
      in whole vectors) into parts of at least 8192 elements, a
      block each, over three launches in one kernel module that share a
      workspace allocated per call on the launches' stream (`gpu.alloc`):
      Σx and max|x| per part; then, with the
      slice's mean and scale factor k (from max|x|, always) combined from
      the parts in part order, Σd and Σd² per part; then the statistics and
      the normalize pass of each part, the first part writing the saved and
      running statistics;
    * given statistics: a block per run of the innermost dim, elementwise;
    * the innermost dim moves in vectors of `vector-bytes` (128-bit
      `ld.global.v4`/`st.global.v4` by default) when its extent is a
      multiple of the vector width and every operand moved along it is
      aligned to a vector, checked on the host at run time; otherwise
      element by element;
    * threads per block: `block-size`, or fewer (at least a warp) for
      short static slices, or more (up to 1024) where that keeps a static
      slice in registers; static slices of at most 512 elements take a warp
      each, 8 per block, their sums warp reductions (`gpu.subgroup_reduce`:
      shuffles only, no shared memory or barrier).

    Values the launch body uses are captured from the host function; after
    `gpu-kernel-outlining` they are kernel arguments. The host function's
    memrefs hold device pointers: a host `memref.copy` between contiguous
    buffers (bufferization copies the running statistics into their results)
    becomes a device-to-device `gpu.memcpy` ordered before the launches, and
    any other host op left that reads, writes or allocates memref memory
    (a `linalg.matmul` on the normalized operands, say) is an error, since
    the host would dereference device memory. A memref-form op with no
    kernel is an error; tensor-form ops are left alone.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block for long or dynamically sized slices">,
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"16",
           "Bytes per vector load and store along the innermost dim">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // NORM_CONVERSION_PASSES_TD
