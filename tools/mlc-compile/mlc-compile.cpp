//===- mlc-compile.cpp - the mlc compiler driver --------------------------===//
//
// mlc-compile INPUT -o OUTPUT: model.json or graph-dialect .mlir in;
// graph-level MLIR, LLVM IR, assembly, an object file or a self-contained
// model.so out. Errors are MLIR diagnostics pointing into the source model;
// on any error the exit code is 1 and no output file is left behind.
//
//===----------------------------------------------------------------------===//

#include "AtomicOutput.h"
#include "Progress.h"

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/JSON/ImportModel.h"
#include "mlc/Frontend/ONNX/ImportONNX.h"
#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Target/CompileReport.h"
#include "mlc/Target/GraphDot.h"
#include "mlc/Target/ModelEmitter.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <sys/resource.h>

using namespace llvm;
using namespace mlir;

namespace {

enum class Emit { Auto, MLIR, Dot, LLVM, Asm, Obj, SO };

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
               clEnumValN(Emit::SO, "so", "shared library with the runtime")));
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
enum class Device { CPU, CUDA, CUDAEmulated };
cl::opt<Device> targetDevice(
    "target", cl::cat(mlcCategory),
    cl::desc("Where the model runs (default cpu)"), cl::init(Device::CPU),
    cl::values(clEnumValN(Device::CPU, "cpu", "this machine's CPU"),
               clEnumValN(Device::CUDA, "cuda",
                          "NVIDIA GPUs: kernels in a fatbin (see "
                          "--cuda-arch), launched by the runtime through "
                          "the CUDA driver (docs/cuda.md)"),
               clEnumValN(Device::CUDAEmulated, "cuda-emulated",
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
cl::opt<unsigned>
    jobs("j", cl::cat(mlcCategory), cl::value_desc("N"),
         cl::Prefix, // -j2, -j 2
         cl::desc("Threads optimizing and emitting the model's parts (default: "
                  "the CPUs this process may use); the .so is the same for "
                  "every N"));
cl::opt<bool> winograd(
    "winograd", cl::cat(mlcCategory),
    cl::desc("Stride-1 3x3 convolutions with at least 32 input and 64 "
             "output channels and 16 output tiles of 4x4 as Winograd "
             "F(4x4, 3x3) "
             "(inference, CPU and CUDA; default on; a few 1e-6 relative error against "
             "float64, about 4x direct convolution's: docs/compiler.md)"),
    cl::init(true));
cl::opt<bool> nchwc(
    "nchwc", cl::cat(mlcCategory),
    cl::desc("Convolution regions in the blocked channel layout "
             "[N, C/16, H, W, 16] with layout changes only at their edges "
             "(inference on the CPU; default on: docs/compiler.md)"),
    cl::init(true));
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
cl::opt<mlc::compile::Progress::Mode> progressMode(
    "progress", cl::cat(mlcCategory),
    cl::desc("The progress line on stderr: the phase, the back end's parts "
             "done of total, the seconds so far"),
    cl::values(clEnumValN(mlc::compile::Progress::Mode::Auto, "auto",
                          "on a terminal, redrawn in place once a compile "
                          "has run for 2 s (default)"),
               clEnumValN(mlc::compile::Progress::Mode::Always, "always",
                          "each step as a line of its own, terminal or not"),
               clEnumValN(mlc::compile::Progress::Mode::Never, "never",
                          "nothing")),
    cl::init(mlc::compile::Progress::Mode::Auto));
cl::opt<std::string> reportFile(
    "report", cl::cat(mlcCategory),
    cl::desc("Write a JSON compile report: graph ops before/after, kernels "
             "and their fused ops, workspace and its lower bound, weights "
             "bytes, flops, seconds per phase and the peak memory"),
    cl::value_desc("file"));

Emit emitFromSuffix(StringRef path) {
  StringRef ext = sys::path::extension(path);
  if (ext == ".mlir")
    return Emit::MLIR;
  if (ext == ".dot" || ext == ".gv")
    return Emit::Dot;
  if (ext == ".ll")
    return Emit::LLVM;
  if (ext == ".s")
    return Emit::Asm;
  if (ext == ".o")
    return Emit::Obj;
  return Emit::SO;
}

/// Prints diagnostics located in a model.json (NameLoc(json path) around
/// file:0:0) as "file: path: error: message"; anything else goes to the
/// source-manager handler registered before it.
LogicalResult printJSONDiagnostic(mlir::Diagnostic &diag) {
  auto name = dyn_cast<NameLoc>(diag.getLocation());
  auto file = name ? dyn_cast<FileLineColLoc>(name.getChildLoc()) : nullptr;
  bool wholeFile = false;
  if (!file) {
    file = dyn_cast<FileLineColLoc>(diag.getLocation());
    wholeFile = file && file.getLine() == 0;
    if (!wholeFile)
      return failure();
  }
  if (file.getLine() != 0)
    return failure();
  auto &os = llvm::errs();
  os << file.getFilename().getValue() << ": ";
  if (!wholeFile && !name.getName().getValue().empty())
    os << name.getName().getValue() << ": ";
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case mlir::DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case mlir::DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case mlir::DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  os << diag.str() << "\n";
  for (mlir::Diagnostic &note : diag.getNotes())
    os << "  note: " << note.str() << "\n";
  return success();
}

std::string defaultRuntimeLib(const char *argv0) {
  std::string exe = sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&emitFromSuffix));
  SmallString<256> path(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(path, "lib", "libmlc_runtime.a");
  return path.str().str();
}

/// Adds the figures the lowering recorded as module attributes.
void addLoweringFigures(json::Object &report, ModuleOp module) {
  for (StringRef key : {"workspace_bytes", "workspace_lower_bound_bytes"})
    if (auto attr = module->getAttrOfType<IntegerAttr>(("mlc." + key).str()))
      report[key] = attr.getInt();
  // --target=cuda: ptxas's resource figures per kernel and chip.
  if (auto kernels = module->getAttrOfType<ArrayAttr>("mlc.cuda_kernels")) {
    json::Array list;
    for (auto kernel : kernels.getAsRange<DictionaryAttr>()) {
      json::Object entry;
      for (NamedAttribute field : kernel) {
        if (auto s = dyn_cast<StringAttr>(field.getValue()))
          entry[field.getName().strref()] = s.getValue().str();
        else if (auto i = dyn_cast<IntegerAttr>(field.getValue()))
          entry[field.getName().strref()] = i.getInt();
      }
      list.push_back(std::move(entry));
    }
    report["cuda_kernels"] = std::move(list);
  }
}

/// The compile's progress line, erased before anything else is printed.
mlc::compile::Progress *activeProgress = nullptr;

int fail(const Twine &message) {
  if (activeProgress)
    activeProgress->clearLine();
  llvm::errs() << "mlc-compile: error: " << message << "\n";
  return 1;
}

/// The process's peak resident set so far, in MiB.
double peakRSSMiB() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return double(usage.ru_maxrss) / 1024.0; // KiB on Linux
}

} // namespace

