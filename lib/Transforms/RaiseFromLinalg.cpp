//===- RaiseFromLinalg.cpp - norm-raise-from-linalg -----------------------===//
//
// Part of the norm-mlir project.
//
// Recognizes normalizations that frontends decompose into linalg ops on
// tensors and raises them to `norm.normalize`.
//
// The chain ending in a candidate value is first evaluated symbolically into
// a small expression tree: every linalg op is looked through (its indexing
// maps and its scalar body), every tensor the chain reads becomes a leaf
// indexed by symbolic loop dims, and every sum reduction becomes a `Sum` node
// over fresh symbols. The tree says what each output element is, whatever
// mix of generic and named ops, broadcasts and fused bodies produced it; the
// matcher then checks that tree against the formulas of the op.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormBuilders.h"
#include "norm/IR/NormDialect.h"
#include "norm/IR/NormOps.h"
#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <memory>

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMRAISEFROMLINALGPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

//===----------------------------------------------------------------------===//
// Symbolic evaluation
//===----------------------------------------------------------------------===//

/// One node of the expression an output element is computed by.
struct Expr {
  enum Kind { Leaf, Const, Add, Sub, Mul, Div, Rsqrt, Sqrt, Cast, Sum };
  Kind kind;
  /// The scalar type of the node.
  Type type;
  /// Leaf: the tensor (or scalar) read.
  Value value;
  /// Leaf: the symbol indexing each dim of `value` (kUnit: index 0 of a
  /// unit dim). Sum: the symbols summed over.
  SmallVector<int64_t> dims;
  /// Const: the value, exact for every float type up to f64.
  double constant = 0;
  SmallVector<Expr *, 2> operands;
};

constexpr int64_t kUnit = -1;

/// Builds the expression trees. Symbols 0..rank-1 stand for the dims of the
/// candidate's result; reductions get fresh ones.
class Evaluator {
public:
  explicit Evaluator(int64_t rank) : nextSymbol(rank) {}

  /// The expression of `v[frame...]`; never null (an opaque leaf at worst).
  Expr *tensor(Value v, ArrayRef<int64_t> frame) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getRank() != static_cast<int64_t>(frame.size()))
      return leaf(v, frame);
    // A bounded walk: chains are short, and nothing here may blow up on a
    // large program.
    if (depth > kMaxDepth || nodes.size() > kMaxNodes)
      return leaf(v, frame);
    ++depth;
    Expr *e = tensorImpl(v, type, frame);
    --depth;
    return e ? e : leaf(v, frame);
  }

