//===- TileAndVectorize.cpp - norm-tile-and-vectorize ---------------------===//
//
// Part of the norm-mlir project.
//
// The linalg CPU strategy for norm.normalize ops whose innermost dim is not
// reduced: tile the op over threads through TilingInterface, decompose the
// tile through AggregatedOpInterface, and vectorize the tile's linalg ops
// along the innermost dim, one independent accumulator per vector.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormDecomposition.h"
#include "norm/IR/NormNumerics.h"
#include "norm/IR/NormOps.h"
#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMTILEANDVECTORIZEPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The tile size along the innermost dim: `vectorsPerTile` vectors, halved
/// while a static dim would give fewer than four tiles (the threads need
/// tiles to share), never below one vector nor above the dim.
int64_t chooseInnermostTile(NormalizeOp op,
                            const TileAndVectorizeOptions &options) {
  int64_t lanes = std::max<int64_t>(
      options.vectorBits / op.getAccumulationType().getWidth(), 1);
  int64_t tile = lanes * std::max<int64_t>(options.vectorsPerTile, 1);
  int64_t extent = op.getInputType().getShape().back();
  if (ShapedType::isDynamic(extent))
    return tile;
  while (tile > lanes && llvm::divideCeil(extent, tile) < 4)
    tile = std::max(lanes, tile / 2 / lanes * lanes);
  return std::max<int64_t>(std::min(tile, extent), 1);
}

/// Applies `patterns` to the ops nested in `root`.
LogicalResult applyNested(Operation *root, RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::AnyOp);
  return applyPatternsGreedily(root, std::move(patterns), config);
}

/// Canonicalizations, and tensor.dim of a tile resolved to the tile's size
/// (the masks of a partial tile are then loop-invariant).
void addCanonicalizations(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

/// Whether two masks are one value or two create_masks of the same sizes.
bool isSameMask(Value a, Value b) {
  if (a == b)
    return true;
  auto ma = a ? a.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  auto mb = b ? b.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  return ma && mb && ma.getType() == mb.getType() &&
         ma.getOperands() == mb.getOperands();
}

/// Whether two index lists are equal values or equal constants.
bool isSameIndices(ValueRange a, ValueRange b) {
  return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
           auto [x, y] = pair;
           return x == y || isEqualConstantIntOrValue(x, y);
         });
}

/// The scalar every lane of `vector` holds (a broadcast or a splat
/// constant), or null.
Value getSplatScalar(OpBuilder &b, Location loc, Value vector) {
  if (auto splat = vector.getDefiningOp<vector::BroadcastOp>())
    return isa<VectorType>(splat.getSource().getType()) ? Value()
                                                        : splat.getSource();
  DenseElementsAttr constant;
  if (matchPattern(vector, m_Constant(&constant)) && constant.isSplat())
    return arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(constant.getSplatValue<Attribute>()));
  return Value();
}

/// tensor.extract(transfer_write(broadcast %s, %t[i])[i]) -> %s: the element
/// at the write's first lane (kept by its mask) passes to its scalar users
/// in a register.
struct ForwardScalarWrite : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    auto write = extract.getTensor().getDefiningOp<vector::TransferWriteOp>();
    if (!write || extract.getTensor().getType() != write.getBase().getType() ||
        !isSameIndices(write.getIndices(), extract.getIndices()))
      return rewriter.notifyMatchFailure(extract, "not a write at the index");
    if (Value mask = write.getMask()) {
      auto constant = mask.getDefiningOp<vector::ConstantMaskOp>();
      if (!constant || llvm::is_contained(constant.getMaskDimSizes(), 0))
        return rewriter.notifyMatchFailure(extract, "first lane not written");
    }
    Value scalar =
        getSplatScalar(rewriter, extract.getLoc(), write.getVector());
    if (!scalar || scalar.getType() != extract.getType())
      return rewriter.notifyMatchFailure(extract, "not a splat write");
    rewriter.replaceOp(extract, scalar);
    return success();
  }
};

/// transfer_read(transfer_write(splat %s, %t[0..])) -> broadcast %s when
/// the write covers all of the static %t and the read stays in bounds (and
/// the same for a read of linalg.fill %s): a slice's statistics
/// (one-element tensors) pass in registers.
struct ReadOfSplatTensor : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (auto fill = read.getBase().getDefiningOp<linalg::FillOp>()) {
      Value scalar = fill.getInputs()[0];
      if (read.hasOutOfBoundsDim() ||
          scalar.getType() != read.getVectorType().getElementType() ||
          (read.getMask() && !read.getPadding().getDefiningOp<ub::PoisonOp>()))
        return rewriter.notifyMatchFailure(read, "not an in-bounds read");
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
          read, read.getVectorType(), scalar);
      return success();
    }
    auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
    auto tensor = dyn_cast<RankedTensorType>(read.getBase().getType());
    if (!write || !tensor || !tensor.hasStaticShape() ||
        read.hasOutOfBoundsDim() ||
        (read.getMask() && !read.getPadding().getDefiningOp<ub::PoisonOp>()) ||
        !llvm::all_of(write.getIndices(),
                      [](Value i) { return isZeroInteger(i); }))
      return rewriter.notifyMatchFailure(read,
                                         "not a read of a written tensor");
    // The extent the write covers along each tensor dim.
    SmallVector<int64_t> covered(tensor.getRank(), 1);
    AffineMap map = write.getPermutationMap();
    VectorType written = write.getVectorType();
    SmallVector<int64_t> lanes(written.getShape());
    if (Value mask = write.getMask()) {
      auto constant = mask.getDefiningOp<vector::ConstantMaskOp>();
      if (!constant)
        return rewriter.notifyMatchFailure(read, "a dynamic write mask");
      for (auto [i, size] : llvm::enumerate(constant.getMaskDimSizes()))
        lanes[i] = std::min<int64_t>(lanes[i], size);
    } else if (write.hasOutOfBoundsDim()) {
      return rewriter.notifyMatchFailure(read, "an out-of-bounds write");
    }
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        covered[dim.getPosition()] = lanes[i];
    for (auto [extent, size] : llvm::zip(covered, tensor.getShape()))
      if (extent < size)
        return rewriter.notifyMatchFailure(read, "a partial write");
    Value scalar = getSplatScalar(rewriter, read.getLoc(), write.getVector());
    if (!scalar || scalar.getType() != read.getVectorType().getElementType())
      return rewriter.notifyMatchFailure(read, "not a splat write");
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     scalar);
    return success();
  }
};

/// The tensor whose shape `value` has, through the ops that keep their
/// destination's: transfer_writes (masked or not) and destination-style ops.
/// ValueBounds stops at a masked write's vector.mask.
Value getShapeSource(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto mask = dyn_cast<vector::MaskOp>(def)) {
      Operation *masked = mask.getMaskableOp();
      if (!masked || masked->getNumResults() != def->getNumResults())
        break;
      def = masked;
    }
    if (auto write = dyn_cast<vector::TransferWriteOp>(def)) {
      value = write.getBase();
      continue;
    }
    auto destination = dyn_cast<DestinationStyleOpInterface>(def);
    if (!destination || !destination.hasPureTensorSemantics())
      break;
    value = destination.getTiedOpOperand(cast<OpResult>(value))->get();
  }
  return value;
}

/// The size of dim `d` of `source` as its type or the op that makes it
/// gives it (a tensor.empty's operand, a rank-keeping extract_slice's
/// size), or null.
static OpFoldResult getDefiningDimSize(Value source, int64_t d) {
  auto type = cast<RankedTensorType>(source.getType());
  if (!type.isDynamicDim(d))
    return getAsIndexOpFoldResult(source.getContext(), type.getDimSize(d));
  if (auto empty = source.getDefiningOp<tensor::EmptyOp>())
    return empty.getDynamicSize(d);
  auto slice = source.getDefiningOp<tensor::ExtractSliceOp>();
  if (slice && slice.getSourceType().getRank() == slice.getType().getRank())
    return slice.getMixedSizes()[d];
  return {};
}

/// Whether `size` is dim `d` of tensor `value`: read off the op that sizes
/// it where it can be (the common case, and far cheaper), else proved with
/// ValueBounds.
bool isSizeOfDim(OpFoldResult size, Value value, int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  std::optional<int64_t> constant = getConstantIntValue(size);
  if (!type.isDynamicDim(d) && constant)
    return *constant == type.getDimSize(d);
  Value source = getShapeSource(value);
  if (OpFoldResult known = getDefiningDimSize(source, d);
      known && known == size)
    return true;
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
      ValueBoundsConstraintSet::Variable(size),
      ValueBoundsConstraintSet::Variable(source, d));
  return succeeded(equal) && *equal;
}

static FailureOr<int64_t> getSyntacticUpperBound(OpFoldResult size,
                                                 int depth = 0);

/// A constant upper bound of `expr` over `operands` (its dims, then its
/// symbols), from upper bounds of the operands alone: only the forms whose
/// value grows with each operand (sums, products and quotients by positive
/// constants) and `mod`, which is below its constant whatever it divides.
static FailureOr<int64_t> getSyntacticUpperBound(AffineExpr expr,
                                                 ValueRange operands,
                                                 unsigned numDims, int depth) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return getSyntacticUpperBound(operands[dim.getPosition()], depth + 1);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return getSyntacticUpperBound(operands[numDims + symbol.getPosition()],
                                  depth + 1);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (binary.getKind() == AffineExprKind::Mod) {
    if (!divisor || divisor.getValue() <= 0)
      return failure();
    return divisor.getValue() - 1;
  }
  FailureOr<int64_t> lhs =
      getSyntacticUpperBound(binary.getLHS(), operands, numDims, depth);
  if (failed(lhs))
    return failure();
  int64_t result;
  if (binary.getKind() == AffineExprKind::Add) {
    FailureOr<int64_t> rhs =
        getSyntacticUpperBound(binary.getRHS(), operands, numDims, depth);
    if (failed(rhs) || llvm::AddOverflow(*lhs, *rhs, result))
      return failure();
    return result;
  }
  if (!divisor || divisor.getValue() <= 0)
    return failure();
  int64_t constant = divisor.getValue();
  switch (binary.getKind()) {
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(*lhs, constant, result))
      return failure();
    return result;
  case AffineExprKind::FloorDiv:
    return llvm::divideFloorSigned(*lhs, constant);
  case AffineExprKind::CeilDiv:
    return llvm::divideCeilSigned(*lhs, constant);
  default:
    return failure();
  }
}

/// The least (`least`) or the greatest of `bounds`: the least of those
/// found bounds a min, the greatest a max only when all are found.
static FailureOr<int64_t> combineBounds(ArrayRef<FailureOr<int64_t>> bounds,
                                        bool least) {
  std::optional<int64_t> combined;
  for (FailureOr<int64_t> bound : bounds) {
    if (failed(bound)) {
      if (least)
        continue;
      return failure();
    }
    combined = least ? std::min(combined.value_or(*bound), *bound)
                     : std::max(combined.value_or(*bound), *bound);
  }
  if (!combined)
    return failure();
  return *combined;
}

/// A constant upper bound of `size` read off the ops that compute it:
/// constants and affine.min/max/apply and arith.select/minsi/maxsi of them
/// (a tile's partial last step, a run-time choice of tile size), or
/// failure, where ValueBounds may still know more.
static FailureOr<int64_t> getSyntacticUpperBound(OpFoldResult size, int depth) {
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return *constant;
  auto value = dyn_cast<Value>(size);
  Operation *def = value ? value.getDefiningOp() : nullptr;
  if (!def || depth > 8)
    return failure();
  SmallVector<FailureOr<int64_t>> bounds;
  AffineMap map;
  if (auto min = dyn_cast<affine::AffineMinOp>(def))
    map = min.getMap();
  else if (auto max = dyn_cast<affine::AffineMaxOp>(def))
    map = max.getMap();
  else if (auto apply = dyn_cast<affine::AffineApplyOp>(def))
    map = apply.getMap();
  if (map) {
    for (AffineExpr result : map.getResults())
      bounds.push_back(getSyntacticUpperBound(result, def->getOperands(),
                                              map.getNumDims(), depth));
    return combineBounds(bounds, /*least=*/isa<affine::AffineMinOp>(def));
  }
  // Either operand of a select or maxsi may be the result; either bound of
  // a minsi bounds it.
  if (!isa<arith::SelectOp, arith::MaxSIOp, arith::MinSIOp>(def))
    return failure();
  for (Value operand : def->getOperands().take_back(2))
    bounds.push_back(getSyntacticUpperBound(operand, depth + 1));
  return combineBounds(bounds, /*least=*/isa<arith::MinSIOp>(def));
}

/// Whether the size the defining op of tensor `value` gives its dim `d` is
/// at most `bound` by its own arithmetic (no Presburger problem).
bool isDimAtMostSyntactically(Value value, int64_t d, int64_t bound) {
  Value source = getShapeSource(value);
  auto type = cast<RankedTensorType>(source.getType());
  if (!type.isDynamicDim(d))
    return type.getDimSize(d) <= bound;
  OpFoldResult size = getDefiningDimSize(source, d);
  if (!size)
    return false;
  FailureOr<int64_t> upper = getSyntacticUpperBound(size);
  return succeeded(upper) && *upper <= bound;
}

/// Whether dim `d` of tensor `value` is at most `bound` by ValueBounds: a
/// Presburger problem per query, most of this pass's time, so callers try
/// isDimAtMostSyntactically first.
bool isDimAtMostByValueBounds(Value value, int64_t d, int64_t bound) {
  Value source = getShapeSource(value);
  if (!cast<RankedTensorType>(source.getType()).isDynamicDim(d))
    return false;
  FailureOr<int64_t> upper = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(source, d),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  return succeeded(upper) && *upper <= bound;
}

/// Whether `mask` is a create_mask of the sizes of `tensor` (a partial
/// tile's statistics, written whole).
bool isMaskOfShape(Value mask, Value tensor) {
  auto create = mask ? mask.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!create || !type || create.getNumOperands() != type.getRank())
    return false;
  for (auto [d, size] : llvm::enumerate(create.getOperands()))
    if (!isSizeOfDim(size, tensor, d))
      return false;
  return true;
}

