//===- CudaRuntime.h - CUDA runtime for generated host code ------*- C -*-===//
//
// Part of the norm-mlir project.
//
// The C entry points of libnorm_cuda_runtime: the mgpu* functions that MLIR's
// gpu-to-llvm host code calls, and a normCuda* API for harnesses and C
// launchers. The library dlopens the CUDA driver (libcuda.so.1) at first use,
// so it links and loads on machines without CUDA. No function aborts or
// prints: a failure returns a null handle (or nonzero) and the first error is
// kept in a process-wide sticky message, normCudaGetError(). Handles are the
// driver's (CUmodule, CUfunction, CUstream, CUevent, CUdeviceptr as a pointer)
// behind void *. Plain C: usable from C and C++.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_RUNTIME_CUDARUNTIME_H
#define NORM_RUNTIME_CUDARUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NORM_CUDA_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Harness API
//===----------------------------------------------------------------------===//

/// 1 when libcuda.so.1 loads, cuInit succeeds and there is a device; else 0
/// with the reason in normCudaGetError().
NORM_CUDA_EXPORT int normCudaAvailable(void);
/// The first error since the last clear, or NULL; valid until the next clear.
NORM_CUDA_EXPORT const char *normCudaGetError(void);
/// Forgets the sticky error so that the next failure is recorded.
NORM_CUDA_EXPORT void normCudaClearError(void);

/// Sets this thread's caller stream (NULL: none). While set, mgpuStreamCreate
/// returns it and mgpuStreamSynchronize/mgpuStreamDestroy on it do nothing:
/// the generated code enqueues on it and the caller synchronizes it.
NORM_CUDA_EXPORT void normCudaSetStream(void *stream);
/// This thread's caller stream, or NULL.
NORM_CUDA_EXPORT void *normCudaGetStream(void);

/// Allocates device memory (0 bytes allocates 1); NULL on failure.
NORM_CUDA_EXPORT void *normCudaMalloc(size_t bytes);
/// Frees normCudaMalloc/mgpuMemAlloc memory; NULL does nothing.
NORM_CUDA_EXPORT void normCudaFree(void *ptr);
/// Copies host to device; returns when the data is on the device.
NORM_CUDA_EXPORT int normCudaMemcpyHtoD(void *dst, const void *src,
                                        size_t bytes);
/// Waits for all work on the device, then copies device to host.
NORM_CUDA_EXPORT int normCudaMemcpyDtoH(void *dst, const void *src,
                                        size_t bytes);
/// Enqueues a device-to-device copy on `stream`.
NORM_CUDA_EXPORT int normCudaMemcpyDtoDAsync(void *dst, const void *src,
                                             size_t bytes, void *stream);
/// Sets `bytes` bytes of device memory to `value`; returns when done.
NORM_CUDA_EXPORT int normCudaMemsetD8(void *ptr, unsigned char value,
                                      size_t bytes);
/// Creates a stream that does not synchronize with the legacy NULL stream.
NORM_CUDA_EXPORT void *normCudaStreamCreate(void);
/// Waits for all work enqueued on `stream`.
NORM_CUDA_EXPORT int normCudaStreamSynchronize(void *stream);
/// Destroys a normCudaStreamCreate stream; NULL does nothing.
NORM_CUDA_EXPORT void normCudaStreamDestroy(void *stream);
/// Creates an event with timing enabled (mgpuEventCreate's events have none).
NORM_CUDA_EXPORT void *normCudaTimingEventCreate(void);
/// Records `event` on `stream`.
NORM_CUDA_EXPORT int normCudaEventRecord(void *event, void *stream);
/// Waits for `end`, then stores the milliseconds from `start` to `end`.
NORM_CUDA_EXPORT int normCudaEventElapsedMs(void *start, void *end, float *ms);
/// Destroys an event; NULL does nothing.
NORM_CUDA_EXPORT void normCudaEventDestroy(void *event);
/// Writes the default device's name (NUL-terminated) into buf[0, len).
NORM_CUDA_EXPORT int normCudaDeviceName(char *buf, int len);
/// Waits for all work on the default device.
NORM_CUDA_EXPORT int normCudaDeviceSync(void);

//===----------------------------------------------------------------------===//
// Entry points of gpu-to-llvm host code (MLIR 22.1)
//===----------------------------------------------------------------------===//

/// Loads a cubin or fatbin image (size unused: the driver reads the header).
NORM_CUDA_EXPORT void *mgpuModuleLoad(void *data, size_t size);
/// JIT-compiles NUL-terminated PTX at `optLevel`; the JIT log goes into the
/// error.
NORM_CUDA_EXPORT void *mgpuModuleLoadJIT(void *ptx, int optLevel);
/// Unloads a module; NULL does nothing.
NORM_CUDA_EXPORT void mgpuModuleUnload(void *module);
/// Looks up kernel `name` in `module`.
NORM_CUDA_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
/// Launches `function`; params[i] points to kernel argument i.
NORM_CUDA_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                       intptr_t gridY, intptr_t gridZ,
                                       intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem,
                                       void *stream, void **params,
                                       void **extra, size_t paramsCount);
/// Launches `function` with thread-block clusters of clusterX*Y*Z blocks.
NORM_CUDA_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra);
/// Creates a non-blocking stream, or returns the caller stream when set.
NORM_CUDA_EXPORT void *mgpuStreamCreate(void);
/// Destroys a stream (not the caller stream).
NORM_CUDA_EXPORT void mgpuStreamDestroy(void *stream);
/// Waits for a stream (not the caller stream: its owner does).
NORM_CUDA_EXPORT void mgpuStreamSynchronize(void *stream);
/// Makes future work on `stream` wait for `event`.
NORM_CUDA_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
/// Creates an event without timing.
NORM_CUDA_EXPORT void *mgpuEventCreate(void);
/// Destroys an event; NULL does nothing.
NORM_CUDA_EXPORT void mgpuEventDestroy(void *event);
/// Waits for an event.
NORM_CUDA_EXPORT void mgpuEventSynchronize(void *event);
/// Records `event` on `stream`.
NORM_CUDA_EXPORT void mgpuEventRecord(void *event, void *stream);
/// Allocates device memory, or managed memory when `isHostShared`; 0 bytes
/// gives NULL without an error.
NORM_CUDA_EXPORT void *mgpuMemAlloc(uint64_t bytes, void *stream,
                                    bool isHostShared);
/// Frees device memory; NULL does nothing.
NORM_CUDA_EXPORT void mgpuMemFree(void *ptr, void *stream);
/// Enqueues a copy between any two addresses (unified addressing).
NORM_CUDA_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes,
                                 void *stream);
/// Enqueues setting `count` 32-bit words to `value`.
NORM_CUDA_EXPORT void mgpuMemset32(void *dst, unsigned value, size_t count,
                                   void *stream);
/// Enqueues setting `count` 16-bit words to `value`.
NORM_CUDA_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                   size_t count, void *stream);
/// Page-locks host memory and maps it for the device.
NORM_CUDA_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t bytes);
/// Undoes mgpuMemHostRegister.
NORM_CUDA_EXPORT void mgpuMemHostUnregister(void *ptr);
/// Registers the elements a memref descriptor ({allocated, aligned, offset,
/// sizes[rank], strides[rank]}) can reach.
NORM_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                int64_t elementBytes);
/// Undoes mgpuMemHostRegisterMemRef.
NORM_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                  void *descriptor,
                                                  int64_t elementBytes);
/// Selects the device (ordinal) that later calls use.
NORM_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // NORM_RUNTIME_CUDARUNTIME_H