private:
  Expr *make(Expr::Kind kind, Type type, ArrayRef<Expr *> operands = {}) {
    nodes.push_back(std::make_unique<Expr>());
    Expr *e = nodes.back().get();
    e->kind = kind;
    e->type = type;
    e->operands.assign(operands.begin(), operands.end());
    return e;
  }
  Expr *leaf(Value v, ArrayRef<int64_t> frame) {
    Expr *e = make(Expr::Leaf, getElementTypeOrSelf(v.getType()));
    e->value = v;
    e->dims.assign(frame.begin(), frame.end());
    return e;
  }
  Expr *constant(double c, Type type) {
    Expr *e = make(Expr::Const, type);
    e->constant = c;
    return e;
  }

  Expr *tensorImpl(Value v, RankedTensorType type, ArrayRef<int64_t> frame) {
    // Splat constants.
    DenseElementsAttr dense;
    if (matchPattern(v, m_Constant(&dense)) && dense.isSplat() &&
        isa<FloatType>(dense.getElementType()))
      return constant(dense.getSplatValue<APFloat>().convertToDouble(),
                      dense.getElementType());

    // Reshapes that only add or drop unit dims (keepdim statistics).
    if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>()) {
      auto srcType = collapse.getSrcType();
      SmallVector<int64_t> srcFrame(srcType.getRank(), kUnit);
      for (auto [i, group] :
           llvm::enumerate(collapse.getReassociationIndices())) {
        SmallVector<int64_t> nonUnit;
        for (int64_t d : group)
          if (srcType.getDimSize(d) != 1)
            nonUnit.push_back(d);
        if (nonUnit.size() > 1)
          return nullptr;
        if (nonUnit.size() == 1)
          srcFrame[nonUnit.front()] = frame[i];
      }
      return tensor(collapse.getSrc(), srcFrame);
    }
    if (auto expand = v.getDefiningOp<tensor::ExpandShapeOp>()) {
      SmallVector<int64_t> srcFrame;
      for (const ReassociationIndices &group :
           expand.getReassociationIndices()) {
        SmallVector<int64_t> nonUnit;
        for (int64_t d : group)
          if (type.getDimSize(d) != 1)
            nonUnit.push_back(d);
        if (nonUnit.size() > 1)
          return nullptr;
        srcFrame.push_back(nonUnit.empty() ? kUnit : frame[nonUnit.front()]);
      }
      return tensor(expand.getSrc(), srcFrame);
    }

    auto op = v.getDefiningOp<linalg::LinalgOp>();
    if (!op || !op.hasPureTensorSemantics() || op.hasIndexSemantics() ||
        !op.getBlock())
      return nullptr;
    unsigned resultNo = cast<OpResult>(v).getResultNumber();
    OpOperand *init = op.getDpsInitOperand(resultNo);
    AffineMap outMap = op.getMatchingIndexingMap(init);

    // Loop dims take the symbols of the result dims they write.
    SmallVector<int64_t> loopFrame(op.getNumLoops(), kUnset);
    for (auto [p, expr] : llvm::enumerate(outMap.getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        int64_t &slot = loopFrame[dim.getPosition()];
        if (slot != kUnset && slot != frame[p])
          return nullptr;
        slot = frame[p];
        continue;
      }
      auto cst = dyn_cast<AffineConstantExpr>(expr);
      if (!cst || cst.getValue() != 0 || type.getDimSize(p) != 1)
        return nullptr;
    }
    SmallVector<int64_t> reduced;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (auto [l, slot] : llvm::enumerate(loopFrame)) {
      if (slot != kUnset)
        continue;
      if (iterators[l] != utils::IteratorType::reduction)
        return nullptr;
      slot = nextSymbol++;
      reduced.push_back(slot);
    }

    Block *body = op.getBlock();
    Value yielded = body->getTerminator()->getOperand(resultNo);
    if (reduced.empty())
      return scalar(yielded, op, loopFrame);

    // A reduction must be a sum into a zero init.
    BlockArgument acc = op.getMatchingBlockArgument(init);
    auto add = yielded.getDefiningOp<arith::AddFOp>();
    if (!add || add->getBlock() != body || !acc.hasOneUse())
      return nullptr;
    Value term;
    if (add.getLhs() == acc)
      term = add.getRhs();
    else if (add.getRhs() == acc)
      term = add.getLhs();
    if (!term || term == acc)
      return nullptr;
    Expr *initExpr = tensor(init->get(), frame);
    if (initExpr->kind != Expr::Const || initExpr->constant != 0)
      return nullptr;
    Expr *summand = scalar(term, op, loopFrame);
    if (!summand)
      return nullptr;
    Expr *sum = make(Expr::Sum, add.getType(), {summand});
    sum->dims = std::move(reduced);
    return sum;
  }

  /// The expression of a scalar in the body of `op`, or null.
  Expr *scalar(Value s, linalg::LinalgOp op, ArrayRef<int64_t> loopFrame) {
    if (nodes.size() > kMaxNodes)
      return nullptr;
    if (auto arg = dyn_cast<BlockArgument>(s)) {
      if (arg.getOwner() != op.getBlock())
        return outside(s);
      OpOperand *operand = op.getMatchingOpOperand(arg);
      // In a reduction an init's block argument is a partial result, not
      // the init tensor.
      if (!operand || (op.isDpsInit(operand) && op.getNumReductionLoops() != 0))
        return nullptr;
      if (!isa<RankedTensorType>(operand->get().getType()))
        return outside(operand->get());
      SmallVector<int64_t> frame;
      for (AffineExpr expr : op.getMatchingIndexingMap(operand).getResults()) {
        if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
          frame.push_back(loopFrame[dim.getPosition()]);
          continue;
        }
        auto cst = dyn_cast<AffineConstantExpr>(expr);
        if (!cst || cst.getValue() != 0)
          return nullptr;
        frame.push_back(kUnit);
      }
      return tensor(operand->get(), frame);
    }
    Operation *def = s.getDefiningOp();
    if (!def || def->getBlock() != op.getBlock())
      return outside(s);

    auto sub = [&](unsigned i) {
      return scalar(def->getOperand(i), op, loopFrame);
    };
    Type type = s.getType();
    if (isa<arith::ConstantOp>(def))
      return outside(s);
    auto binary = [&](Expr::Kind kind) -> Expr * {
      Expr *lhs = sub(0), *rhs = lhs ? sub(1) : nullptr;
      if (!rhs)
        return nullptr;
      // x * 1 and x / 1 (torch's alpha) are x.
      if ((kind == Expr::Mul || kind == Expr::Div) &&
          rhs->kind == Expr::Const && rhs->constant == 1)
        return lhs;
      return make(kind, type, {lhs, rhs});
    };
    auto unary = [&](Expr::Kind kind) -> Expr * {
      Expr *operand = sub(0);
      return operand ? make(kind, type, {operand}) : nullptr;
    };
    if (isa<arith::AddFOp>(def))
      return binary(Expr::Add);
    if (isa<arith::SubFOp>(def))
      return binary(Expr::Sub);
    if (isa<arith::MulFOp>(def))
      return binary(Expr::Mul);
    if (isa<arith::DivFOp>(def))
      return binary(Expr::Div);
    if (isa<math::RsqrtOp>(def))
      return unary(Expr::Rsqrt);
    if (isa<math::SqrtOp>(def))
      return unary(Expr::Sqrt);
    if (isa<arith::ExtFOp, arith::TruncFOp>(def)) {
      Expr *operand = sub(0);
      if (!operand)
        return nullptr;
      return castTo(operand, type);
    }
    if (isa<math::PowFOp>(def)) {
      // x ** 2 is x * x.
      Expr *base = sub(0), *exponent = base ? sub(1) : nullptr;
      if (!exponent || exponent->kind != Expr::Const || exponent->constant != 2)
        return nullptr;
      return make(Expr::Mul, type, {base, base});
    }
    return nullptr;
  }

  /// A scalar defined outside the body: a constant, or an opaque leaf.
  Expr *outside(Value s) {
    Type type = s.getType();
    FloatAttr f;
    if (matchPattern(s, m_Constant(&f)))
      return constant(f.getValue().convertToDouble(), type);
    APInt i;
    Operation *def = s.getDefiningOp();
    auto floatType = dyn_cast<FloatType>(type);
    if (floatType && isa_and_nonnull<arith::SIToFPOp, arith::UIToFPOp>(def) &&
        matchPattern(def->getOperand(0), m_ConstantInt(&i))) {
      // The conversion rounds to the target type, as the constant would.
      APFloat value(floatType.getFloatSemantics());
      value.convertFromAPInt(i, isa<arith::SIToFPOp>(def),
                             APFloat::rmNearestTiesToEven);
      return constant(value.convertToDouble(), type);
    }
    if (isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(def)) {
      Expr *operand = outside(def->getOperand(0));
      return castTo(operand, type);
    }
    return leaf(s, {});
  }

  /// A float cast; folded on constants.
  Expr *castTo(Expr *operand, Type type) {
    auto floatType = dyn_cast<FloatType>(type);
    if (operand->kind == Expr::Const && floatType) {
      APFloat value(operand->constant);
      bool lost;
      value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
      return constant(value.convertToDouble(), type);
    }
    return make(Expr::Cast, type, {operand});
  }

  static constexpr int64_t kUnset = -2;
  static constexpr unsigned kMaxDepth = 64;
  static constexpr size_t kMaxNodes = 4096;
  SmallVector<std::unique_ptr<Expr>> nodes;
  int64_t nextSymbol;
  unsigned depth = 0;
};

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// A tensor operand of the raised op, as the chain indexes it.
struct Operand {
  Value value;
  /// Symbol per dim of `value` (kUnit for unit dims).
  SmallVector<int64_t> dims;
  explicit operator bool() const { return static_cast<bool>(value); }
};

