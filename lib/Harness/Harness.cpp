//===- Harness.cpp - norm-runner: run, check and time kernels -------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/Harness.h"

#include "norm/Harness/InputGen.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <atomic>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

using namespace mlir;
using namespace mlir::norm;

KernelInterface::~KernelInterface() = default;

llvm::Error
mlir::norm::checkHostCall(const KernelInterface &kernel,
                          const std::vector<const HostArray *> &args,
                          const std::vector<HostArray *> &results) {
  const auto &argSigs = kernel.arguments();
  const auto &resultSigs = kernel.results();
  if (args.size() != argSigs.size() || results.size() != resultSigs.size())
    return llvm::createStringError(
        "expected " + llvm::Twine(argSigs.size()) + " arguments and " +
        llvm::Twine(resultSigs.size()) + " results, got " +
        llvm::Twine(args.size()) + " and " + llvm::Twine(results.size()));
  std::vector<std::vector<int64_t>> shapes;
  std::vector<const void *> pointers;
  auto add = [&](const HostArray &array, const TensorSignature &sig,
                 const llvm::Twine &what) -> llvm::Error {
    if (array.dtype != sig.dtype)
      return llvm::createStringError(what + " has dtype " +
                                     dtypeName(array.dtype) + ", expected " +
                                     dtypeName(sig.dtype));
    shapes.push_back(array.shape);
    pointers.push_back(array.data());
    return llvm::Error::success();
  };
  for (auto [i, arg] : llvm::enumerate(args))
    if (llvm::Error e = add(*arg, argSigs[i], "argument #" + llvm::Twine(i)))
      return e;
  for (auto [i, result] : llvm::enumerate(results))
    if (llvm::Error e =
            add(*result, resultSigs[i], "result #" + llvm::Twine(i)))
      return e;
  return kernel.callContract().check(shapes, pointers);
}

std::string mlir::norm::formatShape(const std::vector<int64_t> &shape) {
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s;
}

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(message.str());
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

static int64_t argIndexOf(const EntryAnalysis &analysis, OperandRole role) {
  for (auto [i, r] : llvm::enumerate(analysis.argRoles))
    if (r == role)
      return i;
  for (auto [r, arg] : analysis.sharedRoles)
    if (r == role)
      return arg;
  return -1;
}

