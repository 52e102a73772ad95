//===- CallContract.h - a compiled function's call contract -----*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The C++ side of CallCheck.h: a contract that owns its tables, checked on
// shapes and pointers with norm_call_check, the result shapes it implies,
// its JSON form (kernel descriptions) and its C form (generated launchers).
// No MLIR dependency; deriveCallContract (CallContractAnalysis.h) builds one
// from a function.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_HARNESS_CALLCONTRACT_H
#define NORM_HARNESS_CALLCONTRACT_H

#include "norm/Harness/CallCheck.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace norm {

struct CallContract {
  int32_t numArguments = 0;
  /// The arguments, then the results.
  std::vector<norm_call_buffer> buffers;
  /// Every buffer's dims, in flat order.
  std::vector<norm_call_dim> dims;

  int32_t numResults() const {
    return static_cast<int32_t>(buffers.size()) - numArguments;
  }
  /// The C view (valid while this contract lives).
  norm_call_contract view() const;

  /// Checks one call: a shape per buffer (arguments, then results) and,
  /// unless empty, a pointer per buffer. The error says which buffer and
  /// dim breaks which rule.
  llvm::Error check(const std::vector<std::vector<int64_t>> &shapes,
                    const std::vector<const void *> &pointers = {}) const;
  /// The shapes of the results of a call with these argument shapes, which
  /// are checked first.
  llvm::Expected<std::vector<std::vector<int64_t>>>
  resultShapes(const std::vector<std::vector<int64_t>> &argShapes) const;
};

llvm::json::Value toJSON(const CallContract &contract);
bool fromJSON(const llvm::json::Value &value, CallContract &contract,
              llvm::json::Path path);

/// Writes the contract as C: `static const norm_call_contract NAME`, with
/// its tables named after it.
void writeCallContractC(llvm::raw_ostream &os, const CallContract &contract,
                        llvm::StringRef name);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_CALLCONTRACT_H
