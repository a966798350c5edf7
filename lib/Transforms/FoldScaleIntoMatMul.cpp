//===- FoldScaleIntoMatMul.cpp - move constant scales into weights --------===//
//
//   mul(matmul(x, W), c) -> matmul(x, W * c)   c constant, varies along N only
//   matmul(mul(x, s), W) -> matmul(x, W * s)   s a constant scalar
// with W constant: the scaling happens once, at compile time (the products
// are graph ops on constants that graph-fold-constants evaluates), instead
// of on every activation. Rounding differs from the original order, so this
// is an inference-only rewrite.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHFOLDSCALEINTOMATMUL
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// `c` as a vector ([1] or [N]) that scales the columns of a [..., K, N]
/// weight; rank-0 and rank-1 constants already do.
Value asColumnScale(PatternRewriter &rewriter, Location loc, Value c) {
  RankedTensorType type = tensorType(c);
  if (type.getRank() <= 1)
    return c;
  return ReshapeOp::create(rewriter, loc, c,
                           ArrayRef<int64_t>{type.getShape().back()});
}

/// mul(matmul(x, W), c) -> matmul(x, W * c).
struct ScaleAfterMatMul : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp mul,
                                PatternRewriter &rewriter) const override {
    for (auto [product, scale] : {std::pair(mul.getLhs(), mul.getRhs()),
                                  std::pair(mul.getRhs(), mul.getLhs())}) {
      auto matmul = product.getDefiningOp<MatMulOp>();
      if (!matmul || !product.hasOneUse() || !isConstant(matmul.getRhs()) ||
          !isConstant(scale))
        continue;
      // c must not broadcast the product to a larger shape, and may vary
      // only along the last (N) dim: every other dim of c is 1. (c's last
      // dim is then 1 or N, by broadcast compatibility.)
      if (mul.getType() != matmul.getType())
        continue;
      ArrayRef<int64_t> shape = tensorType(scale).getShape();
      if (!shape.empty() &&
          llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
        continue;
      Location loc = mul.getLoc();
      Value weights = MulOp::create(rewriter, loc, matmul.getRhs(),
                                    asColumnScale(rewriter, loc, scale));
      rewriter.replaceOpWithNewOp<MatMulOp>(mul, matmul.getLhs(), weights);
      return success();
    }
    return failure();
  }
};

/// matmul(mul(x, s), W) -> matmul(x, W * s) for a one-element constant s.
struct ScaleBeforeMatMul : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatMulOp matmul,
                                PatternRewriter &rewriter) const override {
    auto mul = matmul.getLhs().getDefiningOp<MulOp>();
    if (!mul || !mul->hasOneUse() || !isConstant(matmul.getRhs()))
      return failure();
    for (auto [x, scale] : {std::pair(mul.getLhs(), mul.getRhs()),
                            std::pair(mul.getRhs(), mul.getLhs())}) {
      // s must be a scalar that does not broadcast x to a larger shape.
      if (!isConstant(scale) || tensorType(scale).getNumElements() != 1 ||
          x.getType() != mul.getType())
        continue;
      Location loc = matmul.getLoc();
      Value s = scale;
      if (tensorType(s).getRank() > 0)
        s = ReshapeOp::create(rewriter, loc, s, ArrayRef<int64_t>{});
      Value weights = MulOp::create(rewriter, loc, matmul.getRhs(), s);
      rewriter.replaceOpWithNewOp<MatMulOp>(matmul, x, weights);
      return success();
    }
    return failure();
  }
};

struct GraphFoldScaleIntoMatMul
    : mlc::graph::impl::GraphFoldScaleIntoMatMulBase<
          GraphFoldScaleIntoMatMul> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ScaleAfterMatMul, ScaleBeforeMatMul>(&getContext());
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
