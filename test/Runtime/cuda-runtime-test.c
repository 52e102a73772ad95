//===- cuda-runtime-test.c - exercise the norm CUDA runtime
//----------------===//
//
// Part of the norm-mlir project.
//
// Usage: norm-cuda-runtime-test [--probe]. --probe exits 0 iff a CUDA driver
// and device are usable (lit's cuda-driver feature). Otherwise, without a
// driver: every entry point fails softly (NULL handles, no crash) and the
// sticky error names libcuda.so.1; with one: a memory round trip, a PTX
// kernel JIT-compiled and launched, and the caller-stream override. Written
// in C, so it also checks that CudaRuntime.h is C. Prints lines for FileCheck
// (cuda-runtime-nodriver.test, cuda-runtime-gpu.test) and exits non-zero if
// an expectation fails.
//
//===----------------------------------------------------------------------===//

#include "norm/Runtime/CudaRuntime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(int cond, const char *what) {
  if (cond)
    return;
  ++failures;
  const char *error = normCudaGetError();
  printf("ERROR: %s (sticky error: %s)\n", what, error ? error : "none");
}

static const char *orNull(const void *ptr) { return ptr ? "non-NULL" : "NULL"; }

//===----------------------------------------------------------------------===//
// Without a driver
//===----------------------------------------------------------------------===//

static void testNoDriver(void) {
  printf("=== no driver\n");
  // What generated code does first, from its global constructor.
  static char ptx[] = ".version 8.0";
  void *module = mgpuModuleLoadJIT(ptx, 2);
  printf("mgpuModuleLoadJIT: %s\n", orNull(module));
  expect(!module, "mgpuModuleLoadJIT without a driver returns NULL");
  const char *error = normCudaGetError();
  printf("error: %s\n", error ? error : "(none)");
  expect(error && strstr(error, "libcuda.so.1"),
         "the sticky error names libcuda.so.1");
  expect(error && strstr(error, "mgpuModuleLoadJIT"),
         "the sticky error names the entry point");

  static char blob[16];
  module = mgpuModuleLoad(blob, sizeof(blob));
  printf("mgpuModuleLoad: %s\n", orNull(module));
  expect(!module, "mgpuModuleLoad without a driver returns NULL");
  void *function = mgpuModuleGetFunction(NULL, "k");
  printf("mgpuModuleGetFunction(NULL, \"k\"): %s\n", orNull(function));
  expect(!function, "mgpuModuleGetFunction(NULL) returns NULL");
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  printf("mgpuLaunchKernel(NULL): returned\n");
  mgpuModuleUnload(NULL);
  void *stream = mgpuStreamCreate();
  printf("mgpuStreamCreate: %s\n", orNull(stream));
  expect(!stream, "mgpuStreamCreate without a driver returns NULL");
  void *ptr = mgpuMemAlloc(64, NULL, false);
  printf("mgpuMemAlloc: %s\n", orNull(ptr));
  expect(!ptr, "mgpuMemAlloc without a driver returns NULL");
  mgpuMemset32(NULL, 0, 16, NULL);
  mgpuMemFree(NULL, NULL);

  // The sticky error keeps the first failure; a clear lets the next one in.
  expect(normCudaGetError() == error, "the first error stays");
  normCudaClearError();
  expect(!normCudaGetError(), "normCudaClearError clears");
  ptr = normCudaMalloc(64);
  printf("normCudaMalloc: %s\n", orNull(ptr));
  expect(!ptr, "normCudaMalloc without a driver returns NULL");
  error = normCudaGetError();
  printf("error after clear: %s\n", error ? error : "(none)");
  expect(error && strstr(error, "normCudaMalloc") &&
             strstr(error, "libcuda.so.1"),
         "the error comes back after a clear");

  char host[4] = {0};
  int rc = normCudaMemcpyHtoD(NULL, host, sizeof(host));
  printf("normCudaMemcpyHtoD: %s\n", rc ? "failed" : "succeeded");
  expect(rc != 0, "normCudaMemcpyHtoD without a driver fails");
  char name[64];
  rc = normCudaDeviceName(name, sizeof(name));
  printf("normCudaDeviceName: %s\n", rc ? "failed" : "succeeded");
  expect(rc != 0, "normCudaDeviceName without a driver fails");

  // The caller stream never reaches the driver: no new error.
  normCudaClearError();
  void *callerStream = (void *)0x1234;
  normCudaSetStream(callerStream);
  stream = mgpuStreamCreate();
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  printf("caller stream: %s, error %s\n",
         stream == callerStream ? "returned" : "not returned",
         normCudaGetError() ? "recorded" : "none");
  expect(stream == callerStream, "mgpuStreamCreate returns the caller stream");
  expect(normCudaGetStream() == callerStream, "normCudaGetStream");
  expect(!normCudaGetError(), "the caller stream is left to its owner");
  normCudaSetStream(NULL);
}

