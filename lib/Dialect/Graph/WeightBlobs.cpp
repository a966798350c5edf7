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

} // namespace mlc::graph
