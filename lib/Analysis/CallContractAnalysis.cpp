//===- CallContractAnalysis.cpp - a function's call contract --------------===//
//
// Part of the norm-mlir project.
//
// Every (value, dim) pair of the function, and every loop of a linalg op, is
// a node; the ops' semantics tie nodes that must hold the same extent. The
// contract lists, per dim of each argument and result, its class's static
// extent or the first dim of its class, and the group divisor.
//
//===----------------------------------------------------------------------===//

#include "norm/Analysis/CallContractAnalysis.h"

#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <numeric>

using namespace mlir;
using namespace mlir::norm;

namespace {
class Ties {
public:
  /// The node of dim `d` of shaped value `v`.
  unsigned of(Value v, int64_t d) {
    auto [it, inserted] = ids.try_emplace({v.getAsOpaquePointer(), d}, 0);
    if (inserted) {
      it->second = add();
      int64_t size = cast<ShapedType>(v.getType()).getDimSize(d);
      if (!ShapedType::isDynamic(size))
        extent[it->second] = size;
    }
    return it->second;
  }
  /// The node of loop `l` of `op`.
  unsigned loop(Operation *op, int64_t l) {
    auto [it, inserted] = ids.try_emplace({op, -1 - l}, 0);
    if (inserted)
      it->second = add();
    return it->second;
  }
  void tie(unsigned a, unsigned b) { classes.unionSets(a, b); }
  void tieAllDims(Value a, Value b) {
    auto ta = dyn_cast<ShapedType>(a.getType());
    auto tb = dyn_cast<ShapedType>(b.getType());
    if (!ta || !tb || !ta.hasRank() || !tb.hasRank() ||
        ta.getRank() != tb.getRank())
      return;
    for (int64_t d = 0; d < ta.getRank(); ++d)
      tie(of(a, d), of(b, d));
  }
  void fix(unsigned node, int64_t size) { extent[node] = size; }
  void requireMultiple(unsigned node, int64_t m) {
    multiple[node] = std::lcm(multiple[node], m);
  }
  unsigned leader(unsigned node) { return classes.getLeaderValue(node); }

  /// The static extent of a class (-1: dynamic), or an error when its
  /// members disagree.
  llvm::Expected<int64_t> classExtent(unsigned node) {
    int64_t found = -1;
    for (auto it = classes.findLeader(node); it != classes.member_end(); ++it) {
      int64_t e = extent[*it];
      if (e < 0)
        continue;
      if (found >= 0 && found != e)
        return llvm::createStringError(
            "two extents that the function ties differ (" + llvm::Twine(found) +
            " and " + llvm::Twine(e) + ")");
      found = e;
    }
    return found;
  }
  int64_t classMultiple(unsigned node) {
    int64_t m = 1;
    for (auto it = classes.findLeader(node); it != classes.member_end(); ++it)
      m = std::lcm(m, multiple[*it]);
    return m;
  }

private:
  unsigned add() {
    unsigned id = extent.size();
    extent.push_back(-1);
    multiple.push_back(1);
    classes.insert(id);
    return id;
  }
  llvm::DenseMap<std::pair<const void *, int64_t>, unsigned> ids;
  llvm::EquivalenceClasses<unsigned> classes;
  std::vector<int64_t> extent, multiple;
};
} // namespace

static bool isRankedShaped(Value v) {
  auto type = dyn_cast<ShapedType>(v.getType());
  return type && type.hasRank();
}

static void tieNormalize(NormalizeOp op, Ties &ties) {
  Value x = op.getInput();
  int64_t rank = op.getRank();
  for (int64_t d = 0; d < rank; ++d)
    ties.tie(ties.of(x, d), ties.of(op.getOutput(), d));
  if (std::optional<ArrayRef<int64_t>> affineDims = op.getAffineDims())
    for (Value param : {op.getScale(), op.getBias()})
      if (param)
        for (auto [i, d] : llvm::enumerate(*affineDims))
          ties.tie(ties.of(param, i), ties.of(x, d));
  SmallVector<Value> statistics;
  for (Value v : {op.getMean(), op.getVariance(), op.getRunningMean(),
                  op.getRunningVar()})
    if (v)
      statistics.push_back(v);
  llvm::append_range(statistics, op.getSaved());
  SmallVector<int64_t> statDims = op.getStatisticsDims();
  for (Value v : statistics) {
    if (cast<ShapedType>(v.getType()).getRank() !=
        static_cast<int64_t>(statDims.size()))
      continue;
    for (auto [k, d] : llvm::enumerate(statDims)) {
      if (d >= 0)
        ties.tie(ties.of(v, k), ties.of(x, d));
      else
        ties.fix(ties.of(v, k), *op.getGroups());
    }
  }
  if (std::optional<int64_t> groups = op.getGroups())
    ties.requireMultiple(ties.of(x, *op.getGroupDim()), *groups);
}

static void tieLinalg(linalg::LinalgOp op, Ties &ties) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isRankedShaped(operand.get()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [k, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        ties.tie(ties.of(operand.get(), k), ties.loop(op, dim.getPosition()));
  }
}

