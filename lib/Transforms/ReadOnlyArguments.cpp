//===- ReadOnlyArguments.cpp - norm-read-only-arguments -------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMREADONLYARGUMENTSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {
struct NormReadOnlyArgumentsPass
    : norm::impl::NormReadOnlyArgumentsPassBase<NormReadOnlyArgumentsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isDeclaration())
        continue;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type))
          func.setArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName,
              b.getBoolAttr(false));
    }
  }
};
} // namespace
