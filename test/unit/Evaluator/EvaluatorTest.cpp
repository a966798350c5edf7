//===- EvaluatorTest.cpp - Catch2 tests of the graph reference evaluator --===//
//
// The evaluator is the oracle for other tests and the engine of constant
// folding, so it is checked against the PyTorch/numpy references of every
// bundled model and every per-op e2e test, and against hand-computed values
// for the rules that references rarely exercise.
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "Npy.h"
#include "mlc/Compiler/Pipelines.h"
#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/JSON/ImportModel.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

using namespace mlir;
using namespace mlc;
using namespace mlc::graph;

namespace {

std::string sourcePath(const std::string &rel) {
  return std::string(MLC_SOURCE_DIR) + "/" + rel;
}

struct Context {
  Context() {
    mlc::registerDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadDialect<func::FuncDialect, GraphDialect>();
    // Fail loudly instead of printing to stderr and carrying on.
    handler =
        std::make_unique<ScopedDiagnosticHandler>(&ctx, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        });
  }
  DialectRegistry registry;
  MLIRContext ctx;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  std::string diagnostics;
};

HostTensor fromNpy(const npy::Array &a) {
  ElementKind kind = ElementKind::F32;
  switch (a.dtype) {
  case MLC_F32:
    kind = ElementKind::F32;
    break;
  case MLC_I64:
    kind = ElementKind::I64;
    break;
  case MLC_I32:
    kind = ElementKind::I32;
    break;
  case MLC_BOOL:
    kind = ElementKind::I1;
    break;
  default:
    FAIL("unsupported .npy dtype " << a.dtype);
  }
  HostTensor t(kind, a.shape);
  REQUIRE((size_t)t.getSizeInBytes() == a.data.size());
  if (!a.data.empty())
    std::memcpy(t.getMutableBytes().data(), a.data.data(), a.data.size());
  return t;
}

npy::Array readNpy(const std::string &path) {
  npy::Array a;
  std::string error;
  INFO(path);
  REQUIRE(npy::readFile(path, a, error));
  return a;
}

double elementAsDouble(const HostTensor &t, int64_t i) {
  switch (t.getKind()) {
  case ElementKind::F32:
    return t.values<float>()[i];
  case ElementKind::I64:
    return (double)t.values<int64_t>()[i];
  case ElementKind::I32:
    return t.values<int32_t>()[i];
  case ElementKind::I1:
  case ElementKind::U8:
    return t.values<uint8_t>()[i];
  case ElementKind::I8:
    return t.values<int8_t>()[i];
  }
  return 0;
}

/// Number of elements outside |got - want| <= atol + rtol * |want| (NaN
/// matches only NaN, infinities only themselves), as mlc-run --expect does.
int64_t countMismatches(const HostTensor &got, const npy::Array &want,
                        double rtol, double atol, std::string &first) {
  REQUIRE(got.getShape() == ArrayRef<int64_t>(want.shape));
  int64_t bad = 0;
  for (int64_t i = 0, e = got.getNumElements(); i < e; ++i) {
    double g = elementAsDouble(got, i);
    double w = npy::isFloatDType(want.dtype)
                   ? npy::loadFloat(want.dtype, want.data.data(), i)
                   : (double)npy::loadInt(want.dtype, want.data.data(), i);
    bool ok;
    if (std::isnan(w) || std::isnan(g))
      ok = std::isnan(w) && std::isnan(g);
    else if (std::isinf(w) || std::isinf(g))
      ok = g == w;
    else
      ok = std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok && bad++ == 0)
      first = "element " + std::to_string(i) + ": got " + std::to_string(g) +
              ", expected " + std::to_string(w);
  }
  return bad;
}

StringRef nameOf(func::FuncOp f, unsigned i, bool result) {
  auto attr = result ? f.getResultAttrOfType<StringAttr>(i, "mlc.name")
                     : f.getArgAttrOfType<StringAttr>(i, "mlc.name");
  REQUIRE(attr);
  return attr.getValue();
}

