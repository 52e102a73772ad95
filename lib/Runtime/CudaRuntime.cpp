//===- CudaRuntime.cpp - dlopen'ed CUDA driver runtime --------------------===//
//
// Part of the norm-mlir project.
//
// The mgpu* entry points of gpu-to-llvm host code and the normCuda* harness
// API over the CUDA driver API. libcuda.so.1 is dlopen'ed at first use and
// every function resolved with dlsym, so the library builds without the
// toolkit and loads without a GPU. Generated code loads its modules from a
// global constructor, before main: without a driver that must be a recorded
// error, never a message or an abort. The driver types and constants below
// are declared here, with the values of CUDA 13's cuda.h.
//
// Every entry point pushes the default device's primary context and pops it
// on return, so that a caller's own current context (a framework sharing the
// process) is left as it was.
//
//===----------------------------------------------------------------------===//

#include "norm/Runtime/CudaRuntime.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace {

//===----------------------------------------------------------------------===//
// Driver API declarations
//===----------------------------------------------------------------------===//

struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_OPTIMIZATION_LEVEL = 7;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
/// Dynamic shared memory a kernel gets without opting in.
constexpr int32_t defaultMaxDynamicSharedBytes = 48 * 1024;

/// CUlaunchAttribute: a 4-byte id padded to 8, then a 64-byte union whose
/// other members hold pointers (hence 8-byte aligned).
struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union alignas(8) {
    char pad[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute layout");

struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(CUlaunchConfig) == 56, "CUlaunchConfig layout");

// (member, exported symbol, parameters). The symbols are the ones cuda.h
// maps the API names to in CUDA 13 (without per-thread default streams).
#define NORM_CUDA_DRIVER_FUNCTIONS(X)                                          \
  X(cuInit, "cuInit", unsigned)                                                \
  X(cuGetErrorName, "cuGetErrorName", CUresult, const char **)                 \
  X(cuGetErrorString, "cuGetErrorString", CUresult, const char **)             \
  X(cuDeviceGetCount, "cuDeviceGetCount", int *)                               \
  X(cuDeviceGet, "cuDeviceGet", CUdevice *, int)                               \
  X(cuDeviceGetName, "cuDeviceGetName", char *, int, CUdevice)                 \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUcontext *,         \
    CUdevice)                                                                  \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", CUcontext)                        \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", CUcontext *)                        \
  X(cuCtxSynchronize, "cuCtxSynchronize", void)                                \
  X(cuModuleLoadData, "cuModuleLoadData", CUmodule *, const void *)            \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUmodule *, const void *,        \
    unsigned, int *, void **)                                                  \
  X(cuModuleUnload, "cuModuleUnload", CUmodule)                                \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUfunction *, CUmodule,        \
    const char *)                                                              \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", CUfunction, int, int)            \
  X(cuLaunchKernel, "cuLaunchKernel", CUfunction, unsigned, unsigned,          \
    unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **,       \
    void **)                                                                   \
  X(cuLaunchKernelEx, "cuLaunchKernelEx", const CUlaunchConfig *, CUfunction,  \
    void **, void **)                                                          \
  X(cuStreamCreate, "cuStreamCreate", CUstream *, unsigned)                    \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUstream)                           \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUstream)                      \
  X(cuStreamWaitEvent, "cuStreamWaitEvent", CUstream, CUevent, unsigned)       \
  X(cuEventCreate, "cuEventCreate", CUevent *, unsigned)                       \
  X(cuEventDestroy, "cuEventDestroy_v2", CUevent)                              \
  X(cuEventRecord, "cuEventRecord", CUevent, CUstream)                         \
  X(cuEventSynchronize, "cuEventSynchronize", CUevent)                         \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", float *, CUevent, CUevent)    \
  X(cuMemAlloc, "cuMemAlloc_v2", CUdeviceptr *, size_t)                        \
  X(cuMemAllocManaged, "cuMemAllocManaged", CUdeviceptr *, size_t, unsigned)   \
  X(cuMemFree, "cuMemFree_v2", CUdeviceptr)                                    \
  X(cuMemAllocAsync, "cuMemAllocAsync", CUdeviceptr *, size_t, CUstream)       \
  X(cuMemFreeAsync, "cuMemFreeAsync", CUdeviceptr, CUstream)                   \
  X(cuMemcpyAsync, "cuMemcpyAsync", CUdeviceptr, CUdeviceptr, size_t,          \
    CUstream)                                                                  \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUdeviceptr, const void *, size_t)        \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", void *, CUdeviceptr, size_t)              \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", CUdeviceptr, CUdeviceptr,       \
    size_t, CUstream)                                                          \
  X(cuMemsetD8, "cuMemsetD8_v2", CUdeviceptr, unsigned char, size_t)           \
  X(cuMemsetD16Async, "cuMemsetD16Async", CUdeviceptr, unsigned short, size_t, \
    CUstream)                                                                  \
  X(cuMemsetD32Async, "cuMemsetD32Async", CUdeviceptr, unsigned, size_t,       \
    CUstream)                                                                  \
  X(cuMemHostRegister, "cuMemHostRegister_v2", void *, size_t, unsigned)       \
  X(cuMemHostUnregister, "cuMemHostUnregister", void *)

