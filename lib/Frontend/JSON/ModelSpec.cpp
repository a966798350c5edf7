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
#include "mlc/Frontend/JSON/Safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <queue>
#include <set>
#include <sstream>
#include <unordered_map>

using namespace mlc::frontend;
using namespace mlc::frontend::detail;

// Ordered so that "the first unknown key" is the first one in the file.
using Json = nlohmann::ordered_json;

namespace {

constexpr unsigned kMaxDepth = 64;
constexpr size_t kMaxRank = 8;
constexpr int64_t kMaxDim = int64_t(1) << 31;      // exclusive
constexpr int64_t kMaxElements = int64_t(1) << 31; // inclusive
constexpr size_t kMaxInlineElements = 65536;

struct SpecError {
  std::string path, message;
};

[[noreturn]] void fail(std::string path, std::string message) {
  throw SpecError{std::move(path), std::move(message)};
}

std::string member(const std::string &base, const std::string &key) {
  return base.empty() ? key : base + "." + key;
}
std::string element(const std::string &base, size_t i) {
  return base + "[" + std::to_string(i) + "]";
}

/// Quotes a user string for a message, escaping control characters so a
/// diagnostic always stays on one line.
std::string quote(const std::string &s) {
  std::string out = "'";
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "'";
}

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

//===----------------------------------------------------------------------===//
// Op table
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

AttrSpec makeAttr(const char *n, AttrKind kind, bool required = false) {
  AttrSpec a;
  a.name = n;
  a.kind = kind;
  a.required = required;
  return a;
}
AttrSpec intAttr(const char *n, bool required = false,
                 IntRule rule = IntRule::Any) {
  AttrSpec a = makeAttr(n, AttrKind::Int, required);
  a.rule = rule;
  return a;
}
AttrSpec floatAttr(const char *n) { return makeAttr(n, AttrKind::Float); }
AttrSpec boolAttr(const char *n) { return makeAttr(n, AttrKind::Bool); }
AttrSpec listAttr(const char *n, int length = -1, IntRule rule = IntRule::Any,
                  bool required = false) {
  AttrSpec a = makeAttr(n, AttrKind::IntList, required);
  a.listLength = length;
  a.rule = rule;
  return a;
}
AttrSpec stringAttr(const char *n, std::vector<const char *> choices,
                    const char *noun, bool required = false) {
  AttrSpec a = makeAttr(n, AttrKind::String, required);
  a.choices = std::move(choices);
  a.noun = noun;
  return a;
}

const std::vector<const char *> &dtypeNames() {
  static const std::vector<const char *> names = {"f32", "i64", "i32", "bool"};
  return names;
}

const std::vector<OpInfo> &opTable() {
  static const std::vector<OpInfo> table = [] {
    std::vector<OpInfo> t;
    auto add = [&](const char *name, int minIn, int maxIn,
                   std::vector<AttrSpec> attrs = {}) {
      t.push_back({{name, minIn, maxIn}, std::move(attrs)});
    };
    const IntRule pos = IntRule::Positive, nonneg = IntRule::NonNegative;
    for (const char *op : {"add", "sub", "mul", "div", "max", "min", "pow"})
      add(op, 2, 2);
    for (const char *op : {"neg", "abs", "relu", "exp", "log", "sqrt", "rsqrt",
                           "tanh", "sigmoid", "erf"})
      add(op, 1, 1);
    add("gelu", 1, 1,
        {stringAttr("approximate", {"none", "tanh"}, "approximate")});
    add("matmul", 2, 2);
    add("conv2d", 2, 3,
        {listAttr("strides", 2, pos), listAttr("pads", 4, nonneg),
         listAttr("dilations", 2, pos), intAttr("groups", false, pos)});
    add("maxpool2d", 1, 1,
        {listAttr("kernel", 2, pos, true), listAttr("strides", 2, pos),
         listAttr("pads", 4, nonneg), listAttr("dilations", 2, pos)});
    add("avgpool2d", 1, 1,
        {listAttr("kernel", 2, pos, true), listAttr("strides", 2, pos),
         listAttr("pads", 4, nonneg), boolAttr("count_include_pad")});
    add("global_avgpool", 1, 1);
    add("batch_norm", 5, 5, {floatAttr("epsilon")});
    add("layer_norm", 3, 3, {intAttr("axis"), floatAttr("epsilon")});
    add("softmax", 1, 1, {intAttr("axis")});
    add("log_softmax", 1, 1, {intAttr("axis")});
    for (const char *op : {"reduce_sum", "reduce_mean", "reduce_max"})
      add(op, 1, 1, {listAttr("axes"), boolAttr("keepdims")});
    add("reshape", 1, 1, {listAttr("shape", -1, IntRule::Any, true)});
    add("transpose", 1, 1, {listAttr("perm")});
    add("concat", 1, -1, {intAttr("axis", true)});
    add("slice", 1, 1,
        {listAttr("starts", -1, IntRule::Any, true),
         listAttr("ends", -1, IntRule::Any, true), listAttr("axes"),
         listAttr("steps", -1, pos)});
    add("gather", 2, 2, {intAttr("axis")});
    add("pad", 1, 1, {listAttr("pads", -1, nonneg, true), floatAttr("value")});
    add("cast", 1, 1, {stringAttr("to", dtypeNames(), "dtype", true)});
    add("compare", 2, 2,
        {stringAttr("predicate", {"eq", "ne", "lt", "le", "gt", "ge"},
                    "predicate", true)});
    add("select", 3, 3);
    return t;
  }();
  return table;
}

const OpInfo *lookupOpInfo(const std::string &op) {
  // A linear scan over ~40 entries costs more than a hash lookup; models can
  // have 100k nodes, so index the table once.
  static const std::unordered_map<std::string, const OpInfo *> index = [] {
    std::unordered_map<std::string, const OpInfo *> m;
    for (const OpInfo &info : opTable())
      m.emplace(info.schema.name, &info);
    return m;
  }();
  auto it = index.find(op);
  return it == index.end() ? nullptr : it->second;
}

/// "a, b or c"
std::string listChoices(const std::vector<const char *> &choices) {
  std::string out;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i)
      out += i + 1 == choices.size() ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

//===----------------------------------------------------------------------===//
// JSON helpers
//===----------------------------------------------------------------------===//

const Json &expectObject(const Json &v, const std::string &path) {
  if (!v.is_object())
    fail(path, "expected an object");
  return v;
}
const Json &expectList(const Json &v, const std::string &path) {
  if (!v.is_array())
    fail(path, "expected a list");
  return v;
}
const std::string &expectString(const Json &v, const std::string &path) {
  if (!v.is_string())
    fail(path, "expected a string");
  return v.get_ref<const std::string &>();
}

/// True if `v` is a JSON integer that fits in int64_t.
bool asInt(const Json &v, int64_t &out) {
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return false;
    out = static_cast<int64_t>(u);
    return true;
  }
  if (v.is_number_integer()) {
    out = v.get<int64_t>();
    return true;
  }
  return false;
}

