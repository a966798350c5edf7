//===- WeightBlobs.h - the dense_resource blobs weights live in -*- C++ -*-===//
//
// MLIR keeps every dense_resource blob until its context dies; the passes
// and the back end that free weights nothing reads any more share these.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_GRAPH_WEIGHTBLOBS_H
#define MLC_DIALECT_GRAPH_WEIGHTBLOBS_H

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Operation.h"

namespace mlc::graph {

using BlobEntry = mlir::DialectResourceBlobManager::BlobEntry;

/// Calls `fn` with the blob of every dense_resource attribute of `root`
/// and the ops nested in it (once per attribute).
void forEachWeightBlob(mlir::Operation *root,
                       llvm::function_ref<void(BlobEntry *)> fn);

/// Frees the blob's bytes (it stays registered, empty).
void releaseBlob(BlobEntry *blob);

} // namespace mlc::graph

#endif
