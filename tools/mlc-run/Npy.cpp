//===- Npy.cpp - read and write numpy .npy files --------------------------===//
//
// Format:
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
// "\x93NUMPY", major, minor, header length (2 bytes LE in 1.0, 4 in 2.0/3.0),
// then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': ...}
// padded with spaces and a newline, then the raw data.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

using namespace mlc;
using namespace mlc::npy;

namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr uint64_t kMaxBytes = uint64_t(1) << 62;

struct DtypeEntry {
  mlc_dtype dtype;
  const char *descr;
  size_t size;
};
const DtypeEntry kDtypes[] = {
    {MLC_F32, "<f4", 4}, {MLC_F64, "<f8", 8}, {MLC_F16, "<f2", 2},
    {MLC_I8, "|i1", 1},  {MLC_I16, "<i2", 2}, {MLC_I32, "<i4", 4},
    {MLC_I64, "<i8", 8}, {MLC_U8, "|u1", 1},  {MLC_BOOL, "|b1", 1},
    {MLC_U16, "<u2", 2}, {MLC_U32, "<u4", 4}, {MLC_U64, "<u8", 8}};

size_t dtypeSize(mlc_dtype dtype) {
  for (const DtypeEntry &e : kDtypes)
    if (e.dtype == dtype)
      return e.size;
  return 0;
}

/// A cursor over the header text with the few productions of the Python
/// literal grammar that .npy headers use.
class HeaderParser {
public:
  HeaderParser(const char *begin, const char *end) : p(begin), end(end) {}

  bool parse(std::string &descr, bool &fortranOrder,
             std::vector<int64_t> &shape, std::string &error) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    if (!consume('{'))
      return fail("expected '{'", error);
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail("expected a quoted key", error);
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after key '" + key + "'", error);
      skipSpace();
      if (key == "descr") {
        if (haveDescr)
          return fail("duplicate key 'descr'", error);
        haveDescr = true;
        if (!parseString(descr))
          return fail("'descr' must be a string (structured dtypes are not "
                      "supported)",
                      error);
      } else if (key == "fortran_order") {
        if (haveOrder)
          return fail("duplicate key 'fortran_order'", error);
        haveOrder = true;
        if (consumeWord("True"))
          fortranOrder = true;
        else if (consumeWord("False"))
          fortranOrder = false;
        else
          return fail("'fortran_order' must be True or False", error);
      } else if (key == "shape") {
        if (haveShape)
          return fail("duplicate key 'shape'", error);
        haveShape = true;
        if (!parseShape(shape, error))
          return false;
      } else {
        return fail("unexpected key '" + key + "'", error);
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return fail("expected ',' or '}'", error);
    }
    skipSpace();
    if (p != end)
      return fail("unexpected text after the header dict", error);
    if (!haveDescr || !haveOrder || !haveShape)
      return fail(std::string("missing key '") +
                      (!haveDescr   ? "descr"
                       : !haveOrder ? "fortran_order"
                                    : "shape") +
                      "'",
                  error);
    return true;
  }

private:
  const char *p;
  const char *end;

  static bool fail(const std::string &what, std::string &error) {
    error = "malformed header: " + what;
    return false;
  }
  void skipSpace() {
    while (p != end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
      ++p;
  }
  bool consume(char c) {
    if (p == end || *p != c)
      return false;
    ++p;
    return true;
  }
  bool consumeWord(const char *word) {
    size_t n = strlen(word);
    if (size_t(end - p) < n || memcmp(p, word, n) != 0)
      return false;
    p += n;
    return true;
  }
  bool parseString(std::string &out) {
    if (p == end || (*p != '\'' && *p != '"'))
      return false;
    char quote = *p++;
    const char *begin = p;
    while (p != end && *p != quote) {
      // Escapes never occur in the keys and dtypes we accept.
      if (*p == '\\' || *p == '\n')
        return false;
      ++p;
    }
    if (p == end)
      return false;
    out.assign(begin, p);
    ++p;
    return true;
  }
  bool parseShape(std::vector<int64_t> &shape, std::string &error) {
    if (!consume('('))
      return fail("'shape' must be a tuple", error);
    shape.clear();
    while (true) {
      skipSpace();
      if (consume(')'))
        return true;
      if (p == end || *p < '0' || *p > '9')
        return fail("'shape' must hold non-negative integers", error);
      uint64_t value = 0;
      while (p != end && *p >= '0' && *p <= '9') {
        value = value * 10 + uint64_t(*p - '0');
        if (value > kMaxBytes)
          return fail("dimension too large", error);
        ++p;
      }
      consume('L'); // Python 2 long literals in old files.
      if (shape.size() == kMaxRank)
        return fail("rank exceeds 64", error);
      shape.push_back(int64_t(value));
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        return true;
      return fail("expected ',' or ')' in 'shape'", error);
    }
  }
};

uint32_t readLE(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= uint32_t(p[i]) << (8 * i);
  return v;
}

std::string formatShapeTuple(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}
} // namespace

