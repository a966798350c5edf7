//===- CompileTest.cpp - mlc::compile, its options and its pipelines ------===//

#include <catch2/catch.hpp>

#include "Support/DiagCollector.h"
#include "Support/ScratchDir.h"

#include "mlc/Compiler/Compiler.h"
#include "mlc/Compiler/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace mlir;
using namespace mlc;
namespace fs = std::filesystem;

namespace {

const fs::path &scratch() { return mlc::test::scratchDir("mlc-compile-test"); }

/// A graph-dialect model: y = relu(x).
fs::path writeReluModel() {
  fs::path path = scratch() / "relu.mlir";
  std::ofstream(path) << R"(
func.func @main(%x: tensor<2x8xf32> {mlc.name = "x"})
    -> (tensor<2x8xf32> {mlc.name = "y"}) {
  %0 = graph.relu %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
)";
  return path;
}

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CompileOptions optionsFor(const fs::path &input, const fs::path &output) {
  CompileOptions o;
  o.input = input.string();
  o.output = output.string();
  o.cpu = "generic"; // the same code whatever machine runs the test
  o.runtimeLib = MLC_RUNTIME_LIB;
  o.jobs = 1;
  return o;
}

} // namespace

TEST_CASE("targets and output kinds have names", "[compiler]") {
  for (Target t : {Target::CPU, Target::CUDA, Target::CUDAEmulated})
    CHECK(parseTarget(stringifyTarget(t)) == t);
  CHECK(!parseTarget("tpu"));
  for (WeightsStorage w : {WeightsStorage::Embedded, WeightsStorage::Linked,
                           WeightsStorage::External})
    CHECK(parseWeightsStorage(stringifyWeightsStorage(w)) == w);
  CHECK(stringifyWeightsStorage(WeightsStorage::Linked) == "linked");
  CHECK(!parseWeightsStorage("inside"));
  CHECK(outputKindFromSuffix("m.mlir") == OutputKind::MLIR);
  CHECK(outputKindFromSuffix("m.gv") == OutputKind::Dot);
  CHECK(outputKindFromSuffix("m.ll") == OutputKind::LLVM);
  CHECK(outputKindFromSuffix("m.s") == OutputKind::Asm);
  CHECK(outputKindFromSuffix("m.o") == OutputKind::Object);
  CHECK(outputKindFromSuffix("m.so") == OutputKind::SharedLibrary);
  CHECK(outputKindFromSuffix("model") == OutputKind::SharedLibrary);
  CHECK(isTextOutput(OutputKind::Asm));
  CHECK(!isTextOutput(OutputKind::Object));
}

TEST_CASE("checkCompileOptions names the first bad option", "[compiler]") {
  CompileOptions o;
  o.input = "m.json";
  o.output = "m.so";
  o.runtimeLib = "libmlc_runtime.a";
  CHECK(checkCompileOptions(o).empty());
  CompileOptions bad = o;
  bad.optLevel = 4;
  CHECK(checkCompileOptions(bad) == "-O4 is not a valid level (0-3)");
  bad = o;
  bad.output = "-";
  CHECK(checkCompileOptions(bad).find("needs a file name") !=
        std::string::npos);
  bad.emit = OutputKind::LLVM;
  CHECK(checkCompileOptions(bad).empty());
  bad.report = "-";
  CHECK(checkCompileOptions(bad) ==
        "-o - and --report - both ask for standard output");
  bad = o;
  bad.cudaArch = "sm_80,sm_70";
  CHECK(checkCompileOptions(bad).find("got 'sm_70'") != std::string::npos);
  bad = o;
  bad.target = Target::CUDA;
  bad.train = true;
  CHECK(checkCompileOptions(bad).find("--train") != std::string::npos);
  bad = o;
  bad.inputShapes["x"] = {1, 3};
  CHECK(checkCompileOptions(bad) ==
        "--input-shape and --bind apply to .onnx inputs only");
  bad = o;
  bad.runtimeLib.clear();
  CHECK(!checkCompileOptions(bad).empty());
  bad = o;
  bad.cacheDir = "cache";
  CHECK(checkCompileOptions(bad).empty());
  bad.output = "m.o";
  CHECK(checkCompileOptions(bad) ==
        "--cache-dir applies to shared libraries (model.so) and archives only");
}

