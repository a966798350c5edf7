//===- DeviceConstants.cpp - kernels read device copies of host globals ---===//
//
// A CUDA model's weights and other constants stay host globals in model.so;
// kernels must get device addresses. On LLVM dialect, every address of such
// a global taken in a host function goes through the runtime, which uploads
// the bytes once per loaded model and returns their device copy.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace mlc {
#define GEN_PASS_DEF_DEVICECONSTANTS
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

constexpr const char *kDeviceConstantFn = "mlc_cuda_device_constant";

struct DeviceConstants : mlc::impl::DeviceConstantsBase<DeviceConstants> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    DataLayout layout(module);
    SymbolTableCollection symbols;

    SmallVector<LLVM::AddressOfOp> uses;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      fn.walk([&](LLVM::AddressOfOp a) {
        if (a.getGlobal(symbols))
          uses.push_back(a);
      });
    if (uses.empty())
      return;

    // void *mlc_cuda_device_constant(const void *host, uint64_t bytes)
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kDeviceConstantFn);
    if (!fn) {
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      fn = LLVM::LLVMFuncOp::create(
          b, module.getLoc(), kDeviceConstantFn,
          LLVM::LLVMFunctionType::get(ptr, {ptr, i64}));
    }
    for (LLVM::AddressOfOp use : uses) {
      LLVM::GlobalOp global = use.getGlobal(symbols);
      OpBuilder b(use);
      b.setInsertionPointAfter(use);
      Value bytes = LLVM::ConstantOp::create(
          b, use.getLoc(), i64,
          int64_t(layout.getTypeSize(global.getGlobalType())));
      auto call = LLVM::CallOp::create(b, use.getLoc(), fn,
                                       ValueRange{use.getResult(), bytes});
      use.getResult().replaceAllUsesExcept(call.getResult(), call);
    }
  }
};

} // namespace
