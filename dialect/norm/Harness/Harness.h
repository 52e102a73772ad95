//===- Harness.h - norm-runner: run, check and time kernels -----*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The logic of norm-runner (DESIGN.md §5): running an entry function on
// .npy files, checking it against the fp64 reference on random and
// adversarial inputs with property checks, and timing it. No MLIR
// dependency (analyzeEntry, in EntryAnalysis.h, reads the MLIR function):
// the GPU bundle links it without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_HARNESS_HARNESS_H
#define NORM_HARNESS_HARNESS_H

#include "norm/Harness/InputGen.h"
#include "norm/Harness/KernelInterface.h"
#include "norm/Harness/Reference.h"

#include "llvm/Support/JSON.h"
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
  /// The role of each argument (the first, when it has several).
  std::vector<OperandRole> argRoles;
  /// The further roles of arguments that feed several operands (one
  /// argument as both scale and bias, or both cosine sides): role and
  /// argument.
  std::vector<std::pair<OperandRole, unsigned>> sharedRoles;
  /// For each function result, the index of the op result it returns.
  std::vector<unsigned> resultIndex;
  /// The dtypes of every op result, in op order.
  std::vector<DType> opResultDTypes;
};

/// A shape as AxBxC.
std::string formatShape(const std::vector<int64_t> &shape);

/// Why --check or --bench cannot run on an input (x) of `shape`: it does
/// not fit the input's type (rank, static extents, whole groups), or a
/// call's arrays would overflow 64-bit sizes or need more memory than the
/// machine has. Such a shape is a usage error.
llvm::Error checkInputShape(const KernelInterface &kernel,
                            const EntryAnalysis &analysis,
                            const std::vector<int64_t> &shape);

struct CheckOptions {
  uint64_t seed = 1;
  /// Shapes of the input (x) to check; empty: derived from the signature.
  std::vector<std::vector<int64_t>> shapes;
  /// Where to write the JSON report; empty for none.
  std::string jsonPath;
};

/// Runs --check; prints the table to `os`. Returns the exit status: 0 when
/// everything passed, 1 otherwise.
int runCheck(KernelInterface &kernel, const EntryAnalysis &analysis,
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

/// The operands of one timed call: the check's random case on an input of
/// `shape` (cosine: both sides), in argument order, and zero-filled results.
/// `args` points into `test` and `w`: fill a BenchCall in place.
struct BenchCall {
  TestCase test;
  std::optional<HostArray> w;
  std::vector<const HostArray *> args;
  std::vector<HostArray> results;
  /// The byte model: every argument read once, every result written once.
  size_t bytes = 0;
};
llvm::Error prepareBenchCall(const KernelInterface &kernel,
                             const EntryAnalysis &analysis,
                             const std::vector<int64_t> &shape, uint64_t seed,
                             BenchCall &call);

/// Runs --bench: per shape, the median time per call, GB/s with the byte
/// model (every argument read once, every result written once), and a copy
/// of the same byte count with the same number of threads, measured in the
/// same process, as the roofline. Returns the exit status.
int runBench(KernelInterface &kernel, const EntryAnalysis &analysis,
             const BenchOptions &options, llvm::raw_ostream &os);

/// Runs --input/--output: reads the arguments, calls the kernel once,
/// writes the results. Errors say which file and why.
llvm::Error runFiles(KernelInterface &kernel,
                     const std::optional<EntryAnalysis> &analysis,
                     const std::vector<std::string> &inputs,
                     const std::vector<std::string> &outputs);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_HARNESS_H