llvm::Error mlir::norm::checkInputShape(const KernelInterface &kernel,
                                        const EntryAnalysis &analysis,
                                        const std::vector<int64_t> &shape) {
  int64_t xIndex = argIndexOf(analysis, analysis.isCosine ? OperandRole::CosineX
                                                          : OperandRole::Input);
  const TensorSignature &x = kernel.arguments()[xIndex];
  std::string what = "the input shape " + formatShape(shape);
  auto type = [&] {
    std::string dims;
    for (auto [d, size] : llvm::enumerate(x.shape))
      dims += (d ? "x" : "") +
              (isDynamicDim(size) ? std::string("?") : std::to_string(size));
    return " (argument #" + std::to_string(xIndex) + " is " +
           dtypeName(x.dtype) + " " + dims + ")";
  };
  if (shape.size() != x.shape.size())
    return error(what + " has rank " + llvm::Twine(shape.size()) +
                 ", the input rank " + llvm::Twine(x.shape.size()) + type());
  for (auto [d, size] : llvm::enumerate(shape))
    if (!isDynamicDim(x.shape[d]) && x.shape[d] != size)
      return error(what + " has extent " + llvm::Twine(size) + " in dim " +
                   llvm::Twine(d) + ", the input type " +
                   llvm::Twine(x.shape[d]) + type());
  const NormSpec &spec = analysis.spec;
  if (!analysis.isCosine && spec.groups > 0 &&
      shape[spec.groupDim] % spec.groups != 0)
    return error(what + " does not split dim " + llvm::Twine(spec.groupDim) +
                 " into " + llvm::Twine(spec.groups) + " groups");
  // What a call holds per input element: the input and output, and the
  // reference's doubles (value, tolerance, exact value).
  int64_t perElement = dtypeSize(x.dtype) + 8 + 3 * 8;
  std::optional<int64_t> bytes = checkedByteSize(shape, perElement);
  if (!bytes)
    return error(what + " is too large: its byte size overflows 64 bits");
  uint64_t memory = physicalMemory();
  if (memory && uint64_t(*bytes) > memory)
    return error(what + " needs about " + formatBytes(double(*bytes)) +
                 ", more than this machine's " + formatBytes(double(memory)));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// --input / --output
//===----------------------------------------------------------------------===//

llvm::Error mlir::norm::runFiles(KernelInterface &kernel,
                                 const std::optional<EntryAnalysis> &analysis,
                                 const std::vector<std::string> &inputs,
                                 const std::vector<std::string> &outputs) {
  const auto &argSigs = kernel.arguments();
  const auto &resultSigs = kernel.results();
  if (inputs.size() != argSigs.size())
    return error("the entry takes " + llvm::Twine(argSigs.size()) +
                 " arguments, got " + llvm::Twine(inputs.size()) +
                 " --input files");
  if (outputs.size() != resultSigs.size())
    return error("the entry returns " + llvm::Twine(resultSigs.size()) +
                 " results, got " + llvm::Twine(outputs.size()) +
                 " --output files");
  std::vector<HostArray> args;
  std::vector<std::vector<int64_t>> argShapes;
  for (auto [i, path] : llvm::enumerate(inputs)) {
    llvm::Expected<HostArray> array =
        readNpy(path, /*bf16FromU2=*/argSigs[i].dtype == DType::BF16);
    if (!array)
      return array.takeError();
    const TensorSignature &sig = argSigs[i];
    if (array->dtype != sig.dtype)
      return error(path + ": holds " + dtypeName(array->dtype) +
                   ", argument #" + llvm::Twine(i) + " is " +
                   dtypeName(sig.dtype) +
                   (sig.dtype == DType::BF16 ? " (as uint16 bits)" : ""));
    if (array->shape.size() != sig.shape.size())
      return error(path + ": has rank " + llvm::Twine(array->shape.size()) +
                   ", argument #" + llvm::Twine(i) + " has rank " +
                   llvm::Twine(sig.shape.size()));
    for (size_t d = 0; d < sig.shape.size(); ++d)
      if (!isDynamicDim(sig.shape[d]) && sig.shape[d] != array->shape[d])
        return error(path + ": has extent " + llvm::Twine(array->shape[d]) +
                     " in dim " + llvm::Twine(d) + ", argument #" +
                     llvm::Twine(i) + " needs " + llvm::Twine(sig.shape[d]));
    argShapes.push_back(array->shape);
    args.push_back(std::move(*array));
  }
  // The extents the arguments share must agree, or the kernel would read
  // out of bounds; the results' extents follow from the arguments'.
  llvm::Expected<std::vector<std::vector<int64_t>>> resultShapes =
      kernel.callContract().resultShapes(argShapes);
  if (!resultShapes) {
    std::string files;
    for (auto [i, path] : llvm::enumerate(inputs))
      files += (i ? ", #" : "#") + std::to_string(i) + " " + path;
    return error("the --input files do not fit the function: " +
                 llvm::toString(resultShapes.takeError()) + " (arguments " +
                 files + ")");
  }
  std::vector<HostArray> results;
  for (auto [i, sig] : llvm::enumerate(resultSigs)) {
    llvm::Expected<HostArray> result =
        HostArray::allocate(sig.dtype, (*resultShapes)[i]);
    if (!result)
      return result.takeError();
    results.push_back(std::move(*result));
  }

  std::vector<const HostArray *> argPtrs;
  for (HostArray &a : args)
    argPtrs.push_back(&a);
  std::vector<HostArray *> resultPtrs;
  for (HostArray &r : results)
    resultPtrs.push_back(&r);
  if (llvm::Error e = kernel.call(argPtrs, resultPtrs))
    return e;
  for (auto [i, path] : llvm::enumerate(outputs))
    if (llvm::Error e = writeNpy(path, results[i]))
      return e;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// --check
//===----------------------------------------------------------------------===//

namespace {

/// One line of the report.
struct Row {
  std::string shape, caseName, output, status, note;
  double maxRatio = 0;
  int64_t nanInfMismatches = 0;
  double rmseRatio = 0;
};

/// Where the operand of an optional role lives in NormInputs and in
/// OperandDTypes; nothing for the input and the cosine operands.
struct OptionalOperand {
  std::optional<HostArray> NormInputs::*array;
  DType OperandDTypes::*dtype;
};
std::optional<OptionalOperand> optionalOperand(OperandRole role) {
  switch (role) {
  case OperandRole::Scale:
    return OptionalOperand{&NormInputs::scale, &OperandDTypes::scale};
  case OperandRole::Bias:
    return OptionalOperand{&NormInputs::bias, &OperandDTypes::bias};
  case OperandRole::Mean:
    return OptionalOperand{&NormInputs::mean, &OperandDTypes::mean};
  case OperandRole::Variance:
    return OptionalOperand{&NormInputs::variance, &OperandDTypes::variance};
  case OperandRole::RunningMean:
    return OptionalOperand{&NormInputs::runningMean,
                           &OperandDTypes::runningMean};
  case OperandRole::RunningVar:
    return OptionalOperand{&NormInputs::runningVar, &OperandDTypes::runningVar};
  case OperandRole::Input:
  case OperandRole::CosineX:
  case OperandRole::CosineW:
    return std::nullopt;
  }
  llvm_unreachable("unknown operand role");
}

/// The arguments of one call, in function order.
std::vector<const HostArray *> arrangeArguments(const EntryAnalysis &analysis,
                                                const NormInputs &inputs,
                                                const HostArray *w) {
  std::vector<const HostArray *> args;
  for (OperandRole role : analysis.argRoles) {
    if (std::optional<OptionalOperand> slot = optionalOperand(role))
      args.push_back(&*(inputs.*(slot->array)));
    else
      args.push_back(role == OperandRole::CosineW ? w : &inputs.x);
  }
  return args;
}

OperandDTypes operandDTypes(const EntryAnalysis &analysis,
                            const KernelInterface &kernel) {
  OperandDTypes dtypes;
  for (auto [i, role] : llvm::enumerate(analysis.argRoles))
    if (std::optional<OptionalOperand> slot = optionalOperand(role))
      dtypes.*(slot->dtype) = kernel.arguments()[i].dtype;
  for (auto [role, arg] : analysis.sharedRoles)
    if (std::optional<OptionalOperand> slot = optionalOperand(role))
      dtypes.*(slot->dtype) = kernel.arguments()[arg].dtype;
  return dtypes;
}

/// The array of operand `role` in `inputs` (the input for Input and
/// CosineX, `w` for CosineW).
HostArray *operandArray(NormInputs &inputs, OperandRole role, HostArray *w) {
  if (std::optional<OptionalOperand> slot = optionalOperand(role))
    return &*(inputs.*(slot->array));
  return role == OperandRole::CosineW ? w : &inputs.x;
}

/// One argument feeding several operands holds one array: the operands of
/// its further roles get a copy of its first role's.
void shareArguments(const EntryAnalysis &analysis, NormInputs &inputs,
                    HostArray *w) {
  for (auto [role, arg] : analysis.sharedRoles) {
    OperandRole first = analysis.argRoles[arg];
    std::optional<OptionalOperand> slot = optionalOperand(role);
    if (slot)
      inputs.*(slot->array) = *operandArray(inputs, first, w);
    else if (role == OperandRole::CosineW && w)
      *w = *operandArray(inputs, first, w);
  }
}

bool sharesInput(const EntryAnalysis &analysis) {
  return llvm::any_of(analysis.sharedRoles, [&](const auto &shared) {
    OperandRole first = analysis.argRoles[shared.second];
    return first == OperandRole::Input || first == OperandRole::CosineX;
  });
}

/// Zero-filled result arrays for a call on `args`, of the shapes the call
/// contract gives.
llvm::Expected<std::vector<HostArray>>
allocateResults(const KernelInterface &kernel,
                const std::vector<const HostArray *> &args) {
  std::vector<std::vector<int64_t>> argShapes;
  for (const HostArray *a : args)
    argShapes.push_back(a->shape);
  llvm::Expected<std::vector<std::vector<int64_t>>> shapes =
      kernel.callContract().resultShapes(argShapes);
  if (!shapes)
    return shapes.takeError();
  std::vector<HostArray> results;
  for (auto [i, sig] : llvm::enumerate(kernel.results())) {
    llvm::Expected<HostArray> result =
        HostArray::allocate(sig.dtype, (*shapes)[i]);
    if (!result)
      return result.takeError();
    results.push_back(std::move(*result));
  }
  return results;
}

/// Sizes for the dynamic dims of the input, one shape per line of the
/// sweep: a base shape, then each dynamic dim varied through small, odd and
/// large extents (tails), and a long reduction of 2^22 elements.
std::vector<std::vector<int64_t>> defaultShapes(const NormSpec &spec,
                                                const TensorSignature &x) {
  auto isReduced = [&](size_t d) {
    return llvm::is_contained(spec.axes, static_cast<int64_t>(d));
  };
  auto fit = [&](size_t d, int64_t size) {
    // The group dim must hold a whole number of groups.
    if (spec.groups && static_cast<int64_t>(d) == spec.groupDim)
      return spec.groups * std::max<int64_t>(1, size / spec.groups);
    return size;
  };
  // The innermost dynamic reduced dim gets an odd, vector-unfriendly 301;
  // other dynamic dims stay small so that shapes stay cheap to check.
  int64_t innermostReduced = -1;
  for (size_t d = 0; d < x.shape.size(); ++d)
    if (isDynamicDim(x.shape[d]) && isReduced(d))
      innermostReduced = d;
  std::vector<int64_t> base;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    int64_t size = !isReduced(d)                                 ? 7
                   : static_cast<int64_t>(d) == innermostReduced ? 301
                                                                 : 5;
    base.push_back(isDynamicDim(x.shape[d]) ? fit(d, size) : x.shape[d]);
  }
  auto numElements = [](const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t v : s)
      n *= v;
    return n;
  };
  std::vector<std::vector<int64_t>> shapes = {base};
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (!isDynamicDim(x.shape[d]))
      continue;
    std::vector<int64_t> sizes =
        isReduced(d) ? std::vector<int64_t>{1, 2, 33, 1025, 4097}
                     : std::vector<int64_t>{1, 2, 23};
    for (int64_t size : sizes) {
      std::vector<int64_t> s = base;
      s[d] = fit(d, size);
      if (numElements(s) <= (int64_t(1) << 20) &&
          std::find(shapes.begin(), shapes.end(), s) == shapes.end())
        shapes.push_back(s);
    }
  }
  // One long reduction: a dynamic reduced dim stretched so that a slice
  // holds 2^22 elements, the other dynamic dims at 1.
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (!isDynamicDim(x.shape[d]) || !isReduced(d) ||
        (spec.groups && static_cast<int64_t>(d) == spec.groupDim))
      continue;
    int64_t others = 1;
    std::vector<int64_t> s = base;
    for (size_t e = 0; e < s.size(); ++e)
      if (e != d && isDynamicDim(x.shape[e]))
        s[e] = fit(e, 1);
    for (size_t e = 0; e < s.size(); ++e)
      if (e != d && isReduced(e))
        others *= s[e];
    int64_t length = std::max<int64_t>(1, (int64_t(1) << 22) / others);
    s[d] = length;
    int64_t total = 1;
    for (int64_t v : s)
      total *= v;
    if (total <= (int64_t(1) << 23))
      shapes.push_back(s);
    break;
  }
  return shapes;
}

