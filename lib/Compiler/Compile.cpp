//===- Compile.cpp - import, optimize, lower, emit: mlc::compile ----------===//
//
// The phases in order: import (model.json, ONNX or .mlir), the graph
// pipeline, then per output kind either the graph as text, or lowering to
// LLVM (one function family at a time) followed by one LLVM module emitted
// whole (.ll, .s, .o) or in parts on -j threads and linked with the runtime
// (model.so) or archived with a header (model.a, model.h). Every output goes
// through a temporary (AtomicOutput).
//
//===----------------------------------------------------------------------===//

#include "Quantize.h"
#include "mlc/Compiler/Compiler.h"

#include "AtomicOutput.h"
#include "Report.h"

#include "mlc/Backend/Weights.h"
#include "mlc/Compiler/Pipelines.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/JSON/ImportModel.h"
#include "mlc/Frontend/ONNX/ImportONNX.h"
#include "mlc/Target/CompileReport.h"
#include "mlc/Target/GraphDot.h"
#include "mlc/Target/ModelArchive.h"
#include "mlc/Target/ModelEmitter.h"
#include "mlc/Target/ObjectCache.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mlir;
using mlc::compiler::AtomicOutput;

namespace mlc {
namespace {

/// One compile: the options, the caller's hooks and what the phases share.
class Compilation {
public:
  Compilation(MLIRContext &context, const CompileOptions &options,
              const CompileHooks &hooks)
      : context(context), options(options), hooks(hooks),
        emit(options.emit ? *options.emit
                          : outputKindFromSuffix(options.output)) {}

  LogicalResult run();

private:
  /// An error without a place in the model (options, files, tools).
  LogicalResult fail(const Twine &message) {
    emitError(UnknownLoc::get(&context)) << message;
    return failure();
  }
  /// Opens `path`, lets `write` fill it and checks that it all reached the
  /// file; `shown` names it in messages (the output, not its temporary).
  LogicalResult
  writeFile(StringRef path, StringRef shown,
            llvm::function_ref<LogicalResult(raw_fd_ostream &)> write) {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    if (failed(write(os)))
      return failure();
    os.close();
    if (os.has_error())
      return fail("error writing '" + shown + "'");
    return success();
  }
  /// Creates `out`'s temporary, fills it with `write` and returns its path.
  FailureOr<std::string>
  writeTemporary(AtomicOutput &out, StringRef shown,
                 llvm::function_ref<LogicalResult(raw_fd_ostream &)> write) {
    std::string error;
    std::string tmp = out.create(error);
    if (tmp.empty())
      return fail(error);
    if (failed(writeFile(tmp, shown, write)))
      return failure();
    return tmp;
  }
  /// An object file for the link, removed when the compile ends; its path
  /// is appended to `objectPaths`.
  LogicalResult
  writeObject(const Twine &name, std::vector<std::string> &objectPaths,
              llvm::function_ref<LogicalResult(raw_fd_ostream &)> write) {
    temporaries.push_back(std::make_unique<AtomicOutput>(name.str()));
    FailureOr<std::string> path =
        writeTemporary(*temporaries.back(), name.str(), write);
    if (failed(path))
      return failure();
    objectPaths.push_back(*path);
    return success();
  }
  /// Starts a phase: its time in the report, the caller's progress line
  /// and --mlir-timing.
  TimingScope beginPhase(StringRef name) {
    phases.begin(name);
    if (hooks.phase)
      hooks.phase(name);
    return hooks.timing ? hooks.timing->nest(name) : TimingScope();
  }
  LogicalResult configure(PassManager &pm, TimingScope &timer) {
    if (hooks.configurePassManager && failed(hooks.configurePassManager(pm)))
      return failure();
    pm.enableTiming(timer);
    pm.enableVerifier(options.verifyEachPass);
    return success();
  }

