//===- CommandLine.cpp - mlc-compile's flags -> mlc::CompileOptions -------===//
//
// Each flag is a field of mlc::CompileOptions (or of the tool itself: the
// progress line, --list-onnx-ops); the compiler library checks their
// values, this file only their syntax.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "mlc/Frontend/ONNX/ImportONNX.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace {

// --help lists these and MLIR's --mlir-* options; the LLVM backends' many
// options stay usable and are listed by --help-hidden.
cl::OptionCategory mlcCategory("mlc-compile options");

void hideLLVMOptions() {
  for (auto &[name, option] : cl::getRegisteredOptions()) {
    if (llvm::is_contained(option->Categories, &mlcCategory) ||
        name.starts_with("mlir-") || name.starts_with("help") ||
        name == "version" || option->getOptionHiddenFlag() != cl::NotHidden)
      continue;
    option->setHiddenFlag(cl::Hidden);
  }
}

cl::opt<std::string> inputFile(cl::Positional, cl::cat(mlcCategory),
                               cl::desc("<model.json|model.onnx|.mlir>"));
cl::opt<std::string> outputFile("o", cl::cat(mlcCategory),
                                cl::desc("Output file (required)"),
                                cl::value_desc("file"));
cl::list<std::string> inputShapes(
    "input-shape", cl::cat(mlcCategory),
    cl::desc("ONNX: static shape for a graph input with dynamic dimensions, "
             "e.g. --input-shape data=1x3x224x224 (repeatable)"),
    cl::value_desc("NAME=DIMS"));
cl::list<std::string>
    bindings("bind", cl::cat(mlcCategory),
             cl::desc("ONNX: freeze a graph input to the tensor in FILE (a .pb "
                      "TensorProto) at compile time; needed for inputs that "
                      "determine shapes (repeatable)"),
             cl::value_desc("NAME=FILE"));
cl::opt<bool> train(
    "train", cl::cat(mlcCategory),
    cl::desc("Compile a trainable model from a model.json with a 'training' "
             "section: a train step, an inference entry on the same "
             "parameters and their initial values (docs/training.md)"));
cl::opt<bool> listONNXOps(
    "list-onnx-ops", cl::cat(mlcCategory),
    cl::desc("Print the supported ONNX operators (markdown) and exit"));
// Auto: from the output's suffix.
enum class Emit { Auto, MLIR, Dot, LLVM, Asm, Obj, SO, Archive };
cl::opt<Emit> emitKind(
    "emit", cl::cat(mlcCategory),
    cl::desc("What to write (default: from the output's suffix)"),
    cl::init(Emit::Auto),
    cl::values(clEnumValN(Emit::MLIR, "mlir", "graph-dialect MLIR"),
               clEnumValN(Emit::Dot, "dot",
                          "Graphviz picture of the optimized graph with "
                          "its fusion groups as clusters"),
               clEnumValN(Emit::LLVM, "llvm", "LLVM IR (.ll)"),
               clEnumValN(Emit::Asm, "asm", "assembly (.s)"),
               clEnumValN(Emit::Obj, "obj", "object file (.o)"),
               clEnumValN(Emit::SO, "so", "shared library with the runtime"),
               clEnumValN(Emit::Archive, "archive",
                          "static archive (.a) and C header (.h) to link "
                          "into a program (docs/embedding.md)")));
cl::opt<std::string> archiveName(
    "name", cl::cat(mlcCategory),
    cl::desc("--emit=archive: the prefix of the archive's symbols and header "
             "names, a C identifier (default: the output's stem)"),
    cl::value_desc("IDENT"));
cl::opt<unsigned> optLevel("O", cl::cat(mlcCategory),
                           cl::desc("Optimization level (0-3)"), cl::Prefix,
                           cl::init(2));
cl::opt<int> graphOptLevel(
    "graph-opt", cl::cat(mlcCategory),
    cl::desc("Graph optimization level (0-3; default: the -O level). "
             "-O2 --graph-opt=0 isolates what fusion and graph rewrites buy"),
    cl::init(-1));
cl::opt<std::string> cpu("cpu", cl::cat(mlcCategory),
                         cl::desc("Target CPU: native (default: the host's "
                                  "CPU and features), generic, or an LLVM "
                                  "CPU name such as x86-64-v3 (a portable "
                                  "AVX2/FMA baseline) or haswell"),
                         cl::init("native"));
cl::alias cpuAlias("mcpu", cl::cat(mlcCategory), cl::desc("Alias for --cpu"),
                   cl::aliasopt(cpu));