using mlc::compile::AtomicOutput;

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  // Passes first: the --mlir-print-ir-* options list the registered passes.
  mlc::registerPassesAndPipelines();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  hideLLVMOptions();
  cl::ParseCommandLineOptions(argc, argv,
                              "mlc-compile: compile a model to a shared "
                              "library (or MLIR, LLVM IR, assembly, object)\n");
  if (listONNXOps) {
    mlc::frontend::printSupportedONNXOps(llvm::outs());
    return 0;
  }
  if (inputFile.empty())
    return fail("no input file (run 'mlc-compile --help' for usage)");
  if (outputFile.empty())
    return fail("no output file: pass -o FILE");
  if (optLevel > 3)
    return fail("-O" + Twine(optLevel) + " is not a valid level (0-3)");
  if (graphOptLevel > 3)
    return fail("--graph-opt=" + Twine(graphOptLevel) +
                " is not a valid level (0-3)");
  Emit emit = emitKind == Emit::Auto ? emitFromSuffix(outputFile) : emitKind;
  if (AtomicOutput::isStdout(outputFile) &&
      (emit == Emit::SO || emit == Emit::Obj))
    return fail(Twine("-o - writes text to standard output: choose ") +
                "--emit=mlir, dot, llvm or asm (" +
                (emit == Emit::SO ? "a shared library" : "an object file") +
                " needs a file name)");
  if (AtomicOutput::isStdout(outputFile) && AtomicOutput::isStdout(reportFile))
    return fail("-o - and --report - both ask for standard output");
  bool cuda = targetDevice == Device::CUDA;
  if (targetDevice != Device::CPU && train)
    return fail("--train is not supported with --target=cuda yet");
  std::string toolkit = cudaToolkit;
  if (toolkit.empty()) {
    const char *home = getenv("CUDA_HOME");
    toolkit = home && *home ? home : "/usr/local/cuda";
  }
  for (StringRef chip : llvm::split(cudaArch, ',')) {
    unsigned sm = 0;
    StringRef number = chip.trim();
    if (!number.consume_front("sm_") || number.getAsInteger(10, sm) ||
        sm < 75)
      return fail("--cuda-arch expects sm_XY names of GPUs CUDA 13 supports "
                  "(sm_75 or newer), got '" + chip + "'");
  }

  mlc::compile::Progress progress(progressMode);
  activeProgress = &progress;
  llvm::scope_exit clearProgress([] { activeProgress = nullptr; });

  // One timing report (--mlir-timing) for the whole compile: the pass
  // pipelines nest under it next to the import and the LLVM phases.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTimer = timing.getRootScope();

  DialectRegistry registry;
  mlc::registerDialects(registry);
  MLIRContext context(registry);
  context.loadDialect<mlc::graph::GraphDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler sourceHandler(sourceMgr, &context);
  ScopedDiagnosticHandler jsonHandler(&context, printJSONDiagnostic);
  // Called first: erases the progress line, then lets the others print.
  ScopedDiagnosticHandler progressHandler(&context, [&](Diagnostic &) {
    progress.clearLine();
    return failure();
  });

  // 1. Import.
  progress.phase("import");
  TimingScope importTimer = rootTimer.nest("import");
  OwningOpRef<ModuleOp> module;
  if (train && sys::path::extension(inputFile) == ".onnx") {
    return fail("--train needs a model.json with a 'training' section (ONNX "
                "models cannot be trained yet)");
  } else if (sys::path::extension(inputFile) == ".onnx") {
    mlc::frontend::ONNXImportOptions options;
    for (StringRef spec : inputShapes) {
      auto [name, dims] = spec.split('=');
      std::vector<int64_t> shape;
      if (name.empty() || !spec.contains('=') ||
          !mlc::frontend::parseShapeSpec(dims, shape))
        return fail("--input-shape expects NAME=DxDx..., got '" + spec + "'");
      options.inputShapes[name.str()] = shape;
    }
    for (StringRef spec : bindings) {
      auto [name, file] = spec.split('=');
      if (name.empty() || file.empty())
        return fail("--bind expects NAME=FILE, got '" + spec + "'");
      options.bindings[name.str()] = file.str();
    }
    module = mlc::frontend::importONNX(&context, inputFile, options);
  } else if (!inputShapes.empty() || !bindings.empty()) {
    return fail("--input-shape and --bind apply to .onnx inputs only");
  } else if (train) {
    if (sys::path::extension(inputFile) == ".mlir")
      return fail("--train needs a model.json with a 'training' section");
    mlc::frontend::ModelSpec spec;
    mlc::frontend::Diagnostic diag;
    if (!mlc::frontend::parseModelJSON(inputFile, spec, diag)) {
      emitError(mlc::frontend::jsonLocation(&context, inputFile, diag.path))
          << diag.message;
      return 1;
    }
    module = mlc::frontend::importTrainingModel(&context, spec);
  } else if (sys::path::extension(inputFile) == ".mlir") {
    std::string openError;
    auto file = mlir::openInputFile(inputFile, &openError);
    if (!file)
      return fail(openError);
    sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  } else {
    module = mlc::frontend::importModelJSON(&context, inputFile);
  }
  if (!module)
    return 1;
  importTimer.stop();

  // 2. Target.
  std::string error;
  // A CUDA model's host code only launches kernels: build it for any x86-64
  // unless --cpu says otherwise.
  auto target = mlc::target::resolveCPUTarget(
      cuda && !cpu.getNumOccurrences() ? std::string("generic") : cpu.getValue(),
      error);
  if (failed(target))
    return fail(error);

  AtomicOutput output(outputFile);
  std::string tmpPath = output.create(error);
  if (tmpPath.empty())
    return fail(error);
  // The report is written once the pipeline has run and renamed into place
  // with the output, so a failed compile leaves neither behind.
  std::optional<AtomicOutput> report;
  std::string reportTmp;
  if (!reportFile.empty()) {
    report.emplace(reportFile);
    reportTmp = report->create(error);
    if (reportTmp.empty())
      return fail(error);
  }
  json::Object reportData;
  reportData["graph_ops_before"] = mlc::target::countGraphOps(*module);
  auto writeReport = [&]() -> LogicalResult {
    if (!report)
      return success();
    // Seconds per phase, in order, and the peak memory so far (what the
    // compile needed: the report is written last).
    json::Array phases;
    for (auto &[name, seconds] : progress.phaseSeconds())
      phases.push_back(json::Object{{"phase", name}, {"seconds", seconds}});
    reportData["phases"] = std::move(phases);
    reportData["total_seconds"] = progress.totalSeconds();
    reportData["peak_rss_mib"] = peakRSSMiB();
    std::error_code ec;
    raw_fd_ostream os(reportTmp, ec);
    if (ec) {
      error = "cannot write '" + reportTmp + "': " + ec.message();
      return failure();
    }
    os << formatv("{0:2}", json::Value(json::Object(reportData))) << "\n";
    os.close();
    if (os.has_error()) {
      error = "error writing '" + reportFile + "'";
      return failure();
    }
    return success();
  };
  auto finish = [&]() -> int {
    progress.finish();
    if (report && failed(report->commit(error)))
      return fail(error);
    return failed(output.commit(error)) ? fail(error) : 0;
  };

  mlc::CPUPipelineOptions pipelineOpts;
  pipelineOpts.cpuFeatures = target->abiFeatures;
  pipelineOpts.vectorBits =
      vectorBits.getNumOccurrences() ? vectorBits : target->vectorBits;
  pipelineOpts.vectorRegisters = target->vectorRegisters;
  pipelineOpts.parallel = parallelKernels;
  pipelineOpts.reassociateFPReductions = reassociateFPReductions;
  pipelineOpts.winograd = winograd;
  pipelineOpts.nchwc = nchwc;
  pipelineOpts.profile = profileKernels;
  if (cuda) {
    pipelineOpts.device = "cuda";
    pipelineOpts.cudaChips = cudaArch;
    pipelineOpts.cudaToolkit = toolkit;
    // The host side only launches kernels: no CPU features to check.
    pipelineOpts.cpuFeatures = "";
  } else if (targetDevice == Device::CUDAEmulated) {
    pipelineOpts.device = "cuda-emulated";
  }
  pipelineOpts.optLevel =
      graphOptLevel >= 0 ? unsigned(graphOptLevel) : unsigned(optLevel);
  // Batch-norm folding and friends would bake trained values into code.
  pipelineOpts.inference = !train;

  // 3. Graph optimizations of the -O level (-O0 keeps the graph as
  // imported), then the graph's figures for the report.
  PassManager graphPM(&context, ModuleOp::getOperationName());
  if (failed(applyPassManagerCLOptions(graphPM)))
    return 1;
  progress.phase("graph pipeline");
  TimingScope graphTimer = rootTimer.nest("graph pipeline");
  graphPM.enableTiming(graphTimer);
  if (failed(mlc::buildGraphOptimizationPipeline(graphPM, pipelineOpts)) ||
      failed(graphPM.run(*module)) || failed(verify(*module)))
    return 1;
  graphTimer.stop();
  for (auto &kv : mlc::target::graphStats(*module))
    reportData[kv.first] = kv.second;

  if (emit == Emit::MLIR || emit == Emit::Dot) {
    // The optimized graph (re-compilable as input), or its picture.
    std::error_code ec;
    raw_fd_ostream os(tmpPath, ec);
    if (ec)
      return fail("cannot write '" + tmpPath + "': " + ec.message());
    if (emit == Emit::MLIR)
      module->print(os);
    else if (failed(mlc::target::printGraphDot(*module, "main", os)))
      return 1;
    os.close();
    if (failed(writeReport()))
      return fail(error);
    return finish();
  }

  // 4. Lower to LLVM dialect and LLVM IR, one function family at a time
  // (a trainable model has three; model_abi.h), linked into one module.
  struct Family {
    const char *func, *prefix;
  };
  SmallVector<Family> families = {{"main", "mlc_model"}};
  if (train)
    families.append({{"train_step", "mlc_train"}, {"init", "mlc_init"}});
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  for (const Family &family : families) {
    OwningOpRef<ModuleOp> part;
    ModuleOp lowered = *module;
    if (families.size() > 1) {
      // Each family is lowered on its own: the lowering handles one entry.
      part = module->clone();
      for (auto f : llvm::make_early_inc_range(part->getOps<func::FuncOp>()))
        if (f.getSymName() != family.func)
          f.erase();
      lowered = *part;
    }
    mlc::CPUPipelineOptions familyOpts = pipelineOpts;
    familyOpts.entry = family.func;
    familyOpts.abiPrefix = family.prefix;
    PassManager pm(&context, ModuleOp::getOperationName());
    if (failed(applyPassManagerCLOptions(pm)))
      return 1;
    progress.phase("lower to LLVM dialect");
    TimingScope lowerTimer = rootTimer.nest("lower to LLVM dialect");
    pm.enableTiming(lowerTimer);
    if (failed(mlc::buildLowerToLoopsPipeline(pm, familyOpts)) ||
        failed(mlc::buildLowerToLLVMPipeline(pm, familyOpts)))
      return 1;
    if (failed(pm.run(lowered)))
      return 1;
    lowerTimer.stop();
    if (family.prefix == StringRef("mlc_model"))
      addLoweringFigures(reportData, lowered);
    progress.phase("translate to LLVM IR");
    TimingScope translateTimer = rootTimer.nest("translate to LLVM IR");
    auto familyModule =
        mlc::target::translateToLLVMIR(lowered, llvmContext, *target);
    if (!familyModule)
      return fail("translation to LLVM IR failed");
    translateTimer.stop();
    if (!llvmModule)
      llvmModule = std::move(familyModule);
    else if (failed(mlc::target::linkModules(*llvmModule,
                                             std::move(familyModule), error)))
      return fail(error);
  }
  if (emit == Emit::SO)
    reportData["codegen_parts"] = mlc::target::partsFor(*llvmModule);

  std::error_code ec;
  if (emit == Emit::LLVM || emit == Emit::Asm || emit == Emit::Obj) {
    // 5. One file: the whole module optimized and emitted in one piece.
    progress.phase("LLVM optimize");
    TimingScope optimizeTimer = rootTimer.nest("LLVM optimize");
    if (failed(mlc::target::optimize(*llvmModule, *target, optLevel, error)))
      return fail(error);
    optimizeTimer.stop();
    progress.phase("emit");
    TimingScope emitTimer = rootTimer.nest("emit");
    raw_fd_ostream os(tmpPath, ec);
    if (ec)
      return fail("cannot write '" + tmpPath + "': " + ec.message());
    if (emit == Emit::LLVM)
      llvmModule->print(os, nullptr);
    else if (failed(mlc::target::emitMachineCode(
                 *llvmModule, *target, optLevel,
                 emit == Emit::Asm ? mlc::target::FileKind::Assembly
                                   : mlc::target::FileKind::Object,
                 os, error)))
      return fail(error);
    os.close();
    if (os.has_error())
      return fail("error writing '" + outputFile + "'");
    if (failed(writeReport()))
      return fail(error);
    return finish();
  }

  // 6. The module in parts, optimized and emitted on -j threads, then the
  // objects + runtime -> model.so.
  FailureOr<SmallVector<SmallString<0>>> objects;
  {
    progress.phase("LLVM optimize + emit objects");
    TimingScope codegenTimer = rootTimer.nest("LLVM optimize + emit objects");
    objects = mlc::target::compileInParts(
        std::move(llvmModule), *target, optLevel,
        jobs.getNumOccurrences() ? unsigned(jobs) : mlc::target::defaultJobs(),
        error,
        [&](unsigned done, unsigned total) { progress.parts(done, total); });
    if (failed(objects))
      return fail(error);
  }
  // Temporaries, removed when they go out of scope.
  SmallVector<std::unique_ptr<AtomicOutput>> objectFiles;
  std::vector<std::string> objectPaths;
  for (auto [i, object] : llvm::enumerate(*objects)) {
    objectFiles.push_back(std::make_unique<AtomicOutput>(
        outputFile + ".part" + std::to_string(i) + ".o"));
    std::string path = objectFiles.back()->create(error);
    if (path.empty())
      return fail(error);
    raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    os << object;
    os.close();
    if (os.has_error())
      return fail("error writing '" + path + "'");
    objectPaths.push_back(path);
  }
  progress.phase("link model.so");
  TimingScope linkTimer = rootTimer.nest("link model.so");
  std::string runtime =
      runtimeLib.empty() ? defaultRuntimeLib(argv[0]) : runtimeLib.getValue();
  if (failed(mlc::target::linkSharedLibrary(objectPaths, runtime, tmpPath,
                                            ccPath, error)))
    return fail(error);
  linkTimer.stop();
  if (failed(writeReport()))
    return fail(error);
  return finish();
}
