//===- MapKernelsToGPU.cpp - top-level loop nests -> gpu.launch -----------===//
//
// After bufferization of a CUDA model, every op at the top of a function
// that touches memory becomes one gpu.launch: scf.forall kernels of
// mlc-form-gpu-kernels, and the linalg ops and copies left outside them. The
// launch runs one thread per iteration of the parallel loops, in blocks of
// `block-size` threads along x; what remains on the host is address
// arithmetic. See the pass description in dialects/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlc {
#define GEN_PASS_DEF_MAPKERNELSTOGPU
#include "Conversion/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Ops that may stay on the host: they compute addresses or constants and
/// never touch the memory they describe.
bool runsOnHost(Operation *op) {
  if (isa<func::ReturnOp, gpu::LaunchOp, memref::GetGlobalOp>(op))
    return true;
  if (isa<ViewLikeOpInterface>(op) && op->getNumResults() == 1 &&
      isa<MemRefType>(op->getResult(0).getType()))
    return true;
  return isMemoryEffectFree(op) &&
         llvm::none_of(op->getResultTypes(),
                       [](Type t) { return isa<MemRefType>(t); });
}

/// Statically known trip count of each loop of `loop`, or failure.
FailureOr<SmallVector<int64_t>> tripCounts(scf::ParallelOp loop) {
  SmallVector<int64_t> counts;
  for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return failure();
    counts.push_back(std::max<int64_t>(0, llvm::divideCeil(*u - *l, *s)));
  }
  return counts;
}

/// A launch with one thread per element of `counts` (row-major, so
/// neighbouring threads take neighbouring innermost iterations). `body`
/// receives the builder inside the bounds check and the iteration indices.
LogicalResult
buildLaunch(RewriterBase &rewriter, Location loc, ArrayRef<int64_t> counts,
            int64_t blockSize,
            function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  int64_t total = 1;
  for (int64_t c : counts)
    total *= c;
  if (total == 0)
    return success();
  int64_t threads = std::min(total, blockSize);
  int64_t blocks = llvm::divideCeil(total, threads);
  if (blocks > std::numeric_limits<int32_t>::max())
    return emitError(loc, "kernel of ")
           << total << " threads exceeds the CUDA grid size";
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value one = cst(1);
  auto launch = gpu::LaunchOp::create(rewriter, loc, cst(blocks), one, one,
                                      cst(threads), one, one);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  Value bid = launch.getBlockIds().x;
  Value tid = launch.getThreadIds().x;
  Value id = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, bid, cst(threads)).getResult(),
      tid);
  auto gpuTerminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(gpuTerminator);
  auto inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       id, cst(total));
  auto ifOp = scf::IfOp::create(rewriter, loc, inRange, /*else=*/false);
  rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
  SmallVector<Value> indices;
  if (counts.size() == 1) {
    indices.push_back(id);
  } else if (!counts.empty()) {
    SmallVector<OpFoldResult> basis;
    for (int64_t c : counts)
      basis.push_back(rewriter.getIndexAttr(c));
    auto delin = affine::AffineDelinearizeIndexOp::create(
        rewriter, loc, id, basis, /*hasOuterBound=*/true);
    llvm::append_range(indices, delin.getResults());
  }
  body(rewriter, loc, indices);
  return success();
}

/// Replaces a top-level scf.parallel by a launch running its body once per
/// iteration.
LogicalResult launchParallel(RewriterBase &rewriter, scf::ParallelOp loop,
                             int64_t blockSize) {
  if (loop.getNumResults() != 0)
    return loop.emitError("a parallel loop with results cannot be a kernel");
  FailureOr<SmallVector<int64_t>> counts = tripCounts(loop);
  if (failed(counts))
    return loop.emitError("kernel loops need static bounds");
  rewriter.setInsertionPoint(loop);
  LogicalResult built = buildLaunch(
      rewriter, loop.getLoc(), *counts, blockSize,
      [&](OpBuilder &b, Location loc, ValueRange indices) {
        IRMapping map;
        for (auto [iv, index, lb, step] :
             llvm::zip(loop.getInductionVars(), indices,
                       loop.getLowerBound(), loop.getStep())) {
          Value scaled = arith::MulIOp::create(b, loc, index, step);
          map.map(iv, arith::AddIOp::create(b, loc, scaled, lb).getResult());
        }
        for (Operation &op : loop.getBody()->without_terminator())
          b.clone(op, map);
      });
  if (failed(built))
    return failure();
  rewriter.eraseOp(loop);
  return success();
}