/// The resolved driver; a member is null when libcuda.so.1 lacks it, and
/// fnSymbol is the name it was resolved under (for messages).
struct Driver {
#define NORM_CUDA_DECLARE(fn, symbol, ...)                                     \
  CUresult (*fn)(__VA_ARGS__) = nullptr;                                       \
  const char *fn##Symbol = symbol;
  NORM_CUDA_DRIVER_FUNCTIONS(NORM_CUDA_DECLARE)
#undef NORM_CUDA_DECLARE
};

//===----------------------------------------------------------------------===//
// Process state
//===----------------------------------------------------------------------===//

// All trivially destructible: generated code unloads its modules from a
// global destructor, which may run after ours would.

std::mutex errorMutex;
bool hasError = false; // guarded by errorMutex
char errorText[8192];  // the sticky error while hasError
std::once_flag driverOnce;
Driver drv;             // written once, under driverOnce
char driverError[1024]; // empty when the driver is usable
int deviceCount = 0;    // written once, under driverOnce
std::atomic<int> defaultDevice{0};
constexpr int maxDevices = 64;
std::atomic<CUcontext> primaryContexts[maxDevices]; // retained, never released
std::mutex contextMutex;                            // serializes retains
thread_local void *callerStream = nullptr;

__attribute__((format(printf, 1, 2))) void recordError(const char *format,
                                                       ...) {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (hasError)
    return;
  va_list args;
  va_start(args, format);
  vsnprintf(errorText, sizeof(errorText), format, args);
  va_end(args);
  hasError = true;
}

