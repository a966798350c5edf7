//===- ModelArchive.cpp - prefixed symbols, C entry points, ar archive ----===//
//
// The LLVM side of mlc-compile --emit=archive: the model's symbols renamed
// to its own namespace, the typed entry points the header declares, and the
// archive itself (written in-process). ModelHeader.cpp writes the header.
//
//===----------------------------------------------------------------------===//

#include "mlc/Target/ModelArchive.h"

#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace mlc::target {

LogicalResult parseModelSignature(StringRef text, uint64_t workspaceBytes,
                                  ModelSignature &signature,
                                  std::string &error) {
  signature = ModelSignature();
  signature.workspaceBytes = workspaceBytes;
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    ModelSignature::Tensor tensor;
    auto [kind, rest] = line.split(' ');
    auto [dtype, afterDtype] = rest.split(' ');
    auto [dims, name] = afterDtype.split(' ');
    if ((kind != "in" && kind != "out") || dtype.empty() ||
        !dims.consume_front("[") || !dims.consume_back("]") || name.empty()) {
      error = ("unexpected signature line '" + line + "'").str();
      return failure();
    }
    tensor.input = kind == "in";
    if (tensor.input && !signature.tensors.empty() &&
        !signature.tensors.back().input) {
      error = ("input after an output in signature line '" + line + "'").str();
      return failure();
    }
    SmallVector<StringRef> parts;
    dims.split(parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef d : parts) {
      int64_t value;
      if (d.getAsInteger(10, value) || value < 0) {
        error = ("bad dimension in signature line '" + line + "'").str();
        return failure();
      }
      tensor.shape.push_back(value);
    }
    tensor.dtype = dtype.str();
    tensor.name = name.str();
    signature.tensors.push_back(std::move(tensor));
  }
  return success();
}

std::string archiveSymbol(StringRef name, StringRef symbol) {
  // "__" keeps the internal symbols apart from the entry points
  // (<name>_run, ...).
  return (name + "__" + symbol).str();
}

void prefixModelSymbols(Module &module, StringRef name,
                        ArrayRef<std::string> definedElsewhere) {
  StringSet<> elsewhere;
  for (const std::string &symbol : definedElsewhere)
    elsewhere.insert(symbol);
  // Names cleared first, then set: a new name never meets an old one.
  SmallVector<std::pair<GlobalValue *, std::string>> renamed;
  for (GlobalValue &value : module.global_values()) {
    StringRef old = value.getName();
    // Intrinsics, llvm.used, llvm.global_ctors: not symbols.
    if (old.starts_with("llvm."))
      continue;
    if (value.isDeclaration() && !elsewhere.contains(old))
      continue;
    renamed.emplace_back(&value,
                         archiveSymbol(name, old.empty() ? "unnamed" : old));
  }
  for (auto &[value, newName] : renamed)
    value->setName("");
  for (auto &[value, newName] : renamed) {
    value->setName(newName);
    auto *object = dyn_cast<GlobalObject>(value);
    if (Comdat *comdat = object ? object->getComdat() : nullptr) {
      Comdat *prefixed = module.getOrInsertComdat(newName);
      prefixed->setSelectionKind(comdat->getSelectionKind());
      object->setComdat(prefixed);
    }
  }
}

namespace {

/// Builds the entry points of addArchiveEntryPoints.
class EntryPointBuilder {
public:
  EntryPointBuilder(Module &module, StringRef name,
                    const ModelSignature &signature)
      : module(module), ctx(module.getContext()), name(name),
        signature(signature), b(ctx) {}

  void build(StringRef cpuFeatures) {
    Function *runWithWorkspace = buildRunWithWorkspace(cpuFeatures);
    buildRun(runWithWorkspace);
    buildSetNumThreads();
  }

private:
  /// An exported function. It may run before the CPU check: baseline code
  /// only (the model's own functions never inline into it).
  Function *define(const Twine &fnName, FunctionType *type) {
    Function *f =
        Function::Create(type, GlobalValue::ExternalLinkage, fnName, module);
    f->addFnAttr(Attribute::NoUnwind);
    f->addFnAttr(Attribute::OptimizeForSize);
    f->addFnAttr("target-cpu", Triple(module.getTargetTriple()).isX86()
                                   ? "x86-64"
                                   : "generic");
    f->addFnAttr("target-features", "");
    return f;
  }
  GlobalVariable *internalGlobal(StringRef suffix, Type *type, Constant *init,
                                 uint64_t align) {
    auto *g = new GlobalVariable(module, type, /*isConstant=*/false,
                                 GlobalValue::InternalLinkage, init,
                                 archiveSymbol(name, suffix));
    g->setAlignment(Align(align));
    return g;
  }
  SmallVector<Type *> tensorParams() {
    return SmallVector<Type *>(signature.tensors.size(), b.getPtrTy());
  }
  ConstantInt *status(mlc_status s) { return b.getInt32(int32_t(s)); }

