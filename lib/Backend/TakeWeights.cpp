//===- TakeWeights.cpp - weight globals -> WeightsImage -------------------===//
//
// Translating a weight global to LLVM IR copies its bytes into a uniqued
// ConstantDataArray, and emitting it copies them twice more (the assembler's
// fragments, the object in memory): for VGG-11's 640 MB of packed weights
// that was most of the compiler's peak memory and several seconds. Here the
// globals become declarations and the image keeps pointers into the blobs
// the MLIR context already holds.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Weights.h"
#include "mlc/Dialect/Graph/WeightBlobs.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;

namespace mlc::backend {

namespace {
/// The bytes of a packed global's initializer (PackWeightGlobals leaves
/// tensor<N x i8> dense or dense_resource values), or none.
std::optional<ArrayRef<char>> initializerBytes(LLVM::GlobalOp global) {
  Attribute value = global.getValueAttr();
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(value))
    if (!dense.isSplat() && dense.getElementType().isInteger(8))
      return dense.getRawData();
  return std::nullopt;
}
} // namespace

void takeWeights(ModuleOp module, StringRef section, StringRef symbolPrefix,
                 WeightsImage &image) {
  MLIRContext *ctx = module.getContext();
  llvm::StringMap<StringAttr> renamed;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (!global.getConstant() || global.getSection() != section)
      continue;
    std::optional<ArrayRef<char>> bytes = initializerBytes(global);
    if (!bytes || bytes->empty())
      continue;
    uint64_t align = global.getAlignment().value_or(1);
    uint64_t offset = llvm::alignTo(image.size, align);
    std::string symbol = (symbolPrefix + "_" + global.getSymName()).str();
    image.entries.push_back({symbol, *bytes, offset});
    image.sources.push_back(global.getValueAttr());
    image.size = offset + bytes->size();
    image.alignment = std::max(image.alignment, align);

    renamed[global.getSymName()] = StringAttr::get(ctx, symbol);
    global.setSymName(symbol);
    global.setValueAttr(nullptr);
    global.setLinkage(LLVM::Linkage::External);
    global.setVisibility_(LLVM::Visibility::Hidden);
    global.setSection(std::nullopt);
    global.setUnnamedAddr(std::nullopt);
  }
  if (renamed.empty())
    return;
  // Weights are only ever used through their address: one walk renames
  // every use (SymbolTable::rename would walk the module once per weight).
  module.walk([&](LLVM::AddressOfOp addr) {
    auto it = renamed.find(addr.getGlobalName());
    if (it != renamed.end())
      addr.setGlobalNameAttr(FlatSymbolRefAttr::get(it->second));
  });
}

uint64_t WeightsImage::fingerprint() const {
  if (cachedFingerprint)
    return *cachedFingerprint;
  // Each entry's offset, size and hash, then the hash of that table.
  std::vector<uint64_t> table = {size};
  for (const Entry &e : entries) {
    table.push_back(e.offset);
    table.push_back(e.bytes.size());
    table.push_back(llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(e.bytes.data()), e.bytes.size())));
  }
  cachedFingerprint = llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(table.data()),
                              table.size() * sizeof(uint64_t)));
  return *cachedFingerprint;
}

void WeightsImage::releaseBlobs() {
  for (Attribute source : sources)
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(source))
      if (graph::BlobEntry *entry = resource.getRawHandle().getResource())
        graph::releaseBlob(entry);
  for (Entry &e : entries)
    e.bytes = {};
  sources.clear();
}

} // namespace mlc::backend
