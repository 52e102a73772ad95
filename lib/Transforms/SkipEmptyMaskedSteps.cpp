//===- SkipEmptyMaskedSteps.cpp - branch around all-false masked steps ----===//
//
// Part of the norm-mlir project.
//
// A reduction split into vector partial sums ends with one masked step over
// the fewer than a vector's elements left, which may be none: it reads
// masked, combines into the partial sums and keeps the old lanes where the
// mask is false. Run unconditionally, it costs a row whose length is a
// multiple of the step as much as a whole step more per pass: half again
// the work of a 128-element f32 row's statistics at 64-element steps. A
// branch on the mask's size skips it; the branch goes the same way for
// every row of a tensor.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

/// Whether `op` is the branch this pattern makes for `mask`.
static bool isNonEmptyBranch(Operation *op, vector::CreateMaskOp mask) {
  auto branch = dyn_cast_or_null<scf::IfOp>(op);
  auto test =
      branch ? branch.getCondition().getDefiningOp<arith::CmpIOp>() : nullptr;
  return test && test.getPredicate() == arith::CmpIPredicate::sgt &&
         test.getLhs() == mask.getOperands().front() &&
         matchPattern(test.getRhs(), m_Zero());
}

/// Puts the step of `selects` (on `mask`, in one block, in block order)
/// under an `scf.if` on the mask's size being positive: the block's reads
/// masked by it and the ops of the block that use them, each pure (a read
/// of a tensor is) and used by the step or the selects only, and the pure
/// ops that only the step uses; the else branch yields the selects' false
/// operands. Fails, changing nothing, where that is not the whole step.
static LogicalResult skipEmptyStep(vector::CreateMaskOp mask,
                                   ArrayRef<arith::SelectOp> selects,
                                   PatternRewriter &rewriter) {
  Block *block = selects.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 16> moved;
  for (arith::SelectOp select : selects)
    moved.insert(select);
  SetVector<Operation *> step;
  ForwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) {
    return op->getBlock() == block && !moved.contains(op);
  };
  for (Operation *user : mask->getUsers())
    if (auto read = dyn_cast<vector::TransferReadOp>(user);
        read && read->getBlock() == block && read.getMask() == mask)
      getForwardSlice(read.getOperation(), &step, options);
  if (step.empty())
    return failure();
  for (Operation *op : step) {
    if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>() ||
        !isMemoryEffectFree(op))
      return failure();
    for (Operation *user : op->getUsers())
      if (!step.contains(user) && !moved.contains(user))
        return failure();
  }
  moved.insert(step.begin(), step.end());
  // Pure ops of the block used by the step only (a broadcast of a
  // statistic for it) move with it.
  SmallVector<Operation *> pending(moved.begin(), moved.end());
  while (!pending.empty()) {
    for (Value operand : pending.pop_back_val()->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != block || moved.contains(def) ||
          def == mask.getOperation() || def->getNumRegions() != 0 ||
          !isMemoryEffectFree(def) ||
          !llvm::all_of(def->getUsers(),
                        [&](Operation *user) { return moved.contains(user); }))
        continue;
      moved.insert(def);
      pending.push_back(def);
    }
  }
  // The false operands stay outside, and the selects' users follow the last
  // select, where the results are defined now.
  arith::SelectOp last = selects.back();
  for (arith::SelectOp select : selects) {
    if (moved.contains(select.getFalseValue().getDefiningOp()))
      return failure();
    for (Operation *user : select->getUsers())
      if (Operation *at = block->findAncestorOpInBlock(*user);
          at && !moved.contains(at) && at->isBeforeInBlock(last))
        return failure();
  }

  Location loc = mask.getLoc();
  rewriter.setInsertionPoint(last);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value nonEmpty =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                            mask.getOperands().front(), zero);
  SmallVector<Type> types;
  SmallVector<Value> kept, stepped;
  for (arith::SelectOp select : selects) {
    types.push_back(select.getType());
    kept.push_back(select.getFalseValue());
    stepped.push_back(select.getResult());
  }
  auto branch = scf::IfOp::create(rewriter, loc, types, nonEmpty,
                                  /*withElseRegion=*/true);
  Block *thenBlock = branch.thenBlock();
  // In block order, so that each op follows its operands.
  SmallVector<Operation *> ordered(moved.begin(), moved.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    rewriter.moveOpBefore(op, thenBlock, thenBlock->end());
  rewriter.setInsertionPointToEnd(thenBlock);
  scf::YieldOp::create(rewriter, loc, stepped);
  rewriter.setInsertionPointToEnd(branch.elseBlock());
  scf::YieldOp::create(rewriter, loc, kept);
  for (auto [result, value] : llvm::zip(stepped, branch.getResults()))
    rewriter.replaceUsesWithIf(result, value, [&](OpOperand &use) {
      return !branch->isAncestor(use.getOwner());
    });
  return success();
}

namespace {
/// The selects on a 1-D `vector.create_mask` that keep their false operand
/// where the mask is false, with the step they select from, under an
/// `scf.if` on the mask's size, block by block (skipEmptyStep).
struct SkipEmptyMaskedStep : OpRewritePattern<vector::CreateMaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::CreateMaskOp mask,
                                PatternRewriter &rewriter) const override {
    if (mask.getVectorType().getRank() != 1)
      return rewriter.notifyMatchFailure(mask, "not a 1-D mask");
    llvm::MapVector<Block *, SmallVector<arith::SelectOp>> selectsByBlock;
    for (Operation *user : mask->getUsers())
      if (auto select = dyn_cast<arith::SelectOp>(user);
          select && select.getCondition() == mask.getResult() &&
          !isNonEmptyBranch(select->getParentOp(), mask))
        selectsByBlock[select->getBlock()].push_back(select);
    bool changed = false;
    for (auto &[block, selects] : selectsByBlock) {
      llvm::sort(selects, [](arith::SelectOp a, arith::SelectOp b) {
        return a->isBeforeInBlock(b);
      });
      changed |= succeeded(skipEmptyStep(mask, selects, rewriter));
    }
    return success(changed);
  }
};
} // namespace

void mlir::norm::populateSkipEmptyMaskedStepsPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<SkipEmptyMaskedStep>(patterns.getContext(), benefit);
}
