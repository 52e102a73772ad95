//===- WidenBF16PairsInSums.cpp - bf16 widened in lane pairs for sums -----===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//
//
// A loop that only sums widened bf16 elements into vector partial sums, which
// are then reduced whole, may hold the elements in any lane order. Widening
// bf16 in element order costs a zero-extension and a shift per f32 vector;
// read as 32-bit pairs, the even elements are one shift and the odd ones one
// mask, two vectors for two operations and no shuffle.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {
/// A value's role in the loop: derived from the widened elements (lane i a
/// function of their lane i), or the partial sums of iteration argument
/// `sum` (lane i: its initial lane plus terms of the widened lanes i).
struct Role {
  enum Kind { Elements, Sum } kind;
  unsigned sum = 0;
};

/// Whether `value` is the same in every lane and loop-invariant.
bool isUniform(scf::ForOp loop, Value value) {
  if (!loop.isDefinedOutsideOfLoop(value))
    return false;
  if (auto broadcast = value.getDefiningOp<vector::BroadcastOp>()) {
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    return !source || source.getNumElements() == 1;
  }
  DenseElementsAttr constant;
  return matchPattern(value, m_Constant(&constant)) && constant.isSplat();
}

/// Whether `value` depends on `op`'s results (lanes of a differently
/// ordered sum would pair up with the result's).
bool dependsOn(Value value, Operation *op) {
  if (value.getDefiningOp() == op)
    return true;
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  return succeeded(getBackwardSlice(value, &slice, options)) &&
         slice.contains(op);
}

/// Whether the uses of loop result `result` after `loop` add it, lane for
/// lane, to values that do not depend on the loop (arith.addf, and
/// arith.select between two such sums) and end in a whole add reduction: the
/// reductions' values do not depend on its lane order.
bool isOnlyReducedWhole(scf::ForOp loop, Value result) {
  SetVector<Value> derived;
  derived.insert(result);
  for (unsigned i = 0; i < derived.size(); ++i) {
    for (Operation *user : derived[i].getUsers()) {
      if (auto reduction = dyn_cast<vector::ReductionOp>(user)) {
        if (reduction.getKind() != vector::CombiningKind::ADD ||
            reduction.getVector() != derived[i])
          return false;
        continue;
      }
      if (auto add = dyn_cast<arith::AddFOp>(user)) {
        Value other = add.getLhs() == derived[i] ? add.getRhs() : add.getLhs();
        if (other == derived[i] || derived.contains(other) ||
            dependsOn(other, loop))
          return false;
        derived.insert(add.getResult());
        continue;
      }
      if (auto select = dyn_cast<arith::SelectOp>(user)) {
        if (select.getCondition() == derived[i])
          return false;
        Value other = select.getTrueValue() == derived[i]
                          ? select.getFalseValue()
                          : select.getTrueValue();
        // Both choices must be this result plus loop-independent terms; the
        // other one may not have been reached yet, so look at it directly.
        auto sum = other.getDefiningOp<arith::AddFOp>();
        bool otherIsSum =
            derived.contains(other) ||
            (sum && (sum.getLhs() == derived[i] || sum.getRhs() == derived[i]));
        if (!otherIsSum)
          return false;
        derived.insert(select.getResult());
        continue;
      }
      return false;
    }
  }
  return true;
}