/// What a matched chain computes.
struct NormMatch {
  Value input;
  NormMode mode = NormMode::standard;
  SmallVector<int64_t> axes;
  double epsilon = 0;
  FloatType accType, outType;
  std::optional<int64_t> groups;
  int64_t groupDim = 0;
  Operand scale, bias, mean, variance;
  SmallVector<int64_t> affineDims;
  /// The tensor the statistics are reduced from and its reduced dims: the
  /// input and the axes, or for GroupNorm the split input and its axes.
  Value statsInput;
  SmallVector<int64_t> statsAxes;
};

/// A statistic the op saves.
enum class Statistic { Mean, Rstd };

class Matcher {
public:
  Matcher(bool allowUnstableVariance)
      : allowUnstableVariance(allowUnstableVariance) {}

  /// Matches the normalization whose result is `root`.
  std::optional<NormMatch> match(Value root) {
    auto type = dyn_cast<RankedTensorType>(root.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      return std::nullopt;
    int64_t rank = type.getRank();
    Evaluator evaluator(rank);
    pos = identity(rank);
    Expr *e = evaluator.tensor(root, pos);
    NormMatch m;
    if (e->kind == Expr::Leaf && e->value == root) {
      // Nothing is computed here: only GroupNorm's collapse is a root.
      if (!matchGroups(e, m))
        return std::nullopt;
    } else if (!setTypes(e, m) || !matchAffine(e, m)) {
      return std::nullopt;
    }
    if (!m.input)
      return std::nullopt;
    auto inType = cast<RankedTensorType>(m.input.getType());
    // The op's result has the input's shape and the chain's result type.
    if (RankedTensorType::get(inType.getShape(), m.outType) != type)
      return std::nullopt;
    // Unit dims of scale, bias and statistics are dropped by a collapse.
    for (Operand *o : {&m.scale, &m.bias, &m.mean, &m.variance}) {
      if (!*o)
        continue;
      auto oType = cast<RankedTensorType>(o->value.getType());
      for (auto [d, s] : llvm::enumerate(o->dims))
        if (s == kUnit && oType.getDimSize(d) != 1)
          return std::nullopt;
    }
    // Scale, bias and statistics are stored in the input or the acc type.
    for (Operand *o : {&m.scale, &m.bias, &m.mean, &m.variance})
      if (*o &&
          getElementTypeOrSelf(o->value.getType()) != inType.getElementType() &&
          getElementTypeOrSelf(o->value.getType()) != m.accType)
        return std::nullopt;
    if (!m.statsInput) {
      m.statsInput = m.input;
      m.statsAxes = m.axes;
    }
    return m;
  }

  /// Which statistic `v` holds, when it is exactly the mean or rstd the op
  /// computes for `m` (and would save): in the acc type, shaped like the
  /// statistics or like the reduced tensor with unit reduced dims (keepdim).
  std::optional<Statistic> matchStatistic(Value v, const NormMatch &m) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getElementType() != m.accType || m.mean || !m.statsInput)
      return std::nullopt;
    auto inType = cast<RankedTensorType>(m.statsInput.getType());
    int64_t rank = inType.getRank();
    SmallVector<int64_t> statsShape, keepShape;
    for (int64_t d = 0; d < rank; ++d) {
      bool reduced = llvm::is_contained(m.statsAxes, d);
      if (!reduced)
        statsShape.push_back(inType.getDimSize(d));
      keepShape.push_back(reduced ? 1 : inType.getDimSize(d));
    }
    // The symbol reading each dim of the reduced tensor; the reduced dims
    // are summed over and take the sums' symbols.
    SmallVector<int64_t> at(rank, kUnit);
    if (type.getShape() == ArrayRef<int64_t>(statsShape)) {
      int64_t s = 0;
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(m.statsAxes, d))
          at[d] = s++;
    } else if (type.getShape() == ArrayRef<int64_t>(keepShape)) {
      at = identity(rank);
    } else {
      return std::nullopt;
    }
    Evaluator evaluator(type.getRank());
    Expr *e = evaluator.tensor(v, identity(type.getRank()));
    pos = at;
    auto fresh = [&] {
      NormMatch t;
      t.input = m.statsInput;
      t.axes = m.statsAxes;
      t.mode = m.mode;
      t.accType = m.accType;
      t.outType = m.outType;
      return t;
    };
    NormMatch t = fresh();
    if (m.mode == NormMode::standard && matchMean(e, at, t))
      return Statistic::Mean;
    t = fresh();
    // The same epsilon: a different one is not the op's rstd.
    if (matchRstd(e, t) && t.epsilon == m.epsilon)
      return Statistic::Rstd;
    return std::nullopt;
  }

