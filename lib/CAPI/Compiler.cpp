//===- Compiler.cpp - C API of the norm compiler --------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm-c/Compiler.h"
#include "norm/Compiler/AheadOfTime.h"
#include "norm/JIT/Kernel.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

static norm::Kernel *unwrap(MlirNormKernel kernel) {
  return static_cast<norm::Kernel *>(kernel.ptr);
}

MlirLogicalResult mlirNormLowerToLLVM(MlirModule module, MlirStringRef target,
                                      bool openmp) {
  norm::AheadOfTimeOptions options;
  options.target = unwrap(target).str();
  options.openmp = openmp;
  return wrap(norm::lowerToLLVM(unwrap(module), options));
}

MlirLogicalResult mlirNormCompileAheadOfTime(MlirModule module,
                                             MlirStringRef outputBase,
                                             MlirStringRef target, bool openmp,
                                             bool cpuDispatch, bool libraries) {
  norm::AheadOfTimeOptions options;
  options.target = unwrap(target).str();
  options.openmp = openmp;
  options.cpuDispatch = cpuDispatch;
  options.libraries = libraries;
  return wrap(
      norm::compileAheadOfTime(unwrap(module), unwrap(outputBase), options));
}

/// Parses a spec; diagnostics go to the context.
static OwningOpRef<ModuleOp> parseSpec(MlirContext context,
                                       MlirStringRef spec) {
  // MLIR 22's lexer can read past the end of a buffer that is not
  // NUL-terminated (found by the spec fuzzer); a C string ref need not be.
  std::string text(spec.data, spec.length);
  return parseSourceString<ModuleOp>(text, unwrap(context));
}

MlirModule mlirNormSpecLowerToLLVM(MlirContext context, MlirStringRef spec,
                                   MlirStringRef target, bool openmp) {
  OwningOpRef<ModuleOp> module = parseSpec(context, spec);
  if (!module || mlirLogicalResultIsFailure(
                     mlirNormLowerToLLVM(wrap(*module), target, openmp)))
    return MlirModule{nullptr};
  return wrap(module.release());
}

MlirLogicalResult
mlirNormSpecCompileAheadOfTime(MlirContext context, MlirStringRef spec,
                               MlirStringRef outputBase, MlirStringRef target,
                               bool openmp, bool cpuDispatch, bool libraries) {
  OwningOpRef<ModuleOp> module = parseSpec(context, spec);
  if (!module)
    return mlirLogicalResultFailure();
  return mlirNormCompileAheadOfTime(wrap(*module), outputBase, target, openmp,
                                    cpuDispatch, libraries);
}

MlirNormKernel mlirNormKernelCreate(MlirModule module, MlirStringRef entry,
                                    MlirStringRef target, bool openmp) {
  ModuleOp op = unwrap(module);
  norm::KernelOptions options;
  options.pipeline.target = unwrap(target).str();
  options.pipeline.openmp = openmp;
  llvm::Expected<std::unique_ptr<norm::Kernel>> kernel =
      norm::Kernel::compile(op, unwrap(entry), options);
  if (!kernel) {
    emitError(op.getLoc()) << llvm::toString(kernel.takeError());
    return {nullptr};
  }
  return {kernel->release()};
}

void mlirNormKernelDestroy(MlirNormKernel kernel) { delete unwrap(kernel); }

intptr_t mlirNormKernelGetNumArguments(MlirNormKernel kernel) {
  return unwrap(kernel)->arguments().size();
}

intptr_t mlirNormKernelGetNumResults(MlirNormKernel kernel) {
  return unwrap(kernel)->results().size();
}

static const norm::TensorSignature *getSignature(MlirNormKernel kernel,
                                                 intptr_t pos) {
  const auto &arguments = unwrap(kernel)->arguments();
  const auto &results = unwrap(kernel)->results();
  if (pos < 0 ||
      pos >= static_cast<intptr_t>(arguments.size() + results.size()))
    return nullptr;
  if (pos < static_cast<intptr_t>(arguments.size()))
    return &arguments[pos];
  return &results[pos - arguments.size()];
}

