//===- ParallelCodegen.cpp - optimize and emit a model in parts -----------===//
//
// With every kernel in a function of its own (mlc-outline-kernels), the
// LLVM module splits by function into a fixed number of parts, balanced by
// size (llvm::SplitModule, round robin). Each part travels as bitcode into
// an LLVMContext of its own, since a context is not thread-safe, and is
// optimized and emitted to an object in memory on LLVM's thread pool. The
// number of parts depends on the module only, never on the thread count,
// so every -j gives the same objects. The weights are not in the module:
// a model.so's are written from the MLIR blobs (Backend/Weights.h).
//
// With an ObjectCache (--cache-dir), a part's object is filed under a hash
// of its bitcode and of what else determines its code (the target, -O,
// kCodegenVersion): a part whose bitcode is unchanged is not compiled
// again. The objects are the same bytes either way, so is the model.so.
//
//===----------------------------------------------------------------------===//

#include "mlc/Target/ModelEmitter.h"
#include "mlc/Target/ObjectCache.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <atomic>
#include <mutex>
#include <optional>

using namespace llvm;

namespace mlc::target {

unsigned partsFor(const Module &module) {
  unsigned functions = 0;
  for (const Function &f : module)
    functions += !f.isDeclaration();
  // Enough parts to balance 2-16 threads; few enough that the declarations
  // and metadata each part repeats stay cheap.
  return std::clamp(functions / 4, 1u, kMaxCodegenParts);
}

namespace {

/// SplitModule declares every function and global of the module in every
/// part. The unused declarations emit nothing, but a change anywhere (one
/// kernel's signature, a table's size) would change every part's bitcode,
/// and with it every part's cache key.
void dropUnusedDeclarations(Module &part) {
  for (Function &f : make_early_inc_range(part))
    if (f.isDeclaration() && f.use_empty())
      f.eraseFromParent();
  for (GlobalVariable &g : make_early_inc_range(part.globals()))
    if (g.isDeclaration() && g.use_empty())
      g.eraseFromParent();
}

/// The cache key of a part: its bitcode and everything else its object
/// depends on.
ObjectCache::Key partKey(StringRef bitcode, const CPUTarget &target,
                         unsigned optLevel) {
  std::string level = std::to_string(optLevel);
  std::string version = std::to_string(kCodegenVersion);
  return ObjectCache::keyOf(
      {bitcode, target.triple, target.cpu, target.features, level, version});
}

} // namespace

FailureOr<SmallVector<SmallString<0>>>
compileInParts(std::unique_ptr<Module> module, const CPUTarget &target,
               unsigned optLevel, unsigned jobs, std::string &error,
               const PartsProgress &progress, ObjectCache *cache) {
  SmallVector<SmallString<0>> objects;
  // Optimizes `part` and appends its object to `object`.
  auto compile = [&](Module &part, SmallString<0> &object,
                     std::string &partError) {
    raw_svector_ostream os(object);
    return succeeded(optimize(part, target, optLevel, partError)) &&
           succeeded(emitMachineCode(part, target, optLevel, FileKind::Object,
                                     os, partError));
  };
  unsigned parts = partsFor(*module);
  if (progress)
    progress(0, parts);
  if (parts == 1) {
    // Nothing to share: compile in place, without a trip through bitcode
    // (but for the cache's key).
    std::optional<ObjectCache::Key> key;
    if (cache) {
      SmallString<0> bitcode;
      raw_svector_ostream os(bitcode);
      WriteBitcodeToFile(*module, os);
      key = partKey(bitcode, target, optLevel);
    }
    objects.emplace_back();
    if (std::optional<SmallString<0>> cached =
            key ? cache->lookup(*key) : std::nullopt) {
      objects.back() = std::move(*cached);
    } else {
      if (!compile(*module, objects.back(), error))
        return failure();
      if (key)
        cache->store(*key, objects.back());
    }
    if (progress)
      progress(1, 1);
    return objects;
  }
  // Each part is compiled as soon as SplitModule has made it: its other
  // parts are split meanwhile (0.1 s for Inception-v3's eight).
  size_t first = objects.size();
  objects.resize(first + parts);
  SmallVector<SmallString<0>> bitcode(parts);
  std::mutex errorLock;
  std::atomic<unsigned> done = 0;
  auto compilePart = [&](size_t i) {
    std::string partError;
    std::optional<ObjectCache::Key> key;
    if (cache) {
      key = partKey(bitcode[i], target, optLevel);
      if (std::optional<SmallString<0>> cached = cache->lookup(*key)) {
        objects[first + i] = std::move(*cached);
        bitcode[i] = SmallString<0>();
        if (progress)
          progress(++done, parts);
        return;
      }
    }
    LLVMContext context;
    Expected<std::unique_ptr<Module>> part = parseBitcodeFile(
        MemoryBufferRef(StringRef(bitcode[i].data(), bitcode[i].size()),
                        "part" + std::to_string(i)),
        context);
    // The module is materialized: its bitcode can go.
    bitcode[i] = SmallString<0>();
    if (!part)
      partError = toString(part.takeError());
    else if (compile(**part, objects[first + i], partError) && key)
      cache->store(*key, objects[first + i]);
    if (!partError.empty()) {
      std::lock_guard<std::mutex> lock(errorLock);
      if (error.empty())
        error = "part " + std::to_string(i) + ": " + partError;
    }
    if (progress)
      progress(++done, parts);
  };
  std::optional<DefaultThreadPool> pool;
  if (jobs > 1)
    pool.emplace(hardware_concurrency(jobs));
  size_t made = 0;
  SplitModule(
      *module, parts,
      [&](std::unique_ptr<Module> part) {
        size_t i = made++;
        assert(i < parts && "SplitModule made more parts than asked");
        dropUnusedDeclarations(*part);
        raw_svector_ostream os(bitcode[i]);
        WriteBitcodeToFile(*part, os);
        if (pool)
          pool->async([&compilePart, i] { compilePart(i); });
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  module.reset();
  if (pool)
    pool->wait();
  else
    for (size_t i = 0; i < made; ++i)
      compilePart(i);
  objects.resize(first + made);
  if (!error.empty())
    return failure();
  return objects;
}

unsigned defaultJobs() {
  // The CPUs this process may run on (its affinity mask), not the machine's.
  return std::max(1u, hardware_concurrency().compute_thread_count());
}

} // namespace mlc::target