private:
  static SmallVector<int64_t> identity(int64_t rank) {
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }

  /// The arithmetic type is the type below an optional final narrowing.
  static bool setTypes(Expr *&e, NormMatch &m) {
    m.outType = dyn_cast<FloatType>(e->type);
    if (e->kind == Expr::Cast && e->operands[0]->type.getIntOrFloatBitWidth() >
                                     e->type.getIntOrFloatBitWidth())
      e = e->operands[0];
    m.accType = dyn_cast<FloatType>(e->type);
    return m.outType && m.accType && (m.accType.isF32() || m.accType.isF64());
  }

  bool isArith(Expr *e, Expr::Kind kind, const NormMatch &m) {
    return e->kind == kind && e->type == m.accType;
  }

  /// `e` strips an optional widening to the acc type.
  static Expr *stripWiden(Expr *e, const NormMatch &m) {
    if (e->kind == Expr::Cast && e->type == m.accType &&
        isa<FloatType>(e->operands[0]->type) &&
        e->operands[0]->type.getIntOrFloatBitWidth() <
            m.accType.getIntOrFloatBitWidth())
      return e->operands[0];
    return e;
  }

  /// The input, read at `at` (widened to the acc type if narrower).
  bool matchInput(Expr *e, ArrayRef<int64_t> at, NormMatch &m) {
    e = stripWiden(e, m);
    if (e->kind != Expr::Leaf || e->dims != at ||
        !isa<RankedTensorType>(e->value.getType()))
      return false;
    Type elementType = e->type;
    if (elementType != m.accType && !elementType.isF16() &&
        !elementType.isBF16() && !elementType.isF32())
      return false;
    if (m.input && m.input != e->value)
      return false;
    m.input = e->value;
    return true;
  }

  /// Scale, bias or given statistics: a tensor read along result dims only,
  /// each at most once. `affine_dims` may list the dims in any order, so
  /// scale and bias may be transposed; given statistics have the statistics
  /// shape, whose dims are in input order.
  std::optional<Operand> matchParam(Expr *e, const NormMatch &m,
                                    bool anyOrder = false) {
    e = stripWiden(e, m);
    if (e->kind != Expr::Leaf || !isa<RankedTensorType>(e->value.getType()))
      return std::nullopt;
    int64_t last = -1;
    SmallVector<int64_t> seen;
    for (int64_t s : e->dims) {
      if (s == kUnit)
        continue;
      auto it = llvm::find(pos, s);
      if (it == pos.end() || llvm::is_contained(seen, s))
        return std::nullopt;
      if (!anyOrder && it - pos.begin() <= last)
        return std::nullopt;
      last = it - pos.begin();
      seen.push_back(s);
    }
    if (seen.empty())
      return std::nullopt;
    return Operand{e->value, e->dims};
  }

  /// The input dims a parameter is indexed by.
  SmallVector<int64_t> paramDims(const Operand &o) {
    SmallVector<int64_t> dims;
    for (int64_t s : o.dims)
      if (s != kUnit)
        dims.push_back(llvm::find(pos, s) - pos.begin());
    return dims;
  }

  /// `e` = rest <kind> param, in either operand order: `take` records the
  /// parameter in a trial copy of the match (and may refuse it), `rest`
  /// matches the other operand in that copy.
  template <typename TakeFn, typename RestFn>
  bool matchWithParam(Expr *e, Expr::Kind kind, NormMatch &m, TakeFn take,
                      RestFn rest) {
    if (!isArith(e, kind, m))
      return false;
    for (int i = 0; i < 2; ++i) {
      NormMatch t = m;
      std::optional<Operand> param =
          matchParam(e->operands[1 - i], t, /*anyOrder=*/true);
      if (param && take(*param, t) && rest(e->operands[i], t)) {
        m = t;
        return true;
      }
    }
    return false;
  }

  /// y = core [* scale] [+ bias], in either operand order.
  bool matchAffine(Expr *e, NormMatch &m) {
    auto takeBias = [&](const Operand &bias, NormMatch &t) {
      t.bias = bias;
      t.affineDims = paramDims(bias);
      return true;
    };
    auto scaled = [&](Expr *rest, NormMatch &t) {
      return matchScaled(rest, t);
    };
    return matchWithParam(e, Expr::Add, m, takeBias, scaled) ||
           matchScaled(e, m);
  }

  bool matchScaled(Expr *e, NormMatch &m) {
    auto takeScale = [&](const Operand &scale, NormMatch &t) {
      SmallVector<int64_t> dims = paramDims(scale);
      if (t.bias && dims != t.affineDims)
        return false;
      t.scale = scale;
      t.affineDims = dims;
      return true;
    };
    auto core = [&](Expr *rest, NormMatch &t) {
      return matchCoreOrGroups(rest, t);
    };
    return matchWithParam(e, Expr::Mul, m, takeScale, core) ||
           matchCoreOrGroups(e, m);
  }

  bool matchCoreOrGroups(Expr *e, NormMatch &m) {
    NormMatch t = m;
    if (matchCore(e, t)) {
      m = t;
      return true;
    }
    return matchGroups(e, m);
  }

  /// (x - mean) * rstd, (x - mean) / sqrt(var + eps), or x * rstd for RMS.
  bool matchCore(Expr *e, NormMatch &m) {
    if (isArith(e, Expr::Mul, m)) {
      for (int i = 0; i < 2; ++i) {
        NormMatch t = m;
        if (matchCentered(e->operands[i], t) &&
            matchRstd(e->operands[1 - i], t)) {
          m = t;
          return true;
        }
      }
      return false;
    }
    if (isArith(e, Expr::Div, m)) {
      NormMatch t = m;
      Expr *sqrt = e->operands[1];
      if (isArith(sqrt, Expr::Sqrt, m) && matchCentered(e->operands[0], t) &&
          matchVarPlusEps(sqrt->operands[0], t)) {
        m = t;
        return true;
      }
    }
    return false;
  }

  /// rsqrt(v + eps) or 1 / sqrt(v + eps).
  bool matchRstd(Expr *e, NormMatch &m) {
    if (isArith(e, Expr::Rsqrt, m))
      return matchVarPlusEps(e->operands[0], m);
    if (isArith(e, Expr::Div, m) && e->operands[0]->kind == Expr::Const &&
        e->operands[0]->constant == 1 && isArith(e->operands[1], Expr::Sqrt, m))
      return matchVarPlusEps(e->operands[1]->operands[0], m);
    return false;
  }

  /// x - mean (standard, computed or given mean) or x (rms).
  bool matchCentered(Expr *e, NormMatch &m) {
    if (isArith(e, Expr::Sub, m)) {
      NormMatch t = m;
      if (!matchInput(e->operands[0], pos, t))
        return false;
      t.mode = NormMode::standard;
      if (matchMean(e->operands[1], pos, t)) {
        m = t;
        return true;
      }
      std::optional<Operand> given = matchParam(e->operands[1], t);
      if (!given || !setStatisticsAxes(*given, t))
        return false;
      t.mean = *given;
      m = t;
      return true;
    }
    if (matchInput(e, pos, m)) {
      m.mode = NormMode::rms;
      return true;
    }
    return false;
  }

  /// Given statistics are indexed by the dims that are not reduced.
  bool setStatisticsAxes(const Operand &stats, NormMatch &m) {
    SmallVector<int64_t> kept = paramDims(stats);
    SmallVector<int64_t> axes;
    for (int64_t d = 0, e = pos.size(); d < e; ++d)
      if (!llvm::is_contained(kept, d))
        axes.push_back(d);
    if (axes.empty() || (!m.axes.empty() && m.axes != axes))
      return false;
    m.axes = axes;
    return true;
  }

  /// v + eps with a constant, finite, non-negative eps.
  bool matchVarPlusEps(Expr *e, NormMatch &m) {
    if (!isArith(e, Expr::Add, m))
      return false;
    for (int i = 0; i < 2; ++i) {
      Expr *eps = e->operands[1 - i];
      if (eps->kind != Expr::Const || !std::isfinite(eps->constant) ||
          eps->constant < 0)
        continue;
      NormMatch t = m;
      t.epsilon = eps->constant;
      if (matchVariance(e->operands[i], t)) {
        m = t;
        return true;
      }
    }
    return false;
  }

  bool matchVariance(Expr *e, NormMatch &m) {
    if (m.mode == NormMode::rms)
      return matchMeanOf(e, pos, m, [&](Expr *c, ArrayRef<int64_t> at) {
        return matchSquare(c, [&](Expr *f) { return matchInput(f, at, m); }, m);
      });
    if (m.mean) {
      std::optional<Operand> given = matchParam(e, m);
      if (!given || given->dims != m.mean.dims)
        return false;
      m.variance = *given;
      return true;
    }
    // Centered: mean((x - mean)^2).
    NormMatch t = m;
    if (matchMeanOf(e, pos, t, [&](Expr *c, ArrayRef<int64_t> at) {
          return matchSquare(
              c,
              [&](Expr *f) {
                return isArith(f, Expr::Sub, t) &&
                       matchInput(f->operands[0], at, t) &&
                       matchMean(f->operands[1], at, t);
              },
              t);
        })) {
      m = t;
      return true;
    }
    // One pass: mean(x^2) - mean(x)^2, which the op does not compute.
    if (!allowUnstableVariance || !isArith(e, Expr::Sub, m))
      return false;
    t = m;
    bool meanOfSquares =
        matchMeanOf(e->operands[0], pos, t, [&](Expr *c, ArrayRef<int64_t> at) {
          return matchSquare(
              c, [&](Expr *f) { return matchInput(f, at, t); }, t);
        });
    if (!meanOfSquares ||
        !matchSquare(
            e->operands[1], [&](Expr *f) { return matchMean(f, pos, t); }, t))
      return false;
    m = t;
    return true;
  }

  template <typename Fn>
  bool matchSquare(Expr *e, Fn &&operand, NormMatch &m) {
    return isArith(e, Expr::Mul, m) && operand(e->operands[0]) &&
           operand(e->operands[1]);
  }

  bool matchMean(Expr *e, ArrayRef<int64_t> at, NormMatch &m) {
    return matchMeanOf(e, at, m, [&](Expr *c, ArrayRef<int64_t> inner) {
      return matchInput(c, inner, m);
    });
  }

  /// sum(f(x)) / N or sum(f(x)) * (1/N) at `at`, N the reduced count; the
  /// summand is matched by `summand` at the inner symbols.
  template <typename Fn>
  bool matchMeanOf(Expr *e, ArrayRef<int64_t> at, NormMatch &m, Fn &&summand) {
    Expr *sum = nullptr, *count = nullptr;
    bool reciprocal = false;
    if (isArith(e, Expr::Div, m)) {
      sum = e->operands[0];
      count = e->operands[1];
    } else if (isArith(e, Expr::Mul, m)) {
      reciprocal = true;
      sum = e->operands[0];
      count = e->operands[1];
      if (sum->kind == Expr::Const)
        std::swap(sum, count);
    } else {
      return false;
    }
    if (!isArith(sum, Expr::Sum, m))
      return false;
    bool dynamicCount = !reciprocal && count->kind == Expr::Leaf &&
                        count->dims.empty() && count->type == m.accType;
    if (count->kind != Expr::Const && !dynamicCount)
      return false;

    // Where the summed symbols sit in the input gives the reduced axes.
    SmallVector<int64_t> inner;
    if (!innerPosition(sum, at, m, inner))
      return false;
    if (!summand(sum->operands[0], inner) || !m.input)
      return false;

    if (dynamicCount)
      return isElementCount(count->value, m);

    // N is the number of elements summed, known statically.
    auto inType = cast<RankedTensorType>(m.input.getType());
    int64_t n = 1;
    for (int64_t d : m.axes) {
      if (inType.isDynamicDim(d))
        return false;
      if (llvm::MulOverflow(n, inType.getDimSize(d), n))
        return false;
    }
    if (n <= 0)
      return false;
    APFloat want(reciprocal ? 1.0 / static_cast<double>(n)
                            : static_cast<double>(n));
    bool lost;
    want.convert(m.accType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                 &lost);
    return count->constant == want.convertToDouble();
  }

  /// `count` converts to float the product of the extents of the reduced
  /// axes, queried with `tensor.dim` on the input (static extents may be
  /// constants), as frontends compute N for dynamic shapes.
  static bool isElementCount(Value count, const NormMatch &m) {
    Operation *def = count.getDefiningOp();
    if (!isa_and_nonnull<arith::SIToFPOp, arith::UIToFPOp>(def))
      return false;
    Value n = def->getOperand(0);
    if (auto cast = n.getDefiningOp<arith::IndexCastOp>())
      n = cast.getIn();
    else if (auto cast = n.getDefiningOp<arith::IndexCastUIOp>())
      n = cast.getIn();
    // The factors of a product tree: queried dims and a constant.
    SmallVector<Value> worklist = {n};
    SmallVector<int64_t> queried;
    int64_t constant = 1;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      APInt c;
      if (matchPattern(v, m_ConstantInt(&c))) {
        if (c.getSignificantBits() > 32)
          return false;
        if (llvm::MulOverflow(constant, c.getSExtValue(), constant))
          return false;
        continue;
      }
      if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
        if (worklist.size() + queried.size() > 16)
          return false;
        worklist.push_back(mul.getLhs());
        worklist.push_back(mul.getRhs());
        continue;
      }
      auto dim = v.getDefiningOp<tensor::DimOp>();
      std::optional<int64_t> index =
          dim ? dim.getConstantIndex() : std::nullopt;
      if (!index || dim.getSource() != m.input ||
          !llvm::is_contained(m.axes, *index) ||
          llvm::is_contained(queried, *index))
        return false;
      queried.push_back(*index);
    }
    // Every dynamic axis is queried; the rest multiply to the constant.
    auto inType = cast<RankedTensorType>(m.input.getType());
    int64_t rest = 1;
    for (int64_t d : m.axes) {
      if (llvm::is_contained(queried, d))
        continue;
      if (inType.isDynamicDim(d))
        return false;
      if (llvm::MulOverflow(rest, inType.getDimSize(d), rest))
        return false;
    }
    return constant == rest;
  }

  /// The symbols the input is read at inside `sum`: `at`, with each reduced
  /// axis replaced by the summed symbol. Each summed symbol must index
  /// exactly one input dim, and the axes must be those of the other sums.
  bool innerPosition(Expr *sum, ArrayRef<int64_t> at, NormMatch &m,
                     SmallVectorImpl<int64_t> &inner) {
    Expr *input = findInputLeaf(sum->operands[0], sum->dims);
    if (!input || input->dims.size() != at.size())
      return false;
    SmallVector<int64_t> axes;
    for (auto [d, s] : llvm::enumerate(input->dims))
      if (llvm::is_contained(sum->dims, s))
        axes.push_back(d);
    if (axes.size() != sum->dims.size())
      return false;
    for (int64_t s : sum->dims)
      if (llvm::count(input->dims, s) != 1)
        return false;
    if (!m.axes.empty() && m.axes != axes)
      return false;
    m.axes = axes;
    inner.assign(at.begin(), at.end());
    for (int64_t d : axes)
      inner[d] = input->dims[d];
    return true;
  }

  /// The first leaf below `e` indexed by one of `symbols`.
  static Expr *findInputLeaf(Expr *e, ArrayRef<int64_t> symbols) {
    if (e->kind == Expr::Leaf)
      return llvm::any_of(
                 e->dims,
                 [&](int64_t s) { return llvm::is_contained(symbols, s); })
                 ? e
                 : nullptr;
    for (Expr *operand : e->operands)
      if (Expr *found = findInputLeaf(operand, symbols))
        return found;
    return nullptr;
  }

  /// GroupNorm: the core is computed on `tensor.expand_shape` of the input
  /// that splits dim c into [G, C/G], reduces over C/G (and other dims), and
  /// is collapsed back.
  bool matchGroups(Expr *e, NormMatch &m) {
    if (e->kind != Expr::Leaf || e->dims != pos)
      return false;
    auto collapse = e->value.getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      return false;
    SmallVector<ReassociationIndices> reassociation =
        collapse.getReassociationIndices();
    std::optional<int64_t> c;
    for (auto [i, group] : llvm::enumerate(reassociation)) {
      if (group.size() == 1)
        continue;
      if (group.size() != 2 || c)
        return false;
      c = i;
    }
    if (!c)
      return false;

    Matcher inner(allowUnstableVariance);
    std::optional<NormMatch> grouped = inner.match(collapse.getSrc());
    if (!grouped || grouped->mean || grouped->scale || grouped->bias ||
        grouped->groups)
      return false;
    // The split input must be the input, split the same way.
    auto expand = grouped->input.getDefiningOp<tensor::ExpandShapeOp>();
    if (!expand || expand.getReassociationIndices() != reassociation)
      return false;
    // Each group's C/G channels are reduced, the groups are not.
    if (!llvm::is_contained(grouped->axes, *c + 1) ||
        llvm::is_contained(grouped->axes, *c))
      return false;
    int64_t groups = expand.getResultType().getDimSize(*c);
    if (ShapedType::isDynamic(groups))
      return false;
    // A narrowing before the collapse gives the output type only when
    // nothing is computed after it (the collapse is the root).
    if (!m.accType) {
      m.accType = grouped->accType;
      m.outType = grouped->outType;
    } else if (grouped->outType != m.accType || grouped->accType != m.accType) {
      return false;
    }
    SmallVector<int64_t> axes;
    for (int64_t d : grouped->axes)
      axes.push_back(d <= *c ? d : d - 1);
    if (!m.axes.empty() && m.axes != axes)
      return false;
    m.input = expand.getSrc();
    m.statsInput = grouped->input;
    m.statsAxes = grouped->axes;
    m.mode = grouped->mode;
    m.axes = axes;
    m.epsilon = grouped->epsilon;
    m.groups = groups;
    m.groupDim = *c;
    return true;
  }

  bool allowUnstableVariance;
  /// The symbols of the candidate's result dims.
  SmallVector<int64_t> pos;
};