int64_t expectInt(const Json &v, const std::string &path) {
  int64_t out;
  if (asInt(v, out))
    return out;
  if (v.is_number_integer())
    fail(path, "integer " + v.dump() + " is out of range");
  fail(path, "expected an integer");
}

/// Rejects keys outside `allowed`, in file order.
void checkKeys(const Json &obj, const std::string &path,
               std::initializer_list<const char *> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string &key = it.key();
    bool ok = std::any_of(allowed.begin(), allowed.end(),
                          [&](const char *a) { return key == a; });
    if (!ok)
      fail(member(path, key), "unknown key " + quote(key));
  }
}

const Json &require(const Json &obj, const std::string &path, const char *key) {
  auto it = obj.find(key);
  if (it == obj.end())
    fail(path, std::string("missing required key '") + key + "'");
  return *it;
}

const Json *optional(const Json &obj, const char *key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

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

void Parser::parseName(const Json &v, const std::string &path,
                       std::string &out) {
  out = expectString(v, path);
  if (out.empty())
    fail(path, "empty name");
  if (out.find_first_of("\r\n") != std::string::npos)
    fail(path, "name contains a newline");
}

DType Parser::parseDType(const Json &v, const std::string &path) {
  const std::string &s = expectString(v, path);
  if (s == "f32")
    return DType::F32;
  if (s == "i64")
    return DType::I64;
  if (s == "i32")
    return DType::I32;
  if (s == "bool")
    return DType::Bool;
  fail(path, "unknown dtype " + quote(s) + " (expected " +
                 listChoices(dtypeNames()) + ")");
}

void Parser::parseShape(const Json &v, const std::string &path,
                        std::vector<int64_t> &shape) {
  expectList(v, path);
  if (v.size() > kMaxRank)
    fail(path, "rank " + std::to_string(v.size()) + " exceeds the limit of " +
                   std::to_string(kMaxRank));
  int64_t count = 1;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string dimPath = element(path, i);
    int64_t d;
    if (!asInt(v[i], d)) {
      if (v[i].is_number_integer())
        fail(dimPath, "dimension " + v[i].dump() + " out of range [1, 2^31)");
      fail(dimPath, "expected an integer");
    }
    if (d < 1 || d >= kMaxDim)
      fail(dimPath,
           "dimension " + std::to_string(d) + " out of range [1, 2^31)");
    shape.push_back(d);
    // d < 2^31 and count <= 2^31, so this cannot overflow.
    count *= d;
    if (count > kMaxElements)
      fail(path, "element count exceeds 2^31");
  }
}

