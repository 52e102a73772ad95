//===- norm-opt.cpp - the norm-mlir optimizer driver ----------------------===//
//
// Part of the norm-mlir project.
//
// mlir-opt with the norm dialect, its passes and its pipelines.
//
//===----------------------------------------------------------------------===//

#include "../HelpOptions.h"
#include "norm/Compiler/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::norm::test {
// The test passes of test/lib (TestPasses.cpp).
void registerTestPasses();
} // namespace mlir::norm::test

int main(int argc, char **argv) {
  // Before the driver registers its options: those registered by now are
  // LLVM's (and MLIR's static ones).
  norm_tools::hideLibraryOptions(nullptr);
  mlir::norm::registerCompilerPasses();
  mlir::norm::test::registerTestPasses();
  mlir::DialectRegistry registry;
  mlir::norm::registerCompilerDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "norm-mlir optimizer driver\n", registry));
}
