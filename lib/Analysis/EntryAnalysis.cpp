//===- EntryAnalysis.cpp - what an entry function computes ----------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Analysis/EntryAnalysis.h"

#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::norm;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(message.str());
}

static DType dtypeOf(Type type) {
  Type e = getElementTypeOrSelf(type);
  if (e.isF16())
    return DType::F16;
  if (e.isBF16())
    return DType::BF16;
  if (e.isF64())
    return DType::F64;
  return DType::F32;
}

static NormSpec specOf(NormalizeOp op) {
  NormSpec spec;
  switch (op.getMode()) {
  case NormMode::standard:
    spec.mode = StatMode::Standard;
    break;
  case NormMode::rms:
    spec.mode = StatMode::RMS;
    break;
  case NormMode::l2:
    spec.mode = StatMode::L2;
    break;
  }
  spec.axes.assign(op.getAxes().begin(), op.getAxes().end());
  llvm::sort(spec.axes);
  spec.epsilon = op.getEpsilon().convertToDouble();
  if (std::optional<ArrayRef<int64_t>> dims = op.getAffineDims())
    spec.affineDims.assign(dims->begin(), dims->end());
  spec.hasScale = static_cast<bool>(op.getScale());
  spec.hasBias = static_cast<bool>(op.getBias());
  if (op.getGroups()) {
    spec.groups = *op.getGroups();
    spec.groupDim = *op.getGroupDim();
  }
  spec.givenStats = !op.hasComputedStatistics();
  spec.savedStats = !op.getSaved().empty();
  spec.savedVariance = op.getSavedVariance();
  spec.training = op.isTraining();
  if (spec.training) {
    spec.momentum = op.getMomentum()->convertToDouble();
    spec.unbiased = op.getUnbiased();
  }
  spec.inType = dtypeOf(op.getInput().getType());
  spec.outType = dtypeOf(op.getOutput().getType());
  spec.accType = dtypeOf(op.getAccumulationType());
  return spec;
}

/// Maps each function argument to the operands it feeds: its first role,
/// and any further ones as shared roles.
static llvm::Error assignRoles(func::FuncOp func,
                               ArrayRef<std::pair<Value, OperandRole>> operands,
                               EntryAnalysis &analysis) {
  for (BlockArgument arg : func.getArguments()) {
    std::optional<OperandRole> role;
    for (auto [value, r] : operands) {
      if (value != arg)
        continue;
      if (!role)
        role = r;
      else
        analysis.sharedRoles.push_back({r, arg.getArgNumber()});
    }
    if (!role)
      return error("argument #" + llvm::Twine(arg.getArgNumber()) +
                   " is not an operand of the normalization the harness "
                   "checks");
    analysis.argRoles.push_back(*role);
  }
  return llvm::Error::success();
}