/// Per-output tolerances of an e2e .test file: `--rtol R --atol A` of the
/// mlc-run command that names `--expect NAME=`.
std::map<std::string, std::pair<double, double>>
tolerances(const std::string &testFile) {
  auto buffer = llvm::MemoryBuffer::getFile(testFile);
  REQUIRE(buffer);
  std::string text = (*buffer)->getBuffer().str();
  text = std::regex_replace(text, std::regex("\\\\\\s*\\nRUN:"), " ");
  std::map<std::string, std::pair<double, double>> result;
  std::regex expectRe("--expect (\\w+)="), tolRe("--rtol (\\S+) --atol (\\S+)");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("mlc-run") == std::string::npos)
      continue;
    double rtol = 1e-4, atol = 1e-5;
    std::smatch m;
    if (std::regex_search(line, m, tolRe)) {
      rtol = std::stod(m[1]);
      atol = std::stod(m[2]);
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), expectRe);
         it != std::sregex_iterator(); ++it)
      result[(*it)[1]] = {rtol, atol};
  }
  return result;
}

/// Imports `dir`/model.json, evaluates it on `dir`/inputs/<name>.npy and
/// compares each output with `dir`/expected/<name>.npy.
void checkModelDir(
    const std::string &dir, double rtol, double atol,
    const std::map<std::string, std::pair<double, double>> &perOutput = {},
    unsigned optLevel = 0) {
  INFO("model " << dir << " at -O" << optLevel);
  Context c;
  OwningOpRef<ModuleOp> module =
      frontend::importModelJSON(&c.ctx, dir + "/model.json");
  INFO(c.diagnostics);
  REQUIRE(module);
  if (optLevel) {
    // Evaluate the graph that -O<optLevel> hands to the lowering.
    static bool registered = (mlc::registerPassesAndPipelines(), true);
    (void)registered;
    PassManager pm(&c.ctx);
    PipelineOptions options;
    options.optLevel = optLevel;
    REQUIRE(succeeded(buildGraphOptimizationPipeline(pm, options)));
    if (failed(pm.run(*module)))
      FAIL("-O" << optLevel << " pipeline failed: " << c.diagnostics);
  }
  auto main = module->lookupSymbol<func::FuncOp>("main");
  REQUIRE(main);
  std::vector<HostTensor> args;
  for (unsigned i = 0; i < main.getNumArguments(); ++i)
    args.push_back(fromNpy(
        readNpy(dir + "/inputs/" + nameOf(main, i, false).str() + ".npy")));
  std::string error;
  auto results = evaluateFunction(main, args, &error);
  INFO(error);
  REQUIRE(succeeded(results));
  REQUIRE(results->size() == main.getNumResults());
  for (unsigned i = 0; i < main.getNumResults(); ++i) {
    std::string name = nameOf(main, i, true).str();
    auto [r, a] =
        perOutput.count(name) ? perOutput.at(name) : std::make_pair(rtol, atol);
    std::string first;
    int64_t bad = countMismatches((*results)[i],
                                  readNpy(dir + "/expected/" + name + ".npy"),
                                  r, a, first);
    INFO("output " << name << " (rtol " << r << ", atol " << a
                   << "): " << first);
    CHECK(bad == 0);
  }
}

/// Parses `source`, which must hold a func.func @f.
OwningOpRef<ModuleOp> parseModule(Context &c, const std::string &source) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &c.ctx);
  INFO(c.diagnostics);
  REQUIRE(module);
  REQUIRE(module->lookupSymbol<func::FuncOp>("f"));
  return module;
}

/// Evaluates the module's @f on `args`; any error fails the test.
std::vector<HostTensor> evaluateF(ModuleOp module,
                                  const std::vector<HostTensor> &args) {
  std::string error;
  auto results =
      evaluateFunction(module.lookupSymbol<func::FuncOp>("f"), args, &error);
  INFO(error);
  REQUIRE(succeeded(results));
  return std::vector<HostTensor>(results->begin(), results->end());
}

/// Parses `source` (one func.func @f) and evaluates it.
std::vector<HostTensor> evaluate(Context &c, const std::string &source,
                                 std::vector<HostTensor> args = {}) {
  return evaluateF(*parseModule(c, source), args);
}

template <typename T> std::vector<T> valuesOf(const HostTensor &t) {
  auto v = t.values<T>();
  return std::vector<T>(v.begin(), v.end());
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

} // namespace

TEST_CASE("bundled models match their PyTorch references") {
  for (const char *name : {"mlp", "lenet", "transformer", "tiny_ops"})
    checkModelDir(sourcePath(std::string("models/") + name), 1e-4, 1e-5);
}