/// The vector that wholly writes `tensor`, as a 1-D vector, or null: a static
/// tensor whose dims but the innermost are unit (a multi-row tile's
/// statistics, [rows] or [1, ..., rows]) written at 0 by one unmasked,
/// in-bounds, minor-identity transfer_write of as many elements.
Value getWholeWrittenVector(OpBuilder &b, Value tensor) {
  auto write = tensor.getDefiningOp<vector::TransferWriteOp>();
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!write || !type || type.getRank() == 0 ||
      !llvm::all_of(type.getShape().drop_back(),
                    [](int64_t size) { return size == 1; }) ||
      write.hasOutOfBoundsDim() ||
      !write.getPermutationMap().isMinorIdentity() ||
      !llvm::all_of(write.getIndices(),
                    [](Value i) { return isZeroInteger(i); }))
    return Value();
  // Every element: an unmasked write of as many, or (a partial tile's) a
  // write masked to the tensor's size.
  int64_t lanes = write.getVectorType().getNumElements();
  if (write.getMask()
          ? !isMaskOfShape(write.getMask(), tensor)
          : (!type.hasStaticShape() || lanes != type.getNumElements()))
    return Value();
  Value vector = write.getVector();
  auto flat = VectorType::get({lanes}, type.getElementType());
  if (vector.getType() == flat)
    return vector;
  return vector::ShapeCastOp::create(b, write.getLoc(), flat, vector);
}

/// Whether `indices` are 0 but for the innermost.
static bool isInnermostIndex(ValueRange indices) {
  return !indices.empty() && llvm::all_of(indices.drop_back(), [](Value i) {
    return isZeroInteger(i);
  });
}

/// Reads of a multi-row tile's statistics from the tensor one vector wrote:
/// the whole tensor -> the vector; one element broadcast (a row's value in
/// its normalize step) -> broadcast(vector.extract). The statistics pass
/// from the rows' reductions to the normalize steps in registers.
struct ForwardLaneOfWrite : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto tensor = dyn_cast<RankedTensorType>(read.getBase().getType());
    if (!tensor || !isInnermostIndex(read.getIndices()) ||
        !read.getBase().getDefiningOp<vector::TransferWriteOp>())
      return rewriter.notifyMatchFailure(read, "not a read of one vector");
    VectorType type = read.getVectorType();
    AffineMap map = read.getPermutationMap();
    Value index = read.getIndices().back();
    bool whole = map.isMinorIdentity() && isZeroInteger(index) &&
                 !read.hasOutOfBoundsDim();
    if (read.getMask()) {
      // A partial tile's statistics, read whole: the lanes the mask drops
      // are poison in the read, which the written vector's refine.
      auto create = read.getMask().getDefiningOp<vector::CreateMaskOp>();
      if (!whole || !create || !read.getPadding().getDefiningOp<ub::PoisonOp>())
        return rewriter.notifyMatchFailure(read, "not a whole masked read");
      if (!isSizeOfDim(create.getOperands().back(), read.getBase(),
                       tensor.getRank() - 1))
        return rewriter.notifyMatchFailure(read, "not a whole masked read");
    } else {
      whole &= tensor.hasStaticShape() &&
               type.getNumElements() == tensor.getNumElements();
    }
    // One element, broadcast to every lane of the read.
    bool oneElement = llvm::all_of(map.getResults(), [](AffineExpr expr) {
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      return constant && constant.getValue() == 0;
    });
    if (!whole && !oneElement && type.getNumElements() != 1)
      return rewriter.notifyMatchFailure(read, "not a read of one element");
    Value written = getWholeWrittenVector(rewriter, read.getBase());
    if (!written ||
        (whole && cast<VectorType>(written.getType()).getNumElements() !=
                      type.getNumElements()))
      return rewriter.notifyMatchFailure(read, "not a read of one vector");
    if (whole) {
      if (written.getType() == type)
        rewriter.replaceOp(read, written);
      else
        rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, type, written);
      return success();
    }
    Value lane = vector::ExtractOp::create(rewriter, read.getLoc(), written,
                                           OpFoldResult(index));
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, type, lane);
    return success();
  }
};

/// tensor.extract of a multi-row tile's statistic -> vector.extract of the
/// vector that wrote it.
struct ForwardLaneOfWriteToExtract : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    if (!isInnermostIndex(extract.getIndices()) ||
        !extract.getTensor().getDefiningOp<vector::TransferWriteOp>())
      return rewriter.notifyMatchFailure(extract, "not a read of one lane");
    Value written = getWholeWrittenVector(rewriter, extract.getTensor());
    if (!written)
      return rewriter.notifyMatchFailure(extract, "not a read of one vector");
    rewriter.replaceOpWithNewOp<vector::ExtractOp>(
        extract, written, OpFoldResult(extract.getIndices().back()));
    return success();
  }
};

/// A tile's statistics tensor carried by an scf.if or scf.while, as a value:
/// its vector type (a scalar for one element) and, for a partial tile's
/// statistics (a dynamic innermost size with a small constant bound), the
/// size, defined before the op.
struct StatisticsValue {
  Type type;
  Value size;
};

/// At most a tile's statistics (a few registers' worth).
constexpr int64_t kMaxStatisticsElements = 1024;

/// The value form of `type` for statistics that take the values `incoming`
/// (every one that can reach the position), carried by `carrier`; failure
/// for anything larger than a tile's statistics.
static FailureOr<StatisticsValue>
getStatisticsValue(Type type, ArrayRef<Value> incoming, Operation *carrier) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return failure();
  if (tensor.hasStaticShape()) {
    if (tensor.getNumElements() > kMaxStatisticsElements)
      return failure();
    if (tensor.getNumElements() == 1)
      return StatisticsValue{tensor.getElementType(), Value()};
    return StatisticsValue{
        VectorType::get(tensor.getShape(), tensor.getElementType()), Value()};
  }
  // Dynamic: unit dims but the innermost, whose size one incoming value has
  // from a tensor.empty of a size defined before the carrier.
  int64_t rank = tensor.getRank();
  if (!llvm::all_of(tensor.getShape().drop_back(),
                    [](int64_t size) { return size == 1; }))
    return failure();
  Value size;
  for (Value value : incoming) {
    auto empty = getShapeSource(value).getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      continue;
    // The empty (maybe in the carrier) uses it: a value from outside the
    // carrier dominates it.
    Value candidate = empty.getDynamicSize(rank - 1);
    Operation *scope = isa<BlockArgument>(candidate)
                           ? candidate.getParentBlock()->getParentOp()
                           : candidate.getDefiningOp();
    if (!carrier->isAncestor(scope)) {
      size = candidate;
      break;
    }
  }
  // Every incoming value must have that many: the reads of their values are
  // masked to it.
  if (!size || !llvm::all_of(incoming, [&](Value value) {
        return isSizeOfDim(size, value, rank - 1);
      }))
    return failure();
  FailureOr<int64_t> upper = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(size),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  if (failed(upper) || *upper < 1 || *upper > kMaxStatisticsElements)
    return failure();
  SmallVector<int64_t> shape(tensor.getShape());
  shape.back() = *upper;
  return StatisticsValue{VectorType::get(shape, tensor.getElementType()), size};
}

/// The lanes of a partial tile's statistics (the others are poison).
static Value createStatisticsMask(OpBuilder &b, Location loc,
                                  const StatisticsValue &value) {
  auto vectorType = cast<VectorType>(value.type);
  SmallVector<Value> sizes;
  for (int64_t size : vectorType.getShape().drop_back())
    sizes.push_back(arith::ConstantIndexOp::create(b, loc, size));
  sizes.push_back(value.size);
  return vector::CreateMaskOp::create(
      b, loc, VectorType::get(vectorType.getShape(), b.getI1Type()), sizes);
}

/// Statistics tensor `tensor` -> its value form.
static Value readStatistics(OpBuilder &b, Location loc, Value tensor,
                            const StatisticsValue &value) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(b, loc, 0));
  if (!isa<VectorType>(value.type))
    return tensor::ExtractOp::create(b, loc, tensor, zeros);
  Value poison = ub::PoisonOp::create(b, loc, type.getElementType());
  auto read = vector::TransferReadOp::create(
      b, loc, cast<VectorType>(value.type), tensor, zeros, poison,
      SmallVector<bool>(type.getRank(), true));
  if (!value.size)
    return read;
  return vector::maskOperation(b, read, createStatisticsMask(b, loc, value))
      ->getResult(0);
}

/// The value form `v` -> a statistics tensor of `type`.
static Value writeStatistics(OpBuilder &b, Location loc, Value v,
                             RankedTensorType type,
                             const StatisticsValue &value) {
  SmallVector<Value> dynamicSizes;
  if (value.size)
    dynamicSizes.push_back(value.size);
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dynamicSizes);
  if (!isa<VectorType>(value.type))
    return linalg::FillOp::create(b, loc, v, empty).getResult(0);
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(b, loc, 0));
  auto write = vector::TransferWriteOp::create(
      b, loc, v, empty, zeros, SmallVector<bool>(type.getRank(), true));
  if (!value.size)
    return write.getResult();
  return vector::maskOperation(b, write, createStatisticsMask(b, loc, value))
      ->getResult(0);
}

/// scf.if results that are static tensors (the statistics of a tile) ->
/// values: scalars for single elements, else vectors of the tensor's shape
/// (a full read before each yield), written into a tensor after the if.
/// The branches' values then pass in registers once vectorized.
struct ScalarizeStaticIfResults : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IfOp branch,
                                PatternRewriter &rewriter) const override {
    if (branch.getNumResults() == 0 || branch.elseBlock() == nullptr)
      return rewriter.notifyMatchFailure(branch, "no results");
    SmallVector<StatisticsValue> values;
    for (unsigned i = 0; i < branch.getNumResults(); ++i) {
      SmallVector<Value> incoming = {branch.thenYield().getOperand(i),
                                     branch.elseYield().getOperand(i)};
      FailureOr<StatisticsValue> value =
          getStatisticsValue(branch.getResultTypes()[i], incoming, branch);
      if (failed(value))
        return rewriter.notifyMatchFailure(branch, "not small tensor results");
      values.push_back(*value);
    }
    Location loc = branch.getLoc();
    SmallVector<Type> valueTypes;
    for (const StatisticsValue &value : values)
      valueTypes.push_back(value.type);
    for (scf::YieldOp yield : {branch.thenYield(), branch.elseYield()}) {
      rewriter.setInsertionPoint(yield);
      SmallVector<Value> yielded;
      for (auto [v, value] : llvm::zip(yield.getOperands(), values))
        yielded.push_back(readStatistics(rewriter, loc, v, value));
      rewriter.modifyOpInPlace(
          yield, [&] { yield.getResultsMutable().assign(yielded); });
    }
    rewriter.setInsertionPoint(branch);
    auto valueIf =
        scf::IfOp::create(rewriter, loc, valueTypes, branch.getCondition(),
                          /*withElseRegion=*/true);
    rewriter.eraseBlock(valueIf.thenBlock());
    rewriter.eraseBlock(valueIf.elseBlock());
    rewriter.inlineRegionBefore(branch.getThenRegion(), valueIf.getThenRegion(),
                                valueIf.getThenRegion().end());
    rewriter.inlineRegionBefore(branch.getElseRegion(), valueIf.getElseRegion(),
                                valueIf.getElseRegion().end());
    rewriter.setInsertionPointAfter(valueIf);
    SmallVector<Value> tensors;
    for (auto [result, type, value] :
         llvm::zip(valueIf.getResults(), branch.getResultTypes(), values))
      tensors.push_back(writeStatistics(rewriter, loc, result,
                                        cast<RankedTensorType>(type), value));
    rewriter.replaceOp(branch, tensors);
    return success();
  }
};

/// The same for an scf.while's statistics tensors (the rescale retry's loop):
/// those it carries into either region and its results pass as values; its
/// other operands (the retry's i1) stay.
struct ScalarizeStaticWhileValues : OpRewritePattern<scf::WhileOp> {
  using OpRewritePattern::OpRewritePattern;

