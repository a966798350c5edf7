//===- WeightsObject.cpp - the weights as an ELF object and a file --------===//
//
// The object is small enough to write by hand: sections of bytes and one
// symbol per weight, no relocations. Writing it directly streams the blobs
// to the file (no assembler, no copy) and makes it depend on nothing but
// the layout, so it is the same for every -j.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Weights.h"
#include "mlc/model_abi.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Triple.h"

#include <cstring>
#include <functional>

using namespace llvm;

namespace mlc::backend {

namespace {

struct Symbol {
  std::string name;
  unsigned section; // index into Object::sections, from 1
  uint64_t offset, size;
  bool hidden;
};

struct Section {
  std::string name;
  uint32_t type;
  uint64_t flags, align, size;
  /// The bytes (PROGBITS): writes them, `size` in all.
  std::function<void(raw_ostream &)> write;
  uint64_t fileOffset = 0, nameOffset = 0;
};

/// A string table: "\0name\0name\0...".
struct StringTable {
  std::string data = std::string(1, '\0');
  uint64_t add(StringRef s) {
    uint64_t at = data.size();
    data += s;
    data += '\0';
    return at;
  }
};

void writeZeros(raw_ostream &os, uint64_t n) {
  static const char zeros[4096] = {};
  for (; n > sizeof(zeros); n -= sizeof(zeros))
    os.write(zeros, sizeof(zeros));
  os.write(zeros, n);
}

/// Writes an ELF64 little-endian relocatable object with `sections` (after
/// the null section) and then .symtab, .strtab, .shstrtab.
void writeELF(raw_ostream &os, uint16_t machine, std::vector<Section> &sections,
              const std::vector<Symbol> &symbols) {
  StringTable shstrtab, strtab;
  for (Section &s : sections)
    s.nameOffset = shstrtab.add(s.name);
  uint64_t symtabName = shstrtab.add(".symtab");
  uint64_t strtabName = shstrtab.add(".strtab");
  uint64_t shstrtabName = shstrtab.add(".shstrtab");
  std::vector<uint64_t> symbolNames;
  for (const Symbol &s : symbols)
    symbolNames.push_back(strtab.add(s.name));

  // Layout: header, each section's bytes, the tables, the section headers.
  uint64_t at = sizeof(ELF::Elf64_Ehdr);
  // A NOBITS section has no bytes to align in the file.
  for (Section &s : sections) {
    if (s.type != ELF::SHT_NOBITS)
      at = alignTo(at, s.align);
    s.fileOffset = at;
    if (s.type != ELF::SHT_NOBITS)
      at += s.size;
  }
  uint64_t symtabOffset = alignTo(at, 8);
  uint64_t symtabSize = (symbols.size() + 1) * sizeof(ELF::Elf64_Sym);
  uint64_t strtabOffset = symtabOffset + symtabSize;
  uint64_t shstrtabOffset = strtabOffset + strtab.data.size();
  uint64_t headersOffset = alignTo(shstrtabOffset + shstrtab.data.size(), 8);
  unsigned numSections = sections.size() + 4; // null + 3 tables
  unsigned symtabIndex = sections.size() + 1;

  support::endian::Writer w(os, endianness::little);
  uint64_t written = 0;
  auto padTo = [&](uint64_t offset) {
    writeZeros(os, offset - written);
    written = offset;
  };
  // The file header.
  os.write(ELF::ElfMagic, 4);
  w.write<uint8_t>(ELF::ELFCLASS64);
  w.write<uint8_t>(ELF::ELFDATA2LSB);
  w.write<uint8_t>(ELF::EV_CURRENT);
  w.write<uint8_t>(ELF::ELFOSABI_NONE);
  writeZeros(os, 8); // ABI version, padding
  w.write<uint16_t>(ELF::ET_REL);
  w.write<uint16_t>(machine);
  w.write<uint32_t>(ELF::EV_CURRENT);
  w.write<uint64_t>(0); // entry
  w.write<uint64_t>(0); // program headers
  w.write<uint64_t>(headersOffset);
  w.write<uint32_t>(0); // flags
  w.write<uint16_t>(sizeof(ELF::Elf64_Ehdr));
  w.write<uint16_t>(0); // program header entry size
  w.write<uint16_t>(0); // program headers
  w.write<uint16_t>(sizeof(ELF::Elf64_Shdr));
  w.write<uint16_t>(numSections);
  w.write<uint16_t>(numSections - 1); // .shstrtab
  written = sizeof(ELF::Elf64_Ehdr);

  for (Section &s : sections) {
    if (s.type == ELF::SHT_NOBITS || !s.write)
      continue;
    padTo(s.fileOffset);
    s.write(os);
    written += s.size;
  }
  padTo(symtabOffset);
  writeZeros(os, sizeof(ELF::Elf64_Sym)); // the null symbol
  for (auto [s, name] : llvm::zip_equal(symbols, symbolNames)) {
    w.write<uint32_t>(name);
    w.write<uint8_t>((ELF::STB_GLOBAL << 4) | ELF::STT_OBJECT);
    w.write<uint8_t>(s.hidden ? ELF::STV_HIDDEN : ELF::STV_DEFAULT);
    w.write<uint16_t>(s.section);
    w.write<uint64_t>(s.offset);
    w.write<uint64_t>(s.size);
  }
  os << strtab.data << shstrtab.data;
  written = shstrtabOffset + shstrtab.data.size();
  padTo(headersOffset);

  auto header = [&](uint64_t name, uint32_t type, uint64_t flags,
                    uint64_t offset, uint64_t size, uint32_t link,
                    uint32_t info, uint64_t align, uint64_t entsize) {
    w.write<uint32_t>(name);
    w.write<uint32_t>(type);
    w.write<uint64_t>(flags);
    w.write<uint64_t>(0); // address
    w.write<uint64_t>(offset);
    w.write<uint64_t>(size);
    w.write<uint32_t>(link);
    w.write<uint32_t>(info);
    w.write<uint64_t>(align);
    w.write<uint64_t>(entsize);
  };
  header(0, ELF::SHT_NULL, 0, 0, 0, 0, 0, 0, 0);
  for (const Section &s : sections)
    header(s.nameOffset, s.type, s.flags, s.fileOffset, s.size, 0, 0, s.align,
           0);
  // Every symbol is global: the first non-local one is number 1.
  header(symtabName, ELF::SHT_SYMTAB, 0, symtabOffset, symtabSize,
         symtabIndex + 1, 1, 8, sizeof(ELF::Elf64_Sym));
  header(strtabName, ELF::SHT_STRTAB, 0, strtabOffset, strtab.data.size(), 0, 0,
         1, 0);
  header(shstrtabName, ELF::SHT_STRTAB, 0, shstrtabOffset, shstrtab.data.size(),
         0, 0, 1, 0);
}

/// The entries' bytes at their offsets, zeros between them.
void writePayload(const WeightsImage &image, raw_ostream &os) {
  uint64_t at = 0;
  for (const WeightsImage::Entry &e : image.entries) {
    writeZeros(os, e.offset - at);
    os.write(e.bytes.data(), e.bytes.size());
    at = e.offset + e.bytes.size();
  }
}

mlc_weights_header fileHeader(const WeightsImage &image) {
  mlc_weights_header h;
  memcpy(h.magic, MLC_WEIGHTS_MAGIC, sizeof(h.magic));
  h.payload_bytes = image.size;
  h.fingerprint = image.fingerprint();
  return h;
}

} // namespace

LogicalResult writeWeightsObject(const WeightsImage &image, StringRef triple,
                                 WeightsPlacement placement,
                                 StringRef weightsFile, raw_ostream &os,
                                 std::string &error) {
  Triple t(triple);
  if (!t.isOSBinFormatELF() || !t.isArch64Bit() || !t.isLittleEndian() ||
      (!t.isX86() && !t.isAArch64())) {
    error = "the weights object is written for x86-64 and AArch64 ELF "
            "targets only, not '" +
            triple.str() + "'";
    return failure();
  }
  uint16_t machine = t.isX86() ? ELF::EM_X86_64 : ELF::EM_AARCH64;

  std::vector<Section> sections;
  std::vector<Symbol> symbols;
  bool external = placement == WeightsPlacement::External;
  if (placement != WeightsPlacement::Embedded) {
    // Writable so that the loader maps it as zero pages the runtime can
    // replace; its own pages, so the mapping touches nothing else.
    sections.push_back({external ? ".mlc_weights" : ".mlc_weights_region",
                        ELF::SHT_NOBITS, ELF::SHF_ALLOC | ELF::SHF_WRITE,
                        MLC_WEIGHTS_ALIGN,
                        alignTo(image.size, MLC_WEIGHTS_ALIGN), nullptr});
    // The runtime looks the external region up; the in-file one is only
    // for the model's own constructor.
    symbols.push_back({MLC_SYM_WEIGHTS_REGION, 1, 0, sections[0].size,
                       /*hidden=*/!external});
  }
  // The description the runtime (external) or the model's constructor (in
  // file) reads: the header the weights must carry.
  auto describe = [&](StringRef symbol, std::string bytes, bool hidden) {
    uint64_t size = bytes.size();
    sections.push_back(
        {".rodata.mlc_weights_info", ELF::SHT_PROGBITS, ELF::SHF_ALLOC, 8, size,
         [bytes = std::move(bytes)](raw_ostream &out) { out << bytes; }});
    symbols.push_back(
        {symbol.str(), unsigned(sections.size()), 0, size, hidden});
  };
  auto asBytes = [](const auto &value) {
    return std::string(reinterpret_cast<const char *>(&value), sizeof(value));
  };
  if (external) {
    mlc_external_weights info = {};
    info.header = fileHeader(image);
    if (weightsFile.size() >= sizeof(info.file)) {
      error = "the weights file name '" + weightsFile.str() +
              "' is longer than " + std::to_string(sizeof(info.file) - 1) +
              " bytes";
      return failure();
    }
    memcpy(info.file, weightsFile.data(), weightsFile.size());
    describe(MLC_SYM_EXTERNAL_WEIGHTS, asBytes(info), /*hidden=*/false);
  } else if (placement == WeightsPlacement::InFile) {
    describe(MLC_SYM_WEIGHTS_IN_FILE, asBytes(fileHeader(image)),
             /*hidden=*/true);
  } else {
    sections.push_back(
        {".rodata.mlc_weights", ELF::SHT_PROGBITS, ELF::SHF_ALLOC,
         image.alignment, image.size,
         [&image](raw_ostream &out) { writePayload(image, out); }});
  }
  for (const WeightsImage::Entry &e : image.entries)
    symbols.push_back({e.symbol, 1, e.offset, e.bytes.size(), /*hidden=*/true});
  // No executable stack: without this note the linker assumes the object
  // needs one.
  sections.push_back({".note.GNU-stack", ELF::SHT_PROGBITS, 0, 1, 0, nullptr});
  writeELF(os, machine, sections, symbols);
  return success();
}

void writeWeightsFile(const WeightsImage &image, raw_ostream &os) {
  mlc_weights_header h = fileHeader(image);
  os.write(reinterpret_cast<const char *>(&h), sizeof(h));
  writeZeros(os, MLC_WEIGHTS_HEADER_BYTES - sizeof(h));
  writePayload(image, os);
}

} // namespace mlc::backend