TEST_CASE("checkCompileOptions: archives", "[compiler]") {
  CompileOptions o;
  o.input = "m.json";
  o.output = "lib/my-model.v2.a";
  CHECK(outputKindFromSuffix(o.output) == OutputKind::Archive);
  CHECK(checkCompileOptions(o).empty());
  CHECK(archiveSymbolName(o) == "my_model_v2");
  CHECK(archiveHeaderPath(o) == "lib/my-model.v2.h");
  o.output = "2net.a";
  CHECK(archiveSymbolName(o) == "model_2net");
  o.archiveName = "net";
  CHECK(archiveSymbolName(o) == "net");
  CHECK(isCIdentifier("_a1"));
  CHECK(!isCIdentifier("1a"));
  CHECK(!isCIdentifier("a-b"));
  CHECK(!isCIdentifier(""));
  CompileOptions bad = o;
  bad.archiveName = "le-net";
  CHECK(checkCompileOptions(bad).find("is not a C identifier") !=
        std::string::npos);
  bad = o;
  bad.train = true;
  CHECK(checkCompileOptions(bad).find("does not support --train") !=
        std::string::npos);
  bad = o;
  bad.target = Target::CUDA;
  CHECK(checkCompileOptions(bad).find("supports --target=cpu only") !=
        std::string::npos);
  bad = o;
  bad.weights = WeightsStorage::External;
  CHECK(checkCompileOptions(bad).find("not supported with --emit=archive") !=
        std::string::npos);
  bad = o;
  bad.output = "m.h";
  bad.emit = OutputKind::Archive;
  CHECK(checkCompileOptions(bad).find("would be its own header") !=
        std::string::npos);
  bad = o;
  bad.output = "m.so";
  bad.runtimeLib = "libmlc_runtime.a";
  CHECK(checkCompileOptions(bad) == "--name applies to --emit=archive only");
  bad = o;
  bad.output = "-";
  bad.emit = OutputKind::Archive;
  CHECK(checkCompileOptions(bad).find("an archive needs a file name") !=
        std::string::npos);
}

TEST_CASE("checkCompileOptions: post-training quantization", "[compiler]") {
  CompileOptions o;
  o.input = "m.onnx";
  o.output = "m.so";
  o.runtimeLib = "libmlc_runtime.a";
  CompileOptions q = o;
  q.quantize = "int8";
  q.calibration = "samples";
  CHECK(checkCompileOptions(q).empty());
  q.calibrationMethod = "percentile";
  CHECK(checkCompileOptions(q).empty());
  q.calibrationMethod = "entropy";
  CHECK(checkCompileOptions(q) ==
        "--calibration-method must be minmax or percentile, got 'entropy'");
  q.calibrationMethod = "minmax";
  q.quantizeWeightBits = 7;
  CHECK(checkCompileOptions(q).empty());
  q.quantizeWeightBits = 6;
  CHECK(checkCompileOptions(q) ==
        "--quantize-weight-bits must be 7 or 8, got 6");
  CompileOptions w7 = o;
  w7.quantizeWeightBits = 7;
  CHECK(checkCompileOptions(w7) ==
        "--quantize-weight-bits needs --quantize=int8");
  q = o;
  q.quantize = "int8";
  q.quantScales = "scales.json";
  CHECK(checkCompileOptions(q).empty());
  q.calibration = "samples";
  CHECK(checkCompileOptions(q).find("one of the two") != std::string::npos);
  q.calibration.clear();
  q.quantScales.clear();
  CHECK(checkCompileOptions(q).find("needs calibration samples") !=
        std::string::npos);
  q = o;
  q.calibration = "samples";
  CHECK(checkCompileOptions(q) ==
        "--calibration and --quantize-scales need --quantize=int8");
  q.quantize = "int4";
  CHECK(checkCompileOptions(q) == "--quantize=int4 is not supported (int8 is)");
  q.quantize = "int8";
  q.train = true;
  CHECK(checkCompileOptions(q) ==
        "--quantize is for inference models, not with --train");
}