/// A value of `o` with exactly its non-unit dims, for the op's operands.
/// The matcher made sure that every kUnit dim has extent 1.
static Value materialize(PatternRewriter &rewriter, Location loc,
                         const Operand &o) {
  auto type = cast<RankedTensorType>(o.value.getType());
  if (llvm::none_of(o.dims, [](int64_t s) { return s == kUnit; }))
    return o.value;
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> shape;
  ReassociationIndices pending;
  for (auto [d, s] : llvm::enumerate(o.dims)) {
    if (s == kUnit) {
      pending.push_back(d);
      continue;
    }
    pending.push_back(d);
    reassociation.push_back(pending);
    shape.push_back(type.getDimSize(d));
    pending.clear();
  }
  // Trailing unit dims join the last group.
  llvm::append_range(reassociation.back(), pending);
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::CollapseShapeOp::create(rewriter, loc, resultType, o.value,
                                         reassociation)
      .getResult();
}

/// A tensor of the statistics shape expanded to `type`, which has unit dims
/// in place of the reduced `axes` (keepdim statistics).
static Value expandStatistics(PatternRewriter &rewriter, Location loc,
                              Value stats, RankedTensorType type,
                              ArrayRef<int64_t> axes) {
  if (stats.getType() == type)
    return stats;
  SmallVector<ReassociationIndices> reassociation;
  ReassociationIndices pending;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    pending.push_back(d);
    if (llvm::is_contained(axes, d))
      continue;
    reassociation.push_back(pending);
    pending.clear();
  }
  // Trailing unit dims join the last group; with no statistics dims at all
  // there are no groups.
  if (!reassociation.empty())
    llvm::append_range(reassociation.back(), pending);
  return tensor::ExpandShapeOp::create(rewriter, loc, type, stats,
                                       reassociation)
      .getResult();
}

