//===- FuseFakeQuant.cpp - quantize/dequantize pairs as one float op ------===//
//
// A QDQ graph (exported, or made by --quantize) computed in float has a
// quantize/dequantize pair on every quantized activation. As two ops the
// pair is two kernels with an 8-bit tensor between them, and neither
// graph-block-channels (float ops only) nor fusion (one element type along
// an epilogue) can go through it; as graph.fake_quantize it is one float
// elementwise op like a ReLU.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHFUSEFAKEQUANT
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

/// The same value, or constants with equal types and elements.
bool sameParameter(Value a, Value b) {
  if (a == b)
    return true;
  Attribute x, y;
  return matchPattern(a, m_Constant(&x)) && matchPattern(b, m_Constant(&y)) &&
         x == y;
}

struct FakeQuantPattern : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp dq,
                                PatternRewriter &rewriter) const override {
    auto q = dq.getInput().getDefiningOp<QuantizeOp>();
    if (!q || !sameParameter(q.getScale(), dq.getScale()) ||
        !sameParameter(q.getZeroPoint(), dq.getZeroPoint()) ||
        q.getInput().getType() != dq.getType())
      return failure();
    rewriter.replaceOpWithNewOp<FakeQuantizeOp>(dq, q.getInput(), q.getScale(),
                                                q.getZeroPoint());
    return success();
  }
};

struct GraphFuseFakeQuant
    : mlc::graph::impl::GraphFuseFakeQuantBase<GraphFuseFakeQuant> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FakeQuantPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
