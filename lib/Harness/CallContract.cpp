//===- CallContract.cpp - the call contract of a compiled function --------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/CallContract.h"

#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::norm;

norm_call_contract CallContract::view() const {
  return {numArguments, numResults(), buffers.data(), dims.data()};
}

/// The shapes one after the other, after checking that there is one per
/// buffer, of the buffer's rank.
static llvm::Expected<std::vector<int64_t>>
flatten(const CallContract &contract, size_t numBuffers,
        const std::vector<std::vector<int64_t>> &shapes) {
  if (shapes.size() != numBuffers)
    return llvm::createStringError("expected " + llvm::Twine(numBuffers) +
                                   " shapes, got " +
                                   llvm::Twine(shapes.size()));
  std::vector<int64_t> extents;
  for (size_t b = 0; b < numBuffers; ++b) {
    int32_t rank = contract.buffers[b].rank;
    if (shapes[b].size() != static_cast<size_t>(rank)) {
      bool isResult = b >= static_cast<size_t>(contract.numArguments);
      return llvm::createStringError(
          (isResult ? "result #" + llvm::Twine(b - contract.numArguments)
                    : "argument #" + llvm::Twine(b)) +
          " has rank " + llvm::Twine(shapes[b].size()) + ", expected " +
          llvm::Twine(rank));
    }
    extents.insert(extents.end(), shapes[b].begin(), shapes[b].end());
  }
  return extents;
}

static llvm::Error checkFlat(const norm_call_contract &view,
                             const std::vector<int64_t> &extents,
                             const std::vector<const void *> &pointers) {
  char message[256];
  if (norm_call_check(&view, extents.data(),
                      pointers.empty()
                          ? nullptr
                          : const_cast<void *const *>(pointers.data()),
                      message, sizeof(message)) != NORM_CALL_OK)
    return llvm::createStringError(message);
  return llvm::Error::success();
}

llvm::Error
CallContract::check(const std::vector<std::vector<int64_t>> &shapes,
                    const std::vector<const void *> &pointers) const {
  if (!pointers.empty() && pointers.size() != buffers.size())
    return llvm::createStringError("expected " + llvm::Twine(buffers.size()) +
                                   " buffers, got " +
                                   llvm::Twine(pointers.size()));
  llvm::Expected<std::vector<int64_t>> extents =
      flatten(*this, buffers.size(), shapes);
  if (!extents)
    return extents.takeError();
  return checkFlat(view(), *extents, pointers);
}

llvm::Expected<std::vector<std::vector<int64_t>>> CallContract::resultShapes(
    const std::vector<std::vector<int64_t>> &argShapes) const {
  llvm::Expected<std::vector<int64_t>> extents =
      flatten(*this, numArguments, argShapes);
  if (!extents)
    return extents.takeError();
  // The arguments' rules refer to argument dims only.
  norm_call_contract arguments = view();
  arguments.num_results = 0;
  if (llvm::Error e = checkFlat(arguments, *extents, {}))
    return std::move(e);
  std::vector<std::vector<int64_t>> shapes;
  size_t flat = extents->size();
  for (int32_t r = 0; r < numResults(); ++r) {
    std::vector<int64_t> shape;
    for (int32_t d = 0; d < buffers[numArguments + r].rank; ++d, ++flat) {
      const norm_call_dim &rule = dims[flat];
      if (rule.extent >= 0)
        shape.push_back(rule.extent);
      else if (rule.same_as >= 0 &&
               static_cast<size_t>(rule.same_as) < extents->size())
        shape.push_back((*extents)[rule.same_as]);
      else
        return llvm::createStringError("dim " + llvm::Twine(d) +
                                       " of result #" + llvm::Twine(r) +
                                       " does not follow from the arguments");
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

llvm::json::Value mlir::norm::toJSON(const CallContract &contract) {
  llvm::json::Array buffers, dims;
  for (const norm_call_buffer &b : contract.buffers)
    buffers.push_back(llvm::json::Array{b.rank, b.element_bytes});
  for (const norm_call_dim &d : contract.dims)
    dims.push_back(llvm::json::Array{d.extent, d.same_as, d.multiple_of});
  return llvm::json::Object{{"num_arguments", contract.numArguments},
                            {"buffers", std::move(buffers)},
                            {"dims", std::move(dims)}};
}

bool mlir::norm::fromJSON(const llvm::json::Value &value,
                          CallContract &contract, llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::vector<std::vector<int64_t>> buffers, dims;
  if (!mapper || !mapper.map("num_arguments", contract.numArguments) ||
      !mapper.map("buffers", buffers) || !mapper.map("dims", dims))
    return false;
  size_t numDims = 0;
  contract.buffers.clear();
  for (const std::vector<int64_t> &b : buffers) {
    if (b.size() != 2 || b[0] < 0 || b[0] > 64 || b[1] <= 0 || b[1] > 16) {
      path.field("buffers").report("expected [rank, element bytes] pairs");
      return false;
    }
    contract.buffers.push_back(
        {static_cast<int32_t>(b[0]), static_cast<int32_t>(b[1])});
    numDims += b[0];
  }
  contract.dims.clear();
  for (const std::vector<int64_t> &d : dims) {
    if (d.size() != 3 || d[1] >= static_cast<int64_t>(contract.dims.size()) ||
        d[1] < -1) {
      path.field("dims").report(
          "expected [extent, earlier dim or -1, multiple] triples");
      return false;
    }
    contract.dims.push_back({d[0], static_cast<int32_t>(d[1]), d[2]});
  }
  if (contract.numArguments < 0 ||
      contract.numArguments > static_cast<int32_t>(contract.buffers.size()) ||
      contract.dims.size() != numDims) {
    path.report("the dims do not match the buffers' ranks");
    return false;
  }
  return true;
}

void mlir::norm::writeCallContractC(llvm::raw_ostream &os,
                                    const CallContract &contract,
                                    llvm::StringRef name) {
  // C has no empty arrays: a contract without dims gets a dummy entry.
  os << "static const norm_call_buffer " << name << "_buffers[] = {";
  for (auto [i, b] : llvm::enumerate(contract.buffers))
    os << (i ? ", " : "") << "{" << b.rank << ", " << b.element_bytes << "}";
  if (contract.buffers.empty())
    os << "{0, 1}";
  os << "};\nstatic const norm_call_dim " << name << "_dims[] = {";
  for (auto [i, d] : llvm::enumerate(contract.dims))
    os << (i ? "," : "") << (i % 4 ? " " : "\n    ") << "{" << d.extent << ", "
       << d.same_as << ", " << d.multiple_of << "}";
  if (contract.dims.empty())
    os << "{-1, -1, 0}";
  os << "};\nstatic const norm_call_contract " << name << " = {"
     << contract.numArguments << ", " << contract.numResults() << ", " << name
     << "_buffers, " << name << "_dims};\n";
}