// The evaluator as an oracle for graph rewrites: the optimized graph
// (batch-norm and scale folding, constant folding, fusion groups, ...) must
// still compute the references.
TEST_CASE("the -O2 graph pipeline preserves the bundled models' outputs") {
  for (const char *name : {"mlp", "lenet", "transformer", "tiny_ops"})
    checkModelDir(sourcePath(std::string("models/") + name), 1e-4, 1e-5, {},
                  /*optLevel=*/2);
}

// graph-block-channels' repacked filters, blocked pooling and the layout
// changes at the region's edges, checked without the kernels.
TEST_CASE("the blocked layout preserves the nchwc cases' outputs") {
  for (const char *name :
       {"kernel_nchwc_block", "kernel_nchwc_concat", "kernel_nchwc_grouped"})
    checkModelDir(sourcePath(std::string("test/e2e/ops/") + name), 1e-4, 1e-5,
                  {}, /*optLevel=*/2);
}

// The blocked Winograd ops against the direct blocked convolution they
// replace: partial tiles (7x10 outputs), padding on one side, batch 2,
// random data. graph-winograd-convs rewrites the function in place.
TEST_CASE("blocked Winograd transforms compute the blocked convolution") {
  Context c;
  std::string source = R"(
    func.func @f(%x: tensor<2x2x8x10x8xf32>, %r: tensor<2x3x7x10x8xf32>) -> tensor<2x3x7x10x8xf32> {
      %w = graph.constant dense<FILTER> : tensor<3x2x3x3x8x8xf32>
      %b = graph.constant dense<0.25> : tensor<3x8xf32>
      %y = graph.conv2d_nchwc %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 0, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x2x8x10x8xf32>, tensor<3x2x3x3x8x8xf32>, tensor<3x8xf32>) -> tensor<2x3x7x10x8xf32>
      %z = graph.add %y, %r : (tensor<2x3x7x10x8xf32>, tensor<2x3x7x10x8xf32>) -> tensor<2x3x7x10x8xf32>
      return %z : tensor<2x3x7x10x8xf32>
    })";
  // Deterministic pseudo-random values in [-1, 1).
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1 << 23) - 1.0f;
  };
  // The filter [3, 2, 3, 3, 8, 8] as nested brackets.
  std::vector<int64_t> dims{3, 2, 3, 3, 8, 8};
  std::function<std::string(size_t)> nested = [&](size_t d) {
    std::string t = "[";
    for (int64_t i = 0; i < dims[d]; ++i)
      t += (i ? ", " : "") + (d + 1 == dims.size()
                                  ? std::to_string(next() * 0.2f)
                                  : nested(d + 1));
    return t + "]";
  };
  std::string filter = nested(0);
  source.replace(source.find("FILTER"), 6, filter);
  auto input = [&](std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    std::vector<float> v(n);
    for (float &f : v)
      f = next();
    return HostTensor::get<float>(ElementKind::F32, shape, v);
  };
  std::vector<HostTensor> args{input({2, 2, 8, 10, 8}),
                               input({2, 3, 7, 10, 8})};
  OwningOpRef<ModuleOp> module = parseModule(c, source);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  std::vector<HostTensor> direct = evaluateF(*module, args);

  PassManager pm(&c.ctx);
  GraphWinogradConvsOptions options;
  options.minTiles = options.minInChannelsBlocked =
      options.minOutChannelsBlocked = 1;
  pm.addPass(createGraphWinogradConvs(options));
  REQUIRE(succeeded(pm.run(*module)));
  int transforms = 0;
  f.walk([&](Operation *op) {
    transforms += isa<WinogradInputOp, WinogradOutputOp>(op);
  });
  REQUIRE(transforms == 2);
  std::vector<HostTensor> winograd = evaluateF(*module, args);
  ArrayRef<float> a = direct[0].values<float>(),
                  b = winograd[0].values<float>();
  REQUIRE(a.size() == b.size());
  // Winograd's rounding error, relative to the output's largest magnitude
  // (docs/compiler.md measures 0.6e-5 to 1.1e-5 on real layers).
  double worst = 0, peak = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, double(std::fabs(a[i] - b[i])));
    peak = std::max(peak, double(std::fabs(a[i])));
  }
  INFO("max abs error " << worst << ", peak " << peak);
  CHECK(peak > 1);
  CHECK(worst < 2e-5 * peak);
}

