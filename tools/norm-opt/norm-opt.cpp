//===- norm-opt.cpp - the norm-mlir optimizer driver ----------------------===//
//
// Part of the norm-mlir project.
//
// mlir-opt with the norm dialect, its passes and its pipelines.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::norm::NormDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "norm-mlir optimizer driver\n", registry));
}
