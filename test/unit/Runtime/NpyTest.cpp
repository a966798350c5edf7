//===- NpyTest.cpp - tests of the .npy reader and writer ------------------===//
//
// Reads files written by numpy (data/, see data/generate.py), round-trips
// every dtype, and feeds the reader corrupted and truncated files.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <unistd.h>

using namespace mlc;

namespace {

std::string dataFile(const std::string &name) {
  return std::string(MLC_NPY_TEST_DATA_DIR) + "/" + name;
}

std::vector<uint8_t> readBytes(const std::string &path) {
  std::vector<uint8_t> bytes;
  FILE *f = fopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  int c;
  while ((c = fgetc(f)) != EOF)
    bytes.push_back(uint8_t(c));
  fclose(f);
  return bytes;
}

/// Builds a .npy file from a header text (padded by us) and data bytes.
std::vector<uint8_t> makeNpy(const std::string &header, size_t dataBytes,
                             int major = 1) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
  std::string text = header + "\n";
  size_t len = text.size();
  out.push_back(uint8_t(len));
  out.push_back(uint8_t(len >> 8));
  if (major != 1) {
    out.push_back(uint8_t(len >> 16));
    out.push_back(uint8_t(len >> 24));
  }
  out.insert(out.end(), text.begin(), text.end());
  out.resize(out.size() + dataBytes, 0x11);
  return out;
}

std::string parseError(const std::vector<uint8_t> &bytes) {
  npy::Array array;
  std::string error;
  bool ok = npy::parse(bytes.data(), bytes.size(), array, error);
  if (ok)
    return "";
  return error.empty() ? "(empty error)" : error;
}

size_t elementSize(mlc_dtype dtype) {
  switch (dtype) {
  case MLC_F64:
  case MLC_I64:
  case MLC_U64:
    return 8;
  case MLC_F32:
  case MLC_I32:
  case MLC_U32:
    return 4;
  case MLC_F16:
  case MLC_I16:
  case MLC_U16:
    return 2;
  case MLC_I8:
  case MLC_U8:
  case MLC_BOOL:
    return 1;
  default:
    return 0;
  }
}

bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

double elementAsDouble(const npy::Array &a, size_t i) {
  return npy::isFloatDType(a.dtype)
             ? npy::loadFloat(a.dtype, a.data.data(), i)
             : double(npy::loadInt(a.dtype, a.data.data(), i));
}

} // namespace

TEST_CASE("reads every supported dtype written by numpy", "[npy]") {
  struct Case {
    const char *kind;
    mlc_dtype dtype;
  } cases[] = {{"f4", MLC_F32}, {"f8", MLC_F64}, {"f2", MLC_F16},
               {"i1", MLC_I8},  {"i2", MLC_I16}, {"i4", MLC_I32},
               {"i8", MLC_I64}, {"u1", MLC_U8},  {"b1", MLC_BOOL},
               {"u2", MLC_U16}, {"u4", MLC_U32}, {"u8", MLC_U64}};
  for (const Case &c : cases) {
    std::string path = dataFile(std::string("npy_") + c.kind + ".npy");
    INFO(path);
    npy::Array array;
    std::string error;
    REQUIRE(npy::readFile(path, array, error));
    CHECK(error.empty());
    CHECK(array.dtype == c.dtype);
    CHECK(array.shape == std::vector<int64_t>{2, 3});
    REQUIRE(array.numElements() == 6);
    for (size_t i = 0; i < 6; ++i) {
      double want = c.kind[0] == 'f'   ? double(i) * 0.5 - 1.25
                    : c.kind[0] == 'b' ? double(i % 2)
                    : c.kind[0] == 'u' ? double(i) * 40
                                       : double(i) * 3 - 4;
      CHECK(elementAsDouble(array, i) == want);
    }

    // Our writer reproduces numpy's file byte for byte.
    std::vector<uint8_t> written;
    REQUIRE(npy::serialize(array.dtype, array.shape, array.data.data(),
                           array.data.size(), written, error));
    CHECK(written == readBytes(path));
  }
}

