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
#include "llvm/ADT/DenseMap.h"

#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

namespace mlc::graph {

using BlobEntry = mlir::DialectResourceBlobManager::BlobEntry;

/// Calls `fn` with the blob of every dense_resource attribute of `root`
/// and the ops nested in it (once per attribute).
void forEachWeightBlob(mlir::Operation *root,
                       llvm::function_ref<void(BlobEntry *)> fn);

/// Frees the blob's bytes (it stays registered, empty).
void releaseBlob(BlobEntry *blob);

/// The blob of `constant`, a constant-like op whose value is a
/// dense_resource; null for any other op.
BlobEntry *weightBlob(mlir::Operation *constant);

/// The bytes of `blob` when they can be rewritten where they are: present,
/// mutable, `bytes` long and aligned to `align`. Whether anything else reads
/// them is the caller's to know (BlobReferences).
std::optional<llvm::MutableArrayRef<char>>
writableBytes(BlobEntry *blob, size_t bytes, size_t align);

/// Moves the bytes out of `blob` (it stays registered, empty): a new
/// constant takes them over.
mlir::AsmResourceBlob takeBlob(BlobEntry *blob);

/// How many attributes under a root name each blob. A compile owns the
/// blobs of its context (a calibration compiles a copy in a context of its
/// own), so a constant that is the only op naming its blob, with one use,
/// is the only way to its bytes: that use may rewrite them in place rather
/// than fill fresh memory, which costs more than the copy itself on some
/// machines (docs/compiler.md, "Weights rewritten where they are").
class BlobReferences {
public:
  explicit BlobReferences(mlir::Operation *root);
  /// Whether `constant` is a weight with one use and the only op under the
  /// root that names its blob (and names it once).
  bool soleReader(mlir::Operation *constant) const;

private:
  llvm::DenseMap<BlobEntry *, int> counts;
};

/// Buffers a pass's threads copy a weight into before writing its new
/// layout over it: each goes back to the pool after use, so the copies of a
/// whole model reuse the few buffers its threads need at once.
class ScratchBuffers {
public:
  /// Rewrites `data` where it is: `rewrite(copy, data)`, with `copy` the
  /// old values in one of the pool's buffers. Thread-safe.
  template <typename T, typename F>
  void rewriteFromCopy(llvm::MutableArrayRef<T> data, F &&rewrite) {
    size_t bytes = data.size() * sizeof(T);
    std::vector<char> copy = take(bytes);
    std::memcpy(copy.data(), data.data(), bytes);
    rewrite(llvm::ArrayRef<T>(reinterpret_cast<const T *>(copy.data()),
                              data.size()),
            data);
    give(std::move(copy));
  }

private:
  /// A buffer of at least `bytes` bytes (more if it was used before).
  std::vector<char> take(size_t bytes);
  void give(std::vector<char> buffer);

  std::mutex lock;
  std::vector<std::vector<char>> free;
};

} // namespace mlc::graph

#endif
