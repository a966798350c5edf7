//===- WeightsObjectTest.cpp - the weights object, read back by LLVM ------===//
//
// Backend/Weights.h writes ELF by hand; LLVM's object reader is the
// independent judge of its sections, symbols and bytes.

#include <catch2/catch.hpp>

#include "mlc/Backend/Weights.h"
#include "mlc/model_abi.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <map>

using namespace llvm;
using namespace mlc::backend;

namespace {

std::unique_ptr<object::ObjectFile> parse(const std::string &bytes) {
  auto file =
      object::ObjectFile::createObjectFile(MemoryBufferRef(bytes, "weights.o"));
  if (!file) {
    FAIL(toString(file.takeError()));
    return nullptr;
  }
  return std::move(*file);
}

WeightsImage twoWeights(const std::string &a, const std::string &b) {
  WeightsImage image;
  image.entries.push_back({"w_a", ArrayRef<char>(a.data(), a.size()), 0});
  image.entries.push_back(
      {"w_b", ArrayRef<char>(b.data(), b.size()), alignTo(a.size(), 64)});
  image.size = image.entries[1].offset + b.size();
  image.alignment = 64;
  return image;
}

} // namespace

TEST_CASE("embedded weights: one read-only section, a hidden symbol each",
          "[weights]") {
  std::string a(100, 'a'), b(30, 'b');
  WeightsImage image = twoWeights(a, b);
  std::string bytes, error;
  raw_string_ostream os(bytes);
  REQUIRE(
      succeeded(writeWeightsObject(image, "x86_64-unknown-linux-gnu",
                                   WeightsPlacement::Embedded, "", os, error)));
  auto file = parse(bytes);
  REQUIRE(file);
  CHECK(file->getArch() == Triple::x86_64);
  std::string data;
  bool noteGNUStack = false;
  for (const object::SectionRef &s : file->sections()) {
    StringRef name = cantFail(s.getName());
    if (name == ".note.GNU-stack")
      noteGNUStack = true;
    if (name != ".rodata.mlc_weights")
      continue;
    CHECK(s.getAlignment().value() == 64);
    CHECK(!s.isBSS());
    data = cantFail(s.getContents()).str();
  }
  CHECK(noteGNUStack);
  REQUIRE(data.size() == 128 + 30);
  CHECK(data.substr(0, 100) == a);
  CHECK(data.substr(100, 28) == std::string(28, '\0'));
  CHECK(data.substr(128) == b);

  std::map<std::string, std::pair<uint64_t, uint64_t>> symbols;
  for (const object::ELFSymbolRef &sym :
       cast<object::ELFObjectFileBase>(file.get())->symbols()) {
    std::string name = cantFail(sym.getName()).str();
    if (name.empty())
      continue;
    CHECK(sym.getOther() == ELF::STV_HIDDEN);
    CHECK(sym.getBinding() == ELF::STB_GLOBAL);
    symbols[name] = {cantFail(sym.getValue()), sym.getSize()};
  }
  CHECK(symbols.size() == 2);
  CHECK(symbols["w_a"] == std::make_pair(uint64_t(0), uint64_t(100)));
  CHECK(symbols["w_b"] == std::make_pair(uint64_t(128), uint64_t(30)));
}

TEST_CASE("external weights: a zero-filled region, its description and the "
          "file",
          "[weights]") {
  std::string a(5000, 'x'), b(7, 'y');
  WeightsImage image = twoWeights(a, b);
  std::string bytes, error;
  raw_string_ostream os(bytes);
  REQUIRE(succeeded(writeWeightsObject(image, "aarch64-unknown-linux-gnu",
                                       WeightsPlacement::External,
                                       "model.weights", os, error)));
  auto file = parse(bytes);
  REQUIRE(file);
  CHECK(file->getArch() == Triple::aarch64);
  mlc_external_weights info = {};
  bool region = false;
  for (const object::SectionRef &s : file->sections()) {
    StringRef name = cantFail(s.getName());
    if (name == ".mlc_weights") {
      region = true;
      CHECK(s.isBSS());
      CHECK(s.getAlignment().value() == MLC_WEIGHTS_ALIGN);
      CHECK(s.getSize() == MLC_WEIGHTS_ALIGN);
    }
    if (name == ".rodata.mlc_weights_info") {
      StringRef contents = cantFail(s.getContents());
      REQUIRE(contents.size() == sizeof(info));
      memcpy(&info, contents.data(), sizeof(info));
    }
  }
  CHECK(region);
  CHECK(std::string(info.header.magic, 8) == MLC_WEIGHTS_MAGIC);
  CHECK(info.header.payload_bytes == 5000 + 7 + (5056 - 5000));
  CHECK(info.header.fingerprint == image.fingerprint());
  CHECK(std::string(info.file) == "model.weights");
  std::map<std::string, uint8_t> visibility;
  for (const object::ELFSymbolRef &sym :
       cast<object::ELFObjectFileBase>(file.get())->symbols())
    visibility[cantFail(sym.getName()).str()] = sym.getOther();
  CHECK(visibility[MLC_SYM_WEIGHTS_REGION] == ELF::STV_DEFAULT);
  CHECK(visibility[MLC_SYM_EXTERNAL_WEIGHTS] == ELF::STV_DEFAULT);
  CHECK(visibility["w_b"] == ELF::STV_HIDDEN);

  // The file: header page, then the payload at the same offsets.
  std::string weights;
  raw_string_ostream fileOs(weights);
  writeWeightsFile(image, fileOs);
  REQUIRE(weights.size() == MLC_WEIGHTS_HEADER_BYTES + 5056 + 7);
  CHECK(memcmp(weights.data(), &info.header, sizeof(info.header)) == 0);
  CHECK(weights.substr(MLC_WEIGHTS_HEADER_BYTES, 5000) == a);
  CHECK(weights.substr(MLC_WEIGHTS_HEADER_BYTES + 5056) == b);
}

TEST_CASE("the fingerprint changes with any byte and any offset", "[weights]") {
  std::string a(100, 'a'), b(30, 'b');
  uint64_t base = twoWeights(a, b).fingerprint();
  std::string a2 = a;
  a2[57] = 'z';
  CHECK(twoWeights(a2, b).fingerprint() != base);
  WeightsImage moved = twoWeights(a, b);
  moved.entries[1].offset += 64;
  moved.size += 64;
  CHECK(moved.fingerprint() != base);
  CHECK(twoWeights(a, b).fingerprint() == base);
}

TEST_CASE("other targets are refused with a message", "[weights]") {
  WeightsImage image;
  std::string bytes, error;
  raw_string_ostream os(bytes);
  CHECK(failed(writeWeightsObject(image, "x86_64-apple-macosx",
                                  WeightsPlacement::Embedded, "", os, error)));
  CHECK(error.find("x86_64-apple-macosx") != std::string::npos);
  std::string longName(300, 'n');
  CHECK(failed(writeWeightsObject(image, "x86_64-unknown-linux-gnu",
                                  WeightsPlacement::External, longName, os,
                                  error)));
  CHECK(error.find("longer than 231 bytes") != std::string::npos);
}
