//===- norm-opt.cpp - the norm-mlir optimizer driver ----------------------===//
//
// Part of the norm-mlir project.
//
// mlir-opt with the norm dialect, its passes and its pipelines.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/Passes.h"
#include "norm/IR/NormDialect.h"
#include "norm/Pipelines/Pipelines.h"
#include "norm/Transforms/BufferizableOpInterfaceImpl.h"
#include "norm/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

/// Hides the options registered before the driver's own: LLVM's code
/// generation and analysis options, which --help would list by the
/// hundred. --help keeps the driver's options and passes; --help-hidden
/// shows everything.
static void hideLibraryOptions() {
  namespace cl = llvm::cl;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    bool generic = llvm::any_of(option->Categories, [](cl::OptionCategory *c) {
      return c->getName() == "Generic Options" ||
             c->getName() == "Color Options";
    });
    if (!generic && option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}

int main(int argc, char **argv) {
  hideLibraryOptions();
  mlir::registerAllPasses();
  mlir::norm::registerNormConversionPasses();
  mlir::norm::registerNormTransformsPasses();
  mlir::norm::registerNormPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::norm::NormDialect>();
  mlir::norm::registerAggregatedOpInterfaceExternalModels(registry);
  mlir::norm::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "norm-mlir optimizer driver\n", registry));
}