cl::opt<mlc::Target> targetDevice(
    "target", cl::cat(mlcCategory),
    cl::desc("Where the model runs (default cpu)"), cl::init(mlc::Target::CPU),
    cl::values(clEnumValN(mlc::Target::CPU, "cpu", "this machine's CPU"),
               clEnumValN(mlc::Target::CUDA, "cuda",
                          "NVIDIA GPUs: kernels in a fatbin (see "
                          "--cuda-arch), launched by the runtime through "
                          "the CUDA driver (docs/cuda.md)"),
               clEnumValN(mlc::Target::CUDAEmulated, "cuda-emulated",
                          "the CUDA kernels run on this CPU one GPU thread "
                          "at a time: tests GPU code generation without a "
                          "GPU (slow)")));
cl::opt<std::string> cudaArch(
    "cuda-arch", cl::cat(mlcCategory),
    cl::desc("--target=cuda: GPUs the fatbin has code for, comma-separated "
             "(default sm_80,sm_90; CUDA 13 needs sm_75 or newer)"),
    cl::init("sm_80,sm_90"));
cl::opt<std::string> cudaToolkit(
    "cuda-toolkit", cl::cat(mlcCategory),
    cl::desc("--target=cuda: CUDA toolkit with bin/ptxas and bin/fatbinary "
             "(default: $CUDA_HOME, else /usr/local/cuda)"));
cl::opt<bool> parallelKernels(
    "parallel", cl::cat(mlcCategory),
    cl::desc("Run large kernels on the runtime's threads (default true; "
             "--parallel=false emits single-threaded code)"),
    cl::init(true));
cl::opt<unsigned> vectorBits(
    "vector-bits", cl::cat(mlcCategory),
    cl::desc("Vector width of the kernels in bits (default: 512 with "
             "AVX-512F, 256 with AVX/AVX2, else 128)"));
cl::opt<bool> reassociateFPReductions(
    "reassociate-fp-reductions", cl::cat(mlcCategory),
    cl::desc("Float sums and products in one accumulator per vector lane "
             "(default on, as in ONNX Runtime and PyTorch): results differ "
             "from the in-order scalar kernels and constant folding in the "
             "last bits; =false keeps the in-order sums, bit-identical to "
             "--vector-bits=0 and the evaluator, and up to 10x slower on "
             "layer norm, softmax and means"),
    cl::init(true));
cl::opt<bool> verifyEach(
    "verify-each", cl::cat(mlcCategory),
    cl::desc("Verify the IR after every pass, not only after each pipeline "
             "(debugging the compiler; slower; default: on when the "
             "environment has MLC_VERIFY_EACH=1, as the test suite does)"),
    cl::init(false));
enum class WeightsFlag { Embedded, External };
cl::opt<WeightsFlag> weightsPlacement(
    "weights", cl::cat(mlcCategory),
    cl::desc("Where a model.so's weights go (default embedded)"),
    cl::values(clEnumValN(WeightsFlag::Embedded, "embedded",
                          "in the model.so's read-only data"),
               clEnumValN(WeightsFlag::External, "external",
                          "in <output without suffix>.weights next to it, "
                          "mapped read-only by the runtime at open (keep the "
                          "two files together)")),
    cl::init(WeightsFlag::Embedded));
cl::opt<unsigned>
    jobs("j", cl::cat(mlcCategory), cl::value_desc("N"),
         cl::Prefix, // -j2, -j 2
         cl::desc("Threads optimizing and emitting the model's parts (default: "
                  "the CPUs this process may use); the .so is the same for "
                  "every N"));
cl::opt<std::string> cacheDir(
    "cache-dir", cl::cat(mlcCategory), cl::value_desc("dir"),
    cl::desc("Keep the model's compiled parts in DIR (created if missing) "
             "and reuse those whose LLVM IR, target and -O level are "
             "unchanged: a recompile after a small change regenerates only "
             "what changed. The .so is the same with or without it; "
             "entries are never deleted automatically"));
cl::opt<bool> winograd(
    "winograd", cl::cat(mlcCategory),
    cl::desc("Stride-1 3x3 convolutions with at least 32 input and 64 "
             "output channels and 16 output tiles of 4x4 as Winograd "
             "F(4x4, 3x3) "
             "(inference, CPU and CUDA; default on; a few 1e-6 relative error "
             "against "
             "float64, about 4x direct convolution's: docs/compiler.md)"),
    cl::init(true));
cl::opt<bool> nchwc(
    "nchwc", cl::cat(mlcCategory),
    cl::desc("Convolution regions in the blocked channel layout "
             "[N, C/16, H, W, 16] with layout changes only at their edges "
             "(inference on the CPU; default on: docs/compiler.md)"),
    cl::init(true));