// graph-block-channels on integer convolutions (one group and depthwise,
// 20 channels padded to 32, stride 2 and a dilation; groups of whole blocks
// and groups within a block): the blocked int8 filters and
// conv2d_integer_nchwc compute the NCHW sums bit for bit.
TEST_CASE("blocked integer convolutions compute the NCHW ones") {
  Context c;
  uint32_t state = 777;
  auto next = [&](int lo, int hi) {
    state = state * 1664525u + 1013904223u;
    return lo + int((state >> 8) % uint32_t(hi - lo + 1));
  };
  // Random int8 values as nested brackets of the shape `dims`.
  std::function<std::string(ArrayRef<int64_t>)> literal =
      [&](ArrayRef<int64_t> dims) {
        std::string t = "[";
        for (int64_t i = 0; i < dims[0]; ++i)
          t += (i ? ", " : "") + (dims.size() == 1
                                      ? std::to_string(next(-128, 127))
                                      : literal(dims.drop_front()));
        return t + "]";
      };
  std::string source = R"(
    func.func @f(%x: tensor<1x20x7x6xui8>, %x2: tensor<1x32x5x5xui8>) -> (tensor<1x24x4x3xi32>, tensor<1x20x7x6xi32>, tensor<1x32x5x5xi32>, tensor<1x32x3x2xi32>) {
      %wr = graph.constant dense<W> : tensor<24x20x3x3xi8>
      %dr = graph.constant dense<D> : tensor<20x1x3x3xi8>
      %g2 = graph.constant dense<G> : tensor<32x16x3x3xi8>
      %g8 = graph.constant dense<H> : tensor<32x4x3x3xi8>
      %xz = graph.constant dense<201> : tensor<ui8>
      %wz = graph.constant dense<0> : tensor<i8>
      %y = graph.conv2d_integer %x, %wr, %xz, %wz {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x20x7x6xui8>, tensor<24x20x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x24x4x3xi32>
      %z = graph.conv2d_integer %x, %dr, %xz, %wz {dilations = array<i64: 2, 1>, groups = 20 : i64, pads = array<i64: 2, 1, 2, 1>, strides = array<i64: 1, 1>} : (tensor<1x20x7x6xui8>, tensor<20x1x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x20x7x6xi32>
      %u = graph.conv2d_integer %x2, %g2, %xz, %wz {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x5x5xui8>, tensor<32x16x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x32x5x5xi32>
      %v = graph.conv2d_integer %x2, %g8, %xz, %wz {dilations = array<i64: 1, 1>, groups = 8 : i64, pads = array<i64: 1, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x32x5x5xui8>, tensor<32x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x32x3x2xi32>
      return %y, %z, %u, %v : tensor<1x24x4x3xi32>, tensor<1x20x7x6xi32>, tensor<1x32x5x5xi32>, tensor<1x32x3x2xi32>
    })";
  source.replace(source.find("dense<W>") + 6, 1, literal({24, 20, 3, 3}));
  source.replace(source.find("dense<D>") + 6, 1, literal({20, 1, 3, 3}));
  source.replace(source.find("dense<G>") + 6, 1, literal({32, 16, 3, 3}));
  source.replace(source.find("dense<H>") + 6, 1, literal({32, 4, 3, 3}));
  auto bytes = [&](std::vector<int64_t> shape) {
    std::vector<uint8_t> v(shape[1] * shape[2] * shape[3]);
    for (uint8_t &b : v)
      b = uint8_t(next(0, 255));
    return HostTensor::get<uint8_t>(ElementKind::U8, shape, v);
  };
  std::vector<HostTensor> args{bytes({1, 20, 7, 6}), bytes({1, 32, 5, 5})};
  OwningOpRef<ModuleOp> module = parseModule(c, source);
  std::vector<HostTensor> direct = evaluateF(*module, args);

  PassManager pm(&c.ctx);
  GraphBlockChannelsOptions options;
  options.block = 16;
  pm.addPass(createGraphBlockChannels(options));
  REQUIRE(succeeded(pm.run(*module)));
  int blocked = 0, depthwise = 0, grouped = 0;
  module->walk([&](Conv2DIntegerNchwcOp op) {
    ++blocked;
    depthwise += op.isDepthwise();
    grouped += op.getGroups() != 1;
  });
  REQUIRE(blocked == 4);
  REQUIRE(depthwise == 1);
  REQUIRE(grouped == 2);
  std::vector<HostTensor> result = evaluateF(*module, args);
  for (int i = 0; i < 4; ++i)
    CHECK(valuesOf<int32_t>(direct[i]) == valuesOf<int32_t>(result[i]));
}

TEST_CASE("every e2e op test matches its reference at its tolerance") {
  std::error_code ec;
  int count = 0;
  std::string root = sourcePath("test/e2e/ops");
  for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
       it.increment(ec)) {
    std::string dir = it->path();
    if (!llvm::sys::fs::exists(dir + "/model.json"))
      continue;
    checkModelDir(dir, 1e-4, 1e-5, tolerances(dir + ".test"));
    ++count;
  }
  REQUIRE(!ec);
  CHECK(count > 50);
}

TEST_CASE("integer division: truncation, x / 0 = 0, INT_MIN / -1 wraps") {
  Context c;
  auto r = evaluate(c, R"(
    func.func @f() -> (tensor<5xi32>, tensor<2xi64>) {
      %a = graph.constant dense<[7, -7, 5, -2147483648, 0]> : tensor<5xi32>
      %b = graph.constant dense<[2, 2, 0, -1, 0]> : tensor<5xi32>
      %0 = graph.div %a, %b : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
      %c = graph.constant dense<[-9223372036854775808, 9]> : tensor<2xi64>
      %d = graph.constant dense<[-1, -4]> : tensor<2xi64>
      %1 = graph.div %c, %d : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
      return %0, %1 : tensor<5xi32>, tensor<2xi64>
    })");
  CHECK(valuesOf<int32_t>(r[0]) ==
        std::vector<int32_t>{3, -3, 0, std::numeric_limits<int32_t>::min(), 0});
  CHECK(valuesOf<int64_t>(r[1]) ==
        std::vector<int64_t>{std::numeric_limits<int64_t>::min(), -2});
}

TEST_CASE("gather wraps negative indices once and clamps the rest") {
  Context c;
  auto r =
      evaluate(c, R"(
    func.func @f(%i: tensor<6xi64>) -> tensor<2x6xf32> {
      %d = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
      %0 = graph.gather %d, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<6xi64>) -> tensor<2x6xf32>
      return %0 : tensor<2x6xf32>
    })",
               {HostTensor::get<int64_t>(
                   ElementKind::I64, {6},
                   {0, -1, -3, -4, 3, std::numeric_limits<int64_t>::min()})});
  CHECK(valuesOf<float>(r[0]) ==
        std::vector<float>{1, 3, 1, 1, 3, 1, 4, 6, 4, 4, 6, 4});
}