  OwningOpRef<ModuleOp> import();
  PipelineOptions pipelineOptions(const target::CPUTarget &cpu) const;
  LogicalResult writeGraph(ModuleOp module, StringRef path);
  std::unique_ptr<llvm::Module> lowerToLLVM(ModuleOp module,
                                            const PipelineOptions &base,
                                            const target::CPUTarget &cpu,
                                            llvm::LLVMContext &llvmContext,
                                            backend::WeightsImage *weights);
  LogicalResult emitOneFile(llvm::Module &module, const target::CPUTarget &cpu,
                            StringRef path);
  LogicalResult writeWeights(backend::WeightsImage &weights,
                             backend::WeightsPlacement placement,
                             const target::CPUTarget &cpu,
                             std::vector<std::string> &objectPaths);
  LogicalResult writeObjects(std::unique_ptr<llvm::Module> module,
                             backend::WeightsImage &weights,
                             backend::WeightsPlacement placement,
                             const target::CPUTarget &cpu,
                             std::vector<std::string> &objectPaths);
  LogicalResult linkModel(std::unique_ptr<llvm::Module> module,
                          backend::WeightsImage &weights,
                          const target::CPUTarget &cpu, StringRef path);
  LogicalResult archiveModel(std::unique_ptr<llvm::Module> module,
                             backend::WeightsImage &weights,
                             const PipelineOptions &pipeline,
                             const target::CPUTarget &cpu, StringRef path,
                             StringRef headerPath);
  LogicalResult writeReport(StringRef path);

