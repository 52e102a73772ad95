/*===- norm-capi-test.c - the norm C API, from C --------------------------===*\
|*                                                                            *|
|* Part of the norm-mlir project.                                             *|
|*                                                                            *|
|* Uses libNormCAPI.so the way a C program embedding norm-mlir would: the    *|
|* dialect handle, pass and pipeline registration through MLIR's own pass    *|
|* manager, a spec lowered to a JIT-able module and run through MLIR's       *|
|* execution engine, the coarse kernel entry points, ahead-of-time outputs,  *|
|* and the errors. Results are checked against a double-precision           *|
|* reference. Usage: norm-capi-test SCRATCH_DIR                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "norm-c/Compiler.h"
#include "norm-c/Dialect.h"
#include "norm-c/Passes.h"

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { kRows = 5, kCols = 96 };

static const char *kSpec =
    "func.func @layer_norm(%x: tensor<?x96xf32>, %g: tensor<96xf32>,\n"
    "                      %b: tensor<96xf32>) -> tensor<?x96xf32> {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %n = tensor.dim %x, %c0 : tensor<?x96xf32>\n"
    "  %init = tensor.empty(%n) : tensor<?x96xf32>\n"
    "  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05\n"
    "      ins(%x : tensor<?x96xf32>) scale(%g : tensor<96xf32>)\n"
    "      bias(%b : tensor<96xf32>) affine_dims = [1]\n"
    "      outs(%init : tensor<?x96xf32>) -> tensor<?x96xf32>\n"
    "  return %y : tensor<?x96xf32>\n"
    "}\n";

static float x[kRows][kCols], gamma_[kCols], beta_[kCols], y[kRows][kCols];

static void fillInputs(void) {
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      /* Offset rows: a large mean stresses the centered variance. */
      x[r][c] = 10.0f * r + sinf(0.37f * c + r);
  for (int c = 0; c < kCols; ++c) {
    gamma_[c] = 1.0f + 0.01f * c;
    beta_[c] = 0.5f - 0.02f * c;
  }
}

/* Largest |y - reference| over the rows, the reference in double. */
static double maxError(void) {
  double worst = 0;
  for (int r = 0; r < kRows; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < kCols; ++c)
      mean += x[r][c];
    mean /= kCols;
    for (int c = 0; c < kCols; ++c)
      var += (x[r][c] - mean) * (x[r][c] - mean);
    var /= kCols;
    for (int c = 0; c < kCols; ++c) {
      double ref = gamma_[c] * (x[r][c] - mean) / sqrt(var + 1e-5) + beta_[c];
      double err = fabs(y[r][c] - ref);
      if (!(err <= worst)) /* NaN counts as the worst */
        worst = isnan(err) ? INFINITY : err;
    }
  }
  return worst;
}

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

/* Kernel call errors come without a newline. */
static void printLine(MlirStringRef text, void *userData) {
  (void)userData;
  printf("%.*s\n", (int)text.length, text.data);
}

/* Memref descriptors as the LLVM lowering lays them out. */
typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Memref1;
typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2;

static MlirModule parseSpec(MlirContext ctx) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kSpec));
}

/* Runs the lowered LayerNorm through MLIR's execution engine; returns the
   largest error against the reference (infinity when it cannot run). */
static double runLowered(MlirModule module) {
  MlirExecutionEngine engine =
      mlirExecutionEngineCreate(module, 3, 0, NULL, false, false);
  if (mlirExecutionEngineIsNull(engine))
    return INFINITY;
  void (*entry)(Memref2 *, Memref1 *, Memref1 *, Memref2 *) =
      (void (*)(Memref2 *, Memref1 *, Memref1 *, Memref2 *))
          mlirExecutionEngineLookup(engine, mlirStringRefCreateFromCString(
                                                "_mlir_ciface_layer_norm"));
  double err = INFINITY;
  if (entry) {
    memset(y, 0, sizeof(y));
    Memref2 mx = {x, x, 0, {kRows, kCols}, {kCols, 1}};
    Memref1 mg = {gamma_, gamma_, 0, {kCols}, {1}};
    Memref1 mb = {beta_, beta_, 0, {kCols}, {1}};
    Memref2 my = {y, y, 0, {kRows, kCols}, {kCols, 1}};
    entry(&mx, &mg, &mb, &my);
    err = maxError();
  }
  mlirExecutionEngineDestroy(engine);
  return err;
}

