//===- NormBuilderTest.cpp - exercise the per-variant C++ builders --------===//
//
// Part of the norm-mlir project.
//
// Builds one function per named variant with the builders of
// norm/IR/NormBuilders.h, verifies the module and prints it for FileCheck
// (test/IR/builders.test).
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormBuilders.h"
#include "norm/IR/NormDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace mlir;
using namespace mlir::norm;

namespace {
/// Adds `func.func @name(argTypes...)` whose body is built by `body`, which
/// returns the values the function returns.
void addFunction(
    OpBuilder &b, ModuleOp module, StringRef name, ArrayRef<Type> argTypes,
    std::function<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  Location loc = b.getUnknownLoc();
  b.setInsertionPointToEnd(module.getBody());
  auto func =
      func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> results = body(b, loc, entry->getArguments());
  func::ReturnOp::create(b, loc, results);
  func.setFunctionType(
      b.getFunctionType(argTypes, ValueRange(results).getTypes()));
}
} // namespace

int main() {
  MLIRContext ctx;
  ctx.loadDialect<NormDialect, func::FuncDialect, arith::ArithDialect,
                  linalg::LinalgDialect, tensor::TensorDialect>();
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  Type f32 = b.getF32Type(), f16 = b.getF16Type(), bf16 = b.getBF16Type();
  int64_t dyn = ShapedType::kDynamic;
  auto t = [](ArrayRef<int64_t> shape, Type e) -> Type {
    return RankedTensorType::get(shape, e);
  };

  addFunction(
      b, *module, "layer_norm",
      {t({dyn, 768}, f32), t({768}, f32), t({768}, f32)},
      [](OpBuilder &b, Location loc, ValueRange a) {
        return SmallVector<Value>{
            buildLayerNorm(b, loc, a[0], 1, 1e-5, a[1], a[2])->getResult(0)};
      });
  addFunction(b, *module, "rms_norm", {t({8, 4096}, f16), t({4096}, f16)},
              [](OpBuilder &b, Location loc, ValueRange a) {
                return SmallVector<Value>{
                    buildRMSNorm(b, loc, a[0], 1, 1e-6, a[1])->getResult(0)};
              });
  Type bnIn = t({32, 64, 56, 56}, f32), ch = t({64}, f32);
  addFunction(b, *module, "batch_norm_inference", {bnIn, ch, ch, ch, ch},
              [](OpBuilder &b, Location loc, ValueRange a) {
                return SmallVector<Value>{
                    buildBatchNormInference(b, loc, a[0], 1, a[1], a[2], 1e-5,
                                            a[3], a[4])
                        ->getResult(0)};
              });
  addFunction(b, *module, "batch_norm_training", {bnIn, ch, ch, ch, ch},
              [](OpBuilder &b, Location loc, ValueRange a) {
                NormalizeOp op = buildBatchNormTraining(
                    b, loc, a[0], 1, a[1], a[2], 0.1, 1e-5,
                    /*unbiased=*/true, a[3], a[4]);
                return SmallVector<Value>(op->getResults());
              });
  addFunction(b, *module, "instance_norm",
              {t({16, 128, 128, 64}, bf16), t({64}, bf16), t({64}, bf16)},
              [](OpBuilder &b, Location loc, ValueRange a) {
                return SmallVector<Value>{
                    buildInstanceNorm(b, loc, a[0], -1, 1e-5, a[1], a[2])
                        ->getResult(0)};
              });
  addFunction(b, *module, "group_norm_nchw",
              {t({2, 320, 64, 64}, f32), t({320}, f32), t({320}, f32)},
              [](OpBuilder &b, Location loc, ValueRange a) {
                return SmallVector<Value>{
                    buildGroupNorm(b, loc, a[0], 32, 1, 1e-5, a[1], a[2])
                        ->getResult(0)};
              });
  addFunction(b, *module, "group_norm_nhwc", {t({2, 64, 64, 320}, f32)},
              [](OpBuilder &b, Location loc, ValueRange a) {
                return SmallVector<Value>{
                    buildGroupNorm(b, loc, a[0], 32, -1, 1e-5)->getResult(0)};
              });
  addFunction(b, *module, "weight_norm",
              {t({256, 128, 3, 3}, f32), t({256}, f32)},
              [](OpBuilder &b, Location loc, ValueRange a) {
                return SmallVector<Value>{
                    buildWeightNorm(b, loc, a[0], a[1])->getResult(0)};
              });
  addFunction(b, *module, "l2_normalize", {t({dyn, 128}, f32)},
              [](OpBuilder &b, Location loc, ValueRange a) {
                return SmallVector<Value>{
                    buildL2Normalize(b, loc, a[0], -1)->getResult(0)};
              });
  addFunction(
      b, *module, "cosine_norm", {t({16, 64}, bf16), t({dyn, 64}, bf16)},
      [](OpBuilder &b, Location loc, ValueRange a) {
        return SmallVector<Value>{buildCosineNorm(b, loc, a[0], a[1], 1e-8)};
      });

  if (failed(verify(*module))) {
    llvm::errs() << "norm-builder-test: the built module does not verify\n";
    module->print(llvm::errs());
    return 1;
  }
  module->print(llvm::outs());
  return 0;
}
