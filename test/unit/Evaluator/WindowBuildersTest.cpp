//===- WindowBuildersTest.cpp - 1-D/3-D window ops from the 2-D ones ------===//
//
// graph::buildConv, buildPool and buildConvTranspose (WindowBuilders.h)
// evaluated by the graph evaluator against direct loop nests over the
// definitions in double, and their errors through LocatedBuilder.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "mlc/Compiler/Pipelines.h"
#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Dialect/Graph/WindowBuilders.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlc::graph;

namespace {

/// A function @f(args...) being built, and the diagnostics so far.
struct Fixture {
  Fixture() {
    mlc::registerDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadDialect<func::FuncDialect, GraphDialect>();
    module = ModuleOp::create(UnknownLoc::get(&ctx));
  }
  /// Starts @f with arguments of these f32 shapes.
  SmallVector<Value> begin(ArrayRef<SmallVector<int64_t>> shapes) {
    OpBuilder b(&ctx);
    b.setInsertionPointToEnd(module->getBody());
    SmallVector<Type> types;
    for (const auto &s : shapes)
      types.push_back(RankedTensorType::get(s, b.getF32Type()));
    func = func::FuncOp::create(b, UnknownLoc::get(&ctx), "f",
                                b.getFunctionType(types, {}));
    Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    return SmallVector<Value>(entry->getArguments());
  }
  /// Returns `y` and evaluates @f on `args`.
  HostTensor run(Value y, ArrayRef<HostTensor> args) {
    func::ReturnOp::create(builder, UnknownLoc::get(&ctx), y);
    func.setFunctionType(builder.getFunctionType(
        func.getFunctionType().getInputs(), TypeRange{y.getType()}));
    std::string error;
    auto r = evaluateFunction(func, args, &error);
    INFO(error);
    REQUIRE(succeeded(r));
    return std::move((*r)[0]);
  }

  DialectRegistry registry;
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  OpBuilder builder{&ctx};
  std::vector<std::string> diagnostics;
  ScopedDiagnosticHandler handler{&ctx, [this](Diagnostic &d) {
                                    diagnostics.push_back(d.str());
                                    return success();
                                  }};
};

HostTensor random(ArrayRef<int64_t> shape, uint32_t seed) {
  HostTensor t(ElementKind::F32, shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float &v : t.values<float>())
    v = dist(gen);
  return t;
}

/// Row-major index of `idx` in `shape`.
int64_t flat(ArrayRef<int64_t> shape, ArrayRef<int64_t> idx) {
  int64_t i = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    i = i * shape[d] + idx[d];
  return i;
}

/// Calls f(index) for every index of `shape`.
void forEach(ArrayRef<int64_t> shape,
             const std::function<void(ArrayRef<int64_t>)> &f) {
  SmallVector<int64_t> idx(shape.size(), 0);
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  for (int64_t k = 0; k < n; ++k) {
    f(idx);
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

void checkClose(const HostTensor &got, ArrayRef<int64_t> shape,
                ArrayRef<double> want) {
  REQUIRE(got.getShape() == shape);
  ArrayRef<float> g = got.values<float>();
  REQUIRE(g.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(g[i] - want[i]) <= 1e-5 + 1e-4 * std::abs(want[i]));
  }
}

Window window(ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
              ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
              int64_t groups = 1) {
  Window w;
  w.strides.assign(strides.begin(), strides.end());
  w.dilations.assign(dilations.begin(), dilations.end());
  w.padsBegin.assign(begin.begin(), begin.end());
  w.padsEnd.assign(end.begin(), end.end());
  w.groups = groups;
  return w;
}

/// Builds @f(operands of `shapes`) -> build(operands), evaluates it on
/// random operands (seeds seed, seed + 1, ...) and returns them and the
/// result.
std::pair<std::vector<HostTensor>, HostTensor> buildAndRun(
    Fixture &f, ArrayRef<SmallVector<int64_t>> shapes, uint32_t seed,
    const std::function<FailureOr<Value>(CheckedBuilder &, ArrayRef<Value>)>
        &build) {
  auto args = f.begin(shapes);
  LocatedBuilder cb(f.builder, UnknownLoc::get(&f.ctx));
  FailureOr<Value> y = build(cb, args);
  REQUIRE(succeeded(y));
  std::vector<HostTensor> operands;
  for (const auto &shape : shapes)
    operands.push_back(random(shape, seed++));
  HostTensor got = f.run(*y, operands);
  return {std::move(operands), std::move(got)};
}

/// Output size of a window over `in` padded by (b, e).
int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t d, int64_t b,
                int64_t e) {
  return (in + b + e - ((k - 1) * d + 1)) / s + 1;
}

} // namespace