/// A dim of a reshape's collapsed side that is one dim of the expanded side
/// (every other dim of its group a static 1) is that dim.
static void tieReassociation(Value collapsed, Value expanded,
                             ArrayRef<ReassociationIndices> groups,
                             Ties &ties) {
  auto expandedType = cast<ShapedType>(expanded.getType());
  for (auto [c, group] : llvm::enumerate(groups)) {
    SmallVector<int64_t> kept;
    for (int64_t e : group)
      if (expandedType.getDimSize(e) != 1)
        kept.push_back(e);
    if (kept.size() == 1)
      ties.tie(ties.of(collapsed, c), ties.of(expanded, kept.front()));
  }
}

template <typename DimOp>
static void tieSizeToDim(Value shaped, int64_t d, Value size, Ties &ties) {
  auto dimOp = size.getDefiningOp<DimOp>();
  if (!dimOp || !isRankedShaped(dimOp.getSource()))
    return;
  if (std::optional<int64_t> index = dimOp.getConstantIndex())
    ties.tie(ties.of(shaped, d), ties.of(dimOp.getSource(), *index));
}

static void tieOp(Operation *op, Ties &ties) {
  if (auto normalize = dyn_cast<NormalizeOp>(op))
    tieNormalize(normalize, ties);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    tieLinalg(linalgOp, ties);
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    for (OpResult result : op->getResults())
      if (OpOperand *init = dps.getTiedOpOperand(result))
        ties.tieAllDims(result, init->get());
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    for (int64_t d = 0; d < empty.getType().getRank(); ++d)
      if (empty.getType().isDynamicDim(d))
        tieSizeToDim<tensor::DimOp>(empty, d, empty.getDynamicSize(d), ties);
  }
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    unsigned next = 0;
    for (int64_t d = 0; d < alloc.getType().getRank(); ++d)
      if (alloc.getType().isDynamicDim(d))
        tieSizeToDim<memref::DimOp>(alloc, d, alloc.getDynamicSizes()[next++],
                                    ties);
  }
  if (isa<tensor::CastOp, memref::CastOp>(op))
    ties.tieAllDims(op->getOperand(0), op->getResult(0));
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    tieReassociation(collapse.getResult(), collapse.getSrc(),
                     collapse.getReassociationIndices(), ties);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    tieReassociation(expand.getSrc(), expand.getResult(),
                     expand.getReassociationIndices(), ties);
}

static llvm::Expected<norm_call_buffer> bufferOf(Type type,
                                                 const llvm::Twine &what) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() ||
      !isa<RankedTensorType, MemRefType>(shaped))
    return llvm::createStringError(what + " is not a ranked tensor or memref");
  Type element = shaped.getElementType();
  if (!element.isIntOrFloat())
    return llvm::createStringError(what + " has no integer or float elements");
  return norm_call_buffer{
      static_cast<int32_t>(shaped.getRank()),
      static_cast<int32_t>((element.getIntOrFloatBitWidth() + 7) / 8)};
}

llvm::Expected<CallContract> mlir::norm::deriveCallContract(func::FuncOp func) {
  if (func.isExternal())
    return llvm::createStringError("@" + func.getSymName() + " has no body");
  Ties ties;
  func.walk([&](Operation *op) { tieOp(op, ties); });

  CallContract contract;
  contract.numArguments = func.getNumArguments();
  SmallVector<std::pair<Value, std::string>> buffers;
  for (BlockArgument arg : func.getArguments())
    buffers.push_back({arg, "argument #" + std::to_string(arg.getArgNumber())});
  auto returnOp = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  for (auto [i, v] : llvm::enumerate(returnOp.getOperands()))
    buffers.push_back({v, "result #" + std::to_string(i)});

  // The first flat dim of each class.
  llvm::DenseMap<unsigned, int32_t> firstOfClass;
  for (auto [value, what] : buffers) {
    llvm::Expected<norm_call_buffer> buffer = bufferOf(value.getType(), what);
    if (!buffer)
      return buffer.takeError();
    contract.buffers.push_back(*buffer);
    for (int64_t d = 0; d < buffer->rank; ++d) {
      int32_t flat = contract.dims.size();
      unsigned node = ties.of(value, d);
      unsigned leader = ties.leader(node);
      llvm::Expected<int64_t> extent = ties.classExtent(node);
      if (!extent)
        return llvm::createStringError(what + " dim " + llvm::Twine(d) + ": " +
                                       llvm::toString(extent.takeError()));
      auto [it, first] = firstOfClass.try_emplace(leader, flat);
      norm_call_dim dim{*extent, -1, 1};
      if (*extent < 0) {
        if (!first)
          dim.same_as = it->second;
        else
          dim.multiple_of = ties.classMultiple(node);
      }
      contract.dims.push_back(dim);
    }
  }
  // A dynamic result extent must be one of an argument's.
  int32_t argumentDims = 0;
  for (int32_t b = 0; b < contract.numArguments; ++b)
    argumentDims += contract.buffers[b].rank;
  int32_t flat = argumentDims;
  for (int32_t r = 0; r < contract.numResults(); ++r)
    for (int32_t d = 0; d < contract.buffers[contract.numArguments + r].rank;
         ++d, ++flat) {
      const norm_call_dim &dim = contract.dims[flat];
      if (dim.extent < 0 && (dim.same_as < 0 || dim.same_as >= argumentDims))
        return llvm::createStringError(
            "@" + func.getSymName() + ": the dynamic extent of dim " +
            llvm::Twine(d) + " of result #" + llvm::Twine(r) +
            " does not follow from the arguments");
    }
  return contract;
}
