//===- CompilerTest.cpp - Catch2 tests of the compiler C++ API ------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "Support/DiagCollector.h"

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/ImportModel.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Target/ModelEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstring>

using namespace mlir;
using namespace mlc;

namespace {

using mlc::test::DiagCollector;

frontend::TensorDecl tensor(std::string name, std::vector<int64_t> shape,
                            std::string path) {
  frontend::TensorDecl t;
  t.name = std::move(name);
  t.shape = std::move(shape);
  t.path = std::move(path);
  return t;
}

frontend::WeightDecl weight(std::string name, std::vector<int64_t> shape,
                            float value) {
  frontend::WeightDecl w;
  w.name = name;
  w.shape = shape;
  w.path = "weights[" + name + "]";
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  w.data.resize(n * sizeof(float));
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(w.data.data() + i * sizeof(float), &value, sizeof(float));
  return w;
}

frontend::ModelSpec linearModel(int64_t k) {
  frontend::ModelSpec spec;
  spec.sourcePath = "linear.json";
  spec.inputs.push_back(tensor("x", {2, 8}, "inputs[0]"));
  spec.weights.push_back(weight("w", {k, 4}, 0.5f));
  frontend::NodeDecl mm;
  mm.op = "matmul";
  mm.inputs = {"x", "w"};
  mm.output = "y";
  mm.path = "nodes[0]";
  frontend::NodeDecl relu;
  relu.op = "relu";
  relu.inputs = {"y"};
  relu.output = "z";
  relu.path = "nodes[1]";
  spec.nodes = {mm, relu};
  spec.outputs.push_back({"z", "outputs[0]"});
  return spec;
}

MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    mlc::registerDialects(registry);
    auto *c = new MLIRContext(registry);
    c->loadDialect<graph::GraphDialect, func::FuncDialect>();
    mlc::registerPassesAndPipelines();
    return c;
  }();
  return *ctx;
}

} // namespace

TEST_CASE("numpy broadcasting of static shapes", "[graph]") {
  SmallVector<int64_t> out;
  REQUIRE(graph::broadcastShapes({2, 1, 4}, {3, 1}, out));
  CHECK(out == SmallVector<int64_t>{2, 3, 4});
  REQUIRE(graph::broadcastShapes({}, {5}, out));
  CHECK(out == SmallVector<int64_t>{5});
  CHECK_FALSE(graph::broadcastShapes({2, 3}, {4}, out));
  CHECK_FALSE(graph::broadcastShapes({2, 3}, {3, 3}, out));
}

TEST_CASE("inferAndSetResultTypes sets types or reports", "[graph]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  OpBuilder b(&ctx);
  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto f32 = b.getF32Type();
  auto a = graph::ConstantOp::create(
      b, loc, DenseElementsAttr::get(RankedTensorType::get({3, 1}, f32), 1.0f));
  auto c = graph::ConstantOp::create(
      b, loc, DenseElementsAttr::get(RankedTensorType::get({4}, f32), 2.0f));

  OperationState ok(loc, "graph.add");
  ok.addOperands({a, c});
  ok.addTypes(NoneType::get(&ctx));
  Operation *add = b.create(ok);
  REQUIRE(succeeded(graph::inferAndSetResultTypes(add)));
  CHECK(add->getResult(0).getType() == RankedTensorType::get({3, 4}, f32));

  OperationState bad(loc, "graph.matmul");
  bad.addOperands({a, c});
  bad.addTypes(NoneType::get(&ctx));
  Operation *mm = b.create(bad);
  CHECK(failed(graph::inferAndSetResultTypes(mm)));
  REQUIRE(diags.messages.size() == 1);
  CHECK_THAT(diags.messages[0], Catch::Contains("rank >= 2"));
}

