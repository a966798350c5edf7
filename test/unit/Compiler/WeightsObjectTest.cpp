//===- WeightsObjectTest.cpp - the weights object, read back by LLVM ------===//
//
// Backend/Weights.h writes ELF by hand; LLVM's object reader is the
// independent judge of its sections, symbols and bytes.

#include <catch2/catch.hpp>

#include "mlc/Backend/Weights.h"
#include "mlc/model_abi.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <map>
#include <set>

using namespace llvm;
using namespace mlc::backend;

namespace {

/// The object in `bytes`, which must outlive it.
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

/// The object writeWeightsObject writes for `image`; fails the test if it
/// cannot.
std::string objectFor(const WeightsImage &image, StringRef triple,
                      WeightsPlacement placement, StringRef file = "") {
  std::string bytes, error;
  raw_string_ostream os(bytes);
  if (failed(writeWeightsObject(image, triple, placement, file, os, error)))
    FAIL(error);
  return bytes;
}

} // namespace

TEST_CASE("embedded weights: one read-only section, a hidden symbol each",
          "[weights]") {
  std::string a(100, 'a'), b(30, 'b');
  WeightsImage image = twoWeights(a, b);
  std::string bytes =
      objectFor(image, "x86_64-unknown-linux-gnu", WeightsPlacement::Embedded);
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
  std::string bytes = objectFor(image, "aarch64-unknown-linux-gnu",
                                WeightsPlacement::External, "model.weights");
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

TEST_CASE("in-file weights: a hidden region and the header the section must "
          "carry",
          "[weights]") {
  std::string a(5000, 'x'), b(7, 'y');
  WeightsImage image = twoWeights(a, b);
  std::string bytes =
      objectFor(image, "x86_64-unknown-linux-gnu", WeightsPlacement::InFile);
  auto file = parse(bytes);
  REQUIRE(file);
  mlc_weights_header header = {};
  bool region = false, payload = false;
  for (const object::SectionRef &s : file->sections()) {
    StringRef name = cantFail(s.getName());
    if (name == ".mlc_weights_region") {
      region = true;
      CHECK(s.isBSS());
      CHECK(s.getAlignment().value() == MLC_WEIGHTS_ALIGN);
      CHECK(s.getSize() == MLC_WEIGHTS_ALIGN);
    }
    payload |= name == ".rodata.mlc_weights" || name == ".mlc_weights";
    if (name == ".rodata.mlc_weights_info") {
      StringRef contents = cantFail(s.getContents());
      REQUIRE(contents.size() == sizeof(header));
      memcpy(&header, contents.data(), sizeof(header));
    }
  }
  CHECK(region);
  // No bytes of the weights in the object.
  CHECK_FALSE(payload);
  CHECK(bytes.size() < 4096);
  CHECK(std::string(header.magic, 8) == MLC_WEIGHTS_MAGIC);
  CHECK(header.payload_bytes == 5056 + 7);
  CHECK(header.fingerprint == image.fingerprint());
  std::map<std::string, uint8_t> visibility;
  for (const object::ELFSymbolRef &sym :
       cast<object::ELFObjectFileBase>(file.get())->symbols())
    visibility[cantFail(sym.getName()).str()] = sym.getOther();
  // Only the model's own constructor reads them.
  CHECK(visibility[MLC_SYM_WEIGHTS_REGION] == ELF::STV_HIDDEN);
  CHECK(visibility[MLC_SYM_WEIGHTS_IN_FILE] == ELF::STV_HIDDEN);
  CHECK(visibility.count(MLC_SYM_EXTERNAL_WEIGHTS) == 0);
}

TEST_CASE("appending the weights section keeps the file's sections and "
          "symbols",
          "[weights]") {
  SmallString<128> path;
  REQUIRE(!sys::fs::createTemporaryFile("mlc-append", "o", path));
  FileRemover remover(path);
  // Any ELF file with section headers will do: an embedded weights object.
  std::string c(300, 'c'), d(20, 'd');
  WeightsImage first = twoWeights(c, d);
  std::string error;
  {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    REQUIRE(!ec);
    REQUIRE(succeeded(writeWeightsObject(first, "x86_64-unknown-linux-gnu",
                                         WeightsPlacement::Embedded, "", os,
                                         error)));
  }
  std::string a(5000, 'x'), b(7, 'y');
  WeightsImage image = twoWeights(a, b);
  REQUIRE(succeeded(appendWeightsSection(image, path, error)));

  auto buffer = MemoryBuffer::getFile(path);
  REQUIRE(buffer);
  auto created = object::ObjectFile::createObjectFile(**buffer);
  if (!created)
    FAIL(toString(created.takeError()));
  std::unique_ptr<object::ObjectFile> &file = *created;
  std::string weights, oldPayload;
  uint64_t weightsOffset = 0;
  for (const object::SectionRef &s : file->sections()) {
    StringRef name = cantFail(s.getName());
    if (name == MLC_WEIGHTS_SECTION) {
      auto elf = object::ELFSectionRef(s);
      CHECK(elf.getType() == ELF::SHT_PROGBITS);
      CHECK(elf.getFlags() == 0); // not loaded
      CHECK(s.getAlignment().value() == MLC_WEIGHTS_ALIGN);
      weightsOffset = elf.getOffset();
      weights = cantFail(s.getContents()).str();
    }
    if (name == ".rodata.mlc_weights")
      oldPayload = cantFail(s.getContents()).str();
  }
  CHECK(weightsOffset % MLC_WEIGHTS_ALIGN == 0);
  // The weights file's contents, byte for byte.
  std::string expected;
  raw_string_ostream expectedOs(expected);
  writeWeightsFile(image, expectedOs);
  CHECK(weights == expected);
  // What was there before is intact, symbols included.
  CHECK(oldPayload.substr(0, 300) == c);
  std::set<std::string> names;
  for (const object::SymbolRef &sym : file->symbols())
    names.insert(cantFail(sym.getName()).str());
  CHECK(names == std::set<std::string>{"w_a", "w_b"});

  // Not an ELF file: a message naming it, the file untouched.
  {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    os << "not an object";
  }
  CHECK(failed(appendWeightsSection(image, path, error)));
  CHECK(error.find("cannot add the weights to '" + path.str().str() + "'") ==
        0);
  CHECK(MemoryBuffer::getFile(path).get()->getBuffer() == "not an object");
}
