//===- NormOps.cpp - norm dialect operations ------------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormOps.h"
#include "norm/IR/NormDecomposition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::norm;

#include "norm/IR/NormEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// NormalizeOp: custom assembly directives
//===----------------------------------------------------------------------===//

/// The clause keywords of the op, in the order they may appear.
static constexpr StringLiteral kClauseKeywords[] = {
    "axes",           "epsilon", "groups", "on",     "momentum", "unbiased",
    "saved_variance", "acc",     "ins",    "scale",  "bias",     "affine_dims",
    "stats",          "outs",    "saved",  "running"};

/// Parses the clause keyword `expected` (ins or outs). A bare word in its
/// place is a misspelt or misplaced optional clause: say which, what may
/// stand there, and the closest known keyword.
static ParseResult parseClauseKeyword(OpAsmParser &parser, FloatAttr,
                                      StringRef expected) {
  if (succeeded(parser.parseOptionalKeyword(expected)))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (failed(parser.parseOptionalKeyword(&word)))
    return parser.emitError(loc) << "expected '" << expected << "'";
  StringRef allowed =
      expected == "ins"
          ? "groups, momentum, unbiased, saved_variance, acc, attributes or "
            "ins"
          : "scale, bias, affine_dims, stats or outs";
  InFlightDiagnostic diag = parser.emitError(loc)
                            << "unexpected keyword '" << word << "': expected "
                            << allowed;
  StringRef closest;
  unsigned best = 3;
  for (StringRef known : kClauseKeywords) {
    unsigned distance = word.edit_distance(known, true, best);
    if (distance < best && known != word) {
      best = distance;
      closest = known;
    }
  }
  if (!closest.empty())
    diag << " (did you mean '" << closest << "'?)";
  return diag;
}

static void printClauseKeyword(OpAsmPrinter &p, Operation *, FloatAttr,
                               StringRef expected) {
  p << expected;
}

#define GET_OP_CLASSES
#include "norm/IR/NormOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isSupportedFloat(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << "(";
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << "?";
        else
          os << d;
      },
      "x");
  os << ")";
  return str;
}

//===----------------------------------------------------------------------===//
// NormalizeOp: accessors
//===----------------------------------------------------------------------===//

MutableOperandRange NormalizeOp::getDpsInitsMutable() {
  // `output` is followed by `saved`, `running_mean` and `running_var`, the
  // other inits, up to the end of the operand list.
  unsigned start = getODSOperandIndexAndLength(5).first;
  return MutableOperandRange(getOperation(), start,
                             getOperation()->getNumOperands() - start);
}

FloatType NormalizeOp::getAccumulationType() {
  if (std::optional<Type> acc = getAccType())
    if (auto floatType = dyn_cast<FloatType>(*acc))
      return floatType;
  MLIRContext *ctx = getContext();
  if (getInputType().getElementType().isF64())
    return Float64Type::get(ctx);
  return Float32Type::get(ctx);
}

SmallVector<int64_t>
NormalizeOp::getStatisticsDims(int64_t rank, ArrayRef<int64_t> axes,
                               std::optional<int64_t> groupDim) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (groupDim && *groupDim == d)
      dims.push_back(-1);
    else if (!llvm::is_contained(axes, d))
      dims.push_back(d);
  }
  return dims;
}

int64_t NormalizeOp::getStaticReductionSize() {
  ArrayRef<int64_t> shape = getInputType().getShape();
  std::optional<int64_t> groupDim = getGroupDim();
  int64_t size = 1;
  for (int64_t axis : getAxes()) {
    if (axis < 0 || axis >= static_cast<int64_t>(shape.size()) ||
        ShapedType::isDynamic(shape[axis]))
      return ShapedType::kDynamic;
    int64_t extent = shape[axis];
    if (groupDim && *groupDim == axis && getGroups() && *getGroups() > 0)
      extent /= *getGroups();
    size *= extent;
  }
  return size;
}

//===----------------------------------------------------------------------===//
// NormalizeOp: verifier
//===----------------------------------------------------------------------===//

namespace {
/// Verifies one NormalizeOp; each check names the operand or attribute and
/// the rule it breaks.
class NormalizeVerifier {
public:
  explicit NormalizeVerifier(NormalizeOp op) : op(op) {}