//===----------------------------------------------------------------------===//
// With a driver
//===----------------------------------------------------------------------===//

// out[i] += 1.0f for i < n: add_one(float *out, unsigned n).
static char addOnePtx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry add_one(.param .u64 add_one_out, .param .u32 add_one_n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .f32 %f<3>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [add_one_out];\n"
    "  ld.param.u32 %r2, [add_one_n];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "  setp.ge.u32 %p1, %r1, %r2;\n"
    "  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  add.f32 %f2, %f1, 0f3F800000;\n"
    "  st.global.f32 [%rd4], %f2;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

enum { numElements = 1000 };

/// Number of elements of `data` that differ from `value`.
static int countMismatches(const float *data, float value) {
  int mismatches = 0;
  for (int i = 0; i < numElements; ++i)
    mismatches += data[i] != value;
  return mismatches;
}

static void launchAddOne(void *function, void *deviceData, void *stream) {
  void *out = deviceData;
  unsigned n = numElements;
  void *params[] = {&out, &n};
  mgpuLaunchKernel(function, (numElements + 255) / 256, 1, 1, 256, 1, 1, 0,
                   stream, params, NULL, 2);
}

static void testWithDriver(void) {
  static float host[numElements];
  printf("=== device\n");
  char name[256];
  expect(normCudaDeviceName(name, sizeof(name)) == 0, "normCudaDeviceName");
  printf("device: %s\n", name);

  printf("=== memory\n");
  float *data = normCudaMalloc(sizeof(host));
  expect(data != NULL, "normCudaMalloc");
  for (int i = 0; i < numElements; ++i)
    host[i] = (float)i;
  expect(normCudaMemcpyHtoD(data, host, sizeof(host)) == 0,
         "normCudaMemcpyHtoD");
  memset(host, 0, sizeof(host));
  expect(normCudaMemcpyDtoH(host, data, sizeof(host)) == 0,
         "normCudaMemcpyDtoH");
  int mismatches = 0;
  for (int i = 0; i < numElements; ++i)
    mismatches += host[i] != (float)i;
  printf("HtoD/DtoH round trip: %s\n", mismatches ? "MISMATCH" : "OK");
  expect(!mismatches, "HtoD/DtoH round trip");

  void *stream = mgpuStreamCreate();
  expect(stream != NULL, "mgpuStreamCreate");
  mgpuMemset32(data, 0x3f800000u /* 1.0f */, numElements, stream);
  mgpuStreamSynchronize(stream);
  expect(normCudaMemcpyDtoH(host, data, sizeof(host)) == 0,
         "normCudaMemcpyDtoH");
  mismatches = countMismatches(host, 1.0f);
  printf("mgpuMemset32 on a stream: %s\n", mismatches ? "MISMATCH" : "OK");
  expect(!mismatches, "mgpuMemset32 sets every word");
  expect(!normCudaGetError(), "no error so far");

  printf("=== kernel\n");
  void *module = mgpuModuleLoadJIT(addOnePtx, 2);
  void *function = module ? mgpuModuleGetFunction(module, "add_one") : NULL;
  if (!function) {
    // sm_90 PTX does not load on older GPUs: not this runtime's failure.
    const char *error = normCudaGetError();
    printf("kernel add_one: SKIPPED (module load failed: %s)\n",
           error ? error : "no error recorded");
    expect(error != NULL, "a failed module load records an error");
    normCudaClearError();
  } else {
    launchAddOne(function, data, stream);
    mgpuStreamSynchronize(stream);
    expect(normCudaMemcpyDtoH(host, data, sizeof(host)) == 0,
           "normCudaMemcpyDtoH");
    mismatches = countMismatches(host, 2.0f);
    printf("kernel add_one: %s\n", mismatches ? "MISMATCH" : "OK");
    expect(!mismatches, "add_one adds 1 to every element");
  }
  void *missing = module ? mgpuModuleGetFunction(module, "no_such") : NULL;
  if (module) {
    const char *error = normCudaGetError();
    printf("missing kernel: %s, error %s\n", orNull(missing),
           error ? error : "(none)");
    expect(!missing && error, "an unknown kernel name is an error");
    normCudaClearError();
  }
  mgpuStreamDestroy(stream);

  printf("=== caller stream\n");
  void *callerStream = normCudaStreamCreate();
  expect(callerStream != NULL, "normCudaStreamCreate");
  normCudaSetStream(callerStream);
  stream = mgpuStreamCreate();
  printf("mgpuStreamCreate returns the caller stream: %s\n",
         stream == callerStream ? "yes" : "no");
  expect(stream == callerStream, "mgpuStreamCreate returns the caller stream");
  void *start = normCudaTimingEventCreate(), *end = normCudaTimingEventCreate();
  expect(start && end, "normCudaTimingEventCreate");
  expect(normCudaEventRecord(start, stream) == 0, "normCudaEventRecord");
  mgpuMemset32(data, 0x40400000u /* 3.0f */, numElements, stream);
  if (function)
    launchAddOne(function, data, stream);
  expect(normCudaEventRecord(end, stream) == 0, "normCudaEventRecord");
  mgpuStreamSynchronize(stream); // the caller's: does nothing
  mgpuStreamDestroy(stream);     // the caller's: does nothing
  expect(normCudaStreamSynchronize(callerStream) == 0,
         "normCudaStreamSynchronize on the caller stream (still alive)");
  float ms = -1.0f;
  expect(normCudaEventElapsedMs(start, end, &ms) == 0 && ms >= 0.0f,
         "normCudaEventElapsedMs");
  expect(normCudaMemcpyDtoH(host, data, sizeof(host)) == 0,
         "normCudaMemcpyDtoH");
  mismatches = countMismatches(host, function ? 4.0f : 3.0f);
  printf("work on the caller stream: %s\n", mismatches ? "MISMATCH" : "OK");
  expect(!mismatches, "work enqueued on the caller stream");
  normCudaSetStream(NULL);
  normCudaEventDestroy(start);
  normCudaEventDestroy(end);
  normCudaStreamDestroy(callerStream);

  expect(normCudaMemsetD8(data, 0, sizeof(host)) == 0, "normCudaMemsetD8");
  expect(normCudaDeviceSync() == 0, "normCudaDeviceSync");
  mgpuModuleUnload(module);
  normCudaFree(data);
  expect(!normCudaGetError(), "no error at the end");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--probe") == 0)
    return normCudaAvailable() ? 0 : 1;
  if (argc > 1) {
    fprintf(stderr, "usage: %s [--probe]\n", argv[0]);
    return 2;
  }
  if (normCudaAvailable()) {
    testWithDriver();
  } else {
    // normCudaAvailable's own failure is not under test here.
    normCudaClearError();
    testNoDriver();
  }
  if (failures) {
    printf("FAILED: %d expectation(s)\n", failures);
    return 1;
  }
  printf("ALL OK\n");
  return 0;
}
