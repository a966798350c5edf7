//===- EmulateGPULaunches.cpp - run gpu.launch bodies as CPU loops --------===//
//
// Tests a CUDA model's kernels without a GPU: each gpu.launch becomes a loop
// nest over its blocks and threads, run one thread at a time on the CPU. The
// result is the same as on a GPU for kernels whose threads do not
// communicate (no barriers, no shared memory), the one-thread-per-element
// kernels; a launch with a barrier is refused. Block kernels written as
// thread phases (BlockSchedules.h) run phase after phase, each a loop over
// the block's threads.
//
//===----------------------------------------------------------------------===//

#include "BlockSchedules.h"
#include "mlc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"

namespace mlc {
#define GEN_PASS_DEF_EMULATEGPULAUNCHES
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Runs the cloned thread phases of one block in sequence: each becomes a
/// loop over the threads, and shared or private buffers plain ones.
void serializePhases(RewriterBase &rewriter, Region &block) {
  SmallVector<scf::ForallOp> phases;
  SmallVector<memref::AllocaOp> buffers;
  block.walk([&](Operation *op) {
    if (mlc::gpu::isThreadPhase(op))
      phases.push_back(cast<scf::ForallOp>(op));
    else if (auto alloca = dyn_cast<memref::AllocaOp>(op))
      if (alloca.getType().getMemorySpace())
        buffers.push_back(alloca);
  });
  for (memref::AllocaOp alloca : buffers) {
    MemRefType type = alloca.getType();
    rewriter.modifyOpInPlace(alloca, [&] {
      alloca.getResult().setType(MemRefType::get(
          type.getShape(), type.getElementType(), type.getLayout()));
    });
  }
  for (scf::ForallOp phase : phases) {
    rewriter.setInsertionPoint(phase);
    Location loc = phase.getLoc();
    auto loop = scf::ForOp::create(
        rewriter, loc,
        getValueOrCreateConstantIndexOp(rewriter, loc,
                                        phase.getMixedLowerBound()[0]),
        getValueOrCreateConstantIndexOp(rewriter, loc,
                                        phase.getMixedUpperBound()[0]),
        getValueOrCreateConstantIndexOp(rewriter, loc,
                                        phase.getMixedStep()[0]));
    Block *body = phase.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, loop.getBody()->getTerminator(),
                               loop.getInductionVar());
    rewriter.eraseOp(phase);
  }
}

LogicalResult emulate(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.getClusterSizeX())
    return launch.emitError("cannot emulate an async or clustered launch");
  bool phased = launch.getBody()
                    .walk([](scf::ForallOp f) {
                      return mlc::gpu::isThreadPhase(f)
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    })
                    .wasInterrupted();
  WalkResult barriers = launch.getBody().walk(
      [](gpu::BarrierOp b) { return WalkResult::interrupt(); });
  if (barriers.wasInterrupted())
    return launch.emitError("cannot emulate a launch whose threads "
                            "synchronize");
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  if (phased && (!threadIds.x.use_empty() || !threadIds.y.use_empty() ||
                 !threadIds.z.use_empty()))
    return launch.emitError("cannot emulate thread phases in a launch that "
                            "also reads thread ids");
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value bounds[] = {grid.z, grid.y, grid.x, block.z, block.y, block.x};
  IRMapping map;
  gpu::KernelDim3 ids[] = {launch.getBlockIds(), launch.getThreadIds()};
  gpu::KernelDim3 sizes[] = {launch.getGridSize(), launch.getBlockSize()};
  gpu::KernelDim3 values[] = {grid, block};
  for (int i = 0; i < 2; ++i) {
    map.map(sizes[i].x, values[i].x);
    map.map(sizes[i].y, values[i].y);
    map.map(sizes[i].z, values[i].z);
  }
  Value *idSlots[] = {&ids[0].z, &ids[0].y, &ids[0].x,
                      &ids[1].z, &ids[1].y, &ids[1].x};
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *outermost = nullptr;
  // Thread phases loop over the threads themselves.
  for (int i = 0, e = phased ? 3 : 6; i < e; ++i) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, bounds[i], one);
    if (!outermost)
      outermost = loop;
    map.map(*idSlots[i], loop.getInductionVar());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  }
  // Each thread's stack temporaries die with the thread.
  auto scope = memref::AllocaScopeOp::create(rewriter, loc, TypeRange{});
  Block *scopeBody = rewriter.createBlock(&scope.getBodyRegion());
  rewriter.setInsertionPointToStart(scopeBody);
  Region &body = launch.getBody();
  if (!body.hasOneBlock())
    return launch.emitError("cannot emulate a launch with several blocks");
  for (Operation &op : body.front().without_terminator())
    rewriter.clone(op, map);
  memref::AllocaScopeReturnOp::create(rewriter, loc);
  if (phased)
    serializePhases(rewriter, scope.getBodyRegion());
  // Static temporaries are allocated once for all blocks and threads (each
  // writes its own before reading it): the stack stays the size of one
  // thread's or block's even where canonicalization drops the scope.
  scope.getBodyRegion().walk([&](memref::AllocaOp alloca) {
    if (alloca->getNumOperands() == 0 &&
        alloca->getParentOfType<memref::AllocaScopeOp>() == scope)
      rewriter.moveOpBefore(alloca, outermost);
  });
  rewriter.eraseOp(launch);
  return success();
}

struct EmulateGPULaunches
    : mlc::impl::EmulateGPULaunchesBase<EmulateGPULaunches> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches)
      if (failed(emulate(rewriter, launch)))
        return signalPassFailure();
  }
};

} // namespace
