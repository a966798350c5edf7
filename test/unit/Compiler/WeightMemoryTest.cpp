//===- WeightMemoryTest.cpp - weights freed or rewritten in place ---------===//
//
// The compiler's peak memory on models with large weights (issue 20: at most
// the weights plus 600 MB): passes that replace a weight by a transformed
// copy free the original as soon as nothing reads it, or transform it in its
// own memory.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "mlc/Compiler/Pipelines.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlc;

namespace {

/// A fresh context (the blob manager is per context) with a blob of
/// `count` floats f(i) under each of `names`, which `text` names.
struct Weights {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  DialectResourceBlobManager *manager = nullptr;

  Weights(const char *text, ArrayRef<const char *> names, size_t count,
          function_ref<float(size_t)> f)
      : ctx(registry()) {
    ctx.loadDialect<graph::GraphDialect, func::FuncDialect,
                    arith::ArithDialect>();
    module = parseSourceString<ModuleOp>(text, &ctx);
    REQUIRE(module);
    manager = &DenseResourceElementsHandle::getManagerInterface(&ctx)
                   .getBlobManager();
    for (const char *name : names) {
      auto *entry = manager->lookup(name);
      REQUIRE(entry);
      AsmResourceBlob blob =
          HeapAsmResourceBlob::allocate(count * sizeof(float), alignof(float));
      auto *data = reinterpret_cast<float *>(blob.getMutableData().data());
      for (size_t i = 0; i < count; ++i)
        data[i] = f(i);
      entry->setBlob(std::move(blob));
    }
  }
  static DialectRegistry registry() {
    DialectRegistry r;
    mlc::registerDialects(r);
    return r;
  }
  /// Where the blob `name` keeps its bytes now.
  const char *data(StringRef name) {
    return manager->lookup(name)->getBlob()->getData().data();
  }
  size_t bytes(StringRef name) {
    auto *entry = manager->lookup(name);
    return entry && entry->getBlob() ? entry->getBlob()->getData().size()
                                     : size_t(0);
  }
};

} // namespace

TEST_CASE("graph-fold-constants{release-weights} frees a large weight as "
          "soon as folding leaves it unreferenced",
          "[weights]") {
  // Three 2 MiB weights: w_once is transposed (a Gemm's transB), w_add is
  // added to w_kept, which is also an output. Both folds leave their
  // source unreferenced but for w_kept.
  const char *text = R"mlir(
func.func @f() -> (tensor<1024x512xf32>, tensor<512x1024xf32>, tensor<512x1024xf32>) {
  %a = graph.constant dense_resource<w_once> : tensor<512x1024xf32>
  %b = graph.constant dense_resource<w_add> : tensor<512x1024xf32>
  %c = graph.constant dense_resource<w_kept> : tensor<512x1024xf32>
  %ta = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<512x1024xf32>) -> tensor<1024x512xf32>
  %s = graph.add %b, %c : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %ta, %s, %c : tensor<1024x512xf32>, tensor<512x1024xf32>, tensor<512x1024xf32>
}
)mlir";
  constexpr size_t kBytes = 512 * 1024 * sizeof(float);
  for (bool release : {false, true}) {
    Weights w(text, {"w_once", "w_add", "w_kept"}, kBytes / 4,
              [](size_t i) { return float(i % 977); }); // not a splat
    ModuleOp module = *w.module;
    PassManager pm(&w.ctx);
    graph::GraphFoldConstantsOptions options;
    options.releaseWeights = release;
    pm.addPass(graph::createGraphFoldConstants(options));
    REQUIRE(succeeded(pm.run(module)));
    // Both ops folded; with release-weights the weights only they read are
    // freed by the pass itself, never the one the output still reads.
    size_t left = 0;
    module.walk([&](Operation *op) {
      left += isa<graph::TransposeOp, graph::AddOp>(op);
    });
    CHECK(left == 0);
    size_t freed = release ? 0 : kBytes;
    CHECK(w.bytes("w_once") == freed);
    CHECK(w.bytes("w_add") == freed);
    CHECK(w.bytes("w_kept") == kBytes);
    // The folded transpose holds the transposed values: element [j][i] is
    // the source's [i][j] = i * 1024 + j.
    size_t checked = 0;
    module.walk([&](graph::ConstantOp op) {
      auto attr = dyn_cast<DenseResourceElementsAttr>(op.getValue());
      if (!attr || cast<ShapedType>(attr.getType()).getDimSize(0) != 1024)
        return;
      auto data = attr.getRawHandle().getBlob()->getData();
      REQUIRE(data.size() == kBytes);
      const auto *f = reinterpret_cast<const float *>(data.data());
      CHECK(f[3 * 512 + 7] == float((7 * 1024 + 3) % 977));
      ++checked;
    });
    CHECK(checked == 1);
  }
}