HostArray sliceDim0(const HostArray &array, int64_t count) {
  std::vector<int64_t> shape = array.shape;
  shape[0] = count;
  HostArray slice(array.dtype, shape);
  // (memcpy takes no null pointer, even for 0 bytes.)
  if (!slice.bytes.empty())
    std::memcpy(slice.data(), array.data(), slice.bytes.size());
  return slice;
}

class Checker {
public:
  Checker(KernelInterface &kernel, const EntryAnalysis &analysis,
          const CheckOptions &options, llvm::raw_ostream &os)
      : kernel(kernel), analysis(analysis), options(options), os(os) {}

  int run();

private:
  /// Runs the kernel; results in function-result order.
  llvm::Expected<std::vector<HostArray>> call(const NormInputs &inputs,
                                              const HostArray *w);
  void checkCase(const std::vector<int64_t> &shape, const TestCase &test,
                 const HostArray *w, bool properties);
  void checkCosine(const std::vector<int64_t> &xShape);
  void addRow(Row row) {
    if (row.status == "FAIL")
      ++failures;
    rows.push_back(std::move(row));
  }
  void print();
  void writeJson();

  KernelInterface &kernel;
  const EntryAnalysis &analysis;
  const CheckOptions &options;
  llvm::raw_ostream &os;
  std::vector<Row> rows;
  int failures = 0;
  double microsPerCall = -1;
  std::string timedShape;
  /// max |y − y_fp64| over the finite outputs of the random cases.
  double maxAbsError = 0;
};