/// Widens the bf16 elements of `loop`'s sums in lane pairs (see the file
/// comment) where the loop only sums them and its sums are reduced whole.
struct WidenBF16PairsInSumLoop : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    Block *body = loop.getBody();
    SmallVector<arith::ExtFOp> widenings;
    for (Operation &op : body->without_terminator()) {
      auto extf = dyn_cast<arith::ExtFOp>(op);
      auto type =
          extf ? dyn_cast<VectorType>(extf.getIn().getType()) : VectorType();
      if (!type)
        continue;
      if (type.getRank() != 1 || type.isScalable() ||
          !type.getElementType().isBF16() ||
          !getElementTypeOrSelf(extf.getType()).isF32() ||
          type.getNumElements() % 2 != 0)
        return rewriter.notifyMatchFailure(loop, "widens other than bf16");
      widenings.push_back(extf);
    }
    if (widenings.empty())
      return rewriter.notifyMatchFailure(loop, "widens no bf16 vector");
    int64_t width =
        cast<VectorType>(widenings.front().getType()).getNumElements();
    if (llvm::any_of(widenings, [&](arith::ExtFOp extf) {
          return cast<VectorType>(extf.getType()).getNumElements() != width;
        }))
      return rewriter.notifyMatchFailure(loop, "widens vectors of two sizes");

    // Every vector value of the body: widened elements, or a sum.
    DenseMap<Value, Role> roles;
    for (arith::ExtFOp extf : widenings)
      roles[extf.getResult()] = {Role::Elements};
    for (auto [q, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<VectorType>(arg.getType());
      if (!type)
        return rewriter.notifyMatchFailure(loop, "carries a scalar");
      if (type.getRank() != 1 || type.getNumElements() != width)
        return rewriter.notifyMatchFailure(loop, "carries another shape");
      roles[arg] = {Role::Sum, static_cast<unsigned>(q)};
    }
    for (Operation &op : body->without_terminator()) {
      if (isa<arith::ExtFOp>(op))
        continue;
      bool vectorOp =
          llvm::any_of(op.getOperandTypes(), llvm::IsaPred<VectorType>) ||
          llvm::any_of(op.getResultTypes(), llvm::IsaPred<VectorType>);
      if (!vectorOp)
        continue;
      // The widened elements' sources: loads whose lane order is theirs.
      if (isa<vector::TransferReadOp, vector::LoadOp>(op) &&
          llvm::all_of(op.getResult(0).getUsers(), [&](Operation *user) {
            return llvm::is_contained(widenings, user);
          }))
        continue;
      if (op.getNumResults() != 1 ||
          !isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
               math::FmaOp>(op))
        return rewriter.notifyMatchFailure(&op, "is not lane-wise arithmetic");
      auto isSum = [&](Value value) {
        auto role = roles.find(value);
        return role != roles.end() && role->second.kind == Role::Sum;
      };
      std::optional<unsigned> sum;
      unsigned sums = 0;
      bool elements = false;
      for (Value operand : op.getOperands()) {
        auto role = roles.find(operand);
        if (role == roles.end()) {
          if (!isUniform(loop, operand))
            return rewriter.notifyMatchFailure(&op,
                                               "has a lane-ordered operand");
          continue;
        }
        if (role->second.kind == Role::Elements) {
          elements = true;
          continue;
        }
        ++sums;
        sum = role->second.sum;
      }
      // A sum grows by a term of the elements (addf, or fma's addend); any
      // other use of a sum would see its lane order.
      if (sums == 0) {
        roles[op.getResult(0)] = {Role::Elements};
        continue;
      }
      bool addsTerm =
          sums == 1 && elements &&
          (isa<arith::AddFOp>(op) ||
           (isa<math::FmaOp>(op) && isSum(cast<math::FmaOp>(op).getC())));
      if (!addsTerm)
        return rewriter.notifyMatchFailure(&op, "uses a sum other than adding");
      roles[op.getResult(0)] = {Role::Sum, *sum};
    }
    // Every use of the elements and the sums is one of the ops above (not
    // one in a nested region, nor anything else that sees lane order); only
    // the sums reach the yield, each its own slot.
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    for (auto [value, role] : roles)
      for (Operation *user : value.getUsers())
        if (user == yield.getOperation()
                ? role.kind != Role::Sum
                : user->getBlock() != body || user->getNumResults() != 1 ||
                      !roles.contains(user->getResult(0)))
          return rewriter.notifyMatchFailure(user, "sees the lane order");
    for (auto [q, yielded] : llvm::enumerate(yield.getOperands())) {
      auto role = roles.find(yielded);
      if (role == roles.end() || role->second.kind != Role::Sum ||
          role->second.sum != q)
        return rewriter.notifyMatchFailure(loop, "yields other than its sum");
    }
    for (Value result : loop.getResults())
      if (!isOnlyReducedWhole(loop, result))
        return rewriter.notifyMatchFailure(loop, "a sum is not reduced whole");

    // Even elements then odd ones, each pair read as one i32.
    auto pairs = VectorType::get({width / 2}, rewriter.getI32Type());
    auto halves = VectorType::get({width / 2}, rewriter.getF32Type());
    rewriter.setInsertionPoint(loop);
    auto splat = [&](uint32_t laneBits) -> Value {
      return arith::ConstantOp::create(
          rewriter, loop.getLoc(),
          DenseElementsAttr::get(pairs, rewriter.getI32IntegerAttr(
                                            static_cast<int32_t>(laneBits))));
    };
    Value sixteen = splat(16);
    Value upper = splat(0xFFFF0000u);
    SmallVector<int64_t> concat = llvm::to_vector(llvm::seq<int64_t>(0, width));
    for (arith::ExtFOp extf : widenings) {
      rewriter.setInsertionPoint(extf);
      Location loc = extf.getLoc();
      Value bits =
          vector::BitCastOp::create(rewriter, loc, pairs, extf.getIn());
      Value even = vector::BitCastOp::create(
          rewriter, loc, halves,
          arith::ShLIOp::create(rewriter, loc, bits, sixteen));
      Value odd = vector::BitCastOp::create(
          rewriter, loc, halves,
          arith::AndIOp::create(rewriter, loc, bits, upper));
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(extf, even, odd, concat);
    }
    return success();
  }
};
} // namespace

void mlir::norm::populateWidenBF16PairsInSumsPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<WidenBF16PairsInSumLoop>(patterns.getContext(), benefit);
}
