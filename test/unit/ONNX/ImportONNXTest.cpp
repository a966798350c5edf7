//===- ImportONNXTest.cpp - Unit tests of the ONNX importer ---------------===//
//
// importONNX on small models written with the ONNX protobuf API: the @main
// signature, --input-shape and --bind (ONNXImportOptions), the diagnostics
// for unsupported operators and attributes, import-time folding of shape
// chains; parseShapeSpec and printSupportedONNXOps.
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "Support/DiagCollector.h"
#include "TestModels.h"
#include "mlc/Frontend/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace onnxtest;
using namespace mlir;
using mlc::frontend::importONNX;
using mlc::frontend::ONNXImportOptions;
using mlc::frontend::parseShapeSpec;
using mlc::frontend::printSupportedONNXOps;

namespace {

using mlc::test::DiagCollector;

/// image [1,3,8,8] -> Conv(4 filters, 3x3, pad 1) -> Relu
///   -> GlobalAveragePool -> Flatten -> Gemm(4 -> 2) -> logits [1,2].
/// `batch` < 0 makes the batch dimension symbolic ("N").
pb::ModelProto convNet(int64_t batch = 1) {
  pb::ModelProto m = makeModel(13, "convnet");
  auto *g = m.mutable_graph();
  addInput(g, "image", pb::TensorProto::FLOAT, {batch, 3, 8, 8});
  // IR < 4 style: the weights are listed as inputs too; they stay weights.
  addInput(g, "conv.w", pb::TensorProto::FLOAT, {4, 3, 3, 3});
  *g->add_initializer() = floatTensor("conv.w", {4, 3, 3, 3}, ramp(108));
  *g->add_initializer() = floatTensor("conv.b", {4}, {0.1f, 0.2f, 0.3f, 0.4f});
  *g->add_initializer() = floatTensor("fc.w", {2, 4}, ramp(8));
  *g->add_initializer() = floatTensor("fc.b", {2}, {1.0f, -1.0f});
  auto *conv = addNode(g, "Conv", {"image", "conv.w", "conv.b"}, {"c"},
                       "conv1");
  attrInts(conv, "kernel_shape", {3, 3});
  attrInts(conv, "pads", {1, 1, 1, 1});
  attrInts(conv, "strides", {1, 1});
  addNode(g, "Relu", {"c"}, {"r"});
  addNode(g, "GlobalAveragePool", {"r"}, {"p"});
  auto *flat = addNode(g, "Flatten", {"p"}, {"f"});
  attrInt(flat, "axis", 1);
  auto *gemm = addNode(g, "Gemm", {"f", "fc.w", "fc.b"}, {"logits"}, "fc");
  attrInt(gemm, "transB", 1);
  attrFloat(gemm, "alpha", 1.0f);
  addOutput(g, "logits", pb::TensorProto::FLOAT, {batch, 2});
  return m;
}

func::FuncOp mainOf(ModuleOp module) {
  auto f = module.lookupSymbol<func::FuncOp>("main");
  REQUIRE(f);
  return f;
}

std::string argName(func::FuncOp f, unsigned i) {
  auto a = f.getArgAttrOfType<StringAttr>(i, "mlc.name");
  return a ? a.str() : "<none>";
}

std::string resultName(func::FuncOp f, unsigned i) {
  auto a = f.getResultAttrOfType<StringAttr>(i, "mlc.name");
  return a ? a.str() : "<none>";
}

/// Number of ops named `name` ("graph.gather") in the module.
int countOps(ModuleOp module, StringRef name) {
  int n = 0;
  module.walk([&](Operation *op) {
    if (op->getName().getStringRef() == name)
      ++n;
  });
  return n;
}

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// importONNX
//===----------------------------------------------------------------------===//

TEST_CASE("importONNX imports a Conv/Relu/Gemm model", "[onnx][import]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  std::string path = writeModel("convnet.onnx", convNet());
  auto module = importONNX(&ctx, path);
  INFO(diags.all());
  REQUIRE(module);
  CHECK(diags.messages.empty());

  auto modelName = (*module)->getAttrOfType<StringAttr>("mlc.model_name");
  REQUIRE(modelName);
  CHECK(modelName.str() == "convnet");

  func::FuncOp f = mainOf(*module);
  FunctionType type = f.getFunctionType();
  auto f32 = Float32Type::get(&ctx);
  // conv.w is listed as a graph input but is an initializer: one argument.
  REQUIRE(type.getNumInputs() == 1);
  REQUIRE(type.getNumResults() == 1);
  CHECK(argName(f, 0) == "image");
  CHECK(resultName(f, 0) == "logits");
  CHECK(type.getInput(0) == RankedTensorType::get({1, 3, 8, 8}, f32));
  CHECK(type.getResult(0) == RankedTensorType::get({1, 2}, f32));
  CHECK(typeString(type.getInput(0)) == "tensor<1x3x8x8xf32>");

  CHECK(countOps(*module, "graph.conv2d") == 1);
  CHECK(countOps(*module, "graph.relu") == 1);
  CHECK(countOps(*module, "graph.global_avgpool") == 1);
  CHECK(countOps(*module, "graph.matmul") == 1);
  CHECK(countOps(*module, "func.return") == 1);
}

TEST_CASE("importONNX needs static shapes for dynamic dimensions",
          "[onnx][import][shapes]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  std::string path = writeModel("convnet-dyn.onnx", convNet(-1));

  SECTION("without options: an error suggesting --input-shape") {
    auto module = importONNX(&ctx, path);
    CHECK_FALSE(module);
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "input 'image': has a dynamic dimension 'N' (dim 0); mlc compiles "
          "static shapes: pass --input-shape image=1x3x8x8");
  }
  SECTION("with options.inputShapes") {
    ONNXImportOptions options;
    options.inputShapes["image"] = {2, 3, 8, 8};
    auto module = importONNX(&ctx, path, options);
    INFO(diags.all());
    REQUIRE(module);
    CHECK(diags.messages.empty());
    func::FuncOp f = mainOf(*module);
    auto f32 = Float32Type::get(&ctx);
    REQUIRE(f.getNumArguments() == 1);
    CHECK(argName(f, 0) == "image");
    CHECK(f.getFunctionType().getInput(0) ==
          RankedTensorType::get({2, 3, 8, 8}, f32));
    REQUIRE(f.getNumResults() == 1);
    CHECK(resultName(f, 0) == "logits");
    CHECK(f.getFunctionType().getResult(0) ==
          RankedTensorType::get({2, 2}, f32));
  }
  SECTION("inputShapes that contradict a static dimension") {
    ONNXImportOptions options;
    options.inputShapes["image"] = {2, 1, 8, 8};
    CHECK_FALSE(importONNX(&ctx, path, options));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "input 'image': has static dimension 3 at dim "
                               "1 but --input-shape gives 1");
  }
  SECTION("inputShapes of the wrong rank") {
    ONNXImportOptions options;
    options.inputShapes["image"] = {2, 3, 64};
    CHECK_FALSE(importONNX(&ctx, path, options));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "input 'image': has rank 4 but --input-shape gives [2, 3, 64]");
  }
  SECTION("inputShapes for an input the model does not have") {
    ONNXImportOptions options;
    options.inputShapes["image"] = {1, 3, 8, 8};
    options.inputShapes["img"] = {1, 3, 8, 8};
    CHECK_FALSE(importONNX(&ctx, path, options));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "--input-shape img: the model has no graph "
                               "input named 'img'");
  }
}

