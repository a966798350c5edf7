//===- EmulateGPULaunches.cpp - run gpu.launch bodies as CPU loops --------===//
//
// Tests a CUDA model's kernels without a GPU: each gpu.launch becomes a loop
// nest over its blocks and threads, run one thread at a time on the CPU. The
// result is the same as on a GPU for kernels whose threads do not
// communicate (no barriers, no shared memory), which holds for every kernel
// mlc-map-kernels-to-gpu emits; a launch with a barrier is refused.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"

namespace mlc {
#define GEN_PASS_DEF_EMULATEGPULAUNCHES
#include "Conversion/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

LogicalResult emulate(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.getClusterSizeX())
    return launch.emitError("cannot emulate an async or clustered launch");
  WalkResult barriers = launch.getBody().walk([](gpu::BarrierOp b) {
    return WalkResult::interrupt();
  });
  if (barriers.wasInterrupted())
    return launch.emitError("cannot emulate a launch whose threads "
                            "synchronize");
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
  for (int i = 0; i < 6; ++i) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, bounds[i], one);
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