/// One contraction group: an activation [batch..., 2, K] times the weight
/// `name` [batch..., K, N] (no batch dim when `batch` is 0).
static std::string matmulModule(const std::string &name, int64_t batch,
                                int64_t kK, int64_t kN) {
  std::string lead = batch ? std::to_string(batch) + "x" : "";
  std::string x = "tensor<" + lead + "2x" + std::to_string(kK) + "xf32>";
  std::string w = "tensor<" + lead + std::to_string(kK) + "x" +
                  std::to_string(kN) + "xf32>";
  std::string y = "tensor<" + lead + "2x" + std::to_string(kN) + "xf32>";
  return "func.func @f(%x: " + x + ") -> " + y +
         " {\n  %w = graph.constant dense_resource<" + name + "> : " + w +
         "\n  %0 = graph.fusion_group \"contraction\"(%x, %w) : (" + x + ", " +
         w + ") -> " + y + " {\n  ^bb0(%a: " + x + ", %b: " + w +
         "):\n    %1 = graph.matmul %a, %b : (" + x + ", " + w + ") -> " + y +
         "\n    graph.yield %1 : " + y + "\n  }\n  return %0 : " + y + "\n}\n";
}

/// Lowers matmulModule(name, batch, K, N) and checks the packed
/// [batch..., N/nr, K, nr] values: element [b][t][k][j] = w[b][k][t*nr+j].
/// With release-weights the packed blob must be the original's memory,
/// which the original's entry gave up; without, a copy, the original intact.
static void checkPackedInPlace(const char *name, int64_t batch, int64_t kK,
                               int64_t kN) {
  std::string text = matmulModule(name, batch, kK, kN);
  int64_t matrices = std::max<int64_t>(batch, 1);
  auto value = [](size_t i) { return float(i % 8191) * 0.5f - 7.0f; };
  for (bool release : {false, true}) {
    INFO("release-weights " << release);
    Weights w(text.c_str(), {name}, matrices * kK * kN, value);
    const void *original = w.data(name);
    PassManager pm(&w.ctx, ModuleOp::getOperationName());
    std::string pipeline =
        "convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-"
        "bits=512 vector-registers=32 release-weights=" +
        std::string(release ? "true" : "false") + "})";
    REQUIRE(succeeded(parsePassPipeline(pipeline, pm)));
    REQUIRE(succeeded(pm.run(*w.module)));
    DenseResourceElementsAttr packed;
    w.module->walk([&](arith::ConstantOp op) {
      if (auto attr = dyn_cast<DenseResourceElementsAttr>(op.getValue()))
        if (attr.getRawHandle().getKey().starts_with("packed_weight"))
          packed = attr;
    });
    REQUIRE(packed);
    ArrayRef<int64_t> shape = cast<ShapedType>(packed.getType()).getShape();
    int64_t nr = shape.back(), tiles = shape[shape.size() - 3];
    REQUIRE(tiles * nr == kN);
    REQUIRE(shape[shape.size() - 2] == kK);
    ArrayRef<char> raw = packed.getRawHandle().getBlob()->getData();
    REQUIRE(raw.size() == size_t(matrices * kK * kN * sizeof(float)));
    const auto *f = reinterpret_cast<const float *>(raw.data());
    size_t wrong = 0;
    for (int64_t b = 0; b < matrices; ++b)
      for (int64_t t = 0; t < tiles; ++t)
        for (int64_t k = 0; k < kK; ++k)
          for (int64_t j = 0; j < nr; ++j)
            wrong += f[((b * tiles + t) * kK + k) * nr + j] !=
                     value((b * kK + k) * kN + t * nr + j);
    CHECK(wrong == 0);
    CHECK((raw.data() == original) == release);
    CHECK(w.bytes(name) == (release ? 0 : size_t(matrices * kK * kN * 4)));
  }
}