TEST_CASE("importONNX reports a file that is not a model",
          "[onnx][import]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  CHECK_FALSE(importONNX(&ctx, writeBytes("empty-import.onnx", "")));
  REQUIRE(diags.messages.size() == 1);
  CHECK(diags.messages[0] == "empty file, not an ONNX model");
}

namespace {

/// x [2,3,4] float, shape [2] int64 -> Reshape(x, shape) -> y.
pb::ModelProto reshapeByInput() {
  pb::ModelProto m = makeModel(13, "reshape");
  auto *g = m.mutable_graph();
  addInput(g, "x", pb::TensorProto::FLOAT, {2, 3, 4});
  addInput(g, "shape", pb::TensorProto::INT64, {2});
  addNode(g, "Reshape", {"x", "shape"}, {"y"});
  setTensorType(g->add_output(), "y", pb::TensorProto::FLOAT, {},
                /*withShape=*/false);
  return m;
}

} // namespace

TEST_CASE("importONNX bindings turn graph inputs into constants",
          "[onnx][import][bind]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  std::string path = writeModel("reshape-input.onnx", reshapeByInput());

  SECTION("unbound: the error names the --bind to pass") {
    CHECK_FALSE(importONNX(&ctx, path));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'Reshape_0' (Reshape): input #1 (shape) must be a "
          "compile-time constant for mlc's static shapes, but it depends on "
          "graph input 'shape'; freeze it with --bind shape=FILE (a .pb "
          "TensorProto)");
  }
  SECTION("bound to a .pb tensor") {
    ONNXImportOptions options;
    options.bindings["shape"] =
        writeTensor("shape-6x4.pb", int64Tensor("shape", {2}, {6, 4}));
    auto module = importONNX(&ctx, path, options);
    INFO(diags.all());
    REQUIRE(module);
    CHECK(diags.messages.empty());
    func::FuncOp f = mainOf(*module);
    // One argument fewer: 'shape' became a constant.
    REQUIRE(f.getNumArguments() == 1);
    CHECK(argName(f, 0) == "x");
    CHECK(f.getFunctionType().getInput(0) ==
          RankedTensorType::get({2, 3, 4}, Float32Type::get(&ctx)));
    REQUIRE(f.getNumResults() == 1);
    CHECK(resultName(f, 0) == "y");
    CHECK(f.getFunctionType().getResult(0) ==
          RankedTensorType::get({6, 4}, Float32Type::get(&ctx)));
    CHECK(countOps(*module, "graph.reshape") == 1);
  }
  SECTION("bound with a -1 entry") {
    ONNXImportOptions options;
    options.bindings["shape"] =
        writeTensor("shape-m1.pb", int64Tensor("shape", {2}, {-1, 2}));
    auto module = importONNX(&ctx, path, options);
    INFO(diags.all());
    REQUIRE(module);
    CHECK(mainOf(*module).getFunctionType().getResult(0) ==
          RankedTensorType::get({12, 2}, Float32Type::get(&ctx)));
  }
  SECTION("bound to a tensor of the wrong type") {
    ONNXImportOptions options;
    std::string file =
        writeTensor("shape-f32.pb", floatTensor("shape", {2}, {6, 4}));
    options.bindings["shape"] = file;
    CHECK_FALSE(importONNX(&ctx, path, options));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "input 'shape': is declared INT64 but '" +
                                   file + "' holds FLOAT");
  }
  SECTION("bound to a missing file") {
    ONNXImportOptions options;
    std::string file = scratch("no-such-tensor.pb");
    options.bindings["shape"] = file;
    CHECK_FALSE(importONNX(&ctx, path, options));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "input 'shape': cannot bind '" + file +
              "': cannot open file: No such file or directory");
  }
  SECTION("bound to a file that is not a .pb") {
    // docs/onnx.md documents --bind NAME=FILE.pb only.
    ONNXImportOptions options;
    options.bindings["shape"] = scratch("shape.npy");
    CHECK_FALSE(importONNX(&ctx, path, options));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "input 'shape': cannot bind '" +
                                   scratch("shape.npy") +
                                   "': --bind expects a .pb TensorProto file");
  }
  SECTION("binding an input the model does not have") {
    ONNXImportOptions options;
    options.bindings["shape"] =
        writeTensor("shape-6x4b.pb", int64Tensor("shape", {2}, {6, 4}));
    options.bindings["shapes"] = options.bindings["shape"];
    CHECK_FALSE(importONNX(&ctx, path, options));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "--bind shapes: the model has no graph input named 'shapes'");
  }
}

