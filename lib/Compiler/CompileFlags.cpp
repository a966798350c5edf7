//===- CompileFlags.cpp - the compile flags' table and parser -------------===//
//
// Each flag's entry stores its value into CompileOptions; the values'
// meaning (levels, chips, combinations) is checked later by
// checkCompileOptions, the same for every caller.
//
//===----------------------------------------------------------------------===//

#include "mlc/Compiler/CompileFlags.h"

#include "mlc/Frontend/ONNX/ImportONNX.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace llvm;

namespace mlc {
namespace {

/// "-O" for one-letter flags, else "--name".
std::string shownName(StringRef flag) {
  return (flag.size() == 1 ? "-" : "--") + flag.str();
}

std::string expected(StringRef flag, StringRef what, StringRef got) {
  return (shownName(flag) + " expects " + what + ", got '" + got + "'").str();
}

/// An unsigned number into `out` (checked against `max`).
template <typename T>
std::string number(StringRef flag, StringRef value, T &out,
                   unsigned max = 1u << 30) {
  unsigned n = 0;
  if (value.getAsInteger(10, n) || n > max)
    return expected(flag, "a number", value);
  out = T(n);
  return "";
}

/// A flag that stores its value as is (into a string or an optional one).
template <auto Field>
std::string setString(CompileOptions &o, StringRef value) {
  o.*Field = value.str();
  return "";
}

/// A Bool flag (its value is "true" or "false" by then).
template <auto Field> std::string setBool(CompileOptions &o, StringRef value) {
  o.*Field = value == "true";
  return "";
}

std::string setEmit(CompileOptions &o, StringRef v) {
  if (v == "auto") {
    o.emit.reset();
    return "";
  }
  std::optional<OutputKind> kind = parseOutputKind(v);
  if (!kind)
    return expected("emit", outputKindNames(), v);
  o.emit = *kind;
  return "";
}

std::string setInputShape(CompileOptions &o, StringRef spec) {
  auto [name, dims] = spec.split('=');
  std::vector<int64_t> shape;
  if (name.empty() || !spec.contains('=') ||
      !frontend::parseShapeSpec(dims, shape))
    return expected("input-shape", "NAME=DxDx...", spec);
  o.inputShapes[name.str()] = shape;
  return "";
}

std::string setBinding(CompileOptions &o, StringRef spec) {
  auto [name, file] = spec.split('=');
  if (name.empty() || file.empty())
    return expected("bind", "NAME=FILE", spec);
  o.bindings[name.str()] = file.str();
  return "";
}

std::string setTarget(CompileOptions &o, StringRef v) {
  std::optional<Target> target = parseTarget(v);
  if (!target)
    return expected("target", "cpu, cuda or cuda-emulated", v);
  o.target = *target;
  return "";
}

std::string setWeights(CompileOptions &o, StringRef v) {
  std::optional<WeightsStorage> storage = parseWeightsStorage(v);
  if (!storage)
    return expected("weights", "embedded, linked or external", v);
  o.weights = *storage;
  return "";
}

std::string setQuantizeKeep(CompileOptions &o, StringRef v) {
  for (StringRef node : split(v, ','))
    o.keepFloat.push_back(node.str());
  return "";
}

const CompileFlag kFlags[] = {
    {"o", FlagKind::Value, "file",
     "Output file (required; \"-\" is standard output for text outputs)",
     setString<&CompileOptions::output>},
    {"emit", FlagKind::Value, "kind",
     "What to write: mlir (the optimized graph), dot (a Graphviz picture of "
     "the graph with its fusion groups as clusters), llvm (LLVM IR), asm, "
     "obj, so (a shared library with the runtime), archive (a static "
     "archive .a and a C header .h to link into a program: "
     "docs/embedding.md); default: from the output's suffix",
     setEmit},
    {"name", FlagKind::Value, "IDENT",
     "--emit=archive: the prefix of the archive's symbols and header names, "
     "a C identifier (default: the output's stem)",
     setString<&CompileOptions::archiveName>},
    {"input-shape", FlagKind::List, "NAME=DIMS",
     "ONNX: static shape for a graph input with dynamic dimensions, e.g. "
     "--input-shape data=1x3x224x224 (repeatable)",
     setInputShape},
    {"bind", FlagKind::List, "NAME=FILE",
     "ONNX: freeze a graph input to the tensor in FILE (a .pb TensorProto) "
     "at compile time; needed for inputs that determine shapes (repeatable)",
     setBinding},
    {"train", FlagKind::Bool, "",
     "Compile a trainable model from a model.json with a 'training' "
     "section: a train step, an inference entry on the same parameters and "
     "their initial values (docs/training.md)",
     setBool<&CompileOptions::train>},
    {"O", FlagKind::Prefix, "level", "Optimization level (0-3, default 2)",
     [](CompileOptions &o, StringRef v) { return number("O", v, o.optLevel); }},
    {"graph-opt", FlagKind::Value, "level",
     "Graph optimization level (0-3; default: the -O level). -O2 "
     "--graph-opt=0 isolates what fusion and graph rewrites buy",
     [](CompileOptions &o, StringRef v) {
       unsigned level = 0;
       std::string error = number("graph-opt", v, level);
       o.graphOptLevel = level;
       return error;
     }},
    {"cpu", FlagKind::Value, "name",
     "Target CPU: native (default: the host's CPU and features), generic, "
     "or an LLVM CPU name such as x86-64-v3 (a portable AVX2/FMA baseline) "
     "or haswell",
     setString<&CompileOptions::cpu>},
    {"mcpu", FlagKind::Value, "name", "Alias for --cpu",
     setString<&CompileOptions::cpu>},
    {"target", FlagKind::Value, "device",
     "Where the model runs: cpu (default), cuda (NVIDIA GPUs: kernels in a "
     "fatbin, see --cuda-arch, launched by the runtime through the CUDA "
     "driver; docs/cuda.md), cuda-emulated (the CUDA kernels run on this "
     "CPU one GPU thread at a time: tests GPU code generation without a "
     "GPU; slow)",
     setTarget},
    {"cuda-arch", FlagKind::Value, "sm_XY,...",
     "--target=cuda: GPUs the fatbin has code for, comma-separated (default "
     "sm_80,sm_90; CUDA 13 needs sm_75 or newer)",
     setString<&CompileOptions::cudaArch>},
    {"cuda-toolkit", FlagKind::Value, "dir",
     "--target=cuda: CUDA toolkit with bin/ptxas and bin/fatbinary "
     "(default: $CUDA_HOME, else /usr/local/cuda)",
     setString<&CompileOptions::cudaToolkit>},
    {"parallel", FlagKind::Bool, "",
     "Run large kernels on the runtime's threads (default true; "
     "--parallel=false emits single-threaded code)",
     setBool<&CompileOptions::parallel>},
    {"vector-bits", FlagKind::Value, "bits",
     "Vector width of the kernels in bits (default: 512 with AVX-512F, 256 "
     "with AVX/AVX2, else 128)",
     [](CompileOptions &o, StringRef v) {
       unsigned bits = 0;
       std::string error = number("vector-bits", v, bits);
       o.vectorBits = bits;
       return error;
     }},
    {"reassociate-fp-reductions", FlagKind::Bool, "",
     "Float sums and products in one accumulator per vector lane (default "
     "on, as in ONNX Runtime and PyTorch): results differ from the in-order "
     "scalar kernels and constant folding in the last bits; =false keeps "
     "the in-order sums, bit-identical to --vector-bits=0 and the "
     "evaluator, and up to 10x slower on layer norm, softmax and means",
     setBool<&CompileOptions::reassociateFPReductions>},
    {"verify-each", FlagKind::Bool, "",
     "Verify the IR after every pass, not only after each pipeline "
     "(debugging the compiler; slower; default: on when the environment has "
     "MLC_VERIFY_EACH=1, as the test suite does)",
     setBool<&CompileOptions::verifyEachPass>},
    {"weights", FlagKind::Value, "where",
     "Where a model.so's weights go: embedded (default, in a section of its "
     "file that the linker never copies, mapped as it loads; GNU strip keeps "
     "it, llvm-strip needs --keep-section=.mlc_weights), linked (in its "
     "read-only data through the linker: slower to link large models) or "
     "external (in <output without suffix>.weights next to it, mapped "
     "read-only by the runtime at open; keep the two files together)",
     setWeights},
    {"j", FlagKind::Prefix, "N",
     "Threads optimizing and emitting the model's parts (default: the CPUs "
     "this process may use); the .so is the same for every N",
     [](CompileOptions &o, StringRef v) { return number("j", v, o.jobs); }},
    {"cache-dir", FlagKind::Value, "dir",
     "Keep the model's compiled parts in DIR (created if missing) and reuse "
     "those whose LLVM IR, target and -O level are unchanged: a recompile "
     "after a small change regenerates only what changed. The .so is the "
     "same with or without it; entries are never deleted automatically",
     setString<&CompileOptions::cacheDir>},
    {"winograd", FlagKind::Bool, "",
     "Stride-1 3x3 convolutions with at least 32 input and 64 output "
     "channels and 16 output tiles of 4x4 as Winograd F(4x4, 3x3) "
     "(inference, CPU and CUDA; default on; a few 1e-6 relative error "
     "against float64, about 4x direct convolution's: docs/compiler.md)",
     setBool<&CompileOptions::winograd>},
    {"nchwc", FlagKind::Bool, "",
     "Convolution regions in the blocked channel layout [N, C/16, H, W, 16] "
     "with layout changes only at their edges (inference on the CPU; "
     "default on: docs/compiler.md)",
     setBool<&CompileOptions::nchwc>},
    {"integer-kernels", FlagKind::Bool, "",
     "QDQ models (and --quantize): compute convolutions and matmuls of "
     "dequantized 8-bit values as exact int32 kernels with the scales in "
     "their epilogue (graph-quantized-contractions). With constant weights "
     "they are AVX-512 VNNI kernels on CPUs that have it, where this is the "
     "default; elsewhere they are generic loops, far slower than the float "
     "kernels used otherwise, hence off (docs/quantization.md)",
     setBool<&CompileOptions::integerKernels>},
    {"quantize", FlagKind::Value, "int8",
     "Post-training quantization: int8 weights (per output channel, "
     "symmetric) and uint8 activations (per tensor) for the convolutions "
     "and matmuls, scales from --calibration or --quantize-scales "
     "(docs/quantization.md)",
     setString<&CompileOptions::quantize>},
    {"calibration", FlagKind::Value, "dir",
     "--quantize: calibration samples; for a one-input model each *.npy "
     "file is one sample, for several inputs each sub-folder holds NAME.npy "
     "per input",
     setString<&CompileOptions::calibration>},
    {"calibration-method", FlagKind::Value, "method",
     "--quantize: activation ranges from the samples' min and max (minmax, "
     "default) or their 0.01th and 99.99th percentiles (percentile)",
     setString<&CompileOptions::calibrationMethod>},
    {"quantize-weight-bits", FlagKind::Value, "bits",
     "--quantize: bits of the weights, 8 (default, [-127, 127]) or 7 "
     "([-63, 63]: on CPUs without AVX-512 VNNI the integer kernels then use "
     "vpmaddubsw, about twice as fast, for a few dB of SQNR; "
     "docs/quantization.md)",
     [](CompileOptions &o, StringRef v) {
       return number("quantize-weight-bits", v, o.quantizeWeightBits);
     }},
    {"quantize-scales", FlagKind::Value, "file.json",
     "--quantize: take the activation scales from this JSON file (a "
     "--report of an earlier quantized compile) instead of calibrating",
     setString<&CompileOptions::quantScales>},
    {"quantize-keep", FlagKind::List, "node,...",
     "--quantize: convolutions and matmuls (ONNX node names, as the report "
     "lists them) kept in float; default the first convolution and the last "
     "matmul; 'none' quantizes all",
     setQuantizeKeep},
    {"profile", FlagKind::Bool, "",
     "Bracket every kernel with profiling calls and record the kernel "
     "table, for mlc-run --profile (default true; --profile=false leaves "
     "them out)",
     setBool<&CompileOptions::profile>},
    {"runtime-lib", FlagKind::Value, "file",
     "Runtime archive to link a shared library with (default: "
     "libmlc_runtime.a in ../lib next to mlc-compile, or next to "
     "libmlc_compiler.so)",
     setString<&CompileOptions::runtimeLib>},
    {"cc", FlagKind::Value, "driver",
     "C compiler driver that links a shared library (default cc; a name "
     "without a path is looked up on PATH)",
     setString<&CompileOptions::cc>},
    {"report", FlagKind::Value, "file",
     "Write a JSON compile report: graph ops before/after, kernels and "
     "their fused ops, workspace and its lower bound, weights bytes, flops, "
     "seconds per phase and the peak memory",
     setString<&CompileOptions::report>},
};

const CompileFlag *findFlag(StringRef name) {
  for (const CompileFlag &flag : kFlags)
    if (name == flag.name)
      return &flag;
  return nullptr;
}

/// A prefix flag whose value is attached (-O2, -j4), else null.
const CompileFlag *findPrefixFlag(StringRef word, StringRef &value) {
  for (const CompileFlag &flag : kFlags)
    if (flag.kind == FlagKind::Prefix && word.size() > strlen(flag.name) &&
        word.starts_with(flag.name) && isDigit(word[strlen(flag.name)])) {
      value = word.drop_front(strlen(flag.name));
      return &flag;
    }
  return nullptr;
}

} // namespace

ArrayRef<CompileFlag> compileFlags() { return kFlags; }

CompileOptions defaultCompileOptions() {
  CompileOptions options;
  const char *verify = std::getenv("MLC_VERIFY_EACH");
  options.verifyEachPass = verify && StringRef(verify) == "1";
  return options;
}

std::string parseCompileFlags(ArrayRef<StringRef> args, CompileOptions &o,
                              SmallVectorImpl<std::string> *unknown) {
  bool positionalOnly = false;
  auto setInput = [&](StringRef word) -> std::string {
    if (!o.input.empty())
      return ("more than one input file: '" + o.input + "' and '" + word + "'")
          .str();
    o.input = word.str();
    return "";
  };
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (positionalOnly || !arg.starts_with("-") || arg == "-") {
      if (std::string error = setInput(arg); !error.empty())
        return error;
      continue;
    }
    if (arg == "--") {
      positionalOnly = true;
      continue;
    }
    StringRef word = arg.drop_front(arg.starts_with("--") ? 2 : 1);
    auto [name, attached] = word.split('=');
    bool hasValue = word.contains('=');
    const CompileFlag *flag = findFlag(name);
    std::optional<StringRef> value;
    if (hasValue)
      value = attached;
    if (!flag && (flag = findPrefixFlag(word, attached)))
      value = attached;
    if (!flag) {
      if (!unknown)
        return ("unknown flag '" + arg + "'").str();
      unknown->push_back(arg.str());
      continue;
    }
    std::string shown = shownName(flag->name);
    if (flag->kind == FlagKind::Bool) {
      if (!value)
        value = "true";
      std::string lower = value->lower();
      if (lower == "true" || lower == "1")
        value = "true";
      else if (lower == "false" || lower == "0")
        value = "false";
      else
        return shown + " expects true or false, got '" + value->str() + "'";
    } else if (!value) {
      if (i + 1 == args.size())
        return shown + " expects a value (" + shown + "=<" + flag->valueDesc +
               ">)";
      value = args[++i];
    }
    if (std::string error = flag->apply(o, *value); !error.empty())
      return error;
  }
  return "";
}

std::string compileFlagsHelp() {
  std::string help;
  for (const CompileFlag &flag : kFlags) {
    bool shortName = strlen(flag.name) == 1;
    std::string head = (shortName ? "  -" : "  --") + std::string(flag.name);
    if (flag.kind == FlagKind::Prefix)
      head += "<" + std::string(flag.valueDesc) + ">";
    else if (flag.kind != FlagKind::Bool)
      head += (shortName ? " <" : "=<") + std::string(flag.valueDesc) + ">";
    help += head + "\n";
    // The description wrapped at 76 columns, indented under the flag.
    std::string line = "      ";
    for (StringRef word : split(flag.help, ' ')) {
      if (line.size() + word.size() > 76 && line.size() > 6) {
        help += line + "\n";
        line = "      ";
      }
      line += (line.size() > 6 ? " " : "") + word.str();
    }
    help += line + "\n";
  }
  return help;
}

} // namespace mlc
