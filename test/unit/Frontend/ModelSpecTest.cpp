//===- ModelSpecTest.cpp - Unit tests for the model.json parser -----------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "mlc/Frontend/JSON/ModelSpec.h"
#include "mlc/Frontend/JSON/Safetensors.h"

#include "Support/ScratchDir.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace mlc::frontend;
namespace fs = std::filesystem;

namespace {

const fs::path &scratchDir() {
  return mlc::test::scratchDir("mlc-frontend-tests");
}

std::string modelPath() { return (scratchDir() / "model.json").string(); }

void writeFile(const fs::path &p, const std::string &bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

struct StTensor {
  std::string name, dtype;
  std::vector<int64_t> shape;
  std::string bytes;
};

/// Writes a safetensors file the way the reference implementation does.
/// `truncateBy` drops bytes from the end; `headerOverride` replaces the JSON.
std::string makeSafetensors(const std::vector<StTensor> &tensors,
                            const std::string &headerOverride = "") {
  std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
  std::string data;
  for (const StTensor &t : tensors) {
    header += ",\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
    for (size_t i = 0; i < t.shape.size(); ++i)
      header += (i ? "," : "") + std::to_string(t.shape[i]);
    header += "],\"data_offsets\":[" + std::to_string(data.size()) + "," +
              std::to_string(data.size() + t.bytes.size()) + "]}";
    data += t.bytes;
  }
  header += "}";
  if (!headerOverride.empty())
    header = headerOverride;
  while (header.size() % 8)
    header += ' ';
  std::string out(8, '\0');
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i)
    out[i] = char((n >> (8 * i)) & 0xff);
  return out + header + data;
}

template <typename T> std::string bytesOf(const std::vector<T> &v) {
  return std::string(reinterpret_cast<const char *>(v.data()),
                     v.size() * sizeof(T));
}

template <typename T> std::vector<T> valuesOf(const std::vector<char> &bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

bool parse(const std::string &text, ModelSpec &spec, Diagnostic &diag) {
  return parseModelJSONText(text, modelPath(), spec, diag);
}

/// Parses `text` expecting failure with exactly this path and message.
void expectError(const std::string &text, const std::string &path,
                 const std::string &message) {
  ModelSpec spec;
  Diagnostic diag;
  INFO("model: " << (text.size() < 2000 ? text : text.substr(0, 2000)));
  REQUIRE_FALSE(parse(text, spec, diag));
  CHECK(diag.path == path);
  CHECK(diag.message == message);
}

void expectOk(const std::string &text, ModelSpec &spec) {
  Diagnostic diag;
  INFO("model: " << text);
  bool ok = parse(text, spec, diag);
  INFO("error: " << diag.path << ": " << diag.message);
  REQUIRE(ok);
}

/// A valid model with one node; `node` replaces the node and `extra` is
/// spliced into the top level.
std::string
withNode(const std::string &node,
         const std::string &inputs =
             R"([{"name": "x", "dtype": "f32", "shape": [1, 3, 8, 8]},
                                                      {"name": "w", "dtype": "f32", "shape": [4, 3, 3, 3]},
                                                      {"name": "i", "dtype": "i64", "shape": [2]}])") {
  return R"({"version": 1, "inputs": )" + inputs + R"(, "outputs": ["y"],
             "nodes": [)" +
         node + "]}";
}

std::string withNodes(const std::string &nodes,
                      const std::string &outputs = R"(["y"])") {
  return R"({"version": 1,
             "inputs": [{"name": "x", "dtype": "f32", "shape": [2, 3]}],
             "outputs": )" +
         outputs + R"(, "nodes": [)" + nodes + "]}";
}

std::string withInput(const std::string &input) {
  return R"({"version": 1, "inputs": [)" + input +
         R"(], "outputs": ["x"], "nodes": []})";
}

std::string withWeight(const std::string &weight, const std::string &extra = "",
                       const std::string &output = "w") {
  return R"({"version": 1, "inputs": [], "outputs": [")" + output +
         R"("], "nodes": [],)" + extra + R"( "weights": [)" + weight + "]}";
}

} // namespace

//===----------------------------------------------------------------------===//
// Valid models
//===----------------------------------------------------------------------===//