TEST_CASE("float max/min/relu propagate NaN and order -0 below +0") {
  Context c;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = evaluate(
      c, R"(
    func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) {
      %0 = graph.max %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %1 = graph.min %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %2 = graph.relu %a : tensor<4xf32>
      %r = graph.reshape %a {shape = array<i64: 2, 2>} : (tensor<4xf32>) -> tensor<2x2xf32>
      %3 = graph.reduce_max %r {axes = array<i64: 1>, keepdims = false} : (tensor<2x2xf32>) -> tensor<2xf32>
      return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>
    })",
      {HostTensor::get<float>(ElementKind::F32, {4}, {nan, 1.0f, -0.0f, -2.0f}),
       HostTensor::get<float>(ElementKind::F32, {4},
                              {1.0f, nan, 0.0f, -3.0f})});
  auto mx = valuesOf<float>(r[0]), mn = valuesOf<float>(r[1]),
       relu = valuesOf<float>(r[2]), rmax = valuesOf<float>(r[3]);
  CHECK(std::isnan(mx[0]));
  CHECK(std::isnan(mx[1]));
  CHECK(sameBits(mx[2], 0.0f));
  CHECK(mx[3] == -2.0f);
  CHECK(std::isnan(mn[0]));
  CHECK(std::isnan(mn[1]));
  CHECK(sameBits(mn[2], -0.0f));
  CHECK(mn[3] == -3.0f);
  CHECK(std::isnan(relu[0]));
  CHECK(relu[1] == 1.0f);
  CHECK(sameBits(relu[2], 0.0f));
  CHECK(sameBits(relu[3], 0.0f));
  CHECK(std::isnan(rmax[0])); // NaN in a row wins the reduction
  CHECK(sameBits(rmax[1], -0.0f));
}

