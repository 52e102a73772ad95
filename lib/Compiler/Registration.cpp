//===- Registration.cpp - what the norm compiler needs registered ---------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Compiler/Registration.h"
#include "norm/Conversion/Passes.h"
#include "norm/IR/NormDialect.h"
#include "norm/Pipelines/Pipelines.h"
#include "norm/Transforms/BufferizableOpInterfaceImpl.h"
#include "norm/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

using namespace mlir;

void norm::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<NormDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  registerAllDialects(registry);
  registerAllExtensions(registry);
  // gpu-module-to-binary and the object writer translate to LLVM IR.
  registerAllToLLVMIRTranslations(registry);
}

void norm::registerCompilerPasses() {
  registerAllPasses();
  registerNormConversionPasses();
  registerNormTransformsPasses();
  registerNormPipelines();
}