  /// Every value that reaches `start` (a region's argument or a result),
  /// through the loop's own block arguments.
  static SmallVector<Value> getIncoming(scf::WhileOp loop, Value start) {
    SmallVector<Value> incoming, worklist = {start};
    llvm::SmallPtrSet<Value, 4> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      auto arg = dyn_cast<BlockArgument>(value);
      unsigned i = arg ? arg.getArgNumber() : 0;
      if (arg && arg.getOwner() == loop.getBeforeBody()) {
        worklist.push_back(loop.getInits()[i]);
        worklist.push_back(loop.getYieldOp().getOperand(i));
      } else if (arg && arg.getOwner() == loop.getAfterBody()) {
        worklist.push_back(loop.getConditionOp().getArgs()[i]);
      } else if (auto result = dyn_cast<OpResult>(value);
                 result && result.getOwner() == loop) {
        worklist.push_back(
            loop.getConditionOp().getArgs()[result.getResultNumber()]);
      } else {
        incoming.push_back(value);
      }
    }
    return incoming;
  }

  /// The value forms of `args` (unset for what stays), or failure when a
  /// tensor cannot pass as a value.
  static FailureOr<SmallVector<std::optional<StatisticsValue>>>
  getValueForms(scf::WhileOp loop, ValueRange args) {
    SmallVector<std::optional<StatisticsValue>> forms;
    for (Value arg : args) {
      if (!isa<RankedTensorType>(arg.getType())) {
        forms.push_back(std::nullopt);
        continue;
      }
      FailureOr<StatisticsValue> value =
          getStatisticsValue(arg.getType(), getIncoming(loop, arg), loop);
      if (failed(value))
        return failure();
      forms.push_back(*value);
    }
    return forms;
  }

  static SmallVector<Type>
  getTypes(ValueRange args, ArrayRef<std::optional<StatisticsValue>> forms) {
    SmallVector<Type> types;
    for (auto [arg, form] : llvm::zip(args, forms))
      types.push_back(form ? form->type : arg.getType());
    return types;
  }

  static SmallVector<Value>
  read(OpBuilder &b, Location loc, ValueRange tensors,
       ArrayRef<std::optional<StatisticsValue>> forms) {
    SmallVector<Value> values;
    for (auto [tensor, form] : llvm::zip(tensors, forms))
      values.push_back(form ? readStatistics(b, loc, tensor, *form) : tensor);
    return values;
  }

  static SmallVector<Value>
  write(OpBuilder &b, Location loc, ValueRange values, TypeRange types,
        ArrayRef<std::optional<StatisticsValue>> forms) {
    SmallVector<Value> tensors;
    for (auto [value, type, form] : llvm::zip(values, types, forms))
      tensors.push_back(form ? writeStatistics(b, loc, value,
                                               cast<RankedTensorType>(type),
                                               *form)
                             : value);
    return tensors;
  }

  LogicalResult matchAndRewrite(scf::WhileOp loop,
                                PatternRewriter &rewriter) const override {
    auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
    if (!llvm::any_of(loop.getInits().getTypes(), isTensor) &&
        !llvm::any_of(loop.getResultTypes(), isTensor))
      return rewriter.notifyMatchFailure(loop, "no tensors");
    auto beforeForms = getValueForms(loop, loop.getBeforeArguments());
    auto afterForms = getValueForms(loop, loop.getAfterArguments());
    if (failed(beforeForms) || failed(afterForms))
      return rewriter.notifyMatchFailure(loop, "not small tensors");
    Location loc = loop.getLoc();
    // The old blocks go: their types are kept here.
    SmallVector<Type> beforeTensorTypes(loop.getInits().getTypes());
    SmallVector<Type> afterTensorTypes(loop.getResultTypes());

    rewriter.setInsertionPoint(loop);
    SmallVector<Value> inits =
        read(rewriter, loc, loop.getInits(), *beforeForms);
    SmallVector<Type> afterTypes =
        getTypes(loop.getAfterArguments(), *afterForms);
    auto valueLoop = scf::WhileOp::create(rewriter, loc, afterTypes, inits);

    // Each region: a block of values whose first ops rebuild the tensors
    // the old block's ops use.
    auto moveRegion = [&](Block *old, Region &region, TypeRange types,
                          TypeRange tensorTypes,
                          ArrayRef<std::optional<StatisticsValue>> forms) {
      Block *block = rewriter.createBlock(
          &region, {}, types, SmallVector<Location>(types.size(), loc));
      SmallVector<Value> tensors =
          write(rewriter, loc, block->getArguments(), tensorTypes, forms);
      rewriter.mergeBlocks(old, block, tensors);
      return block;
    };
    Block *before =
        moveRegion(loop.getBeforeBody(), valueLoop.getBefore(),
                   getTypes(loop.getBeforeArguments(), *beforeForms),
                   beforeTensorTypes, *beforeForms);
    Block *after = moveRegion(loop.getAfterBody(), valueLoop.getAfter(),
                              afterTypes, afterTensorTypes, *afterForms);

    // Both terminators pass tensors on: they pass their values instead.
    auto readOperands = [&](Operation *terminator, MutableOperandRange operands,
                            ArrayRef<std::optional<StatisticsValue>> forms) {
      rewriter.setInsertionPoint(terminator);
      SmallVector<Value> values =
          read(rewriter, loc, ValueRange(operands.getAsOperandRange()), forms);
      rewriter.modifyOpInPlace(terminator, [&] { operands.assign(values); });
    };
    auto condition = cast<scf::ConditionOp>(before->getTerminator());
    readOperands(condition, condition.getArgsMutable(), *afterForms);
    auto yield = cast<scf::YieldOp>(after->getTerminator());
    readOperands(yield, yield.getResultsMutable(), *beforeForms);

    rewriter.setInsertionPointAfter(valueLoop);
    rewriter.replaceOp(loop, write(rewriter, loc, valueLoop.getResults(),
                                   loop.getResultTypes(), *afterForms));
    return success();
  }
};

/// transfer_read(transfer_write(%v, %t[i], %mask)[i], %mask, poison) -> %v
/// (the write unmasked or masked alike): the lanes the mask keeps are %v's,
/// and the others are poison in the read, so %v refines them. Statistics of a
/// partial tile pass from op to op in registers instead of through a tile-sized
/// buffer.
struct ForwardMaskedWrite : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
    // An unmasked write covers every lane a masked read keeps.
    if (!write || !read.getMask() ||
        (write.getMask() && !isSameMask(write.getMask(), read.getMask())) ||
        !read.getPadding().getDefiningOp<ub::PoisonOp>() ||
        write.getVectorType() != read.getVectorType() ||
        write.getPermutationMap() != read.getPermutationMap() ||
        !isSameIndices(write.getIndices(), read.getIndices()))
      return rewriter.notifyMatchFailure(read, "not a masked RAW pair");
    rewriter.replaceOp(read, write.getVector());
    return success();
  }
};

/// insert_slice(transfer_write(%v, %empty[0], %mask)) into %d[0, ..., 0]
/// [1, ..., %s] -> transfer_write(shape_cast(%v), %d[0, ..., 0],
/// create_mask(1, ..., %s)) when the write covers its tensor: a partial
/// tile's statistics ([rows]) put back into their unit-leading form
/// ([1, rows]) stay a masked write, which the reads after it forward.
struct InsertSliceOfMaskedWrite : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    RankedTensorType destType = insert.getDestType();
    if (!write || !write.getMask() ||
        !isMaskOfShape(write.getMask(), write.getBase()) ||
        write.getVectorType().getRank() != 1 ||
        insert.getSourceType().getRank() != 1 ||
        !write.getPermutationMap().isMinorIdentity() ||
        !isZeroInteger(write.getIndices()[0]) ||
        !llvm::all_of(insert.getMixedOffsets(), isZeroInteger) ||
        !llvm::all_of(insert.getMixedStrides(), isOneInteger))
      return rewriter.notifyMatchFailure(insert, "not a masked write's slice");
    SmallVector<OpFoldResult> sizes = insert.getMixedSizes();
    if (!llvm::all_of(ArrayRef(sizes).drop_back(), isOneInteger) ||
        !llvm::all_of(destType.getShape().drop_back(),
                      [](int64_t size) { return size == 1; }))
      return rewriter.notifyMatchFailure(insert, "not a unit-leading slice");
    Location loc = insert.getLoc();
    int64_t rank = destType.getRank();
    SmallVector<int64_t> shape(rank, 1);
    shape.back() = write.getVectorType().getNumElements();
    Value vector = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get(shape, destType.getElementType()),
        write.getVector());
    SmallVector<Value> maskSizes;
    for (OpFoldResult size : sizes)
      maskSizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, size));
    Value mask = vector::CreateMaskOp::create(
        rewriter, loc, VectorType::get(shape, rewriter.getI1Type()), maskSizes);
    SmallVector<Value> zeros(rank,
                             arith::ConstantIndexOp::create(rewriter, loc, 0));
    auto masked =
        vector::TransferWriteOp::create(rewriter, loc, vector, insert.getDest(),
                                        zeros, SmallVector<bool>(rank, true));
    masked.getMaskMutable().assign(mask);
    rewriter.replaceOp(insert, masked.getResult());
    return success();
  }
};

/// transfer_write(%v, transfer_write(%w, %t[0])[0], %mask) ->
/// transfer_write(select(%mask, %v, %w), %t[0]) when the vectors cover all
/// of %t: the partial last step of a slice's partial sums updates them in
/// registers.
struct MergeMaskedWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    auto mask = write.getMask();
    auto under = write.getBase().getDefiningOp<vector::TransferWriteOp>();
    auto tensorType = dyn_cast<RankedTensorType>(write.getBase().getType());
    if (!mask || !under || under.getMask() || !tensorType ||
        !tensorType.hasStaticShape() ||
        under.getVectorType() != write.getVectorType() ||
        tensorType.getShape() != write.getVectorType().getShape() ||
        !write.getPermutationMap().isMinorIdentity() ||
        under.getPermutationMap() != write.getPermutationMap() ||
        !isSameIndices(write.getIndices(), under.getIndices()) ||
        !llvm::all_of(write.getIndices(),
                      [](Value i) { return isZeroInteger(i); }))
      return rewriter.notifyMatchFailure(write, "not a masked full overwrite");
    Value merged = arith::SelectOp::create(
        rewriter, write.getLoc(), mask, write.getVector(), under.getVector());
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        write, merged, under.getBase(), under.getIndices(),
        under.getPermutationMapAttr(), under.getInBoundsAttr());
    return success();
  }
};

/// transfer_write(%v, transfer_write(%w, %t[i], %mask)[i], %mask) ->
/// transfer_write(%v, %t[i], %mask): the second write covers every lane the
/// first one wrote. Upstream's fold (checkSameValueWAW) wants the same mask
/// value; each unrolled row vectorizes with a create_mask of its own, equal
/// ones (isSameMask). The rows of an unrolled block write a column's partial
/// sums once.
struct FoldMaskedWriteAfterWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    auto under = write.getBase().getDefiningOp<vector::TransferWriteOp>();
    if (!under || !under->hasOneUse() ||
        !isa<RankedTensorType>(under.getBase().getType()) ||
        (under.getMask() &&
         !(write.getMask() && isSameMask(write.getMask(), under.getMask()))) ||
        (!under.getMask() && write.getMask()) ||
        under.getVectorType() != write.getVectorType() ||
        under.getPermutationMap() != write.getPermutationMap() ||
        under.getInBoundsAttr() != write.getInBoundsAttr() ||
        !isSameIndices(write.getIndices(), under.getIndices()))
      return rewriter.notifyMatchFailure(write, "not an overwrite");
    rewriter.modifyOpInPlace(
        write, [&] { write.getBaseMutable().assign(under.getBase()); });
    return success();
  }
};

/// A transfer on a unit-stride slice, moved onto the slice's source: the
/// source indices (the slice's offsets plus the transfer's indices along
/// the dims the slice keeps) and the permutation map of the same lanes.
struct SourceTransfer {
  SmallVector<Value> indices;
  AffineMap permutationMap;
};

/// The source form of a minor-identity transfer at `indices` on `slice`,
/// whose rank-reduced `droppedDims` are unit dims anywhere; fails for other
/// strides or maps.
FailureOr<SourceTransfer>
getSourceTransfer(RewriterBase &b, Location loc,
                  OffsetSizeAndStrideOpInterface slice,
                  const llvm::SmallBitVector &droppedDims,
                  AffineMap permutationMap, ValueRange indices) {
  int64_t sourceRank = droppedDims.size();
  if (!llvm::all_of(slice.getMixedStrides(), isOneInteger) ||
      !permutationMap.isMinorIdentity() ||
      permutationMap.getNumDims() != indices.size() ||
      sourceRank - static_cast<int64_t>(droppedDims.count()) !=
          static_cast<int64_t>(indices.size()))
    return failure();
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < sourceRank; ++d)
    if (!droppedDims.test(d))
      kept.push_back(d);
  SourceTransfer result;
  affine::resolveIndicesIntoOpWithOffsetsAndStrides(
      b, loc, slice.getMixedOffsets(), slice.getMixedStrides(), droppedDims,
      indices, result.indices);
  SmallVector<AffineExpr> lanes;
  for (AffineExpr expr : permutationMap.getResults())
    lanes.push_back(
        b.getAffineDimExpr(kept[cast<AffineDimExpr>(expr).getPosition()]));
  result.permutationMap = AffineMap::get(sourceRank, 0, lanes, b.getContext());
  return result;
}

/// transfer_read(extract_slice(%t), %i, %mask) -> transfer_read(%t, offsets
/// + %i, %mask) for minor-identity reads: the masked lanes a partial step
/// keeps lie in the slice. (Upstream's subset folds take unmasked reads.)
struct FoldMaskedReadOfSlice : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto slice = read.getBase().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !read.getMask())
      return rewriter.notifyMatchFailure(read, "not a masked read of a slice");
    FailureOr<SourceTransfer> source = getSourceTransfer(
        rewriter, read.getLoc(), slice, slice.getDroppedDims(),
        read.getPermutationMap(), read.getIndices());
    if (failed(source))
      return rewriter.notifyMatchFailure(read, "not a unit-stride slice");
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        read, read.getVectorType(), slice.getSource(), source->indices,
        AffineMapAttr::get(source->permutationMap), read.getPadding(),
        read.getMask(), read.getInBoundsAttr());
    return success();
  }
};

/// insert_slice(transfer_write(%v, extract_slice(%t), %i, %mask) into %t at
/// the same place) -> transfer_write(%v, %t, offsets + %i, %mask): the
/// lanes the mask drops keep %t's values either way.
struct FoldMaskedWriteIntoSlice : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    auto slice = write ? write.getBase().getDefiningOp<tensor::ExtractSliceOp>()
                       : nullptr;
    if (!slice || !write.getMask() || slice.getSource() != insert.getDest() ||
        slice.getMixedOffsets() != insert.getMixedOffsets() ||
        slice.getMixedSizes() != insert.getMixedSizes() ||
        slice.getMixedStrides() != insert.getMixedStrides())
      return rewriter.notifyMatchFailure(insert,
                                         "not a masked write into a slice");
    FailureOr<SourceTransfer> dest = getSourceTransfer(
        rewriter, insert.getLoc(), slice, insert.getDroppedDims(),
        write.getPermutationMap(), write.getIndices());
    if (failed(dest))
      return rewriter.notifyMatchFailure(insert, "not a unit-stride slice");
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        insert, write.getVector(), insert.getDest(), dest->indices,
        AffineMapAttr::get(dest->permutationMap), write.getMask(),
        write.getInBoundsAttr());
    return success();
  }
};

