//===- CompileOptions.cpp - names, defaults and checks of the options -----===//

#include "mlc/Compiler/CompileOptions.h"
#include "mlc/Compiler/Compiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace mlc {

StringRef stringifyTarget(Target target) {
  switch (target) {
  case Target::CPU:
    return "cpu";
  case Target::CUDA:
    return "cuda";
  case Target::CUDAEmulated:
    return "cuda-emulated";
  }
  llvm_unreachable("unknown target");
}

std::optional<Target> parseTarget(StringRef name) {
  for (Target target : {Target::CPU, Target::CUDA, Target::CUDAEmulated})
    if (name == stringifyTarget(target))
      return target;
  return std::nullopt;
}

namespace {
constexpr OutputKind kOutputKinds[] = {
    OutputKind::MLIR, OutputKind::Dot,    OutputKind::LLVM,
    OutputKind::Asm,  OutputKind::Object, OutputKind::SharedLibrary};
} // namespace

StringRef stringifyOutputKind(OutputKind kind) {
  switch (kind) {
  case OutputKind::MLIR:
    return "mlir";
  case OutputKind::Dot:
    return "dot";
  case OutputKind::LLVM:
    return "llvm";
  case OutputKind::Asm:
    return "asm";
  case OutputKind::Object:
    return "obj";
  case OutputKind::SharedLibrary:
    return "so";
  }
  llvm_unreachable("unknown output kind");
}

std::optional<OutputKind> parseOutputKind(StringRef name) {
  for (OutputKind kind : kOutputKinds)
    if (name == stringifyOutputKind(kind))
      return kind;
  return std::nullopt;
}

std::string outputKindNames() {
  std::string names;
  for (size_t i = 0; i < std::size(kOutputKinds); ++i)
    names += (i == 0                             ? ""
              : i + 1 == std::size(kOutputKinds) ? " or "
                                                 : ", ") +
             stringifyOutputKind(kOutputKinds[i]).str();
  return names;
}

OutputKind outputKindFromSuffix(StringRef path) {
  StringRef ext = sys::path::extension(path);
  if (ext == ".mlir")
    return OutputKind::MLIR;
  if (ext == ".dot" || ext == ".gv")
    return OutputKind::Dot;
  if (ext == ".ll")
    return OutputKind::LLVM;
  if (ext == ".s")
    return OutputKind::Asm;
  if (ext == ".o")
    return OutputKind::Object;
  return OutputKind::SharedLibrary;
}

bool isTextOutput(OutputKind kind) {
  return kind != OutputKind::Object && kind != OutputKind::SharedLibrary;
}

std::string externalWeightsPath(const CompileOptions &o) {
  SmallString<256> path(o.output);
  sys::path::replace_extension(path, "weights");
  return std::string(path);
}

std::string checkCompileOptions(const CompileOptions &o) {
  if (o.input.empty())
    return "no input file";
  if (o.output.empty())
    return "no output file: pass -o FILE";
  if (o.optLevel > 3)
    return ("-O" + Twine(o.optLevel) + " is not a valid level (0-3)").str();
  if (o.graphOptLevel && *o.graphOptLevel > 3)
    return ("--graph-opt=" + Twine(*o.graphOptLevel) +
            " is not a valid level (0-3)")
        .str();
  OutputKind emit = o.emit ? *o.emit : outputKindFromSuffix(o.output);
  if (o.output == "-" && !isTextOutput(emit))
    return (Twine("-o - writes text to standard output: choose ") +
            "--emit=mlir, dot, llvm or asm (" +
            (emit == OutputKind::SharedLibrary ? "a shared library"
                                               : "an object file") +
            " needs a file name)")
        .str();
  if (o.output == "-" && o.report == "-")
    return "-o - and --report - both ask for standard output";
  if (o.target != Target::CPU && o.train)
    return "--train is not supported with --target=cuda yet";
  if (!o.quantize.empty() && o.quantize != "int8")
    return "--quantize=" + o.quantize + " is not supported (int8 is)";
  if (o.quantize.empty() && (!o.calibration.empty() || !o.quantScales.empty()))
    return "--calibration and --quantize-scales need --quantize=int8";
  if (!o.quantize.empty() && o.calibration.empty() == o.quantScales.empty())
    return "--quantize=int8 needs calibration samples (--calibration DIR) "
           "or scales (--quantize-scales FILE), one of the two";
  if (!o.quantize.empty() && o.train)
    return "--quantize is for inference models, not with --train";
  if (o.quantizeWeightBits != 7 && o.quantizeWeightBits != 8)
    return "--quantize-weight-bits must be 7 or 8, got " +
           std::to_string(o.quantizeWeightBits);
  if (o.quantize.empty() && o.quantizeWeightBits != 8)
    return "--quantize-weight-bits needs --quantize=int8";
  if (o.calibrationMethod != "minmax" && o.calibrationMethod != "percentile")
    return "--calibration-method must be minmax or percentile, got '" +
           o.calibrationMethod + "'";
  for (StringRef chip : split(o.cudaArch, ',')) {
    unsigned sm = 0;
    StringRef number = chip.trim();
    if (!number.consume_front("sm_") || number.getAsInteger(10, sm) || sm < 75)
      return ("--cuda-arch expects sm_XY names of GPUs CUDA 13 supports "
              "(sm_75 or newer), got '" +
              chip + "'")
          .str();
  }
  StringRef ext = sys::path::extension(o.input);
  if (o.train && ext == ".onnx")
    return "--train needs a model.json with a 'training' section (ONNX "
           "models cannot be trained yet)";
  if (ext != ".onnx" && (!o.inputShapes.empty() || !o.bindings.empty()))
    return "--input-shape and --bind apply to .onnx inputs only";
  if (o.train && ext == ".mlir")
    return "--train needs a model.json with a 'training' section";
  if (o.externalWeights && emit != OutputKind::SharedLibrary)
    return "--weights=external needs a shared library output (the weights "
           "file is for the runtime to map)";
  if (o.externalWeights && externalWeightsPath(o) == o.output)
    return "--weights=external: the output '" + o.output +
           "' would be its own weights file; give it another suffix";
  if (emit != OutputKind::SharedLibrary && !o.cacheDir.empty())
    return "--cache-dir applies to shared libraries (model.so) only";
  if (emit == OutputKind::SharedLibrary && o.runtimeLib.empty())
    return "no runtime archive to link the shared library with";
  return "";
}

} // namespace mlc
