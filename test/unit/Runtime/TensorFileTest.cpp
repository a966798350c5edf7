//===- TensorFileTest.cpp - tests of mlc-run's tensor file layer ----------===//
//
// TensorFile.h: reading .npy and ONNX TensorProto (.pb) files for a tensor
// of known type (bf16 via f4 files), writing outputs, and the messages for
// files that do not fit. The .pb files are encoded here by hand: a
// TensorProto is a few protobuf fields.
//
//===----------------------------------------------------------------------===//

#include "TensorFile.h"
#include "mlc/Frontend/ONNX/ONNXModel.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace mlc;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// A scratch directory, removed with what the test left in it.
struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/mlc-tensorfile-test-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string file(const std::string &name) const { return path + "/" + name; }
};

void writeBytes(const std::string &path, const std::string &bytes) {
  FILE *f = fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  fclose(f);
}

void appendVarint(std::string &out, uint64_t v) {
  while (v >= 0x80) {
    out += char(v | 0x80);
    v >>= 7;
  }
  out += char(v);
}

/// A serialized TensorProto: dims (field 1), data_type (2), raw_data (9).
std::string tensorProto(const std::vector<int64_t> &dims, int32_t dataType,
                        const void *raw, size_t rawSize) {
  std::string out;
  for (int64_t d : dims) {
    out += char(1 << 3);
    appendVarint(out, uint64_t(d));
  }
  out += char(2 << 3);
  appendVarint(out, uint64_t(dataType));
  out += char(9 << 3 | 2);
  appendVarint(out, rawSize);
  out.append(static_cast<const char *>(raw), rawSize);
  return out;
}

} // namespace

TEST_CASE("type strings and ONNX dtypes", "[tensorfile]") {
  CHECK(tensorio::shapeString({}) == "[]");
  CHECK(tensorio::shapeString({2, 3}) == "[2,3]");
  CHECK(tensorio::typeString(MLC_F32, {4}) == "f32 [4]");
  CHECK(tensorio::dtypeForONNX(onnx::Float) == MLC_F32);
  CHECK(tensorio::dtypeForONNX(onnx::BFloat16) == MLC_BF16);
  CHECK(tensorio::dtypeForONNX(onnx::Bool) == MLC_BOOL);
  CHECK(tensorio::dtypeForONNX(onnx::Int64) == MLC_I64);
  CHECK(tensorio::dtypeForONNX(onnx::UInt16) == MLC_U16);
  CHECK(tensorio::dtypeForONNX(onnx::UInt64) == MLC_U64);
  // No runtime dtype: these are rejected when read.
  CHECK(tensorio::dtypeForONNX(onnx::String) == MLC_DTYPE_INVALID);
}

TEST_CASE("write and read back for a tensor type", "[tensorfile]") {
  TempDir dir;
  std::string error;
  npy::Array array;

  int64_t ints[3] = {1, -2, 3};
  std::string path = dir.file("i.npy");
  REQUIRE(
      tensorio::writeTensorFile(path, MLC_I64, {3}, ints, sizeof(ints), error));
  REQUIRE(
      tensorio::readTensorFor(path, "input 'x'", MLC_I64, {3}, array, error));
  CHECK(array.dtype == MLC_I64);
  CHECK(array.shape == std::vector<int64_t>{3});
  CHECK(memcmp(array.data.data(), ints, sizeof(ints)) == 0);

  // bf16 goes out as f4 (numpy has no bfloat16) and comes back as bf16.
  uint16_t bf16[2] = {npy::floatToBF16(1.5f), npy::floatToBF16(-0.25f)};
  path = dir.file("b.npy");
  REQUIRE(tensorio::writeTensorFile(path, MLC_BF16, {2}, bf16, sizeof(bf16),
                                    error));
  REQUIRE(npy::readFile(path, array, error));
  CHECK(array.dtype == MLC_F32);
  REQUIRE(
      tensorio::readTensorFor(path, "output 'y'", MLC_BF16, {2}, array, error));
  CHECK(array.dtype == MLC_BF16);
  CHECK(memcmp(array.data.data(), bf16, sizeof(bf16)) == 0);

  CHECK(tensorio::outputFileName("out", "a/b") == "out/a_b.npy");
}