TEST_CASE("a good model parses with inline and safetensors weights") {
  std::vector<float> w1(4 * 3);
  for (size_t i = 0; i < w1.size(); ++i)
    w1[i] = 0.5f * float(i);
  std::vector<int64_t> idx = {2, -1};
  std::vector<int32_t> i32 = {7, -7, 1 << 30};
  std::string bools = {1, 0, 1};
  writeFile(scratchDir() / "good.safetensors",
            makeSafetensors({{"fc1.w", "F32", {4, 3}, bytesOf(w1)},
                             {"unused", "F16", {2}, std::string(4, '\0')},
                             {"idx", "I64", {2}, bytesOf(idx)},
                             {"i32", "I32", {3}, bytesOf(i32)},
                             {"mask", "BOOL", {3}, bools}}));
  std::string text = R"({
    "version": 1,
    "name": "mlp",
    "weights_file": "good.safetensors",
    "inputs": [{"name": "x", "dtype": "f32", "shape": [1, 4]}],
    "outputs": ["y", "x", "fc1.b"],
    "weights": [
      {"name": "fc1.w", "dtype": "f32", "shape": [4, 3]},
      {"name": "fc1.b", "dtype": "f32", "shape": [3], "data": [0.25, -1, 3e2]},
      {"name": "idx", "dtype": "i64", "shape": [2]},
      {"name": "i32", "dtype": "i32", "shape": [3]},
      {"name": "mask", "dtype": "bool", "shape": [3]},
      {"name": "imask", "dtype": "bool", "shape": [4], "data": [true, 0, 1, false]},
      {"name": "ii", "dtype": "i64", "shape": [], "data": [-9007199254740993]},
      {"name": "scale", "dtype": "f32", "shape": [], "data": [0.125]}
    ],
    "nodes": [
      {"op": "matmul", "inputs": ["x", "fc1.w"], "outputs": ["h0"]},
      {"op": "add", "inputs": ["h0", "fc1.b"], "outputs": ["h1"], "name": "fc1.bias"},
      {"op": "relu", "inputs": ["h1"], "outputs": ["y"]},
      {"op": "conv2d", "inputs": ["x", "fc1.w"], "outputs": ["c"],
       "attrs": {"strides": [2, 1], "pads": [0, 1, 2, 3], "groups": 2}},
      {"op": "layer_norm", "inputs": ["x", "fc1.b", "fc1.b"], "outputs": ["ln"],
       "attrs": {"epsilon": 1, "axis": -1}},
      {"op": "gelu", "inputs": ["x"], "outputs": ["g"], "attrs": {"approximate": "tanh"}},
      {"op": "reduce_sum", "inputs": ["x"], "outputs": ["r"], "attrs": {"keepdims": false}}
    ]
  })";
  ModelSpec spec;
  expectOk(text, spec);
  CHECK(spec.name == "mlp");
  CHECK(spec.sourcePath == modelPath());
  REQUIRE(spec.inputs.size() == 1);
  CHECK(spec.inputs[0].name == "x");
  CHECK(spec.inputs[0].dtype == DType::F32);
  CHECK(spec.inputs[0].shape == std::vector<int64_t>{1, 4});
  CHECK(spec.inputs[0].path == "inputs[0]");

  REQUIRE(spec.weights.size() == 8);
  const WeightDecl &fc1w = spec.weights[0];
  CHECK(fc1w.path == "weights[0]");
  CHECK(fc1w.numElements() == 12);
  CHECK(valuesOf<float>(fc1w.data) == w1);
  CHECK(valuesOf<float>(spec.weights[1].data) ==
        std::vector<float>{0.25f, -1.0f, 300.0f});
  CHECK(valuesOf<int64_t>(spec.weights[2].data) == idx);
  CHECK(valuesOf<int32_t>(spec.weights[3].data) == i32);
  CHECK(spec.weights[4].data == std::vector<char>{1, 0, 1});
  CHECK(spec.weights[5].data == std::vector<char>{1, 0, 1, 0});
  CHECK(valuesOf<int64_t>(spec.weights[6].data) ==
        std::vector<int64_t>{-9007199254740993LL});
  CHECK(spec.weights[7].shape.empty());
  CHECK(spec.weights[7].numElements() == 1);
  CHECK(valuesOf<float>(spec.weights[7].data) == std::vector<float>{0.125f});

  REQUIRE(spec.nodes.size() == 7);
  const NodeDecl &add = spec.nodes[1];
  CHECK(add.op == "add");
  CHECK(add.name == "fc1.bias");
  CHECK(add.inputs == std::vector<std::string>{"h0", "fc1.b"});
  CHECK(add.output == "h1");
  CHECK(add.path == "nodes[1]");
  CHECK(add.attrs.empty());
  const NodeDecl &conv = spec.nodes[3];
  CHECK(std::get<IntList>(conv.attrs.at("strides")) == IntList{2, 1});
  CHECK(std::get<IntList>(conv.attrs.at("pads")) == IntList{0, 1, 2, 3});
  CHECK(std::get<int64_t>(conv.attrs.at("groups")) == 2);
  CHECK(conv.attrs.count("dilations") == 0); // defaults are not filled in
  CHECK(std::get<double>(spec.nodes[4].attrs.at("epsilon")) == 1.0);
  CHECK(std::get<int64_t>(spec.nodes[4].attrs.at("axis")) == -1);
  CHECK(std::get<std::string>(spec.nodes[5].attrs.at("approximate")) == "tanh");
  CHECK(std::get<bool>(spec.nodes[6].attrs.at("keepdims")) == false);

  REQUIRE(spec.outputs.size() == 3);
  CHECK(spec.outputs[0].name == "y");
  CHECK(spec.outputs[1].name == "x");
  CHECK(spec.outputs[2].name == "fc1.b");
  CHECK(spec.outputs[2].path == "outputs[2]");
}

TEST_CASE("parseModelJSON reads a file and resolves weights_file next to it") {
  fs::path dir = scratchDir() / "sub";
  fs::create_directories(dir);
  std::vector<float> w = {1, 2, 3, 4};
  writeFile(dir / "w.safetensors",
            makeSafetensors({{"w", "F32", {2, 2}, bytesOf(w)}}));
  writeFile(dir / "m.json", R"({"version": 1, "weights_file": "w.safetensors",
      "inputs": [], "outputs": ["w"], "nodes": [],
      "weights": [{"name": "w", "dtype": "f32", "shape": [2, 2]}]})");
  ModelSpec spec;
  Diagnostic diag;
  REQUIRE(parseModelJSON((dir / "m.json").string(), spec, diag));
  CHECK(valuesOf<float>(spec.weights[0].data) == w);
  CHECK(spec.nodes.empty());

  REQUIRE_FALSE(parseModelJSON((dir / "nope.json").string(), spec, diag));
  CHECK(diag.path.empty());
  CHECK(diag.message == "cannot open file: No such file or directory");

  writeFile(dir / "empty.json", "");
  REQUIRE_FALSE(parseModelJSON((dir / "empty.json").string(), spec, diag));
  CHECK(diag.message == "file is empty");
}

TEST_CASE("every op in the table has the documented arity") {
  // Exactly the ops of docs/model-format.md, in its order.
  std::vector<std::string> ops = knownOps();
  CHECK(ops == std::vector<std::string>{"add",
                                        "sub",
                                        "mul",
                                        "div",
                                        "max",
                                        "min",
                                        "pow",
                                        "neg",
                                        "abs",
                                        "relu",
                                        "exp",
                                        "log",
                                        "sqrt",
                                        "rsqrt",
                                        "tanh",
                                        "sigmoid",
                                        "erf",
                                        "gelu",
                                        "matmul",
                                        "conv1d",
                                        "conv2d",
                                        "conv3d",
                                        "maxpool1d",
                                        "maxpool2d",
                                        "maxpool3d",
                                        "avgpool1d",
                                        "avgpool2d",
                                        "avgpool3d",
                                        "conv_transpose1d",
                                        "conv_transpose2d",
                                        "conv_transpose3d",
                                        "global_avgpool",
                                        "batch_norm",
                                        "layer_norm",
                                        "softmax",
                                        "log_softmax",
                                        "reduce_sum",
                                        "reduce_mean",
                                        "reduce_max",
                                        "reshape",
                                        "transpose",
                                        "concat",
                                        "slice",
                                        "gather",
                                        "pad",
                                        "cast",
                                        "compare",
                                        "select"});
  for (const std::string &op : ops) {
    const OpSchema *s = lookupOpSchema(op);
    REQUIRE(s);
    CHECK(s->name == op);
  }
  CHECK(lookupOpSchema("conv") == nullptr);
  auto arity = [](const char *op) {
    const OpSchema *s = lookupOpSchema(op);
    REQUIRE(s);
    return std::make_pair(s->minInputs, s->maxInputs);
  };
  CHECK(arity("add") == std::make_pair(2, 2));
  CHECK(arity("erf") == std::make_pair(1, 1));
  CHECK(arity("conv2d") == std::make_pair(2, 3));
  CHECK(arity("conv3d") == std::make_pair(2, 3));
  CHECK(arity("maxpool1d") == std::make_pair(1, 1));
  CHECK(arity("conv_transpose3d") == std::make_pair(2, 3));
  CHECK(arity("batch_norm") == std::make_pair(5, 5));
  CHECK(arity("layer_norm") == std::make_pair(3, 3));
  CHECK(arity("concat") == std::make_pair(1, -1));
  CHECK(arity("select") == std::make_pair(3, 3));
  CHECK(arity("gather") == std::make_pair(2, 2));
  CHECK(std::string(dtypeName(DType::Bool)) == "bool");
  CHECK(std::string(dtypeName(DType::I64)) == "i64");
  CHECK(dtypeSize(DType::F32) == 4);
  CHECK(dtypeSize(DType::I64) == 8);
  CHECK(dtypeSize(DType::I32) == 4);
  CHECK(dtypeSize(DType::Bool) == 1);
}