  /// int <name>_run_with_workspace(tensors..., void *workspace): checks the
  /// CPU (until it once passed) and the pointers, sets the thread count and
  /// calls the model ABI's entry.
  Function *buildRunWithWorkspace(StringRef cpuFeatures) {
    SmallVector<Type *> params = tensorParams();
    params.push_back(b.getPtrTy());
    Function *f =
        define(name + "_run_with_workspace",
               FunctionType::get(b.getInt32Ty(), params, /*isVarArg=*/false));
    BasicBlock *entryBlock = BasicBlock::Create(ctx, "entry", f);
    BasicBlock *invalid = BasicBlock::Create(ctx, "invalid", f);
    b.SetInsertPoint(invalid);
    b.CreateRet(status(MLC_ERR_INVALID_ARGUMENT));

    b.SetInsertPoint(entryBlock);
    if (!cpuFeatures.empty()) {
      // mlc_abi_check_cpu_features sets mlc_last_error() on failure; only
      // success is remembered, so every failing call says why.
      GlobalVariable *checked =
          internalGlobal("cpu_checked", b.getInt32Ty(), b.getInt32(0), 4);
      BasicBlock *check = BasicBlock::Create(ctx, "check_cpu", f);
      BasicBlock *unsupported = BasicBlock::Create(ctx, "unsupported", f);
      BasicBlock *passed = BasicBlock::Create(ctx, "cpu_passed", f);
      BasicBlock *args = BasicBlock::Create(ctx, "check_args", f);
      LoadInst *known = b.CreateAlignedLoad(b.getInt32Ty(), checked, Align(4));
      known->setAtomic(AtomicOrdering::Monotonic);
      b.CreateCondBr(b.CreateICmpNE(known, b.getInt32(0)), args, check);
      b.SetInsertPoint(check);
      FunctionCallee checkFn = module.getOrInsertFunction(
          MLC_SYM_CHECK_CPU_FEATURES, b.getInt32Ty(), b.getPtrTy());
      Value *features = b.CreateGlobalString(
          cpuFeatures, archiveSymbol(name, "cpu_features"), 0, &module);
      Value *result = b.CreateCall(checkFn, {features});
      b.CreateCondBr(b.CreateICmpEQ(result, b.getInt32(0)), passed,
                     unsupported);
      b.SetInsertPoint(unsupported);
      b.CreateRet(result);
      b.SetInsertPoint(passed);
      b.CreateAlignedStore(b.getInt32(1), checked, Align(4))
          ->setAtomic(AtomicOrdering::Monotonic);
      b.CreateBr(args);
      b.SetInsertPoint(args);
    }

    // NULL pointers (where a tensor has bytes) and a misaligned workspace
    // are errors, not crashes.
    Value *bad = b.getFalse();
    auto isNull = [&](Value *p) { return b.CreateIsNull(p); };
    for (auto [i, tensor] : llvm::enumerate(signature.tensors))
      if (tensorBytes(tensor) != 0)
        bad = b.CreateOr(bad, isNull(f->getArg(i)));
    Value *workspace = f->getArg(signature.tensors.size());
    if (signature.workspaceBytes) {
      Value *misaligned = b.CreateICmpNE(
          b.CreateAnd(b.CreatePtrToInt(workspace, b.getInt64Ty()), 63),
          b.getInt64(0));
      bad = b.CreateOr(bad, b.CreateOr(isNull(workspace), misaligned));
    }
    BasicBlock *run = BasicBlock::Create(ctx, "run", f);
    b.CreateCondBr(bad, invalid, run);

    b.SetInsertPoint(run);
    GlobalVariable *threads = numThreads();
    LoadInst *n = b.CreateAlignedLoad(b.getInt32Ty(), threads, Align(4));
    n->setAtomic(AtomicOrdering::Monotonic);
    b.CreateCall(module.getOrInsertFunction(MLC_SYM_SET_NUM_THREADS,
                                            b.getVoidTy(), b.getInt32Ty()),
                 {n});
    // void <name>__mlc_model_entry(void **buffers, void *workspace)
    auto *buffersType = ArrayType::get(b.getPtrTy(), signature.tensors.size());
    IRBuilder<> allocaBuilder(&entryBlock->front());
    Value *buffers = allocaBuilder.CreateAlloca(buffersType);
    for (unsigned i = 0; i < signature.tensors.size(); ++i)
      b.CreateStore(f->getArg(i),
                    b.CreateConstGEP2_32(buffersType, buffers, 0, i));
    Function *entry = module.getFunction(archiveSymbol(name, MLC_SYM_ENTRY));
    assert(entry && "the model ABI's entry is missing");
    b.CreateCall(entry, {buffers, workspace});
    b.CreateRet(status(MLC_OK));
    return f;
  }

