//===- DistinctResults.cpp - norm-distinct-results ------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMDISTINCTRESULTSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {
struct NormDistinctResultsPass
    : norm::impl::NormDistinctResultsPassBase<NormDistinctResultsPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isDeclaration())
        continue;
      func.walk([&](func::ReturnOp ret) {
        llvm::SmallPtrSet<Value, 8> seen;
        b.setInsertionPoint(ret);
        for (OpOperand &operand : ret->getOpOperands()) {
          Value v = operand.get();
          if (!isa<RankedTensorType>(v.getType()) || seen.insert(v).second)
            continue;
          Location loc = ret.getLoc();
          Value empty = tensor::EmptyOp::create(
              b, loc, tensor::getMixedSizes(b, loc, v),
              cast<RankedTensorType>(v.getType()).getElementType());
          operand.set(linalg::CopyOp::create(b, loc, v, empty).getResult(0));
        }
      });
    }
  }
};
} // namespace