cl::opt<bool> integerKernels(
    "integer-kernels", cl::cat(mlcCategory),
    cl::desc("QDQ models (and --quantize): compute convolutions and matmuls "
             "of dequantized 8-bit values as exact int32 kernels with the "
             "scales in their epilogue (graph-quantized-contractions). "
             "With constant weights they are AVX-512 VNNI kernels on CPUs "
             "that have it, where this is the default; elsewhere they are "
             "generic loops, far slower than the float kernels used "
             "otherwise, hence off (docs/quantization.md)"),
    cl::init(false));
cl::opt<std::string> quantize(
    "quantize", cl::cat(mlcCategory), cl::value_desc("int8"),
    cl::desc("Post-training quantization: int8 weights (per output channel, "
             "symmetric) and uint8 activations (per tensor) for the "
             "convolutions and matmuls, scales from --calibration or "
             "--quantize-scales (docs/quantization.md)"));
cl::opt<std::string> calibration(
    "calibration", cl::cat(mlcCategory), cl::value_desc("dir"),
    cl::desc("--quantize: calibration samples; for a one-input model each "
             "*.npy file is one sample, for several inputs each sub-folder "
             "holds NAME.npy per input"));
cl::opt<std::string> calibrationMethod(
    "calibration-method", cl::cat(mlcCategory),
    cl::desc("--quantize: activation ranges from the samples' min and max "
             "(minmax, default) or their 0.01th and 99.99th percentiles "
             "(percentile)"),
    cl::init("minmax"));
cl::opt<int> quantizeWeightBits(
    "quantize-weight-bits", cl::cat(mlcCategory),
    cl::desc("--quantize: bits of the weights, 8 (default, [-127, 127]) or 7 "
             "([-63, 63]: on CPUs without AVX-512 VNNI the integer kernels "
             "then use vpmaddubsw, about twice as fast, for a few dB of "
             "SQNR; docs/quantization.md)"),
    cl::init(8));
cl::opt<std::string> quantizeScales(
    "quantize-scales", cl::cat(mlcCategory), cl::value_desc("file.json"),
    cl::desc("--quantize: take the activation scales from this JSON file "
             "(a --report of an earlier quantized compile) instead of "
             "calibrating"));
cl::list<std::string> quantizeKeep(
    "quantize-keep", cl::cat(mlcCategory), cl::CommaSeparated,
    cl::value_desc("node,..."),
    cl::desc("--quantize: convolutions and matmuls (ONNX node names, as the "
             "report lists them) kept in float; default the first "
             "convolution and the last matmul; 'none' quantizes all"));
cl::opt<bool> profileKernels(
    "profile", cl::cat(mlcCategory),
    cl::desc("Bracket every kernel with profiling calls and record the "
             "kernel table, for mlc-run --profile (default true; "
             "--profile=false leaves them out)"),
    cl::init(true));
cl::opt<std::string> runtimeLib(
    "runtime-lib", cl::cat(mlcCategory),
    cl::desc("Runtime archive to link (default: ../lib/libmlc_runtime.a "
             "next to this tool)"));
cl::opt<std::string> ccPath("cc", cl::cat(mlcCategory),
                            cl::desc("C compiler driver used to link"));
cl::opt<mlc::tool::Progress::Mode> progressMode(
    "progress", cl::cat(mlcCategory),
    cl::desc("The progress line on stderr: the phase, the back end's parts "
             "done of total, the seconds so far"),
    cl::values(clEnumValN(mlc::tool::Progress::Mode::Auto, "auto",
                          "on a terminal, redrawn in place once a compile "
                          "has run for 2 s (default)"),
               clEnumValN(mlc::tool::Progress::Mode::Always, "always",
                          "each step as a line of its own, terminal or not"),
               clEnumValN(mlc::tool::Progress::Mode::Never, "never",
                          "nothing")),
    cl::init(mlc::tool::Progress::Mode::Auto));
cl::opt<std::string> reportFile(
    "report", cl::cat(mlcCategory),
    cl::desc("Write a JSON compile report: graph ops before/after, kernels "
             "and their fused ops, workspace and its lower bound, weights "
             "bytes, flops, seconds per phase and the peak memory"),
    cl::value_desc("file"));

/// The LLVM (not mlc, not MLIR) options on the command line, comma-separated.
std::string llvmOptionsGiven() {
  std::string given;
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (option->getNumOccurrences() &&
        !llvm::is_contained(option->Categories, &mlcCategory) &&
        !name.starts_with("mlir-"))
      given += (given.empty() ? "--" : ", --") + name.str();
  return given;
}