llvm::Expected<std::vector<HostArray>> Checker::call(const NormInputs &inputs,
                                                     const HostArray *w) {
  std::vector<const HostArray *> args = arrangeArguments(analysis, inputs, w);
  llvm::Expected<std::vector<HostArray>> allocated =
      allocateResults(kernel, args);
  if (!allocated)
    return allocated.takeError();
  std::vector<HostArray> results = std::move(*allocated);
  // Poison the outputs so that an element the kernel never writes shows.
  for (HostArray &r : results)
    if (!r.bytes.empty())
      std::memset(r.data(), 0xFF, r.bytes.size());
  std::vector<HostArray *> ptrs;
  for (HostArray &r : results)
    ptrs.push_back(&r);
  if (llvm::Error e = kernel.call(args, ptrs))
    return std::move(e);
  return results;
}

void Checker::checkCase(const std::vector<int64_t> &shape,
                        const TestCase &original, const HostArray *w,
                        bool properties) {
  TestCase shared;
  if (!analysis.sharedRoles.empty()) {
    shared = original;
    shareArguments(analysis, shared.inputs, nullptr);
  }
  const TestCase &test = analysis.sharedRoles.empty() ? original : shared;
  std::string shapeStr = formatShape(shape);
  auto results = call(test.inputs, w);
  if (!results) {
    addRow({shapeStr, test.name, "-", "FAIL",
            llvm::toString(results.takeError())});
    return;
  }
  std::vector<RefOutput> refs =
      computeReference(analysis.spec, test.inputs, analysis.opResultDTypes);
  const RefOutput *yRef = nullptr;
  for (auto [i, index] : llvm::enumerate(analysis.resultIndex)) {
    const RefOutput &ref = refs[index];
    if (index == 0)
      yRef = &ref;
    Comparison c = compareOutput(ref, (*results)[i]);
    // The absolute error on well-conditioned data (offset cases are
    // judged relative to their conditioning by err/tol).
    if (index == 0 && test.name == "random")
      for (int64_t e = 0, n = ref.ref.size(); e < n; ++e) {
        double diff = std::fabs((*results)[i].get(e) - ref.exact[e]);
        if (std::isfinite(diff))
          maxAbsError = std::max(maxAbsError, diff);
      }
    Row row{shapeStr, test.name, ref.name, c.pass ? "pass" : "FAIL", ""};
    row.maxRatio = c.maxRatio;
    row.nanInfMismatches = c.nanInfMismatches;
    row.rmseRatio = c.rmseBase > 0 ? c.rmseGot / c.rmseBase : 0;
    if (!c.pass && c.worstIndex >= 0)
      row.note = "worst at " + std::to_string(c.worstIndex) + ": got " +
                 std::to_string(c.worstGot) + " ref " +
                 std::to_string(c.worstRef);
    if (c.pass && test.degenerate) {
      row.status = "degenerate";
    } else if (c.pass && index == 0 && c.zeroFraction > 0.3 &&
               !test.zerosExpected) {
      // A5: mostly-zero references prove little.
      row.status = "mistrusted";
      row.note = std::to_string(c.zeroFraction) + " of the reference is 0";
    }
    addRow(row);
  }
  if (!properties)
    return;

  // A3: bitwise determinism.
  {
    auto again = call(test.inputs, w);
    bool same = static_cast<bool>(again);
    if (same)
      for (size_t i = 0; i < results->size(); ++i)
        same &= (*again)[i].bytes == (*results)[i].bytes;
    else
      llvm::consumeError(again.takeError());
    addRow({shapeStr, test.name, "determinism", same ? "pass" : "FAIL",
            same ? "" : "two runs differ"});
  }

  if (analysis.isCosine)
    return;
  const NormSpec &spec = analysis.spec;

  // Data-scale invariance: y(4x) against y(x) when the statistics come from
  // x. Scaling by a power of two is exact through sums, the power-of-two
  // scaled squares and 1/sqrt, so with ε = 0 the kernel must give the same
  // bits. With ε > 0 the reference moves too: the bound is both tolerances
  // plus that move, so the row checks the accuracy at 4x as well.
  // (Not when the input also feeds another operand, which would scale too.)
  if (!spec.givenStats && yRef && !sharesInput(analysis)) {
    NormInputs scaled = test.inputs;
    bool finite = true;
    for (int64_t i = 0, e = scaled.x.numElements(); i < e; ++i) {
      double v = 4.0 * scaled.x.get(i);
      finite &= std::isfinite(v) || !std::isfinite(scaled.x.get(i));
      scaled.x.set(i, v);
    }
    if (finite) {
      auto scaledResults = call(scaled, w);
      std::vector<RefOutput> scaledRefs =
          computeReference(spec, scaled, analysis.opResultDTypes);
      double worst = 0;
      bool ok = static_cast<bool>(scaledResults);
      if (ok) {
        const HostArray &y0 = (*results)[0], &y1 = (*scaledResults)[0];
        for (int64_t i = 0, e = y0.numElements(); i < e; ++i) {
          double a = y0.get(i), b = y1.get(i);
          if (std::isnan(a) || std::isnan(b)) {
            ok &= std::isnan(a) == std::isnan(b);
            continue;
          }
          double tol = yRef->tol[i] + scaledRefs[0].tol[i] +
                       std::fabs(scaledRefs[0].ref[i] - yRef->ref[i]);
          double ratio =
              tol > 0 ? std::fabs(a - b) / tol : (a == b ? 0 : INFINITY);
          worst = std::max(worst, ratio);
        }
      } else {
        llvm::consumeError(scaledResults.takeError());
      }
      bool bitwise = spec.epsilon == 0;
      if (ok && bitwise)
        ok = (*scaledResults)[0].bytes == (*results)[0].bytes;
      ok &= worst <= 1;
      Row row{shapeStr, test.name,
              bitwise ? "scale-inv-bitwise" : "scale-invariance",
              ok ? "pass" : "FAIL",
              bitwise ? "y(4x) vs y(x), bitwise (eps = 0)" : "y(4x) vs y(x)"};
      row.maxRatio = worst;
      addRow(row);
    }
  }

  // A4: batch invariance over a dynamic, parallel dim 0.
  const TensorSignature &xSig =
      kernel.arguments()[argIndexOf(analysis, OperandRole::Input)];
  bool dim0Parallel =
      !llvm::is_contained(spec.axes, 0) && !(spec.groups && spec.groupDim == 0);
  if (isDynamicDim(xSig.shape[0]) && dim0Parallel && shape[0] > 1) {
    NormInputs first = test.inputs;
    first.x = sliceDim0(test.inputs.x, 1);
    // Operands indexed by dim 0 are sliced with it (scale and bias when
    // their first dim is the input's dim 0; a rank-0 scale is not).
    auto affineIndex =
        std::find(spec.affineDims.begin(), spec.affineDims.end(), 0);
    bool affineLeads = !spec.affineDims.empty() && spec.affineDims[0] == 0;
    if (affineLeads) {
      if (first.scale)
        first.scale = sliceDim0(*first.scale, 1);
      if (first.bias)
        first.bias = sliceDim0(*first.bias, 1);
    }
    for (std::optional<HostArray> *stat :
         {&first.mean, &first.variance, &first.runningMean, &first.runningVar})
      if (*stat && !(*stat)->shape.empty())
        **stat = sliceDim0(**stat, 1);
    bool ok = (affineIndex == spec.affineDims.end() || affineLeads) &&
              !sharesInput(analysis);
    if (ok) {
      auto sub = call(first, w);
      ok = static_cast<bool>(sub);
      if (ok) {
        for (size_t i = 0; i < sub->size(); ++i) {
          const HostArray &part = (*sub)[i];
          ok &= part.bytes.empty() ||
                std::memcmp(part.data(), (*results)[i].data(),
                            part.bytes.size()) == 0;
        }
      } else {
        llvm::consumeError(sub.takeError());
      }
      addRow({shapeStr, test.name, "batch-invariance", ok ? "pass" : "FAIL",
              "row 0 of the batch vs the batch of row 0, bitwise"});
    }
  }

  // Time per call on the first shape.
  if (microsPerCall < 0) {
    std::vector<double> times;
    auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    do {
      auto start = std::chrono::steady_clock::now();
      auto r = call(test.inputs, w);
      if (!r) {
        llvm::consumeError(r.takeError());
        break;
      }
      times.push_back(std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - start)
                          .count());
    } while (times.size() < 5 || (std::chrono::steady_clock::now() < deadline &&
                                  times.size() < 1000));
    if (!times.empty()) {
      std::sort(times.begin(), times.end());
      microsPerCall = times[times.size() / 2];
      timedShape = shapeStr;
    }
  }
}