TEST_CASE("unsigned elements keep their values", "[npy]") {
  const uint64_t u64[] = {uint64_t(1) << 63, ~uint64_t(0), 7};
  CHECK(npy::intValue(
            MLC_U64,
            npy::loadInt(MLC_U64, reinterpret_cast<const uint8_t *>(u64), 0)) ==
        9223372036854775808.0);
  CHECK(npy::intValue(
            MLC_U64,
            npy::loadInt(MLC_U64, reinterpret_cast<const uint8_t *>(u64), 1)) ==
        18446744073709551615.0);
  const uint32_t u32[] = {4000000000u};
  CHECK(npy::loadInt(MLC_U32, reinterpret_cast<const uint8_t *>(u32), 0) ==
        4000000000);
  const uint16_t u16[] = {65535};
  CHECK(npy::loadInt(MLC_U16, reinterpret_cast<const uint8_t *>(u16), 0) ==
        65535);
  // Signed types are unchanged by intValue.
  CHECK(npy::intValue(MLC_I64, -3) == -3.0);
}

TEST_CASE("scalars, empty arrays and newer format versions", "[npy]") {
  npy::Array array;
  std::string error;
  REQUIRE(npy::readFile(dataFile("npy_scalar.npy"), array, error));
  CHECK(array.dtype == MLC_F64);
  CHECK(array.shape.empty());
  CHECK(array.numElements() == 1);
  CHECK(elementAsDouble(array, 0) == 3.5);

  REQUIRE(npy::readFile(dataFile("npy_empty.npy"), array, error));
  CHECK(array.dtype == MLC_I32);
  CHECK(array.shape == std::vector<int64_t>{0, 3});
  CHECK(array.data.empty());

  for (const char *name : {"npy_v2.npy", "npy_v3.npy"}) {
    INFO(name);
    REQUIRE(npy::readFile(dataFile(name), array, error));
    CHECK(array.dtype == MLC_F32);
    CHECK(array.shape == std::vector<int64_t>{4});
    CHECK(elementAsDouble(array, 3) == 3.0);
  }

  // Equivalent spellings numpy itself accepts.
  CHECK(parseError(makeNpy("{\"descr\":\"=i8\",\"fortran_order\":False,"
                           "\"shape\":(1,),}",
                           8)) == "");
  CHECK(parseError(makeNpy("{'shape': (2L, 1L), 'fortran_order': False, "
                           "'descr': '<u1'}",
                           2)) == "");
  CHECK(parseError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                           "'shape': ()}",
                           4, 2)) == "");
}

TEST_CASE("round trip through files", "[npy]") {
  char dir[] = "/tmp/mlc-npy-test-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const mlc_dtype all[] = {MLC_F32,  MLC_F64, MLC_F16, MLC_I8,
                           MLC_I16,  MLC_I32, MLC_I64, MLC_U8,
                           MLC_BOOL, MLC_U16, MLC_U32, MLC_U64};
  std::vector<std::vector<int64_t>> shapes = {{}, {0}, {7}, {2, 3, 4}};
  std::mt19937 rng(7);
  for (mlc_dtype dtype : all) {
    for (const auto &shape : shapes) {
      uint64_t n = 1;
      for (int64_t d : shape)
        n *= uint64_t(d);
      std::vector<uint8_t> data(n * elementSize(dtype));
      for (uint8_t &byte : data)
        byte = dtype == MLC_BOOL ? rng() % 2 : uint8_t(rng());
      std::string path = std::string(dir) + "/x.npy";
      std::string error;
      REQUIRE(
          npy::writeFile(path, dtype, shape, data.data(), data.size(), error));
      npy::Array back;
      REQUIRE(npy::readFile(path, back, error));
      CHECK(back.dtype == dtype);
      CHECK(back.shape == shape);
      CHECK(back.data == data);
      // numpy aligns the data to 64 bytes; so do we.
      CHECK(readBytes(path).size() % 64 == data.size() % 64);
      unlink(path.c_str());
    }
  }
  rmdir(dir);

  std::string error;
  float x = 1;
  CHECK_FALSE(
      npy::writeFile("/nonexistent-dir/x.npy", MLC_F32, {1}, &x, 4, error));
  CHECK(contains(error, "/nonexistent-dir/x.npy: cannot open for writing"));
  std::vector<uint8_t> out;
  CHECK_FALSE(npy::serialize(MLC_F32, {2}, &x, 4, out, error));
  CHECK(contains(error, "does not match shape (2,)"));
  CHECK_FALSE(npy::serialize(MLC_DTYPE_INVALID, {1}, &x, 4, out, error));
  CHECK_FALSE(npy::serialize(MLC_F32, {-1}, &x, 4, out, error));
  CHECK(contains(error, "invalid shape"));

  // A header too long for format 1.0 switches to 2.0.
  std::vector<int64_t> manyDims(30000, 1);
  REQUIRE(npy::serialize(MLC_U8, manyDims, &x, 1, out, error));
  CHECK(out[6] == 2);
  uint32_t headerLen = out[8] | out[9] << 8 | out[10] << 16 | out[11] << 24;
  CHECK((12 + headerLen) % 64 == 0);
  CHECK(out.size() == 12 + headerLen + 1);
}

