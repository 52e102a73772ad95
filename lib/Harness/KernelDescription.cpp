//===- KernelDescription.cpp - entry functions as JSON --------------------===//
//
// Part of the norm-mlir project.
//
// norm-compile writes, next to a kernel compiled ahead of time, what the
// harness needs to check and time it (the spec the reference implements,
// the operands' roles and signatures); harnesses without MLIR read it back.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/KernelDescription.h"

using namespace mlir;
using namespace mlir::norm;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

static constexpr DType kDTypes[] = {DType::F16, DType::BF16, DType::F32,
                                    DType::F64};
static constexpr const char *kModes[] = {"standard", "rms", "l2"};
static constexpr const char *kRoles[] = {
    "input",        "scale",       "bias",     "mean",    "variance",
    "running_mean", "running_var", "cosine_x", "cosine_w"};

static Value shapeToJSON(const std::vector<int64_t> &shape) {
  Array dims;
  for (int64_t d : shape)
    dims.push_back(isDynamicDim(d) ? Value(nullptr) : Value(d));
  return dims;
}

static Value signaturesToJSON(const std::vector<TensorSignature> &sigs) {
  Array out;
  for (const TensorSignature &sig : sigs)
    out.push_back(Object{{"dtype", dtypeName(sig.dtype)},
                         {"shape", shapeToJSON(sig.shape)}});
  return out;
}

llvm::json::Value mlir::norm::toJSON(const KernelDescription &description) {
  const EntryAnalysis &analysis = description.analysis;
  const NormSpec &spec = analysis.spec;
  Array roles, sharedRoles, resultIndex, resultDTypes;
  for (OperandRole role : analysis.argRoles)
    roles.push_back(kRoles[static_cast<int>(role)]);
  for (auto [role, arg] : analysis.sharedRoles)
    sharedRoles.push_back(
        Array{kRoles[static_cast<int>(role)], static_cast<int64_t>(arg)});
  for (unsigned i : analysis.resultIndex)
    resultIndex.push_back(static_cast<int64_t>(i));
  for (DType dtype : analysis.opResultDTypes)
    resultDTypes.push_back(dtypeName(dtype));
  Object specObject{{"mode", kModes[static_cast<int>(spec.mode)]},
                    {"axes", Array(spec.axes)},
                    {"epsilon", spec.epsilon},
                    {"affine_dims", Array(spec.affineDims)},
                    {"has_scale", spec.hasScale},
                    {"has_bias", spec.hasBias},
                    {"groups", spec.groups},
                    {"group_dim", spec.groupDim},
                    {"given_stats", spec.givenStats},
                    {"saved_stats", spec.savedStats},
                    {"saved_variance", spec.savedVariance},
                    {"training", spec.training},
                    {"momentum", spec.momentum},
                    {"unbiased", spec.unbiased},
                    {"in_type", dtypeName(spec.inType)},
                    {"out_type", dtypeName(spec.outType)},
                    {"acc_type", dtypeName(spec.accType)}};
  return Object{{"name", description.name},
                {"is_cosine", analysis.isCosine},
                {"spec", std::move(specObject)},
                {"arg_roles", std::move(roles)},
                {"shared_roles", std::move(sharedRoles)},
                {"result_index", std::move(resultIndex)},
                {"op_result_dtypes", std::move(resultDTypes)},
                {"arguments", signaturesToJSON(description.arguments)},
                {"results", signaturesToJSON(description.results)},
                {"contract", toJSON(description.contract)}};
}

namespace {
/// One of `names` (the enumerator's position), or an error at `path`.
template <typename Enum, size_t N>
bool fromName(const Value &value, Enum &out, llvm::json::Path path,
              const char *const (&names)[N]) {
  std::optional<llvm::StringRef> name = value.getAsString();
  for (size_t i = 0; name && i < N; ++i)
    if (*name == names[i]) {
      out = static_cast<Enum>(i);
      return true;
    }
  path.report("expected one of the known names");
  return false;
}
} // namespace