TEST_CASE("cast rules") {
  Context c;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = evaluate(
      c, R"(
    func.func @f(%x: tensor<6xf32>, %l: tensor<3xi64>, %b: tensor<2xi1>) -> (tensor<6xi32>, tensor<6xi64>, tensor<6xi1>, tensor<3xi32>, tensor<3xf32>, tensor<2xf32>, tensor<2xi64>) {
      %0 = graph.cast %x {to = i32} : (tensor<6xf32>) -> tensor<6xi32>
      %1 = graph.cast %x {to = i64} : (tensor<6xf32>) -> tensor<6xi64>
      %2 = graph.cast %x {to = i1} : (tensor<6xf32>) -> tensor<6xi1>
      %3 = graph.cast %l {to = i32} : (tensor<3xi64>) -> tensor<3xi32>
      %4 = graph.cast %l {to = f32} : (tensor<3xi64>) -> tensor<3xf32>
      %5 = graph.cast %b {to = f32} : (tensor<2xi1>) -> tensor<2xf32>
      %6 = graph.cast %b {to = i64} : (tensor<2xi1>) -> tensor<2xi64>
      return %0, %1, %2, %3, %4, %5, %6 : tensor<6xi32>, tensor<6xi64>, tensor<6xi1>, tensor<3xi32>, tensor<3xf32>, tensor<2xf32>, tensor<2xi64>
    })",
      {HostTensor::get<float>(ElementKind::F32, {6},
                              {-2.9f, 2.9f, -0.0f, nan, 3e9f, -1e19f}),
       HostTensor::get<int64_t>(ElementKind::I64, {3},
                                {(1ll << 32) + 5, -1, (1ll << 24) + 1}),
       HostTensor::get<uint8_t>(ElementKind::I1, {2}, {1, 0})});
  const int32_t min32 = std::numeric_limits<int32_t>::min();
  const int64_t min64 = std::numeric_limits<int64_t>::min();
  // Truncation toward zero; NaN and out-of-range give INT_MIN like x86.
  CHECK(valuesOf<int32_t>(r[0]) ==
        std::vector<int32_t>{-2, 2, 0, min32, min32, min32});
  CHECK(valuesOf<int64_t>(r[1]) ==
        std::vector<int64_t>{-2, 2, 0, min64, 3000000000ll, min64});
  // x != 0: -0 is false, NaN is true.
  CHECK(valuesOf<uint8_t>(r[2]) == std::vector<uint8_t>{1, 1, 0, 1, 1, 1});
  CHECK(valuesOf<int32_t>(r[3]) == std::vector<int32_t>{5, -1, 16777217});
  // 2^24 + 1 rounds to nearest even.
  CHECK(valuesOf<float>(r[4]) ==
        std::vector<float>{4294967296.0f, -1.0f, 16777216.0f});
  CHECK(valuesOf<float>(r[5]) == std::vector<float>{1.0f, 0.0f});
  CHECK(valuesOf<int64_t>(r[6]) == std::vector<int64_t>{1, 0});
}

TEST_CASE("matmul accumulates in order from 0 in f32") {
  Context c;
  // 1e8 + 1 - 1e8 in f32 loses the 1 when added in this order.
  auto r = evaluate(c, R"(
    func.func @f() -> tensor<1x1xf32> {
      %a = graph.constant dense<[[1.0e8, 1.0, -1.0e8]]> : tensor<1x3xf32>
      %b = graph.constant dense<[[1.0], [1.0], [1.0]]> : tensor<3x1xf32>
      %0 = graph.matmul %a, %b : (tensor<1x3xf32>, tensor<3x1xf32>) -> tensor<1x1xf32>
      return %0 : tensor<1x1xf32>
    })");
  CHECK(valuesOf<float>(r[0]) == std::vector<float>{0.0f});
}