  LogicalResult verify() {
    if (failed(verifyOperandKinds()) || failed(verifySizes()) ||
        failed(verifyElementTypes()) || failed(verifyAxes()) ||
        failed(verifyEpsilon()) || failed(verifyOutput()) ||
        failed(verifyGroups()) || failed(verifyAffine()) ||
        failed(verifyGivenStatistics()) || failed(verifySaved()) ||
        failed(verifyRunning()) || failed(verifyGroupDivisibility()) ||
        failed(verifyResults()))
      return failure();
    return success();
  }

private:
  /// Operand names in operand order, for diagnostics.
  SmallVector<std::pair<Value, StringRef>> namedOperands() {
    SmallVector<std::pair<Value, StringRef>> named;
    auto add = [&](Value v, StringRef name) {
      if (v)
        named.push_back({v, name});
    };
    add(op.getInput(), "input");
    add(op.getScale(), "scale");
    add(op.getBias(), "bias");
    add(op.getMean(), "mean");
    add(op.getVariance(), "variance");
    add(op.getOutput(), "output");
    for (Value v : op.getSaved())
      add(v, "saved");
    add(op.getRunningMean(), "running_mean");
    add(op.getRunningVar(), "running_var");
    return named;
  }

  LogicalResult verifyOperandKinds() {
    bool inputIsTensor = isa<RankedTensorType>(op.getInput().getType());
    for (auto [value, name] : namedOperands()) {
      Type type = value.getType();
      if (!isa<RankedTensorType, MemRefType>(type))
        return op.emitOpError()
               << "'" << name << "' must be a ranked tensor or a memref, got "
               << type;
      if (isa<RankedTensorType>(type) != inputIsTensor)
        return op.emitOpError()
               << "operands must be all tensors or all memrefs, but '" << name
               << "' is " << type << " while 'input' is "
               << op.getInput().getType();
    }
    return success();
  }

  /// Every static shape must have a byte size that fits int64: kernels and
  /// callers index with 64-bit offsets.
  LogicalResult verifySizes() {
    for (auto [value, name] : namedOperands()) {
      auto type = cast<ShapedType>(value.getType());
      if (!type.getElementType().isIntOrFloat())
        continue;
      // The static extents alone (an empty tensor has no bytes to index).
      ArrayRef<int64_t> shape = type.getShape();
      if (llvm::is_contained(shape, 0))
        continue;
      int64_t bytes = (type.getElementType().getIntOrFloatBitWidth() + 7) / 8;
      bool overflow = false;
      for (int64_t d : shape)
        if (!ShapedType::isDynamic(d))
          overflow |= llvm::MulOverflow(bytes, d, bytes);
      if (overflow)
        return op.emitOpError()
               << "'" << name << "' type " << type
               << " is too large: its byte size overflows int64 (at most "
               << std::numeric_limits<int64_t>::max() << " bytes)";
    }
    return success();
  }

  LogicalResult verifyElementTypes() {
    Type inType = op.getInputType().getElementType();
    if (!isSupportedFloat(inType))
      return op.emitOpError()
             << "'input' element type must be f16, bf16, f32 or f64, got "
             << inType;
    Type outType = op.getOutputType().getElementType();
    if (!isSupportedFloat(outType))
      return op.emitOpError()
             << "'output' element type must be f16, bf16, f32 or f64, got "
             << outType;
    if (std::optional<Type> acc = op.getAccType()) {
      if (!acc->isF32() && !acc->isF64())
        return op.emitOpError()
               << "'acc' type must be f32 or f64, got " << *acc;
      if (acc->getIntOrFloatBitWidth() < inType.getIntOrFloatBitWidth())
        return op.emitOpError()
               << "'acc' type " << *acc
               << " is narrower than the input element type " << inType;
    }
    // The kernels compute in the accumulation type: a wider output would
    // promise digits they do not have.
    Type accType = op.getAccumulationType();
    if (outType.getIntOrFloatBitWidth() > accType.getIntOrFloatBitWidth())
      return op.emitOpError()
             << "'output' element type " << outType
             << " is wider than the accumulation type " << accType
             << " the op computes in; use acc = f64";
    return success();
  }

  LogicalResult verifyAxes() {
    ArrayRef<int64_t> axes = op.getAxes();
    int64_t rank = op.getRank();
    if (axes.empty())
      return op.emitOpError() << "'axes' must not be empty";
    llvm::SmallSet<int64_t, 8> seen;
    for (int64_t axis : axes) {
      if (axis < 0 || axis >= rank)
        return op.emitOpError()
               << "'axes' entry " << axis
               << " is out of range for an input of rank " << rank;
      if (!seen.insert(axis).second)
        return op.emitOpError()
               << "'axes' contains " << axis << " more than once";
    }
    return success();
  }