/* The dialect handle and the registration functions. */
static void testRegistration(void) {
  MlirDialectHandle handle = mlirGetDialectHandle__norm__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  printf("namespace: %.*s\n", (int)ns.length, ns.data);

  /* The handle alone: the dialect loads into a bare context. */
  MlirContext bare = mlirContextCreate();
  mlirDialectHandleRegisterDialect(handle, bare);
  MlirDialect dialect =
      mlirContextGetOrLoadDialect(bare, mlirStringRefCreateFromCString("norm"));
  printf("loaded into a bare context: %d\n", !mlirDialectIsNull(dialect));
  mlirContextDestroy(bare);

  /* A registry filled by mlirNormRegisterCompilerDialects parses specs. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirNormRegisterCompilerDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  MlirModule module = parseSpec(ctx);
  printf("parsed with the registry: %d\n", !mlirModuleIsNull(module));
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* The pipeline by name through MLIR's pass manager, then MLIR's execution
   engine on the lowered module. */
static int testPipelineAndExecutionEngine(void) {
  mlirRegisterAllNormPasses();
  MlirContext ctx = mlirNormContextCreate();
  MlirModule module = parseSpec(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString("builtin.module(norm-read-only-arguments,"
                                     "norm-lower-to-cpu-pipeline)"),
      printToStdout, NULL);
  printf("pipeline parsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  /* A tablegen'd pass constructor. */
  MlirPass pass = mlirCreateNormTransformsNormCompensateSumsPass();
  printf("created a pass: %d\n", pass.ptr != NULL);
  MlirPassManager owner = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(owner, pass);
  mlirPassManagerDestroy(owner);
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("pipeline ran: %d\n", mlirLogicalResultIsSuccess(ran));
  mlirPassManagerDestroy(pm);

  double err = runLowered(module);
  printf("execution engine: max |y - ref| = %.2e\n", err);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return !(err < 1e-4);
}

/* The coarse kernel: compile, inspect the signature, call, and errors. */
static int testKernel(void) {
  MlirContext ctx = mlirNormContextCreate();
  mlirNormContextCaptureDiagnostics(ctx, printToStdout, NULL);
  MlirModule module = parseSpec(ctx);
  MlirNormKernel kernel =
      mlirNormKernelCreate(module, mlirStringRefCreateFromCString("layer_norm"),
                           mlirStringRefCreateFromCString("cpu"), false);
  if (mlirNormKernelIsNull(kernel)) {
    printf("kernel: failed\n");
    return 1;
  }
  intptr_t operands = mlirNormKernelGetNumArguments(kernel) +
                      mlirNormKernelGetNumResults(kernel);
  printf("kernel: %ld arguments, %ld results\n",
         (long)mlirNormKernelGetNumArguments(kernel),
         (long)mlirNormKernelGetNumResults(kernel));
  for (intptr_t i = 0; i < operands; ++i) {
    printf("  operand %ld: dtype %d, dims", (long)i,
           (int)mlirNormKernelGetDType(kernel, i));
    for (intptr_t d = 0; d < mlirNormKernelGetRank(kernel, i); ++d)
      printf(" %ld", (long)mlirNormKernelGetDimSize(kernel, i, d));
    printf("\n");
  }
  memset(y, 0, sizeof(y));
  void *buffers[] = {x, gamma_, beta_, y};
  int64_t shapes[] = {kRows, kCols, kCols, kCols, kRows, kCols};
  MlirLogicalResult called =
      mlirNormKernelCall(kernel, 4, buffers, shapes, printLine, NULL);
  printf("kernel call: %d\n", mlirLogicalResultIsSuccess(called));
  double err = maxError();
  printf("kernel: max |y - ref| = %.2e\n", err);

  /* A static dim that does not match, and a wrong buffer count. */
  int64_t wrong[] = {kRows, 64, kCols, kCols, kRows, kCols};
  printf("wrong shape: %d\n", mlirLogicalResultIsSuccess(mlirNormKernelCall(
                                  kernel, 4, buffers, wrong, printLine, NULL)));
  printf("wrong count: %d\n",
         mlirLogicalResultIsSuccess(
             mlirNormKernelCall(kernel, 3, buffers, shapes, printLine, NULL)));
  /* The call contract: a result with one row more than the input, a
     negative extent and a NULL buffer are refused before anything runs. */
  y[0][0] = 42.0f;
  int64_t longer[] = {kRows, kCols, kCols, kCols, kRows + 1, kCols};
  printf("longer result: %d\n",
         mlirLogicalResultIsSuccess(
             mlirNormKernelCall(kernel, 4, buffers, longer, printLine, NULL)));
  int64_t negative[] = {-5, kCols, kCols, kCols, -5, kCols};
  printf("negative extent: %d\n",
         mlirLogicalResultIsSuccess(mlirNormKernelCall(
             kernel, 4, buffers, negative, printLine, NULL)));
  void *null[] = {x, NULL, beta_, y};
  printf("NULL scale: %d\n", mlirLogicalResultIsSuccess(mlirNormKernelCall(
                                 kernel, 4, null, shapes, printLine, NULL)));
  printf("untouched: %g\n", y[0][0]);
  /* The result shapes a call implies, and the ties behind them. */
  int64_t argShapes[] = {7, kCols, kCols, kCols}, resultShapes[2] = {0, 0};
  printf("result shapes: %d %ld x %ld\n",
         mlirLogicalResultIsSuccess(mlirNormKernelInferResultShapes(
             kernel, argShapes, resultShapes, printLine, NULL)),
         (long)resultShapes[0], (long)resultShapes[1]);
  intptr_t tiedPos = -1, tiedDim = -1;
  bool tied = mlirNormKernelGetTiedDim(kernel, 3, 0, &tiedPos, &tiedDim);
  printf("result dim 0 tied: %d to operand %ld dim %ld\n", tied, (long)tiedPos,
         (long)tiedDim);
  printf("out of range: rank %ld, dim %ld\n",
         (long)mlirNormKernelGetRank(kernel, 9),
         (long)mlirNormKernelGetDimSize(kernel, 0, 5));
  mlirNormKernelDestroy(kernel);

  /* An entry that does not exist, and a spec that does not verify. */
  MlirNormKernel missing =
      mlirNormKernelCreate(module, mlirStringRefCreateFromCString("nope"),
                           mlirStringRefCreateFromCString("cpu"), false);
  printf("missing entry: null %d\n", mlirNormKernelIsNull(missing));
  MlirModule invalid = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
               "  %i = tensor.empty() : tensor<4x8xf32>\n"
               "  %y = norm.normalize standard axes = [2] epsilon = 1.0e-05\n"
               "      ins(%x : tensor<4x8xf32>) outs(%i : tensor<4x8xf32>)\n"
               "      -> tensor<4x8xf32>\n"
               "  return %y : tensor<4x8xf32>\n"
               "}\n"));
  printf("invalid spec: null %d\n", mlirModuleIsNull(invalid));
  MlirLogicalResult unknown = mlirNormLowerToLLVM(
      module, mlirStringRefCreateFromCString("rocm"), false);
  printf("unknown target: %d\n", mlirLogicalResultIsSuccess(unknown));
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return !(err < 1e-4);
}

