//===- LowerBlockPhases.cpp - thread phases -> barriers and shared memory -===//
//
// Lowers the block programs of BlockSchedules.h for a real GPU: every
// thread runs every phase for its own thread id, with a barrier between
// phases; workgroup buffers become the launch's shared memory and private
// ones per-thread stack arrays (registers after LLVM's SROA, since the
// schedules index them with constants). See the pass description in
// include/mlc/Codegen/CUDA/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "BlockSchedules.h"
#include "mlc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlc {
#define GEN_PASS_DEF_LOWERBLOCKPHASES
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

std::optional<gpu::AddressSpace> addressSpace(memref::AllocaOp alloca) {
  auto attr = dyn_cast_if_present<gpu::AddressSpaceAttr>(
      alloca.getType().getMemorySpace());
  if (!attr)
    return std::nullopt;
  return attr.getValue();
}

/// Drops the thread index of a private buffer: each thread gets its own.
LogicalResult privatize(RewriterBase &rewriter, memref::AllocaOp alloca) {
  MemRefType type = alloca.getType();
  if (type.getRank() < 1 || !type.hasStaticShape())
    return alloca.emitError("a private buffer needs a static thread index");
  auto perThread =
      MemRefType::get(type.getShape().drop_front(), type.getElementType());
  // Every access must index it by the thread of its phase.
  for (Operation *user : alloca->getUsers()) {
    Value thread;
    if (auto load = dyn_cast<memref::LoadOp>(user))
      thread = load.getIndices().front();
    else if (auto store = dyn_cast<memref::StoreOp>(user))
      if (store.getMemRef() == alloca.getResult())
        thread = store.getIndices().front();
    auto phase = user->getParentOfType<scf::ForallOp>();
    if (!thread || !phase || !mlc::gpu::isThreadPhase(phase) ||
        thread != phase.getInductionVars().front())
      return user->emitError("a private buffer may only be loaded and stored "
                             "at its thread's index");
  }
  rewriter.setInsertionPoint(alloca);
  auto replacement =
      memref::AllocaOp::create(rewriter, alloca.getLoc(), perThread);
  for (Operation *user : llvm::make_early_inc_range(alloca->getUsers())) {
    rewriter.setInsertionPoint(user);
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      rewriter.replaceOpWithNewOp<memref::LoadOp>(
          load, replacement, load.getIndices().drop_front());
    } else {
      auto store = cast<memref::StoreOp>(user);
      rewriter.replaceOpWithNewOp<memref::StoreOp>(
          store, store.getValueToStore(), replacement,
          store.getIndices().drop_front());
    }
  }
  rewriter.eraseOp(alloca);
  return success();
}

/// Whether `phase` touches memory other threads can see: anything but the
/// per-thread arrays (stack allocas, after privatize).
bool sharesMemory(scf::ForallOp phase) {
  WalkResult found = phase.getBody()->walk([](Operation *op) {
    Value memref;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef();
    else if (isMemoryEffectFree(op) ||
             op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    else
      return WalkResult::interrupt();
    auto alloca = memref.getDefiningOp<memref::AllocaOp>();
    return alloca && !alloca.getType().getMemorySpace()
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return found.wasInterrupted();
}

LogicalResult lowerPhases(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<scf::ForallOp> phases;
  SmallVector<memref::AllocaOp> buffers;
  launch.getBody().walk([&](Operation *op) {
    if (mlc::gpu::isThreadPhase(op))
      phases.push_back(cast<scf::ForallOp>(op));
    else if (auto alloca = dyn_cast<memref::AllocaOp>(op))
      if (addressSpace(alloca))
        buffers.push_back(alloca);
  });
  if (phases.empty())
    return success();

  std::optional<int64_t> threads = getConstantIntValue(launch.getBlockSizeX());
  if (!threads || getConstantIntValue(launch.getBlockSizeY()) != 1 ||
      getConstantIntValue(launch.getBlockSizeZ()) != 1)
    return launch.emitError("a launch of thread phases needs a static "
                            "one-dimensional block");

  for (memref::AllocaOp alloca : buffers) {
    if (*addressSpace(alloca) == gpu::AddressSpace::Private) {
      if (failed(privatize(rewriter, alloca)))
        return failure();
    } else if (*addressSpace(alloca) == gpu::AddressSpace::Workgroup) {
      if (!alloca.getType().hasStaticShape())
        return alloca.emitError("shared memory needs a static shape");
      BlockArgument shared =
          launch.addWorkgroupAttribution(alloca.getType(), alloca.getLoc());
      rewriter.replaceAllUsesWith(alloca.getResult(), shared);
      rewriter.eraseOp(alloca);
    }
  }

  Value tid = launch.getThreadIds().x;
  Block &top = launch.getBody().front();
  for (scf::ForallOp phase : phases) {
    std::optional<int64_t> count =
        phase.getRank() == 1
            ? getConstantIntValue(phase.getMixedUpperBound()[0])
            : std::nullopt;
    if (!count || *count > *threads || phase.getNumResults() ||
        getConstantIntValue(phase.getMixedLowerBound()[0]) != 0 ||
        getConstantIntValue(phase.getMixedStep()[0]) != 1)
      return phase.emitError("a thread phase needs one iteration per thread "
                             "of the block, at most ")
             << *threads;
    Location loc = phase.getLoc();
    // What one phase wrote, the next may read from another thread; a phase
    // on its thread's own registers passes nothing on.
    bool endsKernel = phase->getBlock() == &top &&
                      isa<gpu::TerminatorOp>(phase->getNextNode());
    bool needsBarrier = !endsKernel && sharesMemory(phase);
    rewriter.setInsertionPoint(phase);
    Block *body = phase.getBody();
    rewriter.eraseOp(body->getTerminator());
    if (*count == *threads) {
      rewriter.inlineBlockBefore(body, phase, ValueRange{tid});
    } else {
      Value bound = arith::ConstantIndexOp::create(rewriter, loc, *count);
      Value active = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, tid, bound);
      auto ifOp = scf::IfOp::create(rewriter, loc, active, /*withElse=*/false);
      Operation *yield = ifOp.getThenRegion().front().getTerminator();
      rewriter.inlineBlockBefore(body, yield, ValueRange{tid});
    }
    if (needsBarrier)
      gpu::BarrierOp::create(rewriter, loc);
    rewriter.eraseOp(phase);
  }
  return success();
}

struct LowerBlockPhases : mlc::impl::LowerBlockPhasesBase<LowerBlockPhases> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches)
      if (failed(lowerPhases(rewriter, launch)))
        return signalPassFailure();
  }
};

} // namespace
