//===- ObjectCacheTest.cpp - the --cache-dir store of compiled parts ------===//

#include <catch2/catch.hpp>

#include "Support/ScratchDir.h"

#include "mlc/Target/ObjectCache.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

using mlc::target::ObjectCache;
namespace fs = std::filesystem;

namespace {

/// A fresh directory per test case.
fs::path cacheDir(const std::string &name) {
  fs::path dir = mlc::test::scratchDir("mlc-object-cache-test") / name;
  fs::remove_all(dir);
  return dir;
}

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeFile(const fs::path &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// A cache that keeps its warnings.
struct TestCache {
  std::vector<std::string> warnings;
  ObjectCache cache;
  explicit TestCache(const fs::path &dir)
      : cache(dir.string(), [this](const llvm::Twine &message) {
          warnings.push_back(message.str());
        }) {}
};

} // namespace

TEST_CASE("cache keys hash every field and its boundaries", "[cache]") {
  ObjectCache::Key k = ObjectCache::keyOf({"bitcode", "x86_64", "znver3"});
  CHECK(k == ObjectCache::keyOf({"bitcode", "x86_64", "znver3"}));
  CHECK(k != ObjectCache::keyOf({"bitcode", "x86_64", "haswell"}));
  CHECK(k != ObjectCache::keyOf({"bitcode", "x86_64"}));
  CHECK(ObjectCache::keyOf({"ab", "c"}) != ObjectCache::keyOf({"a", "bc"}));
  CHECK(ObjectCache::keyOf({"", ""}) != ObjectCache::keyOf({""}));
  std::string hex = ObjectCache::toHex(k);
  CHECK(hex.size() == 64);
  CHECK(hex.find_first_not_of("0123456789abcdef") == std::string::npos);
}

TEST_CASE("a stored object is found again, byte for byte", "[cache]") {
  fs::path dir = cacheDir("roundtrip");
  TestCache t(dir);
  CHECK(fs::is_directory(dir)); // created
  ObjectCache::Key a = ObjectCache::keyOf({"a"}), b = ObjectCache::keyOf({"b"});
  CHECK(!t.cache.lookup(a));
  std::string object("\x7f"
                     "ELF\0\1\2 object",
                     14);
  t.cache.store(a, object);
  t.cache.store(b, ""); // an empty object is an object too
  std::optional<llvm::SmallString<0>> found = t.cache.lookup(a);
  REQUIRE(found);
  CHECK(found->str() == object);
  std::optional<llvm::SmallString<0>> empty = t.cache.lookup(b);
  REQUIRE(empty);
  CHECK(empty->empty());
  // Under DIR/<first two hex digits>/, nothing else left behind.
  std::string hex = ObjectCache::toHex(a);
  CHECK(fs::path(t.cache.entryPath(a)) ==
        dir / hex.substr(0, 2) / (hex + ".mlcobj"));
  size_t files = 0;
  for (const auto &entry : fs::recursive_directory_iterator(dir))
    files += entry.is_regular_file();
  CHECK(files == 2);
  ObjectCache::Counts counts = t.cache.counts();
  CHECK(counts.hits == 2);
  CHECK(counts.misses == 1);
  CHECK(counts.rejected == 0);
  CHECK(t.warnings.empty());
  // Another cache on the same directory (a later compile) finds them.
  TestCache later(dir);
  CHECK(later.cache.lookup(a));
}

TEST_CASE("damaged entries are rejected with a warning and replaced",
          "[cache]") {
  fs::path dir = cacheDir("damaged");
  TestCache t(dir);
  ObjectCache::Key key = ObjectCache::keyOf({"part"});
  ObjectCache::Key other = ObjectCache::keyOf({"other part"});
  const std::string object(1000, 'x');
  t.cache.store(key, object);
  t.cache.store(other, "another object");
  fs::path path = t.cache.entryPath(key);
  const std::string good = readFile(path);

  struct Damage {
    const char *what, *reason;
    std::string bytes;
  };
  std::string flipped = good;
  flipped[good.size() - 10] ^= 1;
  std::string badMagic = good;
  badMagic[0] = 'X';
  std::string longer = good + "trailing";
  std::vector<Damage> damages = {
      {"a flipped byte", "checksum mismatch", flipped},
      {"truncated object", "wrong size", good.substr(0, good.size() - 1)},
      {"truncated header", "truncated header", good.substr(0, 20)},
      {"empty file", "truncated header", ""},
      {"bytes appended", "wrong size", longer},
      {"not an entry", "not a cache entry", badMagic},
      {"misplaced", "filed under another key",
       readFile(t.cache.entryPath(other))},
  };
  unsigned rejected = 0;
  for (const Damage &d : damages) {
    INFO(d.what);
    writeFile(path, d.bytes);
    t.warnings.clear();
    CHECK(!t.cache.lookup(key));
    CHECK(t.cache.counts().rejected == ++rejected);
    REQUIRE(t.warnings.size() == 1);
    CHECK(t.warnings[0] == "cache entry '" + path.string() + "' is corrupt (" +
                               d.reason + "); recompiling");
    // Recompiled and stored again: intact.
    t.cache.store(key, object);
    CHECK(readFile(path) == good);
    std::optional<llvm::SmallString<0>> found = t.cache.lookup(key);
    REQUIRE(found);
    CHECK(found->str() == object);
  }
}

TEST_CASE("a directory that cannot be used is a warning, not an error",
          "[cache]") {
  fs::path dir = cacheDir("unusable");
  fs::create_directories(dir);
  writeFile(dir / "file", "");
  TestCache t(dir / "file" / "cache");
  REQUIRE(t.warnings.size() == 1);
  CHECK(t.warnings[0].find("cannot use the cache directory '" +
                           (dir / "file" / "cache").string() + "'") == 0);
  ObjectCache::Key key = ObjectCache::keyOf({"part"});
  t.cache.store(key, "object");
  CHECK(!t.cache.lookup(key));
  CHECK(t.cache.counts().misses == 1);
  CHECK(t.warnings.size() == 1);

  // The directory exists but entries cannot be written (a file where each
  // entry directory goes): one warning for the whole compile.
  fs::path blocked = dir / "blocked";
  fs::create_directories(blocked);
  for (int i = 0; i < 256; ++i) {
    char name[3];
    snprintf(name, sizeof(name), "%02x", i);
    writeFile(blocked / name, "");
  }
  TestCache b(blocked);
  CHECK(b.warnings.empty());
  for (const char *part : {"p0", "p1", "p2"}) {
    ObjectCache::Key k = ObjectCache::keyOf({part});
    CHECK(!b.cache.lookup(k)); // absent, not damaged
    b.cache.store(k, "object");
  }
  REQUIRE(b.warnings.size() == 1);
  CHECK(b.warnings[0].find("cannot write to the cache directory '" +
                           blocked.string() + "'") == 0);
  CHECK(b.cache.counts().rejected == 0);
}

TEST_CASE("concurrent stores and lookups never see a partial entry",
          "[cache]") {
  fs::path dir = cacheDir("concurrent");
  TestCache t(dir);
  const std::string object(1 << 16, 'o');
  ObjectCache::Key key = ObjectCache::keyOf({"shared part"});
  std::vector<std::thread> threads;
  std::atomic<unsigned> wrong = 0;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      for (int n = 0; n < 50; ++n) {
        if (std::optional<llvm::SmallString<0>> found = t.cache.lookup(key))
          wrong += found->str() != object;
        t.cache.store(key, object);
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  CHECK(wrong == 0);
  CHECK(t.warnings.empty());
  CHECK(t.cache.counts().hits + t.cache.counts().misses == 200);
  size_t files = 0;
  for (const auto &entry : fs::recursive_directory_iterator(dir))
    files += entry.is_regular_file();
  CHECK(files == 1); // no temporaries left
}
