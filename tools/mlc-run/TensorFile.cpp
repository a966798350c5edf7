//===- TensorFile.cpp - tensor files for model inputs and outputs ---------===//

#include "TensorFile.h"
#include "mlc/Frontend/ONNX/ONNXModel.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace mlc::tensorio {

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string typeString(mlc_dtype dtype, const std::vector<int64_t> &shape) {
  return std::string(mlc_dtype_name(dtype)) + " " + shapeString(shape);
}

mlc_dtype dtypeForONNX(int32_t type) {
  switch (type) {
  case onnx::Float:
    return MLC_F32;
  case onnx::Double:
    return MLC_F64;
  case onnx::Float16:
    return MLC_F16;
  case onnx::BFloat16:
    return MLC_BF16;
  case onnx::Int8:
    return MLC_I8;
  case onnx::Int16:
    return MLC_I16;
  case onnx::Int32:
    return MLC_I32;
  case onnx::Int64:
    return MLC_I64;
  case onnx::UInt8:
    return MLC_U8;
  case onnx::UInt16:
    return MLC_U16;
  case onnx::UInt32:
    return MLC_U32;
  case onnx::UInt64:
    return MLC_U64;
  case onnx::Bool:
    return MLC_BOOL;
  default:
    return MLC_DTYPE_INVALID;
  }
}

bool readONNXTensorFile(const std::string &path, mlc_dtype want,
                        npy::Array &out, std::string &error) {
  onnx::Tensor t;
  if (!onnx::loadTensorFile(path, t, error)) {
    error = path + ": " + error;
    return false;
  }
  out.dtype = dtypeForONNX(t.dataType);
  // ONNX's own test data stores bfloat16 tensors as UINT16 bit patterns.
  if (t.dataType == onnx::UInt16 && want == MLC_BF16)
    out.dtype = MLC_BF16;
  if (out.dtype == MLC_DTYPE_INVALID) {
    error =
        path + ": unsupported tensor type " + onnx::dataTypeName(t.dataType);
    return false;
  }
  out.shape = t.dims;
  out.data.assign(t.data.begin(), t.data.end());
  return true;
}

bool readTensorFor(const std::string &path, const std::string &what,
                   mlc_dtype dtype, const std::vector<int64_t> &shape,
                   npy::Array &out, std::string &error) {
  npy::Array array;
  bool isPB = path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
  if (!(isPB ? readONNXTensorFile(path, dtype, array, error)
             : npy::readFile(path, array, error)))
    return false;
  // numpy has no bfloat16: bf16 tensors come as f4 files. Only converted
  // when the shape fits too, so a wrong file is reported as the f4 it is.
  if (dtype == MLC_BF16 && array.dtype == MLC_F32 && array.shape == shape) {
    std::vector<uint8_t> bf16(2 * array.numElements());
    for (uint64_t i = 0; i < array.numElements(); ++i) {
      float f;
      memcpy(&f, array.data.data() + 4 * i, 4);
      uint16_t b = npy::floatToBF16(f);
      memcpy(bf16.data() + 2 * i, &b, 2);
    }
    array.dtype = MLC_BF16;
    array.data = std::move(bf16);
  }
  if (array.dtype != dtype || array.shape != shape) {
    error = what + " is " + typeString(dtype, shape) + " but '" + path +
            "' holds " + typeString(array.dtype, array.shape);
    return false;
  }
  out = std::move(array);
  return true;
}

bool writeTensorFile(const std::string &path, mlc_dtype dtype,
                     const std::vector<int64_t> &shape, const void *data,
                     size_t dataSize, std::string &error) {
  if (dtype != MLC_BF16)
    return npy::writeFile(path, dtype, shape, data, dataSize, error);
  std::vector<float> f32(dataSize / 2);
  for (size_t i = 0; i < f32.size(); ++i)
    f32[i] = float(npy::loadFloat(MLC_BF16, static_cast<const uint8_t *>(data),
                                  uint64_t(i)));
  return npy::writeFile(path, MLC_F32, shape, f32.data(), f32.size() * 4,
                        error);
}

std::string outputFileName(const std::string &dir, const std::string &name) {
  std::string safe = name;
  std::replace(safe.begin(), safe.end(), '/', '_');
  return dir + "/" + safe + ".npy";
}

bool makeDirectory(const std::string &dir, std::string &error) {
  struct stat st;
  if (stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return true;
    error = "'" + dir + "' exists and is not a directory";
    return false;
  }
  if (mkdir(dir.c_str(), 0777) == 0)
    return true;
  error = "cannot create directory '" + dir + "': " + strerror(errno);
  return false;
}

} // namespace mlc::tensorio
