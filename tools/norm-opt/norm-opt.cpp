//===- norm-opt.cpp - the norm-mlir optimizer driver ----------------------===//
//
// Part of the norm-mlir project.
//
// mlir-opt with the norm dialect, its passes and its pipelines.
//
//===----------------------------------------------------------------------===//

#include "../HelpOptions.h"
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

int main(int argc, char **argv) {
  // Before the driver registers its options: those registered by now are
  // LLVM's (and MLIR's static ones).
  norm_tools::hideLibraryOptions(nullptr);
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
