//===- SpecFuzzer.cpp - libFuzzer target: specs through the CPU pipeline --===//
//
// Part of the norm-mlir project.
//
// Parses the input as a norm spec, verifies and canonicalizes it, and lowers
// it through norm-lower-to-cpu-pipeline to LLVM IR (no JIT). Any outcome but
// a crash, an abort or a sanitizer report is fine: rejecting bad input with
// a diagnostic is the point. Inputs holding ops of other dialects than the
// ones norm specs use are skipped, so that findings are this project's.
//
//===----------------------------------------------------------------------===//

#include "norm/Compiler/Registration.h"
#include "norm/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>

using namespace mlir;

namespace {
/// One context for many inputs (creating one costs more than most inputs),
/// renewed now and then: attributes and types are never freed.
struct Session {
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  int uses = 0;

  Session() { norm::registerCompilerDialects(registry); }
  MLIRContext &get() {
    if (!context || ++uses > 200) {
      context = std::make_unique<MLIRContext>(registry,
                                              MLIRContext::Threading::DISABLED);
      context->getDiagEngine().registerHandler([](Diagnostic &) {});
      uses = 0;
    }
    return *context;
  }
};
} // namespace

static bool isSpecDialect(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  return dialect == "builtin" || dialect == "func" || dialect == "arith" ||
         dialect == "tensor" || dialect == "norm";
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  norm::registerCompilerPasses();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Session session;
  if (size > 16 * 1024)
    return -1;
  MLIRContext &context = session.get();
  // NUL-terminated, as files and C strings are: MLIR 22's lexer can read
  // past the end of a buffer that is not (the first finding of this target,
  // kept in the corpus; the C API copies its spec strings for that reason).
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&context));
  if (!module)
    return 0;
  bool foreign = false;
  module->walk([&](Operation *op) { foreign |= !isSpecDialect(op); });
  if (foreign)
    return -1;
  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  norm::buildLowerToCPUPipeline(pm, norm::CPUPipelineOptions());
  if (failed(pm.run(*module)))
    return 0;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  (void)llvmModule;
  return 0;
}