TEST_CASE("buildConv: a grouped, strided, dilated, padded 3-D convolution") {
  Fixture f;
  SmallVector<int64_t> xs = {2, 4, 5, 6, 7}, ws = {6, 2, 3, 2, 3}, bs = {6};
  Window win = window({2, 1, 2}, {1, 2, 1}, {1, 0, 2}, {1, 1, 0}, 2);
  auto [operands, got] = buildAndRun(
      f, {xs, ws, bs}, 1, [&](CheckedBuilder &cb, ArrayRef<Value> a) {
        return buildConv(cb, a[0], a[1], a[2], win);
      });
  const HostTensor &x = operands[0], &w = operands[1], &bias = operands[2];

  SmallVector<int64_t> os = {2, 6};
  for (int i = 0; i < 3; ++i)
    os.push_back(outSize(xs[2 + i], ws[2 + i], win.strides[i], win.dilations[i],
                         win.padsBegin[i], win.padsEnd[i]));
  std::vector<double> want;
  ArrayRef<float> xv = x.values<float>(), wv = w.values<float>(),
                  bv = bias.values<float>();
  forEach(os, [&](ArrayRef<int64_t> o) {
    int64_t g = o[1] / (ws[0] / win.groups);
    double acc = bv[o[1]];
    forEach({ws[1], ws[2], ws[3], ws[4]}, [&](ArrayRef<int64_t> k) {
      SmallVector<int64_t> xi = {o[0], g * ws[1] + k[0]};
      for (int i = 0; i < 3; ++i) {
        int64_t p = o[2 + i] * win.strides[i] + k[1 + i] * win.dilations[i] -
                    win.padsBegin[i];
        if (p < 0 || p >= xs[2 + i])
          return;
        xi.push_back(p);
      }
      acc += double(xv[flat(xs, xi)]) *
             wv[flat(ws, {o[1], k[0], k[1], k[2], k[3]})];
    });
    want.push_back(acc);
  });
  checkClose(got, os, want);
}

TEST_CASE("buildConv: a 1-D convolution is the 2-D one over a unit row") {
  Fixture f;
  SmallVector<int64_t> xs = {2, 3, 11}, ws = {4, 3, 3};
  Window win = window({2}, {2}, {2}, {1});
  auto [operands, got] =
      buildAndRun(f, {xs, ws}, 4, [&](CheckedBuilder &cb, ArrayRef<Value> a) {
        return buildConv(cb, a[0], a[1], Value(), win);
      });
  const HostTensor &x = operands[0], &w = operands[1];
  int64_t ow = outSize(11, 3, 2, 2, 2, 1);
  std::vector<double> want;
  forEach({2, 4, ow}, [&](ArrayRef<int64_t> o) {
    double acc = 0;
    for (int64_t c = 0; c < 3; ++c)
      for (int64_t k = 0; k < 3; ++k) {
        int64_t p = o[2] * 2 + k * 2 - 2;
        if (p >= 0 && p < 11)
          acc += double(x.values<float>()[flat(xs, {o[0], c, p})]) *
                 w.values<float>()[flat(ws, {o[1], c, k})];
      }
    want.push_back(acc);
  });
  checkClose(got, {2, 4, ow}, want);
}

