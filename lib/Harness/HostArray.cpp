//===- HostArray.cpp - host arrays, dtypes and .npy files -----------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/HostArray.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <unistd.h>

using namespace mlir;
using namespace mlir::norm;

//===----------------------------------------------------------------------===//
// Bit-level conversions
//===----------------------------------------------------------------------===//

static uint64_t doubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// Encodes `value` in a binary format with `expBits` exponent bits and
/// `mantBits` stored mantissa bits (f16: 5/10, bf16: 8/7), rounding directly
/// from double to nearest, ties to even. Going through float first would
/// round twice and get some ties wrong.
static uint16_t encodeSmallFloat(double value, unsigned expBits,
                                 unsigned mantBits) {
  uint64_t bits = doubleBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 63) << (expBits + mantBits));
  unsigned exp = static_cast<unsigned>((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
  uint16_t expMask = static_cast<uint16_t>((1u << expBits) - 1);
  uint16_t infBits = static_cast<uint16_t>(expMask << mantBits);

  if (exp == 0x7ff) {
    if (mant == 0)
      return sign | infBits;
    // Quiet NaN; keep the top payload bits so NaN-boxing survives.
    uint16_t payload = static_cast<uint16_t>(mant >> (52 - mantBits));
    return sign | infBits | static_cast<uint16_t>(1u << (mantBits - 1)) |
           payload;
  }
  // Double subnormals are far below half the smallest f16/bf16 subnormal.
  if (exp == 0)
    return sign;

  int bias = (1 << (expBits - 1)) - 1;
  int targetExp = static_cast<int>(exp) - 1023 + bias; // biased
  uint64_t sig = mant | (uint64_t(1) << 52);           // 53 bits
  // Number of low bits of `sig` that do not fit; subnormal targets lose
  // `1 - targetExp` more.
  int shift = 52 - static_cast<int>(mantBits);
  if (targetExp <= 0)
    shift += 1 - targetExp;
  if (shift > 54)
    return sign; // below half the smallest subnormal
  uint64_t q = sig >> shift;
  uint64_t rem = sig & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1)))
    ++q;
  uint64_t result;
  if (targetExp <= 0) {
    // A carry into bit `mantBits` yields the smallest normal, which is the
    // right encoding as is.
    result = q;
  } else {
    // q includes the hidden bit; a carry out of the mantissa bumps the
    // exponent field through the addition.
    result = (uint64_t(targetExp) << mantBits) + q - (uint64_t(1) << mantBits);
    if (result >= infBits)
      return sign | infBits;
  }
  return sign | static_cast<uint16_t>(result);
}

static double decodeSmallFloat(uint16_t bits, unsigned expBits,
                               unsigned mantBits) {
  bool negative = (bits >> (expBits + mantBits)) & 1;
  unsigned expMask = (1u << expBits) - 1;
  unsigned exp = (bits >> mantBits) & expMask;
  unsigned mant = bits & ((1u << mantBits) - 1);
  int bias = (1 << (expBits - 1)) - 1;
  double value;
  if (exp == expMask)
    value = mant ? std::numeric_limits<double>::quiet_NaN()
                 : std::numeric_limits<double>::infinity();
  else if (exp == 0)
    value = std::ldexp(static_cast<double>(mant), 1 - bias - int(mantBits));
  else
    value = std::ldexp(static_cast<double>(mant | (1u << mantBits)),
                       int(exp) - bias - int(mantBits));
  return negative ? -value : value;
}

static uint16_t toF16Bits(double v) { return encodeSmallFloat(v, 5, 10); }
static uint16_t toBF16Bits(double v) { return encodeSmallFloat(v, 8, 7); }
static double fromF16Bits(uint16_t b) { return decodeSmallFloat(b, 5, 10); }
static double fromBF16Bits(uint16_t b) { return decodeSmallFloat(b, 8, 7); }

//===----------------------------------------------------------------------===//
// DType helpers
//===----------------------------------------------------------------------===//