void Parser::parseTensor(const Json &v, const std::string &path,
                         TensorDecl &decl) {
  decl.path = path;
  parseName(require(v, path, "name"), member(path, "name"), decl.name);
  decl.dtype = parseDType(require(v, path, "dtype"), member(path, "dtype"));
  parseShape(require(v, path, "shape"), member(path, "shape"), decl.shape);
}

void Parser::parseInlineData(const Json &v, const std::string &path,
                             WeightDecl &w) {
  expectList(v, path);
  size_t n = static_cast<size_t>(w.numElements());
  if (v.size() > kMaxInlineElements)
    fail(path, "at most " + std::to_string(kMaxInlineElements) +
                   " elements may be inline, got " + std::to_string(v.size()));
  if (v.size() != n)
    fail(path, "inline data has " + std::to_string(v.size()) +
                   " elements, expected " + std::to_string(n));
  w.data.resize(n * dtypeSize(w.dtype));
  char *out = w.data.data();
  for (size_t i = 0; i < n; ++i) {
    const Json &e = v[i];
    std::string ePath = element(path, i);
    switch (w.dtype) {
    case DType::F32: {
      if (!e.is_number())
        fail(ePath, "expected a number");
      double d = e.get<double>();
      // JSON has no inf; a huge literal is a mistake, not a wish for inf.
      if (!(std::fabs(d) <= FLT_MAX))
        fail(ePath, "value " + e.dump() + " out of range for f32");
      float f = static_cast<float>(d);
      std::memcpy(out + 4 * i, &f, 4);
      break;
    }
    case DType::I64: {
      int64_t x;
      if (!asInt(e, x)) {
        if (e.is_number_integer())
          fail(ePath, "value " + e.dump() + " out of range for i64");
        fail(ePath, "expected an integer");
      }
      std::memcpy(out + 8 * i, &x, 8);
      break;
    }
    case DType::I32: {
      int64_t x;
      if (!asInt(e, x)) {
        if (e.is_number_integer())
          fail(ePath, "value " + e.dump() + " out of range for i32");
        fail(ePath, "expected an integer");
      }
      if (x < std::numeric_limits<int32_t>::min() ||
          x > std::numeric_limits<int32_t>::max())
        fail(ePath, "value " + std::to_string(x) + " out of range for i32");
      int32_t y = static_cast<int32_t>(x);
      std::memcpy(out + 4 * i, &y, 4);
      break;
    }
    case DType::Bool: {
      int64_t x = -1;
      if (e.is_boolean())
        x = e.get<bool>() ? 1 : 0;
      else if (!asInt(e, x) || (x != 0 && x != 1))
        fail(ePath, "expected a boolean (true/false or 0/1)");
      out[i] = static_cast<char>(x);
      break;
    }
    }
  }
}

