//===- Transforms.h - norm rewrite patterns ---------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_TRANSFORMS_H
#define NORM_TRANSFORMS_TRANSFORMS_H

#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// Kahan-compensated accumulation for linalg.generic sum reductions on
/// tensors (see norm-compensate-sums).
void populateCompensateSumsPatterns(RewritePatternSet &patterns,
                                    PatternBenefit benefit = 1);

/// A masked last step of vector partial sums (masked reads of tensors, the
/// ops over them and the selects that keep the old lanes where the mask is
/// false) under an `scf.if` on its mask's size: rows whose length is a
/// multiple of the step skip it.
void populateSkipEmptyMaskedStepsPatterns(RewritePatternSet &patterns,
                                          PatternBenefit benefit = 1);

/// The function argument that the memref `buffer` is a view of (through
/// subviews, reshapes and casts), or null.
BlockArgument getViewedFunctionArgument(Value buffer);

/// Options of the CPU tiling strategy (see norm-tile-and-vectorize).
struct TileAndVectorizeOptions {
  /// Vector width in bits.
  int64_t vectorBits = 512;
  /// Vectors per tile along the innermost dim: independent accumulators.
  int64_t vectorsPerTile = 16;
};

/// Tiles `op` to vector rows with scf.for: 1 along every loop but the
/// innermost, which is `innermostSize` (0: whole), and replaces it. Shared by
/// norm-vectorize-elementwise and norm-tile-and-vectorize.
FailureOr<scf::SCFTilingResult> tileToVectorRow(RewriterBase &rewriter,
                                                linalg::LinalgOp op,
                                                int64_t innermostSize);

/// Whether `op` is in the tensor form and its innermost dim is a parallel
/// (statistics) dim, without groups: what tileAndVectorizeNormalize takes.
bool hasInnermostParallelDim(NormalizeOp op);

/// Whether `op` (tensor form) reduces its innermost dim, and
/// collapseReducedDims makes the trailing run of reduced dims one row
/// (LayerNorm, RMSNorm, InstanceNorm and BatchNorm over NCHW, whose N is then
/// a loop over a slice's rows) or, for GroupNorm (not training) whose group
/// dim is the first of its reduced dims, all trailing, expandGroups and
/// collapseReducedDims make its slices rows of C/G · H·W: what the row
/// strategy of tileAndVectorizeNormalize takes.
bool reducesInnermostDims(NormalizeOp op);

/// `op` rewritten on reshaped operands, and the values that replace its
/// results (not replaced by the functions below).
struct ReshapedNormalize {
  NormalizeOp reshapedOp;
  SmallVector<Value> results;
};

/// Rewrites `op` (tensor form) as the same normalization over one dim per
/// run of adjacent reduced dims (not the group dim, held by the affine
/// operands wholly or not at all): InstanceNorm over NCHW reduces one
/// collapsed H·W dim. The input, the output and the affine operands are
/// reshaped (tensor.collapse_shape, the output expanded back); the
/// statistics keep their shape. Failure, creating nothing, if no run has
/// two dims.
FailureOr<ReshapedNormalize> collapseReducedDims(RewriterBase &rewriter,
                                                 NormalizeOp op);
void populateCollapseReducedDimsPatterns(RewritePatternSet &patterns,
                                         PatternBenefit benefit = 1);

/// Rewrites a GroupNorm (tensor form, no running statistics) as the same
/// normalization without groups: its group dim C expanded into [G, C/G], G
/// parallel and C/G reduced, the affine operands' C expanded alike; the
/// statistics ([.., G, ..]) keep their shape. Failure, creating nothing,
/// without groups.
FailureOr<ReshapedNormalize> expandGroups(RewriterBase &rewriter,
                                          NormalizeOp op);
void populateExpandGroupsPatterns(RewritePatternSet &patterns,
                                  PatternBenefit benefit = 1);

/// memref.expand_shape of a memref.alloc as an alloc of the expanded shape
/// (see norm-expand-reshaped-allocs).
void populateExpandReshapedAllocsPatterns(RewritePatternSet &patterns,
                                          PatternBenefit benefit = 1);

/// Tiles `op` over threads with scf.forall and vectorizes its linalg form
/// along the innermost dim (see norm-tile-and-vectorize): with given
/// statistics, row blocks; with computed statistics over leading dims, the
/// reductions split into chunks of rows (partial reductions) and merged in
/// order; otherwise tiles of whole slices, decomposed on the tile.
LogicalResult tileAndVectorizeNormalize(RewriterBase &rewriter, NormalizeOp op,
                                        const TileAndVectorizeOptions &options);

/// truncf f32 -> bf16 (nearest even) as integer rounding, narrowed by a
/// 16-bit shuffle for 1-D vectors if `shuffle`, else by a shift and a
/// truncation (see norm-expand-bf16-truncation).
void populateExpandBF16TruncationPatterns(RewritePatternSet &patterns,
                                          bool shuffle,
                                          PatternBenefit benefit = 1);

/// bf16 elements widened in lane pairs (the even ones by a shift, the odd
/// ones by a mask of the same 32-bit lanes) in loops that only add them
/// into vector sums that are then reduced whole, where their lane order
/// does not matter.
void populateWidenBF16PairsInSumsPatterns(RewritePatternSet &patterns,
                                          PatternBenefit benefit = 1);

/// Masked loads and stores of f16/bf16 vectors as i16 vectors plus bitcasts
/// (see norm-masked-half-as-integer).
void populateMaskedHalfAsIntegerPatterns(RewritePatternSet &patterns,
                                         PatternBenefit benefit = 1);

/// gpu.subgroup_reduce as butterfly shuffles over `subgroupSize` threads
/// (see norm-lower-subgroup-reduce).
void populateLowerSubgroupReducePatterns(RewritePatternSet &patterns,
                                         unsigned subgroupSize);

/// f32 fma, rsqrt and sqrt as NVVM intrinsics instead of libdevice calls
/// (see norm-math-to-nvvm-intrinsics).
void populateMathToNVVMIntrinsicsPatterns(RewritePatternSet &patterns);

/// Rewrites LayerNorm, RMSNorm, BatchNorm inference and GroupNorm written as
/// chains of linalg ops on tensors into `norm.normalize` (see
/// norm-raise-from-linalg). The one-pass variance E[x^2] - E[x]^2 is raised
/// only with `allowUnstableVariance`, since the op's variance is centered.
void populateRaiseFromLinalgPatterns(RewritePatternSet &patterns,
                                     bool allowUnstableVariance = false,
                                     PatternBenefit benefit = 1);

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_TRANSFORMS_H
