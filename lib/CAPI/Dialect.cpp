//===- Dialect.cpp - C API of the norm dialect ----------------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm-c/Dialect.h"
#include "norm/Compiler/Registration.h"
#include "norm/IR/NormDialect.h"

#include "mlir/CAPI/Diagnostics.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/Diagnostics.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Norm, norm, mlir::norm::NormDialect)

void mlirNormRegisterCompilerDialects(MlirDialectRegistry registry) {
  mlir::norm::registerCompilerDialects(*unwrap(registry));
}

MlirContext mlirNormContextCreate(void) {
  mlir::DialectRegistry registry;
  mlir::norm::registerCompilerDialects(registry);
  auto *context = new mlir::MLIRContext(registry);
  context->loadAllAvailableDialects();
  return wrap(context);
}

MlirDiagnosticHandlerID
mlirNormContextCaptureDiagnostics(MlirContext context,
                                  MlirStringCallback callback, void *userData) {
  return unwrap(context)->getDiagEngine().registerHandler(
      [callback, userData](mlir::Diagnostic &diagnostic) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << diagnostic.getLocation() << ": "
           << (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error
                   ? "error"
               : diagnostic.getSeverity() == mlir::DiagnosticSeverity::Warning
                   ? "warning"
                   : "note")
           << ": " << diagnostic << "\n";
        for (const mlir::Diagnostic &note : diagnostic.getNotes())
          os << note.getLocation() << ": note: " << note << "\n";
        callback(wrap(llvm::StringRef(text)), userData);
        return mlir::success();
      });
}