TEST_CASE("nodes are sorted topologically, keeping file order when possible") {
  // c depends on b, b on a; d and e are independent and stay in place
  // relative to each other.
  ModelSpec spec;
  expectOk(withNodes(R"(
      {"op": "relu", "inputs": ["x"], "outputs": ["d"]},
      {"op": "add", "inputs": ["b", "d"], "outputs": ["c"]},
      {"op": "neg", "inputs": ["a"], "outputs": ["b"]},
      {"op": "abs", "inputs": ["x"], "outputs": ["e"]},
      {"op": "exp", "inputs": ["x"], "outputs": ["a"]},
      {"op": "add", "inputs": ["c", "e"], "outputs": ["y"]})"),
           spec);
  std::vector<std::string> order;
  for (const NodeDecl &n : spec.nodes)
    order.push_back(n.output);
  CHECK(order == std::vector<std::string>{"d", "e", "a", "b", "c", "y"});
  // Paths keep the position in the file.
  CHECK(spec.nodes[2].path == "nodes[4]");

  // Already sorted input is left alone.
  expectOk(withNodes(R"(
      {"op": "exp", "inputs": ["x"], "outputs": ["a"]},
      {"op": "relu", "inputs": ["x"], "outputs": ["z"]},
      {"op": "neg", "inputs": ["a"], "outputs": ["y"]})"),
           spec);
  CHECK(spec.nodes[0].output == "a");
  CHECK(spec.nodes[1].output == "z");
  CHECK(spec.nodes[2].output == "y");
}

TEST_CASE("a 100k-node chain parses quickly, in either order") {
  constexpr int n = 100000;
  for (bool reversed : {false, true}) {
    std::string nodes;
    nodes.reserve(n * 64);
    for (int k = 0; k < n; ++k) {
      int i = reversed ? n - 1 - k : k;
      std::string in = i == 0 ? "x" : "v" + std::to_string(i - 1);
      std::string out = i == n - 1 ? "y" : "v" + std::to_string(i);
      if (k)
        nodes += ",\n";
      nodes += R"({"op": "relu", "inputs": [")" + in + R"("], "outputs": [")" +
               out + R"("]})";
    }
    ModelSpec spec;
    auto start = std::chrono::steady_clock::now();
    expectOk(withNodes(nodes), spec);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    REQUIRE(spec.nodes.size() == size_t(n));
    CHECK(spec.nodes.front().inputs[0] == "x");
    CHECK(spec.nodes.back().output == "y");
    CHECK(spec.nodes[1].inputs[0] == spec.nodes[0].output);
    WARN("100k-node chain" << (reversed ? " (reversed)" : "") << ": " << seconds
                           << " s");
    CHECK(seconds < 10.0);
  }
}

TEST_CASE("a 100k-node cycle is reported without recursion") {
  constexpr int n = 100000;
  std::string nodes;
  for (int i = 0; i < n; ++i) {
    if (i)
      nodes += ",";
    nodes += R"({"op": "relu", "inputs": ["v)" +
             std::to_string((i + n - 1) % n) + R"("], "outputs": ["v)" +
             std::to_string(i) + R"("]})";
  }
  expectError(withNodes(nodes, R"(["v0"])"), "nodes[0]",
              "cycle: node 'v0' (nodes[0]) -> node 'v1' (nodes[1]) -> node "
              "'v2' (nodes[2]) -> node 'v3' (nodes[3]) -> node 'v4' "
              "(nodes[4]) -> node 'v5' (nodes[5]) -> node 'v6' (nodes[6]) -> "
              "node 'v7' (nodes[7]) -> ... (99992 more nodes) -> node 'v0'");
}

//===----------------------------------------------------------------------===//
// Whole-file errors
//===----------------------------------------------------------------------===//

TEST_CASE("empty, truncated and non-JSON files") {
  expectError("", "", "file is empty");
  expectError(" \n\t ", "", "file is empty");
  expectError(R"({"version": 1, "inputs": [)", "",
              "invalid JSON: parse error at line 1, column 27: syntax error "
              "while parsing value - unexpected end of input; expected '[', "
              "'{', or a literal");
  expectError("hello", "",
              "invalid JSON: parse error at line 1, column 1: syntax error "
              "while parsing value - invalid literal; last read: 'h'");
  expectError("{\"version\": 1}\n{}", "",
              "invalid JSON: parse error at line 2, column 1: syntax error "
              "while parsing value - unexpected '{'; expected end of input");
  expectError("[1, 2]", "", "expected an object");
  expectError("\"model\"", "", "expected an object");
}

TEST_CASE("deep nesting is rejected before parsing") {
  expectError(std::string(100000, '['), "",
              "nesting deeper than 64 levels at line 1, column 65");
  expectError(std::string(100000, '{'), "",
              "nesting deeper than 64 levels at line 1, column 65");
  // Brackets inside strings do not count, escaped quotes do not end strings.
  std::string deepString =
      "\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"";
  ModelSpec spec;
  expectOk(R"({"version": 1, "name": )" + deepString +
               R"(, "inputs": [{"name": "x", "dtype": "f32", "shape": []}],
                  "outputs": ["x"], "nodes": []})",
           spec);
  // 64 levels are fine as far as nesting goes (the error is about the type).
  std::string nested64 = R"({"version": 1, "name": )" + std::string(63, '[') +
                         std::string(63, ']') + "}";
  expectError(nested64, "name", "expected a string");
  std::string nested65 = R"({"version": 1, "name": )" + std::string(64, '[') +
                         std::string(64, ']') + "}";
  expectError(nested65, "",
              "nesting deeper than 64 levels at line 1, column 87");
}

TEST_CASE("version and top-level keys") {
  expectError(R"({"inputs": [], "outputs": ["x"], "nodes": []})", "",
              "missing required key 'version'");
  expectError(R"({"version": "1", "inputs": [], "outputs": [], "nodes": []})",
              "version", "expected an integer");
  expectError(R"({"version": 1.0, "inputs": [], "outputs": [], "nodes": []})",
              "version", "expected an integer");
  expectError(R"({"version": 2, "inputs": [], "outputs": [], "nodes": []})",
              "version", "unsupported version 2 (expected 1)");
  expectError(R"({"version": 1, "inputs": [], "outputs": ["x"], "nodes": [],
                  "weigths": []})",
              "weigths", "unknown key 'weigths'");
  expectError(R"({"version": 1, "outputs": ["x"], "nodes": []})", "",
              "missing required key 'inputs'");
  expectError(R"({"version": 1, "inputs": [], "outputs": ["x"]})", "",
              "missing required key 'nodes'");
  expectError(R"({"version": 1, "inputs": [], "nodes": []})", "",
              "missing required key 'outputs'");
  expectError(R"({"version": 1, "inputs": {}, "outputs": ["x"], "nodes": []})",
              "inputs", "expected a list");
  expectError(R"({"version": 1, "name": 3, "inputs": [], "outputs": ["x"],
                  "nodes": []})",
              "name", "expected a string");
  expectError(R"({"version": 1, "weights_file": "", "inputs": [],
                  "outputs": ["x"], "nodes": []})",
              "weights_file", "expected a non-empty path");
  expectError(R"({"version": 1, "inputs": [], "outputs": ["x"],
                  "nodes": {}})",
              "nodes", "expected a list");
}