void Parser::parseAttr(const AttrSpec &a, const Json &v,
                       const std::string &path, AttrValue &out) {
  switch (a.kind) {
  case AttrKind::Int: {
    int64_t x = expectInt(v, path);
    if (a.rule == IntRule::Positive && x <= 0)
      fail(path, "expected a positive integer, got " + std::to_string(x));
    if (a.rule == IntRule::NonNegative && x < 0)
      fail(path, "expected a non-negative integer, got " + std::to_string(x));
    out = x;
    return;
  }
  case AttrKind::Float:
    if (!v.is_number())
      fail(path, "expected a number");
    out = v.get<double>();
    return;
  case AttrKind::Bool:
    if (!v.is_boolean())
      fail(path, "expected a boolean");
    out = v.get<bool>();
    return;
  case AttrKind::String: {
    const std::string &s = expectString(v, path);
    if (!a.choices.empty() &&
        std::none_of(a.choices.begin(), a.choices.end(),
                     [&](const char *c) { return s == c; }))
      fail(path, std::string("unknown ") + a.noun + " " + quote(s) +
                     " (expected " + listChoices(a.choices) + ")");
    out = s;
    return;
  }
  case AttrKind::IntList: {
    std::string expected =
        a.listLength >= 0
            ? "expected a list of " + std::to_string(a.listLength) + " integers"
            : std::string("expected a list of integers");
    if (!v.is_array() ||
        (a.listLength >= 0 && v.size() != size_t(a.listLength)))
      fail(path, expected);
    IntList list;
    list.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      int64_t x;
      if (!asInt(v[i], x))
        fail(path, expected);
      if (a.rule == IntRule::Positive && x <= 0)
        fail(element(path, i),
             "expected a positive integer, got " + std::to_string(x));
      if (a.rule == IntRule::NonNegative && x < 0)
        fail(element(path, i),
             "expected a non-negative integer, got " + std::to_string(x));
      list.push_back(x);
    }
    out = std::move(list);
    return;
  }
  }
}

/// Checks on attribute values that need more than one value at a time but
/// still no shapes.
void Parser::checkAttrValues(const NodeDecl &node,
                             const std::string &attrsPath) {
  auto list = [&](const char *n) -> const IntList * {
    auto it = node.attrs.find(n);
    return it == node.attrs.end() ? nullptr : &std::get<IntList>(it->second);
  };
  auto uniqueAxes = [&](const char *n) {
    if (const IntList *axes = list(n)) {
      std::set<int64_t> seen;
      for (size_t i = 0; i < axes->size(); ++i)
        if (!seen.insert((*axes)[i]).second)
          fail(element(member(attrsPath, n), i),
               "duplicate axis " + std::to_string((*axes)[i]));
    }
  };
  const std::string &op = node.op;
  if (op == "reshape") {
    const IntList &shape = *list("shape");
    std::string path = member(attrsPath, "shape");
    if (shape.size() > kMaxRank)
      fail(path, "rank " + std::to_string(shape.size()) +
                     " exceeds the limit of " + std::to_string(kMaxRank));
    bool sawInferred = false;
    for (size_t i = 0; i < shape.size(); ++i) {
      int64_t d = shape[i];
      if (d == -1) {
        if (sawInferred)
          fail(element(path, i), "at most one dimension may be -1");
        sawInferred = true;
      } else if (d < 1 || d >= kMaxDim) {
        fail(element(path, i), "dimension " + std::to_string(d) +
                                   " out of range [1, 2^31) (or -1)");
      }
    }
  } else if (op == "transpose") {
    if (const IntList *perm = list("perm")) {
      std::vector<bool> seen(perm->size(), false);
      for (int64_t p : *perm) {
        if (p < 0 || p >= int64_t(perm->size()) || seen[p])
          fail(member(attrsPath, "perm"),
               "expected a permutation of 0.." +
                   std::to_string(int64_t(perm->size()) - 1));
        seen[p] = true;
      }
    }
  } else if (op == "reduce_sum" || op == "reduce_mean" || op == "reduce_max") {
    uniqueAxes("axes");
  } else if (op == "slice") {
    size_t n = list("starts")->size();
    for (const char *other : {"ends", "axes", "steps"})
      if (const IntList *l = list(other); l && l->size() != n)
        fail(member(attrsPath, other),
             "expected " + std::to_string(n) +
                 " entries (as many as 'starts'), got " +
                 std::to_string(l->size()));
    uniqueAxes("axes");
  }
}