  MLIRContext &context;
  const CompileOptions &options;
  const CompileHooks &hooks;
  OutputKind emit;
  compiler::PhaseTimes phases;
  json::Object report;
  llvm::SourceMgr sourceMgr; // an .mlir input's buffer
  // The inference entry's, for an archive's header and entry points.
  std::string signatureText;
  uint64_t workspaceBytes = 0;
  // Temporaries until the compile succeeded: the objects (removed) and an
  // external weights file (committed with the output).
  SmallVector<std::unique_ptr<AtomicOutput>> temporaries;
  std::optional<AtomicOutput> weightsOutput;
};

OwningOpRef<ModuleOp> Compilation::import() {
  StringRef ext = sys::path::extension(options.input);
  if (ext == ".onnx") {
    frontend::ONNXImportOptions onnx;
    onnx.inputShapes = options.inputShapes;
    onnx.bindings = options.bindings;
    return frontend::importONNX(&context, options.input, onnx);
  }
  if (ext == ".mlir") {
    std::string openError;
    auto file = openInputFile(options.input, &openError);
    if (!file) {
      (void)fail(openError);
      return nullptr;
    }
    sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
    return parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  if (!options.train)
    return frontend::importModelJSON(&context, options.input);
  frontend::ModelSpec spec;
  frontend::Diagnostic diag;
  if (!frontend::parseModelJSON(options.input, spec, diag)) {
    emitError(frontend::jsonLocation(&context, options.input, diag.path))
        << diag.message;
    return nullptr;
  }
  return frontend::importTrainingModel(&context, spec);
}

PipelineOptions
Compilation::pipelineOptions(const target::CPUTarget &cpu) const {
  PipelineOptions p;
  p.target = options.target;
  // A CUDA model's host code only launches kernels: no CPU features to
  // check when it is opened.
  p.cpuFeatures = options.target == Target::CUDA ? "" : cpu.abiFeatures;
  p.vectorBits = options.vectorBits ? *options.vectorBits : cpu.vectorBits;
  p.vectorRegisters = cpu.vectorRegisters;
  p.parallel = options.parallel;
  p.reassociateFPReductions = options.reassociateFPReductions;
  p.winograd = options.winograd;
  p.integerKernels = options.integerKernels.value_or(
      options.target == Target::CPU && hasVNNI(p));
  p.nchwc = options.nchwc;
  p.profile = options.profile;
  p.cuda.chips = options.cudaArch;
  if (!options.cudaToolkit.empty()) {
    p.cuda.toolkit = options.cudaToolkit;
  } else {
    const char *home = getenv("CUDA_HOME");
    p.cuda.toolkit = home && *home ? home : "/usr/local/cuda";
  }
  p.optLevel = options.graphOptLevel.value_or(options.optLevel);
  // Batch-norm folding and friends would bake trained values into code.
  p.inference = !options.train;
  return p;
}

LogicalResult Compilation::writeGraph(ModuleOp module, StringRef path) {
  return writeFile(path, options.output, [&](raw_fd_ostream &os) {
    if (emit == OutputKind::MLIR) {
      module.print(os);
      return success();
    }
    return target::printGraphDot(module, "main", os);
  });
}

/// Lowers one function family at a time (a trainable model has three:
/// model_abi.h) and links their LLVM IR into one module. With `weights`,
/// the weights stay out of LLVM IR: they move there (Backend/Weights.h).
std::unique_ptr<llvm::Module> Compilation::lowerToLLVM(
    ModuleOp module, const PipelineOptions &base, const target::CPUTarget &cpu,
    llvm::LLVMContext &llvmContext, backend::WeightsImage *weights) {
  struct Family {
    const char *func, *prefix;
  };
  SmallVector<Family> families = {{"main", "mlc_model"}};
  if (options.train)
    families.append({{"train_step", "mlc_train"}, {"init", "mlc_init"}});
  std::unique_ptr<llvm::Module> linked;
  for (const Family &family : families) {
    OwningOpRef<ModuleOp> part;
    ModuleOp lowered = module;
    if (families.size() > 1) {
      // The lowering handles one entry: each family on a copy of its own.
      part = module.clone();
      for (auto f : llvm::make_early_inc_range(part->getOps<func::FuncOp>()))
        if (f.getSymName() != family.func)
          f.erase();
      lowered = *part;
    }
    PipelineOptions familyOpts = base;
    familyOpts.entry = family.func;
    familyOpts.abiPrefix = family.prefix;
    TimingScope lowerTimer = beginPhase("lower to LLVM dialect");
    PassManager pm(&context, ModuleOp::getOperationName());
    if (failed(configure(pm, lowerTimer)) ||
        failed(buildLowerToLoopsPipeline(pm, familyOpts)) ||
        failed(buildLowerToLLVMPipeline(pm, familyOpts)) ||
        failed(pm.run(lowered)) || failed(verify(lowered)))
      return nullptr;
    lowerTimer.stop();
    if (family.prefix == StringRef("mlc_model")) {
      compiler::addLoweringFigures(report, lowered);
      if (auto text = lowered->getAttrOfType<StringAttr>("mlc.signature"))
        signatureText = text.str();
      if (auto bytes =
              lowered->getAttrOfType<IntegerAttr>("mlc.workspace_bytes"))
        workspaceBytes = bytes.getInt();
    }
    TimingScope translateTimer = beginPhase("translate to LLVM IR");
    if (weights)
      backend::takeWeights(lowered, target::kWeightsSection, family.prefix,
                           *weights);
    auto familyModule = target::translateToLLVMIR(lowered, llvmContext, cpu);
    if (!familyModule) {
      (void)fail("translation to LLVM IR failed");
      return nullptr;
    }
    // The entry keeps what was not worth a kernel: pads' borders, small
    // copies, the calls. LLVM fully unrolled those loops (ResNet-18 at batch
    // 8: 3,250 lines became 16,000) and spent most of the back end's time
    // on that one function; at optsize they stay loops (and memsets).
    if (llvm::Function *entry = familyModule->getFunction(family.func))
      entry->addFnAttr(llvm::Attribute::OptimizeForSize);
    translateTimer.stop();
    std::string error;
    if (!linked)
      linked = std::move(familyModule);
    else if (failed(target::linkModules(*linked, std::move(familyModule),
                                        error))) {
      (void)fail(error);
      return nullptr;
    }
  }
  return linked;
}

/// .ll, .s, .o: the whole module optimized and emitted in one piece.
LogicalResult Compilation::emitOneFile(llvm::Module &module,
                                       const target::CPUTarget &cpu,
                                       StringRef path) {
  std::string error;
  {
    TimingScope timer = beginPhase("LLVM optimize");
    if (failed(target::optimize(module, cpu, options.optLevel, error)))
      return fail(error);
  }
  TimingScope timer = beginPhase("emit");
  return writeFile(path, options.output, [&](raw_fd_ostream &os) {
    if (emit == OutputKind::LLVM) {
      module.print(os, nullptr);
      return success();
    }
    if (failed(target::emitMachineCode(module, cpu, options.optLevel,
                                       emit == OutputKind::Asm
                                           ? target::FileKind::Assembly
                                           : target::FileKind::Object,
                                       os, error)))
      return fail(error);
    return success();
  });
}

/// The weights' object (and with --weights=external, the weights file),
/// written straight from the blobs; then the blobs are freed, unless the
/// weights go into the linked file (linkModel appends them).
LogicalResult Compilation::writeWeights(backend::WeightsImage &weights,
                                        backend::WeightsPlacement placement,
                                        const target::CPUTarget &cpu,
                                        std::vector<std::string> &objectPaths) {
  TimingScope timer = beginPhase("write weights");
  std::string error;
  std::string weightsFile;
  if (placement == backend::WeightsPlacement::External) {
    std::string path = externalWeightsPath(options);
    weightsFile = sys::path::filename(path).str();
    weightsOutput.emplace(path);
    if (failed(writeTemporary(*weightsOutput, path, [&](raw_fd_ostream &os) {
          backend::writeWeightsFile(weights, os);
          return success();
        })))
      return failure();
  }
  if (failed(writeObject(
          options.output + ".weights.o", objectPaths, [&](raw_fd_ostream &os) {
            return failed(backend::writeWeightsObject(
                       weights, cpu.triple, placement, weightsFile, os, error))
                       ? fail(error)
                       : success();
          })))
    return failure();
  report["weights_image_bytes"] = int64_t(weights.size);
  // Nothing reads the model's constants any more.
  if (placement != backend::WeightsPlacement::InFile)
    weights.releaseBlobs();
  return success();
}

/// The weights' object and the module in parts optimized and emitted on -j
/// threads, as temporaries: their paths in `objectPaths`, weights first.
LogicalResult Compilation::writeObjects(std::unique_ptr<llvm::Module> module,
                                        backend::WeightsImage &weights,
                                        backend::WeightsPlacement placement,
                                        const target::CPUTarget &cpu,
                                        std::vector<std::string> &objectPaths) {
  report["codegen_parts"] = target::partsFor(*module);
  if (failed(writeWeights(weights, placement, cpu, objectPaths)))
    return failure();
  std::string error;
  FailureOr<SmallVector<SmallString<0>>> objects;
  {
    TimingScope timer = beginPhase("LLVM optimize + emit objects");
    std::optional<target::ObjectCache> cache;
    if (!options.cacheDir.empty())
      // Called from the code generation threads, one at a time.
      cache.emplace(options.cacheDir, [&](const Twine &message) {
        emitWarning(UnknownLoc::get(&context)) << message.str();
      });
    objects = target::compileInParts(
        std::move(module), cpu, options.optLevel,
        options.jobs ? options.jobs : target::defaultJobs(), error, hooks.parts,
        cache ? &*cache : nullptr);
    if (failed(objects))
      return fail(error);
    if (cache) {
      target::ObjectCache::Counts counts = cache->counts();
      report["cache"] = json::Object{{"hits", counts.hits},
                                     {"misses", counts.misses},
                                     {"rejected", counts.rejected}};
    }
  }
  for (auto [i, object] : llvm::enumerate(*objects))
    if (failed(writeObject(options.output + ".part" + Twine(i) + ".o",
                           objectPaths, [&](raw_fd_ostream &os) {
                             os << object;
                             return success();
                           })))
      return failure();
  objects->clear();
  return success();
}

/// model.so: the objects and the runtime archive, linked.
LogicalResult Compilation::linkModel(std::unique_ptr<llvm::Module> module,
                                     backend::WeightsImage &weights,
                                     const target::CPUTarget &cpu,
                                     StringRef path) {
  // The weights go into the linked file, never through the linker, unless
  // asked otherwise; a model without any needs no section.
  backend::WeightsPlacement placement =
      options.weights == WeightsStorage::External
          ? backend::WeightsPlacement::External
      : options.weights == WeightsStorage::Linked || weights.size == 0
          ? backend::WeightsPlacement::Embedded
          : backend::WeightsPlacement::InFile;
  if (placement == backend::WeightsPlacement::InFile)
    backend::addWeightsInFileConstructor(*module);
  std::vector<std::string> objectPaths;
  if (failed(writeObjects(std::move(module), weights, placement, cpu,
                          objectPaths)))
    return failure();
  std::string error;
  TimingScope timer = beginPhase("link model.so");
  if (failed(target::linkSharedLibrary(objectPaths, options.runtimeLib, path,
                                       options.cc, error)))
    return fail(error);
  timer.stop();
  temporaries.clear();
  if (placement == backend::WeightsPlacement::InFile) {
    TimingScope appendTimer = beginPhase("append weights");
    if (failed(backend::appendWeightsSection(weights, path, error)))
      return fail(error);
    weights.releaseBlobs();
  }
  return success();
}

/// Gives every symbol the model defines, the weights' too, the archive's
/// prefix (ModelArchive.h), so that models never clash in one program.
void prefixArchiveSymbols(llvm::Module &module, backend::WeightsImage &weights,
                          StringRef name) {
  std::vector<std::string> weightSymbols;
  for (const backend::WeightsImage::Entry &entry : weights.entries)
    weightSymbols.push_back(entry.symbol);
  target::prefixModelSymbols(module, name, weightSymbols);
  for (backend::WeightsImage::Entry &entry : weights.entries)
    entry.symbol = target::archiveSymbol(name, entry.symbol);
}

/// model.a and model.h (docs/embedding.md): the model's symbols prefixed,
/// its C entry points added, its objects archived (the runtime stays out:
/// the program links it once for all its models).
LogicalResult Compilation::archiveModel(std::unique_ptr<llvm::Module> module,
                                        backend::WeightsImage &weights,
                                        const PipelineOptions &pipeline,
                                        const target::CPUTarget &cpu,
                                        StringRef path, StringRef headerPath) {
  std::string error;
  target::ModelSignature signature;
  if (failed(target::parseModelSignature(signatureText, workspaceBytes,
                                         signature, error)))
    return fail("cannot make an archive of this model: " + error);
  std::string name = archiveSymbolName(options);
  prefixArchiveSymbols(*module, weights, name);
  target::addArchiveEntryPoints(*module, name, signature, pipeline.cpuFeatures);
  std::vector<std::string> objectPaths;
  if (failed(writeObjects(std::move(module), weights,
                          backend::WeightsPlacement::Embedded, cpu,
                          objectPaths)))
    return failure();
  TimingScope timer = beginPhase("write archive");
  std::vector<target::ArchiveMember> members;
  for (auto [i, objectPath] : llvm::enumerate(objectPaths))
    members.push_back({i == 0 ? name + ".weights.o"
                              : name + ".part" + std::to_string(i - 1) + ".o",
                       objectPath});
  if (failed(writeFile(path, options.output, [&](raw_fd_ostream &os) {
        return failed(target::writeObjectArchive(members, os, error))
                   ? fail(error)
                   : success();
      })))
    return failure();
  temporaries.clear();
  return writeFile(headerPath, archiveHeaderPath(options),
                   [&](raw_fd_ostream &os) {
                     target::writeModelHeader(signature, name, options.input,
                                              options.output, os);
                     return success();
                   });
}

/// Written last, so the phases and the peak memory are the whole compile's.
LogicalResult Compilation::writeReport(StringRef path) {
  json::Array list;
  for (const compiler::PhaseTimes::Phase &phase : phases.phases())
    list.push_back(json::Object{{"phase", phase.name},
                                {"seconds", phase.seconds},
                                {"peak_rss_mib", phase.peakRSSMiB}});
  report["phases"] = std::move(list);
  report["total_seconds"] = phases.totalSeconds();
  report["peak_rss_mib"] = compiler::peakRSSMiB();
  return writeFile(path, options.report, [&](raw_fd_ostream &os) {
    os << formatv("{0:2}", json::Value(json::Object(report))) << "\n";
    return success();
  });
}

LogicalResult Compilation::run() {
  std::string problem = checkCompileOptions(options);
  if (!problem.empty())
    return fail(problem);
  DialectRegistry registry;
  registerDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadDialect<graph::GraphDialect>();

  TimingScope importTimer = beginPhase("import");
  OwningOpRef<ModuleOp> module = import();
  if (!module)
    return failure();
  importTimer.stop();

  std::string error;
  auto cpu = target::resolveCPUTarget(
      options.cpu ? *options.cpu
                  : (options.target == Target::CUDA ? "generic" : "native"),
      error);
  if (failed(cpu))
    return fail(error);

  // The outputs exist as temporaries until everything succeeded.
  AtomicOutput output(options.output);
  std::string outputTmp = output.create(error);
  if (outputTmp.empty())
    return fail(error);
  // An archive's header is a second output of its own.
  std::optional<AtomicOutput> headerOutput;
  std::string headerTmp;
  if (emit == OutputKind::Archive) {
    headerOutput.emplace(archiveHeaderPath(options));
    headerTmp = headerOutput->create(error);
    if (headerTmp.empty())
      return fail(error);
  }
  std::optional<AtomicOutput> reportOutput;
  std::string reportTmp;
  if (!options.report.empty()) {
    reportOutput.emplace(options.report);
    reportTmp = reportOutput->create(error);
    if (reportTmp.empty())
      return fail(error);
  }
  report["graph_ops_before"] = target::countGraphOps(*module);

  // Post-training quantization works on the folded float graph (batch
  // norms in the weights) and leaves a QDQ graph for the pipeline.
  if (!options.quantize.empty()) {
    TimingScope timer = beginPhase("quantize");
    PassManager pm(&context, ModuleOp::getOperationName());
    json::Object quantization;
    if (failed(configure(pm, timer)) ||
        failed(parsePassPipeline(
            "canonicalize,cse,graph-fold-batch-norm,graph-fold-constants",
            pm)) ||
        failed(pm.run(*module)) ||
        failed(compiler::quantizeModel(*module, options, quantization)) ||
        failed(verify(*module)))
      return failure();
    report["quantization"] = std::move(quantization);
  }

  // Graph optimizations of the -O level (-O0 keeps the graph as imported).
  PipelineOptions pipeline = pipelineOptions(*cpu);
  {
    TimingScope timer = beginPhase("graph pipeline");
    PassManager pm(&context, ModuleOp::getOperationName());
    if (failed(configure(pm, timer)) ||
        failed(buildGraphOptimizationPipeline(pm, pipeline)) ||
        failed(pm.run(*module)) || failed(verify(*module)))
      return failure();
  }
  for (auto &kv : target::graphStats(*module))
    report[kv.first] = kv.second;

  if (emit == OutputKind::MLIR || emit == OutputKind::Dot) {
    if (failed(writeGraph(*module, outputTmp)))
      return failure();
  } else {
    llvm::LLVMContext llvmContext;
    // One file (.ll, .s, .o) keeps the weights in its IR.
    bool inParts =
        emit == OutputKind::SharedLibrary || emit == OutputKind::Archive;
    backend::WeightsImage weights;
    std::unique_ptr<llvm::Module> llvmModule = lowerToLLVM(
        *module, pipeline, *cpu, llvmContext, inParts ? &weights : nullptr);
    if (!llvmModule)
      return failure();
    if (!inParts) {
      if (failed(emitOneFile(*llvmModule, *cpu, outputTmp)))
        return failure();
    } else if (emit == OutputKind::Archive) {
      if (failed(archiveModel(std::move(llvmModule), weights, pipeline, *cpu,
                              outputTmp, headerTmp)))
        return failure();
    } else {
      if (failed(linkModel(std::move(llvmModule), weights, *cpu, outputTmp)))
        return failure();
    }
  }
  if (reportOutput && failed(writeReport(reportTmp)))
    return failure();
  if (reportOutput && failed(reportOutput->commit(error)))
    return fail(error);
  // The weights file first: a model.so never appears without it.
  if (weightsOutput && failed(weightsOutput->commit(error)))
    return fail(error);
  // Likewise the header; it goes again if the archive cannot follow.
  if (headerOutput && failed(headerOutput->commit(error)))
    return fail(error);
  if (failed(output.commit(error))) {
    if (headerOutput)
      sys::fs::remove(archiveHeaderPath(options));
    return fail(error);
  }
  return success();
}

} // namespace

LogicalResult compile(MLIRContext &context, const CompileOptions &options,
                      const CompileHooks &hooks) {
  return Compilation(context, options, hooks).run();
}

} // namespace mlc