TEST_CASE("ElementsAttr conversion: dense, splat and dense_resource") {
  Context c;
  std::vector<float> values(20);
  for (int i = 0; i < 20; ++i)
    values[i] = 0.5f * i;
  HostTensor big = HostTensor::get<float>(ElementKind::F32, {4, 5}, values);
  ElementsAttr blob = toElementsAttr(&c.ctx, big);
  CHECK(isa<DenseResourceElementsAttr>(blob));
  auto back = fromElementsAttr(blob);
  REQUIRE(succeeded(back));
  CHECK(back->bitwiseEquals(big));

  HostTensor small =
      HostTensor::get<int32_t>(ElementKind::I32, {2, 2}, {1, -2, 3, -4});
  ElementsAttr dense = toElementsAttr(&c.ctx, small);
  CHECK(isa<DenseElementsAttr>(dense));
  back = fromElementsAttr(dense);
  REQUIRE(succeeded(back));
  CHECK(back->bitwiseEquals(small));

  // Large uniform results stay compact splats; bool tensors stay dense.
  HostTensor splat(ElementKind::I64, {64});
  auto splatAttr = dyn_cast<DenseElementsAttr>(toElementsAttr(&c.ctx, splat));
  REQUIRE(splatAttr);
  CHECK(splatAttr.isSplat());
  HostTensor bools(ElementKind::I1, {40});
  bools.values<uint8_t>()[3] = 1;
  ElementsAttr boolAttr = toElementsAttr(&c.ctx, bools);
  CHECK(isa<DenseElementsAttr>(boolAttr));
  back = fromElementsAttr(boolAttr);
  REQUIRE(succeeded(back));
  CHECK(back->bitwiseEquals(bools));

  // -0 and +0 are different values, not a splat.
  HostTensor zeros =
      HostTensor::get<float>(ElementKind::F32, {2}, {0.0f, -0.0f});
  back = fromElementsAttr(toElementsAttr(&c.ctx, zeros));
  REQUIRE(succeeded(back));
  CHECK(back->bitwiseEquals(zeros));
}

/// 20 floats scale * i + offset, and a [4, 5] blob holding them.
static std::vector<float> ramp(float scale, float offset) {
  std::vector<float> values(20);
  for (int i = 0; i < 20; ++i)
    values[i] = scale * i + offset;
  return values;
}
static ElementsAttr rampBlob(Context &c, ArrayRef<float> values) {
  return toElementsAttr(
      &c.ctx, HostTensor::get<float>(ElementKind::F32, {4, 5}, values));
}

/// A 20-float weight whose blob was elided (parsed as `__elided__`): it has
/// no bytes. Attributes live in the context, so the module can go.
static ElementsAttr elidedWeight(Context &c) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @f() -> tensor<20xf32> {
      %w = graph.constant dense_resource<__elided__> : tensor<20xf32>
      return %w : tensor<20xf32>
    })",
                                                             &c.ctx);
  REQUIRE(module);
  ElementsAttr elided;
  module->walk([&](graph::ConstantOp op) { elided = op.getValue(); });
  REQUIRE(elided);
  return elided;
}

TEST_CASE("storedElements views the bytes an attribute stores, no copy") {
  Context c;
  std::vector<float> values = ramp(0.25f, -1.0f);
  ElementsAttr blob = rampBlob(c, values);
  REQUIRE(isa<DenseResourceElementsAttr>(blob));
  std::optional<ArrayRef<float>> view = storedValues<float>(blob);
  REQUIRE(view);
  CHECK(std::vector<float>(view->begin(), view->end()) == values);
  // The blob's own bytes, not a copy.
  CHECK(storedElements(blob, 4)->data() == cast<DenseResourceElementsAttr>(blob)
                                                .getRawHandle()
                                                .getBlob()
                                                ->getData()
                                                .data());
  // A wrong element size does not match the element count.
  CHECK_FALSE(storedElements(blob, 8));

  auto type = RankedTensorType::get({3}, IntegerType::get(&c.ctx, 32));
  auto dense = DenseElementsAttr::get(type, ArrayRef<int32_t>{7, -8, 9});
  std::optional<ArrayRef<int32_t>> ints = storedValues<int32_t>(dense);
  REQUIRE(ints);
  CHECK(std::vector<int32_t>(ints->begin(), ints->end()) ==
        std::vector<int32_t>{7, -8, 9});
  // A splat stores one element; an elided blob none.
  CHECK_FALSE(storedElements(DenseElementsAttr::get(type, int32_t(3)), 4));
  ElementsAttr elided = elidedWeight(c);
  CHECK_FALSE(storedElements(elided, 4));
}

