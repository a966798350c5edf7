//===- CompileFlagsTest.cpp - the compile flags' parser and diagnostics ---===//

#include <catch2/catch.hpp>

#include "mlc/Compiler/CompileFlags.h"
#include "mlc/Compiler/Diagnostics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <vector>

using namespace mlc;
using llvm::StringRef;

namespace {

std::string parse(std::vector<StringRef> args, CompileOptions &options,
                  llvm::SmallVectorImpl<std::string> *unknown = nullptr) {
  return parseCompileFlags(args, options, unknown);
}

} // namespace

TEST_CASE("compile flags: values, prefixes, booleans, lists", "[flags]") {
  CompileOptions o;
  REQUIRE(parse({"model.onnx", "-O3", "-j", "4", "--cpu=generic", "--emit",
                 "llvm", "--input-shape=x=1x3", "--input-shape", "y=2",
                 "--winograd=false", "--nchwc=0", "--train",
                 "--quantize-keep=a,b", "--quantize-keep", "c", "-o", "out.ll"},
                o) == "");
  CHECK(o.input == "model.onnx");
  CHECK(o.output == "out.ll");
  CHECK(o.optLevel == 3);
  CHECK(o.jobs == 4);
  CHECK(o.cpu == std::optional<std::string>("generic"));
  CHECK(o.emit == std::optional<OutputKind>(OutputKind::LLVM));
  CHECK(o.inputShapes.at("x") == std::vector<int64_t>{1, 3});
  CHECK(o.inputShapes.at("y") == std::vector<int64_t>{2});
  CHECK(!o.winograd);
  CHECK(!o.nchwc);
  CHECK(o.train);
  CHECK(o.keepFloat == std::vector<std::string>{"a", "b", "c"});

  // Later flags override earlier ones; -j2 and -O=1 are accepted too.
  REQUIRE(parse({"-j2", "-O=1", "--winograd", "--mcpu", "haswell",
                 "--weights=external", "--target=cuda-emulated"},
                o) == "");
  CHECK(o.jobs == 2);
  CHECK(o.optLevel == 1);
  CHECK(o.winograd);
  CHECK(o.cpu == std::optional<std::string>("haswell"));
  CHECK(o.weights == WeightsStorage::External);
  CHECK(o.target == Target::CUDAEmulated);

  // After "--" every word is the input, even one with a dash.
  CompileOptions p;
  REQUIRE(parse({"--", "-odd-name.json"}, p) == "");
  CHECK(p.input == "-odd-name.json");
}

TEST_CASE("compile flags: errors name the flag", "[flags]") {
  CompileOptions o;
  CHECK(parse({"--bogus"}, o) == "unknown flag '--bogus'");
  CHECK(parse({"-Ofast"}, o) == "unknown flag '-Ofast'");
  CHECK(parse({"-O"}, o) == "-O expects a value (-O=<level>)");
  CHECK(parse({"-jx"}, o) == "unknown flag '-jx'");
  CHECK(parse({"-j=x"}, o) == "-j expects a number, got 'x'");
  CHECK(parse({"--emit=pdf"}, o) ==
        "--emit expects mlir, dot, llvm, asm, obj, so or archive, got 'pdf'");
  CHECK(parse({"--train=maybe"}, o) ==
        "--train expects true or false, got 'maybe'");
  CHECK(parse({"--input-shape=x"}, o) ==
        "--input-shape expects NAME=DxDx..., got 'x'");
  CHECK(parse({"--bind=x="}, o) == "--bind expects NAME=FILE, got 'x='");
  CHECK(parse({"--target=tpu"}, o) ==
        "--target expects cpu, cuda or cuda-emulated, got 'tpu'");
  CHECK(parse({"--weights=inside"}, o) ==
        "--weights expects embedded, linked or external, got 'inside'");
  CHECK(parse({"--vector-bits=-1"}, o) ==
        "--vector-bits expects a number, got '-1'");
  CHECK(parse({"a.json", "b.json"}, o) ==
        "more than one input file: 'a.json' and 'b.json'");
}

TEST_CASE("compile flags: unknown ones can be collected", "[flags]") {
  CompileOptions o;
  llvm::SmallVector<std::string> unknown;
  REQUIRE(parse({"--mlir-timing", "m.json", "-O0", "--help"}, o, &unknown) ==
          "");
  CHECK(o.input == "m.json");
  CHECK(o.optLevel == 0);
  CHECK(std::vector<std::string>(unknown.begin(), unknown.end()) ==
        std::vector<std::string>{"--mlir-timing", "--help"});
}

TEST_CASE("compile flags: the help lists every flag", "[flags]") {
  std::string help = compileFlagsHelp();
  for (const CompileFlag &flag : compileFlags()) {
    std::string shown =
        (strlen(flag.name) == 1 ? "  -" : "  --") + std::string(flag.name);
    CHECK(help.find(shown) != std::string::npos);
    CHECK(StringRef(flag.help).size() > 10);
  }
  for (StringRef line : llvm::split(help, '\n'))
    CHECK(line.size() <= 80);
}

TEST_CASE("diagnostics: text and place by location", "[diagnostics]") {
  mlir::MLIRContext context;
  std::vector<CompileDiagnostic> seen;
  {
    DiagnosticCollector collector(
        context, "tool",
        [&](const CompileDiagnostic &d) { seen.push_back(d); });
    mlir::Location file = mlir::FileLineColLoc::get(&context, "m.json", 0, 0);
    mlir::InFlightDiagnostic error =
        mlir::emitError(mlir::NameLoc::get(
            mlir::StringAttr::get(&context, "nodes[2]"), file))
        << "mismatch";
    error.attachNote() << "the other operand";
    error.report();
    mlir::emitWarning(file) << "whole file";
    mlir::emitError(mlir::UnknownLoc::get(&context)) << "no place";
    mlir::emitError(mlir::FileLineColLoc::get(&context, "no/such.mlir", 3, 7))
        << "at a line";
  }
  REQUIRE(seen.size() == 4);
  CHECK(seen[0].file == "m.json");
  CHECK(seen[0].place == "nodes[2]");
  CHECK(seen[0].text ==
        "m.json: nodes[2]: error: mismatch\n  note: the other operand\n");
  CHECK(seen[1].text == "m.json: warning: whole file\n");
  CHECK(seen[1].severity == mlir::DiagnosticSeverity::Warning);
  CHECK(seen[2].text == "tool: error: no place\n");
  CHECK(seen[2].file.empty());
  CHECK(seen[3].line == 3);
  CHECK(seen[3].column == 7);
  CHECK(seen[3].text.find("no/such.mlir:3:7: error: at a line") !=
        std::string::npos);
  CHECK(unlocatedError("mlc", "bad").text == "mlc: error: bad\n");
}
