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

namespace {
/// The selects of one block on a 1-D `vector.create_mask` that keep their
/// false operand where the mask is false, and the ops computing their true
/// operands there that nothing else uses (pure, or reads of tensors masked
/// by the same mask), as an `scf.if` on the mask's size being positive,
/// which yields the false operands otherwise.
struct SkipEmptyMaskedStep : OpRewritePattern<vector::CreateMaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::CreateMaskOp mask,
                                PatternRewriter &rewriter) const override {
    if (mask.getVectorType().getRank() != 1)
      return rewriter.notifyMatchFailure(mask, "not a 1-D mask");
    // One block's selects at a time: the first block that has some.
    Block *block = nullptr;
    SmallVector<arith::SelectOp> selects;
    for (Operation *user : mask->getUsers()) {
      auto select = dyn_cast<arith::SelectOp>(user);
      if (!select || select.getCondition() != mask.getResult() ||
          isNonEmptyBranch(select->getParentOp(), mask))
        continue;
      if (!block)
        block = select->getBlock();
      if (select->getBlock() == block)
        selects.push_back(select);
    }
    if (selects.empty())
      return rewriter.notifyMatchFailure(mask, "no select on the mask");
    llvm::sort(selects, [](arith::SelectOp a, arith::SelectOp b) {
      return a->isBeforeInBlock(b);
    });

    // The step: the block's reads masked by the mask and the ops of the
    // block that use them, up to the selects.
    llvm::SmallPtrSet<Operation *, 16> selectOps;
    for (arith::SelectOp select : selects)
      selectOps.insert(select);
    llvm::SetVector<Operation *> step;
    SmallVector<Operation *> worklist;
    for (Operation *user : mask->getUsers()) {
      auto read = dyn_cast<vector::TransferReadOp>(user);
      if (read && read->getBlock() == block &&
          read.getMask() == mask.getResult() &&
          isa<RankedTensorType>(read.getBase().getType()))
        worklist.push_back(read);
    }
    if (worklist.empty())
      return rewriter.notifyMatchFailure(mask, "no masked read");
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (selectOps.contains(op) || !step.insert(op))
        continue;
      if (op->getNumRegions() != 0 ||
          (!isa<vector::TransferReadOp>(op) && !isMemoryEffectFree(op)))
        return rewriter.notifyMatchFailure(op, "not pure, nor a masked read");
      for (Operation *user : op->getUsers()) {
        if (user->getBlock() != block)
          return rewriter.notifyMatchFailure(user, "uses the step elsewhere");
        worklist.push_back(user);
      }
    }
    // Each op of the step must lead to a select's true operand: nothing
    // past the selects sees the step's values.
    llvm::SmallPtrSet<Operation *, 16> feedsSelects;
    SmallVector<Value> trueValues;
    for (arith::SelectOp select : selects)
      trueValues.push_back(select.getTrueValue());
    while (!trueValues.empty()) {
      Operation *def = trueValues.pop_back_val().getDefiningOp();
      if (!def || !step.contains(def) || !feedsSelects.insert(def).second)
        continue;
      llvm::append_range(trueValues, def->getOperands());
    }
    for (Operation *op : step)
      if (!feedsSelects.contains(op))
        return rewriter.notifyMatchFailure(op, "used past the selects");
    llvm::SmallPtrSet<Operation *, 16> moved(step.begin(), step.end());
    moved.insert(selectOps.begin(), selectOps.end());
    // Pure ops of the block used by the step only (a broadcast of a
    // statistic for it) move with it.
    SmallVector<Operation *> pending(moved.begin(), moved.end());
    while (!pending.empty()) {
      Operation *op = pending.pop_back_val();
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != block || moved.contains(def) ||
            def == mask.getOperation() || def->getNumRegions() != 0 ||
            !isMemoryEffectFree(def) ||
            !llvm::all_of(def->getUsers(), [&](Operation *user) {
              return moved.contains(user);
            }))
          continue;
        moved.insert(def);
        pending.push_back(def);
      }
    }
    for (arith::SelectOp select : selects)
      if (moved.contains(select.getFalseValue().getDefiningOp()))
        return rewriter.notifyMatchFailure(select, "keeps a value of the step");
    // The selects' users must follow the last of them (where the results
    // are defined now).
    arith::SelectOp last = selects.back();
    for (arith::SelectOp select : selects)
      for (Operation *user : select->getUsers())
        if (Operation *at = block->findAncestorOpInBlock(*user);
            at && !moved.contains(at) && at->isBeforeInBlock(last))
          return rewriter.notifyMatchFailure(user, "uses a select early");

    Location loc = mask.getLoc();
    rewriter.setInsertionPoint(last);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value nonEmpty =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                              mask.getOperands().front(), zero);
    SmallVector<Type> types;
    SmallVector<Value> kept;
    for (arith::SelectOp select : selects) {
      types.push_back(select.getType());
      kept.push_back(select.getFalseValue());
    }
    auto branch = scf::IfOp::create(rewriter, loc, types, nonEmpty,
                                    /*withElseRegion=*/true);
    Block *thenBlock = branch.thenBlock();
    // In block order, so that each op follows its operands.
    SmallVector<Operation *> ordered(moved.begin(), moved.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *op : ordered)
      rewriter.moveOpBefore(op, thenBlock, thenBlock->end());
    rewriter.setInsertionPointToEnd(thenBlock);
    SmallVector<Value> stepped;
    for (arith::SelectOp select : selects)
      stepped.push_back(select.getResult());
    scf::YieldOp::create(rewriter, loc, stepped);
    rewriter.setInsertionPointToEnd(branch.elseBlock());
    scf::YieldOp::create(rewriter, loc, kept);
    for (auto [select, result] : llvm::zip(selects, branch.getResults()))
      rewriter.replaceUsesWithIf(
          select.getResult(), result,
          [&](OpOperand &use) { return !branch->isAncestor(use.getOwner()); });
    return success();
  }
};
} // namespace

void mlir::norm::populateSkipEmptyMaskedStepsPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<SkipEmptyMaskedStep>(patterns.getContext(), benefit);
}