namespace mlc::npy {

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
  if (exponent == 0) {
    float f = std::ldexp(float(mantissa), -24); // zero or subnormal
    return sign ? -f : f;
  }
  uint32_t bits = exponent == 31
                      ? sign | 0x7f800000u | (mantissa << 13)
                      : sign | ((exponent + 112) << 23) | (mantissa << 13);
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof(x));
  uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) // inf or NaN
    return sign | 0x7c00u | (x > 0x7f800000u ? 0x200u : 0u);
  if (x >= 0x477ff000u) // rounds to >= 65520: overflow
    return sign | 0x7c00u;
  if (x < 0x38800000u) { // below 2^-14: subnormal half; exact scaling by 2^24
    float a;
    memcpy(&a, &x, sizeof(a));
    return uint16_t(sign | uint32_t(std::nearbyint(a * 16777216.0f)));
  }
  uint32_t mantissa = x & 0x7fffffu;
  uint32_t h = ((((x >> 23) - 112) << 10) | (mantissa >> 13));
  uint32_t rest = mantissa & 0x1fffu; // round to nearest even
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
    ++h;
  return uint16_t(sign | h);
}

float bf16ToFloat(uint16_t b) {
  uint32_t x = uint32_t(b) << 16;
  float f;
  memcpy(&f, &x, sizeof(f));
  return f;
}

uint16_t floatToBF16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof(x));
  if ((x & 0x7fffffffu) > 0x7f800000u) // NaN: keep sign, force quiet
    return uint16_t((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u); // round to nearest even (inf on overflow)
  return uint16_t(x >> 16);
}

bool isFloatDType(mlc_dtype dtype) {
  return dtype == MLC_F32 || dtype == MLC_F64 || dtype == MLC_F16 ||
         dtype == MLC_BF16;
}

/// Element i of an array of T (unaligned-safe).
template <typename T> static T at(const uint8_t *data, uint64_t i) {
  T v;
  memcpy(&v, data + sizeof(T) * i, sizeof(T));
  return v;
}

double loadFloat(mlc_dtype dtype, const uint8_t *data, uint64_t i) {
  switch (dtype) {
  case MLC_F32:
    return at<float>(data, i);
  case MLC_F64:
    return at<double>(data, i);
  case MLC_F16:
    return halfToFloat(at<uint16_t>(data, i));
  case MLC_BF16:
    return bf16ToFloat(at<uint16_t>(data, i));
  default:
    return 0;
  }
}

int64_t loadInt(mlc_dtype dtype, const uint8_t *data, uint64_t i) {
  switch (dtype) {
  case MLC_I8:
    return at<int8_t>(data, i);
  case MLC_U8:
  case MLC_BOOL:
    return at<uint8_t>(data, i);
  case MLC_I16:
    return at<int16_t>(data, i);
  case MLC_I32:
    return at<int32_t>(data, i);
  case MLC_I64:
    return at<int64_t>(data, i);
  case MLC_U16:
    return at<uint16_t>(data, i);
  case MLC_U32:
    return at<uint32_t>(data, i);
  case MLC_U64: // the bits: values above INT64_MAX come out negative
    return int64_t(at<uint64_t>(data, i));
  default:
    return 0;
  }
}

double intValue(mlc_dtype dtype, int64_t v) {
  return dtype == MLC_U64 ? double(uint64_t(v)) : double(v);
}

} // namespace mlc::npy

uint64_t Array::numElements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= uint64_t(d);
  return n;
}

const char *npy::descrForDtype(mlc_dtype dtype) {
  for (const DtypeEntry &e : kDtypes)
    if (e.dtype == dtype)
      return e.descr;
  return nullptr;
}

mlc_dtype npy::dtypeForDescr(const std::string &descr) {
  for (const DtypeEntry &e : kDtypes) {
    if (descr == e.descr)
      return e.dtype;
    // '=' (native) is little-endian on every host we support; numpy also
    // accepts '<' and '|' interchangeably for one-byte types.
    if (descr.size() == 3 && descr.compare(1, 2, e.descr + 1) == 0 &&
        (descr[0] == '=' || (e.size == 1 && descr[0] == '<')))
      return e.dtype;
  }
  return MLC_DTYPE_INVALID;
}