TEST_CASE("files that do not fit the tensor are reported", "[tensorfile]") {
  TempDir dir;
  std::string error;
  npy::Array array;
  float f[4] = {1, 2, 3, 4};
  std::string path = dir.file("f.npy");
  REQUIRE(tensorio::writeTensorFile(path, MLC_F32, {4}, f, sizeof(f), error));

  CHECK_FALSE(
      tensorio::readTensorFor(path, "input 'x'", MLC_F64, {4}, array, error));
  CHECK(error == "input 'x' is f64 [4] but '" + path + "' holds f32 [4]");
  CHECK_FALSE(tensorio::readTensorFor(path, "output 'y'", MLC_F32, {2, 2},
                                      array, error));
  CHECK(error == "output 'y' is f32 [2,2] but '" + path + "' holds f32 [4]");
  // An f4 file of the wrong shape is reported as the f4 it is.
  CHECK_FALSE(
      tensorio::readTensorFor(path, "input 'x'", MLC_BF16, {3}, array, error));
  CHECK(error == "input 'x' is bf16 [3] but '" + path + "' holds f32 [4]");

  std::string missing = dir.file("missing.npy");
  CHECK_FALSE(tensorio::readTensorFor(missing, "input 'x'", MLC_F32, {4}, array,
                                      error));
  CHECK(error.rfind(missing + ": ", 0) == 0);

  std::string bad = dir.file("bad.npy");
  writeBytes(bad, "not a numpy file");
  CHECK_FALSE(
      tensorio::readTensorFor(bad, "input 'x'", MLC_F32, {4}, array, error));
  CHECK(error.rfind(bad + ": ", 0) == 0);
}

TEST_CASE("ONNX TensorProto files", "[tensorfile]") {
  TempDir dir;
  std::string error;
  npy::Array array;

  float f[6] = {0, 1, 2, 3, 4, 5};
  std::string path = dir.file("input_0.pb");
  writeBytes(path, tensorProto({2, 3}, onnx::Float, f, sizeof(f)));
  REQUIRE(tensorio::readTensorFor(path, "input 'x'", MLC_F32, {2, 3}, array,
                                  error));
  CHECK(array.dtype == MLC_F32);
  CHECK(array.shape == std::vector<int64_t>{2, 3});
  CHECK(memcmp(array.data.data(), f, sizeof(f)) == 0);
  CHECK_FALSE(
      tensorio::readTensorFor(path, "input 'x'", MLC_F32, {6}, array, error));
  CHECK(error == "input 'x' is f32 [6] but '" + path + "' holds f32 [2,3]");

  // ONNX's test data holds bfloat16 as UINT16 bit patterns: accepted for a
  // bf16 tensor only.
  uint16_t bits[2] = {0x3fc0, 0xbe80};
  path = dir.file("bf16.pb");
  writeBytes(path, tensorProto({2}, onnx::UInt16, bits, sizeof(bits)));
  REQUIRE(
      tensorio::readTensorFor(path, "input 'x'", MLC_BF16, {2}, array, error));
  CHECK(array.dtype == MLC_BF16);
  CHECK(memcmp(array.data.data(), bits, sizeof(bits)) == 0);
  CHECK_FALSE(
      tensorio::readTensorFor(path, "input 'x'", MLC_I16, {2}, array, error));
  CHECK(error == "input 'x' is i16 [2] but '" + path + "' holds u16 [2]");

  // Malformed: not a protobuf, or elements that do not match the dims.
  path = dir.file("garbage.pb");
  writeBytes(path, "\xff\xff\xff\xff");
  CHECK_FALSE(
      tensorio::readTensorFor(path, "input 'x'", MLC_F32, {1}, array, error));
  CHECK(error.rfind(path + ": ", 0) == 0);
  path = dir.file("short.pb");
  writeBytes(path, tensorProto({2, 3}, onnx::Float, f, 8));
  CHECK_FALSE(tensorio::readTensorFor(path, "input 'x'", MLC_F32, {2, 3}, array,
                                      error));
  CHECK(error.rfind(path + ": ", 0) == 0);
  CHECK_FALSE(tensorio::readTensorFor(dir.file("none.pb"), "input 'x'", MLC_F32,
                                      {1}, array, error));
  CHECK(contains(error, "none.pb: cannot open file"));
}

TEST_CASE("output directories", "[tensorfile]") {
  TempDir dir;
  std::string error;
  std::string sub = dir.file("out");
  CHECK(tensorio::makeDirectory(sub, error));
  CHECK(tensorio::makeDirectory(sub, error)); // already there: fine
  std::string file = dir.file("file");
  writeBytes(file, "x");
  CHECK_FALSE(tensorio::makeDirectory(file, error));
  CHECK(error == "'" + file + "' exists and is not a directory");
  CHECK_FALSE(tensorio::makeDirectory(dir.file("no/such"), error));
  CHECK(contains(error,
                 "cannot create directory '" + dir.file("no/such") + "': "));
}
