//===- MapKernelsToGPU.cpp - top-level loop nests -> gpu.launch -----------===//
//
// After bufferization of a CUDA model, every op at the top of a function
// that touches memory becomes one gpu.launch: scf.forall kernels of
// mlc-form-gpu-kernels, and the linalg ops and copies left outside them. The
// launch runs one thread per iteration of the parallel loops, in blocks of
// `block-size` threads along x; what remains on the host is address
// arithmetic. See the pass description in include/mlc/Codegen/CUDA/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "BlockSchedules.h"
#include "mlc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlc {
#define GEN_PASS_DEF_MAPKERNELSTOGPU
#include "mlc/Codegen/CUDA/Passes.h.inc"
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
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
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
      arith::MulIOp::create(rewriter, loc, bid, cst(threads)).getResult(), tid);
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

/// Clones the body of `loop` at iteration `indices` (counted from 0).
void cloneIteration(OpBuilder &b, Location loc, scf::ParallelOp loop,
                    ValueRange indices) {
  IRMapping map;
  for (auto [iv, index, lb, step] :
       llvm::zip(loop.getInductionVars(), indices, loop.getLowerBound(),
                 loop.getStep())) {
    Value scaled = arith::MulIOp::create(b, loc, index, step);
    map.map(iv, arith::AddIOp::create(b, loc, scaled, lb).getResult());
  }
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
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
  LogicalResult built =
      buildLaunch(rewriter, loop.getLoc(), *counts, blockSize,
                  [&](OpBuilder &b, Location loc, ValueRange indices) {
                    cloneIteration(b, loc, loop, indices);
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

/// Replaces `op` by its loop nest, whose outer loop is an scf.parallel over
/// all its parallel dimensions.
FailureOr<scf::ParallelOp> toParallelLoop(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, op);
  auto par = succeeded(loops) && !loops->empty()
                 ? dyn_cast<scf::ParallelOp>(loops->front())
                 : scf::ParallelOp();
  if (!par)
    return op.emitError("cannot lower to loops for the GPU");
  rewriter.eraseOp(op);
  return par;
}

/// Replaces `op`, inside a block's program, by a thread phase in which the
/// block's `threads` threads share its parallel iterations round-robin.
LogicalResult distributeOverBlock(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t threads) {
  FailureOr<scf::ParallelOp> loop = toParallelLoop(rewriter, op);
  if (failed(loop))
    return failure();
  scf::ParallelOp par = *loop;
  rewriter.setInsertionPoint(par);
  Location loc = par.getLoc();
  SmallVector<OpFoldResult> counts;
  Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (auto [lb, ub, step] :
       llvm::zip(par.getLowerBound(), par.getUpperBound(), par.getStep())) {
    Value span = arith::SubIOp::create(rewriter, loc, ub, lb);
    Value count = arith::CeilDivUIOp::create(rewriter, loc, span, step);
    counts.push_back(count);
    total = arith::MulIOp::create(rewriter, loc, total, count);
  }
  mlc::gpu::buildThreadPhase(
      rewriter, loc, threads, [&](OpBuilder &b, Location l, Value t) {
        Value step = arith::ConstantIndexOp::create(b, l, threads);
        auto each = scf::ForOp::create(b, l, t, total, step);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(each.getBody()->getTerminator());
        SmallVector<Value> indices;
        if (counts.size() == 1) {
          indices.push_back(each.getInductionVar());
        } else {
          auto delin = affine::AffineDelinearizeIndexOp::create(
              b, l, each.getInductionVar(), counts, /*hasOuterBound=*/true);
          llvm::append_range(indices, delin.getResults());
        }
        cloneIteration(b, l, par, indices);
      });
  rewriter.eraseOp(par);
  return success();
}

/// Replaces a top-level scf.forall mapped to GPU blocks (a block-tiled
/// contraction of mlc-form-gpu-kernels) by a launch with one block per
/// iteration, whose threads run its body as a program of thread phases.
LogicalResult launchBlocks(RewriterBase &rewriter, scf::ForallOp forall) {
  std::optional<mlc::gpu::BlockTile> tile;
  forall.walk([&](linalg::LinalgOp op) {
    if (!tile)
      tile = mlc::gpu::getBlockTile(op);
  });
  std::optional<SmallVector<int64_t>> lbs =
      getConstantIntValues(forall.getMixedLowerBound());
  std::optional<SmallVector<int64_t>> ubs =
      getConstantIntValues(forall.getMixedUpperBound());
  std::optional<SmallVector<int64_t>> steps =
      getConstantIntValues(forall.getMixedStep());
  if (!tile || forall.getNumResults() || !lbs || !ubs || !steps)
    return forall.emitError("internal error: a block kernel needs a tiled "
                            "contraction, static bounds and no results");
  SmallVector<int64_t> counts;
  int64_t blocks = 1;
  for (auto [lb, ub, step] : llvm::zip(*lbs, *ubs, *steps)) {
    counts.push_back(llvm::divideCeil(ub - lb, step));
    blocks *= counts.back();
  }
  if (blocks > std::numeric_limits<int32_t>::max())
    return forall.emitError("kernel of ")
           << blocks << " blocks exceeds the CUDA grid size";
  if (blocks == 0) {
    rewriter.eraseOp(forall);
    return success();
  }
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value one = cst(1);
  auto launch = gpu::LaunchOp::create(rewriter, loc, cst(blocks), one, one,
                                      cst(tile->threads()), one, one);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  IRMapping map;
  SmallVector<OpFoldResult> basis;
  for (int64_t c : counts)
    basis.push_back(rewriter.getIndexAttr(c));
  auto delin = affine::AffineDelinearizeIndexOp::create(
      rewriter, loc, launch.getBlockIds().x, basis, /*hasOuterBound=*/true);
  for (auto [iv, index, lb, step] :
       llvm::zip(forall.getInductionVars(), delin.getResults(), *lbs, *steps)) {
    Value scaled = arith::MulIOp::create(rewriter, loc, index, cst(step));
    map.map(iv,
            arith::AddIOp::create(rewriter, loc, scaled, cst(lb)).getResult());
  }
  SmallVector<Operation *> work;
  for (Operation &op : forall.getBody()->without_terminator()) {
    Operation *copy = rewriter.clone(op, map);
    if (isa<linalg::LinalgOp>(copy))
      work.push_back(copy);
    else if (!runsOnHost(copy))
      return op.emitError("cannot run in a block-cooperative GPU kernel");
  }
  gpu::TerminatorOp::create(rewriter, loc);
  rewriter.eraseOp(forall);
  // A fill of a tiled contraction's output just before it (its zero init)
  // is folded in: the accumulators start from the fill value, saving a
  // store, a barrier and a load.
  SmallVector<Value> initValues(work.size());
  for (size_t i = 0; i + 1 < work.size(); ++i) {
    auto fill = dyn_cast<linalg::FillOp>(work[i]);
    auto next = cast<linalg::LinalgOp>(work[i + 1]);
    if (fill && mlc::gpu::getBlockTile(next) &&
        fill.getDpsInitOperand(0)->get() == next.getDpsInitOperand(0)->get()) {
      initValues[i + 1] = fill.getDpsInputOperand(0)->get();
      rewriter.eraseOp(fill);
      work[i] = nullptr;
    }
  }
  for (auto [op, initValue] : llvm::zip(work, initValues)) {
    if (!op)
      continue;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    std::optional<mlc::gpu::BlockTile> opTile =
        mlc::gpu::getBlockTile(linalgOp);
    LogicalResult done =
        opTile ? mlc::gpu::emitBlockTiledContraction(rewriter, linalgOp,
                                                     *opTile, initValue)
               : distributeOverBlock(rewriter, linalgOp, tile->threads());
    if (failed(done))
      return failure();
  }
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
      auto forall = dyn_cast<scf::ForallOp>(&op);
      if (forall && forall.getMapping() && !forall.getMapping()->empty() &&
          isa<gpu::GPUBlockMappingAttr>(forall.getMapping()->getValue()[0])) {
        done = launchBlocks(rewriter, forall);
      } else if (forall) {
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
          FailureOr<scf::ParallelOp> par = toParallelLoop(rewriter, linalgOp);
          done = succeeded(par) ? launchParallel(rewriter, *par, blockSize)
                                : failure();
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