// The pipelines are text parsed when built: every combination of the
// options that changes their text is built here, so a misspelt pass or
// option fails this test instead of a user's compile.
TEST_CASE("every pipeline variant parses", "[compiler][pipeline]") {
  MLIRContext ctx;
  registerPassesAndPipelines();
  int built = 0;
  for (Target target : {Target::CPU, Target::CUDA, Target::CUDAEmulated})
    for (bool inference : {true, false})
      for (unsigned optLevel : {0u, 2u})
        for (bool profile : {true, false})
          for (bool parallel : {true, false})
            for (bool nchwc : {true, false})
              for (bool winograd : {true, false})
                for (bool reassociate : {true, false}) {
                  PipelineOptions o;
                  o.integerKernels = reassociate;
                  o.target = target;
                  o.inference = inference;
                  o.optLevel = optLevel;
                  o.profile = profile;
                  o.parallel = parallel;
                  o.nchwc = nchwc;
                  o.winograd = winograd;
                  o.reassociateFPReductions = reassociate;
                  o.cpuFeatures = reassociate ? "avx2,fma" : "";
                  o.cuda.chips = "sm_80, sm_90";
                  PassManager pm(&ctx);
                  INFO("target " << stringifyTarget(target).str());
                  REQUIRE(succeeded(buildCPUPipeline(pm, o)));
                  PassManager graph(&ctx), loops(&ctx), llvm(&ctx);
                  REQUIRE(succeeded(buildGraphOptimizationPipeline(graph, o)));
                  REQUIRE(succeeded(buildLowerToLoopsPipeline(loops, o)));
                  REQUIRE(succeeded(buildLowerToLLVMPipeline(llvm, o)));
                  ++built;
                }
  CHECK(built == 3 * 2 * 2 * 2 * 2 * 2 * 2 * 2);
}

TEST_CASE("compile writes each output kind", "[compiler]") {
  fs::path input = writeReluModel();
  struct Case {
    const char *file;
    const char *expect; // a prefix or substring of the output
  } cases[] = {{"relu.out.mlir", "graph.fusion_group"},
               {"relu.ll", "mlc_model_entry"},
               {"relu.s", "mlc_model_entry"},
               {"relu.o", "\x7f"
                          "ELF"},
               {"relu.so", "\x7f"
                           "ELF"}};
  for (const Case &c : cases) {
    INFO(c.file);
    MLIRContext ctx;
    mlc::test::DiagCollector diags(&ctx);
    CompileOptions o = optionsFor(input, scratch() / c.file);
    o.report = (scratch() / (std::string(c.file) + ".json")).string();
    std::vector<std::string> phases;
    CompileHooks hooks;
    hooks.phase = [&](llvm::StringRef p) { phases.push_back(p.str()); };
    REQUIRE(succeeded(compile(ctx, o, hooks)));
    CHECK(diags.messages.empty());
    CHECK(readFile(o.output).find(c.expect) != std::string::npos);
    std::string report = readFile(o.report);
    CHECK(report.find("\"graph_ops_before\": 1") != std::string::npos);
    CHECK(report.find("\"peak_rss_mib\"") != std::string::npos);
    REQUIRE(phases.size() >= 2);
    CHECK(phases[0] == "import");
    CHECK(phases[1] == "graph pipeline");
  }
}

TEST_CASE("a failed compile reports and writes nothing", "[compiler]") {
  fs::path input = scratch() / "broken.mlir";
  std::ofstream(input) << "func.func @main( {\n";
  fs::path output = scratch() / "broken.so";
  MLIRContext ctx;
  mlc::test::DiagCollector diags(&ctx);
  CompileOptions o = optionsFor(input, output);
  o.report = (scratch() / "broken.json").string();
  CHECK(failed(compile(ctx, o)));
  CHECK(!diags.messages.empty());
  CHECK(!fs::exists(output));
  CHECK(!fs::exists(o.report));

  // Options are checked before anything is read.
  MLIRContext ctx2;
  mlc::test::DiagCollector diags2(&ctx2);
  o = optionsFor(writeReluModel(), output);
  o.optLevel = 7;
  CHECK(failed(compile(ctx2, o)));
  REQUIRE(diags2.messages.size() == 1);
  CHECK(diags2.messages[0] == "-O7 is not a valid level (0-3)");
  CHECK(!fs::exists(output));
}

TEST_CASE("-j does not change the model", "[compiler]") {
  fs::path input = writeReluModel();
  std::string first;
  for (unsigned jobs : {1u, 2u}) {
    MLIRContext ctx;
    CompileOptions o = optionsFor(input, scratch() / "relu-j.o");
    o.emit = OutputKind::SharedLibrary;
    o.output = (scratch() / ("relu-j" + std::to_string(jobs) + ".so")).string();
    o.jobs = jobs;
    REQUIRE(succeeded(compile(ctx, o)));
    std::string bytes = readFile(o.output);
    if (first.empty())
      first = bytes;
    else
      CHECK(bytes == first);
  }
}