namespace mlir {
namespace norm {
// The fromJSON overloads llvm::json::ObjectMapper finds for each field.
static bool fromJSON(const Value &value, DType &out, llvm::json::Path path) {
  std::optional<llvm::StringRef> name = value.getAsString();
  for (DType d : kDTypes)
    if (name && *name == dtypeName(d)) {
      out = d;
      return true;
    }
  path.report("expected a dtype (f16, bf16, f32, f64)");
  return false;
}
static bool fromJSON(const Value &value, StatMode &out, llvm::json::Path path) {
  return fromName(value, out, path, kModes);
}
static bool fromJSON(const Value &value, OperandRole &out,
                     llvm::json::Path path) {
  return fromName(value, out, path, kRoles);
}
static bool fromJSON(const Value &value, std::pair<OperandRole, unsigned> &out,
                     llvm::json::Path path) {
  const Array *pair = value.getAsArray();
  std::optional<int64_t> arg =
      pair && pair->size() == 2 ? (*pair)[1].getAsInteger() : std::nullopt;
  if (!arg || *arg < 0) {
    path.report("expected [role, argument]");
    return false;
  }
  out.second = static_cast<unsigned>(*arg);
  return fromJSON((*pair)[0], out.first, path.index(0));
}
static bool fromJSON(const Value &value, TensorSignature &out,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper o(value, path);
  const Array *dims = nullptr;
  if (!o || !o.map("dtype", out.dtype))
    return false;
  if (const Object *object = value.getAsObject())
    dims = object->getArray("shape");
  if (!dims) {
    path.field("shape").report("expected an array");
    return false;
  }
  out.shape.clear();
  for (auto [i, d] : llvm::enumerate(*dims)) {
    std::optional<int64_t> size = d.getAsInteger();
    if (!d.getAsNull() && (!size || *size < 0)) {
      path.field("shape").index(i).report("expected a size or null");
      return false;
    }
    out.shape.push_back(size ? *size : kDynamicDim);
  }
  return true;
}
static bool fromJSON(const Value &value, NormSpec &spec,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper o(value, path);
  return o && o.map("mode", spec.mode) && o.map("axes", spec.axes) &&
         o.map("epsilon", spec.epsilon) &&
         o.map("affine_dims", spec.affineDims) &&
         o.map("has_scale", spec.hasScale) && o.map("has_bias", spec.hasBias) &&
         o.map("groups", spec.groups) && o.map("group_dim", spec.groupDim) &&
         o.map("given_stats", spec.givenStats) &&
         o.map("saved_stats", spec.savedStats) &&
         o.map("saved_variance", spec.savedVariance) &&
         o.map("training", spec.training) && o.map("momentum", spec.momentum) &&
         o.map("unbiased", spec.unbiased) && o.map("in_type", spec.inType) &&
         o.map("out_type", spec.outType) && o.map("acc_type", spec.accType);
}
} // namespace norm
} // namespace mlir

llvm::Expected<KernelDescription>
mlir::norm::parseKernelDescription(const llvm::json::Value &value) {
  KernelDescription description;
  EntryAnalysis &analysis = description.analysis;
  llvm::json::Path::Root root("kernel description");
  llvm::json::ObjectMapper o(value, root);
  if (!o || !o.map("name", description.name) ||
      !o.map("is_cosine", analysis.isCosine) || !o.map("spec", analysis.spec) ||
      !o.map("arg_roles", analysis.argRoles) ||
      !o.map("shared_roles", analysis.sharedRoles) ||
      !o.map("result_index", analysis.resultIndex) ||
      !o.map("op_result_dtypes", analysis.opResultDTypes) ||
      !o.map("arguments", description.arguments) ||
      !o.map("results", description.results) ||
      !o.map("contract", description.contract))
    return root.getError();
  for (auto [role, arg] : analysis.sharedRoles)
    if (arg >= description.arguments.size())
      return llvm::createStringError(
          "the kernel description shares argument #" + std::to_string(arg) +
          ", which does not exist");
  if (analysis.argRoles.size() != description.arguments.size() ||
      analysis.resultIndex.size() != description.results.size())
    return llvm::createStringError(
        "the kernel description has " +
        std::to_string(analysis.argRoles.size()) + " argument roles for " +
        std::to_string(description.arguments.size()) + " arguments and " +
        std::to_string(analysis.resultIndex.size()) + " result indices for " +
        std::to_string(description.results.size()) + " results");
  if (description.contract.numArguments !=
          static_cast<int32_t>(description.arguments.size()) ||
      description.contract.numResults() !=
          static_cast<int32_t>(description.results.size()))
    return llvm::createStringError(
        "the kernel description's call contract does not match its "
        "signature");
  for (auto [b, sig] : llvm::enumerate(llvm::concat<const TensorSignature>(
           description.arguments, description.results)))
    if (description.contract.buffers[b].rank !=
        static_cast<int32_t>(sig.shape.size()))
      return llvm::createStringError(
          "the kernel description's call contract does not match its "
          "signature");
  return description;
}
