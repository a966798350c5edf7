//===- ModelSpecParser.cpp - model.json values, nodes and weights ---------===//
//
// The Parser walks the JSON DOM: inputs, weights (inline or from a
// safetensors file), nodes with their attributes (ModelSpecOps.cpp) and
// outputs, then orders the nodes topologically.
//
//===----------------------------------------------------------------------===//

#include "ModelSpecParser.h"
#include "mlc/Frontend/JSON/Safetensors.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <queue>
#include <set>

namespace mlc::frontend::detail {

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

} // namespace mlc::frontend::detail