TEST_CASE("the CPU lowering packs a weight only its kernel reads in place",
          "[weights]") {
  mlc::registerPassesAndPipelines();
  // A fully connected layer's [K, N] weight (a Gemm's transposed B, as
  // folding leaves it): packed for the kernel into [N/nr, K, nr] in its own
  // memory when the inference pipeline lets the lowering free weights.
  SECTION("a matrix, packed through a copy of itself") {
    checkPackedInPlace("w_fc", 0, 96, 320);
  }
  SECTION("a matrix too large to copy, packed by following the cycles of "
          "its transpose") {
    // 2112 x 2048 floats (17 MiB), more than ContractionPack.cpp copies.
    checkPackedInPlace("w_big", 0, 2112, 2048);
  }
  SECTION("a batch of matrices (a Winograd filter's points), each packed "
          "where it is") {
    checkPackedInPlace("w_points", 4, 48, 64);
  }
}

TEST_CASE("a weight two kernels read is packed by copy", "[weights]") {
  mlc::registerPassesAndPipelines();
  const char *text = R"mlir(
func.func @fc2(%x: tensor<2x96xf32>, %y: tensor<2x96xf32>) -> (tensor<2x128xf32>, tensor<2x128xf32>) {
  %w = graph.constant dense_resource<w_fc> : tensor<96x128xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<2x96xf32>, tensor<96x128xf32>) -> tensor<2x128xf32> {
  ^bb0(%a: tensor<2x96xf32>, %b: tensor<96x128xf32>):
    %1 = graph.matmul %a, %b : (tensor<2x96xf32>, tensor<96x128xf32>) -> tensor<2x128xf32>
    graph.yield %1 : tensor<2x128xf32>
  }
  %2 = graph.fusion_group "contraction"(%y, %w) : (tensor<2x96xf32>, tensor<96x128xf32>) -> tensor<2x128xf32> {
  ^bb0(%a: tensor<2x96xf32>, %b: tensor<96x128xf32>):
    %3 = graph.matmul %a, %b : (tensor<2x96xf32>, tensor<96x128xf32>) -> tensor<2x128xf32>
    graph.yield %3 : tensor<2x128xf32>
  }
  return %0, %2 : tensor<2x128xf32>, tensor<2x128xf32>
}
)mlir";
  Weights w(text, {"w_fc"}, 96 * 128, [](size_t i) { return float(i); });
  const void *original = w.data("w_fc");
  PassManager pm(&w.ctx, ModuleOp::getOperationName());
  REQUIRE(succeeded(parsePassPipeline(
      "convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits="
      "512 vector-registers=32 release-weights=true})",
      pm)));
  REQUIRE(succeeded(pm.run(*w.module)));
  size_t packed = 0;
  w.module->walk([&](arith::ConstantOp op) {
    if (auto attr = dyn_cast<DenseResourceElementsAttr>(op.getValue()))
      if (cast<ShapedType>(attr.getType()).getRank() == 3) {
        CHECK(attr.getRawHandle().getBlob()->getData().data() != original);
        ++packed;
      }
  });
  CHECK(packed == 2);
}

