//===- KernelDescription.cpp - entry functions as JSON --------------------===//
//
// Part of the norm-mlir project.
//
// norm-compile writes, next to a kernel compiled ahead of time, what the
// harness needs to check and time it (the spec the reference implements,
// the operands' roles and signatures); harnesses without MLIR read it back.
//
//===----------------------------------------------------------------------===//

#include "norm/Runtime/Harness.h"

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
  Array roles, resultIndex, resultDTypes;
  for (OperandRole role : analysis.argRoles)
    roles.push_back(kRoles[static_cast<int>(role)]);
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
                {"result_index", std::move(resultIndex)},
                {"op_result_dtypes", std::move(resultDTypes)},
                {"arguments", signaturesToJSON(description.arguments)},
                {"results", signaturesToJSON(description.results)}};
}

namespace {
/// Reads fields of one JSON object, remembering the first missing or
/// malformed one.
class Reader {
public:
  Reader(const Object *object, llvm::StringRef where)
      : object(object), where(where.str()) {
    if (!object)
      fail("is not an object");
  }
  void fail(llvm::StringRef what) {
    if (problem.empty())
      problem = where + " " + what.str();
  }
  const Value *get(llvm::StringRef key) {
    const Value *v = object ? object->get(key) : nullptr;
    if (!v)
      fail("lacks \"" + key.str() + "\"");
    return v;
  }
  bool boolean(llvm::StringRef key) {
    const Value *v = get(key);
    if (v && !v->getAsBoolean())
      fail("has a non-boolean \"" + key.str() + "\"");
    return v && v->getAsBoolean().value_or(false);
  }
  int64_t integer(llvm::StringRef key) {
    const Value *v = get(key);
    if (v && !v->getAsInteger())
      fail("has a non-integer \"" + key.str() + "\"");
    return v ? v->getAsInteger().value_or(0) : 0;
  }
  double number(llvm::StringRef key) {
    const Value *v = get(key);
    if (v && !v->getAsNumber())
      fail("has a non-number \"" + key.str() + "\"");
    return v ? v->getAsNumber().value_or(0) : 0;
  }
  std::string string(llvm::StringRef key) {
    const Value *v = get(key);
    if (v && !v->getAsString())
      fail("has a non-string \"" + key.str() + "\"");
    return v ? v->getAsString().value_or("").str() : "";
  }
  const Array *array(llvm::StringRef key) {
    const Value *v = get(key);
    if (v && !v->getAsArray())
      fail("has a non-array \"" + key.str() + "\"");
    return v ? v->getAsArray() : nullptr;
  }
  std::vector<int64_t> integers(llvm::StringRef key) {
    std::vector<int64_t> out;
    if (const Array *a = array(key))
      for (const Value &v : *a) {
        if (!v.getAsInteger())
          fail("has a non-integer in \"" + key.str() + "\"");
        out.push_back(v.getAsInteger().value_or(0));
      }
    return out;
  }
  DType dtype(llvm::StringRef name) {
    for (DType d : kDTypes)
      if (name == dtypeName(d))
        return d;
    fail("names an unknown dtype \"" + name.str() + "\"");
    return DType::F32;
  }
  template <size_t N>
  int index(const char *const (&names)[N], llvm::StringRef name) {
    for (size_t i = 0; i < N; ++i)
      if (name == names[i])
        return i;
    fail("names an unknown value \"" + name.str() + "\"");
    return 0;
  }
  std::vector<TensorSignature> signatures(llvm::StringRef key) {
    std::vector<TensorSignature> out;
    if (const Array *a = array(key))
      for (const Value &v : *a) {
        Reader sig(v.getAsObject(), where + " " + key.str());
        TensorSignature s;
        s.dtype = sig.dtype(sig.string("dtype"));
        if (const Array *dims = sig.array("shape"))
          for (const Value &d : *dims)
            s.shape.push_back(d.getAsNull() ? kDynamicDim
                                            : d.getAsInteger().value_or(-1));
        for (int64_t d : s.shape)
          if (!isDynamicDim(d) && d < 0)
            sig.fail("has a malformed shape");
        if (!sig.problem.empty())
          fail(sig.problem);
        out.push_back(std::move(s));
      }
    return out;
  }
  const Object *object;
  std::string where, problem;
};
} // namespace

llvm::Expected<KernelDescription>
mlir::norm::parseKernelDescription(const llvm::json::Value &value) {
  KernelDescription description;
  Reader top(value.getAsObject(), "the kernel description");
  description.name = top.string("name");
  EntryAnalysis &analysis = description.analysis;
  analysis.isCosine = top.boolean("is_cosine");
  if (const Array *roles = top.array("arg_roles"))
    for (const Value &role : *roles)
      analysis.argRoles.push_back(static_cast<OperandRole>(
          top.index(kRoles, role.getAsString().value_or(""))));
  for (int64_t i : top.integers("result_index"))
    analysis.resultIndex.push_back(static_cast<unsigned>(i));
  if (const Array *dtypes = top.array("op_result_dtypes"))
    for (const Value &d : *dtypes)
      analysis.opResultDTypes.push_back(
          top.dtype(d.getAsString().value_or("")));
  description.arguments = top.signatures("arguments");
  description.results = top.signatures("results");

  const Value *specValue = top.get("spec");
  Reader s(specValue ? specValue->getAsObject() : nullptr, "its \"spec\"");
  NormSpec &spec = analysis.spec;
  spec.mode = static_cast<StatMode>(s.index(kModes, s.string("mode")));
  spec.axes = s.integers("axes");
  spec.epsilon = s.number("epsilon");
  spec.affineDims = s.integers("affine_dims");
  spec.hasScale = s.boolean("has_scale");
  spec.hasBias = s.boolean("has_bias");
  spec.groups = s.integer("groups");
  spec.groupDim = s.integer("group_dim");
  spec.givenStats = s.boolean("given_stats");
  spec.savedStats = s.boolean("saved_stats");
  spec.savedVariance = s.boolean("saved_variance");
  spec.training = s.boolean("training");
  spec.momentum = s.number("momentum");
  spec.unbiased = s.boolean("unbiased");
  spec.inType = s.dtype(s.string("in_type"));
  spec.outType = s.dtype(s.string("out_type"));
  spec.accType = s.dtype(s.string("acc_type"));

  if (!s.problem.empty())
    top.fail(s.problem);
  if (top.problem.empty() &&
      analysis.argRoles.size() != description.arguments.size())
    top.fail("has " + std::to_string(analysis.argRoles.size()) +
             " argument roles for " +
             std::to_string(description.arguments.size()) + " arguments");
  if (top.problem.empty() &&
      analysis.resultIndex.size() != description.results.size())
    top.fail("has " + std::to_string(analysis.resultIndex.size()) +
             " result indices for " +
             std::to_string(description.results.size()) + " results");
  if (!top.problem.empty())
    return llvm::createStringError(top.problem);
  return description;
}
