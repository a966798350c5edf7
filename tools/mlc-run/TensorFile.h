//===- TensorFile.h - tensor files for model inputs and outputs -*- C++ -*-===//
//
// The file side of mlc-run, above the .npy codec (Npy.h): reads a tensor
// file for a model input or output of a known type, whether .npy or an ONNX
// TensorProto .pb (the format of ONNX's own test data), and writes outputs as
// .npy. numpy has no bfloat16, so bf16 tensors travel as f4 files.
// Like Npy.h, every failure is an error string, never a crash or an exit, so
// the unit tests can check the messages.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TOOLS_MLC_RUN_TENSORFILE_H
#define MLC_TOOLS_MLC_RUN_TENSORFILE_H

#include "Npy.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlc::tensorio {

/// "[2,3]" ("[]" for a scalar).
std::string shapeString(const std::vector<int64_t> &shape);
/// "f32 [2,3]": how messages show a tensor type.
std::string typeString(mlc_dtype dtype, const std::vector<int64_t> &shape);

/// The runtime dtype of an ONNX TensorProto data type; MLC_DTYPE_INVALID if
/// mlc has none.
mlc_dtype dtypeForONNX(int32_t type);

/// Reads an ONNX TensorProto file for a tensor of dtype `want` (which only
/// matters for bf16: ONNX's test data stores it as UINT16 bit patterns).
/// Errors start with the path.
bool readONNXTensorFile(const std::string &path, mlc_dtype want,
                        npy::Array &out, std::string &error);

/// Reads a .pb (ONNX TensorProto) or, for any other name, a .npy file for a
/// tensor of type `dtype` and `shape`, described in messages as `what` (e.g.
/// "input 'x'"). An f4 file of the right shape is accepted for a bf16 tensor
/// and rounded to nearest even. Anything else must match exactly; a mismatch
/// gives "<what> is <type> but '<path>' holds <type>".
bool readTensorFor(const std::string &path, const std::string &what,
                   mlc_dtype dtype, const std::vector<int64_t> &shape,
                   npy::Array &out, std::string &error);

/// Writes a tensor as .npy; bf16 is written as f4 (every bf16 value is an
/// f32). `dataSize` must match the dtype and shape.
bool writeTensorFile(const std::string &path, mlc_dtype dtype,
                     const std::vector<int64_t> &shape, const void *data,
                     size_t dataSize, std::string &error);

/// DIR/<name>.npy, with '/' in the name (legal in model names) made '_'.
std::string outputFileName(const std::string &dir, const std::string &name);

/// Creates `dir` unless it already is a directory.
bool makeDirectory(const std::string &dir, std::string &error);

} // namespace mlc::tensorio

#endif // MLC_TOOLS_MLC_RUN_TENSORFILE_H
