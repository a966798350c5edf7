//===- WeightsInFile.cpp - weights in a section of the linked model.so ----===//
//
// A linker copies every byte it is given: handed the weights' object, GNU ld
// read a model's 95 MB of weights and wrote them out again, most of the
// link's time. Instead the weights' object holds only a zero-filled region
// and the header the weights must carry, and the weights are appended to
// the linked file as a section of its own, written once. The model's
// constructor maps that section onto the region while the model.so loads
// (runtime/lib/WeightsInFile.cpp).
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Weights.h"
#include "mlc/model_abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace mlc::backend {

void addWeightsInFileConstructor(Module &module) {
  LLVMContext &ctx = module.getContext();
  Type *ptr = PointerType::getUnqual(ctx);
  Type *voidTy = Type::getVoidTy(ctx);
  // Both are the weights' object's, linked into the same model.so.
  auto hidden = [](GlobalValue *value) {
    value->setVisibility(GlobalValue::HiddenVisibility);
    value->setDSOLocal(true);
    return value;
  };
  auto declare = [&](StringRef name) {
    return hidden(new GlobalVariable(
        module, Type::getInt8Ty(ctx),
        /*isConstant=*/true, GlobalValue::ExternalLinkage, nullptr, name));
  };
  Function *map = Function::Create(FunctionType::get(voidTy, {ptr, ptr}, false),
                                   GlobalValue::ExternalLinkage,
                                   MLC_FN_MAP_WEIGHTS_IN_FILE, module);
  hidden(map);
  Function *ctor = Function::Create(FunctionType::get(voidTy, false),
                                    GlobalValue::InternalLinkage,
                                    "mlc_model_map_weights", module);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", ctor));
  b.CreateCall(
      map, {declare(MLC_SYM_WEIGHTS_IN_FILE), declare(MLC_SYM_WEIGHTS_REGION)});
  b.CreateRetVoid();
  appendToGlobalCtors(module, ctor, /*Priority=*/65535);
}

LogicalResult appendWeightsSection(const WeightsImage &image, StringRef path,
                                   std::string &error) {
  auto fail = [&](const Twine &why) {
    error = ("cannot add the weights to '" + path + "': " + why).str();
    return failure();
  };
  // The linked file without the weights is small: read it whole.
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail(buffer.getError().message());
  uint64_t fileSize = (*buffer)->getBufferSize();
  Expected<object::ELF64LEFile> elf =
      object::ELF64LEFile::create((*buffer)->getBuffer());
  if (!elf)
    return fail(toString(elf.takeError()));
  const object::ELF64LE::Ehdr &header = elf->getHeader();
  Expected<object::ELF64LEFile::Elf_Shdr_Range> sections = elf->sections();
  if (!sections)
    return fail(toString(sections.takeError()));
  uint32_t namesIndex = header.e_shstrndx;
  // No extended numbering: the linker's output has a few dozen sections.
  if (sections->size() + 1 >= ELF::SHN_LORESERVE ||
      namesIndex == ELF::SHN_XINDEX || namesIndex >= sections->size())
    return fail("unexpected section header layout");
  Expected<StringRef> oldNames = elf->getSectionStringTable(
      *sections, [](const Twine &) { return Error::success(); });
  if (!oldNames)
    return fail(toString(oldNames.takeError()));

  uint64_t weightsAt = alignTo(fileSize, MLC_WEIGHTS_ALIGN);
  uint64_t weightsBytes = MLC_WEIGHTS_HEADER_BYTES + image.size;
  uint64_t namesAt = weightsAt + weightsBytes;
  std::string names = oldNames->str();
  uint32_t weightsName = names.size();
  names += MLC_WEIGHTS_SECTION;
  names += '\0';
  uint64_t headersAt = alignTo(namesAt + names.size(), 8);
  std::vector<object::ELF64LE::Shdr> headers(sections->begin(),
                                             sections->end());
  headers[namesIndex].sh_offset = namesAt;
  headers[namesIndex].sh_size = names.size();
  object::ELF64LE::Shdr weights = {};
  weights.sh_name = weightsName;
  weights.sh_type = ELF::SHT_PROGBITS;
  weights.sh_offset = weightsAt;
  weights.sh_size = weightsBytes;
  weights.sh_addralign = MLC_WEIGHTS_ALIGN;
  headers.push_back(weights);
  uint64_t headerTableOffset = offsetof(ELF::Elf64_Ehdr, e_shoff);
  uint64_t headerCountOffset = offsetof(ELF::Elf64_Ehdr, e_shnum);
  buffer->reset();

  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::CD_OpenExisting, sys::fs::FA_Write,
                    sys::fs::OF_None);
  if (ec)
    return fail(ec.message());
  os.seek(fileSize);
  os.write_zeros(weightsAt - fileSize);
  writeWeightsFile(image, os);
  os << names;
  os.write_zeros(headersAt - (namesAt + names.size()));
  os.write(reinterpret_cast<const char *>(headers.data()),
           headers.size() * sizeof(headers[0]));
  support::endian::Writer w(os, endianness::little);
  os.seek(headerTableOffset);
  w.write<uint64_t>(headersAt);
  os.seek(headerCountOffset);
  w.write<uint16_t>(headers.size());
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    return fail(message);
  }
  return success();
}

} // namespace mlc::backend