  LogicalResult verifyEpsilon() {
    double eps = op.getEpsilon().convertToDouble();
    if (!std::isfinite(eps))
      return op.emitOpError() << "'epsilon' must be finite, got " << eps;
    if (eps < 0)
      return op.emitOpError() << "'epsilon' must be non-negative, got " << eps;
    // Epsilon is added in the accumulation type: it must be representable
    // there, and 1/sqrt(epsilon), the bound of rstd, must be finite. Below
    // the smallest normal f32 neither holds (1e-50 rounds to 0).
    if (op.getAccumulationType().isF32() && eps != 0 &&
        (eps > std::numeric_limits<float>::max() ||
         eps < std::numeric_limits<float>::min()))
      return op.emitOpError()
             << "'epsilon' " << eps
             << " is outside what the f32 accumulation represents: use 0 or "
                "a value in ["
             << std::numeric_limits<float>::min() << ", "
             << std::numeric_limits<float>::max() << "], or acc = f64";
    return success();
  }

  LogicalResult verifyOutput() {
    ShapedType in = op.getInputType(), out = op.getOutputType();
    if (failed(verifyCompatibleShape(in.getShape(), out.getShape())))
      return op.emitOpError()
             << "'output' shape " << formatShape(out.getShape())
             << " does not match 'input' shape " << formatShape(in.getShape());
    extents.assign(in.getShape().begin(), in.getShape().end());
    for (auto [d, size] : llvm::enumerate(out.getShape()))
      learnExtent(d, size);
    return success();
  }

  LogicalResult verifyGroups() {
    std::optional<int64_t> groups = op.getGroups();
    std::optional<int64_t> groupDim = op.getGroupDim();
    if (groups.has_value() != groupDim.has_value())
      return op.emitOpError()
             << "'groups' and 'group_dim' must be given together";
    if (!groups)
      return success();
    if (*groups <= 0)
      return op.emitOpError() << "'groups' must be positive, got " << *groups;
    if (*groupDim < 0 || *groupDim >= op.getRank())
      return op.emitOpError()
             << "'group_dim' " << *groupDim
             << " is out of range for an input of rank " << op.getRank();
    if (!op.isReductionAxis(*groupDim))
      return op.emitOpError() << "'group_dim' " << *groupDim
                              << " must be one of the reduction 'axes'";
    return success();
  }

  /// Runs once every operand has told its static extents: a static extent
  /// of the group dim, from any operand, must hold whole groups.
  LogicalResult verifyGroupDivisibility() {
    std::optional<int64_t> groups = op.getGroups();
    if (!groups)
      return success();
    int64_t groupDim = *op.getGroupDim();
    int64_t extent = extents[groupDim];
    if (!ShapedType::isDynamic(extent) && extent % *groups != 0)
      return op.emitOpError()
             << "'groups' (" << *groups << ") must divide the extent " << extent
             << " of the group dim " << groupDim;
    return success();
  }

  /// Records a static extent of input dim `d` seen on some operand: the
  /// extents of all operands indexed by a dim must agree.
  void learnExtent(int64_t d, int64_t size) {
    if (ShapedType::isDynamic(extents[d]))
      extents[d] = size;
  }

  /// Scale, bias, statistics and running statistics may be stored in the
  /// input element type or in the accumulation type.
  LogicalResult verifyParamElementType(Value value, StringRef name) {
    Type type = cast<ShapedType>(value.getType()).getElementType();
    Type inType = op.getInputType().getElementType();
    Type accType = op.getAccumulationType();
    if (type != inType && type != accType)
      return op.emitOpError()
             << "'" << name << "' element type must be the input element type ("
             << inType << ") or the accumulation type (" << accType << "), got "
             << type;
    return success();
  }