TEST_CASE("buildPool: 3-D max and average pooling with padding") {
  SmallVector<int64_t> xs = {1, 3, 5, 6, 4};
  Window win = window({2, 2, 1}, {1, 1, 1}, {1, 0, 1}, {0, 1, 1});
  win.kernel = {2, 3, 2};
  for (bool isMax : {true, false}) {
    for (bool countPad : {false, true}) {
      if (isMax && countPad)
        continue;
      Fixture f;
      win.countIncludePad = countPad;
      auto [operands, got] =
          buildAndRun(f, {xs}, 6, [&](CheckedBuilder &cb, ArrayRef<Value> a) {
            return buildPool(cb, a[0], isMax, win);
          });
      const HostTensor &x = operands[0];
      SmallVector<int64_t> os = {1, 3};
      for (int i = 0; i < 3; ++i)
        os.push_back(outSize(xs[2 + i], win.kernel[i], win.strides[i], 1,
                             win.padsBegin[i], win.padsEnd[i]));
      std::vector<double> want;
      forEach(os, [&](ArrayRef<int64_t> o) {
        double best = -std::numeric_limits<double>::infinity(), sum = 0;
        int64_t count = 0;
        forEach(win.kernel, [&](ArrayRef<int64_t> k) {
          SmallVector<int64_t> xi = {o[0], o[1]};
          for (int i = 0; i < 3; ++i)
            xi.push_back(o[2 + i] * win.strides[i] + k[i] - win.padsBegin[i]);
          for (int i = 0; i < 3; ++i)
            if (xi[2 + i] < 0 || xi[2 + i] >= xs[2 + i])
              return;
          double v = x.values<float>()[flat(xs, xi)];
          best = std::max(best, v);
          sum += v;
          ++count;
        });
        int64_t all = win.kernel[0] * win.kernel[1] * win.kernel[2];
        want.push_back(isMax ? best : sum / double(countPad ? all : count));
      });
      INFO((isMax ? "max" : countPad ? "avg counting pads" : "avg"));
      checkClose(got, os, want);
    }
  }
}

TEST_CASE("buildConvTranspose: 3-D with groups, crops and an extension") {
  Fixture f;
  SmallVector<int64_t> xs = {1, 4, 3, 4, 2}, ws = {4, 3, 2, 3, 2}, bs = {6};
  // Crops: depth loses 1 at the start and gains 1 (output_padding) at
  // the end; H loses 1 at each end; W none.
  Window win = window({2, 1, 3}, {1, 2, 1}, {1, 1, 0}, {-1, 1, 0}, 2);
  auto [operands, got] = buildAndRun(
      f, {xs, ws, bs}, 7, [&](CheckedBuilder &cb, ArrayRef<Value> a) {
        return buildConvTranspose(cb, a[0], a[1], a[2], win);
      });
  const HostTensor &x = operands[0], &w = operands[1], &bias = operands[2];
  // The full result by scattering every input element, then the crops.
  SmallVector<int64_t> full = {1, 6};
  for (int i = 0; i < 3; ++i)
    full.push_back((xs[2 + i] - 1) * win.strides[i] +
                   (ws[2 + i] - 1) * win.dilations[i] + 1);
  std::vector<double> acc(full[1] * full[2] * full[3] * full[4], 0.0);
  int64_t cg = xs[1] / win.groups;
  forEach(xs, [&](ArrayRef<int64_t> i) {
    int64_t g = i[1] / cg;
    forEach({ws[1], ws[2], ws[3], ws[4]}, [&](ArrayRef<int64_t> k) {
      int64_t o = g * ws[1] + k[0];
      SmallVector<int64_t> at = {0, o};
      for (int d = 0; d < 3; ++d)
        at.push_back(i[2 + d] * win.strides[d] + k[1 + d] * win.dilations[d]);
      acc[flat(full, at)] +=
          double(x.values<float>()[flat(xs, i)]) *
          w.values<float>()[flat(ws, {i[1], k[0], k[1], k[2], k[3]})];
    });
  });
  SmallVector<int64_t> os = {1, 6};
  for (int d = 0; d < 3; ++d)
    os.push_back(full[2 + d] - win.padsBegin[d] - win.padsEnd[d]);
  std::vector<double> want;
  forEach(os, [&](ArrayRef<int64_t> o) {
    SmallVector<int64_t> at = {0, o[1]};
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      int64_t p = o[2 + d] + win.padsBegin[d];
      inside &= p >= 0 && p < full[2 + d];
      at.push_back(p);
    }
    want.push_back(bias.values<float>()[o[1]] +
                   (inside ? acc[flat(full, at)] : 0.0));
  });
  checkClose(got, os, want);
}

