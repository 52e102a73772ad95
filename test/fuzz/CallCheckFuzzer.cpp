//===- CallCheckFuzzer.cpp - libFuzzer target: the call-time validation ---===//
//
// Part of the norm-mlir project.
//
// Builds a random call contract and a random call from the input and checks
// norm_call_check (and CallContract's check and resultShapes) against a slow
// reference written here from the rules with 128-bit arithmetic: both must
// accept or reject alike, and an accepted call's result shapes must be
// accepted in turn. Any disagreement aborts.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/CallContract.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

using namespace mlir::norm;

namespace {
/// Reads the input as a stream of bytes, zeros past its end.
struct Bytes {
  const uint8_t *data;
  size_t size, at = 0;
  uint8_t next() { return at < size ? data[at++] : 0; }
  int64_t extent() {
    // Mostly small, sometimes at the edges of 64-bit sizes.
    static const int64_t edges[] = {0,
                                    -1,
                                    std::numeric_limits<int64_t>::min(),
                                    std::numeric_limits<int64_t>::max(),
                                    int64_t(1) << 31,
                                    int64_t(1) << 32,
                                    int64_t(1) << 61,
                                    (int64_t(1) << 62) + 1,
                                    3037000500,
                                    4294967296 + 1};
    uint8_t kind = next();
    if (kind < 200)
      return next() % 9;
    if (kind < 230)
      return edges[next() % (sizeof(edges) / sizeof(edges[0]))];
    int64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v = (v << 8) | next();
    return v;
  }
};

/// The rules of CallCheck.h, computed the slow way.
bool referenceAccepts(const CallContract &c, const std::vector<int64_t> &e,
                      const std::vector<const void *> &pointers) {
  size_t flat = 0;
  for (size_t b = 0; b < c.buffers.size(); ++b) {
    // The count saturates past int64 (later extents could overflow even
    // 128 bits), where the byte size overflows anyway.
    __int128 count = 1;
    bool empty = false, huge = false;
    for (int32_t d = 0; d < c.buffers[b].rank; ++d, ++flat) {
      const norm_call_dim &rule = c.dims[flat];
      int64_t x = e[flat];
      if (x < 0 || (rule.extent >= 0 && x != rule.extent) ||
          (rule.same_as >= 0 && x != e[rule.same_as]) ||
          (rule.multiple_of > 1 && x % rule.multiple_of != 0))
        return false;
      if (x == 0)
        empty = true;
      else if (!huge)
        count *= x;
      huge |= count > std::numeric_limits<int64_t>::max();
    }
    if (empty)
      continue;
    if (huge || count * c.buffers[b].element_bytes >
                    (__int128)std::numeric_limits<int64_t>::max())
      return false;
    if (!pointers.empty() && !pointers[b])
      return false;
  }
  return true;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Bytes in{data, size};
  CallContract contract;
  int numBuffers = 1 + in.next() % 6;
  contract.numArguments = 1 + in.next() % numBuffers;
  static const int32_t elementBytes[] = {1, 2, 4, 8};
  for (int b = 0; b < numBuffers; ++b)
    contract.buffers.push_back({in.next() % 5, elementBytes[in.next() % 4]});
  for (const norm_call_buffer &b : contract.buffers)
    for (int32_t d = 0; d < b.rank; ++d) {
      norm_call_dim dim{-1, -1, 1};
      uint8_t kind = in.next();
      int32_t flat = contract.dims.size();
      if (kind % 4 == 1)
        dim.extent = in.next() % 9;
      else if (kind % 4 == 2 && flat > 0)
        dim.same_as = in.next() % flat;
      else if (kind % 4 == 3)
        dim.multiple_of = in.next() % 5;
      contract.dims.push_back(dim);
    }
  std::vector<int64_t> extents;
  for (size_t i = 0; i < contract.dims.size(); ++i)
    extents.push_back(in.extent());
  static char buffer[64];
  std::vector<const void *> pointers;
  for (int b = 0; b < numBuffers; ++b)
    pointers.push_back(in.next() == 255 ? nullptr : buffer);

  bool expected = referenceAccepts(contract, extents, pointers);
  norm_call_contract view = contract.view();
  char message[256];
  int status = norm_call_check(&view, extents.data(),
                               const_cast<void *const *>(pointers.data()),
                               message, sizeof(message));
  if ((status == NORM_CALL_OK) != expected || strnlen(message, 256) == 256 ||
      (status != NORM_CALL_OK && !message[0]))
    std::abort();

  std::vector<std::vector<int64_t>> shapes;
  size_t flat = 0;
  for (const norm_call_buffer &b : contract.buffers) {
    shapes.emplace_back(extents.begin() + flat,
                        extents.begin() + flat + b.rank);
    flat += b.rank;
  }
  llvm::Error error = contract.check(shapes, pointers);
  if (static_cast<bool>(error) == expected)
    std::abort();
  llvm::consumeError(std::move(error));

  // Result shapes: derived from accepted arguments, then accepted as a call.
  std::vector<std::vector<int64_t>> args(
      shapes.begin(), shapes.begin() + contract.numArguments);
  llvm::Expected<std::vector<std::vector<int64_t>>> results =
      contract.resultShapes(args);
  if (!results) {
    llvm::consumeError(results.takeError());
    return 0;
  }
  std::vector<std::vector<int64_t>> all = args;
  all.insert(all.end(), results->begin(), results->end());
  std::vector<int64_t> allExtents;
  for (const auto &s : all)
    allExtents.insert(allExtents.end(), s.begin(), s.end());
  std::vector<const void *> none;
  // An unsatisfiable result rule (a static extent that disagrees with its
  // tie, which deriveCallContract never writes) may still reject.
  if (referenceAccepts(contract, allExtents, none)) {
    llvm::Error again = contract.check(all);
    if (again)
      std::abort();
  }
  return 0;
}
