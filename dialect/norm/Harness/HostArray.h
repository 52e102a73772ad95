//===- HostArray.h - host arrays, dtypes and .npy files ---------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// Plain host-side arrays for the runtime harness: the four element types of
// the norm dialect, exact conversions to and from double (round to nearest
// even), and .npy reading and writing. No MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_HARNESS_HOSTARRAY_H
#define NORM_HARNESS_HOSTARRAY_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace norm {

/// Element types. bf16 travels in .npy files as little-endian uint16 ('<u2')
/// holding the bf16 bits; f16 is '<f2', f32 '<f4', f64 '<f8'.
enum class DType { F16, BF16, F32, F64 };

/// Bytes per element.
unsigned dtypeSize(DType dtype);
/// "f16", "bf16", "f32", "f64".
const char *dtypeName(DType dtype);
/// Unit roundoff-related constants of §2.2 of numerics.md: the machine
/// epsilon (2^-10 f16, 2^-7 bf16, 2^-23 f32, 2^-52 f64) and the smallest
/// positive subnormal.
double dtypeEpsilon(DType dtype);
double dtypeMinSubnormal(DType dtype);
/// Rounds `value` to the nearest value representable in `dtype` (ties to
/// even; overflow to ±inf; NaN stays NaN).
double roundTo(DType dtype, double value);

/// Allocates on cache-line (64-byte) boundaries, as ML frameworks do, so
/// that kernels see the alignment they would see in production.
template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(
        ::operator new(n * sizeof(T), std::align_val_t(64)));
  }
  void deallocate(T *p, size_t) { ::operator delete(p, std::align_val_t(64)); }
  bool operator==(const CacheLineAllocator &) const { return true; }
  bool operator!=(const CacheLineAllocator &) const { return false; }
};

/// A dense, C-contiguous (row-major) array.
struct HostArray {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t, CacheLineAllocator<uint8_t>> bytes;

  HostArray() = default;
  /// A zero-filled array.
  HostArray(DType dtype, std::vector<int64_t> shape);
  /// A zero-filled array, or an error (never an abort) when the extents are
  /// negative, the byte size overflows or the memory cannot be had.
  static llvm::Expected<HostArray> allocate(DType dtype,
                                            std::vector<int64_t> shape);

  int64_t numElements() const;
  /// Reads element `i` (linear index) as a double (exact).
  double get(int64_t i) const;
  /// Writes element `i`, rounding `value` to the dtype.
  void set(int64_t i, double value);
  void *data() { return bytes.data(); }
  const void *data() const { return bytes.data(); }
  /// Row-major strides in elements.
  std::vector<int64_t> strides() const;
};

/// The byte size of a row-major array of `shape` with elements of
/// `elementBytes`, or nothing when an extent is negative or the size
/// overflows int64 (an empty array is 0 bytes whatever its other extents).
std::optional<int64_t> checkedByteSize(const std::vector<int64_t> &shape,
                                       int64_t elementBytes);
/// The machine's memory in bytes (0 when unknown).
uint64_t physicalMemory();
/// A byte count as "1.5 GiB".
std::string formatBytes(double bytes);

/// Reads a .npy file (format 1.0/2.0/3.0, C order, little-endian) holding
/// f16, f32, f64 or uint16 (= bf16 bits, only when `bf16FromU2`). Errors name
/// the file and what is wrong (bad magic, Fortran order, unsupported dtype,
/// truncated data, ...).
llvm::Expected<HostArray> readNpy(const std::string &path,
                                  bool bf16FromU2 = true);
/// Parses the bytes of a .npy file, with errors naming `path`, as readNpy
/// does after reading a regular file.
llvm::Expected<HostArray>
parseNpy(llvm::StringRef file, const std::string &path, bool bf16FromU2 = true);
/// Writes `array` as a version 1.0 .npy file.
llvm::Error writeNpy(const std::string &path, const HostArray &array);

} // namespace norm
} // namespace mlir

#endif // NORM_HARNESS_HOSTARRAY_H
