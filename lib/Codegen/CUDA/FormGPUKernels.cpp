//===- FormGPUKernels.cpp - fusion groups as one-thread-per-element loops -===//
//
// The GPU counterpart of mlc-lower-fusion-groups: every linalg op of a group
// that is not fused into another becomes an scf.forall with one iteration
// per output element (later one GPU thread each, mlc-map-kernels-to-gpu),
// with its one-to-one producers fused into the iteration. See the pass
// description in include/mlc/Codegen/CUDA/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "BlockSchedules.h"
#include "mlc/Codegen/CUDA/Passes.h"
#include "mlc/Codegen/Common/KernelUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc {
#define GEN_PASS_DEF_FORMGPUKERNELS
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

int64_t numElements(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() ? type.getNumElements() : -1;
}

/// The iterations one thread per element of `op`'s parallel loops makes, or
/// -1 when a loop is not static.
int64_t parallelIterations(linalg::LinalgOp op) {
  int64_t n = 1;
  for (auto [size, iter] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray())) {
    if (iter != utils::IteratorType::parallel)
      continue;
    if (ShapedType::isDynamic(size))
      return -1;
    n *= size;
  }
  return n;
}

/// Tiles `op` into one forall iteration per element of its parallel loops
/// (its reductions stay whole inside the iteration) and fuses producers that
/// the iteration needs exactly one element of, and that have exactly one
/// element per iteration: those are computed once, in the thread that uses
/// them. Others (broadcast or windowed reads, such as a softmax's row sums or
/// a convolution's input) stay outside, as kernels of their own.
LogicalResult tileOneThreadPerElement(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      mlc::graph::FusionGroupOp group) {
  int64_t iterations = parallelIterations(op);
  if (iterations <= 1)
    return success(); // a serial kernel; mlc-map-kernels-to-gpu runs it
  SmallVector<OpFoldResult> tileSizes;
  for (utils::IteratorType iter : op.getIteratorTypesArray())
    tileSizes.push_back(
        rewriter.getIndexAttr(iter == utils::IteratorType::parallel ? 1 : 0));

  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(tileSizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  llvm::SmallPtrSet<Operation *, 8> fused;
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp slice, OpResult producer, bool)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *p = producer.getOwner();
        // A block-tiled contraction is a kernel of its own.
        if (!group->isProperAncestor(p) || !isa<linalg::LinalgOp>(p) ||
            mlc::gpu::getBlockTile(p) || numElements(slice.getResult()) != 1 ||
            numElements(producer) != iterations)
          return std::nullopt;
        // A producer with users outside this kernel would run twice. Users
        // that tiling replaces (the op being tiled and the originals of the
        // producers fused so far) do not count.
        Operation *loop = slice->getParentOp();
        if (!llvm::all_of(producer.getUsers(), [&](Operation *user) {
              return user == op.getOperation() || fused.contains(user) ||
                     loop->isAncestor(user);
            }))
          return std::nullopt;
        fused.insert(p);
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  return mlc::codegen::tileAndFuseInPlace(
      rewriter, cast<TilingInterface>(op.getOperation()), options,
      "cannot tile this op into one GPU thread per element");
}

/// Tiles the contraction `op` into one forall iteration per output tile of
/// `tile` (one GPU block each, mapped to #gpu.block), fusing the producer of
/// its init (a fill, a broadcast bias) into the tile.
LogicalResult tileBlockCooperative(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const mlc::gpu::BlockTile &tile,
                                   mlc::graph::FusionGroupOp group) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return op.emitError("internal error: block tile on a non-contraction");
  SmallVector<OpFoldResult> tileSizes(op.getNumLoops(),
                                      rewriter.getIndexAttr(0));
  for (unsigned d : dims->batch)
    tileSizes[d] = rewriter.getIndexAttr(1);
  tileSizes[dims->m[0]] = rewriter.getIndexAttr(tile.bm);
  tileSizes[dims->n[0]] = rewriter.getIndexAttr(tile.bn);
  SmallVector<Attribute> mapping;
  for (size_t i = 0, e = dims->batch.size() + 2; i < e; ++i)
    mapping.push_back(mlir::gpu::GPUBlockMappingAttr::get(
        rewriter.getContext(),
        static_cast<mlir::gpu::MappingId>(
            static_cast<int64_t>(mlir::gpu::MappingId::LinearDim0) + i)));

  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(tileSizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setMapping(mapping);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp slice, OpResult producer,
          bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *p = producer.getOwner();
        Operation *loop = slice->getParentOp();
        if (!isDestination || !group->isProperAncestor(p) ||
            !isa<linalg::LinalgOp>(p) ||
            !llvm::all_of(producer.getUsers(), [&](Operation *user) {
              return user == op.getOperation() || loop->isAncestor(user);
            }))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  return mlc::codegen::tileAndFuseInPlace(
      rewriter, cast<TilingInterface>(op.getOperation()), options,
      "cannot tile this contraction into GPU blocks");
}

struct FormGPUKernels : mlc::impl::FormGPUKernelsBase<FormGPUKernels> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    SmallVector<mlc::graph::FusionGroupOp> groups;
    getOperation().walk(
        [&](mlc::graph::FusionGroupOp g) { groups.push_back(g); });

    FrozenRewritePatternSet frozen =
        mlc::codegen::singleUseElementwiseFusion(ctx);

    IRRewriter rewriter(ctx);
    for (mlc::graph::FusionGroupOp group : groups) {
      if (failed(applyPatternsGreedily(group, frozen)))
        return signalPassFailure();
      // Large float matmuls run block-tiled through shared memory.
      group.walk([](linalg::LinalgOp op) {
        if (op.hasPureTensorSemantics())
          if (std::optional<mlc::gpu::BlockTile> t =
                  mlc::gpu::chooseBlockTile(op))
            mlc::gpu::setBlockTile(op, *t);
      });
      // Consumers first, so that their producers can still fuse into them;
      // what is left unfused is tiled in turn.
      Block &body = group.getBody().front();
      // Each round tiles one op away; more rounds than ops means no progress.
      int64_t rounds = llvm::range_size(body.getOps<linalg::LinalgOp>());
      while (true) {
        linalg::LinalgOp next;
        for (Operation &op : llvm::reverse(body.without_terminator())) {
          auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
          if (linalgOp && linalgOp.hasPureTensorSemantics() &&
              !op.use_empty() && parallelIterations(linalgOp) > 1) {
            next = linalgOp;
            break;
          }
        }
        if (!next)
          break;
        if (rounds-- < 0) {
          next->emitError("internal error: tiling made no progress");
          return signalPassFailure();
        }
        std::optional<mlc::gpu::BlockTile> tile =
            mlc::gpu::getBlockTile(next);
        if (failed(tile ? tileBlockCooperative(rewriter, next, *tile, group)
                        : tileOneThreadPerElement(rewriter, next, group)))
          return signalPassFailure();
        // Drop the untiled originals that tiling left without users.
        if (failed(applyPatternsGreedily(group, FrozenRewritePatternSet())))
          return signalPassFailure();
      }
      mlc::codegen::inlineGroup(rewriter, group);
    }
  }
};

} // namespace