TEST_CASE("constantValues reads stored values in place, decodes the rest") {
  Context c;
  std::vector<float> values = ramp(0.5f, -3.0f);
  ElementsAttr blob = rampBlob(c, values);
  std::optional<HostTensor> copy;
  std::optional<ArrayRef<float>> read = constantValues<float>(blob, copy);
  REQUIRE(read);
  CHECK(std::vector<float>(read->begin(), read->end()) == values);
  CHECK_FALSE(copy); // the blob's bytes, not a copy
  CHECK(read->data() == storedValues<float>(blob)->data());

  // A splat stores one element: decoded into the copy.
  auto type = RankedTensorType::get({3}, Float32Type::get(&c.ctx));
  std::optional<ArrayRef<float>> splat =
      constantValues<float>(DenseElementsAttr::get(type, 2.5f), copy);
  REQUIRE(splat);
  REQUIRE(copy);
  CHECK(std::vector<float>(splat->begin(), splat->end()) ==
        std::vector<float>{2.5f, 2.5f, 2.5f});
  CHECK(splat->data() == copy->values<float>().data());

  // An elided blob neither stores nor decodes.
  ElementsAttr elided = elidedWeight(c);
  std::optional<HostTensor> none;
  CHECK_FALSE(constantValues<float>(elided, none));
  CHECK_FALSE(none);
}

TEST_CASE("evaluation errors are reported, not crashes") {
  Context c;
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<20xf32> {
      %w = graph.constant dense_resource<__elided__> : tensor<20xf32>
      return %w : tensor<20xf32>
    })",
                                                             &c.ctx);
  REQUIRE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  std::string error;
  // Wrong argument shape.
  CHECK(
      failed(evaluateFunction(f, {HostTensor(ElementKind::F32, {3})}, &error)));
  CHECK(error.find("argument #0 must be tensor<2xf32>") != std::string::npos);
  // Wrong argument count.
  CHECK(failed(evaluateFunction(f, {}, &error)));
  CHECK(error.find("takes 1 arguments") != std::string::npos);
  // A blob without data.
  CHECK(
      failed(evaluateFunction(f, {HostTensor(ElementKind::F32, {2})}, &error)));
  CHECK(error.find("has no data") != std::string::npos);
}

TEST_CASE("transposeBytes moves every element where the permutation says",
          "[evaluator][transpose]") {
  // Tiled copies: shapes that are not multiples of the tile, every perm of a
  // rank-3 tensor, 1- to 8-byte elements.
  std::vector<int64_t> shape = {3, 37, 45};
  std::vector<std::vector<int64_t>> perms = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                             {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int64_t n = 3 * 37 * 45;
  for (int64_t size : {1, 2, 4, 8}) {
    std::vector<uint64_t> storage(n), outStorage(n);
    auto *src = reinterpret_cast<char *>(storage.data());
    for (int64_t i = 0; i < n * size; ++i)
      src[i] = char(i * 7 + i / 13);
    for (const auto &perm : perms) {
      std::vector<int64_t> outShape;
      for (int64_t p : perm)
        outShape.push_back(shape[p]);
      auto *dst = reinterpret_cast<char *>(outStorage.data());
      transposeBytes(ArrayRef<char>(src, n * size), shape, perm, size,
                     MutableArrayRef<char>(dst, n * size));
      int64_t strides[3] = {37 * 45, 45, 1};
      bool same = true;
      for (int64_t i = 0; i < outShape[0]; ++i)
        for (int64_t j = 0; j < outShape[1]; ++j)
          for (int64_t k = 0; k < outShape[2]; ++k) {
            int64_t idx[3] = {i, j, k};
            int64_t in = 0;
            for (int d = 0; d < 3; ++d)
              in += idx[d] * strides[perm[d]];
            int64_t out = (i * outShape[1] + j) * outShape[2] + k;
            same &= std::memcmp(dst + out * size, src + in * size, size) == 0;
          }
      INFO("element size " << size << ", perm " << perm[0] << perm[1]
                           << perm[2]);
      CHECK(same);
    }
  }
}