  LogicalResult verifyAffine() {
    Value scale = op.getScale(), bias = op.getBias();
    std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims();
    if (!scale && !bias) {
      if (affineDims)
        return op.emitOpError()
               << "'affine_dims' given without 'scale' or 'bias'";
      return success();
    }
    if (!affineDims)
      return op.emitOpError() << "'affine_dims' is required with 'scale' or "
                                 "'bias'";
    llvm::SmallSet<int64_t, 8> seen;
    for (int64_t d : *affineDims) {
      if (d < 0 || d >= op.getRank())
        return op.emitOpError()
               << "'affine_dims' entry " << d
               << " is out of range for an input of rank " << op.getRank();
      if (!seen.insert(d).second)
        return op.emitOpError()
               << "'affine_dims' contains " << d << " more than once";
    }
    for (auto [value, name] :
         {std::pair<Value, StringRef>{scale, "scale"}, {bias, "bias"}}) {
      if (!value)
        continue;
      auto type = cast<ShapedType>(value.getType());
      if (type.getRank() != static_cast<int64_t>(affineDims->size()))
        return op.emitOpError()
               << "'" << name << "' must have rank " << affineDims->size()
               << " (one dim per 'affine_dims' entry), got " << type.getRank();
      for (auto [i, d] : llvm::enumerate(*affineDims)) {
        int64_t got = type.getDimSize(i), want = extents[d];
        if (!ShapedType::isDynamic(got) && !ShapedType::isDynamic(want) &&
            got != want)
          return op.emitOpError()
                 << "'" << name << "' dim " << i << " has extent " << got
                 << ", expected " << want << " (input dim " << d << ")";
        learnExtent(d, got);
      }
      if (failed(verifyParamElementType(value, name)))
        return failure();
    }
    return success();
  }

  /// Checks an operand that holds one value per statistic.
  LogicalResult verifyStatisticsOperand(Value value, StringRef name) {
    SmallVector<int64_t> dims = op.getStatisticsDims();
    SmallVector<int64_t> want =
        llvm::map_to_vector(dims, [&](int64_t d) -> int64_t {
          return d < 0 ? *op.getGroups() : extents[d];
        });
    ArrayRef<int64_t> got = cast<ShapedType>(value.getType()).getShape();
    if (failed(verifyCompatibleShape(got, want)))
      return op.emitOpError()
             << "'" << name << "' must have the statistics shape "
             << formatShape(want) << ", got " << formatShape(got);
    for (auto [d, size] : llvm::zip(dims, got))
      if (d >= 0)
        learnExtent(d, size);
    return verifyParamElementType(value, name);
  }

  LogicalResult verifyGivenStatistics() {
    Value mean = op.getMean(), variance = op.getVariance();
    if (!mean && !variance)
      return success();
    if (!mean || !variance)
      return op.emitOpError() << "'mean' and 'variance' must be given together";
    if (op.getMode() != NormMode::standard)
      return op.emitOpError()
             << "given statistics require 'standard' mode, got '"
             << stringifyNormMode(op.getMode()) << "'";
    if (op.isTraining())
      return op.emitOpError()
             << "given statistics cannot be combined with 'running' statistics";
    if (!op.getSaved().empty())
      return op.emitOpError()
             << "given statistics cannot be combined with 'saved' results";
    if (failed(verifyStatisticsOperand(mean, "mean")) ||
        failed(verifyStatisticsOperand(variance, "variance")))
      return failure();
    return success();
  }

  LogicalResult verifySaved() {
    OperandRange saved = op.getSaved();
    if (op.getSavedVariance() &&
        (op.getMode() != NormMode::standard || saved.empty()))
      return op.emitOpError() << "'saved_variance' requires 'standard' mode "
                                 "and 'saved' inits";
    if (saved.empty())
      return success();
    unsigned expected = op.getExpectedNumSaved();
    if (saved.size() != expected) {
      StringRef what = op.getMode() == NormMode::standard
                           ? "mean and rstd (or variance)"
                           : "the inverse norm";
      return op.emitOpError()
             << "'saved' expects " << expected << " init(s) in '"
             << stringifyNormMode(op.getMode()) << "' mode (" << what
             << "), got " << saved.size();
    }
    for (Value v : saved)
      if (failed(verifyStatisticsOperand(v, "saved")))
        return failure();
    return success();
  }

  LogicalResult verifyRunning() {
    Value runningMean = op.getRunningMean(), runningVar = op.getRunningVar();
    if (!runningMean != !runningVar)
      return op.emitOpError()
             << "'running_mean' and 'running_var' must be given together";
    std::optional<APFloat> momentum = op.getMomentum();
    if (!runningMean) {
      if (momentum)
        return op.emitOpError() << "'momentum' given without 'running' "
                                   "statistics";
      if (op.getUnbiased())
        return op.emitOpError() << "'unbiased' given without 'running' "
                                   "statistics";
      return success();
    }
    if (op.getMode() != NormMode::standard)
      return op.emitOpError() << "'running' statistics require 'standard' "
                                 "mode, got '"
                              << stringifyNormMode(op.getMode()) << "'";
    if (!momentum)
      return op.emitOpError() << "'momentum' is required with 'running' "
                                 "statistics";
    double m = momentum->convertToDouble();
    if (!(m >= 0 && m <= 1))
      return op.emitOpError()
             << "'momentum' must be in [0, 1] (the weight of the batch "
                "statistics in the running update), got "
             << m;
    if (op.getUnbiased() && op.getStaticReductionSize() == 1)
      return op.emitOpError()
             << "'unbiased' running variance needs more than one reduced "
                "element per statistic, but the reduction size is 1";
    if (failed(verifyStatisticsOperand(runningMean, "running_mean")) ||
        failed(verifyStatisticsOperand(runningVar, "running_var")))
      return failure();
    return success();
  }