namespace {
/// The storage format of a dtype: its name, bytes, stored mantissa bits and
/// smallest normal exponent.
struct DTypeFormat {
  const char *name;
  unsigned bytes;
  int mantissaBits;
  int minExponent;
};
} // namespace

static const DTypeFormat &formatOf(DType dtype) {
  // In DType's order.
  static const DTypeFormat formats[] = {{"f16", 2, 10, -14},
                                        {"bf16", 2, 7, -126},
                                        {"f32", 4, 23, -126},
                                        {"f64", 8, 52, -1022}};
  return formats[static_cast<unsigned>(dtype)];
}

unsigned mlir::norm::dtypeSize(DType dtype) { return formatOf(dtype).bytes; }

const char *mlir::norm::dtypeName(DType dtype) { return formatOf(dtype).name; }

double mlir::norm::dtypeEpsilon(DType dtype) {
  return std::ldexp(1.0, -formatOf(dtype).mantissaBits);
}

double mlir::norm::dtypeMinSubnormal(DType dtype) {
  const DTypeFormat &format = formatOf(dtype);
  return std::ldexp(1.0, format.minExponent - format.mantissaBits);
}

double mlir::norm::roundTo(DType dtype, double value) {
  switch (dtype) {
  case DType::F16:
    return fromF16Bits(toF16Bits(value));
  case DType::BF16:
    return fromBF16Bits(toBF16Bits(value));
  case DType::F32: {
    // In range, the double -> float conversion rounds to nearest even (IEEE
    // default). Out of range it is undefined in C++, so overflow is explicit:
    // from FLT_MAX + half an ulp on (a tie, odd FLT_MAX) the result is inf.
    double a = std::fabs(value);
    if (a > double(std::numeric_limits<float>::max()) && !std::isnan(a))
      return std::copysign(a >= 0x1.ffffffp127
                               ? std::numeric_limits<double>::infinity()
                               : double(std::numeric_limits<float>::max()),
                           value);
    return static_cast<double>(static_cast<float>(value));
  }
  case DType::F64:
    return value;
  }
  llvm_unreachable("unknown dtype");
}

//===----------------------------------------------------------------------===//
// HostArray
//===----------------------------------------------------------------------===//

static std::string formatShapeOf(const std::vector<int64_t> &shape) {
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s.empty() ? "()" : s;
}

static int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

HostArray::HostArray(DType dtype, std::vector<int64_t> shape)
    : dtype(dtype), shape(std::move(shape)) {
  bytes.assign(static_cast<size_t>(numElements()) * dtypeSize(dtype), 0);
}

int64_t HostArray::numElements() const { return product(shape); }

uint64_t mlir::norm::physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
}

std::string mlir::norm::formatBytes(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 6) {
    bytes /= 1024;
    ++unit;
  }
  return llvm::formatv("{0:f1} {1}", bytes, units[unit]).str();
}

std::optional<int64_t>
mlir::norm::checkedByteSize(const std::vector<int64_t> &shape,
                            int64_t elementBytes) {
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return std::nullopt;
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t bytes = elementBytes;
  for (int64_t d : shape)
    if (llvm::MulOverflow(bytes, d, bytes))
      return std::nullopt;
  return bytes;
}

llvm::Expected<HostArray> HostArray::allocate(DType dtype,
                                              std::vector<int64_t> shape) {
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return llvm::createStringError("cannot allocate an array of shape " +
                                   formatShapeOf(shape) +
                                   " with a negative extent");
  std::optional<int64_t> size = checkedByteSize(shape, dtypeSize(dtype));
  if (!size)
    return llvm::createStringError("cannot allocate an array of shape " +
                                   formatShapeOf(shape) +
                                   ": its byte size overflows 64 bits");
  uint64_t bytes = *size;
  uint64_t memory = physicalMemory();
  // Refuse what cannot fit rather than let the allocator abort the process.
  void *probe = nullptr;
  if (bytes > 0 &&
      ((memory && bytes > memory) || !(probe = std::malloc(bytes))))
    return llvm::createStringError(
        "cannot allocate " + formatBytes(double(bytes)) +
        " for an array of "
        "shape " +
        formatShapeOf(shape) +
        (memory ? " (this machine has " + formatBytes(double(memory)) + ")"
                : std::string()));
  std::free(probe);
  return HostArray(dtype, std::move(shape));
}