void Parser::parseNode(const Json &v, const std::string &path, NodeDecl &node) {
  expectObject(v, path);
  node.path = path;
  checkKeys(v, path, {"op", "name", "inputs", "outputs", "attrs"});
  node.op = expectString(require(v, path, "op"), member(path, "op"));
  const OpInfo *info = lookupOpInfo(node.op);
  if (!info)
    fail(member(path, "op"), "unknown op " + quote(node.op));
  if (const Json *name = optional(v, "name")) {
    node.name = expectString(*name, member(path, "name"));
    if (node.name.find_first_of("\r\n") != std::string::npos)
      fail(member(path, "name"), "name contains a newline");
  }

  std::string inPath = member(path, "inputs");
  const Json &inputs = expectList(require(v, path, "inputs"), inPath);
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name;
    parseName(inputs[i], element(inPath, i), name);
    node.inputs.push_back(std::move(name));
  }
  int n = int(std::min<size_t>(inputs.size(), INT32_MAX));
  const OpSchema &s = info->schema;
  if (n < s.minInputs || (s.maxInputs >= 0 && n > s.maxInputs)) {
    auto plural = [](int k) {
      return std::to_string(k) + (k == 1 ? " input" : " inputs");
    };
    std::string want =
        s.maxInputs < 0 ? "at least " + plural(s.minInputs)
        : s.minInputs == s.maxInputs
            ? plural(s.minInputs)
            : std::to_string(s.minInputs) + " or " + plural(s.maxInputs);
    fail(inPath, "op " + quote(node.op) + " expects " + want + ", got " +
                     std::to_string(n));
  }

  std::string outPath = member(path, "outputs");
  const Json &outputs = expectList(require(v, path, "outputs"), outPath);
  if (outputs.size() != 1)
    fail(outPath,
         "expected exactly one output, got " + std::to_string(outputs.size()));
  parseName(outputs[0], element(outPath, 0), node.output);

  std::string attrsPath = member(path, "attrs");
  if (const Json *attrs = optional(v, "attrs")) {
    expectObject(*attrs, attrsPath);
    for (auto it = attrs->begin(); it != attrs->end(); ++it) {
      std::string aPath = member(attrsPath, it.key());
      const AttrSpec *a = info->findAttr(it.key());
      if (!a)
        fail(aPath, "unknown attribute " + quote(it.key()) + " for op " +
                        quote(node.op));
      parseAttr(*a, it.value(), aPath, node.attrs[it.key()]);
    }
  }
  for (const AttrSpec &a : info->attrs)
    if (a.required && !node.attrs.count(a.name))
      fail(path, std::string("missing required attribute '") + a.name +
                     "' for op " + quote(node.op));
  checkAttrValues(node, attrsPath);
}

void Parser::define(const std::string &name, Definition def) {
  auto [it, inserted] = defs.emplace(name, def);
  if (!inserted)
    fail(def.path, "duplicate name " + quote(name) + " (also defined at " +
                       it->second.path + ")");
}

std::string Parser::describeNode(size_t i) const {
  const NodeDecl &n = spec.nodes[i];
  return "node " + quote(n.name.empty() ? n.output : n.name);
}

/// Kahn's algorithm with a min-heap on file position: the result is the
/// lexicographically smallest topological order, i.e. file order whenever
/// file order is already valid. Iterative, O(n log n).
void Parser::sortNodes() {
  std::vector<NodeDecl> &nodes = spec.nodes;
  size_t n = nodes.size();
  std::vector<std::vector<size_t>> preds(n), succs(n);
  std::vector<size_t> indegree(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (const std::string &in : nodes[i].inputs) {
      const Definition &d = defs.at(in);
      if (d.kind != Definition::Node)
        continue;
      preds[i].push_back(d.index);
      succs[d.index].push_back(i);
      ++indegree[i];
    }
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < n; ++i)
    if (indegree[i] == 0)
      ready.push(i);
  std::vector<size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t s : succs[i])
      if (--indegree[s] == 0)
        ready.push(s);
  }

  if (order.size() != n) {
    // Every unsorted node still has an unsorted producer, so walking
    // producers from any of them must revisit a node: that loop is a cycle.
    size_t start = 0;
    while (indegree[start] == 0)
      ++start;
    std::vector<size_t> position(n, SIZE_MAX), walk;
    size_t cur = start;
    while (position[cur] == SIZE_MAX) {
      position[cur] = walk.size();
      walk.push_back(cur);
      for (size_t p : preds[cur]) {
        if (indegree[p] != 0) {
          cur = p;
          break;
        }
      }
    }
    // walk[k+1] produces an input of walk[k]; print in dataflow order,
    // starting from the node that comes first in the file.
    std::vector<size_t> cycle(walk.begin() + position[cur], walk.end());
    std::reverse(cycle.begin(), cycle.end());
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()),
                cycle.end());
    constexpr size_t kShown = 8;
    std::string msg = "cycle: ";
    for (size_t k = 0; k < cycle.size() && k < kShown; ++k)
      msg += describeNode(cycle[k]) + " (" + nodes[cycle[k]].path + ") -> ";
    if (cycle.size() > kShown)
      msg +=
          "... (" + std::to_string(cycle.size() - kShown) + " more nodes) -> ";
    msg += describeNode(cycle[0]);
    fail(nodes[cycle[0]].path, msg);
  }

  std::vector<NodeDecl> sorted;
  sorted.reserve(n);
  for (size_t i : order)
    sorted.push_back(std::move(nodes[i]));
  nodes = std::move(sorted);
}