  LogicalResult verifyResults() {
    unsigned numInits = op.getNumDpsInits();
    bool tensors = isa<RankedTensorType>(op.getInput().getType());
    if (!tensors) {
      if (op->getNumResults() != 0)
        return op.emitOpError() << "must have no results with memref operands";
      return success();
    }
    if (op->getNumResults() != numInits)
      return op.emitOpError() << "expects one result per init (" << numInits
                              << "), got " << op->getNumResults();
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(op->getResults(), op.getDpsInits()))) {
      auto [result, init] = pair;
      if (result.getType() != init.getType())
        return op.emitOpError()
               << "result #" << i << " type " << result.getType()
               << " must match its init type " << init.getType();
    }
    return success();
  }

  NormalizeOp op;
  /// The extent of each input dim as far as the operands checked so far
  /// tell (static where any of them is).
  SmallVector<int64_t> extents;
};
} // namespace

LogicalResult NormalizeOp::verify() {
  return NormalizeVerifier(*this).verify();
}

//===----------------------------------------------------------------------===//
// NormalizeOp: interfaces
//===----------------------------------------------------------------------===//

LogicalResult
NormalizeOp::reifyResultShapes(OpBuilder &b,
                               ReifiedRankedShapedTypeDims &reifiedShapes) {
  for (Value init : getDpsInits())
    reifiedShapes.push_back(tensor::getMixedSizes(b, getLoc(), init));
  return success();
}

void NormalizeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (hasPureTensorSemantics())
    return;
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    // Running statistics are read before they are updated; the output and
    // saved statistics are only written.
    bool isInit = isDpsInit(&operand);
    bool isRead = !isInit || operand.get() == getRunningMean() ||
                  operand.get() == getRunningVar();
    if (isRead)
      effects.emplace_back(MemoryEffects::Read::get(), &operand, /*stage=*/0,
                           /*effectOnFullRegion=*/true,
                           SideEffects::DefaultResource::get());
    if (isInit)
      effects.emplace_back(MemoryEffects::Write::get(), &operand, /*stage=*/0,
                           /*effectOnFullRegion=*/true,
                           SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// NormalizeOp: canonicalization
//===----------------------------------------------------------------------===//

namespace {
/// Axes are a set: sort them so equal ops print (and CSE) the same.
struct SortAxes : OpRewritePattern<NormalizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> axes = op.getAxes();
    if (llvm::is_sorted(axes))
      return failure();
    SmallVector<int64_t> sorted(axes);
    llvm::sort(sorted);
    rewriter.modifyOpInPlace(op, [&] { op.setAxes(sorted); });
    return success();
  }
};

/// Returns true when `value` is a constant whose elements all equal `splat`.
static bool isSplatConstant(Value value, double splat) {
  if (!value)
    return false;
  DenseFPElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return false;
  return attr.getSplatValue<APFloat>().convertToDouble() == splat;
}

/// A scale of ones and a bias of zeros do nothing: drop them (and
/// `affine_dims` with the last of them).
struct DropIdentityAffine : OpRewritePattern<NormalizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    bool dropScale = isSplatConstant(op.getScale(), 1.0);
    bool dropBias = isSplatConstant(op.getBias(), 0.0);
    if (!dropScale && !dropBias)
      return failure();
    Value scale = dropScale ? Value() : op.getScale();
    Value bias = dropBias ? Value() : op.getBias();
    DenseI64ArrayAttr affineDims =
        (scale || bias) ? op.getAffineDimsAttr() : DenseI64ArrayAttr();
    auto newOp = NormalizeOp::create(
        rewriter, op.getLoc(), op->getResultTypes(), op.getInput(), scale, bias,
        op.getMean(), op.getVariance(), op.getOutput(), op.getSaved(),
        op.getRunningMean(), op.getRunningVar(), op.getModeAttr(),
        op.getAxesAttr(), op.getEpsilonAttr(), affineDims, op.getGroupsAttr(),
        op.getGroupDimAttr(), op.getMomentumAttr(), op.getUnbiasedAttr(),
        op.getSavedVarianceAttr(), op.getAccTypeAttr());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};
} // namespace

void NormalizeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<SortAxes, DropIdentityAffine>(context);
}

//===----------------------------------------------------------------------===//
// GroupNorm expansion
//===----------------------------------------------------------------------===//

GroupExpansion mlir::norm::getGroupExpansion(OpBuilder &b, Location loc,
                                             ShapedType type,
                                             ArrayRef<OpFoldResult> sizes,
                                             int64_t dim, int64_t groups) {
  GroupExpansion expansion;
  for (int64_t i = 0, e = type.getRank(), next = 0; i < e; ++i) {
    if (i != dim) {
      expansion.reassociation.push_back({next++});
      expansion.shape.push_back(type.getDimSize(i));
      expansion.outputShape.push_back(sizes[i]);
      continue;
    }
    expansion.reassociation.push_back({next, next + 1});
    next += 2;
    int64_t extent = type.getDimSize(i);
    expansion.shape.push_back(groups);
    expansion.shape.push_back(
        ShapedType::isDynamic(extent) ? ShapedType::kDynamic : extent / groups);
    expansion.outputShape.push_back(b.getIndexAttr(groups));
    if (std::optional<int64_t> c = getConstantIntValue(sizes[i])) {
      expansion.outputShape.push_back(b.getIndexAttr(*c / groups));
      continue;
    }
    Value g = arith::ConstantIndexOp::create(b, loc, groups);
    expansion.outputShape.push_back(
        arith::DivUIOp::create(b, loc, cast<Value>(sizes[i]), g).getResult());
  }
  return expansion;
}

//===----------------------------------------------------------------------===//
// NormalizeOp: AggregatedOpInterface
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> NormalizeOp::decomposeOperation(OpBuilder &b) {
  return decomposeNormalizeOp(b, *this);
}

//===----------------------------------------------------------------------===//
// NormalizeOp: TilingInterface
//===----------------------------------------------------------------------===//
//
// The iteration domain is the input's dims: the axes are reductions, the
// other dims parallel. Every operand is indexed by a subset of them: the
// input and output by all, scale and bias by `affine_dims`, the statistics
// by the parallel dims plus, for GroupNorm, the `groups` dim, which stands for
// the (reduced) group dim and is always taken whole. A tile must hold whole
// slices: reduction dims are never split.

/// For each dim of `operand`, the iteration dim that indexes it, or -1 for
/// the `groups` dim of a statistics operand.
static SmallVector<int64_t> getOperandIterationDims(NormalizeOp op,
                                                    OpOperand &operand) {
  unsigned number = operand.getOperandNumber();
  auto isODSOperand = [&](unsigned odsIndex) {
    auto [start, length] = op.getODSOperandIndexAndLength(odsIndex);
    return number >= start && number < start + length;
  };
  if (isODSOperand(0) || isODSOperand(5)) // input, output
    return llvm::to_vector(llvm::seq<int64_t>(0, op.getRank()));
  if (isODSOperand(1) || isODSOperand(2)) // scale, bias
    return llvm::to_vector(*op.getAffineDims());
  return op.getStatisticsDims();
}

/// The slice of `value` at `offsets` with `sizes` and unit strides.
static Value getSliceOf(OpBuilder &b, Location loc, Value value,
                        ArrayRef<OpFoldResult> offsets,
                        ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  if (isa<RankedTensorType>(value.getType()))
    return tensor::ExtractSliceOp::create(b, loc, value, offsets, sizes,
                                          strides);
  return memref::SubViewOp::create(b, loc, value, offsets, sizes, strides);
}

static OpFoldResult getExtentOf(OpBuilder &b, Location loc, Value value,
                                int64_t dim) {
  if (isa<RankedTensorType>(value.getType()))
    return tensor::getMixedSize(b, loc, value, dim);
  return memref::getMixedSize(b, loc, value, dim);
}

/// True unless [offset, offset + size) is provably not the whole of dim `dim`
/// of `value`. Creates no IR. A constant offset of 0 with a size that cannot
/// be compared (dynamic extents) counts as whole: a split dim has a loop
/// induction variable as offset.
static bool isWholeDim(Value value, int64_t dim, OpFoldResult offset,
                       OpFoldResult size) {
  if (!isConstantIntValue(offset, 0))
    return false;
  int64_t extent = cast<ShapedType>(value.getType()).getDimSize(dim);
  std::optional<int64_t> constantSize = getConstantIntValue(size);
  if (!ShapedType::isDynamic(extent) && constantSize)
    return *constantSize == extent;
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
      ValueBoundsConstraintSet::Variable(size),
      ValueBoundsConstraintSet::Variable(value, dim));
  return failed(equal) || *equal;
}