TEST_CASE("duplicate JSON keys are reported with their path") {
  expectError(R"({"version": 1, "version": 1})", "version",
              "duplicate key 'version'");
  expectError(withNodes(R"(
      {"op": "relu", "inputs": ["x"], "outputs": ["a"]},
      {"op": "softmax", "inputs": ["a"], "outputs": ["y"],
       "attrs": {"axis": 0, "axis": 1}})"),
              "nodes[1].attrs.axis", "duplicate key 'axis'");
  // Same key in sibling objects is fine.
  ModelSpec spec;
  expectOk(withNodes(R"(
      {"op": "softmax", "inputs": ["x"], "outputs": ["a"], "attrs": {"axis": 0}},
      {"op": "softmax", "inputs": ["a"], "outputs": ["y"], "attrs": {"axis": 1}})"),
           spec);
}

//===----------------------------------------------------------------------===//
// Inputs, shapes, dtypes, names
//===----------------------------------------------------------------------===//

TEST_CASE("tensor declarations") {
  expectError(withInput(R"({"name": "x", "dtype": "f32"})"), "inputs[0]",
              "missing required key 'shape'");
  expectError(withInput(R"("x")"), "inputs[0]", "expected an object");
  expectError(withInput(R"({"name": "x", "dtype": "f32", "shape": [1],
                            "data": [1]})"),
              "inputs[0].data", "unknown key 'data'");
  expectError(withInput(R"({"name": "x", "dtype": "f16", "shape": [1]})"),
              "inputs[0].dtype",
              "unknown dtype 'f16' (expected f32, i64, i32 or bool)");
  expectError(withInput(R"({"name": "", "dtype": "f32", "shape": [1]})"),
              "inputs[0].name", "empty name");
  expectError(withInput(R"({"name": "a\nb", "dtype": "f32", "shape": [1]})"),
              "inputs[0].name", "name contains a newline");
  expectError(withInput(R"({"name": 7, "dtype": "f32", "shape": [1]})"),
              "inputs[0].name", "expected a string");
  expectError(withInput(R"({"name": "x", "dtype": "f32", "shape": 3})"),
              "inputs[0].shape", "expected a list");
}

TEST_CASE("dimension limits") {
  auto shape = [](const std::string &s) {
    return withInput(R"({"name": "x", "dtype": "f32", "shape": )" + s + "}");
  };
  expectError(shape("[1, 0]"), "inputs[0].shape[1]",
              "dimension 0 out of range [1, 2^31)");
  expectError(shape("[-3]"), "inputs[0].shape[0]",
              "dimension -3 out of range [1, 2^31)");
  expectError(shape("[1099511627776]"), "inputs[0].shape[0]",
              "dimension 1099511627776 out of range [1, 2^31)");
  expectError(shape("[2147483648]"), "inputs[0].shape[0]",
              "dimension 2147483648 out of range [1, 2^31)");
  expectError(shape("[18446744073709551615]"), "inputs[0].shape[0]",
              "dimension 18446744073709551615 out of range [1, 2^31)");
  expectError(shape("[2.5]"), "inputs[0].shape[0]", "expected an integer");
  expectError(shape("[\"4\"]"), "inputs[0].shape[0]", "expected an integer");
  expectError(shape("[1, 1, 1, 1, 1, 1, 1, 1, 1]"), "inputs[0].shape",
              "rank 9 exceeds the limit of 8");
  expectError(shape("[65536, 32769]"), "inputs[0].shape",
              "element count exceeds 2^31");
  expectError(shape("[2147483647, 2147483647, 2147483647, 2147483647]"),
              "inputs[0].shape", "element count exceeds 2^31");
  ModelSpec spec;
  expectOk(shape("[65536, 32768]"), spec); // exactly 2^31 elements
  CHECK(spec.inputs[0].numElements() == (int64_t(1) << 31));
  expectOk(shape("[2147483647]"), spec);
  expectOk(shape("[1, 1, 1, 1, 1, 1, 1, 1]"), spec);
  expectOk(shape("[]"), spec);
}

TEST_CASE("duplicate names") {
  expectError(R"({"version": 1,
      "inputs": [{"name": "x", "dtype": "f32", "shape": [1]},
                 {"name": "x", "dtype": "f32", "shape": [2]}],
      "outputs": ["x"], "nodes": []})",
              "inputs[1].name",
              "duplicate name 'x' (also defined at inputs[0].name)");
  expectError(R"({"version": 1,
      "inputs": [{"name": "x", "dtype": "f32", "shape": [1]}],
      "weights": [{"name": "x", "dtype": "f32", "shape": [1], "data": [1]}],
      "outputs": ["x"], "nodes": []})",
              "weights[0].name",
              "duplicate name 'x' (also defined at inputs[0].name)");
  expectError(withNodes(R"(
      {"op": "relu", "inputs": ["x"], "outputs": ["y"]},
      {"op": "neg", "inputs": ["x"], "outputs": ["y"]})"),
              "nodes[1].outputs[0]",
              "duplicate name 'y' (also defined at nodes[0].outputs[0])");
  expectError(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["x"]})",
                        R"(["x"])"),
              "nodes[0].outputs[0]",
              "duplicate name 'x' (also defined at inputs[0].name)");
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

TEST_CASE("node structure") {
  expectError(withNodes(R"({"op": "conv", "inputs": ["x"], "outputs": ["y"]})"),
              "nodes[0].op", "unknown op 'conv'");
  expectError(withNodes(R"({"inputs": ["x"], "outputs": ["y"]})"), "nodes[0]",
              "missing required key 'op'");
  expectError(withNodes(R"({"op": 1, "inputs": ["x"], "outputs": ["y"]})"),
              "nodes[0].op", "expected a string");
  expectError(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"],
                            "shape": [2, 3]})"),
              "nodes[0].shape", "unknown key 'shape'");
  expectError(withNodes(R"({"op": "relu", "inputs": "x", "outputs": ["y"]})"),
              "nodes[0].inputs", "expected a list");
  expectError(withNodes(R"({"op": "relu", "inputs": [3], "outputs": ["y"]})"),
              "nodes[0].inputs[0]", "expected a string");
  expectError(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": []})"),
              "nodes[0].outputs", "expected exactly one output, got 0");
  expectError(
      withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y", "z"]})"),
      "nodes[0].outputs", "expected exactly one output, got 2");
  expectError(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": [""]})"),
              "nodes[0].outputs[0]", "empty name");
  expectError(withNodes(R"({"op": "relu", "name": 5, "inputs": ["x"],
                            "outputs": ["y"]})"),
              "nodes[0].name", "expected a string");
  expectError(withNodes(R"(3)"), "nodes[0]", "expected an object");
  expectError(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"],
                            "attrs": [1]})"),
              "nodes[0].attrs", "expected an object");
}

