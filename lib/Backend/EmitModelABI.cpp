//===- EmitModelABI.cpp - generate the mlc_model_* C ABI ------------------===//
//
// The runtime finds a compiled model through five C symbols (see
// runtime/include/mlc/model_abi.h). They are generated here on LLVM dialect,
// after the entry function has been lowered with bare memref pointers, so
// the entry wrapper only has to load one pointer per tensor.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "mlc/model_abi.h"

namespace mlc {
#define GEN_PASS_DEF_EMITMODELABI
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

constexpr const char *kSignatureGlobal = "__mlc_signature";
constexpr const char *kFeaturesGlobal = "__mlc_cpu_features";
constexpr const char *kDeviceGlobal = "__mlc_device";
constexpr const char *kKernelsGlobal = "__mlc_kernels";

struct EmitModelABI : mlc::impl::EmitModelABIBase<EmitModelABI> {
  using Base::Base;

  /// Adds `T name() { return <value>; }` built by `makeValue`.
  void addGetter(OpBuilder &b, Location loc, StringRef name, Type resultType,
                 function_ref<Value(OpBuilder &)> makeValue) {
    auto fnType = LLVM::LLVMFunctionType::get(resultType, {});
    auto fn = LLVM::LLVMFuncOp::create(b, loc, name, fnType);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fn.addEntryBlock(b));
    LLVM::ReturnOp::create(b, loc, makeValue(b));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto fail = [&](const Twine &msg) {
      module.emitError(msg);
      signalPassFailure();
    };
    if (device != "cpu" && device != "cuda")
      return fail("unknown device '" + device + "' (expected cpu or cuda)");
    auto main = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
    if (!main)
      return fail("entry function '" + entry +
                  "' not found in LLVM dialect (lower it first)");
    auto signature = module->getAttrOfType<StringAttr>("mlc.signature");
    if (!signature)
      return fail("missing mlc.signature module attribute (run "
                  "mlc-record-model-signature before bufferization)");
    unsigned numTensors = llvm::count(signature.getValue(), '\n');
    // With a static memory plan the entry takes the workspace last.
    auto workspaceBytes =
        module->getAttrOfType<IntegerAttr>("mlc.workspace_bytes");
    if (workspaceBytes && workspaceBytes.getInt() < 0)
      return fail("mlc.workspace_bytes must not be negative");
    unsigned numArgs = numTensors + (workspaceBytes ? 1 : 0);
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    if (main.getNumArguments() != numArgs ||
        !llvm::all_of(main.getArgumentTypes(),
                      [&](Type t) { return t == ptrType; }) ||
        !isa<LLVM::LLVMVoidType>(main.getFunctionType().getReturnType()))
      return fail("entry function must take one pointer per input and output "
                  "(" + Twine(numTensors) + ")" +
                  (workspaceBytes ? " and the workspace pointer" : "") +
                  " and return nothing; lower it with buffer results as out "
                  "params and the bare-pointer calling convention");
    // mlc_model_entry -> <prefix>_entry, and likewise for the others.
    auto sym = [&](StringRef name) {
      return (prefix + name.drop_front(StringRef("mlc_model").size())).str();
    };
    std::string symAbiVersion = sym(MLC_SYM_ABI_VERSION),
                symSignature = sym(MLC_SYM_SIGNATURE),
                symFeatures = sym(MLC_SYM_CPU_FEATURES),
                symWorkspace = sym(MLC_SYM_WORKSPACE_BYTES),
                symEntry = sym(MLC_SYM_ENTRY), symDevice = sym(MLC_SYM_DEVICE),
                symKernels = sym(MLC_SYM_KERNELS);
    for (StringRef sym :
         {StringRef(symAbiVersion), StringRef(symSignature),
          StringRef(symFeatures), StringRef(symWorkspace), StringRef(symEntry),
          StringRef(symDevice), StringRef(symKernels),
          StringRef(kSignatureGlobal), StringRef(kFeaturesGlobal),
          StringRef(kDeviceGlobal), StringRef(kKernelsGlobal)})
      if (module.lookupSymbol(sym))
        return fail("symbol '" + sym + "' is already defined");

    // Only the ABI symbols are exported; internal linkage lets LLVM inline
    // the entry into the wrapper.
    main.setLinkage(LLVM::Linkage::Internal);

    Location loc = main.getLoc();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);

    addGetter(b, loc, symAbiVersion, i32, [&](OpBuilder &nb) -> Value {
      return LLVM::ConstantOp::create(nb, loc, i32, MLC_MODEL_ABI_VERSION);
    });
    addGetter(b, loc, symWorkspace, i64, [&](OpBuilder &nb) -> Value {
      return LLVM::ConstantOp::create(
          nb, loc, i64, workspaceBytes ? workspaceBytes.getInt() : int64_t(0));
    });
    auto addString = [&](StringRef fnName, StringRef global, StringRef text) {
      addGetter(b, loc, fnName, ptrType, [&](OpBuilder &nb) -> Value {
        // Null-terminated for C callers.
        return LLVM::createGlobalString(loc, nb, global,
                                        (text + Twine('\0')).str(),
                                        LLVM::Linkage::Internal);
      });
    };
    addString(symSignature, kSignatureGlobal, signature.getValue());
    addString(symFeatures, kFeaturesGlobal, cpuFeatures);
    addString(symDevice, kDeviceGlobal, device);
    // The kernel table of mlc-instrument-kernels (profiled models only).
    if (auto kernels = module->getAttrOfType<StringAttr>("mlc.kernels"))
      addString(symKernels, kKernelsGlobal, kernels.getValue());

    // void mlc_model_entry(void **buffers, void *workspace)
    auto entryType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(ctx), {ptrType, ptrType});
    auto entryFn = LLVM::LLVMFuncOp::create(b, loc, symEntry, entryType);
    b.setInsertionPointToStart(entryFn.addEntryBlock(b));
    Value buffers = entryFn.getArgument(0);
    SmallVector<Value> args;
    for (unsigned i = 0; i < numTensors; ++i) {
      Value slot = LLVM::GEPOp::create(b, loc, ptrType, ptrType, buffers,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      args.push_back(LLVM::LoadOp::create(b, loc, ptrType, slot));
    }
    if (workspaceBytes) {
      // The runtime gives each run its own 64-byte aligned workspace.
      unsigned last = numArgs - 1;
      main.setArgAttr(last, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(64));
      main.setArgAttr(last, LLVM::LLVMDialect::getNoAliasAttrName(),
                      b.getUnitAttr());
      args.push_back(entryFn.getArgument(1));
    }
    LLVM::CallOp::create(b, loc, main, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  }
};
} // namespace
