//===- WeightBlobs.cpp - the dense_resource blobs weights live in ---------===//

#include "mlc/Dialect/Graph/WeightBlobs.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace mlc::graph {

void forEachWeightBlob(Operation *root,
                       llvm::function_ref<void(BlobEntry *)> fn) {
  root->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
      if (BlobEntry *entry = attr.getRawHandle().getResource())
        fn(entry);
    });
  });
}

void releaseBlob(BlobEntry *blob) { blob->setBlob(AsmResourceBlob()); }

BlobEntry *weightBlob(Operation *constant) {
  if (!constant || !constant->hasTrait<OpTrait::ConstantLike>() ||
      constant->getNumResults() != 1)
    return nullptr;
  for (NamedAttribute named : constant->getAttrs())
    if (auto attr = dyn_cast<DenseResourceElementsAttr>(named.getValue()))
      return attr.getRawHandle().getResource();
  return nullptr;
}

std::optional<MutableArrayRef<char>> writableBytes(BlobEntry *blob,
                                                   size_t bytes, size_t align) {
  AsmResourceBlob *data = blob ? blob->getBlob() : nullptr;
  if (!data || !data->isMutable() || data->getData().size() != bytes ||
      reinterpret_cast<uintptr_t>(data->getData().data()) % align)
    return std::nullopt;
  return data->getMutableData();
}

AsmResourceBlob takeBlob(BlobEntry *blob) {
  AsmResourceBlob taken = std::move(*blob->getBlob());
  releaseBlob(blob);
  return taken;
}

BlobReferences::BlobReferences(Operation *root) {
  forEachWeightBlob(root, [&](BlobEntry *blob) { ++counts[blob]; });
}

bool BlobReferences::soleReader(Operation *constant) const {
  BlobEntry *blob = weightBlob(constant);
  auto it = blob ? counts.find(blob) : counts.end();
  return it != counts.end() && it->second == 1 && constant->hasOneUse();
}

std::vector<char> ScratchBuffers::take(size_t bytes) {
  std::vector<char> buffer;
  {
    std::lock_guard<std::mutex> guard(lock);
    if (!free.empty()) {
      buffer = std::move(free.back());
      free.pop_back();
    }
  }
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer;
}

void ScratchBuffers::give(std::vector<char> buffer) {
  std::lock_guard<std::mutex> guard(lock);
  free.push_back(std::move(buffer));
}

} // namespace mlc::graph