/// Whether the slice [0, sizes) with unit strides covers all of `whole`,
/// provably (the sizes of a partial tile are dynamic).
bool coversWhole(Value whole, ArrayRef<OpFoldResult> offsets,
                 ArrayRef<OpFoldResult> sizes, ArrayRef<OpFoldResult> strides) {
  auto type = cast<RankedTensorType>(whole.getType());
  if (static_cast<int64_t>(sizes.size()) != type.getRank() ||
      !llvm::all_of(offsets, isZeroInteger) ||
      !llvm::all_of(strides, isOneInteger))
    return false;
  for (auto [dim, size] : llvm::enumerate(sizes))
    if (!isSizeOfDim(size, whole, dim))
      return false;
  return true;
}

/// extract_slice of all of a tensor -> the tensor; insert_slice over all of
/// a tensor -> the inserted tensor. Both are the slice's source.
template <typename SliceOp>
struct FoldWholeSlice : OpRewritePattern<SliceOp> {
  using OpRewritePattern<SliceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp slice,
                                PatternRewriter &rewriter) const override {
    Value whole = slice.getSource(), part = slice.getResult();
    if constexpr (std::is_same_v<SliceOp, tensor::InsertSliceOp>) {
      whole = slice.getDest();
      part = slice.getSource();
    }
    if (part.getType() != whole.getType() ||
        !coversWhole(whole, slice.getMixedOffsets(), slice.getMixedSizes(),
                     slice.getMixedStrides()))
      return rewriter.notifyMatchFailure(slice, "not the whole tensor");
    rewriter.replaceOp(slice, slice.getSource());
    return success();
  }
};

/// collapse_shape(extract_slice(X)) → extract_slice(collapse_shape(X)) where
/// each group of collapsed dims is, in X, consecutive dims of which all but
/// the first are whole: a contiguous range of the collapsed X. The collapse
/// then applies to X outside the loops, whose buffer's layout allows it, not
/// to a strided slice, which bufferization would copy.
struct BubbleCollapseThroughSlice : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto slice = collapse.getSrc().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride())
      return rewriter.notifyMatchFailure(collapse,
                                         "not of a unit-stride slice");
    Value source = slice.getSource();
    int64_t sourceRank = slice.getSourceType().getRank();
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<int64_t> sourceDims;
    for (int64_t d = 0; d < sourceRank; ++d)
      if (!dropped.test(d))
        sourceDims.push_back(d);
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    // The source dims of each collapsed group, which must be consecutive
    // and, but for the first, whole.
    SmallVector<ReassociationIndices> sourceGroups;
    SmallVector<int64_t> groupOf(sourceRank, -1);
    for (const ReassociationIndices &group :
         collapse.getReassociationIndices()) {
      ReassociationIndices dims;
      for (int64_t r : group)
        dims.push_back(sourceDims[r]);
      for (size_t i = 1; i < dims.size(); ++i) {
        if (dims[i] != dims[i - 1] + 1 ||
            !isWholeSliceDim(source, dims[i], offsets[dims[i]], sizes[dims[i]]))
          return rewriter.notifyMatchFailure(collapse, "not contiguous");
      }
      for (int64_t d : dims)
        groupOf[d] = sourceGroups.size();
      sourceGroups.push_back(dims);
    }
    // Dropped (unit) dims stay dims of their own, in order.
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t d = 0; d < sourceRank;) {
      if (groupOf[d] < 0) {
        reassociation.push_back({d++});
        continue;
      }
      reassociation.push_back(sourceGroups[groupOf[d]]);
      d += sourceGroups[groupOf[d]].size();
    }
    if (reassociation.size() == static_cast<size_t>(sourceRank))
      return rewriter.notifyMatchFailure(collapse, "collapses nothing");

    OpBuilder::InsertionGuard guard(rewriter);
    Block *sourceBlock;
    if (Operation *def = source.getDefiningOp()) {
      rewriter.setInsertionPointAfter(def);
      sourceBlock = def->getBlock();
    } else {
      sourceBlock = cast<BlockArgument>(source).getOwner();
      rewriter.setInsertionPointToStart(sourceBlock);
    }
    Location loc = collapse.getLoc();
    // One collapse of the source serves every slice (each reduction of the
    // tile reads it).
    Value collapsedSource;
    for (Operation *user : source.getUsers()) {
      auto existing = dyn_cast<tensor::CollapseShapeOp>(user);
      if (existing && existing->getBlock() == sourceBlock &&
          existing.getReassociationIndices() == reassociation)
        collapsedSource = existing;
    }
    if (!collapsedSource)
      collapsedSource =
          tensor::CollapseShapeOp::create(rewriter, loc, source, reassociation);
    rewriter.setInsertionPoint(collapse);
    AffineExpr s0, s1;
    bindSymbols(rewriter.getContext(), s0, s1);
    SmallVector<OpFoldResult> newOffsets, newSizes;
    for (const ReassociationIndices &group : reassociation) {
      OpFoldResult offset = offsets[group.front()];
      OpFoldResult size = sizes[group.front()];
      for (int64_t d : ArrayRef(group).drop_front()) {
        offset = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 * s1,
                                                       {offset, sizes[d]});
        size = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 * s1,
                                                     {size, sizes[d]});
      }
      newOffsets.push_back(offset);
      newSizes.push_back(size);
    }
    SmallVector<OpFoldResult> strides(newOffsets.size(),
                                      rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        collapse, collapse.getResultType(), collapsedSource, newOffsets,
        newSizes, strides);
    return success();
  }

private:
  /// Whether [offset, offset + size) is all of dim `d` of `source`.
  static bool isWholeSliceDim(Value source, int64_t d, OpFoldResult offset,
                              OpFoldResult size) {
    return isConstantIntValue(offset, 0) && isSizeOfDim(size, source, d);
  }
};

/// Whether loop `dim` of `op` (by default the innermost) is provably at
/// most `bound` long (the partial last step of a loop, a partial tile's
/// rows).
bool hasUpperBound(linalg::LinalgOp op, int64_t dim, int64_t bound) {
  if (dim >= static_cast<int64_t>(op.getNumLoops()))
    return false;
  int64_t known = op.getStaticLoopRanges()[dim];
  if (!ShapedType::isDynamic(known))
    return known <= bound;
  // Any operand dim that the loop indexes bounds it (a masked transfer's
  // result has no bounds of its own; its destination does). Every operand's
  // own arithmetic is tried before any Presburger problem.
  SmallVector<std::pair<Value, int64_t>> indexed;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    for (auto [position, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (loop && loop.getPosition() == dim)
        indexed.emplace_back(operand.get(), position);
    }
  }
  auto bounded = [&](auto isAtMost) {
    return llvm::any_of(indexed, [&](std::pair<Value, int64_t> dimOf) {
      return isAtMost(dimOf.first, dimOf.second, bound);
    });
  };
  return bounded(isDimAtMostSyntactically) || bounded(isDimAtMostByValueBounds);
}

/// Whether the body of `loop` has a subset op (a transfer or slice) whose
/// position operands are loop-invariant: the only ones
/// hoistLoopInvariantSubsets can hoist. Upstream proves every pair of subsets
/// of an iteration argument equivalent first (a Presburger problem each), so
/// loops where nothing can move are skipped.
bool hasInvariantSubset(scf::ForOp loop) {
  for (Operation &op : *loop.getBody()) {
    SmallVector<OpOperand *> data;
    if (auto extraction = dyn_cast<SubsetExtractionOpInterface>(op)) {
      data.push_back(&extraction.getSourceOperand());
    } else if (auto insertion = dyn_cast<SubsetInsertionOpInterface>(op)) {
      data.push_back(&insertion.getSourceOperand());
      data.push_back(&insertion.getDestinationOperand());
    } else {
      continue;
    }
    if (llvm::all_of(op.getOpOperands(), [&](OpOperand &operand) {
          return llvm::is_contained(data, &operand) ||
                 loop.isDefinedOutsideOfLoop(operand.get());
        }))
      return true;
  }
  return false;
}

/// Tiles every linalg op of `forall` to vector rows: 1 along every loop but
/// the innermost, which is `innermostSize` or, for 0, whole (`scf.for`
/// loops; reductions accumulate into the loop-carried destination).
LogicalResult tileToVectorRows(RewriterBase &rewriter, scf::ForallOp forall,
                               int64_t innermostSize) {
  SmallVector<linalg::LinalgOp> targets;
  forall.getBody()->walk([&](linalg::LinalgOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ranges.empty())
      return;
    bool outerUnit = llvm::all_of(ArrayRef(ranges).drop_back(),
                                  [](int64_t r) { return r == 1; });
    bool innermostFits = innermostSize == 0 ||
                         (!ShapedType::isDynamic(ranges.back()) &&
                          ranges.back() <= innermostSize) ||
                         hasUpperBound(op, ranges.size() - 1, innermostSize);
    if (!outerUnit || !innermostFits)
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets)
    if (failed(tileToVectorRow(rewriter, op, innermostSize)))
      return op->emitOpError() << "could not be tiled to vector rows";
  return success();
}

/// The threads' tile of an op with given statistics, which is elementwise:
/// whole innermost rows, about `kTileBytes` of them per tile along the
/// second innermost dim (a run-time count for a dynamic row length), 1
/// along the outer dims. Each thread streams contiguous memory.
SmallVector<OpFoldResult> chooseRowBlockTile(RewriterBase &rewriter,
                                             NormalizeOp op) {
  constexpr int64_t kTileBytes = 64 * 1024;
  int64_t rank = op.getRank();
  SmallVector<OpFoldResult> sizes(rank, rewriter.getIndexAttr(1));
  sizes.back() = rewriter.getIndexAttr(0);
  if (rank == 1)
    return sizes;
  ShapedType type = op.getInputType();
  int64_t elementBytes =
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  int64_t rowLength = type.getShape().back();
  if (!ShapedType::isDynamic(rowLength)) {
    sizes[rank - 2] = rewriter.getIndexAttr(
        std::max<int64_t>(kTileBytes / (rowLength * elementBytes), 1));
    return sizes;
  }
  // rows = max(kTileBytes / (rowLength · elementBytes), 1), at run time.
  Location loc = op.getLoc();
  Value length = tensor::DimOp::create(rewriter, loc, op.getInput(), rank - 1);
  Value rowBytes = arith::MulIOp::create(
      rewriter, loc, length,
      arith::ConstantIndexOp::create(rewriter, loc, elementBytes));
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value rows = arith::DivUIOp::create(
      rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, kTileBytes),
      arith::MaxUIOp::create(rewriter, loc, rowBytes, one));
  sizes[rank - 2] =
      arith::MaxUIOp::create(rewriter, loc, rows, one).getResult();
  return sizes;
}

} // namespace

FailureOr<scf::SCFTilingResult>
mlir::norm::tileToVectorRow(RewriterBase &rewriter, linalg::LinalgOp op,
                            int64_t innermostSize) {
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(1));
  sizes.back() = rewriter.getIndexAttr(innermostSize);
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (succeeded(tiled))
    rewriter.replaceOp(op, tiled->replacements);
  return tiled;
}

bool mlir::norm::hasInnermostParallelDim(NormalizeOp op) {
  int64_t rank = op.getRank();
  return op.hasPureTensorSemantics() && rank > 0 &&
         !op.isReductionAxis(rank - 1) && !op.getGroups();
}

/// Compensates the sums nested in `root`.
static LogicalResult compensateSums(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populateCompensateSumsPatterns(patterns);
  if (failed(applyNested(root, std::move(patterns))))
    return root->emitOpError() << "could not compensate its sums";
  return success();
}

/// Tiles `op` on scf.forall (the threads) and replaces it by the loop's
/// results; returns the loop and the tiled op.
static FailureOr<std::pair<scf::ForallOp, Operation *>>
tileOnThreads(RewriterBase &rewriter, TilingInterface op,
              ArrayRef<OpFoldResult> sizes) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(sizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, op, tiling);
  if (failed(tiled))
    return op->emitOpError() << "could not be tiled over threads";
  rewriter.replaceOp(op, tiled->replacements);
  return std::make_pair(
      cast<scf::ForallOp>(tiled->loops.front().getOperation()),
      tiled->tiledOps.front());
}

/// An op that computes its statistics: the op tiled over its parallel dims
/// (reduced dims whole), decomposed on the tile, its sums compensated; one
/// vector of accumulators spans the tile's innermost dim.
static FailureOr<scf::ForallOp>
tileComputedStatistics(RewriterBase &rewriter, NormalizeOp op,
                       const TileAndVectorizeOptions &options,
                       int64_t &vectorSize, int64_t &rowTile) {
  int64_t rank = op.getRank();
  vectorSize = chooseInnermostTile(op, options);
  rowTile = 0;
  SmallVector<OpFoldResult> tileSizes;
  for (int64_t d = 0; d < rank; ++d)
    tileSizes.push_back(rewriter.getIndexAttr(
        op.isReductionAxis(d) ? 0 : (d == rank - 1 ? vectorSize : 1)));
  FailureOr<std::pair<scf::ForallOp, Operation *>> tiled = tileOnThreads(
      rewriter, cast<TilingInterface>(op.getOperation()), tileSizes);
  if (failed(tiled))
    return failure();
  auto [forall, tiledOp] = *tiled;
  FailureOr<SmallVector<Value>> decomposed =
      cast<NormalizeOp>(tiledOp).decomposeOperation(rewriter);
  if (failed(decomposed))
    return failure();
  rewriter.replaceOp(tiledOp, *decomposed);

  // Serial accumulation per lane: compensated sums.
  if (failed(compensateSums(forall)))
    return failure();
  return forall;
}

/// An op with given statistics is elementwise: decomposed whole, its
/// normalize step tiled into row blocks, each row in vectors of four
/// registers. The per-channel maps stay outside the loop (once per call).
static FailureOr<scf::ForallOp>
tileGivenStatistics(RewriterBase &rewriter, NormalizeOp op, int64_t lanes,
                    int64_t &vectorSize, int64_t &rowTile) {
  vectorSize = rowTile = 4 * lanes;
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> tileSizes = chooseRowBlockTile(rewriter, op);
  Location loc = op.getLoc();
  FailureOr<SmallVector<Value>> decomposed = op.decomposeOperation(rewriter);
  if (failed(decomposed))
    return failure();
  rewriter.replaceOp(op, *decomposed);
  auto normalize = (*decomposed)[0].getDefiningOp<linalg::GenericOp>();
  if (!normalize || normalize.getNumLoops() != tileSizes.size())
    return emitError(loc) << "the decomposition's normalize step is not an "
                             "elementwise linalg.generic over the input";
  FailureOr<std::pair<scf::ForallOp, Operation *>> tiled = tileOnThreads(
      rewriter, cast<TilingInterface>(normalize.getOperation()), tileSizes);
  if (failed(tiled))
    return failure();
  return tiled->first;
}