/// Raises the chain ending in a single-result op to `norm.normalize`.
struct RaiseNormalization : RewritePattern {
  RaiseNormalization(MLIRContext *context, bool allowUnstableVariance,
                     PatternBenefit benefit)
      : RewritePattern(MatchAnyOpTypeTag(), benefit, context),
        allowUnstableVariance(allowUnstableVariance) {}

  static bool isCandidate(Operation *op) {
    if (op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return false;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return linalgOp.hasPureTensorSemantics();
    return isa<tensor::CollapseShapeOp>(op);
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isCandidate(op))
      return failure();
    Value root = op->getResult(0);
    std::optional<NormMatch> m = Matcher(allowUnstableVariance).match(root);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not a normalization");
    // The largest chain is raised: a user that extends it (the affine
    // after the core) is raised instead.
    for (Operation *user : root.getUsers())
      if (isCandidate(user) &&
          Matcher(allowUnstableVariance).match(user->getResult(0)))
        return rewriter.notifyMatchFailure(op, "a user extends the chain");

    Location loc = op->getLoc();
    NormalizeOptions options;
    options.mode = m->mode;
    options.axes = m->axes;
    options.epsilon = m->epsilon;
    options.groups = m->groups;
    options.groupDim = m->groupDim;
    options.affineDims = m->affineDims;
    options.outputElementType = m->outType;
    Type inType = getElementTypeOrSelf(m->input.getType());
    bool defaultAcc = inType.isF64() ? m->accType.isF64() : m->accType.isF32();
    if (!defaultAcc)
      options.accType = m->accType;
    for (auto [operand, slot] :
         {std::pair<Operand *, Value *>{&m->scale, &options.scale},
          {&m->bias, &options.bias},
          {&m->mean, &options.mean},
          {&m->variance, &options.variance}}) {
      if (!*operand)
        continue;
      *slot = materialize(rewriter, loc, *operand);
    }
    // Statistics of the chain that are used after it (torch's
    // native_layer_norm and friends return the mean and rstd) come from the
    // op's saved results, so their chains die with the rest.
    SmallVector<std::pair<Value, Statistic>> statistics =
        findStatistics(op, *m);
    options.saveStatistics = !statistics.empty();
    NormalizeOp normalize = buildNormalize(rewriter, loc, m->input, options);
    Block *block = op->getBlock();
    auto isAfterRoot = [&](OpOperand &use) {
      Operation *user = block->findAncestorOpInBlock(*use.getOwner());
      return user && op->isBeforeInBlock(user);
    };
    for (auto [value, statistic] : statistics) {
      // standard: saved(mean, rstd); rms: saved(rstd).
      unsigned index =
          statistic == Statistic::Mean || m->mode == NormMode::rms ? 1 : 2;
      Value saved = expandStatistics(rewriter, loc, normalize.getResult(index),
                                     cast<RankedTensorType>(value.getType()),
                                     m->statsAxes);
      rewriter.replaceUsesWithIf(value, saved, isAfterRoot);
    }
    rewriter.replaceOp(op, normalize.getResult(0));
    return success();
  }

