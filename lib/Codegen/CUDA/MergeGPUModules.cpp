//===- MergeGPUModules.cpp - all kernels of a model in one gpu.module -----===//
//
// gpu-kernel-outlining makes a gpu.module per kernel; each would become its
// own binary, assembled and loaded separately. One module per model means
// one ptxas run per chip at compile time and one module load at run time.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlc {
#define GEN_PASS_DEF_MERGEGPUMODULES
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

struct MergeGPUModules : mlc::impl::MergeGPUModulesBase<MergeGPUModules> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    if (modules.size() < 2)
      return;
    gpu::GPUModuleOp target = modules.front();
    SymbolTable targetSymbols(target);
    for (gpu::GPUModuleOp source : llvm::drop_begin(modules)) {
      StringAttr sourceName = source.getNameAttr();
      for (Operation &op :
           llvm::make_early_inc_range(source.getBody()->getOperations())) {
        auto symbol = dyn_cast<SymbolOpInterface>(&op);
        if (!symbol) {
          op.emitError("cannot merge this op into another gpu.module");
          return signalPassFailure();
        }
        StringAttr oldName = symbol.getNameAttr();
        op.remove();
        // Renames on a clash; launches are updated below.
        StringAttr newName = targetSymbols.insert(&op);
        SymbolRefAttr from = SymbolRefAttr::get(
            sourceName, {FlatSymbolRefAttr::get(oldName)});
        SymbolRefAttr to = SymbolRefAttr::get(
            target.getNameAttr(), {FlatSymbolRefAttr::get(newName)});
        if (failed(SymbolTable::replaceAllSymbolUses(from.getLeafReference(),
                                                     newName, &op)))
          return signalPassFailure();
        module.walk([&](gpu::LaunchFuncOp launch) {
          if (launch.getKernel() == from)
            launch.setKernelAttr(to);
        });
      }
      source.erase();
    }
  }
};

} // namespace