void Parser::loadWeightsFile(const std::string &weightsFile,
                             const std::string &path) {
  namespace fs = std::filesystem;
  fs::path file(weightsFile);
  if (file.is_relative())
    file = fs::path(sourcePath).parent_path() / file;
  std::error_code ec;
  if (fs::is_directory(file, ec))
    fail(path, "weights file " + quote(weightsFile) + " is a directory");
  SafetensorsFile st;
  std::string error;
  if (!st.open(file.string(), weightsFile, error))
    fail(path, error);
  for (size_t i = 0; i < spec.weights.size(); ++i) {
    WeightDecl &w = spec.weights[i];
    if (hasInlineData[i])
      continue;
    const SafetensorsEntry *e = st.find(w.name);
    if (!e)
      fail(w.path,
           quote(w.name) + " not found in weights file " + quote(weightsFile));
    const char *want = w.dtype == DType::F32   ? "F32"
                       : w.dtype == DType::I64 ? "I64"
                       : w.dtype == DType::I32 ? "I32"
                                               : "BOOL";
    if (e->dtype != want)
      fail(member(w.path, "dtype"), "dtype mismatch for " + quote(w.name) +
                                        ": weights file " + quote(weightsFile) +
                                        " has " + e->dtype + ", model says " +
                                        dtypeName(w.dtype));
    if (e->shape != w.shape) {
      auto str = [](const std::vector<int64_t> &s) {
        std::string out = "[";
        for (size_t k = 0; k < s.size(); ++k)
          out += (k ? ", " : "") + std::to_string(s[k]);
        return out + "]";
      };
      fail(member(w.path, "shape"), "shape mismatch for " + quote(w.name) +
                                        ": weights file " + quote(weightsFile) +
                                        " has " + str(e->shape) +
                                        ", model says " + str(w.shape));
    }
    if (!st.read(*e, w.data, error))
      fail(w.path, error);
    // Normalize bools so consumers can rely on 0/1 bytes.
    if (w.dtype == DType::Bool)
      for (char &c : w.data)
        c = c ? 1 : 0;
  }
}

void Parser::run(const Json &root) {
  expectObject(root, "");
  const Json &version = require(root, "", "version");
  int64_t v;
  if (!asInt(version, v))
    fail("version", "expected an integer");
  if (v != 1)
    fail("version",
         "unsupported version " + std::to_string(v) + " (expected 1)");
  checkKeys(root, "",
            {"version", "name", "weights_file", "inputs", "outputs", "weights",
             "nodes", "training"});
  if (const Json *name = optional(root, "name"))
    spec.name = expectString(*name, "name");

  if (const Json *training = optional(root, "training"))
    parseTraining(*training, "training");

  std::string weightsFile;
  if (const Json *wf = optional(root, "weights_file")) {
    weightsFile = expectString(*wf, "weights_file");
    if (weightsFile.empty())
      fail("weights_file", "expected a non-empty path");
  }

  const Json &inputs = expectList(require(root, "", "inputs"), "inputs");
  spec.inputs.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string path = element("inputs", i);
    expectObject(inputs[i], path);
    checkKeys(inputs[i], path, {"name", "dtype", "shape"});
    parseTensor(inputs[i], path, spec.inputs[i]);
  }

  if (const Json *weights = optional(root, "weights")) {
    expectList(*weights, "weights");
    spec.weights.resize(weights->size());
    hasInlineData.assign(weights->size(), false);
    for (size_t i = 0; i < weights->size(); ++i) {
      std::string path = element("weights", i);
      const Json &w = (*weights)[i];
      expectObject(w, path);
      checkKeys(w, path, {"name", "dtype", "shape", "data"});
      parseTensor(w, path, spec.weights[i]);
      if (const Json *data = optional(w, "data")) {
        parseInlineData(*data, member(path, "data"), spec.weights[i]);
        hasInlineData[i] = true;
      } else if (weightsFile.empty() && !spec.training.randomInit)
        fail(path, "weight " + quote(spec.weights[i].name) +
                       " has no inline data and there is no weights_file");
    }
  }

  const Json &nodes = expectList(require(root, "", "nodes"), "nodes");
  spec.nodes.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    parseNode(nodes[i], element("nodes", i), spec.nodes[i]);

  const Json &outputs = expectList(require(root, "", "outputs"), "outputs");
  if (outputs.empty())
    fail("outputs", "expected at least one output");
  spec.outputs.resize(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    spec.outputs[i].path = element("outputs", i);
    parseName(outputs[i], spec.outputs[i].path, spec.outputs[i].name);
  }

  // Names: unique across inputs, weights and node outputs.
  defs.reserve(spec.inputs.size() + spec.weights.size() + spec.nodes.size());
  for (size_t i = 0; i < spec.inputs.size(); ++i)
    define(spec.inputs[i].name,
           {Definition::Input, i, member(spec.inputs[i].path, "name")});
  for (size_t i = 0; i < spec.weights.size(); ++i)
    define(spec.weights[i].name,
           {Definition::Weight, i, member(spec.weights[i].path, "name")});
  for (size_t i = 0; i < spec.nodes.size(); ++i)
    define(spec.nodes[i].output,
           {Definition::Node, i,
            element(member(spec.nodes[i].path, "outputs"), 0)});

  for (const NodeDecl &node : spec.nodes)
    for (size_t k = 0; k < node.inputs.size(); ++k)
      if (!defs.count(node.inputs[k]))
        fail(element(member(node.path, "inputs"), k),
             "unknown value " + quote(node.inputs[k]));
  for (const OutputDecl &out : spec.outputs)
    if (!defs.count(out.name))
      fail(out.path, "unknown value " + quote(out.name));

  sortNodes();
  if (spec.training.present)
    checkTraining();

  if (!weightsFile.empty())
    loadWeightsFile(weightsFile, "weights_file");
}

