//===- Safetensors.h - Minimal safetensors reader ---------------*- C++ -*-===//
//
// Reads the header of a safetensors file (8-byte little-endian header size,
// JSON header, raw data) and, on request, the bytes of single tensors, so a
// model only pays for the weights it references. Errors are returned as
// messages that name the file; nothing throws.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_FRONTEND_JSON_SAFETENSORS_H
#define MLC_FRONTEND_JSON_SAFETENSORS_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlc::frontend {

struct SafetensorsEntry {
  std::string dtype; ///< as written: "F32", "I64", "BF16", ...
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0; ///< byte range relative to the data section
};

class SafetensorsFile {
public:
  /// Opens `path` and validates its header: every entry has a dtype, a
  /// shape and data_offsets inside the file. `displayName` is used in
  /// messages (usually the name as the model wrote it). On failure returns
  /// false and sets `error`.
  bool open(const std::string &path, const std::string &displayName,
            std::string &error);

  /// Null if the file has no tensor called `name`.
  const SafetensorsEntry *find(const std::string &name) const;

  /// Reads the bytes of `entry` into `out`. Fails (with `error`) if the file
  /// cannot be read any more.
  bool read(const SafetensorsEntry &entry, std::vector<char> &out,
            std::string &error) const;

  const std::string &displayName() const { return display; }
  const std::map<std::string, SafetensorsEntry> &entries() const {
    return tensors;
  }

  /// Bytes per element of a safetensors dtype, 0 if unknown.
  static size_t dtypeSize(const std::string &dtype);

private:
  std::string filePath, display;
  uint64_t dataStart = 0; ///< 8 + header size
  std::map<std::string, SafetensorsEntry> tensors;
};

} // namespace mlc::frontend

#endif // MLC_FRONTEND_JSON_SAFETENSORS_H