TEST_CASE("unsupported files are rejected clearly", "[npy]") {
  struct Case {
    const char *file;
    const char *message;
  } cases[] = {
      {"npy_fortran.npy", "Fortran-order arrays are not supported"},
      {"npy_bigendian.npy", "big-endian dtype '>f4' is not supported"},
      {"npy_complex.npy", "unsupported dtype '<c8'"},
      {"does_not_exist.npy", "No such file or directory"},
      {"", "not a regular file"},
      {"generate.py", "not a .npy file (bad magic)"},
  };
  for (const Case &c : cases) {
    std::string path = dataFile(c.file);
    INFO(path);
    npy::Array array;
    std::string error;
    CHECK_FALSE(npy::readFile(path, array, error));
    INFO(error);
    CHECK(error.compare(0, path.size(), path) == 0);
    CHECK(contains(error, c.message));
  }
}

TEST_CASE("malformed headers and sizes", "[npy]") {
  const std::string good =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  REQUIRE(parseError(makeNpy(good, 24)) == "");

  struct Case {
    std::vector<uint8_t> bytes;
    const char *message;
  } cases[] = {
      {{}, "bad magic"},
      {{0x93, 'N', 'U', 'M', 'P'}, "bad magic"},
      {{0x93, 'N', 'U', 'M', 'P', 'Y'}, "truncated file (no version)"},
      {{0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 10},
       "truncated file (no header length)"},
      {makeNpy(good, 24, 4), "unsupported .npy version 4.0"},
      {makeNpy(good, 24, 0), "unsupported .npy version 0.0"},
      {makeNpy(good, 23), "truncated data: shape (2, 3) of <f4 needs 24 bytes "
                          "but the file has 23"},
      {makeNpy(good, 0), "truncated data"},
      {makeNpy(good, 25), "trailing bytes after the data"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False}", 0),
       "missing key 'shape'"},
      {makeNpy("{'fortran_order': False, 'shape': ()}", 4),
       "missing key 'descr'"},
      {makeNpy("{'descr': '<f4', 'shape': ()}", 4),
       "missing key 'fortran_order'"},
      {makeNpy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
               "'shape': ()}",
               4),
       "duplicate key 'descr'"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (), "
               "'extra': 1}",
               4),
       "unexpected key 'extra'"},
      {makeNpy("{'descr': [('a', '<f4')], 'fortran_order': False, "
               "'shape': ()}",
               4),
       "'descr' must be a string"},
      {makeNpy("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}", 4),
       "'fortran_order' must be True or False"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", 8),
       "'shape' must be a tuple"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", 0),
       "non-negative integers"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}", 0),
       "expected ',' or ')'"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,", 0),
       "non-negative integers"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, "
               "'shape': (99999999999999999999,)}",
               0),
       "dimension too large"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, "
               "'shape': (4611686018427387904, 4)}",
               0),
       "array size overflows"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': ()", 4),
       "expected ',' or '}'"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': ()} x", 4),
       "unexpected text after the header dict"},
      {makeNpy("['descr', '<f4']", 4), "expected '{'"},
      {makeNpy("{descr: '<f4'}", 4), "expected a quoted key"},
      {makeNpy("{'descr' '<f4'}", 4), "expected ':' after key 'descr'"},
      {makeNpy("{'descr': '<f4, 'fortran_order': False, 'shape': ()}", 4),
       "malformed header"},
      {makeNpy("{'descr': 'O', 'fortran_order': False, 'shape': ()}", 8),
       "unsupported dtype 'O'"},
  };
  for (const Case &c : cases) {
    std::string text(c.bytes.begin(), c.bytes.end());
    INFO("file: " << text);
    std::string error = parseError(c.bytes);
    INFO("error: " << error);
    CHECK(contains(error, c.message));
  }

  // A header length pointing past the end of the file.
  std::vector<uint8_t> bytes = makeNpy(good, 24);
  bytes[9] = 0xff;
  CHECK(contains(parseError(bytes), "truncated file: header needs 65"));
  bytes = makeNpy(good, 24, 2);
  bytes[11] = 0xff;
  CHECK(contains(parseError(bytes), "truncated file: header needs"));
}