/* Ahead of time: the files norm-compile writes. */
static int testAheadOfTime(const char *dir) {
  MlirContext ctx = mlirNormContextCreate();
  MlirModule module = parseSpec(ctx);
  char base[4096];
  snprintf(base, sizeof(base), "%s/kernels", dir);
  MlirLogicalResult result = mlirNormCompileAheadOfTime(
      module, mlirStringRefCreateFromCString(base),
      mlirStringRefCreateFromCString("cpu"), false, false, false);
  printf("ahead of time: %d\n", mlirLogicalResultIsSuccess(result));
  const char *suffixes[] = {".o", ".h", "_launch.c", ".json"};
  for (int i = 0; i < 4; ++i) {
    char path[4200];
    struct stat info;
    snprintf(path, sizeof(path), "%s%s", base, suffixes[i]);
    printf("  kernels%s: %s\n", suffixes[i],
           stat(path, &info) == 0 && info.st_size > 0 ? "written" : "missing");
  }
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return !mlirLogicalResultIsSuccess(result);
}

/* The entry points that take the spec as a string. */
static int testSpecStrings(const char *dir) {
  MlirContext ctx = mlirNormContextCreate();
  mlirNormContextCaptureDiagnostics(ctx, printToStdout, NULL);
  MlirStringRef spec = mlirStringRefCreateFromCString(kSpec);
  MlirStringRef cpu = mlirStringRefCreateFromCString("cpu");
  MlirModule lowered = mlirNormSpecLowerToLLVM(ctx, spec, cpu, false);
  double err = mlirModuleIsNull(lowered) ? INFINITY : runLowered(lowered);
  printf("spec string, lowered: max |y - ref| = %.2e\n", err);
  if (!mlirModuleIsNull(lowered))
    mlirModuleDestroy(lowered);
  char base[4096];
  snprintf(base, sizeof(base), "%s/dispatched", dir);
  MlirLogicalResult aot = mlirNormSpecCompileAheadOfTime(
      ctx, spec, mlirStringRefCreateFromCString(base), cpu, false, true, false);
  printf("spec string, ahead of time with dispatch: %d\n",
         mlirLogicalResultIsSuccess(aot));
  MlirStringRef broken = mlirStringRefCreateFromCString("func.func @f(");
  printf("broken spec: null %d, aot %d\n",
         mlirModuleIsNull(mlirNormSpecLowerToLLVM(ctx, broken, cpu, false)),
         mlirLogicalResultIsSuccess(mlirNormSpecCompileAheadOfTime(
             ctx, broken, mlirStringRefCreateFromCString(base), cpu, false,
             false, false)));
  /* A string ref need not be NUL-terminated: a spec ending in an open
     `{{` comment, in a buffer of exactly its length (the spec fuzzer's
     first finding; the sanitizer build checks that nothing reads past it). */
  static const char unterminated[] = "func.func @f() {\n  // {{x";
  char *exact = malloc(sizeof(unterminated) - 1);
  memcpy(exact, unterminated, sizeof(unterminated) - 1);
  MlirStringRef slice = mlirStringRefCreate(exact, sizeof(unterminated) - 1);
  printf("unterminated spec: null %d\n",
         mlirModuleIsNull(mlirNormSpecLowerToLLVM(ctx, slice, cpu, false)));
  free(exact);
  mlirContextDestroy(ctx);
  return !(err < 1e-4) + !mlirLogicalResultIsSuccess(aot);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: norm-capi-test SCRATCH_DIR\n");
    return 2;
  }
  fillInputs();
  testRegistration();
  int failures = testPipelineAndExecutionEngine();
  failures += testKernel();
  failures += testAheadOfTime(argv[1]);
  failures += testSpecStrings(argv[1]);
  printf("failures: %d\n", failures);
  return failures != 0;
}
