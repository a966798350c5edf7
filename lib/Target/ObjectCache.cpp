//===- ObjectCache.cpp - objects on disk, keyed by what made them ---------===//

#include "mlc/Target/ObjectCache.h"

#include "llvm-c/Core.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;

namespace mlc::target {

namespace {

/// Bump when the entry layout below changes (it is also hashed into every
/// key, so old entries are simply never looked up again).
constexpr uint32_t kEntryFormat = 1;
constexpr char kMagic[8] = {'M', 'L', 'C', 'O', 'B', 'J', '\r', '\n'};

/// magic, format, reserved, key, object size, object hash.
struct Header {
  static constexpr size_t kSize = 8 + 4 + 4 + 32 + 8 + 32;
  static constexpr size_t kFormatAt = 8, kKeyAt = 16, kSizeAt = 48,
                          kHashAt = 56;
};

ObjectCache::Key hashOf(StringRef bytes) {
  return BLAKE3::hash(arrayRefFromStringRef(bytes));
}

std::string header(const ObjectCache::Key &key, StringRef object) {
  std::string h(Header::kSize, '\0');
  memcpy(&h[0], kMagic, sizeof(kMagic));
  support::endian::write32le(&h[Header::kFormatAt], kEntryFormat);
  memcpy(&h[Header::kKeyAt], key.data(), key.size());
  support::endian::write64le(&h[Header::kSizeAt], object.size());
  ObjectCache::Key hash = hashOf(object);
  memcpy(&h[Header::kHashAt], hash.data(), hash.size());
  return h;
}

/// Why `entry` is not a valid entry for `key`; empty if it is.
std::string check(StringRef entry, const ObjectCache::Key &key) {
  if (entry.size() < Header::kSize)
    return "truncated header";
  if (memcmp(entry.data(), kMagic, sizeof(kMagic)) != 0)
    return "not a cache entry";
  if (support::endian::read32le(entry.data() + Header::kFormatAt) !=
      kEntryFormat)
    return "unknown entry format";
  if (memcmp(entry.data() + Header::kKeyAt, key.data(), key.size()) != 0)
    return "filed under another key";
  if (support::endian::read64le(entry.data() + Header::kSizeAt) !=
      entry.size() - Header::kSize)
    return "wrong size";
  ObjectCache::Key hash = hashOf(entry.drop_front(Header::kSize));
  if (memcmp(entry.data() + Header::kHashAt, hash.data(), hash.size()) != 0)
    return "checksum mismatch";
  return "";
}

} // namespace

ObjectCache::ObjectCache(StringRef dir, WarningHandler warn)
    : dir(dir.str()), warnHandler(std::move(warn)) {
  if (std::error_code ec = sys::fs::create_directories(dir))
    this->warn("cannot use the cache directory '" + dir + "' (" + ec.message() +
               "); compiling without the cache");
  else
    usable = true;
}

ObjectCache::Key ObjectCache::keyOf(ArrayRef<StringRef> fields) {
  BLAKE3 hasher;
  auto add = [&](StringRef field) {
    uint8_t length[8];
    support::endian::write64le(length, field.size());
    hasher.update(ArrayRef(length));
    hasher.update(field);
  };
  add("mlc object cache");
  add(std::to_string(kEntryFormat));
  // The version of the LLVM library in use, which a point release can
  // replace under a built compiler (libLLVM.so.22.1 for every 22.1.x).
  unsigned major, minor, patch;
  LLVMGetVersion(&major, &minor, &patch);
  add(LLVM_VERSION_STRING);
  add(std::to_string(major) + "." + std::to_string(minor) + "." +
      std::to_string(patch));
  for (StringRef field : fields)
    add(field);
  return hasher.final();
}

std::string ObjectCache::toHex(const Key &key) {
  return llvm::toHex(
      StringRef(reinterpret_cast<const char *>(key.data()), key.size()),
      /*LowerCase=*/true);
}

std::string ObjectCache::entryPath(const Key &key) const {
  std::string hex = toHex(key);
  SmallString<256> path(dir);
  // 256 subdirectories keep each one small for caches of many models.
  sys::path::append(path, StringRef(hex).take_front(2), hex + ".mlcobj");
  return path.str().str();
}

void ObjectCache::warn(const Twine &message) {
  std::lock_guard<std::mutex> lock(warnLock);
  if (warnHandler)
    warnHandler(message);
}

std::optional<SmallString<0>> ObjectCache::lookup(const Key &key) {
  if (!usable) {
    ++misses;
    return std::nullopt;
  }
  std::string path = entryPath(key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file) {
    ++misses;
    std::error_code ec = file.getError();
    // Absent (its directory too, or a file in the directory's place: the
    // store reports that one) is a plain miss.
    if (ec != std::errc::no_such_file_or_directory &&
        ec != std::errc::not_a_directory) {
      ++rejected;
      warn("cache entry '" + path + "' cannot be read (" + ec.message() +
           "); recompiling");
    }
    return std::nullopt;
  }
  StringRef entry = (*file)->getBuffer();
  std::string problem = check(entry, key);
  if (!problem.empty()) {
    ++misses;
    ++rejected;
    warn("cache entry '" + path + "' is corrupt (" + problem +
         "); recompiling");
    return std::nullopt;
  }
  ++hits;
  return SmallString<0>(entry.drop_front(Header::kSize));
}

void ObjectCache::store(const Key &key, StringRef object) {
  if (!usable || storeFailed)
    return;
  std::string path = entryPath(key);
  auto fail = [&](const Twine &what, std::error_code ec) {
    // One warning per compile: the cause is the same for every part.
    if (!storeFailed.exchange(true))
      warn("cannot write to the cache directory '" + dir + "' (" + what + ": " +
           ec.message() + "); its entries are not updated");
  };
  if (std::error_code ec =
          sys::fs::create_directories(sys::path::parent_path(path)))
    return fail(sys::path::parent_path(path), ec);
  // A temporary beside the entry, renamed over it: readers (other compiles)
  // see the old entry or the new one, never a partial one.
  int fd;
  SmallString<256> tmp;
  if (std::error_code ec = sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd,
                                                     tmp, sys::fs::OF_None))
    return fail(path, ec);
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << header(key, object) << object;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      sys::fs::remove(tmp);
      return fail(tmp, ec);
    }
  }
  if (std::error_code ec = sys::fs::rename(tmp, path)) {
    sys::fs::remove(tmp);
    return fail(path, ec);
  }
}

ObjectCache::Counts ObjectCache::counts() const {
  return {hits.load(), misses.load(), rejected.load()};
}

} // namespace mlc::target