TEST_CASE("truncated and corrupted files never crash", "[npy]") {
  std::vector<uint8_t> file = readBytes(dataFile("npy_f8.npy"));
  // Every proper prefix is an error.
  for (size_t len = 0; len < file.size(); ++len) {
    INFO("prefix length " << len);
    CHECK(parseError(std::vector<uint8_t>(file.begin(), file.begin() + len)) !=
          "");
  }
  // Random byte flips: either parse or report an error.
  std::mt19937 rng(42);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::vector<uint8_t> bytes = file;
    int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f)
      bytes[rng() % 128] = uint8_t(rng());
    npy::Array array;
    std::string error;
    if (!npy::parse(bytes.data(), bytes.size(), array, error))
      CHECK(!error.empty());
    else
      CHECK(array.data.size() ==
            array.numElements() * elementSize(array.dtype));
  }
}

TEST_CASE("half-precision conversion", "[npy]") {
  CHECK(npy::bf16ToFloat(0x3f80) == 1.0f);
  CHECK(npy::bf16ToFloat(0xc000) == -2.0f);
  CHECK(npy::floatToBF16(1.0f) == 0x3f80);
  // Ties round to even: 1 + 2^-8 -> 1, 1 + 3 * 2^-8 -> 1 + 2^-6.
  CHECK(npy::floatToBF16(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);
  CHECK(npy::floatToBF16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);
  CHECK(npy::floatToBF16(1.0f + std::ldexp(1.0f, -8) +
                         std::ldexp(1.0f, -20)) == 0x3f81);
  CHECK(npy::floatToBF16(INFINITY) == 0x7f80);
  CHECK(npy::floatToBF16(-INFINITY) == 0xff80);
  CHECK(npy::floatToBF16(3.4e38f) == 0x7f80); // rounds past the largest
  CHECK(std::isnan(npy::bf16ToFloat(npy::floatToBF16(NAN))));
  CHECK(npy::floatToBF16(std::ldexp(1.0f, -133)) == 0x0001); // subnormal
  CHECK(npy::isFloatDType(MLC_BF16));
  uint16_t bf16[] = {0x3f80, 0xc040};
  CHECK(npy::loadFloat(MLC_BF16, reinterpret_cast<uint8_t *>(bf16), 1) ==
        -3.0);
  // No .npy descr: mlc-run reads and writes bf16 as <f4.
  CHECK(npy::descrForDtype(MLC_BF16) == nullptr);
  CHECK(npy::halfToFloat(0x3c00) == 1.0f);
  CHECK(npy::halfToFloat(0xc000) == -2.0f);
  CHECK(npy::halfToFloat(0x0001) == std::ldexp(1.0f, -24)); // subnormal
  CHECK(std::isinf(npy::halfToFloat(0x7c00)));
  CHECK(std::isnan(npy::halfToFloat(0x7e00)));
  CHECK(npy::floatToHalf(1.0f) == 0x3c00);
  CHECK(npy::floatToHalf(-2.0f) == 0xc000);
  CHECK(npy::floatToHalf(1e6f) == 0x7c00);       // overflow -> inf
  CHECK(npy::floatToHalf(1.0f + 1.0f / 2048) == 0x3c00); // ties to even
  CHECK((npy::floatToHalf(NAN) & 0x7c00) == 0x7c00);
  for (uint32_t h = 0; h < 0x7c00; ++h) // every finite half round-trips
    REQUIRE(npy::floatToHalf(npy::halfToFloat(uint16_t(h))) == h);
}
