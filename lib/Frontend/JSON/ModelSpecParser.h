//===- ModelSpecParser.h - the model.json parser's shared parts -*- C++ -*-===//
//
// Shared by the files of the model.json parser: ModelSpec.cpp (entry points,
// JSON DOM), ModelSpecParser.cpp (values, nodes, weights, order),
// ModelSpecOps.cpp (the op table and attribute checks) and
// ModelSpecTraining.cpp (the training section). Errors are SpecError
// exceptions at a JSON path, caught in parseModelJSONText. Not installed.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_FRONTEND_JSON_MODELSPECPARSER_H
#define MLC_LIB_FRONTEND_JSON_MODELSPECPARSER_H

#include "mlc/Frontend/JSON/ModelSpec.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

namespace mlc::frontend::detail {

// Ordered so that "the first unknown key" is the first one in the file.
using Json = nlohmann::ordered_json;

constexpr unsigned kMaxDepth = 64;
constexpr size_t kMaxRank = 8;
constexpr int64_t kMaxDim = int64_t(1) << 31;      // exclusive
constexpr int64_t kMaxElements = int64_t(1) << 31; // inclusive
constexpr size_t kMaxInlineElements = 65536;

struct SpecError {
  std::string path, message;
};

[[noreturn]] inline void fail(std::string path, std::string message) {
  throw SpecError{std::move(path), std::move(message)};
}

inline std::string member(const std::string &base, const std::string &key) {
  return base.empty() ? key : base + "." + key;
}
inline std::string element(const std::string &base, size_t i) {
  return base + "[" + std::to_string(i) + "]";
}

/// Quotes a user string for a message, escaping control characters so a
/// diagnostic always stays on one line.
std::string quote(const std::string &s);

//===----------------------------------------------------------------------===//
// JSON helpers (ModelSpecParser.cpp)
//===----------------------------------------------------------------------===//

const Json &expectObject(const Json &v, const std::string &path);
const Json &expectList(const Json &v, const std::string &path);
const std::string &expectString(const Json &v, const std::string &path);
/// True if `v` is a JSON integer that fits in int64_t.
bool asInt(const Json &v, int64_t &out);
int64_t expectInt(const Json &v, const std::string &path);
/// Rejects keys outside `allowed`, in file order.
void checkKeys(const Json &obj, const std::string &path,
               std::initializer_list<const char *> allowed);
const Json &require(const Json &obj, const std::string &path, const char *key);
const Json *optional(const Json &obj, const char *key);

//===----------------------------------------------------------------------===//
// Op table (ModelSpecOps.cpp)
//===----------------------------------------------------------------------===//

enum class AttrKind { Int, Float, Bool, String, IntList };
enum class IntRule { Any, Positive, NonNegative };

struct AttrSpec {
  const char *name = nullptr;
  AttrKind kind = AttrKind::Int;
  bool required = false;
  int listLength = -1; ///< IntList: fixed length, -1 = any
  IntRule rule = IntRule::Any;
  std::vector<const char *> choices = {}; ///< String: allowed values
  const char *noun = nullptr;             ///< String: "unknown <noun> 'x'"
};

struct OpInfo {
  OpSchema schema;
  std::vector<AttrSpec> attrs;
  const AttrSpec *findAttr(const std::string &n) const {
    for (const AttrSpec &a : attrs)
      if (n == a.name)
        return &a;
    return nullptr;
  }
};

const std::vector<const char *> &dtypeNames();
const std::vector<OpInfo> &opTable();
const OpInfo *lookupOpInfo(const std::string &op);
/// "a, b or c"
std::string listChoices(const std::vector<const char *> &choices);

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// Where a value name is defined, for duplicate and cycle messages.
struct Definition {
  enum Kind { Input, Weight, Node } kind;
  size_t index;
  std::string path;
};

class Parser {
public:
  Parser(const std::string &sourcePath, ModelSpec &spec)
      : sourcePath(sourcePath), spec(spec) {}

  void run(const Json &root);

private:
  void parseName(const Json &v, const std::string &path, std::string &out);
  DType parseDType(const Json &v, const std::string &path);
  void parseShape(const Json &v, const std::string &path,
                  std::vector<int64_t> &shape);
  void parseTensor(const Json &v, const std::string &path, TensorDecl &decl);
  void parseInlineData(const Json &v, const std::string &path, WeightDecl &w);
  void parseNode(const Json &v, const std::string &path, NodeDecl &node);
  void parseAttr(const AttrSpec &spec, const Json &v, const std::string &path,
                 AttrValue &out);
  void checkAttrValues(const NodeDecl &node, const std::string &attrsPath);
  void define(const std::string &name, Definition def);
  void loadWeightsFile(const std::string &weightsFile, const std::string &path);
  void parseTraining(const Json &v, const std::string &path);
  void checkTraining();
  void sortNodes();
  std::string describeNode(size_t i) const;

  const std::string &sourcePath;
  ModelSpec &spec;
  std::unordered_map<std::string, Definition> defs;
  std::vector<bool> hasInlineData; ///< per weight
};

} // namespace mlc::frontend::detail

#endif // MLC_LIB_FRONTEND_JSON_MODELSPECPARSER_H