/// Cosine normalization: the fp64 reference of x̂ · ŵᵀ with each norm
/// clamped by ε separately, and a bound covering the two normalizations and
/// the f32 dot product.
void Checker::checkCosine(const std::vector<int64_t> &xShape) {
  const TensorSignature &wSig =
      kernel.arguments()[argIndexOf(analysis, OperandRole::CosineW)];
  std::vector<int64_t> wShape = wSig.shape;
  if (isDynamicDim(wShape[0]))
    wShape[0] = 5;
  wShape[1] = xShape[1];
  // One argument for both sides: w is x.
  bool sameArgument = !analysis.sharedRoles.empty();
  if (sameArgument)
    wShape = xShape;
  NormSpec side = analysis.spec;
  side.outType = side.accType;
  TestCase xCase = makeRandomCase(side, xShape, OperandDTypes(), options.seed);
  TestCase wCase =
      makeRandomCase(side, wShape, OperandDTypes(), options.seed + 1);
  // Zero rows: the clamp must give 0, not NaN.
  for (int64_t k = 0; k < wShape[1]; ++k)
    wCase.inputs.x.set(k, 0.0);
  HostArray w = wCase.inputs.x;
  std::vector<std::pair<std::string, HostArray>> xs = {
      {"random", xCase.inputs.x}};
  HostArray xNan = xCase.inputs.x;
  if (xShape[0] > 1)
    xNan.set(xShape[1], NAN);
  xs.push_back({"nan_row", xNan});
  std::string shapeStr = formatShape(xShape) + "," + formatShape(wShape);
  for (auto &[name, x] : xs) {
    NormInputs inputs;
    inputs.x = x;
    if (sameArgument)
      w = x;
    auto results = call(inputs, &w);
    if (!results) {
      addRow(
          {shapeStr, name, "-", "FAIL", llvm::toString(results.takeError())});
      continue;
    }
    int64_t m = xShape[0], n = wShape[0], k = xShape[1];
    auto normalize = [&](const HostArray &a, int64_t rows) {
      std::vector<double> out(rows * k);
      for (int64_t r = 0; r < rows; ++r) {
        double ss = 0;
        for (int64_t j = 0; j < k; ++j)
          ss += a.get(r * k + j) * a.get(r * k + j);
        double norm = std::sqrt(ss);
        double inv = norm == 0 ? 0 : 1 / std::max(norm, side.epsilon);
        for (int64_t j = 0; j < k; ++j)
          out[r * k + j] = a.get(r * k + j) * inv;
      }
      return out;
    };
    std::vector<double> xh = normalize(x, m), wh = normalize(w, n);
    double kn = 2 * std::ceil(std::log2(std::max<int64_t>(k, 2))) + 16;
    double u = side.accType == DType::F64 ? 0x1p-53 : 0x1p-24;
    DType outType = analysis.spec.outType;
    double worst = 0;
    int64_t mismatches = 0;
    const HostArray &got = (*results)[0];
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double dot = 0, mag = 0;
        for (int64_t l = 0; l < k; ++l) {
          dot += xh[i * k + l] * wh[j * k + l];
          mag += std::fabs(xh[i * k + l] * wh[j * k + l]);
        }
        double ref = roundTo(outType, dot);
        double g = got.get(i * n + j);
        if (std::isnan(ref) || std::isnan(g)) {
          mismatches += std::isnan(ref) != std::isnan(g);
          continue;
        }
        double tol = (2 * kn + double(k)) * u * mag +
                     2 * dtypeEpsilon(outType) * std::fabs(ref) +
                     2 * dtypeMinSubnormal(outType);
        worst = std::max(worst, std::fabs(g - ref) / tol);
      }
    }
    bool ok = worst <= 1 && mismatches == 0;
    Row row{shapeStr, name, "cos", ok ? "pass" : "FAIL", ""};
    row.maxRatio = worst;
    row.nanInfMismatches = mismatches;
    addRow(row);
    if (name == "random") {
      auto again = call(inputs, &w);
      bool same = again && (*again)[0].bytes == got.bytes;
      if (!again)
        llvm::consumeError(again.takeError());
      addRow({shapeStr, name, "determinism", same ? "pass" : "FAIL", ""});
    }
  }
}

