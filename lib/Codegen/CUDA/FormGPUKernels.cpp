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

/// The block of outputs one thread of a reduction computes. Neighbouring
/// threads take neighbouring elements of the output's last dimension, so
/// the input indexed by it (a convolution's x, a matmul's right operand) is
/// the one whose loads differ between threads (coalesced); the others are
/// read by the warp as one (broadcast). Along another parallel dimension
/// that this input does not use (a convolution's output channels, a
/// matmul's rows), each thread computes T outputs (8, 6, 4, 3 or 2,
/// whichever divides the dimension first; the innermost such dimension), so
/// that each element it loads of that input serves T multiply-adds;
/// mlc-linalg-to-loops keeps the T accumulators in registers. (Along the
/// last dimension itself, the loads of a thread would be T apart from its
/// neighbour's: on an H200 that made the transformer's feed-forward matmuls
/// 3x slower.) Only where that leaves at least kMinBlockedThreads threads,
/// two blocks of 256 per multiprocessor of an H100 (132): with T
/// independent multiply-add chains each, fewer threads than the 132 x 2048
/// it can run hide the latency (ResNet-18's layer-4 convolution at batch 32
/// keeps 100352 and ran 2.8x faster); a small reduction (a matrix-vector
/// product of 200 outputs) keeps one output per thread. Returns the
/// dimension and T, or nullopt.
constexpr int64_t kMinBlockedThreads = 65536;

std::optional<std::pair<unsigned, int64_t>> threadBlock(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() < 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0 || !out.isProjectedPermutation())
    return std::nullopt;
  unsigned inner = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  OpOperand *varying = nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.getMatchingIndexingMap(input).isFunctionOfDim(inner)) {
      varying = input;
      break;
    }
  if (!varying)
    return std::nullopt;
  AffineMap reused = op.getMatchingIndexingMap(varying);
  int64_t outputs = parallelIterations(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (AffineExpr e : llvm::reverse(out.getResults())) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (d == inner || iters[d] != utils::IteratorType::parallel ||
        reused.isFunctionOfDim(d) || ShapedType::isDynamic(ranges[d]))
      continue;
    for (int64_t t : {8, 6, 4, 3, 2})
      if (ranges[d] % t == 0 && outputs / t >= kMinBlockedThreads)
        return std::make_pair(d, t);
  }
  return std::nullopt;
}

/// The block of outputs per thread of `op`, the op a kernel ends with: for a
/// reduction its own threadBlock; for an elementwise op, that of a reduction
/// of the group with the same result type (a convolution whose bias, batch
/// norm, ReLU or residual add it applies), along the same dimension of the
/// result, so that the reduction fuses into its threads with that block.
std::optional<std::pair<unsigned, int64_t>>
kernelBlock(linalg::LinalgOp op, mlc::graph::FusionGroupOp group) {
  if (op.getNumReductionLoops() > 0)
    return threadBlock(op);
  if (op->getNumResults() != 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  std::optional<std::pair<unsigned, int64_t>> found;
  group.walk([&](linalg::LinalgOp r) {
    if (found || r == op || !r.hasPureTensorSemantics() ||
        r->getNumResults() != 1 || mlc::gpu::getBlockTile(r) ||
        r->getResult(0).getType() != op->getResult(0).getType())
      return;
    std::optional<std::pair<unsigned, int64_t>> block = threadBlock(r);
    if (!block)
      return;
    AffineMap out = r.getMatchingIndexingMap(r.getDpsInitOperand(0));
    if (std::optional<unsigned> pos = out.getResultPosition(
            getAffineDimExpr(block->first, op->getContext())))
      found = std::make_pair(*pos, block->second);
  });
  return found;
}

/// A matmul whose rows span several loops ([B, M, K] x [K, N]: a
/// transformer's linear layers) has its row loops collapsed into one, so
/// that chooseBlockTile takes it; reshapes of the operands and result
/// (views of contiguous buffers after bufferization) carry the change.
/// Only where the row loops are adjacent and stay contiguous in every
/// operand, and the collapsed matmul is large enough for a block tile.
LogicalResult collapseRowLoops(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || !linalg::isaContractionOpInterface(op))
    return success();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() < 2 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return success();
  ReassociationIndices rows(dims->m.begin(), dims->m.end());
  llvm::sort(rows);
  for (size_t i = 1; i < rows.size(); ++i)
    if (rows[i] != rows[i - 1] + 1)
      return success();
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {rows}))
    return success();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!mlc::gpu::isF32Throughout(op) ||
      llvm::any_of(ranges, ShapedType::isDynamic))
    return success();
  int64_t m = 1;
  for (unsigned d : rows)
    m *= ranges[d];
  if (!mlc::gpu::fillsBlockTile(m, ranges[dims->n[0]]))
    return success();
  rewriter.setInsertionPoint(op);
  if (!isa<linalg::GenericOp>(op.getOperation())) {
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return success();
    op = *generic;
  }
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {rows}, rewriter);
  if (failed(collapsed))
    return op.emitError("internal error: cannot collapse the row loops");
  rewriter.replaceOp(op, collapsed->results);
  return success();
}

/// Tiles `op` into one forall iteration per element of its parallel loops
/// (its reductions stay whole inside the iteration), or per block of
/// kernelBlock's elements, and fuses producers that the
/// iteration needs exactly its own elements of, and that have exactly as
/// many elements as `op` has outputs: those are computed once, in the thread
/// that uses them. Others (broadcast or windowed reads, such as a softmax's
/// row sums or a convolution's input) stay outside, as kernels of their own.
LogicalResult tileOneThreadPerElement(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      mlc::graph::FusionGroupOp group) {
  int64_t iterations = parallelIterations(op);
  if (iterations <= 1)
    return success(); // a serial kernel; mlc-map-kernels-to-gpu runs it
  std::optional<std::pair<unsigned, int64_t>> block = kernelBlock(op, group);
  int64_t perThread = block ? block->second : 1;
  SmallVector<OpFoldResult> tileSizes;
  for (auto [d, iter] : llvm::enumerate(op.getIteratorTypesArray()))
    tileSizes.push_back(
        rewriter.getIndexAttr(iter != utils::IteratorType::parallel ? 0
                              : block && block->first == d          ? perThread
                                                                    : 1));

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
            mlc::gpu::getBlockTile(p) ||
            numElements(slice.getResult()) != perThread ||
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
    RewritePatternSet reshapePatterns(ctx);
    linalg::FillOp::getCanonicalizationPatterns(reshapePatterns, ctx);
    tensor::EmptyOp::getCanonicalizationPatterns(reshapePatterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(reshapePatterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(reshapePatterns, ctx);
    FrozenRewritePatternSet reshapeFolding(std::move(reshapePatterns));

    IRRewriter rewriter(ctx);
    for (mlc::graph::FusionGroupOp group : groups) {
      if (failed(applyPatternsGreedily(group, frozen)))
        return signalPassFailure();
      SmallVector<linalg::LinalgOp> ops;
      group.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
      for (linalg::LinalgOp op : ops)
        if (failed(collapseRowLoops(rewriter, op)))
          return signalPassFailure();
      // Reshaped fills and empty tensors become fills of the new shape,
      // which fuse into the tiles again.
      if (failed(applyPatternsGreedily(group, reshapeFolding)))
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
