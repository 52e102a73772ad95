//===- Harness.h - norm-runner: run, check and time kernels -----*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The logic of norm-runner (DESIGN.md §5): running an entry function on
// .npy files, checking it against the fp64 reference on random and
// adversarial inputs with property checks, and timing it.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_RUNTIME_HARNESS_H
#define NORM_RUNTIME_HARNESS_H

#include "norm/Runtime/Kernel.h"
#include "norm/Runtime/Reference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace norm {

/// What an operand of the normalization is.
enum class OperandRole {
  Input,
  Scale,
  Bias,
  Mean,
  Variance,
  RunningMean,
  RunningVar,
  CosineX,
  CosineW
};

/// How an entry function maps onto the semantics the reference knows:
/// either one norm.normalize, or a cosine normalization (two l2
/// normalizations over dim 1 and a matmul against the transposed second).
struct EntryAnalysis {
  bool isCosine = false;
  NormSpec spec; ///< the normalization (each side for cosine)
  std::vector<OperandRole> argRoles;
  /// For each function result, the index of the op result it returns.
  std::vector<unsigned> resultIndex;
  /// The dtypes of every op result, in op order.
  std::vector<DType> opResultDTypes;
};

/// Recognizes the entry function; fails with a message saying what the
/// harness cannot check.
llvm::Expected<EntryAnalysis> analyzeEntry(func::FuncOp func);

/// The shapes of every result for given argument shapes.
std::vector<std::vector<int64_t>>
inferResultShapes(const EntryAnalysis &analysis,
                  const std::vector<std::vector<int64_t>> &argShapes);

struct CheckOptions {
  uint64_t seed = 1;
  /// Shapes of the input (x) to check; empty: derived from the signature.
  std::vector<std::vector<int64_t>> shapes;
  /// Where to write the JSON report; empty for none.
  std::string jsonPath;
};

/// Runs --check; prints the table to `os`. Returns the exit status: 0 when
/// everything passed, 1 otherwise.
int runCheck(Kernel &kernel, const EntryAnalysis &analysis,
             const CheckOptions &options, llvm::raw_ostream &os);

struct BenchOptions {
  uint64_t seed = 1;
  /// Shapes of the input (x); empty: the signature's static shape, or 1024
  /// for each dynamic dim.
  std::vector<std::vector<int64_t>> shapes;
  /// Minimum measured time per shape (after warm-up), seconds.
  double minSeconds = 0.2;
  /// Threads of the copy roofline (the kernel's OpenMP threads).
  int threads = 1;
  std::string jsonPath;
};

/// Runs --bench: per shape, the median time per call, GB/s with the byte
/// model (every argument read once, every result written once), and a copy
/// of the same byte count with the same number of threads, measured in the
/// same process, as the roofline. Returns the exit status.
int runBench(Kernel &kernel, const EntryAnalysis &analysis,
             const BenchOptions &options, llvm::raw_ostream &os);

/// Runs --input/--output: reads the arguments, calls the kernel once,
/// writes the results. Errors say which file and why.
llvm::Error runFiles(Kernel &kernel,
                     const std::optional<EntryAnalysis> &analysis,
                     const std::vector<std::string> &inputs,
                     const std::vector<std::string> &outputs);

} // namespace norm
} // namespace mlir

#endif // NORM_RUNTIME_HARNESS_H