int Checker::run() {
  const NormSpec &spec = analysis.spec;
  int64_t xIndex = argIndexOf(analysis, analysis.isCosine ? OperandRole::CosineX
                                                          : OperandRole::Input);
  const TensorSignature &xSig = kernel.arguments()[xIndex];
  std::vector<std::vector<int64_t>> shapes = options.shapes;
  if (shapes.empty())
    shapes = defaultShapes(spec, xSig);
  for (const auto &shape : shapes)
    if (llvm::Error e = checkInputShape(kernel, analysis, shape)) {
      llvm::errs() << "norm-runner: error: --check: "
                   << llvm::toString(std::move(e)) << "\n";
      return 2;
    }
  for (const auto &shape : shapes) {
    if (analysis.isCosine) {
      checkCosine(shape);
      continue;
    }
    OperandDTypes dtypes = operandDTypes(analysis, kernel);
    uint64_t seed = options.seed;
    TestCase random = makeRandomCase(spec, shape, dtypes, seed);
    checkCase(shape, random, nullptr, /*properties=*/true);
    int64_t elements = random.inputs.x.numElements();
    for (const TestCase &test :
         makeAdversarialCases(spec, shape, dtypes, seed)) {
      // Long rows get the offset cases only: the rest repeat short shapes.
      if (elements > (int64_t(1) << 20) &&
          test.name.find("offset") == std::string::npos)
        continue;
      checkCase(shape, test, nullptr, /*properties=*/false);
    }
  }
  print();
  if (!options.jsonPath.empty())
    writeJson();
  return failures ? 1 : 0;
}

void Checker::print() {
  os << llvm::format("%-16s %-22s %-17s %11s %8s %9s  %s\n", "shape", "case",
                     "output", "err/tol", "nan/inf", "rmse/base", "status");
  for (const Row &r : rows) {
    os << llvm::format("%-16s %-22s %-17s %11.3g %8lld %9.3g  %s",
                       r.shape.c_str(), r.caseName.c_str(), r.output.c_str(),
                       r.maxRatio, static_cast<long long>(r.nanInfMismatches),
                       r.rmseRatio, r.status.c_str());
    if (!r.note.empty() && r.status != "pass")
      os << "  (" << r.note << ")";
    os << "\n";
  }
  double worst = 0;
  for (const Row &r : rows)
    if (r.status == "pass" && r.output != "determinism" &&
        r.output != "batch-invariance")
      worst = std::max(worst, r.maxRatio);
  os << "compile: " << llvm::format("%.1f", kernel.compileSeconds() * 1e3)
     << " ms\n";
  if (microsPerCall >= 0)
    os << "time per call: " << llvm::format("%.2f", microsPerCall) << " us ("
       << timedShape << ")\n";
  os << "max err/tol over passing checks: " << llvm::format("%.3g", worst)
     << "\n";
  if (!analysis.isCosine)
    os << "max |y - y_fp64| on random inputs: "
       << llvm::format("%.3g", maxAbsError) << "\n";
  os << "check: " << (rows.size() - failures) << " passed, " << failures
     << " failed\n";
}

