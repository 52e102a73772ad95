//===- norm-embed.cpp - a compiler embedding norm-mlir --------------------===//
//
// Part of the norm-mlir project.
//
// Built against an installed norm-mlir only (see CMakeLists.txt): registers
// the norm dialect and pipelines, parses a LayerNorm spec, lowers it with
// norm-lower-to-cpu-pipeline run by name through a PassManager, reports what
// is left, then compiles the spec ahead of time into a directory.
// Usage: norm-embed OUT_DIR
//
//===----------------------------------------------------------------------===//

#include "norm/Compiler/AheadOfTime.h"
#include "norm/Compiler/Registration.h"
#include "norm/IR/NormOps.h"
#include "norm/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static const char *kSpec = R"mlir(
func.func @layer_norm(%x: tensor<?x768xf32>, %gamma: tensor<768xf32>,
                      %beta: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x768xf32>
  %init = tensor.empty(%rows) : tensor<?x768xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x768xf32>)
      scale(%gamma : tensor<768xf32>) bias(%beta : tensor<768xf32>) affine_dims = [1]
      outs(%init : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}
)mlir";

static int countNormOps(ModuleOp module) {
  int count = 0;
  module->walk([&](Operation *op) {
    if (isa<norm::NormDialect>(op->getDialect()))
      ++count;
  });
  return count;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: norm-embed OUT_DIR\n";
    return 2;
  }
  std::string outDir = argv[1];

  DialectRegistry registry;
  norm::registerCompilerDialects(registry);
  norm::registerCompilerPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kSpec, &context);
  if (!module)
    return 1;
  llvm::outs() << "parsed: " << countNormOps(*module) << " norm op(s)\n";

  // The pipeline by its registered name, as norm-opt would run it.
  OwningOpRef<ModuleOp> lowered = module->clone();
  PassManager pm(&context);
  if (failed(parsePassPipeline("norm-lower-to-cpu-pipeline", pm, llvm::errs())))
    return 1;
  // The registered pipeline expands into its passes.
  llvm::outs() << "pipeline: norm-lower-to-cpu-pipeline, " << pm.size()
               << " passes\n";
  if (failed(pm.run(*lowered)))
    return 1;
  llvm::outs() << "lowered: " << countNormOps(*lowered) << " norm op(s)\n";
  for (auto func : lowered->getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal())
      llvm::outs() << "llvm.func @" << func.getSymName() << "\n";

  // Ahead of time, as norm-compile --target=cpu does.
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
    llvm::errs() << "cannot create " << outDir << ": " << ec.message() << "\n";
    return 1;
  }
  norm::AheadOfTimeOptions options;
  options.target = "cpu";
  std::string outputBase = outDir + "/layer_norm";
  if (failed(norm::compileAheadOfTime(*module, outputBase, options)))
    return 1;
  for (const char *suffix : {".o", ".h", "_launch.c", ".json"})
    llvm::outs() << "aot: layer_norm" << suffix << " "
                 << (llvm::sys::fs::exists(outputBase + suffix) ? "written"
                                                                : "missing")
                 << "\n";
  for (const char *lib : {"liblayer_norm.a", "liblayer_norm.so"})
    llvm::outs() << "aot: " << lib << " "
                 << (llvm::sys::fs::exists(outDir + "/" + lib) ? "written"
                                                               : "missing")
                 << "\n";
  return 0;
}
