//===- ModelSpecOps.cpp - model.json's op table and attributes ------------===//
//
// Which ops a model.json may use, their input counts and attributes, and the
// checks on attribute values that need no shapes.
//
//===----------------------------------------------------------------------===//

#include "ModelSpecParser.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace mlc::frontend::detail {

namespace {

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

} // namespace

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
    // Window ops over 1, 2 and 3 spatial dims; pads are all begins, then
    // all ends.
    static const char *const conv[] = {"conv1d", "conv2d", "conv3d"};
    static const char *const maxpool[] = {"maxpool1d", "maxpool2d",
                                          "maxpool3d"};
    static const char *const avgpool[] = {"avgpool1d", "avgpool2d",
                                          "avgpool3d"};
    static const char *const convT[] = {"conv_transpose1d", "conv_transpose2d",
                                        "conv_transpose3d"};
    for (int d = 1; d <= 3; ++d)
      add(conv[d - 1], 2, 3,
          {listAttr("strides", d, pos), listAttr("pads", 2 * d, nonneg),
           listAttr("dilations", d, pos), intAttr("groups", false, pos)});
    for (int d = 1; d <= 3; ++d)
      add(maxpool[d - 1], 1, 1,
          {listAttr("kernel", d, pos, true), listAttr("strides", d, pos),
           listAttr("pads", 2 * d, nonneg), listAttr("dilations", d, pos)});
    for (int d = 1; d <= 3; ++d)
      add(avgpool[d - 1], 1, 1,
          {listAttr("kernel", d, pos, true), listAttr("strides", d, pos),
           listAttr("pads", 2 * d, nonneg), boolAttr("count_include_pad")});
    for (int d = 1; d <= 3; ++d)
      add(convT[d - 1], 2, 3,
          {listAttr("strides", d, pos), listAttr("pads", 2 * d, nonneg),
           listAttr("output_padding", d, nonneg), listAttr("dilations", d, pos),
           intAttr("groups", false, pos)});
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
// Attribute values
//===----------------------------------------------------------------------===//

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

} // namespace mlc::frontend::detail