void Checker::writeJson() {
  llvm::json::Array array;
  for (const Row &r : rows)
    array.push_back(
        llvm::json::Object{{"shape", r.shape},
                           {"case", r.caseName},
                           {"output", r.output},
                           {"max_err_over_tol", r.maxRatio},
                           {"nan_inf_mismatches", r.nanInfMismatches},
                           {"rmse_over_baseline", r.rmseRatio},
                           {"status", r.status},
                           {"note", r.note}});
  llvm::json::Object report{{"checks", std::move(array)},
                            {"failures", failures},
                            {"compile_ms", kernel.compileSeconds() * 1e3},
                            {"us_per_call", microsPerCall}};
  std::error_code ec;
  llvm::raw_fd_ostream file(options.jsonPath, ec);
  if (ec) {
    os << "norm-runner: error: cannot write " << options.jsonPath << ": "
       << ec.message() << "\n";
    ++failures;
    return;
  }
  file << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
}

} // namespace

int mlir::norm::runCheck(KernelInterface &kernel, const EntryAnalysis &analysis,
                         const CheckOptions &options, llvm::raw_ostream &os) {
  return Checker(kernel, analysis, options, os).run();
}

//===----------------------------------------------------------------------===//
// --bench
//===----------------------------------------------------------------------===//

