//===- ModelEmitter.cpp - LLVM dialect -> object file -> model.so ---------===//

#include "mlc/Target/ModelEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace llvm;

namespace mlc::target {

namespace {
/// Feature names the runtime can check (runtime/include/mlc/model_abi.h).
const char *const kCheckedFeatures[] = {
    "sse4.2",  "avx",      "avx2",     "fma",      "f16c",
    "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512vnni"};

void initLLVMTargets() {
  static bool done = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)done;
}

std::unique_ptr<TargetMachine> makeTargetMachine(const CPUTarget &t,
                                                 unsigned optLevel,
                                                 std::string &error) {
  initLLVMTargets();
  Triple triple(t.triple);
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  CodeGenOptLevel level = optLevel == 0   ? CodeGenOptLevel::None
                          : optLevel == 1 ? CodeGenOptLevel::Less
                          : optLevel == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> tm(target->createTargetMachine(
      triple, t.cpu, t.features, TargetOptions(), Reloc::PIC_, std::nullopt,
      level));
  if (!tm)
    error = "cannot create a target machine for " + t.triple + " cpu " + t.cpu;
  return tm;
}
} // namespace

FailureOr<CPUTarget> resolveCPUTarget(StringRef cpu, std::string &error) {
  CPUTarget t;
  t.triple = sys::getDefaultTargetTriple();
  SmallVector<std::string> enabled;
  if (cpu == "native") {
    t.cpu = sys::getHostCPUName().str();
    SubtargetFeatures features;
    for (const auto &f : sys::getHostCPUFeatures())
      features.AddFeature(f.getKey(), f.getValue());
    t.features = features.getString();
    for (const auto &f : sys::getHostCPUFeatures())
      if (f.getValue())
        enabled.push_back(f.getKey().str());
  } else {
    t.cpu = cpu == "generic" ? (Triple(t.triple).isX86() ? "x86-64" : "generic")
                             : cpu.str();
    initLLVMTargets();
    const Target *target = TargetRegistry::lookupTarget(Triple(t.triple), error);
    if (!target)
      return failure();
    // Validate with a default subtarget first: creating one for an unknown
    // CPU prints a warning of its own.
    std::unique_ptr<const MCSubtargetInfo> base(
        target->createMCSubtargetInfo(Triple(t.triple), "", ""));
    if (!base || !base->isCPUStringValid(t.cpu)) {
      error = "unknown CPU '" + cpu.str() + "' for " + t.triple;
      return failure();
    }
    std::unique_ptr<const MCSubtargetInfo> sti(
        target->createMCSubtargetInfo(Triple(t.triple), t.cpu, ""));
    for (const char *f : kCheckedFeatures)
      if (sti->checkFeatures(std::string("+") + f))
        enabled.push_back(f);
  }
  SmallVector<std::string> abi;
  for (const char *f : kCheckedFeatures)
    if (llvm::is_contained(enabled, f))
      abi.push_back(f);
  t.abiFeatures = llvm::join(abi, ",");
  if (llvm::is_contained(enabled, "avx512f")) {
    t.vectorBits = 512;
    t.vectorRegisters = 32;
  } else if (llvm::is_contained(enabled, "avx")) {
    t.vectorBits = 256;
  }
  return t;
}

std::unique_ptr<Module> translateToLLVMIR(mlir::ModuleOp module,
                                          LLVMContext &ctx,
                                          const CPUTarget &target) {
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
  // CUDA models: gpu.binary and gpu.launch_func (the blob is embedded, the
  // launches call the runtime's mgpu* functions).
  mlir::registerGPUDialectTranslation(registry);
  mlir::gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  module->getContext()->appendDialectRegistry(registry);
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, ctx, "model");
  if (!llvmModule)
    return nullptr;
  // CUDA models: the embedded fatbin goes where CUDA's tools look for one
  // (cuobjdump lists the .nv_fatbin section of host binaries).
  for (GlobalVariable &g : llvmModule->globals()) {
    auto *data = dyn_cast_or_null<ConstantDataSequential>(
        g.hasInitializer() ? g.getInitializer() : nullptr);
    if (data && data->isString() &&
        data->getRawDataValues().starts_with("\x50\xed\x55\xba")) {
      g.setSection(".nv_fatbin");
      g.setAlignment(Align(8));
    }
  }
  llvmModule->setTargetTriple(Triple(target.triple));
  std::string error;
  if (auto tm = makeTargetMachine(target, 2, error))
    llvmModule->setDataLayout(tm->createDataLayout());
  // Every function may use the target's features (LLVM reads them per
  // function when emitting code).
  for (Function &f : *llvmModule) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", target.cpu);
    if (!target.features.empty())
      f.addFnAttr("target-features", target.features);
  }
  return llvmModule;
}

LogicalResult linkModules(Module &dest, std::unique_ptr<Module> src,
                          std::string &error) {
  // Linker::linkModules returns true on error.
  if (Linker::linkModules(dest, std::move(src))) {
    error = "linking the model's function families failed";
    return failure();
  }
  return success();
}