bool npy::parse(const uint8_t *bytes, size_t size, Array &out,
                std::string &error) {
  if (size < kMagicSize || memcmp(bytes, kMagic, kMagicSize) != 0) {
    error = "not a .npy file (bad magic)";
    return false;
  }
  if (size < kMagicSize + 2) {
    error = "truncated file (no version)";
    return false;
  }
  unsigned major = bytes[kMagicSize], minor = bytes[kMagicSize + 1];
  if (major < 1 || major > 3) {
    error = "unsupported .npy version " + std::to_string(major) + "." +
            std::to_string(minor);
    return false;
  }
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t prefix = kMagicSize + 2 + lenBytes;
  if (size < prefix) {
    error = "truncated file (no header length)";
    return false;
  }
  uint64_t headerLen = readLE(bytes + kMagicSize + 2, lenBytes);
  if (headerLen > size - prefix) {
    error = "truncated file: header needs " + std::to_string(headerLen) +
            " bytes but only " + std::to_string(size - prefix) + " remain";
    return false;
  }
  const char *header = reinterpret_cast<const char *>(bytes + prefix);
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  HeaderParser parser(header, header + headerLen);
  if (!parser.parse(descr, fortranOrder, shape, error))
    return false;

  mlc_dtype dtype = dtypeForDescr(descr);
  if (dtype == MLC_DTYPE_INVALID) {
    if (!descr.empty() && descr[0] == '>')
      error = "big-endian dtype '" + descr + "' is not supported";
    else
      error = "unsupported dtype '" + descr +
              "' (supported: <f4 <f8 <f2 |i1 <i2 <i4 <i8 |u1 |b1)";
    return false;
  }
  if (fortranOrder) {
    error = "Fortran-order arrays are not supported; save a C-contiguous "
            "array (e.g. numpy.ascontiguousarray)";
    return false;
  }

  uint64_t numBytes = dtypeSize(dtype);
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(numBytes, uint64_t(d), &numBytes) ||
        numBytes > kMaxBytes) {
      error = "array size overflows: shape " + formatShapeTuple(shape);
      return false;
    }
  }
  uint64_t available = size - prefix - headerLen;
  if (numBytes != available) {
    error = (numBytes > available ? "truncated data: shape "
                                  : "trailing bytes after the data: shape ") +
            formatShapeTuple(shape) + " of " + descr + " needs " +
            std::to_string(numBytes) + " bytes but the file has " +
            std::to_string(available);
    return false;
  }
  out.dtype = dtype;
  out.shape = std::move(shape);
  const uint8_t *data = bytes + prefix + headerLen;
  out.data.assign(data, data + numBytes);
  return true;
}

bool npy::readFile(const std::string &path, Array &out, std::string &error) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    error = path + ": " + strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = path + ": not a regular file";
    return false;
  }
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) {
    error = path + ": " + strerror(errno);
    return false;
  }
  std::vector<uint8_t> bytes(size_t(st.st_size));
  size_t got = bytes.empty() ? 0 : fread(bytes.data(), 1, bytes.size(), f);
  bool readError = ferror(f);
  fclose(f);
  if (readError || got != bytes.size()) {
    error = path + ": read error";
    return false;
  }
  if (!parse(bytes.data(), bytes.size(), out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

bool npy::serialize(mlc_dtype dtype, const std::vector<int64_t> &shape,
                    const void *data, size_t dataSize,
                    std::vector<uint8_t> &out, std::string &error) {
  const char *descr = descrForDtype(dtype);
  if (!descr) {
    error = "cannot write dtype " + std::to_string(int(dtype)) + " to .npy";
    return false;
  }
  uint64_t numBytes = dtypeSize(dtype);
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(numBytes, uint64_t(d), &numBytes)) {
      error = "invalid shape " + formatShapeTuple(shape);
      return false;
    }
  }
  if (numBytes != dataSize) {
    error = "data size " + std::to_string(dataSize) + " does not match shape " +
            formatShapeTuple(shape) + " (" + std::to_string(numBytes) +
            " bytes)";
    return false;
  }
  std::string header =
      std::string("{'descr': '") + descr +
      "', 'fortran_order': False, 'shape': " + formatShapeTuple(shape) + ", }";
  // Pad with spaces and a final newline so the data starts 64-byte aligned,
  // as numpy does.
  unsigned major = 1;
  size_t prefix = kMagicSize + 2 + 2;
  size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
  if (total - prefix > 65535) {
    // Only format 2.0 has room for a header this long.
    major = 2;
    prefix += 2;
    total = (prefix + header.size() + 1 + 63) / 64 * 64;
  }
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';

  out.clear();
  out.reserve(total + dataSize);
  out.insert(out.end(), kMagic, kMagic + kMagicSize);
  out.push_back(uint8_t(major));
  out.push_back(0);
  size_t headerLen = header.size();
  for (size_t i = 0; i < prefix - kMagicSize - 2; ++i)
    out.push_back(uint8_t(headerLen >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  const uint8_t *bytes = static_cast<const uint8_t *>(data);
  if (dataSize)
    out.insert(out.end(), bytes, bytes + dataSize);
  return true;
}

bool npy::writeFile(const std::string &path, mlc_dtype dtype,
                    const std::vector<int64_t> &shape, const void *data,
                    size_t dataSize, std::string &error) {
  std::vector<uint8_t> bytes;
  if (!serialize(dtype, shape, data, dataSize, bytes, error)) {
    error = path + ": " + error;
    return false;
  }
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) {
    error = path + ": cannot open for writing: " + strerror(errno);
    return false;
  }
  bool ok = fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (fclose(f) == 0) && ok;
  if (!ok) {
    error = path + ": write error";
    return false;
  }
  return true;
}