TEST_CASE("importONNX refuses a binding whose shape contradicts the input",
          "[onnx][import][bind]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  std::string path = writeModel("reshape-input-b.onnx", reshapeByInput());
  ONNXImportOptions options;
  options.bindings["shape"] =
      writeTensor("shape-3.pb", int64Tensor("shape", {3}, {2, 3, 4}));
  CHECK_FALSE(importONNX(&ctx, path, options));
  INFO(diags.all());
  REQUIRE(diags.messages.size() == 1);
  CHECK(llvm::StringRef(diags.messages[0]).starts_with("input 'shape': "));
}

TEST_CASE("importONNX binds an input that has an initializer default",
          "[onnx][import][bind]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  pb::ModelProto m = reshapeByInput();
  *m.mutable_graph()->add_initializer() = int64Tensor("shape", {2}, {4, 6});
  ONNXImportOptions options;
  options.bindings["shape"] =
      writeTensor("shape-6x4c.pb", int64Tensor("shape", {2}, {6, 4}));
  auto module =
      importONNX(&ctx, writeModel("reshape-default.onnx", m), options);
  INFO(diags.all());
  REQUIRE(module);
  CHECK(mainOf(*module).getFunctionType().getResult(0) ==
        RankedTensorType::get({6, 4}, Float32Type::get(&ctx)));
}