  /// int <name>_run(tensors...): the above on the archive's own workspace,
  /// one call at a time (a second caller waits).
  void buildRun(Function *runWithWorkspace) {
    Function *f =
        define(name + "_run", FunctionType::get(b.getInt32Ty(), tensorParams(),
                                                /*isVarArg=*/false));
    BasicBlock *entryBlock = BasicBlock::Create(ctx, "entry", f);
    BasicBlock *lock = BasicBlock::Create(ctx, "lock", f);
    BasicBlock *wait = BasicBlock::Create(ctx, "wait", f);
    BasicBlock *locked = BasicBlock::Create(ctx, "locked", f);
    b.SetInsertPoint(entryBlock);
    GlobalVariable *busy =
        internalGlobal("busy", b.getInt32Ty(), b.getInt32(0), 4);
    b.CreateBr(lock);
    b.SetInsertPoint(lock);
    Value *exchange = b.CreateAtomicCmpXchg(busy, b.getInt32(0), b.getInt32(1),
                                            Align(4), AtomicOrdering::Acquire,
                                            AtomicOrdering::Monotonic);
    b.CreateCondBr(b.CreateExtractValue(exchange, 1), locked, wait);
    b.SetInsertPoint(wait);
    b.CreateCall(module.getOrInsertFunction("sched_yield", b.getInt32Ty()));
    b.CreateBr(lock);

    b.SetInsertPoint(locked);
    SmallVector<Value *> args;
    for (Argument &arg : f->args())
      args.push_back(&arg);
    if (signature.workspaceBytes) {
      auto *type = ArrayType::get(b.getInt8Ty(), signature.workspaceBytes);
      args.push_back(internalGlobal("workspace", type,
                                    ConstantAggregateZero::get(type), 64));
    } else {
      args.push_back(ConstantPointerNull::get(b.getPtrTy()));
    }
    Value *result = b.CreateCall(runWithWorkspace, args);
    b.CreateAlignedStore(b.getInt32(0), busy, Align(4))
        ->setAtomic(AtomicOrdering::Release);
    b.CreateRet(result);
  }

  /// int <name>_set_num_threads(int n): the model's setting, passed to the
  /// runtime on every run (like mlc_model_set_num_threads).
  void buildSetNumThreads() {
    Function *f =
        define(name + "_set_num_threads",
               FunctionType::get(b.getInt32Ty(), {b.getInt32Ty()}, false));
    BasicBlock *entryBlock = BasicBlock::Create(ctx, "entry", f);
    BasicBlock *invalid = BasicBlock::Create(ctx, "invalid", f);
    BasicBlock *store = BasicBlock::Create(ctx, "store", f);
    b.SetInsertPoint(entryBlock);
    b.CreateCondBr(b.CreateICmpSLT(f->getArg(0), b.getInt32(0)), invalid,
                   store);
    b.SetInsertPoint(invalid);
    b.CreateRet(status(MLC_ERR_INVALID_ARGUMENT));
    b.SetInsertPoint(store);
    b.CreateAlignedStore(f->getArg(0), numThreads(), Align(4))
        ->setAtomic(AtomicOrdering::Monotonic);
    b.CreateRet(status(MLC_OK));
  }

  GlobalVariable *numThreads() {
    if (!threadsGlobal)
      threadsGlobal =
          internalGlobal("num_threads", b.getInt32Ty(), b.getInt32(0), 4);
    return threadsGlobal;
  }
  static uint64_t tensorBytes(const ModelSignature::Tensor &tensor) {
    uint64_t n = 1;
    for (int64_t d : tensor.shape)
      n *= uint64_t(d);
    return n;
  }

  Module &module;
  LLVMContext &ctx;
  StringRef name;
  const ModelSignature &signature;
  IRBuilder<> b;
  GlobalVariable *threadsGlobal = nullptr;
};

} // namespace

void addArchiveEntryPoints(Module &module, StringRef name,
                           const ModelSignature &signature,
                           StringRef cpuFeatures) {
  EntryPointBuilder(module, name, signature).build(cpuFeatures);
}

LogicalResult writeObjectArchive(ArrayRef<ArchiveMember> members,
                                 raw_ostream &os, std::string &error) {
  std::vector<NewArchiveMember> newMembers;
  for (const ArchiveMember &member : members) {
    Expected<NewArchiveMember> m =
        NewArchiveMember::getFile(member.path, /*Deterministic=*/true);
    if (!m) {
      error = "cannot read '" + member.path + "': " + toString(m.takeError());
      return failure();
    }
    m->MemberName = member.name;
    newMembers.push_back(std::move(*m));
  }
  if (Error e = writeArchiveToStream(
          os, newMembers, SymtabWritingMode::NormalSymtab,
          object::Archive::K_GNU, /*Deterministic=*/true, /*Thin=*/false)) {
    error = "cannot write the archive: " + toString(std::move(e));
    return failure();
  }
  return success();
}

} // namespace mlc::target
