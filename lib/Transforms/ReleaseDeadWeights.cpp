//===- ReleaseDeadWeights.cpp - free blobs no op references ---------------===//
//
// The context's blob manager owns every dense_resource blob until the
// context dies. Weights replaced by transformed copies (a transposed, a
// packed or a rescaled weight) would double the compiler's memory on models
// with large weights; this pass frees those no attribute of the module uses.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/WeightBlobs.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"

namespace mlc::graph {
#define GEN_PASS_DEF_RELEASEDEADWEIGHTS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;

namespace {

struct ReleaseDeadWeights
    : mlc::graph::impl::ReleaseDeadWeightsBase<ReleaseDeadWeights> {
  using Base::Base;

  void runOnOperation() override {
    llvm::DenseSet<const void *> used;
    mlc::graph::forEachWeightBlob(
        getOperation(),
        [&](mlc::graph::BlobEntry *blob) { used.insert(blob); });
    DialectResourceBlobManager &manager =
        DenseResourceElementsHandle::getManagerInterface(&getContext())
            .getBlobManager();
    // Names first: the map is locked while it is looked at.
    SmallVector<std::string> dead;
    manager.getBlobMap(
        [&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &map) {
          for (const auto &entry : map)
            if (entry.second.getBlob() && !used.contains(&entry.second))
              dead.push_back(entry.first().str());
        });
    for (const std::string &name : dead)
      if (mlc::graph::BlobEntry *entry = manager.lookup(name))
        mlc::graph::releaseBlob(entry);
  }
};

} // namespace
