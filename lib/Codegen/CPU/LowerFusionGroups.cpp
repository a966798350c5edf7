//===- LowerFusionGroups.cpp - one loop nest per graph.fusion_group -------===//
//
// Codegen of the kernel boundaries chosen at graph level: fuse elementwise
// linalg ops into their consumers, tile the group's result op along one
// parallel dimension and fuse its producers into that loop, then inline the
// group. See the pass description in include/mlc/Codegen/CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "mlc/Codegen/CPU/Passes.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlc/Dialect/Graph/WeightBlobs.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <atomic>
#include <unordered_map>

namespace mlc {
#define GEN_PASS_DEF_LOWERFUSIONGROUPS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

bool hasReduction(Operation *op) {
  auto tiling = dyn_cast<TilingInterface>(op);
  return tiling && llvm::is_contained(tiling.getLoopIteratorTypes(),
                                      utils::IteratorType::reduction);
}

/// True if the slice reads all of its source.
bool coversWholeSource(tensor::ExtractSliceOp slice) {
  ArrayRef<int64_t> full = slice.getSourceType().getShape();
  ArrayRef<int64_t> part = slice.getResultType().getShape();
  if (slice.getSourceType().getRank() != slice.getResultType().getRank())
    return false;
  return full == part;
}

/// Tiles the op yielding the group's result and fuses producers into the
/// loop. Leaves the group untouched when there is nothing worth a loop.
LogicalResult tileAndFuse(RewriterBase &rewriter,
                          mlc::graph::FusionGroupOp group,
                          int64_t parallelMinWork) {
  auto yield =
      cast<mlc::graph::YieldOp>(group.getBody().front().getTerminator());
  if (yield.getNumOperands() != 1)
    return success();
  auto anchor = yield.getOperand(0).getDefiningOp<TilingInterface>();
  if (!anchor || !isa<linalg::LinalgOp>(anchor.getOperation()))
    return success();
  // Already one loop nest (e.g. an elementwise chain after fusion): a tile
  // loop would only add slicing overhead.
  unsigned loopNests = 0;
  group.getBody().walk([&](TilingInterface) { ++loopNests; });
  if (loopNests <= 1)
    return success();

  // Outermost parallel loop that iterates more than once.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(anchor);
  SmallVector<Range> domain = anchor.getIterationDomain(rewriter);
  SmallVector<utils::IteratorType> iterators = anchor.getLoopIteratorTypes();
  std::optional<unsigned> tileDim;
  for (auto [i, range] : llvm::enumerate(domain)) {
    std::optional<int64_t> size = getConstantIntValue(range.size);
    if (iterators[i] == utils::IteratorType::parallel && size && *size > 1) {
      tileDim = i;
      break;
    }
  }
  if (!tileDim)
    return success();
  SmallVector<OpFoldResult> tileSizes(domain.size(), rewriter.getIndexAttr(0));
  tileSizes[*tileDim] = rewriter.getIndexAttr(1);

  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(tileSizes);
  // A large kernel (max pooling over a 112x112 map) runs its tiles on the
  // runtime's threads. Its work is that of its largest op, which need not
  // be the anchor: a squeeze-excitation's mean over a 112x112 map feeds a
  // sigmoid of 96 elements, and ran on one thread.
  bool worth = false;
  group.getBody().walk([&](linalg::LinalgOp op) {
    worth |=
        mlc::codegen::worthThreads(op.getStaticLoopRanges(), parallelMinWork);
  });
  if (worth)
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp slice, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *op = producer.getOwner();
        if (!group->isProperAncestor(op))
          return std::nullopt;
        // Computing a whole reduction in every iteration would duplicate
        // it; leave it as its own loop nest before the loop.
        if (hasReduction(op) && coversWholeSource(slice))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  return mlc::codegen::tileAndFuseInPlace(
      rewriter, anchor, options, "cannot tile this fusion group's result");
}

/// Counts the uses of every weight blob in a function, so a blob can be
/// freed while the groups are lowered in parallel: VGG-11's packed matmul
/// weights alone are 440 MB, and with every original alive until the pass
/// ends, the originals and the copies were both in memory.
class WeightUses {
  using BlobEntry = mlc::graph::BlobEntry;

public:
  explicit WeightUses(func::FuncOp func) {
    // A constant's blob counts its uses; a blob some other op names (not
    // as a constant's value) stays.
    llvm::DenseMap<BlobEntry *, int> counts;
    func.walk([&](Operation *op) {
      BlobEntry *weight = mlc::graph::weightBlob(op);
      op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
        BlobEntry *blob = attr.getRawHandle().getResource();
        counts[blob] += weight == blob
                            ? int(std::distance(op->use_begin(), op->use_end()))
                            : kPinned;
      });
    });
    for (auto &[blob, count] : counts)
      remaining.try_emplace(blob, count);
  }

  /// After `group` was lowered: its operands that no longer have a use
  /// inside and are weights give up their use; a weight with none left is
  /// freed. Called from the lowering threads.
  void groupLowered(mlc::graph::FusionGroupOp group) {
    llvm::SmallPtrSet<BlobEntry *, 4> stillUsed;
    mlc::graph::forEachWeightBlob(
        group, [&](BlobEntry *blob) { stillUsed.insert(blob); });
    Block &body = group.getBody().front();
    for (auto [operand, arg] :
         llvm::zip(group->getOperands(), body.getArguments())) {
      if (!arg.use_empty())
        continue;
      Operation *def = operand.getDefiningOp();
      BlobEntry *weight = mlc::graph::weightBlob(def);
      if (!weight || stillUsed.contains(weight))
        continue;
      auto it = remaining.find(weight);
      if (it != remaining.end() && --it->second == 0)
        mlc::graph::releaseBlob(weight);
    }
  }

  /// Whether the weight `constant` has one use (a group's operand) and no
  /// other op names its blob: that group's lowering may take it. (A weight
  /// whose other readers were lowered without it could be taken too, but
  /// which group did would depend on the order the threads finish in.)
  bool exclusive(Operation *constant) const {
    BlobEntry *weight = mlc::graph::weightBlob(constant);
    auto it = weight ? remaining.find(weight) : remaining.end();
    return constant->hasOneUse() && it != remaining.end() &&
           it->second.load() == 1;
  }