/// Vectorizes the linalg ops of a thread tile: vector rows, unit dims
/// folded, `linalg::vectorize`, accumulators hoisted; with `rowSums`, the
/// masked last step of a row's partial sums folds into them; with
/// `rowsPerTile`, the ops over a multi-row tile's statistics ([rows]) are
/// vectors of that many lanes, read by the rows' steps in registers.
static LogicalResult vectorizeTile(RewriterBase &rewriter, scf::ForallOp forall,
                                   int64_t vectorSize, int64_t rowTile,
                                   bool rowSums = false,
                                   int64_t rowsPerTile = 0) {
  MLIRContext *ctx = forall.getContext();
  // Vector rows, unit dims folded, vectorized.
  if (failed(tileToVectorRows(rewriter, forall, rowTile)))
    return failure();
  // A row's elementwise loops (the normalize step) in whole vectors and a
  // partial last step: the whole ones load and store without masks (and may
  // stream their stores, see norm-stream-stores).
  {
    // The innermost loops of elementwise linalg ops (a GroupNorm slice's
    // rows are an scf.for over C/G of such loops).
    SmallVector<scf::ForOp> elementwiseLoops;
    forall.getBody()->walk([&](scf::ForOp loop) {
      if (loop.getInitArgs().empty() ||
          !isa<RankedTensorType>(loop.getInitArgs().front().getType()))
        return;
      // Fills and copies (a chunk's partials, in L1) stay masked: peeling
      // them would only add code.
      bool hasLinalg = false, elementwise = true, innermost = true,
           moves = true;
      for (Operation &op : *loop.getBody()) {
        innermost &= !isa<LoopLikeOpInterface>(op);
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
          hasLinalg = true;
          elementwise &= linalgOp.getNumReductionLoops() == 0;
          moves &= isa<linalg::FillOp, linalg::CopyOp>(op);
        }
      }
      if (hasLinalg && elementwise && innermost && !moves)
        elementwiseLoops.push_back(loop);
    });
    for (scf::ForOp loop : elementwiseLoops) {
      scf::ForOp partialIteration;
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partialIteration);
    }
  }
  {
    RewritePatternSet patterns(ctx);
    linalg::ControlDropUnitDims control;
    control.rankReductionStrategy =
        linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
    linalg::populateFoldUnitExtentDimsPatterns(patterns, control);
    linalg::populateFoldUnitExtentDimsCanonicalizationPatterns(patterns,
                                                               control);
    patterns.add<ScalarizeStaticIfResults, ScalarizeStaticWhileValues>(ctx);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not fold the tile's unit dims";
  }
  SmallVector<linalg::LinalgOp> rows;
  forall.getBody()->walk([&](linalg::LinalgOp row) { rows.push_back(row); });
  for (linalg::LinalgOp row : rows) {
    // An op the vectorizer does not take stays scalar: correct, slower. A
    // reduction left (a merge along its chunks) would need a masked
    // horizontal reduction, which 22.1 lowers to no LLVM.
    // A reduction whose static extent is one vector (a slice's partial
    // sums) needs no mask: one horizontal reduction.
    SmallVector<int64_t> ranges = row.getStaticLoopRanges();
    // A partial tile's statistics: masked lanes.
    bool overTileRows = rowsPerTile && ranges.size() == 1 &&
                        (ranges[0] == rowsPerTile ||
                         (ShapedType::isDynamic(ranges[0]) &&
                          hasUpperBound(row, /*dim=*/0, rowsPerTile)));
    SmallVector<int64_t> vectorSizes(row.getNumLoops(),
                                     overTileRows ? rowsPerTile : vectorSize);
    if (overTileRows) {
      // Statistics maps and the or over the tile's retries: whole vectors.
    } else if (row.getNumReductionLoops() > 0) {
      if (ranges.size() != 1 || ranges[0] != vectorSize)
        continue;
    } else if (row.getNumLoops() > 1) {
      continue;
    }
    SmallVector<bool> scalable(row.getNumLoops(), false);
    rewriter.setInsertionPoint(row);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, row, vectorSizes, scalable);
    if (succeeded(vectorized))
      rewriter.replaceOp(row, vectorized->replacements);
  }

  // Masks as masked transfers, subsets folded into the transfers, and
  // the accumulators hoisted into the row loops' iteration arguments.
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    // A slice's merge: one horizontal reduction (vector.reduction).
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not simplify the vectorized tile";
  }
  SmallVector<scf::ForOp> loops;
  forall.getBody()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    moveLoopInvariantCode(loop);
    if (hasInvariantSubset(loop))
      hoistLoopInvariantSubsets(rewriter, loop);
  }
  {
    RewritePatternSet patterns(ctx);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    tensor::populateFoldTensorSubsetOpPatterns(patterns);
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
    patterns.add<FoldWholeSlice<tensor::ExtractSliceOp>,
                 FoldWholeSlice<tensor::InsertSliceOp>, ForwardMaskedWrite,
                 ForwardScalarWrite, ReadOfSplatTensor>(ctx);
    // A row's partial sums: the masked last step updates them in place.
    if (rowSums)
      patterns.add<MergeMaskedWrite, FoldMaskedReadOfSlice,
                   FoldMaskedWriteIntoSlice>(ctx);
    if (rowsPerTile)
      patterns.add<ForwardLaneOfWrite, ForwardLaneOfWriteToExtract,
                   InsertSliceOfMaskedWrite>(ctx);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not simplify the vectorized tile";
  }
  // The partial steps left read and write their tensors masked in place
  // (after the values that pass in registers are forwarded), so that
  // bufferization's analysis has no slice pairs to prove equivalent: with
  // dynamic sizes each proof is a Presburger problem.
  {
    RewritePatternSet patterns(ctx);
    patterns.add<FoldMaskedReadOfSlice, FoldMaskedWriteIntoSlice,
                 FoldMaskedWriteAfterWrite>(ctx);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not fold the partial steps' slices";
  }
  return success();
}

/// Whether the reduced dims of `op` are its leading dims (BatchNorm over
/// [N, C] and NHWC): those ops split their reduced dims across threads.
static bool hasLeadingAxes(NormalizeOp op) {
  ArrayRef<int64_t> axes = op.getAxes();
  for (auto [i, axis] : llvm::enumerate(axes))
    if (axis != static_cast<int64_t>(i))
      return false;
  return !axes.empty() && static_cast<int64_t>(axes.size()) < op.getRank();
}

/// The rows per chunk of a split reduction over [M, rowElements]: at least
/// `kChunkBytes` of data (the chunk's partial sums stay in L1 while its rows
/// stream), and at most `kMaxChunks` chunks (the merge reads every chunk's
/// partials). A run-time value.
static Value chooseChunkRows(RewriterBase &rewriter, Location loc, Value x,
                             int64_t numReduced) {
  constexpr int64_t kChunkBytes = 256 * 1024;
  constexpr int64_t kMaxChunks = 256;
  auto type = cast<ShapedType>(x.getType());
  int64_t elementBytes =
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value rows = index(1), rowElements = index(1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value extent = tensor::DimOp::create(rewriter, loc, x, d);
    Value &product = d < numReduced ? rows : rowElements;
    product = arith::MulIOp::create(rewriter, loc, product, extent);
  }
  Value one = index(1);
  Value rowBytes = arith::MaxUIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, rowElements, index(elementBytes)),
      one);
  Value forCache =
      arith::CeilDivUIOp::create(rewriter, loc, index(kChunkBytes), rowBytes);
  Value forMerge =
      arith::CeilDivUIOp::create(rewriter, loc, rows, index(kMaxChunks));
  Value chunk = arith::MaxUIOp::create(rewriter, loc, forCache, forMerge);
  return arith::MaxUIOp::create(rewriter, loc, chunk, one);
}

/// A chunk's partial sums are a column of the [channels, chunks] partials
/// tensor (upstream's layout), strided: accumulate into a contiguous copy and
/// write it back once per chunk, so that the row loop's accumulators are
/// unit-stride vectors.
static void accumulateContiguously(RewriterBase &rewriter, scf::ForallOp chunks,
                                   ArrayRef<Operation *> partialOps) {
  for (Operation *partial : partialOps) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(partial);
    if (!linalgOp || partial->getParentOp() != chunks)
      continue;
    Location loc = partial->getLoc();
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
      auto shared =
          slice ? dyn_cast<BlockArgument>(slice.getSource()) : BlockArgument();
      if (!shared || shared.getOwner() != chunks.getBody())
        continue;
      rewriter.setInsertionPoint(partial);
      // A buffer of its own (alloc_tensor, which CSE does not merge with the
      // other outputs' identical ones; bufferization would copy a shared one).
      SmallVector<Value> dynamicSizes;
      for (auto [d, size] :
           llvm::enumerate(tensor::getMixedSizes(rewriter, loc, slice)))
        if (slice.getType().isDynamicDim(d))
          dynamicSizes.push_back(cast<Value>(size));
      Value empty = bufferization::AllocTensorOp::create(
          rewriter, loc, slice.getType(), dynamicSizes);
      // Partials that start filled (the combiner's identity) start so in the
      // local copy too, without reading the strided column.
      auto fill = chunks.getTiedOpOperand(shared)
                      ->get()
                      .getDefiningOp<linalg::FillOp>();
      Value local =
          fill ? linalg::FillOp::create(rewriter, loc, fill.getInputs(),
                                        ValueRange{empty})
                     .getResult(0)
               : linalg::CopyOp::create(rewriter, loc, ValueRange{slice},
                                        ValueRange{empty})
                     .getResult(0);
      init.set(local);
      OpResult result = linalgOp.getTiedOpResult(&init);
      rewriter.setInsertionPointAfter(partial);
      auto back = linalg::CopyOp::create(rewriter, loc, ValueRange{result},
                                         ValueRange{slice});
      rewriter.replaceAllUsesExcept(result, back.getResult(0), back);
    }
  }
}

/// Unroll-and-jam of a chunk's rows: each reduction over the chunk's
/// [rows, channels] is tiled into blocks of `rowsPerStep` rows, each block
/// into vector columns, and the block's rows are unrolled in the column, so
/// that a column's partial sums stay in registers across the block's rows
/// and are read and written once per block instead of once per row. The
/// blocks are whole (the rows loop peeled); the last rows of a chunk take one
/// row per step. The rows still join the partial sums in order, so the sums
/// are those of one row at a time, bit for bit.
static LogicalResult jamChunkRows(RewriterBase &rewriter, scf::ForallOp chunks,
                                  int64_t rowsPerStep, int64_t vectorSize) {
  SmallVector<linalg::LinalgOp> reductions;
  for (Operation &nested : *chunks.getBody())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&nested))
      if (linalgOp.getNumLoops() == 2 &&
          linalgOp.getIteratorTypesArray() ==
              SmallVector<utils::IteratorType>{utils::IteratorType::reduction,
                                               utils::IteratorType::parallel})
        reductions.push_back(linalgOp);
  // `op` tiled by `sizes` (scf.for): its outermost loop and tiled op.
  auto tile = [&](linalg::LinalgOp op, ArrayRef<int64_t> sizes)
      -> FailureOr<std::pair<scf::ForOp, linalg::LinalgOp>> {
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(chunks.getContext(), sizes));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled) || tiled->loops.empty() || tiled->tiledOps.size() != 1)
      return op->emitOpError() << "could not be tiled by " << sizes;
    rewriter.replaceOp(op, tiled->replacements);
    return std::make_pair(cast<scf::ForOp>(tiled->loops.front().getOperation()),
                          cast<linalg::LinalgOp>(tiled->tiledOps.front()));
  };
  for (linalg::LinalgOp reduction : reductions) {
    auto blocks = tile(reduction, {rowsPerStep, vectorSize});
    if (failed(blocks))
      return failure();
    scf::ForOp rowsLoop = blocks->first;
    // Whole blocks, then the last rows (fewer than a block). Peeling fails
    // where the rows divide into whole blocks statically, or are fewer than
    // one block.
    scf::ForOp lastRows;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, rowsLoop, lastRows);
    {
      // The main loop's blocks are static: rowsPerStep rows.
      RewritePatternSet patterns(chunks.getContext());
      addCanonicalizations(patterns);
      if (failed(applyNested(rowsLoop, std::move(patterns))))
        return rowsLoop.emitOpError() << "could not simplify its row blocks";
    }
    // In each column, a whole block's rows unrolled, other rows one at a
    // time. (A single column's loop may have folded away.)
    SmallVector<scf::ForOp> loops = {rowsLoop};
    if (lastRows)
      loops.push_back(lastRows);
    for (scf::ForOp loop : loops) {
      linalg::LinalgOp block;
      loop.getBody()->walk([&](linalg::LinalgOp op) { block = op; });
      if (!block)
        return loop.emitOpError() << "has no block of rows";
      bool whole = block.getStaticLoopRanges().front() == rowsPerStep;
      auto rows = tile(block, {1, 0});
      if (failed(rows))
        return failure();
      if (whole && failed(loopUnrollFull(rows->first)))
        return loop.emitOpError() << "could not unroll a block's rows";
    }
  }
  return success();
}