/// ../lib/libmlc_runtime.a next to this tool's bin/.
std::string defaultRuntimeLib(const char *argv0) {
  std::string exe = sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&defaultRuntimeLib));
  SmallString<256> path(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(path, "lib", "libmlc_runtime.a");
  return path.str().str();
}

std::optional<mlc::OutputKind> outputKind(Emit emit) {
  switch (emit) {
  case Emit::Auto:
    return std::nullopt;
  case Emit::MLIR:
    return mlc::OutputKind::MLIR;
  case Emit::Dot:
    return mlc::OutputKind::Dot;
  case Emit::LLVM:
    return mlc::OutputKind::LLVM;
  case Emit::Asm:
    return mlc::OutputKind::Asm;
  case Emit::Obj:
    return mlc::OutputKind::Object;
  case Emit::SO:
    return mlc::OutputKind::SharedLibrary;
  case Emit::Archive:
    return mlc::OutputKind::Archive;
  }
  return std::nullopt;
}

} // namespace

namespace mlc::tool {

std::string parseCommandLine(int argc, char **argv, CommandLine &result) {
  hideLLVMOptions();
  cl::ParseCommandLineOptions(argc, argv,
                              "mlc-compile: compile a model to a shared "
                              "library (or MLIR, LLVM IR, assembly, object)\n");
  result.listONNXOps = listONNXOps;
  result.progress = progressMode;
  if (listONNXOps)
    return "";
  if (inputFile.empty())
    return "no input file (run 'mlc-compile --help' for usage)";
  CompileOptions &o = result.options;
  o.input = inputFile;
  o.output = outputFile;
  o.emit = outputKind(emitKind);
  o.report = reportFile;
  for (StringRef spec : inputShapes) {
    auto [name, dims] = spec.split('=');
    std::vector<int64_t> shape;
    if (name.empty() || !spec.contains('=') ||
        !mlc::frontend::parseShapeSpec(dims, shape))
      return ("--input-shape expects NAME=DxDx..., got '" + spec + "'").str();
    o.inputShapes[name.str()] = shape;
  }
  for (StringRef spec : bindings) {
    auto [name, file] = spec.split('=');
    if (name.empty() || file.empty())
      return ("--bind expects NAME=FILE, got '" + spec + "'").str();
    o.bindings[name.str()] = file.str();
  }
  o.train = train;
  o.optLevel = optLevel;
  if (graphOptLevel >= 0)
    o.graphOptLevel = unsigned(graphOptLevel);
  o.target = targetDevice;
  if (cpu.getNumOccurrences())
    o.cpu = cpu.getValue();
  if (vectorBits.getNumOccurrences())
    o.vectorBits = vectorBits;
  o.parallel = parallelKernels;
  o.reassociateFPReductions = reassociateFPReductions;
  o.winograd = winograd;
  o.nchwc = nchwc;
  if (integerKernels.getNumOccurrences())
    o.integerKernels = integerKernels;
  o.quantize = quantize;
  o.calibration = calibration;
  o.calibrationMethod = calibrationMethod;
  o.quantizeWeightBits = quantizeWeightBits;
  o.quantScales = quantizeScales;
  o.keepFloat.assign(quantizeKeep.begin(), quantizeKeep.end());
  o.profile = profileKernels;
  o.cudaArch = cudaArch;
  o.cudaToolkit = cudaToolkit;
  o.externalWeights = weightsPlacement == WeightsFlag::External;
  const char *verifyEnv = getenv("MLC_VERIFY_EACH");
  o.verifyEachPass = verifyEach.getNumOccurrences()
                         ? bool(verifyEach)
                         : verifyEnv && StringRef(verifyEnv) == "1";
  o.jobs = jobs.getNumOccurrences() ? unsigned(jobs) : 0;
  o.cacheDir = cacheDir;
  if (!o.cacheDir.empty())
    if (std::string given = llvmOptionsGiven(); !given.empty()) {
      // They may change the code, and the cache's keys do not know them.
      errs() << "mlc-compile: warning: --cache-dir is ignored with LLVM's "
                "own options ("
             << given << ")\n";
      o.cacheDir.clear();
    }
  o.runtimeLib =
      runtimeLib.empty() ? defaultRuntimeLib(argv[0]) : runtimeLib.getValue();
  o.cc = ccPath;
  o.archiveName = archiveName;
  return "";
}

} // namespace mlc::tool