/// A 3x3 convolution of a [1, 32, 6, 6] input by the weight `name`
/// [outChannels, 32, 3, 3], then a relu.
static std::string convModule(const std::string &name, int64_t outChannels) {
  std::string w = "tensor<" + std::to_string(outChannels) + "x32x3x3xf32>";
  std::string y = "tensor<1x" + std::to_string(outChannels) + "x6x6xf32>";
  return "func.func @f(%x: tensor<1x32x6x6xf32>) -> " + y +
         " {\n  %w = graph.constant dense_resource<" + name + "> : " + w +
         "\n  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = "
         "array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : "
         "i64} : (tensor<1x32x6x6xf32>, " +
         w + ") -> " + y + "\n  %1 = graph.relu %0 : " + y +
         "\n  return %1 : " + y + "\n}\n";
}

/// Runs graph-block-channels (blocks of 16) on `text` and returns the
/// blocked filters' blobs, in program order.
static SmallVector<ArrayRef<char>> blockedFilters(Weights &w) {
  PassManager pm(&w.ctx, ModuleOp::getOperationName());
  REQUIRE(succeeded(parsePassPipeline("graph-block-channels{block=16}", pm)));
  REQUIRE(succeeded(pm.run(*w.module)));
  SmallVector<ArrayRef<char>> filters;
  w.module->walk([&](graph::Conv2DNchwcOp conv) {
    auto attr = cast<DenseResourceElementsAttr>(
        conv.getFilter().getDefiningOp<graph::ConstantOp>().getValue());
    filters.push_back(attr.getRawHandle().getBlob()->getData());
  });
  return filters;
}

/// Whether `blocked` is the [O/16, C/16, 3, 3, 16 (c), 16 (k)] layout of the
/// [O, C, 3, 3] filter whose element i is value(i).
static bool isBlockedFilter(ArrayRef<char> blocked, int64_t o, int64_t c,
                            function_ref<float(size_t)> value) {
  if (blocked.size() != size_t(o * c * 9 * sizeof(float)))
    return false;
  const auto *f = reinterpret_cast<const float *>(blocked.data());
  for (int64_t k = 0; k < o; ++k)
    for (int64_t j = 0; j < c; ++j)
      for (int64_t t = 0; t < 9; ++t)
        if (f[((((k / 16) * (c / 16) + j / 16) * 9 + t) * 16 + j % 16) * 16 +
              k % 16] != value((k * c + j) * 9 + t))
          return false;
  return true;
}

TEST_CASE("graph-block-channels blocks a filter only its convolution reads "
          "in the filter's own memory",
          "[weights]") {
  mlc::registerPassesAndPipelines();
  auto value = [](size_t i) { return float(i % 4099) * 0.25f - 3.0f; };
  Weights w(convModule("w_conv", 48).c_str(), {"w_conv"}, 48 * 32 * 9, value);
  const char *original = w.data("w_conv");
  SmallVector<ArrayRef<char>> filters = blockedFilters(w);
  REQUIRE(filters.size() == 1);
  CHECK(isBlockedFilter(filters[0], 48, 32, value));
  CHECK(filters[0].data() == original);
  CHECK(w.bytes("w_conv") == 0);
}

