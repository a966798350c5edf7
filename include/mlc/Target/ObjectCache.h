//===- ObjectCache.h - objects on disk, keyed by what made them -*- C++ -*-===//
//
// mlc-compile --cache-dir: a directory of compiled objects, each filed
// under a hash of everything that determined it (the part's bitcode, the
// target, the -O level, the code generator's version), so a recompile
// after a small change regenerates only the parts that changed. The cache
// knows nothing of LLVM modules or MLIR: its keys are hashes of byte
// strings the caller chooses (ParallelCodegen.cpp).
//
// An entry is DIR/<first 2 hex digits>/<key hex>.mlcobj: a header (magic,
// entry format version, the key, the object's size and BLAKE3 hash) and
// the object. Entries are written to a temporary in their directory and
// renamed into place, so concurrent compiles never see half an entry; an
// entry that fails any check is a miss, reported, recompiled and replaced:
// never a wrong object. Entries are never evicted: delete the directory
// (or any entries) to reclaim the space; it is always safe.
//
// Thread-safe: parts are looked up and stored from the code generation
// threads.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TARGET_OBJECTCACHE_H
#define MLC_TARGET_OBJECTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace mlc::target {

class ObjectCache {
public:
  using Key = std::array<uint8_t, 32>;
  /// Receives the cache's warnings (a corrupt entry, a directory it cannot
  /// write), one line each, without a prefix; called under a lock.
  using WarningHandler = std::function<void(const llvm::Twine &)>;

  /// Uses `dir`, creating it if missing; if that fails, a warning and every
  /// lookup misses (the compile goes on without the cache).
  ObjectCache(llvm::StringRef dir, WarningHandler warn);

  /// The key of an object made from `fields` (each one length-prefixed, so
  /// no two lists hash alike), the entry format and LLVM's version (the
  /// headers' and the loaded library's).
  static Key keyOf(llvm::ArrayRef<llvm::StringRef> fields);
  static std::string toHex(const Key &key);
  /// Where the entry for `key` lives.
  std::string entryPath(const Key &key) const;

  /// The object stored under `key`, if there is an intact one. A missing
  /// entry is a miss; a damaged one a miss with a warning, counted as
  /// rejected.
  std::optional<llvm::SmallString<0>> lookup(const Key &key);
  /// Files `object` under `key`, replacing any entry there. Failures are a
  /// warning (the first only) and otherwise ignored.
  void store(const Key &key, llvm::StringRef object);

  struct Counts {
    unsigned hits = 0;
    /// Lookups without an intact entry (rejected ones included).
    unsigned misses = 0;
    /// Entries found damaged (truncated, overwritten, misplaced).
    unsigned rejected = 0;
  };
  Counts counts() const;
  llvm::StringRef directory() const { return dir; }

private:
  void warn(const llvm::Twine &message);

  std::string dir;
  bool usable = false;
  WarningHandler warnHandler;
  std::mutex warnLock;
  std::atomic<bool> storeFailed = false;
  std::atomic<unsigned> hits = 0, misses = 0, rejected = 0;
};

} // namespace mlc::target

#endif