TEST_CASE("input counts") {
  expectError(withNodes(R"({"op": "add", "inputs": ["x", "x", "x"],
                            "outputs": ["y"]})"),
              "nodes[0].inputs", "op 'add' expects 2 inputs, got 3");
  expectError(withNodes(R"({"op": "relu", "inputs": [], "outputs": ["y"]})"),
              "nodes[0].inputs", "op 'relu' expects 1 input, got 0");
  expectError(
      withNodes(R"({"op": "conv2d", "inputs": ["x"], "outputs": ["y"]})"),
      "nodes[0].inputs", "op 'conv2d' expects 2 or 3 inputs, got 1");
  expectError(withNodes(R"({"op": "concat", "inputs": [], "outputs": ["y"],
                            "attrs": {"axis": 0}})"),
              "nodes[0].inputs", "op 'concat' expects at least 1 input, got 0");
  expectError(withNodes(R"({"op": "batch_norm", "inputs": ["x", "x", "x", "x"],
                            "outputs": ["y"]})"),
              "nodes[0].inputs", "op 'batch_norm' expects 5 inputs, got 4");
  ModelSpec spec;
  expectOk(withNodes(R"({"op": "concat", "inputs": ["x", "x", "x", "x", "x"],
                         "outputs": ["y"], "attrs": {"axis": -1}})"),
           spec);
}

TEST_CASE("unknown values") {
  expectError(withNodes(R"(
      {"op": "relu", "inputs": ["x"], "outputs": ["h1"]},
      {"op": "add", "inputs": ["h1", "h2"], "outputs": ["y"]})"),
              "nodes[1].inputs[1]", "unknown value 'h2'");
  expectError(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"]})",
                        R"(["y", "z"])"),
              "outputs[1]", "unknown value 'z'");
  expectError(
      withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"]})", "[]"),
      "outputs", "expected at least one output");
  expectError(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"]})",
                        R"("y")"),
              "outputs", "expected a list");
  expectError(
      withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"]})", "[1]"),
      "outputs[0]", "expected a string");
  // Outputs may name inputs and weights directly, and values may go unused.
  ModelSpec spec;
  expectOk(
      withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["unused"]})",
                R"(["x"])"),
      spec);
}

TEST_CASE("cycles") {
  expectError(withNodes(R"(
      {"op": "relu", "name": "a", "inputs": ["b_out"], "outputs": ["a_out"]},
      {"op": "relu", "name": "b", "inputs": ["a_out"], "outputs": ["b_out"]},
      {"op": "relu", "inputs": ["x"], "outputs": ["y"]})"),
              "nodes[0]",
              "cycle: node 'a' (nodes[0]) -> node 'b' (nodes[1]) -> node 'a'");
  expectError(
      withNodes(R"({"op": "add", "inputs": ["x", "y"], "outputs": ["y"]})"),
      "nodes[0]", "cycle: node 'y' (nodes[0]) -> node 'y'");
  // A cycle downstream of a valid prefix, listed out of order; unnamed nodes
  // are identified by their output.
  expectError(withNodes(R"(
      {"op": "relu", "inputs": ["x"], "outputs": ["p"]},
      {"op": "add", "inputs": ["p", "r"], "outputs": ["q"]},
      {"op": "exp", "inputs": ["s"], "outputs": ["r"]},
      {"op": "neg", "inputs": ["q"], "outputs": ["s"]},
      {"op": "relu", "inputs": ["x"], "outputs": ["y"]})"),
              "nodes[1]",
              "cycle: node 'q' (nodes[1]) -> node 's' (nodes[3]) -> node 'r' "
              "(nodes[2]) -> node 'q'");
}