private:
  static constexpr int kPinned = 1 << 30;
  // Decremented from several threads; the map itself is never changed
  // after construction.
  std::unordered_map<BlobEntry *, std::atomic<int>> remaining;
};

struct LowerFusionGroups : mlc::impl::LowerFusionGroupsBase<LowerFusionGroups> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    SmallVector<mlc::graph::FusionGroupOp> groups;
    getOperation().walk(
        [&](mlc::graph::FusionGroupOp g) { groups.push_back(g); });

    // Tile-and-fuse below still puts a multi-use producer inside the
    // kernel's loop, computed once per tile.
    FrozenRewritePatternSet frozen =
        mlc::codegen::singleUseElementwiseFusion(ctx);

    mlc::codegen::KernelOptions kernelOpts;
    kernelOpts.vectorBits = vectorBits;
    kernelOpts.vectorRegisters = vectorRegisters;
    kernelOpts.parallelMinWork = parallelMinWork;
    kernelOpts.vnni = vnni;
    kernelOpts.int16Pairs = int16Pairs;

    std::optional<mlc::codegen::VectorizePatterns> vectorizePatterns;
    mlc::codegen::VectorizeOptions vectorizeOpts;
    if (vectorize && vectorBits > 0) {
      vectorizePatterns.emplace(ctx);
      vectorizeOpts.vectorBits = vectorBits;
      vectorizeOpts.reassociateFPReductions = reassociateFPReductions;
      vectorizeOpts.parallelMinWork = parallelMinWork;
      // mlc-pad-in-place still has to see the pads' fills (then
      // mlc-vectorize-kernels{top-level-only} vectorizes the borders).
      vectorizeOpts.leavePadFills = true;
    }

    // Each thread changes only the inside of its group (isolated from
    // above); reading the constants the group's operands are is safe.
    auto lower = [&](mlc::graph::FusionGroupOp group) -> LogicalResult {
      IRRewriter rewriter(ctx);
      // The group is isolated, so fusion cannot reach outside it.
      if (failed(applyPatternsGreedily(group, frozen)))
        return failure();
      FailureOr<bool> kernel =
          contractionKernels
              ? mlc::codegen::emitContractionKernel(rewriter, group, kernelOpts)
              : FailureOr<bool>(false);
      if (succeeded(kernel) && !*kernel && contractionKernels)
        kernel = mlc::codegen::emitResizeKernel(rewriter, group, kernelOpts);
      if (succeeded(kernel) && !*kernel && contractionKernels)
        kernel = mlc::codegen::emitWinogradKernel(rewriter, group, kernelOpts);
      if (succeeded(kernel) && !*kernel && contractionKernels)
        kernel =
            mlc::codegen::emitIntegerMatMulKernel(rewriter, group, kernelOpts);
      if (succeeded(kernel) && !*kernel && contractionKernels)
        kernel =
            mlc::codegen::emitIntegerConvKernel(rewriter, group, kernelOpts);
      if (succeeded(kernel) && !*kernel && contractionKernels)
        kernel = mlc::codegen::emitIntegerDepthwiseKernel(rewriter, group,
                                                          kernelOpts);
      if (failed(kernel) ||
          (!*kernel &&
           failed(tileAndFuse(rewriter, group, kernelOpts.parallelMinWork))))
        return failure();
      // Drop the untiled originals that tiling left without users.
      if (failed(applyPatternsGreedily(group, FrozenRewritePatternSet())))
        return failure();
      if (vectorizePatterns)
        mlc::codegen::vectorizeKernels(group, vectorizeOpts,
                                       *vectorizePatterns);
      return success();
    };
    std::optional<WeightUses> weightUses;
    mlc::graph::ScratchBuffers scratch;
    if (releaseWeights) {
      weightUses.emplace(getOperation());
      kernelOpts.ownsWeight = [&](Operation *constant) {
        return weightUses->exclusive(constant);
      };
      kernelOpts.scratch = &scratch;
    }
    auto lowerAndRelease = [&](mlc::graph::FusionGroupOp group) {
      if (failed(lower(group)))
        return failure();
      if (weightUses)
        weightUses->groupLowered(group);
      return success();
    };
    if (failed(failableParallelForEach(ctx, groups, lowerAndRelease)))
      return signalPassFailure();
    IRRewriter rewriter(ctx);
    for (mlc::graph::FusionGroupOp group : groups)
      mlc::codegen::inlineGroup(rewriter, group);
  }
};

} // namespace
