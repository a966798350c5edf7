//===- ScratchDir.h - per-process scratch directory for unit tests --------===//
#ifndef MLC_TEST_UNIT_SUPPORT_SCRATCHDIR_H
#define MLC_TEST_UNIT_SUPPORT_SCRATCHDIR_H

#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

namespace mlc::test {

/// A directory "<tmp>/<prefix>-<pid>", created on first use and removed at
/// exit.
inline const std::filesystem::path &scratchDir(const char *prefix) {
  struct Dir {
    std::filesystem::path path;
    explicit Dir(const char *prefix) {
      path = std::filesystem::temp_directory_path() /
             (std::string(prefix) + "-" + std::to_string(getpid()));
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static Dir dir(prefix);
  return dir.path;
}

} // namespace mlc::test

#endif
