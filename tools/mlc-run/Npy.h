//===- Npy.h - read and write numpy .npy files ------------------*- C++ -*-===//
//
// A strict reader and a writer for the .npy format (versions 1.0-3.0), limited
// to the dtypes mlc models use and to C order. Files are untrusted input:
// every malformation is reported as an error string, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TOOLS_MLC_RUN_NPY_H
#define MLC_TOOLS_MLC_RUN_NPY_H

#include "mlc/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlc {
namespace npy {

/// A dense row-major array.
struct Array {
  mlc_dtype dtype = MLC_DTYPE_INVALID;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; // numElements() * mlc_dtype_size(dtype) bytes

  uint64_t numElements() const;
};

/// Largest rank accepted by the reader (numpy's own limit).
constexpr size_t kMaxRank = 64;

/// The .npy descr ("<f4", "|b1", ...) for a dtype; nullptr if none.
const char *descrForDtype(mlc_dtype dtype);
/// The dtype for a .npy descr; MLC_DTYPE_INVALID if unsupported.
mlc_dtype dtypeForDescr(const std::string &descr);

/// Parses an in-memory .npy file. On failure returns false and sets `error`
/// to a message (without file name).
bool parse(const uint8_t *bytes, size_t size, Array &out, std::string &error);

/// Reads a .npy file. On failure returns false and sets `error` to a message
/// that starts with the path.
bool readFile(const std::string &path, Array &out, std::string &error);

/// Serializes to .npy bytes (format 1.0, or 2.0 if the header needs it).
/// `data` must hold numElements(shape) * mlc_dtype_size(dtype) bytes.
bool serialize(mlc_dtype dtype, const std::vector<int64_t> &shape,
               const void *data, size_t dataSize, std::vector<uint8_t> &out,
               std::string &error);

/// Writes a .npy file. On failure returns false and sets `error` to a message
/// that starts with the path.
bool writeFile(const std::string &path, mlc_dtype dtype,
               const std::vector<int64_t> &shape, const void *data,
               size_t dataSize, std::string &error);
inline bool writeFile(const std::string &path, const Array &array,
                      std::string &error) {
  return writeFile(path, array.dtype, array.shape, array.data.data(),
                   array.data.size(), error);
}

/// Element decoding shared by mlc-run and the tests.
float halfToFloat(uint16_t h);
/// Round to nearest even; overflow gives inf.
uint16_t floatToHalf(float f);
/// bfloat16 (no .npy dtype: mlc-run reads and writes such tensors as f4).
float bf16ToFloat(uint16_t b);
/// Round to nearest even; NaN stays a (quiet) NaN, overflow gives inf.
uint16_t floatToBF16(float f);
bool isFloatDType(mlc_dtype dtype);
/// Element i of a buffer of `dtype` as a double (floats) or an integer
/// (integers and bool; u64 as its bits, see intValue); 0 for other dtypes.
double loadFloat(mlc_dtype dtype, const uint8_t *data, uint64_t i);
int64_t loadInt(mlc_dtype dtype, const uint8_t *data, uint64_t i);
/// The value of what loadInt returned for `dtype`, u64 read as unsigned.
double intValue(mlc_dtype dtype, int64_t v);

} // namespace npy
} // namespace mlc

#endif // MLC_TOOLS_MLC_RUN_NPY_H
