//===- DeallocateBuffers.cpp - free the buffers the memory plan left ------===//
//
// After the static memory plan, the heap buffers left are (almost always)
// per-thread tile buffers: allocated in a parallel loop's body and dead at
// its end. Freeing those at the end of their block is all the deallocation
// they need; MLIR's ownership-based pipeline, which handles any IR, costs a
// walk of the whole entry function with its analyses, and runs only when
// something else is left.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"

namespace mlc {
#define GEN_PASS_DEF_DEALLOCATEBUFFERS
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Whether every use of `alloc`, through views, is inside its block and
/// none passes the buffer on (a terminator, a call, an op that returns a
/// memref or tensor other than a view of it).
bool isBlockLocal(memref::AllocOp alloc) {
  Block *block = alloc->getBlock();
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      // (A dealloc sends the module to MLIR's pipeline anyway.)
      if (!block->findAncestorOpInBlock(*user) ||
          user->hasTrait<OpTrait::IsTerminator>() || isa<CallOpInterface>(user))
        return false;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        worklist.push_back(view->getResult(0));
        continue;
      }
      // A memref or tensor made from it (other than a view) may carry
      // the buffer on: not provably local.
      if (llvm::any_of(user->getResultTypes(),
                       llvm::IsaPred<BaseMemRefType, TensorType>))
        return false;
    }
  }
  return true;
}

struct DeallocateBuffers : mlc::impl::DeallocateBuffersBase<DeallocateBuffers> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> local;
    WalkResult walk = getOperation().walk([&](Operation *op) {
      if (isa<memref::ReallocOp, memref::DeallocOp, bufferization::DeallocOp>(
              op))
        return WalkResult::interrupt();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (!isBlockLocal(alloc))
          return WalkResult::interrupt();
        local.push_back(alloc);
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted()) {
      OpPassManager pm(ModuleOp::getOperationName());
      memref::ExpandReallocPassOptions realloc;
      realloc.emitDeallocs = false;
      pm.addPass(memref::createExpandReallocPass(realloc));
      pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
      pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
      pm.addPass(bufferization::createLowerDeallocationsPass());
      if (failed(runPipeline(pm, getOperation())))
        signalPassFailure();
      return;
    }
    for (memref::AllocOp alloc : local) {
      OpBuilder b(alloc->getBlock()->getTerminator());
      memref::DeallocOp::create(b, alloc.getLoc(), alloc.getResult());
    }
  }
};

} // namespace