namespace {
using Clock = std::chrono::steady_clock;

/// Median seconds of `body` over repetitions after a warm-up, measured for
/// at least `minSeconds` and 5 repetitions.
template <typename Fn>
double medianSeconds(Fn body, double minSeconds) {
  for (int i = 0; i < 3; ++i)
    body();
  std::vector<double> times;
  Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(minSeconds));
  while (times.size() < 5 ||
         (Clock::now() < deadline && times.size() < 100000)) {
    Clock::time_point start = Clock::now();
    body();
    times.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Copies with 16-byte non-temporal stores (SSE2, so any x86-64), then a
/// store fence; memcpy elsewhere and for the unaligned edges.
void streamCopy(char *dst, const char *src, size_t bytes) {
#if defined(__x86_64__)
  size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
  head = std::min(head, bytes);
  std::memcpy(dst, src, head);
  size_t body = (bytes - head) / 16 * 16;
  for (size_t i = head; i < head + body; i += 16)
    _mm_stream_si128(
        reinterpret_cast<__m128i *>(dst + i),
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
  _mm_sfence();
  std::memcpy(dst + head + body, src + head + body, bytes - head - body);
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// Copies with `threads` threads, each its own contiguous part. The threads
/// live as long as the object and spin between copies (as OpenMP's do
/// between parallel regions), so a call costs no thread start-up.
class ParallelCopier {
public:
  explicit ParallelCopier(int threads) {
    for (int t = 1; t < threads; ++t)
      workers.emplace_back([this, t, threads] { work(t, threads); });
    numThreads = std::max(threads, 1);
  }
  ~ParallelCopier() {
    stop.store(true);
    for (std::thread &w : workers)
      w.join();
  }

  /// With `streaming`, each part is copied with non-temporal stores (no
  /// read-for-ownership of the destination), else with memcpy.
  void copy(char *dst, const char *src, size_t bytes, bool streaming) {
    this->streaming = streaming;
    job = {dst, src, bytes};
    done.store(0);
    generation.fetch_add(1);
    part(0);
    while (done.load() != static_cast<int>(workers.size()))
      ;
  }

private:
  struct Job {
    char *dst;
    const char *src;
    size_t bytes;
  };
  void part(int t) {
    size_t chunk = (job.bytes + numThreads - 1) / numThreads;
    size_t begin = std::min(job.bytes, t * chunk);
    size_t end = std::min(job.bytes, begin + chunk);
    if (streaming)
      streamCopy(job.dst + begin, job.src + begin, end - begin);
    else
      std::memcpy(job.dst + begin, job.src + begin, end - begin);
  }
  void work(int t, int threads) {
    uint64_t seen = 0;
    while (!stop.load()) {
      uint64_t now = generation.load();
      if (now == seen)
        continue;
      seen = now;
      part(t);
      done.fetch_add(1);
    }
  }

  std::vector<std::thread> workers;
  int numThreads = 1;
  bool streaming = false;
  Job job{};
  std::atomic<uint64_t> generation{0};
  std::atomic<int> done{0};
  std::atomic<bool> stop{false};
};
} // namespace

llvm::Error mlir::norm::prepareBenchCall(const KernelInterface &kernel,
                                         const EntryAnalysis &analysis,
                                         const std::vector<int64_t> &shape,
                                         uint64_t seed, BenchCall &call) {
  // Inputs: the random case of the check (cosine: both sides random).
  if (analysis.isCosine) {
    NormSpec side = analysis.spec;
    side.outType = side.accType;
    call.test = makeRandomCase(side, shape, OperandDTypes(), seed);
    const TensorSignature &wSig =
        kernel.arguments()[argIndexOf(analysis, OperandRole::CosineW)];
    std::vector<int64_t> wShape = {
        isDynamicDim(wSig.shape[0]) ? shape[0] : wSig.shape[0], shape[1]};
    call.w = makeRandomCase(side, wShape, OperandDTypes(), seed + 1).inputs.x;
  } else {
    call.test = makeRandomCase(analysis.spec, shape,
                               operandDTypes(analysis, kernel), seed);
  }
  shareArguments(analysis, call.test.inputs, call.w ? &*call.w : nullptr);
  call.args =
      arrangeArguments(analysis, call.test.inputs, call.w ? &*call.w : nullptr);
  llvm::Expected<std::vector<HostArray>> results =
      allocateResults(kernel, call.args);
  if (!results)
    return results.takeError();
  call.results = std::move(*results);
  call.bytes = 0;
  for (const HostArray *a : call.args)
    call.bytes += a->bytes.size();
  for (const HostArray &r : call.results)
    call.bytes += r.bytes.size();
  return llvm::Error::success();
}

int mlir::norm::runBench(KernelInterface &kernel, const EntryAnalysis &analysis,
                         const BenchOptions &options, llvm::raw_ostream &os) {
  int64_t xIndex = argIndexOf(analysis, analysis.isCosine ? OperandRole::CosineX
                                                          : OperandRole::Input);
  const TensorSignature &xSig = kernel.arguments()[xIndex];
  std::vector<std::vector<int64_t>> shapes = options.shapes;
  if (shapes.empty()) {
    std::vector<int64_t> shape;
    for (int64_t d : xSig.shape)
      shape.push_back(isDynamicDim(d) ? 1024 : d);
    shapes.push_back(shape);
  }
  os << llvm::format("%-20s %12s %12s %12s %10s %9s\n", "shape", "us/call",
                     "MB moved", "GB/s", "copy GB/s", "of copy");
  llvm::json::Array rows;
  int status = 0;
  for (const std::vector<int64_t> &shape : shapes)
    if (llvm::Error e = checkInputShape(kernel, analysis, shape)) {
      llvm::errs() << "norm-runner: error: --bench: "
                   << llvm::toString(std::move(e)) << "\n";
      return 2;
    }
  for (const std::vector<int64_t> &shape : shapes) {
    std::string shapeStr = formatShape(shape);
    BenchCall call;
    if (llvm::Error e =
            prepareBenchCall(kernel, analysis, shape, options.seed, call)) {
      llvm::errs() << "norm-runner: error: --bench: " << shapeStr << ": "
                   << llvm::toString(std::move(e)) << "\n";
      return 2;
    }
    std::vector<const HostArray *> &args = call.args;
    std::vector<HostArray *> resultPtrs;
    for (HostArray &r : call.results)
      resultPtrs.push_back(&r);
    size_t bytes = call.bytes;

    // The roofline first: a copy that reads and writes bytes/2 each, the
    // same traffic as the kernel's byte model, with the same threads. The
    // copy threads are gone before the kernel runs, and OpenMP's (which spin
    // for 200 ms after a parallel region) are given time to go to sleep
    // before the next copy.
    size_t half = std::max<size_t>(bytes / 2, 1);
    double copySeconds;
    {
      std::vector<char> src(half, 1), dst(half, 0);
      ParallelCopier copier(options.threads);
      // The faster of memcpy and a streaming copy: the kernels use streaming
      // stores for large outputs, so the roofline must be allowed them too.
      copySeconds = std::min(
          medianSeconds(
              [&] { copier.copy(dst.data(), src.data(), half, false); },
              options.minSeconds),
          medianSeconds(
              [&] { copier.copy(dst.data(), src.data(), half, true); },
              options.minSeconds));
    }

    bool failed = false;
    double kernelSeconds = medianSeconds(
        [&] {
          if (llvm::Error e = kernel.call(args, resultPtrs)) {
            llvm::consumeError(std::move(e));
            failed = true;
          }
        },
        options.minSeconds);
    if (failed) {
      os << shapeStr << ": the kernel call failed\n";
      status = 2;
      continue;
    }
    if (options.threads > 1)
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    double gbps = bytes / kernelSeconds / 1e9;
    double copyGbps = 2.0 * half / copySeconds / 1e9;
    os << llvm::format("%-20s %12.2f %12.3f %12.2f %10.2f %8.1f%%\n",
                       shapeStr.c_str(), kernelSeconds * 1e6, bytes / 1e6, gbps,
                       copyGbps, 100.0 * gbps / copyGbps);
    rows.push_back(llvm::json::Object{{"shape", shapeStr},
                                      {"us_per_call", kernelSeconds * 1e6},
                                      {"bytes", static_cast<int64_t>(bytes)},
                                      {"gb_per_s", gbps},
                                      {"copy_gb_per_s", copyGbps},
                                      {"fraction_of_copy", gbps / copyGbps},
                                      {"threads", options.threads}});
  }
  os << "compile: " << llvm::format("%.1f", kernel.compileSeconds() * 1e3)
     << " ms\n";
  if (!options.jsonPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream file(options.jsonPath, ec);
    if (ec) {
      os << "norm-runner: error: cannot write " << options.jsonPath << ": "
         << ec.message() << "\n";
      return 2;
    }
    file << llvm::formatv("{0:2}",
                          llvm::json::Value(llvm::json::Object{
                              {"bench", std::move(rows)},
                              {"compile_ms", kernel.compileSeconds() * 1e3}}))
         << "\n";
  }
  return status;
}
