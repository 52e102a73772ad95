//===- StreamStores.cpp - norm-stream-stores ------------------------------===//
//
// Part of the norm-mlir project.
//
// An ordinary store to a line that is not cached reads the line first (read
// for ownership): writing an output much larger than the caches costs a
// read and a write per byte, a streaming store only the write. x86's
// streaming vector stores must be aligned to their size, so the loop is
// versioned on the address of its first store.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"
#include "norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMSTREAMSTORESPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

/// The bytes a streaming vector store must be aligned to (and a multiple of):
/// a cache line, the size of a 512-bit vector.
static constexpr int64_t kStreamBytes = 64;

/// Where a store of a loop step writes: a buffer defined outside the loop
/// and the indices into it, the innermost being the induction variable.
struct StoreTarget {
  Value buffer;
  SmallVector<OpFoldResult> indices;
};

/// The target of `store`, directly or through a unit-stride subview taken
/// in the step (the tiled form: the step's slice of the row).
static std::optional<StoreTarget> getStoreTarget(vector::TransferWriteOp store,
                                                 scf::ForOp loop) {
  Value buffer = store.getBase();
  SmallVector<OpFoldResult> indices = getAsOpFoldResult(store.getIndices());
  if (auto subview = buffer.getDefiningOp<memref::SubViewOp>();
      subview && subview->getParentOp() == loop.getOperation()) {
    if (!subview.hasUnitStride())
      return std::nullopt;
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
    SmallVector<OpFoldResult> composed;
    unsigned next = 0;
    for (int64_t d = 0, e = offsets.size(); d < e; ++d) {
      if (dropped.test(d)) {
        composed.push_back(offsets[d]);
        continue;
      }
      OpFoldResult index = indices[next++];
      if (isConstantIntValue(index, 0))
        composed.push_back(offsets[d]);
      else if (isConstantIntValue(offsets[d], 0))
        composed.push_back(index);
      else
        return std::nullopt;
    }
    buffer = subview.getSource();
    indices = std::move(composed);
  }
  if (!loop.isDefinedOutsideOfLoop(buffer) || indices.empty() ||
      dyn_cast<Value>(indices.back()) != loop.getInductionVar())
    return std::nullopt;
  // The other indices stay the same along the loop.
  for (OpFoldResult index : ArrayRef(indices).drop_back())
    if (auto value = dyn_cast<Value>(index);
        value && !loop.isDefinedOutsideOfLoop(value))
      return std::nullopt;
  return StoreTarget{buffer, std::move(indices)};
}

/// The one store of `loop` that may stream: a whole, unmasked 1-D vector of
/// a multiple of kStreamBytes at the induction variable, each step moving
/// by a multiple of kStreamBytes.
static vector::TransferWriteOp getStreamableStore(scf::ForOp loop) {
  vector::TransferWriteOp store;
  for (Operation &op : *loop.getBody()) {
    if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
      if (store)
        return nullptr;
      store = write;
    }
  }
  if (!store || store.getMask() || !isa<MemRefType>(store.getBase().getType()))
    return nullptr;
  VectorType vectorType = store.getVectorType();
  auto memrefType = cast<MemRefType>(store.getBase().getType());
  unsigned elementBits = vectorType.getElementTypeBitWidth();
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (vectorType.getRank() != 1 || elementBits % 8 != 0 ||
      memrefType.getElementType() != vectorType.getElementType() ||
      !store.getPermutationMap().isMinorIdentity() ||
      !store.getInBoundsValues()[0] || !step)
    return nullptr;
  int64_t elementBytes = elementBits / 8;
  if ((vectorType.getNumElements() * elementBytes) % kStreamBytes != 0 ||
      (*step * elementBytes) % kStreamBytes != 0)
    return nullptr;
  return store;
}

/// Versions `loop` (see norm-stream-stores); false if it does not qualify.
static bool streamStores(RewriterBase &rewriter, scf::ForOp loop,
                         int64_t minBytes) {
  if (loop.getNumResults() != 0)
    return false;
  vector::TransferWriteOp store = getStreamableStore(loop);
  if (!store)
    return false;
  std::optional<StoreTarget> target = getStoreTarget(store, loop);
  if (!target)
    return false;
  BlockArgument root = norm::getViewedFunctionArgument(target->buffer);
  if (!root)
    return false;
  auto rootType = cast<MemRefType>(root.getType());
  int64_t elementBytes = store.getVectorType().getElementTypeBitWidth() / 8;
  if (rootType.hasStaticShape() &&
      rootType.getNumElements() * elementBytes < minBytes)
    return false;

  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  auto i1 = [&](bool value) -> Value {
    return arith::ConstantIntOp::create(rewriter, loc, value, 1);
  };
  auto cmp = [&](arith::CmpIPredicate predicate, Value a, Value b) -> Value {
    return arith::CmpIOp::create(rewriter, loc, predicate, a, b);
  };

  // Large enough (known statically or read off the argument's sizes).
  Value stream = i1(true);
  if (!rootType.hasStaticShape()) {
    Value bytes = constant(elementBytes);
    for (int64_t d = 0, e = rootType.getRank(); d < e; ++d)
      bytes = arith::MulIOp::create(
          rewriter, loc, bytes, memref::DimOp::create(rewriter, loc, root, d));
    stream = cmp(arith::CmpIPredicate::uge, bytes, constant(minBytes));
  }
  // The first store's address, aligned; unit innermost stride.
  Value buffer = target->buffer;
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
  Value element = metadata.getOffset();
  ValueRange strides = metadata.getStrides();
  SmallVector<Value> indices =
      getValueOrCreateConstantIndexOp(rewriter, loc, target->indices);
  indices.back() = loop.getLowerBound();
  for (auto [index, stride] : llvm::zip(indices, strides))
    element = arith::AddIOp::create(
        rewriter, loc, element,
        arith::MulIOp::create(rewriter, loc, index, stride));
  Value address = arith::AddIOp::create(
      rewriter, loc,
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer),
      arith::MulIOp::create(rewriter, loc, element, constant(elementBytes)));
  Value aligned = cmp(
      arith::CmpIPredicate::eq,
      arith::RemUIOp::create(rewriter, loc, address, constant(kStreamBytes)),
      constant(0));
  Value unitStride = cmp(arith::CmpIPredicate::eq, strides.back(), constant(1));
  stream = arith::AndIOp::create(
      rewriter, loc, stream,
      arith::AndIOp::create(rewriter, loc, aligned, unitStride));

  auto branches =
      scf::IfOp::create(rewriter, loc, TypeRange(), stream, /*withElse=*/true);
  // Streaming: a copy whose store is a non-temporal vector.store.
  rewriter.setInsertionPoint(branches.thenBlock()->getTerminator());
  IRMapping map;
  rewriter.clone(*loop, map);
  auto copied = cast<vector::TransferWriteOp>(map.lookup(store.getOperation()));
  rewriter.setInsertionPoint(copied);
  int64_t vectorBytes = store.getVectorType().getNumElements() * elementBytes;
  vector::StoreOp::create(
      rewriter, copied.getLoc(), copied.getVector(), copied.getBase(),
      copied.getIndices(),
      /*nontemporal=*/true,
      llvm::MaybeAlign(std::min(vectorBytes, kStreamBytes)));
  rewriter.eraseOp(copied);
  // Otherwise the loop as it was.
  rewriter.moveOpBefore(loop, branches.elseBlock()->getTerminator());
  return true;
}

namespace {
struct NormStreamStoresPass
    : norm::impl::NormStreamStoresPassBase<NormStreamStoresPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops)
      (void)streamStores(rewriter, loop, minBytes);
  }
};
} // namespace