/// Whether a tile must hold all of dim `d`: a reduced dim of an op that
/// computes its statistics, or the group dim's axes of a GroupNorm. With
/// given statistics every other dim is elementwise.
static bool isTiledWhole(NormalizeOp op, int64_t d) {
  return op.isReductionAxis(d) &&
         (op.hasComputedStatistics() || op.getGroups());
}

SmallVector<utils::IteratorType> NormalizeOp::getLoopIteratorTypes() {
  SmallVector<utils::IteratorType> types(getRank(),
                                         utils::IteratorType::parallel);
  for (int64_t axis : getAxes())
    if (isTiledWhole(*this, axis))
      types[axis] = utils::IteratorType::reduction;
  return types;
}

SmallVector<Range> NormalizeOp::getIterationDomain(OpBuilder &b) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(*this);
  SmallVector<Range> domain;
  for (int64_t d = 0, e = getRank(); d < e; ++d)
    domain.push_back(Range{b.getIndexAttr(0),
                           getExtentOf(b, getLoc(), getInput(), d),
                           b.getIndexAttr(1)});
  return domain;
}

FailureOr<TilingResult>
NormalizeOp::getTiledImplementation(OpBuilder &b,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes) {
  for (int64_t axis : getAxes())
    if (isTiledWhole(*this, axis) &&
        !isWholeDim(getInput(), axis, offsets[axis], sizes[axis]))
      return emitOpError() << "cannot be tiled along reduction dim " << axis
                           << ": a tile holds whole slices";
  Location loc = getLoc();
  TilingResult result;
  SmallVector<Value> operands;
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    SmallVector<OpFoldResult> sliceOffsets, sliceSizes;
    for (auto [i, d] :
         llvm::enumerate(getOperandIterationDims(*this, operand))) {
      if (d < 0) {
        sliceOffsets.push_back(b.getIndexAttr(0));
        sliceSizes.push_back(b.getIndexAttr(*getGroups()));
        continue;
      }
      sliceOffsets.push_back(offsets[d]);
      sliceSizes.push_back(sizes[d]);
    }
    Value slice = getSliceOf(b, loc, operand.get(), sliceOffsets, sliceSizes);
    result.generatedSlices.push_back(slice.getDefiningOp());
    operands.push_back(slice);
  }
  SmallVector<Type> resultTypes;
  if (hasPureTensorSemantics())
    for (OpOperand &init : getDpsInitsMutable())
      resultTypes.push_back(operands[init.getOperandNumber()].getType());
  Operation *tiled = mlir::clone(b, getOperation(), resultTypes, operands);
  result.tiledOps.push_back(tiled);
  result.tiledValues.append(tiled->result_begin(), tiled->result_end());
  return result;
}

LogicalResult NormalizeOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  OpOperand *init = getDpsInitOperand(resultNumber);
  for (int64_t d : getOperandIterationDims(*this, *init)) {
    resultOffsets.push_back(d < 0 ? b.getIndexAttr(0) : offsets[d]);
    resultSizes.push_back(d < 0 ? b.getIndexAttr(*getGroups()) : sizes[d]);
  }
  return success();
}

bool NormalizeOp::isOpFusableWithConsumerSlice(unsigned resultNumber,
                                               ArrayRef<OpFoldResult> offsets,
                                               ArrayRef<OpFoldResult> sizes) {
  OpOperand *init = getDpsInitOperand(resultNumber);
  for (auto [i, d] : llvm::enumerate(getOperandIterationDims(*this, *init))) {
    bool whole = d < 0 || isTiledWhole(*this, d);
    if (whole && !isWholeDim(init->get(), i, offsets[i], sizes[i]))
      return false;
  }
  return true;
}

LogicalResult NormalizeOp::getIterationDomainTileFromResultTile(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes,
    SmallVectorImpl<OpFoldResult> &iterDomainOffsets,
    SmallVectorImpl<OpFoldResult> &iterDomainSizes) {
  if (!isOpFusableWithConsumerSlice(resultNumber, offsets, sizes))
    return failure();
  SmallVector<Range> domain = getIterationDomain(b);
  iterDomainOffsets.clear();
  iterDomainSizes.clear();
  for (const Range &range : domain) {
    iterDomainOffsets.push_back(range.offset);
    iterDomainSizes.push_back(range.size);
  }
  OpOperand *init = getDpsInitOperand(resultNumber);
  for (auto [i, d] : llvm::enumerate(getOperandIterationDims(*this, *init))) {
    if (d < 0 || isTiledWhole(*this, d))
      continue;
    iterDomainOffsets[d] = offsets[i];
    iterDomainSizes[d] = sizes[i];
  }
  return success();
}