TEST_CASE("attributes: names and kinds") {
  auto conv = [](const std::string &attrs) {
    return withNode(R"({"op": "conv2d", "inputs": ["x", "w"], "outputs": ["y"],
                        "attrs": )" +
                    attrs + "}");
  };
  expectError(conv(R"({"stride": [1, 1]})"), "nodes[0].attrs.stride",
              "unknown attribute 'stride' for op 'conv2d'");
  expectError(conv(R"({"strides": 1})"), "nodes[0].attrs.strides",
              "expected a list of 2 integers");
  expectError(conv(R"({"strides": [1, 1, 1]})"), "nodes[0].attrs.strides",
              "expected a list of 2 integers");
  expectError(conv(R"({"strides": [1, 1.5]})"), "nodes[0].attrs.strides",
              "expected a list of 2 integers");
  expectError(conv(R"({"strides": [1, 0]})"), "nodes[0].attrs.strides[1]",
              "expected a positive integer, got 0");
  expectError(conv(R"({"dilations": [-1, 1]})"), "nodes[0].attrs.dilations[0]",
              "expected a positive integer, got -1");
  expectError(conv(R"({"pads": [1, 1]})"), "nodes[0].attrs.pads",
              "expected a list of 4 integers");
  expectError(conv(R"({"pads": [0, 0, -1, 0]})"), "nodes[0].attrs.pads[2]",
              "expected a non-negative integer, got -1");
  expectError(conv(R"({"groups": 0})"), "nodes[0].attrs.groups",
              "expected a positive integer, got 0");
  expectError(conv(R"({"groups": 1.0})"), "nodes[0].attrs.groups",
              "expected an integer");
  expectError(conv(R"({"groups": true})"), "nodes[0].attrs.groups",
              "expected an integer");
  expectError(conv(R"({"groups": 9223372036854775808})"),
              "nodes[0].attrs.groups",
              "integer 9223372036854775808 is out of range");

  auto node = [](const std::string &op, const std::string &attrs,
                 const std::string &inputs = R"(["x"])") {
    return withNode(R"({"op": ")" + op + R"(", "inputs": )" + inputs +
                    R"(, "outputs": ["y"], "attrs": )" + attrs + "}");
  };
  expectError(node("relu", R"({"axis": 0})"), "nodes[0].attrs.axis",
              "unknown attribute 'axis' for op 'relu'");
  expectError(node("maxpool2d", "{}"), "nodes[0]",
              "missing required attribute 'kernel' for op 'maxpool2d'");
  expectError(
      withNode(R"({"op": "maxpool2d", "inputs": ["x"], "outputs": ["y"]})"),
      "nodes[0]", "missing required attribute 'kernel' for op 'maxpool2d'");
  expectError(node("maxpool2d", R"({"kernel": [0, 2]})"),
              "nodes[0].attrs.kernel[0]", "expected a positive integer, got 0");
  expectError(
      node("avgpool2d", R"({"kernel": [2, 2], "count_include_pad": 1})"),
      "nodes[0].attrs.count_include_pad", "expected a boolean");
  expectError(node("avgpool2d", R"({"kernel": [2, 2], "dilations": [1, 1]})"),
              "nodes[0].attrs.dilations",
              "unknown attribute 'dilations' for op 'avgpool2d'");
  expectError(node("batch_norm", R"({"epsilon": "1e-5"})",
                   R"(["x", "x", "x", "x", "x"])"),
              "nodes[0].attrs.epsilon", "expected a number");
  expectError(node("softmax", R"({"axis": [1]})"), "nodes[0].attrs.axis",
              "expected an integer");
  expectError(node("reduce_sum", R"({"keepdims": "true"})"),
              "nodes[0].attrs.keepdims", "expected a boolean");
  expectError(node("reduce_max", R"({"axes": 1})"), "nodes[0].attrs.axes",
              "expected a list of integers");
  expectError(node("reduce_mean", R"({"axes": [1, -1, 1]})"),
              "nodes[0].attrs.axes[2]", "duplicate axis 1");
  expectError(node("cast", "{}"), "nodes[0]",
              "missing required attribute 'to' for op 'cast'");
  expectError(node("cast", R"({"to": "f64"})"), "nodes[0].attrs.to",
              "unknown dtype 'f64' (expected f32, i64, i32 or bool)");
  expectError(node("compare", R"({"predicate": "gte"})", R"(["x", "x"])"),
              "nodes[0].attrs.predicate",
              "unknown predicate 'gte' (expected eq, ne, lt, le, gt or ge)");
  expectError(node("compare", "{}", R"(["x", "x"])"), "nodes[0]",
              "missing required attribute 'predicate' for op 'compare'");
  expectError(node("gelu", R"({"approximate": "erf"})"),
              "nodes[0].attrs.approximate",
              "unknown approximate 'erf' (expected none or tanh)");
  expectError(node("gelu", R"({"approximate": true})"),
              "nodes[0].attrs.approximate", "expected a string");
  expectError(node("reshape", "{}"), "nodes[0]",
              "missing required attribute 'shape' for op 'reshape'");
  expectError(node("reshape", R"({"shape": [-1, 4, -1]})"),
              "nodes[0].attrs.shape[2]", "at most one dimension may be -1");
  expectError(node("reshape", R"({"shape": [0, 4]})"),
              "nodes[0].attrs.shape[0]",
              "dimension 0 out of range [1, 2^31) (or -1)");
  expectError(node("reshape", R"({"shape": [1, 1, 1, 1, 1, 1, 1, 1, 1]})"),
              "nodes[0].attrs.shape", "rank 9 exceeds the limit of 8");
  expectError(node("transpose", R"({"perm": [0, 2]})"), "nodes[0].attrs.perm",
              "expected a permutation of 0..1");
  expectError(node("transpose", R"({"perm": [1, 1]})"), "nodes[0].attrs.perm",
              "expected a permutation of 0..1");
  expectError(node("concat", "{}"), "nodes[0]",
              "missing required attribute 'axis' for op 'concat'");
  expectError(node("slice", R"({"starts": [0]})"), "nodes[0]",
              "missing required attribute 'ends' for op 'slice'");
  expectError(node("slice", R"({"starts": [0], "ends": [1], "steps": [0]})"),
              "nodes[0].attrs.steps[0]", "expected a positive integer, got 0");
  expectError(node("slice", R"({"starts": [0], "ends": [1], "steps": [-1]})"),
              "nodes[0].attrs.steps[0]", "expected a positive integer, got -1");
  expectError(node("slice", R"({"starts": [0, 1], "ends": [1]})"),
              "nodes[0].attrs.ends",
              "expected 2 entries (as many as 'starts'), got 1");
  expectError(node("slice", R"({"starts": [0], "ends": [1], "axes": [0, 1]})"),
              "nodes[0].attrs.axes",
              "expected 1 entries (as many as 'starts'), got 2");
  expectError(node("pad", R"({"pads": [0, -1]})"), "nodes[0].attrs.pads[1]",
              "expected a non-negative integer, got -1");
  expectError(node("pad", R"({"pads": [0, 1], "value": null})"),
              "nodes[0].attrs.value", "expected a number");
  expectError(node("gather", R"({"axis": 0.5})", R"(["x", "i"])"),
              "nodes[0].attrs.axis", "expected an integer");

  // Everything at once, valid.
  ModelSpec spec;
  expectOk(node("maxpool2d", R"({"kernel": [3, 3], "strides": [2, 2],
                                 "pads": [1, 1, 1, 1], "dilations": [1, 2]})"),
           spec);
  expectOk(node("slice", R"({"starts": [0, -1], "ends": [9, 100],
                             "axes": [-1, 0], "steps": [1, 2]})"),
           spec);
  CHECK(std::get<IntList>(spec.nodes[0].attrs.at("axes")) == IntList{-1, 0});
  expectOk(node("pad", R"({"pads": [0, 1, 2, 3], "value": -1})"), spec);
  CHECK(std::get<double>(spec.nodes[0].attrs.at("value")) == -1.0);
  expectOk(node("cast", R"({"to": "bool"})"), spec);
  CHECK(std::get<std::string>(spec.nodes[0].attrs.at("to")) == "bool");
  expectOk(node("reshape", R"({"shape": []})"), spec);
  expectOk(node("transpose", R"({"perm": []})"), spec);
}

//===----------------------------------------------------------------------===//
// Weights
//===----------------------------------------------------------------------===//