  /// The values computed by the chain ending in `root` that hold the mean or
  /// rstd and are used after `root`, where the saved results can stand in.
  SmallVector<std::pair<Value, Statistic>>
  findStatistics(Operation *root, const NormMatch &m) const {
    SmallVector<std::pair<Value, Statistic>> found;
    if (m.mean)
      return found;
    Block *block = root->getBlock();
    auto usedAfterRoot = [&](Value v) {
      return llvm::any_of(v.getUsers(), [&](Operation *user) {
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        return ancestor && root->isBeforeInBlock(ancestor);
      });
    };
    // The ops of the chain: everything in the block the root depends on,
    // up to the input and the parameters. Bounded, like the evaluation.
    SmallVector<Operation *> worklist = {root};
    llvm::SmallPtrSet<Operation *, 32> visited = {root};
    llvm::DenseSet<Value> checked;
    Matcher matcher(allowUnstableVariance);
    while (!worklist.empty() && visited.size() < kMaxChainOps) {
      Operation *current = worklist.pop_back_val();
      for (Value operand : current->getOperands()) {
        if (operand == m.input || operand == m.scale.value ||
            operand == m.bias.value)
          continue;
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != block || !visited.insert(def).second)
          continue;
        worklist.push_back(def);
        for (Value result : def->getResults()) {
          // A statistic may also be returned through a reshape that adds
          // its keepdim unit dims.
          SmallVector<Value> candidates = {result};
          for (Operation *user : result.getUsers())
            if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
                user->getBlock() == block)
              candidates.push_back(user->getResult(0));
          for (Value candidate : candidates) {
            if (!checked.insert(candidate).second || !usedAfterRoot(candidate))
              continue;
            if (std::optional<Statistic> statistic =
                    matcher.matchStatistic(candidate, m))
              found.push_back({candidate, *statistic});
          }
        }
      }
    }
    return found;
  }

  static constexpr size_t kMaxChainOps = 256;

  bool allowUnstableVariance;
};

struct NormRaiseFromLinalgPass
    : norm::impl::NormRaiseFromLinalgPassBase<NormRaiseFromLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateRaiseFromLinalgPatterns(patterns, allowUnstableVariance);
    // IR that is not raised stays as it was: no folding, no constant CSE,
    // no region simplification; only what the raising left dead is erased.
    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace

void mlir::norm::populateRaiseFromLinalgPatterns(RewritePatternSet &patterns,
                                                 bool allowUnstableVariance,
                                                 PatternBenefit benefit) {
  patterns.add<RaiseNormalization>(patterns.getContext(), allowUnstableVariance,
                                   benefit);
}
