//===- CompileOptions.cpp - names, defaults and checks of the options -----===//

#include "mlc/Compiler/CompileOptions.h"
#include "mlc/Compiler/Compiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace mlc {

namespace {
/// The one of `values` that `stringify` names `name`.
template <typename E>
std::optional<E> parseByName(StringRef name, ArrayRef<E> values,
                             StringRef (*stringify)(E)) {
  for (E value : values)
    if (name == stringify(value))
      return value;
  return std::nullopt;
}
} // namespace

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
  return parseByName<Target>(
      name, {Target::CPU, Target::CUDA, Target::CUDAEmulated}, stringifyTarget);
}

StringRef stringifyWeightsStorage(WeightsStorage storage) {
  switch (storage) {
  case WeightsStorage::Embedded:
    return "embedded";
  case WeightsStorage::Linked:
    return "linked";
  case WeightsStorage::External:
    return "external";
  }
  llvm_unreachable("unknown weights storage");
}

std::optional<WeightsStorage> parseWeightsStorage(StringRef name) {
  return parseByName<WeightsStorage>(name,
                                     {WeightsStorage::Embedded,
                                      WeightsStorage::Linked,
                                      WeightsStorage::External},
                                     stringifyWeightsStorage);
}

namespace {
constexpr OutputKind kOutputKinds[] = {
    OutputKind::MLIR,   OutputKind::Dot,    OutputKind::LLVM,
    OutputKind::Asm,    OutputKind::Object, OutputKind::SharedLibrary,
    OutputKind::Archive};
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
  case OutputKind::Archive:
    return "archive";
  }
  llvm_unreachable("unknown output kind");
}

std::optional<OutputKind> parseOutputKind(StringRef name) {
  return parseByName<OutputKind>(name, kOutputKinds, stringifyOutputKind);
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
  if (ext == ".a")
    return OutputKind::Archive;
  return OutputKind::SharedLibrary;
}

bool isTextOutput(OutputKind kind) {
  return kind != OutputKind::Object && kind != OutputKind::SharedLibrary &&
         kind != OutputKind::Archive;
}

std::string externalWeightsPath(const CompileOptions &o) {
  SmallString<256> path(o.output);
  sys::path::replace_extension(path, "weights");
  return std::string(path);
}

bool isCIdentifier(StringRef name) {
  return !name.empty() && !isDigit(name.front()) &&
         llvm::all_of(name, [](char c) { return isAlnum(c) || c == '_'; });
}

std::string archiveSymbolName(const CompileOptions &o) {
  if (!o.archiveName.empty())
    return o.archiveName;
  std::string name = sys::path::stem(o.output).str();
  for (char &c : name)
    if (!isAlnum(c) && c != '_')
      c = '_';
  if (name.empty())
    return "model";
  return isDigit(name.front()) ? "model_" + name : name;
}

std::string archiveHeaderPath(const CompileOptions &o) {
  SmallString<256> path(o.output);
  sys::path::replace_extension(path, "h");
  return std::string(path);
}

/// The combinations an archive does not support, or "".
static std::string checkArchiveOptions(const CompileOptions &o) {
  if (!o.archiveName.empty() && !isCIdentifier(o.archiveName))
    return "--name='" + o.archiveName +
           "' is not a C identifier (letters, digits and '_', not starting "
           "with a digit)";
  // Each needs the runtime's model object (mlc_model_open): a model.so.
  if (o.train)
    return "--emit=archive does not support --train (a trainable model's "
           "variables live in the runtime's model object): compile a model.so";
  if (o.target != Target::CPU)
    return "--emit=archive supports --target=cpu only (not " +
           stringifyTarget(o.target).str() + "): compile a model.so";
  if (o.weights == WeightsStorage::External)
    return "--weights=external is not supported with --emit=archive (the "
           "weights are in the archive)";
  if (archiveHeaderPath(o) == o.output)
    return "--emit=archive: the output '" + o.output +
           "' would be its own header; give it the suffix .a";
  return "";
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
             : emit == OutputKind::Archive     ? "an archive"
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
  if (emit == OutputKind::Archive) {
    if (std::string problem = checkArchiveOptions(o); !problem.empty())
      return problem;
  } else if (!o.archiveName.empty()) {
    return "--name applies to --emit=archive only";
  }
  if (o.weights == WeightsStorage::External &&
      emit != OutputKind::SharedLibrary)
    return "--weights=external needs a shared library output (the weights "
           "file is for the runtime to map)";
  if (o.weights == WeightsStorage::External &&
      externalWeightsPath(o) == o.output)
    return "--weights=external: the output '" + o.output +
           "' would be its own weights file; give it another suffix";
  if (emit != OutputKind::SharedLibrary && emit != OutputKind::Archive &&
      !o.cacheDir.empty())
    return "--cache-dir applies to shared libraries (model.so) and archives "
           "only";
  if (emit == OutputKind::SharedLibrary && o.runtimeLib.empty())
    return "no runtime archive to link the shared library with";
  return "";
}

} // namespace mlc