MlirNormDType mlirNormKernelGetDType(MlirNormKernel kernel, intptr_t pos) {
  const norm::TensorSignature *sig = getSignature(kernel, pos);
  switch (sig ? sig->dtype : norm::DType::F32) {
  case norm::DType::F16:
    return MlirNormDTypeF16;
  case norm::DType::BF16:
    return MlirNormDTypeBF16;
  case norm::DType::F32:
    return MlirNormDTypeF32;
  case norm::DType::F64:
    return MlirNormDTypeF64;
  }
  llvm_unreachable("unknown dtype");
}

intptr_t mlirNormKernelGetRank(MlirNormKernel kernel, intptr_t pos) {
  const norm::TensorSignature *sig = getSignature(kernel, pos);
  return sig ? static_cast<intptr_t>(sig->shape.size()) : -1;
}

int64_t mlirNormKernelGetDimSize(MlirNormKernel kernel, intptr_t pos,
                                 intptr_t dim) {
  const norm::TensorSignature *sig = getSignature(kernel, pos);
  if (!sig || dim < 0 || dim >= static_cast<intptr_t>(sig->shape.size()))
    return -1;
  int64_t size = sig->shape[dim];
  return norm::isDynamicDim(size) ? -1 : size;
}

bool mlirNormKernelGetTiedDim(MlirNormKernel kernel, intptr_t pos, intptr_t dim,
                              intptr_t *tiedPos, intptr_t *tiedDim) {
  const norm::CallContract &contract = unwrap(kernel)->callContract();
  if (pos < 0 || pos >= static_cast<intptr_t>(contract.buffers.size()) ||
      dim < 0 || dim >= contract.buffers[pos].rank)
    return false;
  intptr_t flat = dim;
  for (intptr_t b = 0; b < pos; ++b)
    flat += contract.buffers[b].rank;
  int32_t sameAs = contract.dims[flat].same_as;
  if (sameAs < 0)
    return false;
  norm_call_contract view = contract.view();
  int32_t buffer, bufferDim;
  norm_call_locate(&view, sameAs, &buffer, &bufferDim);
  *tiedPos = buffer;
  *tiedDim = bufferDim;
  return true;
}

static MlirLogicalResult fail(MlirStringCallback onError, void *userData,
                              const std::string &message) {
  if (onError)
    onError(wrap(StringRef(message)), userData);
  return mlirLogicalResultFailure();
}

MlirLogicalResult mlirNormKernelInferResultShapes(MlirNormKernel kernel,
                                                  const int64_t *argShapes,
                                                  int64_t *resultShapes,
                                                  MlirStringCallback onError,
                                                  void *userData) {
  norm::Kernel *jit = unwrap(kernel);
  std::vector<std::vector<int64_t>> shapes;
  for (const norm::TensorSignature &sig : jit->arguments()) {
    if (!argShapes && !sig.shape.empty())
      return fail(onError, userData, "no argument shapes given");
    shapes.emplace_back(argShapes, argShapes + sig.shape.size());
    argShapes += sig.shape.size();
  }
  llvm::Expected<std::vector<std::vector<int64_t>>> results =
      jit->callContract().resultShapes(shapes);
  if (!results)
    return fail(onError, userData, llvm::toString(results.takeError()));
  for (const std::vector<int64_t> &shape : *results) {
    if (!resultShapes && !shape.empty())
      return fail(onError, userData, "no room for the result shapes");
    resultShapes = std::copy(shape.begin(), shape.end(), resultShapes);
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mlirNormKernelCall(MlirNormKernel kernel, intptr_t numBuffers,
                                     void *const *buffers,
                                     const int64_t *shapes,
                                     MlirStringCallback onError,
                                     void *userData) {
  norm::Kernel *jit = unwrap(kernel);
  intptr_t expected = jit->arguments().size() + jit->results().size();
  if (numBuffers != expected)
    return fail(onError, userData,
                "expected " + std::to_string(expected) + " buffers, got " +
                    std::to_string(numBuffers));
  if (numBuffers > 0 && (!buffers || !shapes))
    return fail(onError, userData, "the buffers or their shapes are NULL");
  std::vector<void *> pointers(buffers, buffers + numBuffers);
  std::vector<std::vector<int64_t>> extents;
  for (intptr_t i = 0; i < numBuffers; ++i) {
    size_t rank = getSignature(kernel, i)->shape.size();
    extents.emplace_back(shapes, shapes + rank);
    shapes += rank;
  }
  if (llvm::Error error = jit->callOnBuffers(pointers, extents))
    return fail(onError, userData, llvm::toString(std::move(error)));
  return mlirLogicalResultSuccess();
}
