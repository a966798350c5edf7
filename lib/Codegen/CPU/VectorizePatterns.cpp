//===- VectorizePatterns.cpp - rewrite sets of the kernel vectorizer ------===//
//
// The pattern sets mlc::codegen::vectorizeKernels applies between its steps
// (see VectorizeKernels.cpp), built once per pass and shared by the threads
// of mlc-lower-fusion-groups.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"

#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"

using namespace mlir;

namespace {

/// A transposed read (its permutation map's dims not in increasing order,
/// the last one the source's innermost dim) becomes a read in the source's
/// order, one contiguous vector per row, and a vector.transpose in
/// registers. MLIR's permutation lowering only handles permutations of the
/// source's minor dims; convert-vector-to-scf would otherwise read the
/// transposed tile one scalar at a time.
struct ReadInSourceOrder : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    AffineMap map = read.getPermutationMap();
    if (read.getMask() || map.getNumResults() < 2 ||
        read.getVectorType().isScalable())
      return failure();
    SmallVector<unsigned> dims;
    for (AffineExpr e : map.getResults()) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d)
        return failure();
      dims.push_back(d.getPosition());
    }
    if (llvm::is_sorted(dims) ||
        *llvm::max_element(dims) != map.getNumDims() - 1)
      return failure();
    // order[j]: the vector dim read j-th in source order.
    SmallVector<int64_t> order(dims.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(order,
                      [&](int64_t a, int64_t b) { return dims[a] < dims[b]; });
    SmallVector<AffineExpr> exprs;
    SmallVector<int64_t> shape;
    SmallVector<bool> inBounds;
    ArrayRef<int64_t> oldShape = read.getVectorType().getShape();
    for (int64_t j : order) {
      exprs.push_back(map.getResult(j));
      shape.push_back(oldShape[j]);
      inBounds.push_back(read.isDimInBounds(j));
    }
    auto type = VectorType::get(shape, read.getVectorType().getElementType());
    Value sorted = vector::TransferReadOp::create(
        rewriter, read.getLoc(), type, read.getBase(), read.getIndices(),
        AffineMapAttr::get(
            AffineMap::get(map.getNumDims(), 0, exprs, read.getContext())),
        read.getPadding(), /*mask=*/Value(),
        rewriter.getBoolArrayAttr(inBounds));
    // Vector dim k of the result is dim inverse[k] of the sorted read.
    SmallVector<int64_t> inverse(order.size());
    for (auto [j, k] : llvm::enumerate(order))
      inverse[k] = j;
    rewriter.replaceOpWithNewOp<vector::TransposeOp>(read, sorted, inverse);
    return success();
  }
};

/// Adds what the canonicalize pass would run.
void addCanonicalization(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

FrozenRewritePatternSet canonicalPatterns(MLIRContext *ctx) {
  RewritePatternSet canonical(ctx);
  addCanonicalization(canonical);
  return FrozenRewritePatternSet(std::move(canonical));
}

FrozenRewritePatternSet cleanupPatterns(MLIRContext *ctx) {
  RewritePatternSet cleanup(ctx);
  vector::populateCastAwayVectorLeadingOneDimPatterns(cleanup);
  vector::populateVectorTransferPermutationMapLoweringPatterns(cleanup);
  cleanup.add<ReadInSourceOrder>(ctx);
  addCanonicalization(cleanup);
  return FrozenRewritePatternSet(std::move(cleanup));
}

FrozenRewritePatternSet foldingPatterns(MLIRContext *ctx) {
  RewritePatternSet folding(ctx);
  tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(folding);
  addCanonicalization(folding);
  return FrozenRewritePatternSet(std::move(folding));
}

} // namespace

mlc::codegen::VectorizePatterns::VectorizePatterns(MLIRContext *ctx)
    : canonical(canonicalPatterns(ctx)), cleanup(cleanupPatterns(ctx)),
      folding(foldingPatterns(ctx)) {}