namespace {
double expectNumber(const Json &v, const std::string &path) {
  if (!v.is_number())
    fail(path, "expected a number");
  return v.get<double>();
}

/// An optional number in [lo, hi), or [lo, hi] when `closed`.
double numberIn(const Json &obj, const std::string &path, const char *key,
                double dflt, double lo, double hi, bool required = false,
                bool closed = false) {
  const Json *v = required ? &require(obj, path, key) : optional(obj, key);
  if (!v)
    return dflt;
  std::string p = member(path, key);
  double d = expectNumber(*v, p);
  if (!(d >= lo && (closed ? d <= hi : d < hi))) {
    std::ostringstream os;
    os << key << " must be in [" << lo << ", " << hi << (closed ? "]" : ")")
       << ", got " << d;
    fail(p, os.str());
  }
  return d;
}
} // namespace

void Parser::parseTraining(const Json &v, const std::string &path) {
  TrainingSpec &t = spec.training;
  t.present = true;
  expectObject(v, path);
  checkKeys(v, path,
            {"batch_size", "loss", "optimizer", "init", "trainable",
             "batch_norm_momentum"});
  t.batchSize =
      expectInt(require(v, path, "batch_size"), member(path, "batch_size"));
  if (t.batchSize < 1 || t.batchSize >= kMaxDim)
    fail(member(path, "batch_size"), "batch_size must be in [1, 2^31)");

  std::string lossPath = member(path, "loss");
  const Json &loss = expectObject(require(v, path, "loss"), lossPath);
  const std::string &type =
      expectString(require(loss, lossPath, "type"), member(lossPath, "type"));
  const char *labelsKey;
  if (type == "softmax_cross_entropy") {
    t.loss = TrainingSpec::Loss::SoftmaxCrossEntropy;
    labelsKey = "labels";
  } else if (type == "mse") {
    t.loss = TrainingSpec::Loss::MSE;
    labelsKey = "target";
  } else {
    fail(member(lossPath, "type"), "unknown loss " + quote(type) +
                                       " (expected softmax_cross_entropy or "
                                       "mse)");
  }
  checkKeys(loss, lossPath, {"type", "output", labelsKey});
  parseName(require(loss, lossPath, "output"), member(lossPath, "output"),
            t.lossOutput);
  parseName(require(loss, lossPath, labelsKey), member(lossPath, labelsKey),
            t.labels);

  std::string optPath = member(path, "optimizer");
  const Json &opt = expectObject(require(v, path, "optimizer"), optPath);
  const std::string &optType =
      expectString(require(opt, optPath, "type"), member(optPath, "type"));
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (optType == "sgd") {
    t.optimizer = TrainingSpec::Optimizer::SGD;
    checkKeys(opt, optPath,
              {"type", "lr", "momentum", "weight_decay", "nesterov"});
    t.momentum = numberIn(opt, optPath, "momentum", 0, 0, 1);
    if (const Json *n = optional(opt, "nesterov")) {
      if (!n->is_boolean())
        fail(member(optPath, "nesterov"), "expected true or false");
      t.nesterov = n->get<bool>();
      if (t.nesterov && t.momentum == 0)
        fail(member(optPath, "nesterov"), "nesterov needs a momentum > 0");
    }
  } else if (optType == "adam") {
    t.optimizer = TrainingSpec::Optimizer::Adam;
    checkKeys(opt, optPath,
              {"type", "lr", "beta1", "beta2", "epsilon", "weight_decay"});
    t.beta1 = numberIn(opt, optPath, "beta1", 0.9, 0, 1);
    t.beta2 = numberIn(opt, optPath, "beta2", 0.999, 0, 1);
    t.epsilon = numberIn(opt, optPath, "epsilon", 1e-8, 1e-30, inf);
  } else {
    fail(member(optPath, "type"),
         "unknown optimizer " + quote(optType) + " (expected sgd or adam)");
  }
  t.lr = numberIn(opt, optPath, "lr", 0, 1e-30, inf, /*required=*/true);
  t.weightDecay = numberIn(opt, optPath, "weight_decay", 0, 0, inf);

  if (const Json *init = optional(v, "init")) {
    std::string initPath = member(path, "init");
    expectObject(*init, initPath);
    checkKeys(*init, initPath, {"method", "seed"});
    const std::string &method = expectString(require(*init, initPath, "method"),
                                             member(initPath, "method"));
    if (method == "random")
      t.randomInit = true;
    else if (method != "weights")
      fail(member(initPath, "method"), "unknown init method " + quote(method) +
                                           " (expected weights or random)");
    if (const Json *seed = optional(*init, "seed")) {
      if (!t.randomInit)
        fail(member(initPath, "seed"), "seed applies to method random only");
      int64_t s = expectInt(*seed, member(initPath, "seed"));
      if (s < 0)
        fail(member(initPath, "seed"), "seed must not be negative");
      t.seed = uint64_t(s);
    }
  }

  if (const Json *trainable = optional(v, "trainable")) {
    std::string tp = member(path, "trainable");
    expectList(*trainable, tp);
    if (trainable->empty())
      fail(tp, "expected at least one weight name");
    t.trainable.resize(trainable->size());
    for (size_t i = 0; i < trainable->size(); ++i)
      parseName((*trainable)[i], element(tp, i), t.trainable[i]);
  }
  t.batchNormMomentum =
      numberIn(v, path, "batch_norm_momentum", 0.1, 0, 1, /*required=*/false,
               /*closed=*/true);
}