LogicalResult optimize(Module &module, const CPUTarget &target,
                       unsigned optLevel, std::string &error) {
  std::unique_ptr<TargetMachine> tm = makeTargetMachine(target, optLevel, error);
  if (!tm)
    return failure();
  // The kernels come vectorized and tiled for the target's registers from
  // MLIR. LLVM's loop vectorizer then re-vectorized 592 of DenseNet-121's
  // loops (tails, copies, index loops) behind run-time checks: a third of
  // the back end's time, and 20% slower code (docs/compiler.md); the SLP
  // vectorizer found nothing to gain. Both stay off; unrolling and the rest
  // of the pipeline are LLVM's default for the level.
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = false;
  tuning.LoopInterleaving = true;
  tuning.LoopUnrolling = true;
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  // Two more passes of the default pipeline skipped for the same reason:
  // LoopLoadElimination (a quarter of DenseNet-121's `opt` time, in its
  // dependence checks over the unrolled tiles) and the late LoopUnroll
  // (partial and runtime unrolling of loops MLIR already unrolled for the
  // registers; it doubled MobileNetV2's IR). Together they were 20-25% of
  // the back end, and run times did not move (docs/compiler.md). The early
  // full unrolling of short constant loops stays: without it too,
  // DenseNet-121 ran 7% slower.
  PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [](StringRef pass, Any) {
        return pass != "LoopLoadEliminationPass" && pass != "LoopUnrollPass";
      });
  PassBuilder pb(tm.get(), tuning, std::nullopt, &instrumentation);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  OptimizationLevel level = optLevel == 1   ? OptimizationLevel::O1
                            : optLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager mpm = optLevel == 0
                              ? pb.buildO0DefaultPipeline(OptimizationLevel::O0)
                              : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
  return success();
}

LogicalResult emitMachineCode(Module &module, const CPUTarget &target,
                              unsigned optLevel, FileKind kind,
                              raw_pwrite_stream &os, std::string &error) {
  std::unique_ptr<TargetMachine> tm = makeTargetMachine(target, optLevel, error);
  if (!tm)
    return failure();
  legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              kind == FileKind::Object
                                  ? CodeGenFileType::ObjectFile
                                  : CodeGenFileType::AssemblyFile)) {
    error = "the target cannot emit this file type";
    return failure();
  }
  pm.run(module);
  return success();
}

/// The linker's build ID for a model.so linked from `inputs`: GNU ld's
/// default is a SHA-1 of the whole output, 0.2 s for a model with 100 MB of
/// weights; xxh3 digests of the inputs (objects and runtime), 1 MiB at a
/// time, are as deterministic, change with any of them, and take
/// milliseconds. Read, not mapped: mapped pages would count in the
/// compiler's resident memory. Empty if an input cannot be read (the
/// linker's default then).
static std::string buildID(ArrayRef<StringRef> inputs) {
  SmallVector<uint8_t> digests;
  auto append = [&](XXH128_hash_t h) {
    for (uint64_t half : {h.high64, h.low64})
      for (int byte = 0; byte < 8; ++byte)
        digests.push_back(static_cast<uint8_t>(half >> (8 * byte)));
  };
  std::vector<char> chunk(1 << 20);
  for (StringRef path : inputs) {
    Expected<sys::fs::file_t> file = sys::fs::openNativeFileForRead(path);
    if (!file) {
      consumeError(file.takeError());
      return "";
    }
    while (true) {
      Expected<size_t> n = sys::fs::readNativeFile(*file, chunk);
      if (!n) {
        consumeError(n.takeError());
        sys::fs::closeFile(*file);
        return "";
      }
      if (*n == 0)
        break;
      append(xxh3_128bits(
          ArrayRef(reinterpret_cast<const uint8_t *>(chunk.data()), *n)));
    }
    sys::fs::closeFile(*file);
    digests.push_back(0xff); // the end of a file
  }
  XXH128_hash_t id = xxh3_128bits(digests);
  return "-Wl,--build-id=0x" +
         utohexstr(id.high64, /*LowerCase=*/true, /*Width=*/16) +
         utohexstr(id.low64, /*LowerCase=*/true, /*Width=*/16);
}

LogicalResult linkSharedLibrary(ArrayRef<std::string> objectFiles,
                                StringRef runtimeArchive, StringRef output,
                                StringRef compiler, std::string &error) {
  // A driver named without a path (--cc clang) is looked up on PATH.
  std::string cc = compiler.empty() ? "cc" : compiler.str();
  if (!StringRef(cc).contains('/')) {
    auto found = sys::findProgramByName(cc);
    if (!found) {
      error = "no C compiler driver '" + cc + "' on PATH to link the model" +
              (compiler.empty() ? " (set --cc)" : "");
      return failure();
    }
    cc = *found;
  }
  if (!sys::fs::exists(runtimeArchive)) {
    error = "runtime library '" + runtimeArchive.str() +
            "' not found (set --runtime-lib)";
    return failure();
  }
  // -Bsymbolic binds the model's own references to its own copy of the
  // runtime even when the host program exports the same API symbols.
  SmallVector<StringRef> args = {cc, "-shared", "-o", output};
  args.append(objectFiles.begin(), objectFiles.end());
  args.append({// The model references none of the runtime API, yet it must
               // be exported.
               "-Wl,--whole-archive", runtimeArchive, "-Wl,--no-whole-archive",
               "-Wl,-Bsymbolic", "-Wl,--no-undefined", "-lm", "-ldl",
               "-lpthread"});
  SmallVector<StringRef> inputs(objectFiles.begin(), objectFiles.end());
  inputs.push_back(runtimeArchive);
  std::string id = buildID(inputs);
  if (!id.empty())
    args.push_back(id);
  std::string errMsg;
  int rc = sys::ExecuteAndWait(cc, args, std::nullopt, {}, 0, 0, &errMsg);
  if (rc != 0) {
    error = "linking the model with '" + cc + "' failed" +
            (errMsg.empty() ? "" : ": " + errMsg) + " (exit code " +
            std::to_string(rc) + ")";
    return failure();
  }
  return success();
}

} // namespace mlc::target
