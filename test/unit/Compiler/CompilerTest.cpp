//===- CompilerTest.cpp - Catch2 tests of the compiler C++ API ------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "Support/DiagCollector.h"

#include "mlc/Compiler/Pipelines.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/JSON/ImportModel.h"
#include "mlc/Target/ModelEmitter.h"
#include "mlc/Transforms/Autodiff.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
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
  PipelineOptions opts;
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

//===----------------------------------------------------------------------===//
// Autodiff and training
//===----------------------------------------------------------------------===//

namespace {
/// func @f(%x: tensor<2x3xf32>, %w: tensor<3xf32>, %u: tensor<3xf32>)
///     -> tensor<f32> { reduce_sum(x * w) }   (u is unused)
func::FuncOp buildProduct(OpBuilder &b, ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  Location loc = UnknownLoc::get(ctx);
  auto f32 = b.getF32Type();
  auto x = RankedTensorType::get({2, 3}, f32), w = RankedTensorType::get({3}, f32);
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      b, loc, "f",
      b.getFunctionType({x, w, w}, {RankedTensorType::get({}, f32)}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value prod = graph::MulOp::create(b, loc, body->getArgument(0),
                                    body->getArgument(1));
  Value sum = graph::ReduceSumOp::create(b, loc, prod, ArrayRef<int64_t>{0, 1},
                                         false);
  func::ReturnOp::create(b, loc, sum);
  func.setArgAttr(1, "mlc.name", b.getStringAttr("w"));
  return func;
}
} // namespace

TEST_CASE("differentiate builds cotangents of the requested values",
          "[autodiff]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  func::FuncOp f = buildProduct(b, *module);
  Block &body = f.getBody().front();
  Operation *ret = body.getTerminator();
  b.setInsertionPoint(ret);
  Value seed = graph::ConstantOp::create(
      b, f.getLoc(),
      DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()), 1.0f));
  SmallVector<Value> grads;
  graph::GradientSeed seeds[] = {{ret->getOperand(0), seed}};
  REQUIRE(succeeded(graph::differentiate(
      b, body, {body.getArgument(0), body.getArgument(1), body.getArgument(2)},
      seeds, grads)));
  CHECK(diags.messages.empty());
  REQUIRE(grads.size() == 3);
  for (unsigned i = 0; i < 3; ++i)
    CHECK(grads[i].getType() == body.getArgument(i).getType());
  // d/dw sums the broadcast product over the batch: a reduction.
  Operation *dw = grads[1].getDefiningOp();
  REQUIRE(dw);
  bool reduces = false;
  for (Operation *op = dw; op; op = op->getNumOperands()
                                         ? op->getOperand(0).getDefiningOp()
                                         : nullptr)
    reduces |= isa<graph::ReduceSumOp>(op);
  CHECK(reduces);
  // The unused argument gets a zero constant.
  auto zero = grads[2].getDefiningOp<graph::ConstantOp>();
  REQUIRE(zero);
  auto attr = dyn_cast<DenseElementsAttr>(zero.getValue());
  REQUIRE(attr);
  CHECK(attr.isSplat());
  CHECK(attr.getSplatValue<float>() == 0.0f);
  CHECK(succeeded(verify(*module)));
}

TEST_CASE("buildGradientFunction adds the VJP function", "[autodiff]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  func::FuncOp f = buildProduct(b, *module);
  auto grad = graph::buildGradientFunction(f, {1}, "f_grad");
  REQUIRE(succeeded(grad));
  CHECK(grad->getSymName() == "f_grad");
  // (x, w, u, dresult) -> (result, dw)
  FunctionType type = grad->getFunctionType();
  REQUIRE(type.getNumInputs() == 4);
  CHECK(type.getInput(3) == RankedTensorType::get({}, b.getF32Type()));
  REQUIRE(type.getNumResults() == 2);
  CHECK(type.getResult(1) == f.getArgument(1).getType());
  auto name = grad->getResultAttrOfType<StringAttr>(1, "mlc.name");
  REQUIRE(name);
  CHECK(name.getValue() == "dw");
  CHECK(succeeded(verify(*module)));

  // An out-of-range argument is refused with a message.
  CHECK(failed(graph::buildGradientFunction(f, {7}, "bad")));
  CHECK_FALSE(diags.messages.empty());
}

