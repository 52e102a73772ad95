//===- BufferizableOpInterfaceImpl.cpp - bufferize norm.normalize ---------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/BufferizableOpInterfaceImpl.h"
#include "norm/IR/NormDialect.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"

using namespace mlir;
using namespace mlir::norm;

namespace {
struct NormalizeOpBufferizationModel
    : bufferization::DstBufferizableOpInterfaceExternalModel<
          NormalizeOpBufferizationModel, NormalizeOp> {
  /// Inputs and the running statistics are read; the output and the saved
  /// statistics are only written, so their inits need no copy.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const bufferization::AnalysisState &) const {
    auto normOp = cast<NormalizeOp>(op);
    if (!normOp.isDpsInit(&operand))
      return true;
    return operand.get() == normOp.getRunningMean() ||
           operand.get() == normOp.getRunningVar();
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const bufferization::BufferizationOptions &options,
                          bufferization::BufferizationState &state) const {
    auto normOp = cast<NormalizeOp>(op);
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<TensorType>(operand.get().getType())) {
        operands.push_back(operand.get());
        continue;
      }
      FailureOr<Value> buffer =
          bufferization::getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    NormalizeOp::create(rewriter, op->getLoc(), TypeRange{}, operands,
                        normOp.getProperties(),
                        llvm::to_vector(normOp->getDiscardableAttrs()));
    SmallVector<Value> inits;
    for (OpOperand &init : normOp.getDpsInitsMutable())
      inits.push_back(operands[init.getOperandNumber()]);
    bufferization::replaceOpWithBufferizedValues(rewriter, op, inits);
    return success();
  }
};
} // namespace

void mlir::norm::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NormDialect *) {
    NormalizeOp::attachInterface<NormalizeOpBufferizationModel>(*ctx);
  });
}