/// The merges of one split reduction as one linalg.generic: they reduce
/// tensors of one shape ([channels, chunks]) over the same dims, so one loop
/// nest computes them all. The merges are consecutive ops, none using
/// another's results.
static FailureOr<linalg::GenericOp>
fuseMerges(RewriterBase &rewriter, ArrayRef<linalg::GenericOp> merges) {
  linalg::GenericOp first = merges.front(), last = merges.back();
  SmallVector<utils::IteratorType> iterators = first.getIteratorTypesArray();
  SmallVector<Value> inputs, inits;
  SmallVector<AffineMap> inputMaps, initMaps;
  for (linalg::GenericOp merge : merges) {
    if (merge.getIteratorTypesArray() != iterators ||
        !merge.hasPureTensorSemantics() ||
        merge->getBlock() != last->getBlock())
      return failure();
    for (Value result : merge->getResults())
      for (Operation *user : result.getUsers())
        if (user->getBlock() == last->getBlock() && user->isBeforeInBlock(last))
          return failure();
    for (OpOperand *input : merge.getDpsInputOperands()) {
      inputs.push_back(input->get());
      inputMaps.push_back(merge.getMatchingIndexingMap(input));
    }
    for (OpOperand &init : merge.getDpsInitsMutable()) {
      inits.push_back(init.get());
      initMaps.push_back(merge.getMatchingIndexingMap(&init));
    }
  }
  SmallVector<AffineMap> maps = inputMaps;
  llvm::append_range(maps, initMaps);
  rewriter.setInsertionPointAfter(last);
  auto fused = linalg::GenericOp::create(
      rewriter, first.getLoc(), ValueRange(inits).getTypes(), inputs, inits,
      maps, iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        IRMapping map;
        SmallVector<Value> yielded;
        unsigned inputOffset = 0, initOffset = inputs.size();
        for (linalg::GenericOp merge : merges) {
          Block *body = merge.getBody();
          unsigned numInputs = merge.getNumDpsInputs();
          for (auto [i, arg] : llvm::enumerate(body->getArguments()))
            map.map(arg, i < numInputs ? args[inputOffset + i]
                                       : args[initOffset + (i - numInputs)]);
          inputOffset += numInputs;
          initOffset += merge.getNumDpsInits();
          for (Operation &op : body->without_terminator())
            b.clone(op, map);
          for (Value v : body->getTerminator()->getOperands())
            yielded.push_back(map.lookupOrDefault(v));
        }
        linalg::YieldOp::create(b, loc, yielded);
      });
  unsigned next = 0;
  for (linalg::GenericOp merge : merges) {
    unsigned count = merge->getNumResults();
    rewriter.replaceOp(merge, fused->getResults().slice(next, count));
    next += count;
  }
  return fused;
}

/// An op that computes its statistics over its leading dims: decomposed
/// whole; each reduction (its reduced dims collapsed into one) split into
/// chunks of rows on scf.forall with upstream's partial reductions
/// (PartialReductionOuterParallel), each chunk streaming its rows into
/// compensated partial sums, the partials merged in chunk order by a
/// column-tiled, vectorized reduction; the normalize step in row blocks.
/// The chunking depends on the shape only, so the result is bitwise the same
/// for every thread count.
static LogicalResult splitComputedStatistics(RewriterBase &rewriter,
                                             NormalizeOp op, int64_t lanes) {
  int64_t vectorSize = 4 * lanes;
  // Rows per unrolled step of a chunk (jamChunkRows).
  constexpr int64_t kRowsPerStep = 4;
  int64_t numReduced = op.getAxes().size();
  Location loc = op.getLoc();
  Value input = op.getInput();
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> blockSizes = chooseRowBlockTile(rewriter, op);
  Value chunkRows = chooseChunkRows(rewriter, loc, input, numReduced);

  // The decomposition's reductions over x are among the ops inserted before
  // `op` (the or over its statistics stays whole; a retry runs serially).
  Block *block = op->getBlock();
  Operation *before = op->getPrevNode();
  FailureOr<SmallVector<Value>> decomposed = op.decomposeOperation(rewriter);
  if (failed(decomposed))
    return failure();
  SmallVector<linalg::LinalgOp> reductions;
  for (Operation &nested : llvm::make_range(
           before ? std::next(before->getIterator()) : block->begin(),
           op->getIterator()))
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&nested))
      if (linalgOp.getNumReductionLoops() > 0 &&
          linalgOp.getNumLoops() == static_cast<unsigned>(op.getRank()))
        reductions.push_back(linalgOp);
  rewriter.replaceOp(op, *decomposed);
  auto normalize = (*decomposed)[0].getDefiningOp<linalg::GenericOp>();
  if (!normalize || normalize.getNumLoops() != blockSizes.size())
    return emitError(loc) << "the decomposition's normalize step is not an "
                             "elementwise linalg.generic over the input";

  ReassociationIndices leading =
      llvm::to_vector(llvm::seq<int64_t>(0, numReduced));
  for (linalg::LinalgOp reduction : reductions) {
    // [d0 .. dk-1, rest] -> [M, rest].
    if (numReduced > 1) {
      SmallVector<ReassociationIndices> folded = {leading};
      rewriter.setInsertionPoint(reduction);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(reduction, folded, rewriter);
      if (failed(collapsed))
        return reduction->emitOpError() << "could not collapse its reduced "
                                           "dims";
      rewriter.replaceOp(reduction, collapsed->results);
      reduction = collapsed->collapsedOp;
    }
    // Chunks of rows on threads, partials merged after the loop.
    SmallVector<OpFoldResult> sizes(reduction.getNumLoops(),
                                    rewriter.getIndexAttr(0));
    sizes[0] = chunkRows;
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(sizes);
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    tiling.setReductionTilingStrategy(
        ReductionTilingStrategy::PartialReductionOuterParallel);
    tiling.setReductionDims({0});
    rewriter.setInsertionPoint(reduction);
    FailureOr<scf::SCFTilingResult> split = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(reduction.getOperation()), tiling);
    if (failed(split))
      return reduction->emitOpError()
             << "could not be split into partial reductions";
    rewriter.replaceOp(reduction, split->replacements);
    auto chunks = cast<scf::ForallOp>(split->loops.front().getOperation());
    accumulateContiguously(rewriter, chunks, split->tiledOps);
    if (failed(compensateSums(chunks)) ||
        failed(jamChunkRows(rewriter, chunks, kRowsPerStep, vectorSize)) ||
        failed(vectorizeTile(rewriter, chunks, vectorSize, vectorSize)))
      return failure();

    // The merge: a reduction over the chunks, tiled over columns with its
    // accumulators in registers; the split's merges (one per partial) share
    // one loop.
    SmallVector<linalg::GenericOp> merges;
    for (Operation *merge : split->mergeOps) {
      auto named = dyn_cast<linalg::LinalgOp>(merge);
      if (!named)
        return merge->emitOpError() << "is not a linalg merge";
      if (auto g = dyn_cast<linalg::GenericOp>(merge)) {
        merges.push_back(g);
        continue;
      }
      rewriter.setInsertionPoint(merge);
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, named);
      if (failed(generalized))
        return merge->emitOpError() << "could not be generalized";
      merges.push_back(*generalized);
    }
    if (merges.size() > 1) {
      FailureOr<linalg::GenericOp> fused = fuseMerges(rewriter, merges);
      if (failed(fused))
        return merges.front()->emitOpError()
               << "could not share a loop with the other merges";
      merges = {*fused};
    }
    for (linalg::GenericOp generic : merges) {
      // Threads over the parallel (channel) dims, `vectorSize` of the
      // innermost one per tile; the chunks dim whole.
      SmallVector<utils::IteratorType> iterators =
          generic.getIteratorTypesArray();
      SmallVector<OpFoldResult> columns;
      for (utils::IteratorType type : iterators)
        columns.push_back(rewriter.getIndexAttr(
            type == utils::IteratorType::reduction ? 0 : 1));
      for (int64_t d = iterators.size() - 1; d >= 0; --d) {
        if (iterators[d] == utils::IteratorType::parallel) {
          columns[d] = rewriter.getIndexAttr(vectorSize);
          break;
        }
      }
      FailureOr<std::pair<scf::ForallOp, Operation *>> mergeLoop =
          tileOnThreads(rewriter, cast<TilingInterface>(generic.getOperation()),
                        columns);
      if (failed(mergeLoop) || failed(compensateSums(mergeLoop->first)) ||
          failed(vectorizeTile(rewriter, mergeLoop->first, vectorSize, 0)))
        return failure();
    }
  }

  // The normalize step: row blocks, vector rows.
  FailureOr<std::pair<scf::ForallOp, Operation *>> rowsLoop = tileOnThreads(
      rewriter, cast<TilingInterface>(normalize.getOperation()), blockSizes);
  if (failed(rowsLoop))
    return failure();
  return vectorizeTile(rewriter, rowsLoop->first, vectorSize, vectorSize);
}

/// Splits the innermost dim of `reduction` (its other dims unit) into
/// `vectorSize` partial sums carried by an scf.for
/// (PartialReductionOuterReduction), merged after the loop; the loop's full
/// steps are peeled from its partial last one.
static LogicalResult splitRowReduction(RewriterBase &rewriter,
                                       linalg::LinalgOp reduction,
                                       int64_t vectorSize) {
  unsigned innermost = reduction.getNumLoops() - 1;
  SmallVector<OpFoldResult> sizes(innermost, rewriter.getIndexAttr(0));
  sizes.push_back(rewriter.getIndexAttr(vectorSize));
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(sizes);
  tiling.setReductionTilingStrategy(
      ReductionTilingStrategy::PartialReductionOuterReduction);
  tiling.setReductionDims({innermost});
  rewriter.setInsertionPoint(reduction);
  FailureOr<scf::SCFTilingResult> split = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(reduction.getOperation()), tiling);
  if (failed(split))
    return reduction->emitOpError()
           << "could not be split into vector partial sums";
  rewriter.replaceOp(reduction, split->replacements);
  auto loop = cast<scf::ForOp>(split->loops.front().getOperation());
  scf::ForOp partialIteration;
  if (failed(
          scf::peelForLoopAndSimplifyBounds(rewriter, loop, partialIteration)))
    return success();
  // The partial step runs at most once, over fewer than `vectorSize`
  // elements, possibly none: its body runs unconditionally, masked.
  rewriter.setInsertionPoint(partialIteration);
  SmallVector<Value> replacements(partialIteration.getInitArgs());
  replacements.insert(replacements.begin(), partialIteration.getLowerBound());
  Block *body = partialIteration.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> results(yield.getOperands());
  rewriter.inlineBlockBefore(body, partialIteration, replacements);
  rewriter.replaceOp(partialIteration, results);
  rewriter.eraseOp(yield);
  return success();
}

/// The combiner of each output of a reduction on outputs of `outputRank`:
/// the op that yields it from its block argument and one other value.
static FailureOr<SmallVector<Operation *>>
getCombiners(linalg::LinalgOp reduction, int64_t outputRank) {
  SmallVector<Operation *> combiners;
  Block *body = reduction.getBlock();
  for (OpOperand &init : reduction.getDpsInitsMutable()) {
    if (cast<ShapedType>(init.get().getType()).getRank() != outputRank)
      return failure();
    BlockArgument acc = reduction.getMatchingBlockArgument(&init);
    Value yielded = body->getTerminator()->getOperand(
        init.getOperandNumber() - reduction.getNumDpsInputs());
    Operation *combiner = yielded.getDefiningOp();
    if (!combiner || combiner->getNumOperands() != 2 ||
        combiner->getNumResults() != 1 ||
        !llvm::is_contained(combiner->getOperands(), acc))
      return failure();
    combiners.push_back(combiner);
  }
  return combiners;
}