/// Names in the training section against the graph (after all are defined).
void Parser::checkTraining() {
  const TrainingSpec &t = spec.training;
  if (!defs.count(t.lossOutput))
    fail("training.loss.output", "unknown value " + quote(t.lossOutput));
  if (std::none_of(spec.outputs.begin(), spec.outputs.end(),
                   [&](const OutputDecl &o) { return o.name == t.lossOutput; }))
    fail("training.loss.output",
         quote(t.lossOutput) + " is not one of the model's outputs");
  const char *labelsKey =
      t.loss == TrainingSpec::Loss::MSE ? "target" : "labels";
  if (defs.count(t.labels))
    fail(std::string("training.loss.") + labelsKey,
         quote(t.labels) + " is already a value of the model; the labels "
                           "input needs a new name");
  std::unordered_map<std::string, size_t> seen;
  for (size_t i = 0; i < t.trainable.size(); ++i) {
    std::string path = element("training.trainable", i);
    auto it = defs.find(t.trainable[i]);
    if (it == defs.end() || it->second.kind != Definition::Weight)
      fail(path, quote(t.trainable[i]) + " is not a weight of the model");
    if (spec.weights[it->second.index].dtype != DType::F32)
      fail(path, "weight " + quote(t.trainable[i]) +
                     " is not f32; only f32 weights can be trained");
    if (!seen.emplace(t.trainable[i], i).second)
      fail(path, quote(t.trainable[i]) + " is listed twice");
  }
}

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