TEST_CASE("graph-block-channels copies a filter that is read elsewhere or "
          "padded",
          "[weights]") {
  mlc::registerPassesAndPipelines();
  auto value = [](size_t i) { return float(i % 1021) - 500.0f; };
  SECTION("two convolutions read the filter") {
    const char *text = R"mlir(
func.func @f(%x: tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32> {
  %w = graph.constant dense_resource<w_shared> : tensor<32x32x3x3xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32>
  %1 = graph.conv2d %0, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32>
  return %1 : tensor<1x32x6x6xf32>
}
)mlir";
    Weights w(text, {"w_shared"}, 32 * 32 * 9, value);
    const char *original = w.data("w_shared");
    SmallVector<ArrayRef<char>> filters = blockedFilters(w);
    REQUIRE(filters.size() == 2);
    for (ArrayRef<char> f : filters) {
      CHECK(isBlockedFilter(f, 32, 32, value));
      CHECK(f.data() != original);
    }
    // The original is intact: element i is still value(i).
    ArrayRef<char> kept = w.manager->lookup("w_shared")->getBlob()->getData();
    REQUIRE(kept.size() == 32 * 32 * 9 * sizeof(float));
    CHECK(reinterpret_cast<const float *>(kept.data())[12345 % (32 * 32 * 9)] ==
          value(12345 % (32 * 32 * 9)));
  }
  SECTION("the output channels are padded to a whole block") {
    Weights w(convModule("w_padded", 40).c_str(), {"w_padded"}, 40 * 32 * 9,
              value);
    const char *original = w.data("w_padded");
    SmallVector<ArrayRef<char>> filters = blockedFilters(w);
    REQUIRE(filters.size() == 1);
    // [3, 2, 3, 3, 16, 16]: the padded output channels 40-47 are zeros.
    REQUIRE(filters[0].size() == size_t(48 * 32 * 9 * sizeof(float)));
    CHECK(filters[0].data() != original);
    const auto *f = reinterpret_cast<const float *>(filters[0].data());
    CHECK(f[((((44 / 16) * 2 + 5 / 16) * 9 + 4) * 16 + 5) * 16 + 44 % 16] ==
          0.0f);
    CHECK(f[((((39 / 16) * 2 + 17 / 16) * 9 + 4) * 16 + 17 % 16) * 16 +
            39 % 16] == value((39 * 32 + 17) * 9 + 4));
  }
}

TEST_CASE("a blocked filter is packed for its kernel in its own memory too",
          "[weights]") {
  mlc::registerPassesAndPipelines();
  // The filter is rewritten twice, by graph-block-channels and by the
  // contraction kernel's packing, and stays in the memory the importer
  // gave it: the packed blob holds the same values in another order.
  std::string text = convModule("w_conv", 64);
  constexpr size_t kCount = 64 * 32 * 9;
  auto value = [](size_t i) { return float(i) * 0.5f; }; // all distinct
  for (bool release : {false, true}) {
    INFO("release-weights " << release);
    Weights w(text.c_str(), {"w_conv"}, kCount, value);
    const char *original = w.data("w_conv");
    PassManager pm(&w.ctx, ModuleOp::getOperationName());
    REQUIRE(succeeded(parsePassPipeline(
        "graph-block-channels{block=16},func.func(graph-form-fusion-groups),"
        "convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-"
        "bits=512 vector-registers=32 release-weights=" +
            std::string(release ? "true" : "false") + "})",
        pm)));
    REQUIRE(succeeded(pm.run(*w.module)));
    SmallVector<ArrayRef<char>> packed;
    w.module->walk([&](arith::ConstantOp op) {
      if (auto attr = dyn_cast<DenseResourceElementsAttr>(op.getValue()))
        if (attr.getRawHandle().getKey().starts_with("packed_weight"))
          packed.push_back(attr.getRawHandle().getBlob()->getData());
    });
    REQUIRE(packed.size() == 1);
    REQUIRE(packed[0].size() == kCount * sizeof(float));
    CHECK((packed[0].data() == original) == release);
    // Every value once: the packing is a permutation.
    const auto *f = reinterpret_cast<const float *>(packed[0].data());
    std::vector<float> sorted(f, f + kCount);
    std::sort(sorted.begin(), sorted.end());
    size_t wrong = 0;
    for (size_t i = 0; i < kCount; ++i)
      wrong += sorted[i] != value(i);
    CHECK(wrong == 0);
  }
}