TEST_CASE("importModel builds @main with named inputs and outputs",
          "[frontend]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  auto module = frontend::importModel(&ctx, linearModel(8));
  REQUIRE(module);
  CHECK(diags.messages.empty());
  auto func = module->lookupSymbol<func::FuncOp>("main");
  REQUIRE(func);
  CHECK(func.getArgAttrOfType<StringAttr>(0, "mlc.name").getValue() == "x");
  CHECK(func.getResultAttrOfType<StringAttr>(0, "mlc.name").getValue() == "z");
  CHECK(func.getResultTypes()[0] ==
        RankedTensorType::get({2, 4}, Float32Type::get(&ctx)));
  // The 32-element weight is a dense_resource blob, not a printed attribute.
  graph::ConstantOp cst;
  func.walk([&](graph::ConstantOp c) { cst = c; });
  REQUIRE(cst);
  CHECK(isa<DenseResourceElementsAttr>(cst.getValue()));
}

TEST_CASE("importModel reports shape errors at the node's JSON path",
          "[frontend]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  auto module = frontend::importModel(&ctx, linearModel(7));
  CHECK_FALSE(module);
  REQUIRE(diags.messages.size() == 1);
  CHECK_THAT(diags.messages[0], Catch::StartsWith("nodes[0] (matmul): "));
  CHECK_THAT(diags.messages[0], Catch::Contains("K = 8"));
  CHECK_THAT(diags.messages[0], Catch::Contains("K = 7"));
}

TEST_CASE("importModel reports bad attributes at their path", "[frontend]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  frontend::ModelSpec spec = linearModel(8);
  frontend::NodeDecl sm;
  sm.op = "softmax";
  sm.inputs = {"z"};
  sm.output = "p";
  sm.path = "nodes[2]";
  sm.attrs["axis"] = int64_t(2);
  spec.nodes.push_back(sm);
  CHECK_FALSE(frontend::importModel(&ctx, spec));
  REQUIRE(diags.messages.size() == 1);
  CHECK(diags.messages[0] ==
        "nodes[2].attrs.axis: axis 2 is out of range for rank 2");
}

TEST_CASE("CPU targets resolve and unknown CPUs are rejected", "[target]") {
  std::string error;
  auto generic = target::resolveCPUTarget("generic", error);
  REQUIRE(succeeded(generic));
  CHECK(generic->abiFeatures.find("avx2") == std::string::npos);
  auto native = target::resolveCPUTarget("native", error);
  REQUIRE(succeeded(native));
  CHECK_FALSE(native->cpu.empty());
  auto haswell = target::resolveCPUTarget("haswell", error);
  REQUIRE(succeeded(haswell));
  CHECK_THAT(haswell->abiFeatures, Catch::Contains("avx2"));
  CHECK_THAT(haswell->abiFeatures, Catch::Contains("fma"));
  CHECK(failed(target::resolveCPUTarget("no-such-cpu", error)));
  CHECK_THAT(error, Catch::Contains("unknown CPU 'no-such-cpu'"));
}

TEST_CASE("the CPU pipeline produces the model ABI in LLVM IR", "[pipeline]") {
  MLIRContext &ctx = context();
  auto module = frontend::importModel(&ctx, linearModel(8));
  REQUIRE(module);
  PassManager pm(&ctx);
  CPUPipelineOptions opts;
  opts.cpuFeatures = "sse4.2";
  REQUIRE(succeeded(buildCPUPipeline(pm, opts)));
  REQUIRE(succeeded(pm.run(*module)));
  std::string error;
  auto cpu = target::resolveCPUTarget("generic", error);
  REQUIRE(succeeded(cpu));
  llvm::LLVMContext llvmCtx;
  auto llvmModule = target::translateToLLVMIR(*module, llvmCtx, *cpu);
  REQUIRE(llvmModule);
  for (const char *sym :
       {"mlc_model_entry", "mlc_model_signature", "mlc_model_abi_version",
        "mlc_model_cpu_features", "mlc_model_workspace_bytes"}) {
    INFO(sym);
    CHECK(llvmModule->getFunction(sym) != nullptr);
  }
  REQUIRE(succeeded(target::optimize(*llvmModule, *cpu, 2, error)));
  CHECK(llvmModule->getFunction("mlc_model_entry") != nullptr);
}