llvm::Expected<EntryAnalysis> mlir::norm::analyzeEntry(func::FuncOp func) {
  SmallVector<NormalizeOp> ops;
  func.walk([&](NormalizeOp op) { ops.push_back(op); });
  EntryAnalysis analysis;
  auto returnOp = cast<func::ReturnOp>(func.getBody().back().getTerminator());

  if (ops.size() == 2) {
    // Cosine normalization: l2 over dim 1 of both operands, then x̂ · ŵᵀ.
    if (returnOp.getNumOperands() != 1)
      return error("a cosine normalization returns one matmul");
    auto matmul = returnOp.getOperand(0).getDefiningOp<linalg::MatmulOp>();
    if (!matmul || matmul.getInputs().size() != 2)
      return error("two normalizations are checked only as a cosine "
                   "normalization (two l2 normalizations and a matmul)");
    auto xn = matmul.getInputs()[0].getDefiningOp<NormalizeOp>();
    auto wn = matmul.getInputs()[1].getDefiningOp<NormalizeOp>();
    SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
    MLIRContext *ctx = func.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    bool transposeB = maps.size() == 3 &&
                      maps[1] == AffineMap::get(3, 0, {n, k}, ctx) &&
                      maps[0] == AffineMap::get(3, 0, {m, k}, ctx);
    for (NormalizeOp op : {xn, wn})
      if (!op || op.getMode() != NormMode::l2 || op.getRank() != 2 ||
          op.getAxes().size() != 1 || op.getAxes()[0] != 1 || op.getScale() ||
          op.getBias() || !op.getSaved().empty())
        return error("a cosine normalization normalizes both operands with "
                     "l2 over dim 1, without affine or saved statistics");
    if (!transposeB)
      return error("a cosine normalization multiplies by the transposed "
                   "second operand");
    if (xn.getEpsilon() != wn.getEpsilon())
      return error("a cosine normalization uses one epsilon for both sides");
    analysis.isCosine = true;
    analysis.spec = specOf(xn);
    analysis.spec.outType = dtypeOf(matmul->getResult(0).getType());
    if (llvm::Error e = assignRoles(func,
                                    {{xn.getInput(), OperandRole::CosineX},
                                     {wn.getInput(), OperandRole::CosineW}},
                                    analysis))
      return std::move(e);
    analysis.resultIndex = {0};
    analysis.opResultDTypes = {analysis.spec.outType};
    return analysis;
  }
  if (ops.size() != 1)
    return error("the harness checks functions holding one norm.normalize "
                 "(or a cosine normalization); @" +
                 func.getSymName() + " holds " + llvm::Twine(ops.size()));
  NormalizeOp op = ops.front();
  if (!op.hasPureTensorSemantics())
    return error("the harness checks the tensor form");
  for (Value init : op.getDpsInits()) {
    if (init == op.getRunningMean() || init == op.getRunningVar())
      continue;
    if (!init.getDefiningOp<tensor::EmptyOp>())
      return error("the output and saved inits must be tensor.empty");
  }
  analysis.spec = specOf(op);
  SmallVector<std::pair<Value, OperandRole>> operands = {
      {op.getInput(), OperandRole::Input}};
  if (op.getScale())
    operands.push_back({op.getScale(), OperandRole::Scale});
  if (op.getBias())
    operands.push_back({op.getBias(), OperandRole::Bias});
  if (op.getMean()) {
    operands.push_back({op.getMean(), OperandRole::Mean});
    operands.push_back({op.getVariance(), OperandRole::Variance});
  }
  if (op.isTraining()) {
    operands.push_back({op.getRunningMean(), OperandRole::RunningMean});
    operands.push_back({op.getRunningVar(), OperandRole::RunningVar});
  }
  if (!isa<BlockArgument>(op.getInput()))
    return error("the normalized input must be a function argument");
  if (llvm::Error e = assignRoles(func, operands, analysis))
    return std::move(e);
  for (Value v : returnOp.getOperands()) {
    auto result = dyn_cast<OpResult>(v);
    if (!result || result.getOwner() != op.getOperation())
      return error("every function result must be a result of the "
                   "normalization");
    analysis.resultIndex.push_back(result.getResultNumber());
  }
  for (Type t : op->getResultTypes())
    analysis.opResultDTypes.push_back(dtypeOf(t));
  return analysis;
}

llvm::Expected<TensorSignature> mlir::norm::getTensorSignature(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped)
    return llvm::createStringError("only ranked tensors are supported at "
                                   "function boundaries");
  TensorSignature sig;
  Type e = shaped.getElementType();
  if (e.isF16())
    sig.dtype = DType::F16;
  else if (e.isBF16())
    sig.dtype = DType::BF16;
  else if (e.isF32())
    sig.dtype = DType::F32;
  else if (e.isF64())
    sig.dtype = DType::F64;
  else
    return llvm::createStringError("unsupported element type in a function "
                                   "signature (f16, bf16, f32, f64 only)");
  sig.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  return sig;
}