TEST_CASE("inline data") {
  expectError(withWeight(R"({"name": "w", "dtype": "f32", "shape": [2, 2],
                             "data": [1, 2, 3]})"),
              "weights[0].data", "inline data has 3 elements, expected 4");
  expectError(withWeight(R"({"name": "w", "dtype": "f32", "shape": [2],
                             "data": 1})"),
              "weights[0].data", "expected a list");
  expectError(withWeight(R"({"name": "w", "dtype": "f32", "shape": [2],
                             "data": [1, "2"]})"),
              "weights[0].data[1]", "expected a number");
  expectError(withWeight(R"({"name": "w", "dtype": "f32", "shape": [2],
                             "data": [1, 1e300]})"),
              "weights[0].data[1]", "value 1e+300 out of range for f32");
  expectError(withWeight(R"({"name": "w", "dtype": "i64", "shape": [2],
                             "data": [1, 2.5]})"),
              "weights[0].data[1]", "expected an integer");
  expectError(withWeight(R"({"name": "w", "dtype": "i64", "shape": [1],
                             "data": [9223372036854775808]})"),
              "weights[0].data[0]",
              "value 9223372036854775808 out of range for i64");
  expectError(withWeight(R"({"name": "w", "dtype": "i32", "shape": [2],
                             "data": [1, 2147483648]})"),
              "weights[0].data[1]", "value 2147483648 out of range for i32");
  expectError(withWeight(R"({"name": "w", "dtype": "i32", "shape": [1],
                             "data": [true]})"),
              "weights[0].data[0]", "expected an integer");
  expectError(withWeight(R"({"name": "w", "dtype": "bool", "shape": [2],
                             "data": [true, 2]})"),
              "weights[0].data[1]", "expected a boolean (true/false or 0/1)");
  expectError(withWeight(R"({"name": "w", "dtype": "bool", "shape": [1],
                             "data": ["true"]})"),
              "weights[0].data[0]", "expected a boolean (true/false or 0/1)");
  expectError(withWeight(R"({"name": "w", "dtype": "f32", "shape": [2],
                             "data": [1, 2], "init": "zeros"})"),
              "weights[0].init", "unknown key 'init'");
  expectError(withWeight(R"({"name": "w", "dtype": "f32", "shape": [2]})"),
              "weights[0]",
              "weight 'w' has no inline data and there is no weights_file");

  // The inline limit is 65536 elements.
  auto zeros = [](size_t n) {
    std::string s = "[";
    for (size_t i = 0; i < n; ++i)
      s += i ? ",0" : "0";
    return s + "]";
  };
  ModelSpec spec;
  expectOk(withWeight(R"({"name": "w", "dtype": "i32", "shape": [65536],
                          "data": )" +
                      zeros(65536) + "}"),
           spec);
  CHECK(spec.weights[0].data.size() == 4 * 65536);
  expectError(withWeight(R"({"name": "w", "dtype": "i32", "shape": [65537],
                             "data": )" +
                         zeros(65537) + "}"),
              "weights[0].data",
              "at most 65536 elements may be inline, got 65537");
  expectError(
      withWeight(R"({"name": "w", "dtype": "i32", "shape": [3], "data": )" +
                 zeros(70000) + "}"),
      "weights[0].data", "at most 65536 elements may be inline, got 70000");
}

TEST_CASE("safetensors weights") {
  std::vector<float> w = {1, 2, 3, 4, 5, 6};
  const fs::path &dir = scratchDir();
  auto model = [](const std::string &file,
                  const std::string &weight =
                      R"({"name": "w", "dtype": "f32", "shape": [2, 3]})",
                  const std::string &output = "w") {
    return withWeight(weight, R"( "weights_file": ")" + file + R"(",)", output);
  };

  writeFile(dir / "ok.safetensors",
            makeSafetensors({{"w", "F32", {2, 3}, bytesOf(w)}}));
  ModelSpec spec;
  expectOk(model("ok.safetensors"), spec);
  CHECK(valuesOf<float>(spec.weights[0].data) == w);

  expectError(model("missing.safetensors"), "weights_file",
              "cannot open weights file 'missing.safetensors': No such file "
              "or directory");
  expectError(model("."), "weights_file", "weights file '.' is a directory");
  expectError(model("ok.safetensors",
                    R"({"name": "v", "dtype": "f32", "shape": [2, 3]})", "v"),
              "weights[0]", "'v' not found in weights file 'ok.safetensors'");
  expectError(model("ok.safetensors",
                    R"({"name": "w", "dtype": "i32", "shape": [2, 3]})"),
              "weights[0].dtype",
              "dtype mismatch for 'w': weights file 'ok.safetensors' has "
              "F32, model says i32");
  expectError(model("ok.safetensors",
                    R"({"name": "w", "dtype": "f32", "shape": [3, 2]})"),
              "weights[0].shape",
              "shape mismatch for 'w': weights file 'ok.safetensors' has "
              "[2, 3], model says [3, 2]");
  // A weights_file is opened (and must be valid) even if all weights are
  // inline, so that a typo in its name is not silently ignored.
  expectError(
      model("missing.safetensors",
            R"({"name": "w", "dtype": "f32", "shape": [1], "data": [1]})"),
      "weights_file",
      "cannot open weights file 'missing.safetensors': No such file "
      "or directory");

  std::string good = makeSafetensors({{"w", "F32", {2, 3}, bytesOf(w)}});
  writeFile(dir / "short.safetensors", good.substr(0, good.size() - 4));
  expectError(model("short.safetensors"), "weights_file",
              "weights file 'short.safetensors' is truncated: tensor 'w' "
              "ends at data byte 24 but the data section has 20 bytes");
  writeFile(dir / "tiny.safetensors", good.substr(0, 5));
  expectError(model("tiny.safetensors"), "weights_file",
              "weights file 'tiny.safetensors' is truncated: 5 bytes, too "
              "short for a header");
  writeFile(dir / "cut.safetensors", good.substr(0, 40));
  expectError(model("cut.safetensors"), "weights_file",
              "weights file 'cut.safetensors' is truncated: header of 88 "
              "bytes but only 32 bytes follow");
  writeFile(dir / "empty.safetensors", "");
  expectError(model("empty.safetensors"), "weights_file",
              "weights file 'empty.safetensors' is truncated: 0 bytes, too "
              "short for a header");
  std::string huge(8, '\xff');
  writeFile(dir / "huge.safetensors", huge + "{}");
  expectError(model("huge.safetensors"), "weights_file",
              "weights file 'huge.safetensors' is malformed: header size "
              "18446744073709551615 exceeds 100000000");
  writeFile(dir / "notjson.safetensors",
            makeSafetensors({}, "{\"w\": {\"dtype\": \"F32\","));
  expectError(model("notjson.safetensors"), "weights_file",
              "weights file 'notjson.safetensors' is malformed: header is not "
              "valid JSON (parse error at line 1, column 25: syntax error "
              "while parsing object key - unexpected end of input; expected "
              "string literal)");
  writeFile(dir / "list.safetensors", makeSafetensors({}, "[]"));
  expectError(model("list.safetensors"), "weights_file",
              "weights file 'list.safetensors' is malformed: header is not a "
              "JSON object");
  writeFile(dir / "nooff.safetensors",
            makeSafetensors({}, R"({"w": {"dtype": "F32", "shape": [2, 3]}})"));
  expectError(model("nooff.safetensors"), "weights_file",
              "weights file 'nooff.safetensors' is malformed: entry 'w' has "
              "no data_offsets [begin, end]");
  writeFile(dir / "badsize.safetensors",
            makeSafetensors({{"w", "F32", {2, 2}, bytesOf(w)}}));
  expectError(model("badsize.safetensors"), "weights_file",
              "weights file 'badsize.safetensors' is malformed: entry 'w' has "
              "24 data bytes, which does not match its dtype and shape");
  writeFile(dir / "deep.safetensors",
            makeSafetensors({}, std::string(50000, '[')));
  expectError(model("deep.safetensors"), "weights_file",
              "weights file 'deep.safetensors' is malformed: header is nested "
              "too deeply");

  // Every dtype round-trips, and unknown dtypes of unused tensors are fine.
  std::vector<int64_t> i64 = {-1, 1LL << 40};
  std::vector<int32_t> i32 = {-5, 5};
  std::string bools = {0, 2}; // non-zero bytes read as true
  writeFile(dir / "all.safetensors",
            makeSafetensors({{"a", "I64", {2}, bytesOf(i64)},
                             {"b", "I32", {1, 2}, bytesOf(i32)},
                             {"c", "BOOL", {2}, bools},
                             {"d", "BF16", {3}, std::string(6, '\0')}}));
  expectOk(withWeight(R"({"name": "a", "dtype": "i64", "shape": [2]},
                         {"name": "b", "dtype": "i32", "shape": [1, 2]},
                         {"name": "c", "dtype": "bool", "shape": [2]})",
                      R"( "weights_file": "all.safetensors",)", "a"),
           spec);
  CHECK(valuesOf<int64_t>(spec.weights[0].data) == i64);
  CHECK(valuesOf<int32_t>(spec.weights[1].data) == i32);
  CHECK(spec.weights[2].data == std::vector<char>{0, 1});
  expectError(withWeight(R"({"name": "d", "dtype": "f32", "shape": [3]})",
                         R"( "weights_file": "all.safetensors",)", "d"),
              "weights[0].dtype",
              "dtype mismatch for 'd': weights file 'all.safetensors' has "
              "BF16, model says f32");
}