/// A slice's reduction in blocks of `blockSize` elements of its innermost
/// dim (the row; the dims before it, if any, are loops over the rows, each
/// row in its own blocks): each block reduces into fresh partial sums
/// (splitRowReduction), and the blocks' totals join in scalars, sums
/// compensated (Kahan), so that the error does not grow with the slice's
/// size while the vector loop stays plain.
/// With `rowsPerTile`, the reduction is over a tile of that many rows,
/// [rows, length] -> [rows]: each row is reduced as a slice of its own, in
/// a loop over the rows whose totals are lanes of vectors, so that the
/// statistics steps after it run on the tile's rows at once.
/// With `peelFirstBlock`, a row's first block runs before the loop over the
/// others; without, all blocks run in the loop (half the code, one loop trip
/// more; the same sums either way).
static LogicalResult reduceRowInBlocks(RewriterBase &rewriter,
                                       linalg::LinalgOp reduction,
                                       int64_t vectorSize, int64_t blockSize,
                                       int64_t rowsPerTile = 0,
                                       bool peelFirstBlock = true) {
  unsigned numLoops = reduction.getNumLoops();
  int64_t extent = reduction.getStaticLoopRanges().back();
  if (!rowsPerTile && numLoops == 1 && !ShapedType::isDynamic(extent) &&
      extent <= blockSize)
    return splitRowReduction(rewriter, reduction, vectorSize);
  FailureOr<SmallVector<Operation *>> combiners =
      getCombiners(reduction, /*outputRank=*/rowsPerTile ? 1 : 0);
  if (failed(combiners))
    return reduction->emitOpError()
           << "is not a reduction into scalars by binary combiners";
  if (rowsPerTile &&
      (numLoops != 2 || reduction.getNumParallelLoops() != 1 ||
       !linalg::isParallelIterator(reduction.getIteratorTypesArray()[0]) ||
       !hasUpperBound(reduction, /*dim=*/0, rowsPerTile)))
    return reduction->emitOpError()
           << "is not a reduction of at most " << rowsPerTile << " rows";
  Location loc = reduction.getLoc();
  rewriter.setInsertionPoint(reduction);
  SmallVector<Range> domain = cast<TilingInterface>(reduction.getOperation())
                                  .getIterationDomain(rewriter);
  SmallVector<Value> sizes;
  for (const Range &range : domain)
    sizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  Value size = sizes.back();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, blockSize);

  // Totals start at the reduction's initial values, carries at 0; a tile's
  // rows' initial values are lanes of vectors.
  SmallVector<Value> inits;
  SmallVector<Value> identities;
  // A tile's rows' filled initial values as scalars: each row starts from
  // it without reading its lane back (a lane extract at a run-time index
  // goes through memory).
  SmallVector<Value> filledRowInits;
  for (auto [init, combiner] : llvm::zip(reduction.getDpsInits(), *combiners)) {
    Type type = cast<ShapedType>(init.getType()).getElementType();
    // A filled initial value (through slices) is its scalar.
    Value source = init;
    while (auto slice = source.getDefiningOp<tensor::ExtractSliceOp>())
      source = slice.getSource();
    auto fill = source.getDefiningOp<linalg::FillOp>();
    if (rowsPerTile) {
      auto rowsType = VectorType::get({rowsPerTile}, type);
      filledRowInits.push_back(fill ? fill.getInputs()[0] : Value());
      if (fill) {
        inits.push_back(vector::BroadcastOp::create(rewriter, loc, rowsType,
                                                    fill.getInputs()[0]));
      } else {
        // The lanes past a partial tile's rows are poison.
        Value mask = vector::CreateMaskOp::create(
            rewriter, loc, VectorType::get({rowsPerTile}, rewriter.getI1Type()),
            ValueRange{sizes[0]});
        inits.push_back(vector::TransferReadOp::create(
            rewriter, loc, rowsType, init, ValueRange{zero},
            ub::PoisonOp::create(rewriter, loc, type), ArrayRef<bool>{true}));
        if (!isConstantIntValue(domain[0].size, rowsPerTile))
          inits.back() = vector::maskOperation(
                             rewriter, inits.back().getDefiningOp(), mask)
                             ->getResult(0);
      }
    } else {
      inits.push_back(
          fill ? fill.getInputs()[0]
               : tensor::ExtractOp::create(rewriter, loc, init).getResult());
    }
    std::optional<TypedAttr> identity = arith::getNeutralElement(combiner);
    if (!identity)
      return reduction->emitOpError() << "has a combiner without identity";
    identities.push_back(
        arith::ConstantOp::create(rewriter, loc, type, *identity));
  }
  unsigned numOutputs = inits.size();
  for (unsigned q = 0; q < numOutputs; ++q)
    inits.push_back(arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(identities[q].getType())));

  auto tiling = cast<TilingInterface>(reduction.getOperation());
  SmallVector<linalg::LinalgOp> blocks;
  // One block of row `rows` at `start`: its partial sums, joined into
  // `totals`; false if the reduction does not tile.
  auto reduceBlock = [&](OpBuilder &b, Location nestedLoc, ValueRange rows,
                         Value start, ValueRange totals,
                         SmallVector<Value> &next) -> bool {
    AffineExpr d0, d1;
    bindDims(b.getContext(), d0, d1);
    Value length = affine::makeComposedAffineMin(
        b, nestedLoc,
        AffineMap::get(2, 1, {b.getAffineSymbolExpr(0), d1 - d0},
                       b.getContext()),
        {start, size, step});
    SmallVector<OpFoldResult> offsets(rows.begin(), rows.end());
    offsets.push_back(start);
    SmallVector<OpFoldResult> lengths(rows.size(), b.getIndexAttr(1));
    lengths.push_back(length);
    IRRewriter nested(b);
    FailureOr<TilingResult> tiled =
        tiling.getTiledImplementation(nested, offsets, lengths);
    next.assign(totals.begin(), totals.end());
    if (failed(tiled) || tiled->tiledOps.size() != 1)
      return false;
    auto block = cast<linalg::LinalgOp>(tiled->tiledOps.front());
    blocks.push_back(block);
    // Fresh partial sums per block (0-d, or one element of a tile's rows).
    for (auto [q, init] : llvm::enumerate(block.getDpsInitsMutable())) {
      Value empty = tensor::EmptyOp::create(
          b, nestedLoc, cast<ShapedType>(init.get().getType()).getShape(),
          identities[q].getType());
      init.set(linalg::FillOp::create(b, nestedLoc, identities[q], empty)
                   .getResult(0));
    }
    SmallVector<Value> blockResults(block->getResults());
    if (rowsPerTile) {
      // A row's block reduces into 0-d partial sums, as a slice's.
      auto generic = dyn_cast<linalg::GenericOp>(block.getOperation());
      linalg::ControlDropUnitDims control;
      control.rankReductionStrategy = linalg::ControlDropUnitDims::
          RankReductionStrategy::ExtractInsertSlice;
      FailureOr<linalg::DropUnitDimsResult> dropped =
          generic ? linalg::dropUnitDims(nested, generic, control)
                  : FailureOr<linalg::DropUnitDimsResult>(failure());
      if (failed(dropped))
        return false;
      nested.replaceOp(block, dropped->replacements);
      block = cast<linalg::LinalgOp>(dropped->resultOp.getOperation());
      blocks.back() = block;
      blockResults = dropped->replacements;
    }
    for (unsigned q = 0; q < numOutputs; ++q) {
      SmallVector<Value> first(
          cast<ShapedType>(blockResults[q].getType()).getRank(), zero);
      Value part =
          tensor::ExtractOp::create(b, nestedLoc, blockResults[q], first);
      Operation *combiner = (*combiners)[q];
      if (isa<arith::AddFOp>(combiner)) {
        std::tie(next[q], next[numOutputs + q]) = buildCompensatedAdd(
            b, nestedLoc, totals[q], totals[numOutputs + q], part);
        continue;
      }
      IRMapping map;
      Value accArg = reduction.getMatchingBlockArgument(
          &reduction.getDpsInitsMutable()[q]);
      for (Value operand : combiner->getOperands())
        map.map(operand, operand == accArg ? totals[q] : part);
      next[q] = b.clone(*combiner, map)->getResult(0);
    }
    return true;
  };
  // A row's blocks: when peeled, the first outside the loop (a row of at
  // most one block, the common case, runs no loop and no loop-carried
  // totals), the later ones join them in the loop, as the first would have.
  bool tiled = true;
  auto reduceRow = [&](OpBuilder &b, Location nestedLoc, ValueRange rows,
                       ValueRange totals) -> SmallVector<Value> {
    SmallVector<Value> loopTotals(totals.begin(), totals.end());
    Value loopStart = zero;
    if (peelFirstBlock) {
      SmallVector<Value> firstTotals;
      tiled &= reduceBlock(b, nestedLoc, rows, zero, totals, firstTotals);
      loopTotals = firstTotals;
      loopStart = step;
    }
    // Unpeeled, a static row's partial last block runs after the loop over
    // its whole blocks (which folds away for a row of one block), in whole
    // vector steps where its length allows (no mask).
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    int64_t tail = !peelFirstBlock && staticSize ? *staticSize % blockSize : 0;
    Value loopEnd =
        tail ? arith::ConstantIndexOp::create(b, nestedLoc, *staticSize - tail)
                   .getResult()
             : size;
    auto loop = scf::ForOp::create(
        b, nestedLoc, loopStart, loopEnd, step, loopTotals,
        [&](OpBuilder &lb, Location l, Value start, ValueRange carried) {
          SmallVector<Value> next;
          tiled &= reduceBlock(lb, l, rows, start, carried, next);
          scf::YieldOp::create(lb, l, next);
        });
    if (!tail)
      return SmallVector<Value>(loop.getResults());
    SmallVector<Value> lastTotals;
    tiled &=
        reduceBlock(b, nestedLoc, rows, loopEnd, loop.getResults(), lastTotals);
    return lastTotals;
  };
  if (rowsPerTile) {
    // A tile's rows: each row's totals start at its lane of the initial
    // values and become its lane of the results.
    ValueRange rowInits = ValueRange(inits).take_front(numOutputs);
    auto rowsLoop = scf::ForOp::create(
        rewriter, loc, zero, sizes[0], one, rowInits,
        [&](OpBuilder &b, Location nestedLoc, Value row, ValueRange lanes) {
          SmallVector<Value> totals;
          for (auto [lane, filled] : llvm::zip(lanes, filledRowInits))
            totals.push_back(filled ? filled
                                    : vector::ExtractOp::create(
                                          b, nestedLoc, lane, OpFoldResult(row))
                                          .getResult());
          totals.append(inits.begin() + numOutputs, inits.end());
          SmallVector<Value> rowTotals =
              reduceRow(b, nestedLoc, ValueRange{row}, totals);
          SmallVector<Value> next;
          for (unsigned q = 0; q < numOutputs; ++q)
            next.push_back(vector::InsertOp::create(
                b, nestedLoc, rowTotals[q], lanes[q], OpFoldResult(row)));
          scf::YieldOp::create(b, nestedLoc, next);
        });
    if (!tiled)
      return reduction->emitOpError() << "could not be tiled into blocks";
    // The rows' totals as the reduction's [rows] results (a partial tile's
    // lanes masked).
    SmallVector<Value> results;
    Value mask = vector::CreateMaskOp::create(
        rewriter, loc, VectorType::get({rowsPerTile}, rewriter.getI1Type()),
        ValueRange{sizes[0]});
    OpFoldResult rowCount = domain[0].size;
    for (unsigned q = 0; q < numOutputs; ++q) {
      Value empty = tensor::EmptyOp::create(rewriter, loc,
                                            SmallVector<OpFoldResult>{rowCount},
                                            identities[q].getType());
      auto write = vector::TransferWriteOp::create(
          rewriter, loc, rowsLoop.getResult(q), empty, ValueRange{zero},
          ArrayRef<bool>{true});
      results.push_back(
          isConstantIntValue(rowCount, rowsPerTile)
              ? Value(write.getResult())
              : vector::maskOperation(rewriter, write, mask)->getResult(0));
    }
    rewriter.replaceOp(reduction, results);
    for (linalg::LinalgOp block : blocks)
      if (failed(splitRowReduction(rewriter, block, vectorSize)))
        return failure();
    return success();
  }

  // The rows: one loop per dim before the innermost (none for a 1-D
  // reduction), totals carried.
  ValueRange rowCounts = ValueRange(sizes).drop_back();
  SmallVector<Value> zeros(rowCounts.size(), zero), ones(rowCounts.size(), one);
  SmallVector<Value> totals =
      scf::buildLoopNest(rewriter, loc, zeros, rowCounts, ones, inits,
                         [&](OpBuilder &b, Location nestedLoc, ValueRange rows,
                             ValueRange carried) -> scf::ValueVector {
                           return reduceRow(b, nestedLoc, rows, carried);
                         })
          .results;
  if (!tiled)
    return reduction->emitOpError() << "could not be tiled into blocks";

  // The totals (carries dropped) as the reduction's 0-d results.
  SmallVector<Value> results;
  for (unsigned q = 0; q < numOutputs; ++q) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{},
                                          identities[q].getType());
    results.push_back(
        linalg::FillOp::create(rewriter, loc, totals[q], empty).getResult(0));
  }
  rewriter.replaceOp(reduction, results);
  for (linalg::LinalgOp block : blocks)
    if (failed(splitRowReduction(rewriter, block, vectorSize)))
      return failure();
  return success();
}

/// The 16-bit affine operands of `op` widened to its accumulation type once,
/// by an elementwise linalg.generic ahead of the threads' loop: every row
/// reads them, and widening them in each row's normalize step costs more
/// than reading twice the bytes from cache. extf is exact: the same values.
static void widenAffineOperands(RewriterBase &rewriter, NormalizeOp op) {
  Type acc = op.getAccumulationType();
  Location loc = op.getLoc();
  for (MutableOperandRange operands :
       {op.getScaleMutable(), op.getBiasMutable()}) {
    if (operands.empty())
      continue;
    OpOperand &operand = operands[0];
    auto type = cast<RankedTensorType>(operand.get().getType());
    if (type.getElementType() == acc)
      continue;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, operand.get()),
        acc);
    AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
    auto widened = linalg::GenericOp::create(
        rewriter, loc, TypeRange{empty.getType()}, ValueRange{operand.get()},
        ValueRange{empty}, ArrayRef<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(type.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          linalg::YieldOp::create(
              b, nestedLoc,
              arith::ExtFOp::create(b, nestedLoc, acc, args[0]).getResult());
        });
    rewriter.modifyOpInPlace(op, [&] { operand.set(widened.getResult(0)); });
  }
}