TEST_CASE("importONNX refuses unknown operators and attributes",
          "[onnx][import][unsupported]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);

  SECTION("unknown operator") {
    pb::ModelProto m = makeModel(13);
    auto *g = m.mutable_graph();
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 2});
    addNode(g, "FooBar", {"x"}, {"y"}, "n0");
    addOutput(g, "y", pb::TensorProto::FLOAT, {2, 2});
    CHECK_FALSE(importONNX(&ctx, writeModel("foobar.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "node 'n0' (FooBar): unsupported ONNX "
                               "operator 'FooBar' (opset 13) at node 'n0'");
  }
  SECTION("operator of another domain") {
    pb::ModelProto m = makeModel(13);
    auto *op = m.add_opset_import();
    op->set_domain("com.microsoft");
    op->set_version(1);
    auto *g = m.mutable_graph();
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 2});
    addNode(g, "FusedGemm", {"x"}, {"y"})->set_domain("com.microsoft");
    addOutput(g, "y", pb::TensorProto::FLOAT, {2, 2});
    CHECK_FALSE(importONNX(&ctx, writeModel("msdomain.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'FusedGemm_0' (FusedGemm): unsupported ONNX operator "
          "'FusedGemm' (domain 'com.microsoft', opset 1) at node "
          "'FusedGemm_0'");
  }
  SECTION("training-domain optimizers") {
    pb::ModelProto m = makeModel(13);
    auto *op = m.add_opset_import();
    op->set_domain("ai.onnx.preview.training");
    op->set_version(1);
    auto *g = m.mutable_graph();
    addInput(g, "r", pb::TensorProto::FLOAT, {});
    addInput(g, "t", pb::TensorProto::INT64, {});
    for (const char *name : {"x", "grad", "v"})
      addInput(g, name, pb::TensorProto::FLOAT, {3});
    pb::NodeProto *node = addNode(g, "Momentum", {"r", "t", "x", "grad", "v"},
                                  {"x_new", "v_new"});
    node->set_domain("ai.onnx.preview.training");
    attrFloat(node, "alpha", 0.9f);
    attrFloat(node, "beta", 0.1f);
    attrFloat(node, "norm_coefficient", 0.0f);
    addOutput(g, "x_new", pb::TensorProto::FLOAT, {3});
    addOutput(g, "v_new", pb::TensorProto::FLOAT, {3});
    SECTION("a mode it knows") {
      attrString(node, "mode", "nesterov");
      CHECK(importONNX(&ctx, writeModel("momentum.onnx", m)));
      CHECK(diags.messages.empty());
    }
    SECTION("a mode it does not know") {
      attrString(node, "mode", "heavy-ball");
      CHECK_FALSE(importONNX(&ctx, writeModel("momentum-bad.onnx", m)));
      REQUIRE(diags.messages.size() == 1);
      CHECK(diags.messages[0] ==
            "node 'Momentum_0' (Momentum): mode must be \"standard\" or "
            "\"nesterov\", got \"heavy-ball\"");
    }
    SECTION("a state tensor missing") {
      attrString(node, "mode", "standard");
      node->mutable_input()->RemoveLast();
      CHECK_FALSE(importONNX(&ctx, writeModel("momentum-short.onnx", m)));
      REQUIRE(diags.messages.size() == 1);
      CHECK(diags.messages[0] ==
            "node 'Momentum_0' (Momentum): needs at least 5 inputs, input #4 "
            "is missing");
    }
  }
  SECTION("an ai.onnx operator name in another domain") {
    pb::ModelProto m = makeModel(13);
    auto *op = m.add_opset_import();
    op->set_domain("ai.onnx.preview.training");
    op->set_version(1);
    auto *g = m.mutable_graph();
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    addNode(g, "Relu", {"x"}, {"y"})->set_domain("ai.onnx.preview.training");
    addOutput(g, "y", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("relu-training.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'Relu_0' (Relu): unsupported ONNX operator 'Relu' (domain "
          "'ai.onnx.preview.training', opset 1) at node 'Relu_0'");
  }
  SECTION("unknown attribute on a known operator") {
    pb::ModelProto m = makeModel(13);
    auto *g = m.mutable_graph();
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 2});
    attrFloat(addNode(g, "Relu", {"x"}, {"y"}, "relu0"), "alpha", 0.1f);
    addOutput(g, "y", pb::TensorProto::FLOAT, {2, 2});
    CHECK_FALSE(importONNX(&ctx, writeModel("reluattr.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'relu0' (Relu): unsupported attribute 'alpha' in ONNX "
          "operator 'Relu' (opset 13) at node 'relu0'");
  }
  SECTION("a known attribute of the wrong kind") {
    pb::ModelProto m = makeModel(13);
    auto *g = m.mutable_graph();
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 3});
    attrFloat(addNode(g, "Flatten", {"x"}, {"y"}), "axis", 1.0f);
    addOutput(g, "y", pb::TensorProto::FLOAT, {2, 3});
    CHECK_FALSE(importONNX(&ctx, writeModel("flattenattr.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "node 'Flatten_0' (Flatten): attribute 'axis' "
                               "must be an integer, got a float");
  }
  SECTION("an opset above 17") {
    pb::ModelProto m = makeModel(99);
    auto *g = m.mutable_graph();
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("opset99.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "unsupported ai.onnx opset 99 (mlc supports opsets 1 to 17)");
  }
}

TEST_CASE("importONNX reports graph structure errors where they are",
          "[onnx][import][graph]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  pb::ModelProto m = makeModel(13);
  auto *g = m.mutable_graph();

  SECTION("an input without shape") {
    setTensorType(g->add_input(), "x", pb::TensorProto::FLOAT, {},
                  /*withShape=*/false);
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("noshape.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "input 'x': has no shape in the model; give it one with "
          "--input-shape x=1x3x224x224 (for example)");
  }
  SECTION("an unnamed dynamic dimension") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 5});
    g->mutable_input(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(1)
        ->clear_dim_value();
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {2, 5});
    CHECK_FALSE(importONNX(&ctx, writeModel("unnameddim.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "input 'x': has a dynamic dimension (dim 1); mlc compiles static "
          "shapes: pass --input-shape x=2x1");
  }
  SECTION("an input of an unsupported element type") {
    // Complex numbers have no graph type.
    addInput(g, "x", pb::TensorProto::COMPLEX64, {2});
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::COMPLEX64, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("c64input.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "input 'x': has unsupported dtype COMPLEX64");
  }
  SECTION("unsigned integers where an op has no unsigned form") {
    addInput(g, "x", pb::TensorProto::UINT16, {2});
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::UINT16, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("u16relu.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'Relu_0' (Relu): unsupported dtype UINT16 (unsigned "
          "integers go through casts, layout ops, add/sub/mul/div/mod, "
          "max/min, comparisons, shifts and the quantized ops) in ONNX "
          "operator 'Relu' (opset 13) at node 'Relu_0'");
  }
  SECTION("unsigned integers in arithmetic and shifts") {
    addInput(g, "x", pb::TensorProto::UINT32, {2});
    addInput(g, "s", pb::TensorProto::UINT32, {2});
    attrString(addNode(g, "BitShift", {"x", "s"}, {"t"}), "direction", "RIGHT");
    addNode(g, "Div", {"t", "x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::UINT32, {2});
    auto module = importONNX(&ctx, writeModel("u32.onnx", m));
    REQUIRE(module);
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    CHECK(text.find("graph.shift_right") != std::string::npos);
    CHECK(text.find("(tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>") !=
          std::string::npos);
  }
  SECTION("a 3-D convolution becomes a 2-D one over depth-stacked channels") {
    addInput(g, "x", pb::TensorProto::FLOAT, {1, 4, 3, 5, 5});
    addInput(g, "w", pb::TensorProto::FLOAT, {2, 4, 2, 3, 3});
    addNode(g, "Conv", {"x", "w"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {1, 2, 2, 3, 3});
    auto module = importONNX(&ctx, writeModel("conv3d.onnx", m));
    REQUIRE(module);
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    // Two depth taps of 4 channels, over the batch of 1 x 2 output depths.
    CHECK(text.find("graph.conv2d") != std::string::npos);
    CHECK(text.find("(tensor<2x8x5x5xf32>, tensor<2x8x3x3xf32>) -> "
                    "tensor<2x2x3x3xf32>") != std::string::npos);
  }
  SECTION("a 3-D convolution whose filter has other channels") {
    addInput(g, "x", pb::TensorProto::FLOAT, {1, 4, 3, 5, 5});
    addInput(g, "w", pb::TensorProto::FLOAT, {2, 3, 1, 1, 1});
    addNode(g, "Conv", {"x", "w"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {1, 2, 3, 5, 5});
    CHECK_FALSE(importONNX(&ctx, writeModel("conv3d-bad.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "node 'Conv_0' (Conv): input has 4 channels "
                               "but the filter expects 3 per group of 1");
  }
  SECTION("a determinant of a matrix too large to expand") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 5, 5});
    addNode(g, "Det", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("det5.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'Det_0' (Det): unsupported matrices larger than 4x4 in ONNX "
          "operator 'Det' (opset 13) at node 'Det_0'");
  }
  SECTION("a DFT over the complex axis") {
    pb::ModelProto m17 = makeModel(17);
    auto *g17 = m17.mutable_graph();
    addInput(g17, "x", pb::TensorProto::FLOAT, {1, 8, 2});
    attrInt(addNode(g17, "DFT", {"x"}, {"y"}), "axis", 2);
    addOutput(g17, "y", pb::TensorProto::FLOAT, {1, 8, 2});
    CHECK_FALSE(importONNX(&ctx, writeModel("dft-axis.onnx", m17)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "node 'DFT_0' (DFT): axis 2 is not a signal "
                               "axis of a rank-3 input");
  }
  SECTION("a BitShift without a direction it knows") {
    addInput(g, "x", pb::TensorProto::UINT8, {2});
    attrString(addNode(g, "BitShift", {"x", "x"}, {"y"}), "direction", "UP");
    addOutput(g, "y", pb::TensorProto::UINT8, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("shiftup.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "node 'BitShift_0' (BitShift): direction "
                               "must be \"LEFT\" or \"RIGHT\", got \"UP\"");
  }
  SECTION("an output declared with another element type") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 2});
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::INT64, {2, 2});
    CHECK_FALSE(importONNX(&ctx, writeModel("outtype.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "output 'y': is declared INT64 but computes 'f32'");
  }
  SECTION("an output declared with another shape") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2, 2});
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {3, -1});
    CHECK_FALSE(importONNX(&ctx, writeModel("outshape.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "output 'y': is declared with shape [3, N] but computes [2, 2]");
  }
  SECTION("an output nothing produces") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    addNode(g, "Relu", {"x"}, {"y"});
    addOutput(g, "z", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("nooutput.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "output 'z': is not produced by any node, initializer or input");
  }
  SECTION("no outputs") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("zerooutputs.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] == "the graph has no outputs");
  }
  SECTION("an undefined node input") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    addNode(g, "Relu", {"nope"}, {"y"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("undefined.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'Relu_0' (Relu): input 'nope' of node 'Relu_0' is not "
          "produced by any node, initializer or graph input");
  }
  SECTION("a value produced twice") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    addNode(g, "Relu", {"x"}, {"y"});
    addNode(g, "Neg", {"x"}, {"y"}, "neg");
    addOutput(g, "y", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("twice.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'neg' (Neg): output 'y' is already produced by node "
          "'Relu_0'; value names must be unique");
  }
  SECTION("a cycle") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    addNode(g, "Add", {"x", "b"}, {"a"});
    addNode(g, "Relu", {"a"}, {"b"});
    addOutput(g, "b", pb::TensorProto::FLOAT, {2});
    CHECK_FALSE(importONNX(&ctx, writeModel("cycle.onnx", m)));
    REQUIRE(diags.messages.size() == 1);
    CHECK(diags.messages[0] ==
          "node 'Add_0' (Add): the graph has a cycle through node 'Add_0'");
  }
  SECTION("nodes out of file order are sorted") {
    addInput(g, "x", pb::TensorProto::FLOAT, {2});
    addNode(g, "Neg", {"a"}, {"y"});
    addNode(g, "Relu", {"x"}, {"a"});
    addOutput(g, "y", pb::TensorProto::FLOAT, {2});
    auto module = importONNX(&ctx, writeModel("unsorted.onnx", m));
    INFO(diags.all());
    REQUIRE(module);
    CHECK(countOps(*module, "graph.relu") == 1);
    CHECK(countOps(*module, "graph.neg") == 1);
  }
}

TEST_CASE("importONNX folds a Shape->Gather->Unsqueeze->Concat->Reshape chain",
          "[onnx][import][fold]") {
  MLIRContext ctx;
  DiagCollector diags(&ctx);
  // y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])):
  // [2,3,4] -> [2,12], the PyTorch-exported flatten.
  pb::ModelProto m = makeModel(13, "shapechain");
  auto *g = m.mutable_graph();
  addInput(g, "x", pb::TensorProto::FLOAT, {2, 3, 4});
  *g->add_initializer() = int64Tensor("zero", {}, {0});
  *g->add_initializer() = int64Tensor("axes0", {1}, {0});
  *g->add_initializer() = int64Tensor("minus1", {1}, {-1});
  addNode(g, "Shape", {"x"}, {"s"});
  attrInt(addNode(g, "Gather", {"s", "zero"}, {"batch"}), "axis", 0);
  addNode(g, "Unsqueeze", {"batch", "axes0"}, {"batch1"});
  attrInt(addNode(g, "Concat", {"batch1", "minus1"}, {"newshape"}), "axis",
          0);
  addNode(g, "Reshape", {"x", "newshape"}, {"y"}, "flatten");
  addOutput(g, "y", pb::TensorProto::FLOAT, {2, 12});

  auto module = importONNX(&ctx, writeModel("shapechain.onnx", m));
  INFO(diags.all());
  REQUIRE(module);
  CHECK(diags.messages.empty());
  CHECK(countOps(*module, "graph.gather") == 0);
  CHECK(countOps(*module, "graph.concat") == 0);
  REQUIRE(countOps(*module, "graph.reshape") == 1);
  // Nothing of the int64 shape computation is left.
  int i64Values = 0;
  module->walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (auto tt = dyn_cast<RankedTensorType>(t))
        i64Values += tt.getElementType().isInteger(64);
  });
  CHECK(i64Values == 0);

  auto f32 = Float32Type::get(&ctx);
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() != "graph.reshape")
      return;
    REQUIRE(op->getNumResults() == 1);
    CHECK(op->getResult(0).getType() == RankedTensorType::get({2, 12}, f32));
    CHECK(isa<BlockArgument>(op->getOperand(0)));
  });
  func::FuncOp f = mainOf(*module);
  REQUIRE(f.getNumArguments() == 1);
  CHECK(f.getFunctionType().getResult(0) ==
        RankedTensorType::get({2, 12}, f32));
}

//===----------------------------------------------------------------------===//
// parseShapeSpec
//===----------------------------------------------------------------------===//

TEST_CASE("parseShapeSpec", "[onnx][shape-spec]") {
  std::vector<int64_t> shape = {99};
  CHECK(parseShapeSpec("1x3x224x224", shape));
  CHECK(shape == std::vector<int64_t>{1, 3, 224, 224});
  CHECK(parseShapeSpec("7", shape));
  CHECK(shape == std::vector<int64_t>{7});

  shape = {99};
  CHECK(parseShapeSpec("", shape)); // a scalar
  CHECK(shape.empty());

  for (const char *bad : {"1x", "ax2", "0x3", "-1", "x2", "1xx2", "2x-1",
                          "1.5", "1X2", " 1"}) {
    INFO("spec: '" << bad << "'");
    CHECK_FALSE(parseShapeSpec(bad, shape));
  }
}

//===----------------------------------------------------------------------===//
// printSupportedONNXOps
//===----------------------------------------------------------------------===//

TEST_CASE("printSupportedONNXOps writes a sorted markdown table",
          "[onnx][supported-ops]") {
  std::string text;
  llvm::raw_string_ostream os(text);
  printSupportedONNXOps(os);
  os.flush();

  CHECK(llvm::StringRef(text).starts_with("# Supported ONNX operators\n"));
  CHECK(text.find("| operator | opsets | attributes | limits |\n"
                  "|---|---|---|---|\n") != std::string::npos);

  std::vector<std::string> ops;
  std::map<std::string, std::string> rows;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n');
  bool inTable = false;
  for (llvm::StringRef line : lines) {
    if (line.starts_with("|---")) {
      inTable = true;
      continue;
    }
    if (!inTable || !line.starts_with("| "))
      continue;
    // "| Conv | 1-17 | auto_pad dilations ... | limits |": 5 pipes.
    CHECK(std::count(line.begin(), line.end(), '|') == 5);
    llvm::StringRef op = line.drop_front(2).split(" |").first;
    ops.push_back(op.str());
    rows[op.str()] = line.str();
  }
  REQUIRE(ops.size() > 100);
  CHECK(std::is_sorted(ops.begin(), ops.end()));

  REQUIRE(rows.count("Conv"));
  CHECK(rows["Conv"].find("| Conv | 1-17 | ") == 0);
  CHECK(rows["Conv"].find("kernel_shape") != std::string::npos);
  CHECK(rows["Conv"].find("pads") != std::string::npos);
  REQUIRE(rows.count("Gemm"));
  CHECK(rows["Gemm"].find("alpha beta transA transB") != std::string::npos);
  REQUIRE(rows.count("Resize"));
  CHECK(rows["Resize"].find("| Resize | 11-17 | ") == 0);
  CHECK(rows.count("Relu"));
  CHECK(rows.count("Reshape"));
  CHECK_FALSE(rows.count("FooBar"));

  // The trailer counts the rows.
  CHECK(text.find("\n" + std::to_string(ops.size()) + " table entries.\n") !=
        std::string::npos);
}