TEST_CASE("window builders report bad operands at the builder's location") {
  auto errorOf = [](ArrayRef<SmallVector<int64_t>> shapes,
                    const std::function<FailureOr<Value>(
                        CheckedBuilder &, ArrayRef<Value>)> &build) {
    Fixture f;
    auto args = f.begin(shapes);
    LocatedBuilder cb(f.builder, UnknownLoc::get(&f.ctx));
    FailureOr<Value> y = build(cb, args);
    CHECK(failed(y));
    // Nothing half-built stays behind but what succeeded before.
    f.func.walk([](Operation *op) {
      for (Type t : op->getResultTypes())
        CHECK(!isa<NoneType>(t));
    });
    REQUIRE(f.diagnostics.size() == 1);
    return f.diagnostics[0];
  };
  Window w3 = window({1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0});
  CHECK(errorOf({{1, 3, 4, 4, 4}, {2, 2, 3, 3, 3}}, [&](CheckedBuilder &cb,
                                                        ArrayRef<Value> a) {
          return buildConv(cb, a[0], a[1], Value(), w3);
        }) == "input has 3 channels but the filter expects 2 per group of 1");
  CHECK(errorOf({{1, 2, 4, 4, 4, 4}, {2, 2, 3, 3, 3, 3}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConv(cb, a[0], a[1], Value(), w3);
                }) == "a convolution needs an input of rank 3 to 5 (1 to 3 "
                      "spatial dims), got rank 6");
  CHECK(errorOf({{1, 2, 4, 4}, {2, 2, 3, 3}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConv(cb, a[0], a[1], Value(), w3);
                }) == "a convolution over 2 spatial dims needs 2 kernel "
                      "sizes, strides, dilations and pads at each end");
  Window huge = w3;
  huge.strides[1] = int64_t(1) << 40;
  CHECK(errorOf({{1, 2, 4, 4, 4}, {2, 2, 3, 3, 3}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConv(cb, a[0], a[1], Value(), huge);
                }) == "kernel sizes, strides and dilations must be in "
                      "[1, 2^20], got 1099511627776");
  Window pool = w3;
  pool.kernel = {2, 9, 2};
  std::string tooWide =
      errorOf({{1, 2, 4, 4, 4}}, [&](CheckedBuilder &cb, ArrayRef<Value> a) {
        return buildPool(cb, a[0], true, pool);
      });
  CHECK(tooWide == "window of effective size 9 does not fit in the padded "
                   "input's size 4 (spatial dim 1)");
  CHECK(errorOf({{1, 4, 3, 3, 3}, {4, 3, 2, 2, 2}, {4}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConvTranspose(cb, a[0], a[1], a[2], w3);
                }) == "bias must have shape [3]");
  // A filter with an empty window (a zero-size dim) or of another rank.
  CHECK(errorOf({{1, 3, 4, 4, 4}, {3, 2, 0, 2, 2}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConvTranspose(cb, a[0], a[1], Value(), w3);
                }) == "the filter 'tensor<3x2x0x2x2xf32>' has an empty window");
  CHECK(errorOf({{1, 2, 4, 4, 4}, {3, 2, 2, 0, 2}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConv(cb, a[0], a[1], Value(), w3);
                }) == "the filter 'tensor<3x2x2x0x2xf32>' has an empty window");
  CHECK(errorOf({{1, 3, 4, 4, 4}, {3, 2, 2, 2}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConvTranspose(cb, a[0], a[1], Value(), w3);
                }) == "filter rank 4 does not match input rank 5");
  Window cropAll = w3;
  cropAll.padsBegin[2] = 3;
  cropAll.padsEnd[2] = 1;
  CHECK(errorOf({{1, 4, 3, 3, 3}, {4, 3, 2, 2, 2}},
                [&](CheckedBuilder &cb, ArrayRef<Value> a) {
                  return buildConvTranspose(cb, a[0], a[1], Value(), cropAll);
                }) == "padding that removes the whole output (spatial dim 2)");
}