/// The statistics of a row-statistics op's thread tile `tiledOp` (one slice,
/// or `rowsPerTile` rows of one): decomposed on the tile (the slice stays in
/// L1/L2 between its passes), each reduction in blocks of
/// `kLaneTermsPerBlock` steps of `4 · lanes` partial sums (four vector
/// accumulators), one horizontal reduction per block, the blocks' totals
/// compensated; the normalize step in vector rows. A multi-row tile's
/// statistics steps run on its rows' lanes at once.
static LogicalResult rowStatisticsOnTile(RewriterBase &rewriter,
                                         scf::ForallOp forall,
                                         Operation *tiledOp, int64_t lanes,
                                         bool contiguousSlices,
                                         int64_t rowsPerTile) {
  int64_t vectorSize = 4 * lanes;
  // The slice's statistics stay in registers across the retry's scf.if
  // (ScalarizeStaticIfResults): the scaled pass tries k = 1 first.
  DecomposeOptions decomposition;
  decomposition.retryScaling = true;
  FailureOr<SmallVector<Value>> decomposed =
      decomposeNormalizeOp(rewriter, cast<NormalizeOp>(tiledOp), decomposition);
  if (failed(decomposed))
    return failure();
  rewriter.replaceOp(tiledOp, *decomposed);

  MLIRContext *ctx = forall.getContext();
  {
    RewritePatternSet patterns(ctx);
    linalg::ControlDropUnitDims control;
    control.rankReductionStrategy =
        linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
    linalg::populateFoldUnitExtentDimsPatterns(patterns, control);
    linalg::populateFoldUnitExtentDimsCanonicalizationPatterns(patterns,
                                                               control);
    addCanonicalizations(patterns);
    // The merges' initial values: fills of their own (0-d) tensors, which
    // vectorize into values instead of a tile-sized buffer; the same for
    // the statistics a retry branch yields.
    linalg::populateSwapExtractSliceWithFillPatterns(patterns);
    patterns.add<ScalarizeStaticIfResults, ScalarizeStaticWhileValues>(ctx);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not fold the slice's unit dims";
  }
  // The reductions over the slice: a multi-row tile's [rows, length] ones;
  // not the or over the statistics (over unit dims, or the tile's rows).
  SmallVector<linalg::LinalgOp> reductions;
  forall.getBody()->walk([&](linalg::LinalgOp linalgOp) {
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    if (linalgOp.getNumReductionLoops() == 0)
      return;
    if (rowsPerTile ? linalgOp.getNumParallelLoops() == 1
                    : !llvm::all_of(ranges, [](int64_t r) { return r == 1; }))
      reductions.push_back(linalgOp);
  });
  for (linalg::LinalgOp reduction : reductions) {
    // A GroupNorm slice, [C/G, H·W], is contiguous: one row. The collapse
    // moves onto the whole input (BubbleCollapseThroughSlice), where the
    // layout allows it without a copy. A BatchNorm slice, [N, H·W], is not:
    // its rows are reduced one after the other.
    if (!rowsPerTile && reduction.getNumLoops() > 1 && contiguousSlices) {
      if (reduction.getNumReductionLoops() != reduction.getNumLoops())
        return reduction->emitOpError()
               << "is not a reduction over its slice's dims only";
      SmallVector<ReassociationIndices> all = {
          llvm::to_vector(llvm::seq<int64_t>(0, reduction.getNumLoops()))};
      rewriter.setInsertionPoint(reduction);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(reduction, all, rewriter);
      if (failed(collapsed))
        return reduction->emitOpError() << "could not collapse its dims";
      rewriter.replaceOp(reduction, collapsed->results);
      reduction = collapsed->collapsedOp;
    }
    // The rescale retry's reductions (under its scf.if, or in the after
    // region of the loop that runs the pass again) run only for inputs
    // whose squares overflow: their code need not be fast.
    Operation *retry = reduction->getParentOfType<scf::IfOp>();
    if (auto loop = reduction->getParentOfType<scf::WhileOp>();
        loop && loop.getAfter().isAncestor(reduction->getParentRegion()))
      retry = loop;
    bool inRetry = retry && forall->isProperAncestor(retry);
    if (failed(reduceRowInBlocks(rewriter, reduction, vectorSize,
                                 kLaneTermsPerBlock * vectorSize, rowsPerTile,
                                 /*peelFirstBlock=*/!inRetry)))
      return failure();
  }
  {
    RewritePatternSet patterns(ctx);
    patterns.add<BubbleCollapseThroughSlice>(ctx);
    addCanonicalizations(patterns);
    if (failed(applyNested(forall, std::move(patterns))))
      return forall.emitOpError() << "could not collapse the slice";
  }
  return vectorizeTile(rewriter, forall, vectorSize, vectorSize,
                       /*rowSums=*/true, rowsPerTile);
}

/// Short rows: tiles of at most kShortRowTileBytes and at least
/// kMinRowsPerTile rows. Measured on Zen 4 (AVX-512, f32 LayerNorm, one
/// thread, L3-resident 8192 rows): 128 per row 1.21x the row-per-tile form
/// at 8 rows per tile; 256 per row 0.95x at 4 rows and 0.84x at 8 rows of
/// 8 KiB tiles: fewer rows save too little of the statistics' latency for
/// the code they add, and larger tiles lose to the row-per-tile form.
constexpr int64_t kShortRowTileBytes = 4 * 1024;
constexpr int64_t kMinRowsPerTile = 8;
/// A dynamic row length has one body for every length, so that a row per
/// tile pays the multi-row body's per-tile steps: tiles of 2 and 4 rows
/// share them (2 rows of up to 4 KiB each), where the input is
/// cache-resident; from DRAM they lose to one row per tile. Measured on
/// Zen 4 (f32 LayerNorm, one thread, against one row per tile of that
/// body): 2048x256 1.28x at 4 rows, 1024x768 1.12x at 2 rows; 65536x256
/// (64 MiB) 0.92x at 4 rows.
constexpr int64_t kMinDynamicRowsPerTile = 2;
constexpr int64_t kDynamicTwoRowTileBytes = 2 * kShortRowTileBytes;
constexpr int64_t kFewRowTilesMaxInputBytes = 8 * 1024 * 1024;

/// An op's rows tiled up to `lanes` at a time: the thread loop over tiles
/// and the tiled op.
struct RowTiles {
  /// The most rows a tile has: its statistics are vectors of that many
  /// lanes.
  int64_t lanes;
  scf::ForallOp forall;
  Operation *tiledOp = nullptr;
};

/// The rows per tile for rows of `length` elements of `elementBytes`: the
/// most, a power of two from kMinRowsPerTile up to `lanes`, whose tile fits
/// in kShortRowTileBytes, else 1; for a dynamic length a run-time select
/// chain from kMinDynamicRowsPerTile (two rows fit in
/// kDynamicTwoRowTileBytes), tiles of fewer than kMinRowsPerTile rows only
/// for inputs (`numRows` rows) of at most kFewRowTilesMaxInputBytes.
static OpFoldResult chooseRowsPerTile(OpBuilder &b, Location loc,
                                      OpFoldResult length, Value numRows,
                                      int64_t elementBytes, int64_t lanes) {
  if (std::optional<int64_t> known = getConstantIntValue(length)) {
    int64_t rows = lanes;
    while (rows >= kMinRowsPerTile &&
           rows * *known * elementBytes > kShortRowTileBytes)
      rows /= 2;
    return b.getIndexAttr(rows < kMinRowsPerTile ? 1 : rows);
  }
  Value rowBytes = arith::MulIOp::create(
      b, loc, cast<Value>(length),
      arith::ConstantIndexOp::create(b, loc, elementBytes));
  Value rows = arith::ConstantIndexOp::create(b, loc, 1);
  Value cacheResident = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ule,
      arith::MulIOp::create(b, loc, numRows, rowBytes),
      arith::ConstantIndexOp::create(b, loc, kFewRowTilesMaxInputBytes));
  for (int64_t candidate = kMinDynamicRowsPerTile; candidate <= lanes;
       candidate *= 2) {
    int64_t tileBytes =
        candidate == 2 ? kDynamicTwoRowTileBytes : kShortRowTileBytes;
    Value fits = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule, rowBytes,
        arith::ConstantIndexOp::create(b, loc, tileBytes / candidate));
    if (candidate < kMinRowsPerTile)
      fits = arith::AndIOp::create(b, loc, fits, cacheResident);
    rows = arith::SelectOp::create(
        b, loc, fits, arith::ConstantIndexOp::create(b, loc, candidate), rows);
  }
  return rows;
}

/// Tiles the rows of `op` (one reduced dim, the innermost) on one scf.forall
/// over tiles of `rows` rows (chooseRowsPerTile; upstream tiling makes the
/// last tile the M mod rows left): a tile's statistics steps (the
/// divisions, the square root, the retry test) then run once for all of its
/// rows, in vectors of `lanes` lanes, where one row per tile pays their
/// latency per row. One body serves every row length: a dynamic one chooses
/// `rows` at run time, long rows one per tile. Fails (matches nothing) for
/// other ops and for static rows too long to share a tile.
static FailureOr<RowTiles> tileRows(RewriterBase &rewriter, NormalizeOp op,
                                    int64_t maxRows) {
  int64_t rank = op.getRank();
  ShapedType type = op.getInputType();
  if (rank < 2 || op.getAxes().size() != 1 || !op.isReductionAxis(rank - 1) ||
      !op.hasPureTensorSemantics())
    return failure();
  int64_t lanes = static_cast<int64_t>(
      llvm::bit_floor(static_cast<uint64_t>(std::max<int64_t>(maxRows, 1))));
  if (lanes < kMinRowsPerTile)
    return failure();
  int64_t elementBytes =
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  rewriter.setInsertionPoint(op);
  OpFoldResult length =
      tensor::getMixedSize(rewriter, op.getLoc(), op.getInput(), rank - 1);
  // The input's rows, asked only of a dynamic row length.
  Value numRows;
  if (!getConstantIntValue(length))
    numRows = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 1);
  for (int64_t d = 0; numRows && d + 1 < rank; ++d)
    numRows = arith::MulIOp::create(
        rewriter, op.getLoc(), numRows,
        getValueOrCreateConstantIndexOp(
            rewriter, op.getLoc(),
            tensor::getMixedSize(rewriter, op.getLoc(), op.getInput(), d)));
  OpFoldResult rows = chooseRowsPerTile(rewriter, op.getLoc(), length, numRows,
                                        elementBytes, lanes);
  // Static rows too long to share a tile, or fewer than a tile: one row
  // per tile (the caller's row form, without vectors of statistics).
  if (std::optional<int64_t> staticRows = getConstantIntValue(rows)) {
    int64_t count = type.getShape()[rank - 2];
    if (*staticRows == 1 ||
        (!ShapedType::isDynamic(count) && count < *staticRows))
      return failure();
    lanes = *staticRows;
  }
  SmallVector<OpFoldResult> sizes(rank - 2, rewriter.getIndexAttr(1));
  sizes.push_back(rows);
  sizes.push_back(rewriter.getIndexAttr(0));
  FailureOr<std::pair<scf::ForallOp, Operation *>> tiled =
      tileOnThreads(rewriter, cast<TilingInterface>(op.getOperation()), sizes);
  if (failed(tiled))
    return failure();
  return RowTiles{lanes, tiled->first, tiled->second};
}

/// An op that computes its statistics over its innermost dim: tiled over
/// threads a tile of rows at a time (tileRows) or, for static rows too
/// long to share a tile and other slices, one slice (row) at a time, each
/// tile's statistics by rowStatisticsOnTile.
static LogicalResult tileRowStatistics(RewriterBase &rewriter, NormalizeOp op,
                                       int64_t lanes) {
  int64_t rank = op.getRank();
  // Whether a slice is one run of memory: its reduced dims are the op's
  // innermost ones (asked before the tiling replaces `op`).
  int64_t numReduced = op.getAxes().size();
  bool contiguousSlices =
      llvm::all_of(llvm::seq<int64_t>(rank - numReduced, rank),
                   [&](int64_t d) { return op.isReductionAxis(d); });
  FailureOr<RowTiles> rowTiles = tileRows(rewriter, op, lanes);
  if (succeeded(rowTiles))
    return rowStatisticsOnTile(rewriter, rowTiles->forall, rowTiles->tiledOp,
                               lanes, contiguousSlices, rowTiles->lanes);
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(rewriter.getIndexAttr(op.isReductionAxis(d) ? 0 : 1));
  FailureOr<std::pair<scf::ForallOp, Operation *>> tiled =
      tileOnThreads(rewriter, cast<TilingInterface>(op.getOperation()), sizes);
  if (failed(tiled))
    return failure();
  return rowStatisticsOnTile(rewriter, tiled->first, tiled->second, lanes,
                             contiguousSlices, /*rowsPerTile=*/0);
}

LogicalResult
mlir::norm::tileAndVectorizeNormalize(RewriterBase &rewriter, NormalizeOp op,
                                      const TileAndVectorizeOptions &options) {
  int64_t lanes = std::max<int64_t>(
      options.vectorBits / op.getAccumulationType().getWidth(), 1);
  if (op.hasComputedStatistics() && reducesInnermostDims(op)) {
    // GroupNorm's groups become a parallel dim; then one reduced dim
    // (InstanceNorm's H·W) or, for GroupNorm, [C/G, H·W].
    auto reshape = [&](FailureOr<ReshapedNormalize> reshaped) {
      if (failed(reshaped))
        return;
      rewriter.replaceOp(op, reshaped->results);
      op = reshaped->reshapedOp;
    };
    reshape(expandGroups(rewriter, op));
    reshape(collapseReducedDims(rewriter, op));
    widenAffineOperands(rewriter, op);
    return tileRowStatistics(rewriter, op, lanes);
  }
  if (!hasInnermostParallelDim(op))
    return rewriter.notifyMatchFailure(
        op, "not a tensor-form op whose innermost dim is parallel");
  if (op.hasComputedStatistics() && hasLeadingAxes(op))
    return splitComputedStatistics(rewriter, op, lanes);

  // Threads: scf.forall over tiles, each with its op's linalg form.
  int64_t vectorSize, rowTile;
  FailureOr<scf::ForallOp> forall =
      op.hasComputedStatistics()
          ? tileComputedStatistics(rewriter, op, options, vectorSize, rowTile)
          : tileGivenStatistics(rewriter, op, lanes, vectorSize, rowTile);
  if (failed(forall))
    return failure();
  return vectorizeTile(rewriter, *forall, vectorSize, rowTile);
}

namespace {
struct NormTileAndVectorizePass
    : norm::impl::NormTileAndVectorizePassBase<NormTileAndVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits < 8 || vectorsPerTile < 1) {
      getOperation()->emitError()
          << "vector-bits must be at least 8 and vectors-per-tile positive, "
             "got "
          << static_cast<int64_t>(vectorBits) << " and "
          << static_cast<int64_t>(vectorsPerTile);
      return signalPassFailure();
    }
    TileAndVectorizeOptions options;
    options.vectorBits = vectorBits;
    options.vectorsPerTile = vectorsPerTile;
    SmallVector<NormalizeOp> targets;
    getOperation()->walk([&](NormalizeOp op) {
      if ((hasInnermostParallelDim(op) &&
           (computedStatistics || !op.hasComputedStatistics())) ||
          (rowStatistics && op.hasComputedStatistics() &&
           reducesInnermostDims(op)))
        targets.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (NormalizeOp op : targets)
      if (failed(tileAndVectorizeNormalize(rewriter, op, options)))
        return signalPassFailure();
    // The statistics' partial sums of bf16 rows, widened without shuffles.
    RewritePatternSet patterns(&getContext());
    populateWidenBF16PairsInSumsPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // Then a row's masked last step of partial sums runs only where it has
    // elements (after the widening, which takes the step's selects only).
    // Only the masks are rewritten: nothing else is folded here.
    SmallVector<Operation *> masks;
    getOperation()->walk(
        [&](vector::CreateMaskOp mask) { masks.push_back(mask); });
    RewritePatternSet skipPatterns(&getContext());
    populateSkipEmptyMaskedStepsPatterns(skipPatterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps)
        .enableFolding(false);
    (void)applyOpPatternsGreedily(masks, std::move(skipPatterns), config);
  }
};
} // namespace
