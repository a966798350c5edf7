//===- ModelSpec.cpp - Parse and validate model.json ----------------------===//
//
// Implements docs/model-format.md up to (not including) shape inference.
// Built with -fexceptions: nlohmann::json throws, and so does our own
// SpecError for brevity; everything is caught in parseModelJSONText so no
// exception crosses into the rest of the compiler (built without them).
//
//===----------------------------------------------------------------------===//

#include "mlc/Frontend/JSON/ModelSpec.h"
#include "JSONUtil.h"
#include "ModelSpecParser.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace mlc::frontend;
using namespace mlc::frontend::detail;

namespace {

/// Builds the DOM from nlohmann's SAX events. Unlike json::parse it reports
/// duplicate keys (nlohmann silently keeps the last; a duplicated "attrs" is
/// surely a mistake) with their JSON path, and it appends object members
/// without ordered_map's linear lookup, so a huge object is not quadratic.
/// Depth is already bounded by findDeepNesting.
class DomBuilder {
public:
  Json root;
  std::string parseError, duplicatePath, duplicateKey;

  bool null() { return value(Json(nullptr)); }
  bool boolean(bool b) { return value(Json(b)); }
  bool number_integer(Json::number_integer_t v) { return value(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t &) {
    return value(Json(v));
  }
  bool string(Json::string_t &v) { return value(Json(std::move(v))); }
  bool binary(Json::binary_t &v) { return value(Json(std::move(v))); }
  bool start_object(std::size_t) {
    Json *p = insert(Json::object());
    frames.push_back({p, false});
    return true;
  }
  bool key(Json::string_t &k) {
    Frame &f = frames.back();
    if (!f.keys.insert(k).second) {
      duplicateKey = k;
      f.key = k;
      for (const Frame &g : frames)
        duplicatePath = g.isArray
                            ? element(duplicatePath, g.container->size() - 1)
                            : member(duplicatePath, g.key);
      return false; // stop parsing
    }
    f.key = std::move(k);
    return true;
  }
  bool end_object() {
    frames.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    Json *p = insert(Json::array());
    frames.push_back({p, true});
    return true;
  }
  bool end_array() {
    frames.pop_back();
    return true;
  }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string &, const Exception &e) {
    parseError = jsonMessage(e);
    return false;
  }

private:
  struct Frame {
    Json *container;
    bool isArray;
    std::string key = {}; ///< objects: key of the current member
    std::set<std::string> keys = {};
  };

  bool value(Json &&v) {
    insert(std::move(v));
    return true;
  }
  Json *insert(Json &&v) {
    if (frames.empty()) {
      root = std::move(v);
      return &root;
    }
    Frame &f = frames.back();
    if (f.isArray) {
      f.container->push_back(std::move(v));
      return &f.container->back();
    }
    auto &members = f.container->get_ref<Json::object_t &>();
    members.emplace_back(f.key, std::move(v));
    return &members.back().second;
  }

  std::vector<Frame> frames;
};

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

const char *mlc::frontend::dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::I64:
    return "i64";
  case DType::I32:
    return "i32";
  case DType::Bool:
    return "bool";
  }
  return "?";
}

size_t mlc::frontend::dtypeSize(DType t) {
  switch (t) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::I64:
    return 8;
  case DType::Bool:
    return 1;
  }
  return 0;
}

int64_t TensorDecl::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

const OpSchema *mlc::frontend::lookupOpSchema(const std::string &op) {
  const OpInfo *info = lookupOpInfo(op);
  return info ? &info->schema : nullptr;
}

std::vector<std::string> mlc::frontend::knownOps() {
  std::vector<std::string> out;
  for (const OpInfo &info : opTable())
    out.push_back(info.schema.name);
  return out;
}

bool mlc::frontend::parseModelJSONText(const std::string &text,
                                       const std::string &sourcePath,
                                       ModelSpec &spec, Diagnostic &diag) {
  spec = ModelSpec();
  spec.sourcePath = sourcePath;
  auto error = [&](std::string path, std::string message) {
    diag = {std::move(path), std::move(message)};
    spec = ModelSpec();
    spec.sourcePath = sourcePath;
    return false;
  };
  try {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
      return error("", "file is empty");
    size_t line, column;
    if (findDeepNesting(text, kMaxDepth, line, column))
      return error("", "nesting deeper than " + std::to_string(kMaxDepth) +
                           " levels at line " + std::to_string(line) +
                           ", column " + std::to_string(column));

    DomBuilder builder;
    Json::sax_parse(text, &builder);
    if (!builder.parseError.empty())
      return error("", "invalid JSON: " + builder.parseError);
    if (!builder.duplicatePath.empty())
      return error(builder.duplicatePath,
                   "duplicate key " + quote(builder.duplicateKey));
    const Json &root = builder.root;

    Parser(sourcePath, spec).run(root);
    return true;
  } catch (const SpecError &e) {
    return error(e.path, e.message);
  } catch (const std::bad_alloc &) {
    return error("", "out of memory");
  } catch (const std::exception &e) {
    return error("", "internal error: " + jsonMessage(e));
  } catch (...) {
    return error("", "internal error");
  }
}

bool mlc::frontend::parseModelJSON(const std::string &path, ModelSpec &spec,
                                   Diagnostic &diag) {
  try {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      diag = {"", "cannot read file: is a directory"};
      return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      diag = {"", std::string("cannot open file: ") + std::strerror(errno)};
      return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    // rdbuf() of an empty file sets failbit without an error; only a bad
    // stream is a read error.
    if (in.bad()) {
      diag = {"", "cannot read file"};
      return false;
    }
    return parseModelJSONText(ss.str(), path, spec, diag);
  } catch (...) {
    diag = {"", "cannot read file"};
    return false;
  }
}