TEST_CASE("an active value reaching an op without a rule is an error",
          "[autodiff]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  OpBuilder b(&ctx);
  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto t = RankedTensorType::get({3}, b.getF32Type());
  auto func =
      func::FuncOp::create(b, loc, "g", b.getFunctionType({t, t}, {t}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value m = graph::ModOp::create(b, loc, body->getArgument(0),
                                 body->getArgument(1), true);
  func::ReturnOp::create(b, loc, m);
  CHECK(failed(graph::buildGradientFunction(func, {0}, "g_grad")));
  REQUIRE_FALSE(diags.messages.empty());
  CHECK_THAT(diags.messages[0], Catch::Contains("graph.mod"));
}

TEST_CASE("importTrainingModel builds init, inference and the train step",
          "[training]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  frontend::ModelSpec spec = linearModel(8);
  spec.training.present = true;
  spec.training.batchSize = 5;
  spec.training.loss = frontend::TrainingSpec::Loss::MSE;
  spec.training.lossOutput = "z";
  spec.training.labels = "target";
  spec.training.optimizer = frontend::TrainingSpec::Optimizer::SGD;
  spec.training.lr = 0.1;
  spec.training.momentum = 0.5;
  auto module = frontend::importTrainingModel(&ctx, spec);
  REQUIRE(module);
  CHECK(diags.messages.empty());
  auto kind = [](func::FuncOp f, unsigned i, bool result) {
    auto a = result ? f.getResultAttrOfType<StringAttr>(i, "mlc.kind")
                    : f.getArgAttrOfType<StringAttr>(i, "mlc.kind");
    return a ? a.getValue().str() : std::string("in");
  };
  auto main = module->lookupSymbol<func::FuncOp>("main");
  auto train = module->lookupSymbol<func::FuncOp>("train_step");
  auto init = module->lookupSymbol<func::FuncOp>("init");
  REQUIRE(main);
  REQUIRE(train);
  REQUIRE(init);
  // main(w, x) -> z
  REQUIRE(main.getNumArguments() == 2);
  CHECK(kind(main, 0, false) == "param");
  CHECK(kind(main, 1, false) == "in");
  // train_step(w, w.velocity, x[5, 8], target[5, 4])
  //   -> (loss, w', w.velocity')
  REQUIRE(train.getNumArguments() == 4);
  CHECK(kind(train, 0, false) == "param");
  CHECK(kind(train, 1, false) == "state");
  CHECK(train.getArgAttrOfType<StringAttr>(1, "mlc.name").getValue() ==
        "w.velocity");
  CHECK(train.getArgument(2).getType() ==
        RankedTensorType::get({5, 8}, Float32Type::get(&ctx)));
  CHECK(train.getArgAttrOfType<StringAttr>(3, "mlc.name").getValue() ==
        "target");
  REQUIRE(train.getNumResults() == 3);
  CHECK(kind(train, 0, true) == "out");
  CHECK(kind(train, 1, true) == "update");
  CHECK(kind(train, 2, true) == "update");
  size_t updates = 0;
  train.walk([&](graph::SGDUpdateOp) { ++updates; });
  CHECK(updates == 1);
  // init() -> (w, w.velocity): the weight's data and zeros
  CHECK(init.getNumArguments() == 0);
  CHECK(init.getNumResults() == 2);

  // Without the section: an error, no module.
  DiagCollector more(&ctx);
  CHECK_FALSE(frontend::importTrainingModel(&ctx, linearModel(8)));
  REQUIRE(more.messages.size() == 1);
  CHECK_THAT(more.messages[0], Catch::Contains("no 'training' section"));
}

TEST_CASE("importModel can take weights as arguments", "[frontend]") {
  MLIRContext &ctx = context();
  DiagCollector diags(&ctx);
  auto module = frontend::importModel(&ctx, linearModel(8), {"w"});
  REQUIRE(module);
  auto main = module->lookupSymbol<func::FuncOp>("main");
  REQUIRE(main.getNumArguments() == 2);
  CHECK(main.getArgAttrOfType<StringAttr>(0, "mlc.name").getValue() == "w");
  CHECK(main.getArgAttrOfType<StringAttr>(1, "mlc.name").getValue() == "x");
  size_t constants = 0;
  main.walk([&](graph::ConstantOp) { ++constants; });
  CHECK(constants == 0);
  CHECK_FALSE(frontend::importModel(&ctx, linearModel(8), {"nope"}));
  CHECK_THAT(diags.messages.back(), Catch::Contains("no weight named 'nope'"));
}

TEST_CASE("mlc-release-dead-weights frees exactly the unreferenced blobs",
          "[weights]") {
  // Its own context: the pass frees every blob no op of the module names.
  DialectRegistry registry;
  mlc::registerDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadDialect<graph::GraphDialect, func::FuncDialect>();
  const char *text = R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = graph.constant dense_resource<w_live> : tensor<4xf32>
  %0 = graph.add %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: { builtin: {
    w_live: "0x04000000000000000000803F0000004000004040",
    w_dead: "0x04000000000000000000803F0000004000004040" } }
#-}
)mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  REQUIRE(module);
  auto &manager =
      DenseResourceElementsHandle::getManagerInterface(&ctx).getBlobManager();
  auto bytes = [&](StringRef name) {
    auto *entry = manager.lookup(name);
    return entry && entry->getBlob() ? entry->getBlob()->getData().size()
                                     : size_t(0);
  };
  REQUIRE(bytes("w_dead") == 16);
  PassManager pm(&ctx);
  pm.addPass(graph::createReleaseDeadWeights());
  REQUIRE(succeeded(pm.run(*module)));
  CHECK(bytes("w_live") == 16);
  CHECK(bytes("w_dead") == 0);
}