FailureOr<TilingResult>
NormalizeOp::generateResultTileValue(OpBuilder &b, unsigned resultNumber,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> iterOffsets, iterSizes;
  if (failed(getIterationDomainTileFromResultTile(
          b, resultNumber, offsets, sizes, iterOffsets, iterSizes)))
    return failure();
  return getTiledImplementation(b, iterOffsets, iterSizes);
}

/// The parallel dims' tile given by the operand tiles: every parallel dim
/// must be given (an operand tile that leaves one whole would make each loop
/// iteration compute all of it), consistently, and the dims that are taken
/// whole must be whole. Creates no IR.
static LogicalResult
getParallelTileFromOperandTiles(NormalizeOp op,
                                ArrayRef<unsigned> operandNumbers,
                                ArrayRef<SmallVector<OpFoldResult>> allOffsets,
                                ArrayRef<SmallVector<OpFoldResult>> allSizes,
                                SmallVectorImpl<OpFoldResult> &offsets,
                                SmallVectorImpl<OpFoldResult> &sizes) {
  int64_t rank = op.getRank();
  offsets.assign(rank, OpFoldResult());
  sizes.assign(rank, OpFoldResult());
  for (auto [number, operandOffsets, operandSizes] :
       llvm::zip_equal(operandNumbers, allOffsets, allSizes)) {
    OpOperand &operand = op->getOpOperand(number);
    for (auto [i, d] : llvm::enumerate(getOperandIterationDims(op, operand))) {
      if (d < 0 || isTiledWhole(op, d)) {
        if (!isWholeDim(operand.get(), i, operandOffsets[i], operandSizes[i]))
          return failure();
        continue;
      }
      if (offsets[d] &&
          (!isEqualConstantIntOrValue(offsets[d], operandOffsets[i]) ||
           !isEqualConstantIntOrValue(sizes[d], operandSizes[i])))
        return failure();
      offsets[d] = operandOffsets[i];
      sizes[d] = operandSizes[i];
    }
  }
  for (int64_t d = 0; d < rank; ++d)
    if (!isTiledWhole(op, d) && !offsets[d])
      return failure();
  return success();
}

bool NormalizeOp::isOpFusableWithProducerSlices(
    ArrayRef<unsigned> operandNumbers,
    ArrayRef<SmallVector<OpFoldResult>> allOffsets,
    ArrayRef<SmallVector<OpFoldResult>> allSizes) {
  SmallVector<OpFoldResult> offsets, sizes;
  return succeeded(getParallelTileFromOperandTiles(
      *this, operandNumbers, allOffsets, allSizes, offsets, sizes));
}

LogicalResult NormalizeOp::getIterationDomainTileFromOperandTiles(
    OpBuilder &b, ArrayRef<unsigned> operandNumbers,
    ArrayRef<SmallVector<OpFoldResult>> allOffsets,
    ArrayRef<SmallVector<OpFoldResult>> allSizes,
    SmallVectorImpl<OpFoldResult> &iterDomainOffsets,
    SmallVectorImpl<OpFoldResult> &iterDomainSizes) {
  if (failed(getParallelTileFromOperandTiles(*this, operandNumbers, allOffsets,
                                             allSizes, iterDomainOffsets,
                                             iterDomainSizes)))
    return failure();
  SmallVector<Range> domain = getIterationDomain(b);
  for (int64_t axis : getAxes()) {
    if (!isTiledWhole(*this, axis))
      continue;
    iterDomainOffsets[axis] = domain[axis].offset;
    iterDomainSizes[axis] = domain[axis].size;
  }
  return success();
}

FailureOr<TilingResult> NormalizeOp::getTiledImplementationFromOperandTiles(
    OpBuilder &b, ArrayRef<unsigned> operandNumbers,
    ArrayRef<SmallVector<OpFoldResult>> allOffsets,
    ArrayRef<SmallVector<OpFoldResult>> allSizes) {
  SmallVector<OpFoldResult> offsets, sizes;
  if (failed(getIterationDomainTileFromOperandTiles(
          b, operandNumbers, allOffsets, allSizes, offsets, sizes)))
    return failure();
  return getTiledImplementation(b, offsets, sizes);
}