/// "CUDA_ERROR_X (n): description", with the driver's words when it has them.
void describeResult(CUresult result, char *buf, size_t size) {
  const char *name = nullptr, *text = nullptr;
  if (drv.cuGetErrorName && drv.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (drv.cuGetErrorString &&
      drv.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  snprintf(buf, size, "%s (%d): %s", name ? name : "CUresult", result,
           text ? text : "unknown error");
}

void recordResult(const char *caller, const char *symbol, CUresult result,
                  const char *detail = "") {
  char described[512];
  describeResult(result, described, sizeof(described));
  recordError("%s: %s failed with %s%s", caller, symbol, described, detail);
}

void recordMissing(const char *caller, const char *symbol) {
  recordError("%s: the CUDA driver (libcuda.so.1) does not export %s (driver "
              "too old?)",
              caller, symbol);
}

/// A driver function bound to the entry point that calls it: invoking it
/// returns true on success and records an error otherwise (a missing symbol
/// included).
template <typename... Params>
struct DriverCall {
  const char *caller;
  CUresult (*fn)(Params...);
  const char *symbol;

  bool operator()(Params... args) const {
    if (!fn) {
      recordMissing(caller, symbol);
      return false;
    }
    CUresult result = fn(args...);
    if (result == CUDA_SUCCESS)
      return true;
    recordResult(caller, symbol, result);
    return false;
  }
};

template <typename... Params>
DriverCall<Params...> bindDriver(const char *caller, CUresult (*fn)(Params...),
                                 const char *symbol) {
  return {caller, fn, symbol};
}

/// The driver function `fn`, reporting against the enclosing entry point.
#define CU(fn) bindDriver(__func__, drv.fn, drv.fn##Symbol)

void loadDriver() {
  // RTLD_LOCAL: the driver's symbols must not satisfy anyone else's lookups.
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(driverError, sizeof(driverError),
             "the CUDA driver (libcuda.so.1) was not found: %s",
             why ? why : "dlopen failed");
    return;
  }
#define NORM_CUDA_RESOLVE(fn, symbol, ...)                                     \
  drv.fn = reinterpret_cast<decltype(drv.fn)>(dlsym(handle, symbol));
  NORM_CUDA_DRIVER_FUNCTIONS(NORM_CUDA_RESOLVE)
#undef NORM_CUDA_RESOLVE
  // Drivers before 12.8 have only the unversioned name.
  if (!drv.cuEventElapsedTime) {
    drv.cuEventElapsedTime = reinterpret_cast<decltype(drv.cuEventElapsedTime)>(
        dlsym(handle, "cuEventElapsedTime"));
    drv.cuEventElapsedTimeSymbol = "cuEventElapsedTime";
  }

  // What every entry point needs; the others are checked where they are used.
  struct {
    bool present;
    const char *symbol;
  } required[] = {{drv.cuInit != nullptr, drv.cuInitSymbol},
                  {drv.cuDeviceGetCount != nullptr, drv.cuDeviceGetCountSymbol},
                  {drv.cuDeviceGet != nullptr, drv.cuDeviceGetSymbol},
                  {drv.cuDevicePrimaryCtxRetain != nullptr,
                   drv.cuDevicePrimaryCtxRetainSymbol},
                  {drv.cuCtxPushCurrent != nullptr, drv.cuCtxPushCurrentSymbol},
                  {drv.cuCtxPopCurrent != nullptr, drv.cuCtxPopCurrentSymbol}};
  for (const auto &function : required) {
    if (!function.present) {
      snprintf(driverError, sizeof(driverError),
               "the CUDA driver (libcuda.so.1) does not export %s",
               function.symbol);
      return;
    }
  }
  char described[512];
  if (CUresult result = drv.cuInit(0)) {
    describeResult(result, described, sizeof(described));
    snprintf(driverError, sizeof(driverError),
             "the CUDA driver (libcuda.so.1) failed to initialize: cuInit "
             "failed with %s",
             described);
    return;
  }
  if (CUresult result = drv.cuDeviceGetCount(&deviceCount)) {
    describeResult(result, described, sizeof(described));
    snprintf(driverError, sizeof(driverError),
             "the CUDA driver (libcuda.so.1) cannot count devices: "
             "cuDeviceGetCount failed with %s",
             described);
    return;
  }
  if (deviceCount <= 0)
    snprintf(driverError, sizeof(driverError),
             "the CUDA driver (libcuda.so.1) reports no CUDA device");
}

/// Loads the driver once; false (and `caller`'s error recorded) when it
/// cannot be used. Later calls report the same failure again, so that it
/// reappears after normCudaClearError.
bool driverReady(const char *caller) {
  std::call_once(driverOnce, loadDriver);
  if (!driverError[0])
    return true;
  recordError("%s: %s", caller, driverError);
  return false;
}

/// The default device's primary context, retained on first use.
CUcontext primaryContext(const char *caller) {
  int ordinal = defaultDevice.load(std::memory_order_relaxed);
  if (ordinal < 0 || ordinal >= deviceCount || ordinal >= maxDevices) {
    recordError("%s: no CUDA device %d (%d present)", caller, ordinal,
                deviceCount);
    return nullptr;
  }
  if (CUcontext context = primaryContexts[ordinal].load())
    return context;
  std::lock_guard<std::mutex> lock(contextMutex);
  if (CUcontext context = primaryContexts[ordinal].load())
    return context;
  CUdevice device;
  CUcontext context = nullptr;
  if (!bindDriver(caller, drv.cuDeviceGet, drv.cuDeviceGetSymbol)(&device,
                                                                  ordinal) ||
      !bindDriver(caller, drv.cuDevicePrimaryCtxRetain,
                  drv.cuDevicePrimaryCtxRetainSymbol)(&context, device))
    return nullptr;
  primaryContexts[ordinal].store(context);
  return context;
}

/// Makes the default device's primary context current for one entry point;
/// false when there is none (the reason recorded).
class ScopedContext {
public:
  explicit ScopedContext(const char *caller) {
    if (!driverReady(caller))
      return;
    CUcontext context = primaryContext(caller);
    pushed = context && bindDriver(caller, drv.cuCtxPushCurrent,
                                   drv.cuCtxPushCurrentSymbol)(context);
  }
  ~ScopedContext() {
    CUcontext popped;
    if (pushed)
      drv.cuCtxPopCurrent(&popped);
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  explicit operator bool() const { return pushed; }

private:
  bool pushed = false;
};

CUdeviceptr devicePtr(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

/// Launch dimensions must be positive and fit the driver's unsigned.
bool validDims(const char *caller, const char *what, intptr_t x, intptr_t y,
               intptr_t z) {
  auto fits = [](intptr_t v) {
    return v > 0 && static_cast<uint64_t>(v) <= UINT32_MAX;
  };
  if (fits(x) && fits(y) && fits(z))
    return true;
  recordError("%s: invalid %s dimensions (%lld, %lld, %lld)", caller, what,
              static_cast<long long>(x), static_cast<long long>(y),
              static_cast<long long>(z));
  return false;
}

/// A dimension validDims accepted, as the driver takes it.
unsigned dim(intptr_t value) { return static_cast<unsigned>(value); }

/// Opts a kernel into more than the default dynamic shared memory.
bool allowSharedMemory(const char *caller, CUfunction function, int32_t smem) {
  if (smem < 0) {
    recordError("%s: negative dynamic shared memory size %d", caller, smem);
    return false;
  }
  if (smem <= defaultMaxDynamicSharedBytes)
    return true;
  return bindDriver(caller, drv.cuFuncSetAttribute,
                    drv.cuFuncSetAttributeSymbol)(
      function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
}

/// The bytes a memref descriptor's elements span: from the lowest to the
/// highest reachable element (any stride signs). Empty memrefs span nothing.
bool memRefExtent(const char *caller, int64_t rank, void *descriptor,
                  int64_t elementBytes, char **begin, uint64_t *bytes) {
  struct Head {
    char *allocated;
    char *aligned;
    int64_t offset;
  };
  if (!descriptor || rank < 0 || elementBytes <= 0) {
    recordError("%s: invalid memref (descriptor %p, rank %lld, element size "
                "%lld)",
                caller, descriptor, static_cast<long long>(rank),
                static_cast<long long>(elementBytes));
    return false;
  }
  const auto *head = static_cast<const Head *>(descriptor);
  const auto *sizes = reinterpret_cast<const int64_t *>(head + 1);
  const int64_t *strides = sizes + rank;
  int64_t low = head->offset, high = head->offset;
  *begin = nullptr;
  *bytes = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0) {
      recordError("%s: negative memref size %lld", caller,
                  static_cast<long long>(sizes[d]));
      return false;
    }
    if (sizes[d] == 0)
      return true;
    int64_t span = (sizes[d] - 1) * strides[d];
    (span < 0 ? low : high) += span;
  }
  *begin = head->aligned + low * elementBytes;
  *bytes = static_cast<uint64_t>(high - low + 1) *
           static_cast<uint64_t>(elementBytes);
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Harness API
//===----------------------------------------------------------------------===//

extern "C" int normCudaAvailable(void) { return driverReady(__func__); }

extern "C" const char *normCudaGetError(void) {
  std::lock_guard<std::mutex> lock(errorMutex);
  return hasError ? errorText : nullptr;
}

extern "C" void normCudaClearError(void) {
  std::lock_guard<std::mutex> lock(errorMutex);
  hasError = false;
}

extern "C" void normCudaSetStream(void *stream) { callerStream = stream; }

extern "C" void *normCudaGetStream(void) { return callerStream; }

extern "C" void *normCudaMalloc(size_t bytes) {
  ScopedContext context(__func__);
  CUdeviceptr ptr = 0;
  // A 1-byte allocation for 0 bytes keeps NULL meaning failure.
  if (!context || !CU(cuMemAlloc)(&ptr, bytes ? bytes : 1))
    return nullptr;
  return reinterpret_cast<void *>(ptr);
}

extern "C" void normCudaFree(void *ptr) {
  if (!ptr)
    return;
  ScopedContext context(__func__);
  if (context)
    CU(cuMemFree)(devicePtr(ptr));
}

extern "C" int normCudaMemcpyHtoD(void *dst, const void *src, size_t bytes) {
  ScopedContext context(__func__);
  if (!context)
    return 1;
  if (!bytes)
    return 0;
  // From pageable memory the copy returns before its DMA completes, on the
  // legacy stream, which non-blocking streams do not wait for.
  return !(CU(cuMemcpyHtoD)(devicePtr(dst), src, bytes) &&
           CU(cuStreamSynchronize)(nullptr));
}

extern "C" int normCudaMemcpyDtoH(void *dst, const void *src, size_t bytes) {
  ScopedContext context(__func__);
  if (!context)
    return 1;
  // The copy runs on the legacy stream, which does not wait for non-blocking
  // streams: without this a result could be read before its kernel ran.
  if (!CU(cuCtxSynchronize)())
    return 1;
  return bytes && !CU(cuMemcpyDtoH)(dst, devicePtr(src), bytes);
}

extern "C" int normCudaMemcpyDtoDAsync(void *dst, const void *src, size_t bytes,
                                       void *stream) {
  ScopedContext context(__func__);
  if (!context)
    return 1;
  return bytes && !CU(cuMemcpyDtoDAsync)(devicePtr(dst), devicePtr(src), bytes,
                                         static_cast<CUstream>(stream));
}

extern "C" int normCudaMemsetD8(void *ptr, unsigned char value, size_t bytes) {
  ScopedContext context(__func__);
  if (!context)
    return 1;
  if (!bytes)
    return 0;
  // Like normCudaMemcpyHtoD: done on the legacy stream, so wait for it.
  return !(CU(cuMemsetD8)(devicePtr(ptr), value, bytes) &&
           CU(cuStreamSynchronize)(nullptr));
}

extern "C" void *normCudaStreamCreate(void) {
  ScopedContext context(__func__);
  CUstream stream = nullptr;
  if (!context || !CU(cuStreamCreate)(&stream, CU_STREAM_NON_BLOCKING))
    return nullptr;
  return stream;
}

extern "C" int normCudaStreamSynchronize(void *stream) {
  ScopedContext context(__func__);
  return !context || !CU(cuStreamSynchronize)(static_cast<CUstream>(stream));
}

extern "C" void normCudaStreamDestroy(void *stream) {
  if (!stream)
    return;
  ScopedContext context(__func__);
  if (context)
    CU(cuStreamDestroy)(static_cast<CUstream>(stream));
}

extern "C" void *normCudaTimingEventCreate(void) {
  ScopedContext context(__func__);
  CUevent event = nullptr;
  if (!context || !CU(cuEventCreate)(&event, CU_EVENT_DEFAULT))
    return nullptr;
  return event;
}

extern "C" int normCudaEventRecord(void *event, void *stream) {
  ScopedContext context(__func__);
  if (!context)
    return 1;
  if (!event) {
    recordError("%s: null event", __func__);
    return 1;
  }
  return !CU(cuEventRecord)(static_cast<CUevent>(event),
                            static_cast<CUstream>(stream));
}

extern "C" int normCudaEventElapsedMs(void *start, void *end, float *ms) {
  ScopedContext context(__func__);
  if (!context)
    return 1;
  if (!start || !end || !ms) {
    recordError("%s: null argument", __func__);
    return 1;
  }
  return !(CU(cuEventSynchronize)(static_cast<CUevent>(end)) &&
           CU(cuEventElapsedTime)(ms, static_cast<CUevent>(start),
                                  static_cast<CUevent>(end)));
}

extern "C" void normCudaEventDestroy(void *event) {
  if (!event)
    return;
  ScopedContext context(__func__);
  if (context)
    CU(cuEventDestroy)(static_cast<CUevent>(event));
}

extern "C" int normCudaDeviceName(char *buf, int len) {
  ScopedContext context(__func__);
  if (!context)
    return 1;
  if (!buf || len <= 0) {
    recordError("%s: no buffer", __func__);
    return 1;
  }
  CUdevice device;
  return !(CU(cuDeviceGet)(&device, defaultDevice.load()) &&
           CU(cuDeviceGetName)(buf, len, device));
}

extern "C" int normCudaDeviceSync(void) {
  ScopedContext context(__func__);
  return !context || !CU(cuCtxSynchronize)();
}

//===----------------------------------------------------------------------===//
// gpu-to-llvm entry points
//===----------------------------------------------------------------------===//

extern "C" void *mgpuModuleLoad(void *data, size_t /*size*/) {
  ScopedContext context(__func__);
  if (!context)
    return nullptr;
  if (!data) {
    recordError("%s: null module image", __func__);
    return nullptr;
  }
  CUmodule module = nullptr;
  if (!CU(cuModuleLoadData)(&module, data))
    return nullptr;
  return module;
}

extern "C" void *mgpuModuleLoadJIT(void *ptx, int optLevel) {
  ScopedContext context(__func__);
  if (!context)
    return nullptr;
  if (!ptx) {
    recordError("%s: null PTX", __func__);
    return nullptr;
  }
  if (!drv.cuModuleLoadDataEx) {
    recordMissing(__func__, drv.cuModuleLoadDataExSymbol);
    return nullptr;
  }
  // The JIT's error log is the only place that says what is wrong with the
  // PTX: keep it in the error.
  char log[4096] = "";
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUmodule module = nullptr;
  CUresult result = drv.cuModuleLoadDataEx(
      &module, ptx, sizeof(options) / sizeof(options[0]), options, values);
  if (result == CUDA_SUCCESS)
    return module;
  log[sizeof(log) - 1] = '\0';
  char detail[sizeof(log) + 16];
  snprintf(detail, sizeof(detail), "; JIT log: %s", log[0] ? log : "(empty)");
  recordResult(__func__, drv.cuModuleLoadDataExSymbol, result, detail);
  return nullptr;
}

extern "C" void mgpuModuleUnload(void *module) {
  if (!module)
    return;
  ScopedContext context(__func__);
  if (context)
    CU(cuModuleUnload)(static_cast<CUmodule>(module));
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  ScopedContext context(__func__);
  if (!context)
    return nullptr;
  if (!module || !name) {
    recordError("%s: null %s (did the module load fail?)", __func__,
                module ? "kernel name" : "module");
    return nullptr;
  }
  CUfunction function = nullptr;
  if (!CU(cuModuleGetFunction)(&function, static_cast<CUmodule>(module), name))
    return nullptr;
  return function;
}

/// The kernel of a launch, or null (with the error recorded) when the
/// function is missing or the dims or shared memory cannot be launched.
static CUfunction launchable(const char *caller, void *function, intptr_t gridX,
                             intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                             intptr_t blockY, intptr_t blockZ, int32_t smem) {
  auto *kernel = static_cast<CUfunction>(function);
  if (!kernel) {
    recordError("%s: null function (did the module load fail?)", caller);
    return nullptr;
  }
  if (!validDims(caller, "grid", gridX, gridY, gridZ) ||
      !validDims(caller, "block", blockX, blockY, blockZ) ||
      !allowSharedMemory(caller, kernel, smem))
    return nullptr;
  return kernel;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *stream, void **params, void **extra,
                                 size_t /*paramsCount*/) {
  ScopedContext context(__func__);
  if (!context)
    return;
  CUfunction kernel = launchable(__func__, function, gridX, gridY, gridZ,
                                 blockX, blockY, blockZ, smem);
  if (!kernel)
    return;
  CU(cuLaunchKernel)
  (kernel, dim(gridX), dim(gridY), dim(gridZ), dim(blockX), dim(blockY),
   dim(blockZ), static_cast<unsigned>(smem), static_cast<CUstream>(stream),
   params, extra);
}

extern "C" void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                                        intptr_t clusterY, intptr_t clusterZ,
                                        intptr_t gridX, intptr_t gridY,
                                        intptr_t gridZ, intptr_t blockX,
                                        intptr_t blockY, intptr_t blockZ,
                                        int32_t smem, void *stream,
                                        void **params, void **extra) {
  ScopedContext context(__func__);
  if (!context || !validDims(__func__, "cluster", clusterX, clusterY, clusterZ))
    return;
  CUfunction kernel = launchable(__func__, function, gridX, gridY, gridZ,
                                 blockX, blockY, blockZ, smem);
  if (!kernel)
    return;
  CUlaunchAttribute cluster = {};
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = dim(clusterX);
  cluster.value.clusterDim.y = dim(clusterY);
  cluster.value.clusterDim.z = dim(clusterZ);
  CUlaunchConfig config = {};
  config.gridDimX = dim(gridX);
  config.gridDimY = dim(gridY);
  config.gridDimZ = dim(gridZ);
  config.blockDimX = dim(blockX);
  config.blockDimY = dim(blockY);
  config.blockDimZ = dim(blockZ);
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = static_cast<CUstream>(stream);
  config.attrs = &cluster;
  config.numAttrs = 1;
  CU(cuLaunchKernelEx)(&config, kernel, params, extra);
}

extern "C" void *mgpuStreamCreate(void) {
  if (callerStream)
    return callerStream;
  ScopedContext context(__func__);
  CUstream stream = nullptr;
  if (!context || !CU(cuStreamCreate)(&stream, CU_STREAM_NON_BLOCKING))
    return nullptr;
  return stream;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  if (!stream || stream == callerStream)
    return;
  ScopedContext context(__func__);
  if (context)
    CU(cuStreamDestroy)(static_cast<CUstream>(stream));
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  if (stream && stream == callerStream)
    return;
  ScopedContext context(__func__);
  if (context)
    CU(cuStreamSynchronize)(static_cast<CUstream>(stream));
}

/// Whether `handle` (a `what`) is set; records the error if not.
static bool present(const void *handle, const char *caller, const char *what) {
  if (!handle)
    recordError("%s: null %s", caller, what);
  return handle != nullptr;
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  ScopedContext context(__func__);
  if (!context || !present(event, __func__, "event"))
    return;
  CU(cuStreamWaitEvent)
  (static_cast<CUstream>(stream), static_cast<CUevent>(event), 0);
}

extern "C" void *mgpuEventCreate(void) {
  ScopedContext context(__func__);
  CUevent event = nullptr;
  if (!context || !CU(cuEventCreate)(&event, CU_EVENT_DISABLE_TIMING))
    return nullptr;
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  if (!event)
    return;
  ScopedContext context(__func__);
  if (context)
    CU(cuEventDestroy)(static_cast<CUevent>(event));
}

extern "C" void mgpuEventSynchronize(void *event) {
  ScopedContext context(__func__);
  if (!context || !present(event, __func__, "event"))
    return;
  CU(cuEventSynchronize)(static_cast<CUevent>(event));
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  ScopedContext context(__func__);
  if (!context || !present(event, __func__, "event"))
    return;
  CU(cuEventRecord)(static_cast<CUevent>(event), static_cast<CUstream>(stream));
}

// Generated code allocates per call what its kernels need between launches
// (the split reduction's workspace) on the stream of the launches: stream
// ordered where the driver can (CUDA 11.2+), so that calls on different
// streams each have their own and nothing waits for the device.
extern "C" void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared) {
  ScopedContext context(__func__);
  if (!context || !bytes)
    return nullptr;
  CUdeviceptr ptr = 0;
  bool ok = false;
  if (isHostShared)
    ok = CU(cuMemAllocManaged)(&ptr, bytes, CU_MEM_ATTACH_GLOBAL);
  else if (stream && drv.cuMemAllocAsync)
    ok = CU(cuMemAllocAsync)(&ptr, bytes, static_cast<CUstream>(stream));
  else
    ok = CU(cuMemAlloc)(&ptr, bytes);
  return ok ? reinterpret_cast<void *>(ptr) : nullptr;
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  ScopedContext context(__func__);
  if (!context)
    return;
  if (stream && drv.cuMemFreeAsync) {
    CU(cuMemFreeAsync)(devicePtr(ptr), static_cast<CUstream>(stream));
    return;
  }
  // Without stream-ordered frees, the launches that use the memory finish
  // first.
  if (stream)
    CU(cuStreamSynchronize)(static_cast<CUstream>(stream));
  CU(cuMemFree)(devicePtr(ptr));
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  ScopedContext context(__func__);
  if (context && bytes)
    CU(cuMemcpyAsync)
    (devicePtr(dst), devicePtr(src), bytes, static_cast<CUstream>(stream));
}

extern "C" void mgpuMemset32(void *dst, unsigned value, size_t count,
                             void *stream) {
  ScopedContext context(__func__);
  if (context && count)
    CU(cuMemsetD32Async)
    (devicePtr(dst), value, count, static_cast<CUstream>(stream));
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  ScopedContext context(__func__);
  if (context && count)
    CU(cuMemsetD16Async)
    (devicePtr(dst), value, count, static_cast<CUstream>(stream));
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t bytes) {
  ScopedContext context(__func__);
  if (context && ptr && bytes)
    CU(cuMemHostRegister)(ptr, bytes, /*Flags=*/0);
}

extern "C" void mgpuMemHostUnregister(void *ptr) {
  ScopedContext context(__func__);
  if (context && ptr)
    CU(cuMemHostUnregister)(ptr);
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementBytes) {
  char *begin;
  uint64_t bytes;
  if (memRefExtent(__func__, rank, descriptor, elementBytes, &begin, &bytes))
    mgpuMemHostRegister(begin, bytes);
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementBytes) {
  char *begin;
  uint64_t bytes;
  if (memRefExtent(__func__, rank, descriptor, elementBytes, &begin, &bytes))
    mgpuMemHostUnregister(begin);
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice.store(device);
}
