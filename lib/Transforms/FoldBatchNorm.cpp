//===- FoldBatchNorm.cpp - fold inference batch_norm into its producer ----===//
//
// batch_norm(conv2d(x, w, b)) with constant weights and statistics is one
// conv2d with rescaled weights:
//   f  = scale / sqrt(var + eps)                      [C]
//   w' = w * reshape(f, [C, 1, 1, 1])
//   b' = (b - mean) * f + bias                        (b = 0 without a bias)
// and batch_norm(matmul(x, W)) on [N, C] is matmul(x, W * f) + b'. The new
// weights are built as graph ops on constants, which graph-fold-constants
// then evaluates. Inference only: training updates the statistics.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHFOLDBATCHNORM
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

bool isConstant(Value v) { return v && matchPattern(v, m_Constant()); }

struct FoldBatchNorm : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    Value input = bn.getInput();
    // The producer's result is replaced, so nobody else may read it.
    if (!input.hasOneUse())
      return failure();
    if (!isConstant(bn.getScale()) || !isConstant(bn.getBias()) ||
        !isConstant(bn.getMean()) || !isConstant(bn.getVariance()))
      return failure();
    auto conv = input.getDefiningOp<Conv2DOp>();
    auto matmul = input.getDefiningOp<MatMulOp>();
    if (conv) {
      if (!isConstant(conv.getFilter()) ||
          (conv.getBias() && !isConstant(conv.getBias())))
        return failure();
    } else if (matmul) {
      // [N, K] x [K, C]: channel axis 1 is the matmul's N axis.
      if (matmul.getType().getRank() != 2 || !isConstant(matmul.getRhs()))
        return failure();
    } else {
      return failure();
    }

    Operation *producer = input.getDefiningOp();
    Location loc = rewriter.getFusedLoc({producer->getLoc(), bn.getLoc()});
    Type elt = bn.getType().getElementType();
    auto epsAttr = DenseElementsAttr::get(
        RankedTensorType::get({}, elt),
        rewriter.getFloatAttr(elt, bn.getEpsilon().convertToFloat()));
    Value eps = ConstantOp::create(rewriter, loc, epsAttr);
    Value stddev = SqrtOp::create(
        rewriter, loc, AddOp::create(rewriter, loc, bn.getVariance(), eps));
    Value factor = DivOp::create(rewriter, loc, bn.getScale(), stddev);

    Value shift = conv && conv.getBias()
                      ? Value(SubOp::create(rewriter, loc, conv.getBias(),
                                            bn.getMean()))
                      : Value(NegOp::create(rewriter, loc, bn.getMean()));
    Value newBias = AddOp::create(
        rewriter, loc, MulOp::create(rewriter, loc, shift, factor),
        bn.getBias());

    if (conv) {
      auto filterType = cast<RankedTensorType>(conv.getFilter().getType());
      SmallVector<int64_t> perChannel(filterType.getRank(), 1);
      perChannel[0] = filterType.getDimSize(0);
      Value filter = MulOp::create(
          rewriter, loc, conv.getFilter(),
          ReshapeOp::create(rewriter, loc, factor, perChannel));
      rewriter.replaceOpWithNewOp<Conv2DOp>(
          bn, conv.getInput(), filter, newBias, conv.getStridesAttr(),
          conv.getPadsAttr(), conv.getDilationsAttr(), conv.getGroupsAttr());
      return success();
    }
    // W is [K, C]: f broadcasts along its last dim.
    Value weights = MulOp::create(rewriter, loc, matmul.getRhs(), factor);
    Value product = MatMulOp::create(rewriter, loc, matmul.getLhs(), weights);
    rewriter.replaceOpWithNewOp<AddOp>(bn, product, newBias);
    return success();
  }
};

struct GraphFoldBatchNorm
    : mlc::graph::impl::GraphFoldBatchNormBase<GraphFoldBatchNorm> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldBatchNorm>(&getContext());
    // Only our pattern: no folding or constant hoisting, so the IR changes
    // exactly where a batch_norm was folded.
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