TEST_CASE("a failed parse leaves an empty spec") {
  ModelSpec spec;
  Diagnostic diag;
  REQUIRE(
      parse(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"]})"),
            spec, diag));
  REQUIRE(spec.nodes.size() == 1);
  REQUIRE_FALSE(parse("{", spec, diag));
  CHECK(spec.nodes.empty());
  CHECK(spec.inputs.empty());
}

//===----------------------------------------------------------------------===//
// The training section
//===----------------------------------------------------------------------===//

namespace {
/// A two-layer model whose weights have no data, with `training`.
std::string withTraining(const std::string &training) {
  return R"({"version": 1,
             "inputs": [{"name": "x", "dtype": "f32", "shape": [1, 3]}],
             "outputs": ["y"],
             "weights": [{"name": "w", "dtype": "f32", "shape": [3, 2]},
                         {"name": "k", "dtype": "i64", "shape": [1], "data": [2]}],
             "nodes": [{"op": "matmul", "inputs": ["x", "w"], "outputs": ["y"]}],
             "training": )" +
         training + "}";
}
} // namespace

TEST_CASE("the training section parses with defaults") {
  ModelSpec spec;
  expectOk(withTraining(R"({"batch_size": 16,
      "loss": {"type": "softmax_cross_entropy", "output": "y", "labels": "t"},
      "optimizer": {"type": "adam", "lr": 0.01},
      "init": {"method": "random", "seed": 9}})"),
           spec);
  const TrainingSpec &t = spec.training;
  CHECK(t.present);
  CHECK(t.batchSize == 16);
  CHECK(t.loss == TrainingSpec::Loss::SoftmaxCrossEntropy);
  CHECK(t.lossOutput == "y");
  CHECK(t.labels == "t");
  CHECK(t.optimizer == TrainingSpec::Optimizer::Adam);
  CHECK(t.lr == 0.01);
  CHECK(t.beta1 == 0.9);
  CHECK(t.beta2 == 0.999);
  CHECK(t.epsilon == 1e-8);
  CHECK(t.weightDecay == 0);
  CHECK(t.randomInit);
  CHECK(t.seed == 9);
  CHECK(t.trainable.empty());
  CHECK(t.batchNormMomentum == 0.1);
  // Random init: the weight needs no data.
  CHECK(spec.weights[0].data.empty());

  ModelSpec sgd;
  std::string text = withTraining(R"({"batch_size": 2,
      "loss": {"type": "mse", "output": "y", "target": "t"},
      "optimizer": {"type": "sgd", "lr": 0.5, "momentum": 0.9,
                    "nesterov": true, "weight_decay": 0.001},
      "trainable": ["w"], "batch_norm_momentum": 0.3})");
  std::string noData = R"("shape": [3, 2]})";
  text.replace(text.find(noData), noData.size(),
               R"("shape": [3, 2], "data": [1, 2, 3, 4, 5, 6]})");
  expectOk(text, sgd);
  CHECK(sgd.training.loss == TrainingSpec::Loss::MSE);
  CHECK(sgd.training.optimizer == TrainingSpec::Optimizer::SGD);
  CHECK(sgd.training.momentum == 0.9);
  CHECK(sgd.training.nesterov);
  CHECK(sgd.training.weightDecay == 0.001);
  CHECK_FALSE(sgd.training.randomInit);
  CHECK(sgd.training.trainable == std::vector<std::string>{"w"});
  CHECK(sgd.training.batchNormMomentum == 0.3);

  ModelSpec none;
  expectOk(withNodes(R"({"op": "relu", "inputs": ["x"], "outputs": ["y"]})"),
           none);
  CHECK_FALSE(none.training.present);
}

TEST_CASE("training section errors name their JSON path") {
  const char *sce =
      R"("loss": {"type": "softmax_cross_entropy", "output": "y", "labels": "t"})";
  auto with = [&](const std::string &rest) {
    return withTraining(std::string(R"({"batch_size": 4, )") + sce + ", " +
                        rest + "}");
  };
  expectError(with(R"("optimizer": {"type": "sgd", "lr": 0})"),
              "training.optimizer.lr", "lr must be in [1e-30, inf), got 0");
  expectError(with(R"("optimizer": {"type": "adam", "lr": 1, "beta2": 1})"),
              "training.optimizer.beta2", "beta2 must be in [0, 1), got 1");
  expectError(with(R"("optimizer": {"type": "sgd", "lr": 1, "nesterov": 1})"),
              "training.optimizer.nesterov", "expected true or false");
  expectError(with(R"("optimizer": {"type": "sgd", "lr": 1},
                      "init": {"method": "random", "seed": -1})"),
              "training.init.seed", "seed must not be negative");
  expectError(with(R"("optimizer": {"type": "sgd", "lr": 1}, "trainable": [])"),
              "training.trainable", "expected at least one weight name");
  expectError(with(R"("optimizer": {"type": "sgd", "lr": 1}, "trainable": ["x"],
                      "init": {"method": "random"})"),
              "training.trainable[0]", "'x' is not a weight of the model");
  expectError(with(R"("optimizer": {"type": "sgd", "lr": 1},
                      "batch_norm_momentum": 2)"),
              "training.batch_norm_momentum",
              "batch_norm_momentum must be in [0, 1], got 2");
  // Without random init every weight needs data.
  expectError(with(R"("optimizer": {"type": "sgd", "lr": 1})"), "weights[0]",
              "weight 'w' has no inline data and there is no weights_file");
}
