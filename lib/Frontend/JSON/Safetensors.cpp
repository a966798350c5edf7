//===- Safetensors.cpp - Minimal safetensors reader -----------------------===//
//
// Built with -fexceptions: nlohmann::json reports errors by throwing, and all
// of them are caught here so callers (built without exceptions) never see
// one.
//
//===----------------------------------------------------------------------===//

#include "mlc/Frontend/JSON/Safetensors.h"
#include "JSONUtil.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

using namespace mlc::frontend;
using namespace mlc::frontend::detail;

namespace {

/// The reference implementation refuses headers above 100 MB; so do we, so a
/// corrupt size field cannot make us allocate gigabytes.
constexpr uint64_t kMaxHeaderSize = 100000000;

bool getU64(const nlohmann::json &v, uint64_t &out) {
  if (v.is_number_unsigned()) {
    out = v.get<uint64_t>();
    return true;
  }
  if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    out = static_cast<uint64_t>(v.get<int64_t>());
    return true;
  }
  return false;
}

} // namespace

size_t SafetensorsFile::dtypeSize(const std::string &dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64")
    return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32")
    return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16")
    return 2;
  if (dtype == "BOOL" || dtype == "I8" || dtype == "U8" || dtype == "F8_E4M3" ||
      dtype == "F8_E5M2")
    return 1;
  return 0;
}

bool SafetensorsFile::open(const std::string &path,
                           const std::string &displayName, std::string &error) {
  filePath = path;
  display = displayName;
  tensors.clear();
  const std::string file = "weights file '" + displayName + "'";
  auto malformed = [&](const std::string &why) {
    error = file + " is malformed: " + why;
    return false;
  };
  try {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      error = "cannot open " + file + ": " + std::strerror(errno);
      return false;
    }
    in.seekg(0, std::ios::end);
    std::streamoff endPos = in.tellg();
    in.seekg(0, std::ios::beg);
    if (!in || endPos < 0) {
      error = "cannot read " + file;
      return false;
    }
    uint64_t fileSize = static_cast<uint64_t>(endPos);
    if (fileSize < 8) {
      error = file + " is truncated: " + std::to_string(fileSize) +
              " bytes, too short for a header";
      return false;
    }
    unsigned char sizeBytes[8];
    in.read(reinterpret_cast<char *>(sizeBytes), 8);
    uint64_t headerSize = 0;
    for (int i = 7; i >= 0; --i)
      headerSize = (headerSize << 8) | sizeBytes[i];
    if (headerSize > kMaxHeaderSize)
      return malformed("header size " + std::to_string(headerSize) +
                       " exceeds " + std::to_string(kMaxHeaderSize));
    if (headerSize > fileSize - 8) {
      error = file + " is truncated: header of " + std::to_string(headerSize) +
              " bytes but only " + std::to_string(fileSize - 8) +
              " bytes follow";
      return false;
    }
    std::string header(headerSize, '\0');
    in.read(header.data(), static_cast<std::streamsize>(headerSize));
    if (!in) {
      error = "cannot read " + file;
      return false;
    }
    dataStart = 8 + headerSize;
    uint64_t dataSize = fileSize - dataStart;

    size_t deepLine, deepColumn;
    if (findDeepNesting(header, 8, deepLine, deepColumn))
      return malformed("header is nested too deeply");
    nlohmann::json root;
    try {
      root = nlohmann::json::parse(header);
    } catch (const nlohmann::json::parse_error &e) {
      return malformed("header is not valid JSON (" + jsonMessage(e) + ")");
    }
    if (!root.is_object())
      return malformed("header is not a JSON object");
    for (auto it = root.begin(); it != root.end(); ++it) {
      const std::string &name = it.key();
      if (name == "__metadata__")
        continue; // Free-form string map; nothing we need.
      const nlohmann::json &e = it.value();
      const std::string where = "entry '" + name + "' ";
      if (!e.is_object())
        return malformed(where + "is not an object");
      SafetensorsEntry entry;
      auto dt = e.find("dtype");
      if (dt == e.end() || !dt->is_string())
        return malformed(where + "has no dtype string");
      entry.dtype = dt->get<std::string>();
      auto sh = e.find("shape");
      if (sh == e.end() || !sh->is_array())
        return malformed(where + "has no shape list");
      // Element count in 128 bits is overkill; saturate instead.
      uint64_t count = 1;
      bool countOverflow = false;
      for (const auto &d : *sh) {
        uint64_t dim;
        if (!getU64(d, dim) ||
            dim > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
          return malformed(where + "has a shape entry that is not a "
                                   "non-negative integer");
        entry.shape.push_back(static_cast<int64_t>(dim));
        if (dim != 0 && count > std::numeric_limits<uint64_t>::max() / dim)
          countOverflow = true;
        else
          count *= dim;
      }
      auto off = e.find("data_offsets");
      if (off == e.end() || !off->is_array() || off->size() != 2 ||
          !getU64((*off)[0], entry.begin) || !getU64((*off)[1], entry.end))
        return malformed(where + "has no data_offsets [begin, end]");
      if (entry.begin > entry.end)
        return malformed(where + "has data_offsets with begin > end");
      if (entry.end > dataSize) {
        error = file + " is truncated: tensor '" + name +
                "' ends at data byte " + std::to_string(entry.end) +
                " but the data section has " + std::to_string(dataSize) +
                " bytes";
        return false;
      }
      // Byte size must match shape * element size (for dtypes we know).
      size_t elt = dtypeSize(entry.dtype);
      if (elt != 0 && (countOverflow ||
                       count > std::numeric_limits<uint64_t>::max() / elt ||
                       count * elt != entry.end - entry.begin))
        return malformed(where + "has " +
                         std::to_string(entry.end - entry.begin) +
                         " data bytes, which does not match its dtype and "
                         "shape");
      tensors.emplace(name, std::move(entry));
    }
    return true;
  } catch (const std::bad_alloc &) {
    error = "out of memory reading " + file;
  } catch (const std::exception &e) {
    error = "cannot read " + file + ": " + jsonMessage(e);
  } catch (...) {
    error = "cannot read " + file;
  }
  tensors.clear();
  return false;
}

const SafetensorsEntry *SafetensorsFile::find(const std::string &name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}

bool SafetensorsFile::read(const SafetensorsEntry &entry,
                           std::vector<char> &out, std::string &error) const {
  const std::string file = "weights file '" + display + "'";
  try {
    std::ifstream in(filePath, std::ios::binary);
    if (!in) {
      error = "cannot open " + file + ": " + std::strerror(errno);
      return false;
    }
    out.resize(entry.end - entry.begin);
    in.seekg(static_cast<std::streamoff>(dataStart + entry.begin));
    in.read(out.data(), static_cast<std::streamsize>(out.size()));
    // The file may have shrunk since open(); report it as truncation.
    if (!in || static_cast<size_t>(in.gcount()) != out.size()) {
      error = file + " is truncated";
      return false;
    }
    return true;
  } catch (const std::bad_alloc &) {
    error = "out of memory reading " + file;
  } catch (...) {
    error = "cannot read " + file;
  }
  return false;
}