double HostArray::get(int64_t i) const {
  const uint8_t *p = bytes.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return fromF16Bits(b);
  }
  case DType::BF16: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return fromBF16Bits(b);
  }
  case DType::F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DType::F64: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  }
  llvm_unreachable("unknown dtype");
}

void HostArray::set(int64_t i, double value) {
  uint8_t *p = bytes.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t b = toF16Bits(value);
    std::memcpy(p, &b, 2);
    return;
  }
  case DType::BF16: {
    uint16_t b = toBF16Bits(value);
    std::memcpy(p, &b, 2);
    return;
  }
  case DType::F32: {
    float f = static_cast<float>(roundTo(DType::F32, value));
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::F64:
    std::memcpy(p, &value, 8);
    return;
  }
  llvm_unreachable("unknown dtype");
}

std::vector<int64_t> HostArray::strides() const {
  std::vector<int64_t> result(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    result[d] = result[d + 1] * shape[d + 1];
  return result;
}

//===----------------------------------------------------------------------===//
// .npy header parsing
//===----------------------------------------------------------------------===//

namespace {
/// A parser for the Python dict literal of an .npy header, e.g.
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }`.
struct HeaderParser {
  llvm::StringRef text;
  std::string error;

  void skipSpace() { text = text.ltrim(" \t\r\n"); }
  bool consume(char c) {
    skipSpace();
    if (!text.consume_front(llvm::StringRef(&c, 1)))
      return fail(std::string("expected '") + c + "'");
    return true;
  }
  bool tryConsume(char c) {
    skipSpace();
    return text.consume_front(llvm::StringRef(&c, 1));
  }
  bool fail(const std::string &message) {
    if (error.empty())
      error = message + " at '" + text.take_front(20).str() + "'";
    return false;
  }
  bool parseString(std::string &out) {
    skipSpace();
    if (text.empty() || (text.front() != '\'' && text.front() != '"'))
      return fail("expected a string");
    char quote = text.front();
    size_t end = text.find(quote, 1);
    if (end == llvm::StringRef::npos)
      return fail("unterminated string");
    out = text.slice(1, end).str();
    text = text.drop_front(end + 1);
    return true;
  }
  bool parseBool(bool &out) {
    skipSpace();
    if (text.consume_front("True"))
      out = true;
    else if (text.consume_front("False"))
      out = false;
    else
      return fail("expected True or False");
    return true;
  }
  bool parseShape(std::vector<int64_t> &out) {
    if (!consume('('))
      return false;
    out.clear();
    while (true) {
      skipSpace();
      if (tryConsume(')'))
        return true;
      size_t len = 0;
      while (len < text.size() && llvm::isDigit(text[len]))
        ++len;
      // Python may print longs as "3L" in old files.
      uint64_t value;
      if (len == 0 || len > 18 || text.take_front(len).getAsInteger(10, value))
        return fail("expected a non-negative dimension");
      out.push_back(static_cast<int64_t>(value));
      text = text.drop_front(len);
      text.consume_front("L");
      skipSpace();
      if (tryConsume(')')) {
        // A 1-tuple must be written "(n,)"; Python would read "(n)" as n.
        if (out.size() == 1)
          return fail("a one-dimensional shape must be written '(n,)'");
        return true;
      }
      if (!consume(','))
        return false;
    }
  }
};
} // namespace

static llvm::Error npyError(const std::string &path, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + msg);
}

/// Maps a descr string to a dtype, or explains why it is not supported.
static llvm::Expected<DType>
parseDescr(const std::string &path, llvm::StringRef descr, bool bf16FromU2) {
  if (descr.size() < 2)
    return npyError(path, "unsupported dtype '" + descr + "'");
  char order = descr.front();
  llvm::StringRef kind = descr.drop_front();
  if (order == '>' || (order == '=' && !llvm::sys::IsLittleEndianHost))
    return npyError(path, "big-endian data ('" + descr +
                              "') is not supported; only little-endian");
  // '<' and '=' (native = little on supported hosts) are meaningful for our
  // multi-byte types; numpy's own parser also reads '|' as native.
  if (order != '<' && order != '=' && order != '|')
    return npyError(path, "unsupported dtype '" + descr +
                              "' (expected a byte-order character)");
  if (kind == "f2")
    return DType::F16;
  if (kind == "f4")
    return DType::F32;
  if (kind == "f8")
    return DType::F64;
  if (kind == "u2" && bf16FromU2)
    return DType::BF16;
  return npyError(path, "unsupported dtype '" + descr +
                            "' (expected '<f2', '<f4', '<f8' or '<u2' for "
                            "bf16 bits)");
}

llvm::Expected<HostArray> mlir::norm::readNpy(const std::string &path,
                                              bool bf16FromU2) {
  if (!llvm::sys::IsLittleEndianHost)
    return npyError(path, ".npy reading needs a little-endian host");
  // A pipe or a device has no size to bound the read by (and /dev/zero never
  // ends): .npy files only.
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return npyError(path, "cannot open: " + ec.message());
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return npyError(path, "not a regular file (a pipe, device or directory); "
                          ".npy inputs are read from files");
  auto bufferOrErr = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                 /*RequiresNullTerminator=*/
                                                 false);
  if (!bufferOrErr)
    return npyError(path, "cannot open: " + bufferOrErr.getError().message());
  return parseNpy((*bufferOrErr)->getBuffer(), path, bf16FromU2);
}

llvm::Expected<HostArray> mlir::norm::parseNpy(llvm::StringRef file,
                                               const std::string &path,
                                               bool bf16FromU2) {
  static const char magic[] = "\x93NUMPY";
  if (file.size() < 8 || !file.starts_with(llvm::StringRef(magic, 6)))
    return npyError(path, "bad magic: not an .npy file");
  unsigned major = static_cast<uint8_t>(file[6]);
  unsigned minor = static_cast<uint8_t>(file[7]);
  if (major < 1 || major > 3 || minor != 0)
    return npyError(path, "unsupported .npy format version " +
                              llvm::Twine(major) + "." + llvm::Twine(minor));
  size_t lenBytes = major == 1 ? 2 : 4;
  if (file.size() < 8 + lenBytes)
    return npyError(path, "truncated header");
  uint64_t headerLen = major == 1
                           ? llvm::support::endian::read16le(file.data() + 8)
                           : llvm::support::endian::read32le(file.data() + 8);
  size_t dataOffset = 8 + lenBytes + headerLen;
  if (file.size() < dataOffset)
    return npyError(path, "truncated header (header length " +
                              llvm::Twine(headerLen) + ", file size " +
                              llvm::Twine(file.size()) + ")");

  // Version 3.0 headers are UTF-8; the keys and values we accept are ASCII
  // either way.
  HeaderParser parser{file.slice(8 + lenBytes, dataOffset), {}};
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  bool seenDescr = false, seenOrder = false, seenShape = false;
  bool ok = parser.consume('{');
  while (ok) {
    if (parser.tryConsume('}'))
      break;
    std::string key;
    ok = parser.parseString(key) && parser.consume(':');
    if (!ok)
      break;
    if (key == "descr") {
      parser.skipSpace();
      if (parser.text.starts_with("["))
        return npyError(path, "unsupported dtype: structured arrays are not "
                              "supported");
      ok = parser.parseString(descr);
      seenDescr = true;
    } else if (key == "fortran_order") {
      ok = parser.parseBool(fortranOrder);
      seenOrder = true;
    } else if (key == "shape") {
      ok = parser.parseShape(shape);
      seenShape = true;
    } else {
      return npyError(path, "malformed header: unexpected key '" + key + "'");
    }
    if (!ok)
      break;
    if (!parser.tryConsume(',')) {
      ok = parser.consume('}');
      break;
    }
  }
  if (ok) {
    parser.skipSpace();
    if (!parser.text.empty())
      ok = parser.fail("trailing characters after the header dict");
  }
  if (!ok)
    return npyError(path, "malformed header: " + parser.error);
  if (!seenDescr || !seenOrder || !seenShape)
    return npyError(path, "malformed header: needs the keys 'descr', "
                          "'fortran_order' and 'shape'");
  if (fortranOrder)
    return npyError(path,
                    "Fortran-order arrays are not supported; only C order");
  llvm::Expected<DType> dtype = parseDescr(path, descr, bf16FromU2);
  if (!dtype)
    return dtype.takeError();

  // Guard the element count against overflow before trusting it.
  uint64_t numElements = 1;
  for (int64_t d : shape) {
    if (d != 0 &&
        numElements > std::numeric_limits<uint64_t>::max() / 16 / uint64_t(d))
      return npyError(path, "malformed header: shape too large");
    numElements *= static_cast<uint64_t>(d);
  }
  uint64_t expected = numElements * dtypeSize(*dtype);
  uint64_t actual = file.size() - dataOffset;
  if (actual < expected)
    return npyError(path, "truncated data: expected " + llvm::Twine(expected) +
                              " bytes, found " + llvm::Twine(actual));
  if (actual > expected)
    return npyError(path, "oversized data: expected " + llvm::Twine(expected) +
                              " bytes, found " + llvm::Twine(actual));

  llvm::Expected<HostArray> array = HostArray::allocate(*dtype, shape);
  if (!array)
    return npyError(path, llvm::toString(array.takeError()));
  if (expected)
    std::memcpy(array->data(), file.bytes_begin() + dataOffset, expected);
  return array;
}

llvm::Error mlir::norm::writeNpy(const std::string &path,
                                 const HostArray &array) {
  if (!llvm::sys::IsLittleEndianHost)
    return npyError(path, ".npy writing needs a little-endian host");
  if (array.bytes.size() !=
      static_cast<size_t>(array.numElements()) * dtypeSize(array.dtype))
    return npyError(path, "array byte size does not match its shape");

  const char *descr = array.dtype == DType::F16    ? "<f2"
                      : array.dtype == DType::BF16 ? "<u2"
                      : array.dtype == DType::F32  ? "<f4"
                                                   : "<f8";
  std::string dict;
  llvm::raw_string_ostream os(dict);
  os << "{'descr': '" << descr << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i)
    os << (i ? ", " : "") << array.shape[i];
  // Python spells a 1-tuple "(n,)".
  os << (array.shape.size() == 1 ? ",), }" : "), }");
  // Pad with spaces and a final newline so the data starts 64-byte aligned.
  size_t unpadded = 10 + dict.size() + 1;
  size_t padded = (unpadded + 63) / 64 * 64;
  // Version 1.0 stores the header length in 16 bits; huge ranks need 2.0.
  unsigned major = padded - 10 > 0xffff ? 2 : 1;
  if (major == 2) {
    unpadded += 2;
    padded = (unpadded + 63) / 64 * 64;
  }
  dict.append(padded - unpadded, ' ');
  dict.push_back('\n');

  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return npyError(path, "cannot open for writing: " + ec.message());
  out.write("\x93NUMPY", 6);
  out << static_cast<char>(major) << static_cast<char>(0);
  if (major == 1) {
    char len[2];
    llvm::support::endian::write16le(len, static_cast<uint16_t>(dict.size()));
    out.write(len, 2);
  } else {
    char len[4];
    llvm::support::endian::write32le(len, static_cast<uint32_t>(dict.size()));
    out.write(len, 4);
  }
  out << dict;
  out.write(reinterpret_cast<const char *>(array.bytes.data()),
            array.bytes.size());
  out.close();
  if (out.has_error()) {
    std::error_code writeEc = out.error();
    out.clear_error();
    return npyError(path, "write failed: " + writeEc.message());
  }
  return llvm::Error::success();
}