/// Replaces a top-level op with no parallel loops (a full reduction) by a
/// single-thread launch.
LogicalResult launchSerial(RewriterBase &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  LogicalResult built =
      buildLaunch(rewriter, op->getLoc(), {1}, 1,
                  [&](OpBuilder &b, Location, ValueRange) { b.clone(*op); });
  if (failed(built))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

/// Per-thread temporaries (the element tiles of fused producers) live on the
/// thread's stack; a heap allocation inside a kernel is an error.
LogicalResult useThreadStack(RewriterBase &rewriter, gpu::LaunchOp launch,
                             int64_t maxBytes) {
  SmallVector<memref::AllocOp> allocs;
  launch.walk([&](memref::AllocOp a) { allocs.push_back(a); });
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat() ||
        type.getNumElements() * type.getElementTypeBitWidth() / 8 > maxBytes)
      return alloc.emitError("a GPU thread cannot allocate this buffer "
                             "(at most ")
             << maxBytes << " bytes of static shape)";
    rewriter.setInsertionPoint(alloc);
    rewriter.replaceOpWithNewOp<memref::AllocaOp>(alloc, type,
                                                  alloc.getAlignmentAttr());
  }
  return success();
}

struct MapKernelsToGPU : mlc::impl::MapKernelsToGPUBase<MapKernelsToGPU> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    IRRewriter rewriter(&getContext());

    // Copies become loops (inside kernels too: a strided memref.copy would
    // call a host library).
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp c) { copies.push_back(c); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }

    Block &body = func.getBody().front();
    for (Operation &op : llvm::make_early_inc_range(body)) {
      LogicalResult done = success();
      if (auto forall = dyn_cast<scf::ForallOp>(&op)) {
        scf::ParallelOp loop;
        rewriter.setInsertionPoint(forall);
        done = scf::forallToParallelLoop(rewriter, forall, &loop);
        if (succeeded(done))
          done = launchParallel(rewriter, loop, blockSize);
      } else if (auto loop = dyn_cast<scf::ParallelOp>(&op)) {
        done = launchParallel(rewriter, loop, blockSize);
      } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op)) {
        if (linalgOp.getNumParallelLoops() == 0) {
          // A full reduction: one thread (lowered to loops in the kernel).
          done = launchSerial(rewriter, linalgOp);
        } else {
          rewriter.setInsertionPoint(linalgOp);
          FailureOr<linalg::LinalgLoops> loops =
              linalg::linalgOpToParallelLoops(rewriter, linalgOp);
          auto par = succeeded(loops) && !loops->empty()
                         ? dyn_cast<scf::ParallelOp>(loops->front())
                         : scf::ParallelOp();
          if (!par) {
            done = linalgOp.emitError("cannot lower to loops for the GPU");
          } else {
            rewriter.eraseOp(linalgOp);
            done = launchParallel(rewriter, par, blockSize);
          }
        }
      } else if (!runsOnHost(&op)) {
        done = op.emitError("cannot run on the host of a CUDA model (not a "
                            "kernel, not address arithmetic)");
      }
      if (failed(done))
        return signalPassFailure();
    }

    // Constants stay host globals (the runtime gives kernels their device
    // copies): take their addresses outside the kernels.
    SmallVector<gpu::LaunchOp> launches(body.getOps<gpu::LaunchOp>());
    for (gpu::LaunchOp launch : launches) {
      launch.walk([&](memref::GetGlobalOp g) { g->moveBefore(launch); });
      if (failed(useThreadStack(rewriter, launch, maxThreadBytes)))
        return signalPassFailure();
    }
  }
};

} // namespace
