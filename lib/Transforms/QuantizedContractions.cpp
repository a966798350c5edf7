//===- QuantizedContractions.cpp - DQ -> conv/matmul as integer kernels ---===//
//
// QDQ graphs (what PyTorch's exporter and ONNX Runtime's quantizer write)
// compute every contraction in float between a dequantize and a quantize.
// With the dequantizes pulled into the contraction, its sums are int32 and
// the scales multiply each result once:
//
//   conv2d(dq(x, sx, zx), dq(w, sw, zw), b)
//     -> dequantize(conv2d_integer(x, w, zx, zw), sx * sw, 0) + b
//
// The dequantize, the bias add and the quantize that usually follows are
// elementwise: graph-form-fusion-groups makes them the integer kernel's
// epilogue (the requantization). Transposes and reshapes of a dequantize
// move before it first (a Gemm's transB weight).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphBuilders.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHQUANTIZEDCONTRACTIONS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

bool isEightBit(Value v) {
  return tensorTypeOf(v).getElementType().isInteger(8);
}

/// A dequantize of an 8-bit tensor.
DequantizeOp eightBitDequantize(Value v) {
  auto dq = v.getDefiningOp<DequantizeOp>();
  return dq && isEightBit(dq.getInput()) ? dq : DequantizeOp();
}

int64_t numElements(Value v) { return tensorTypeOf(v).getNumElements(); }

Value reshapeTo(PatternRewriter &rewriter, Location loc, Value v,
                ArrayRef<int64_t> shape) {
  if (tensorTypeOf(v).getShape() == shape)
    return v;
  return ReshapeOp::create(rewriter, loc, v, shape);
}

/// `v` (broadcasting to a rank-`rank` tensor) with leading 1s up to `rank`.
Value toRank(PatternRewriter &rewriter, Location loc, Value v, int64_t rank) {
  SmallVector<int64_t> shape(tensorTypeOf(v).getShape());
  shape.insert(shape.begin(), rank - shape.size(), 1);
  return reshapeTo(rewriter, loc, v, shape);
}

/// transpose(dq(q, s, z)) -> dq(transpose(q), transpose(s), transpose(z)).
struct TransposeOfDequantize : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    DequantizeOp dq = eightBitDequantize(op.getInput());
    if (!dq)
      return failure();
    Location loc = op.getLoc();
    int64_t rank = tensorTypeOf(dq.getInput()).getRank();
    auto permute = [&](Value v) -> Value {
      if (numElements(v) == 1)
        return reshapeTo(rewriter, loc, v, {});
      return TransposeOp::create(rewriter, loc, toRank(rewriter, loc, v, rank),
                                 op.getPerm());
    };
    Value q = TransposeOp::create(rewriter, loc, dq.getInput(), op.getPerm());
    rewriter.replaceOpWithNewOp<DequantizeOp>(op, q, permute(dq.getScale()),
                                              permute(dq.getZeroPoint()));
    return success();
  }
};

/// reshape(dq(q, s, z)) -> dq(reshape(q), s, z) for per-tensor parameters.
struct ReshapeOfDequantize : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    DequantizeOp dq = eightBitDequantize(op.getInput());
    if (!dq || numElements(dq.getScale()) != 1 ||
        numElements(dq.getZeroPoint()) != 1)
      return failure();
    Location loc = op.getLoc();
    Value q = ReshapeOp::create(rewriter, loc, dq.getInput(), op.getShape());
    rewriter.replaceOpWithNewOp<DequantizeOp>(
        op, q, reshapeTo(rewriter, loc, dq.getScale(), {}),
        reshapeTo(rewriter, loc, dq.getZeroPoint(), {}));
    return success();
  }
};

/// Whether a parameter broadcasting to `operand` is one value along the
/// operand's dims `reduced` (counted from the front of the operand).
bool uniformAlong(Value param, Value operand, ArrayRef<int64_t> reduced) {
  ArrayRef<int64_t> p = tensorTypeOf(param).getShape();
  int64_t offset = tensorTypeOf(operand).getRank() - p.size();
  for (int64_t d : reduced)
    if (d - offset >= 0 && p[d - offset] != 1)
      return false;
  return true;
}

/// dequantize(acc, scale, 0): the int32 sums scaled back to float.
Value rescale(PatternRewriter &rewriter, Location loc, Value acc, Value scale) {
  Value zero = splatConstant(rewriter, loc, rewriter.getI32Type(), {}, 0);
  return DequantizeOp::create(rewriter, loc, acc, scale, zero);
}

struct ConvOfDequantized : OpRewritePattern<Conv2DOp> {
  ConvOfDequantized(MLIRContext *ctx, bool groups, bool depthwiseOn,
                    int64_t block)
      : OpRewritePattern(ctx), groups(groups), depthwiseOn(depthwiseOn),
        block(block) {}
  bool groups, depthwiseOn;
  int64_t block;

  /// Groups of whole blocks, or whole groups within a block of equal
  /// input and output widths (graph-block-channels' grouped forms).
  bool groupsBlock(Conv2DOp op) const {
    int64_t g = op.getGroups();
    int64_t gw = tensorTypeOf(op.getInput()).getDimSize(1) / g;
    int64_t gwo = op.getType().getDimSize(1) / g;
    return block > 0 && ((gw % block == 0 && gwo % block == 0) ||
                         (gw == gwo && block % gw == 0));
  }
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    DequantizeOp x = eightBitDequantize(op.getInput());
    DequantizeOp w = eightBitDequantize(op.getFilter());
    // Depthwise convolutions stay float (the QDQ graph's own semantics)
    // unless `depthwise` is set: their integer kernel is no faster than the
    // float one. Grouped ones only when blocking gives them the kernel.
    int64_t g = op.getGroups();
    bool depthwise = g == tensorTypeOf(op.getInput()).getDimSize(1) &&
                     g == op.getType().getDimSize(1);
    if (g != 1 && !(depthwise ? depthwiseOn : groups && groupsBlock(op)))
      return failure();
    if (!x || !w || numElements(x.getScale()) != 1 ||
        numElements(x.getZeroPoint()) != 1 ||
        !uniformAlong(w.getScale(), w.getInput(), {1, 2, 3}) ||
        !uniformAlong(w.getZeroPoint(), w.getInput(), {1, 2, 3}))
      return failure();
    Location loc = op.getLoc();
    int64_t o = tensorTypeOf(op.getFilter()).getDimSize(0);
    // Per output channel: [O, 1, 1, 1] for the filter, [O, 1, 1] over the
    // NCHW result.
    auto perChannel = [&](Value v, ArrayRef<int64_t> shape) {
      return reshapeTo(rewriter, loc, v,
                       numElements(v) == 1 ? ArrayRef<int64_t>() : shape);
    };
    Value acc = Conv2DIntegerOp::create(
        rewriter, loc, x.getInput(), w.getInput(),
        reshapeTo(rewriter, loc, x.getZeroPoint(), {}),
        perChannel(w.getZeroPoint(), {o, 1, 1, 1}), op.getStridesAttr(),
        op.getPadsAttr(), op.getDilationsAttr(), op.getGroupsAttr());
    Value scale =
        MulOp::create(rewriter, loc, reshapeTo(rewriter, loc, x.getScale(), {}),
                      perChannel(w.getScale(), {o, 1, 1}));
    Value y = rescale(rewriter, loc, acc, scale);
    if (Value bias = op.getBias())
      y = AddOp::create(rewriter, loc, y,
                        reshapeTo(rewriter, loc, bias, {o, 1, 1}));
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct MatMulOfDequantized : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulOp op,
                                PatternRewriter &rewriter) const override {
    DequantizeOp a = eightBitDequantize(op.getLhs());
    DequantizeOp b = eightBitDequantize(op.getRhs());
    if (!a || !b)
      return failure();
    int64_t lhsK = tensorTypeOf(op.getLhs()).getRank() - 1;
    int64_t rhsK = tensorTypeOf(op.getRhs()).getRank() - 2;
    if (!uniformAlong(a.getScale(), a.getInput(), {lhsK}) ||
        !uniformAlong(a.getZeroPoint(), a.getInput(), {lhsK}) ||
        !uniformAlong(b.getScale(), b.getInput(), {rhsK}) ||
        !uniformAlong(b.getZeroPoint(), b.getInput(), {rhsK}))
      return failure();
    Location loc = op.getLoc();
    Value acc =
        MatMulIntegerOp::create(rewriter, loc, a.getInput(), b.getInput(),
                                a.getZeroPoint(), b.getZeroPoint());
    // Row scales [..., M, 1] and column scales [..., 1, N] broadcast over
    // the [..., M, N] result as they did over the operands.
    Value scale = MulOp::create(rewriter, loc, a.getScale(), b.getScale());
    rewriter.replaceOp(op, rescale(rewriter, loc, acc, scale));
    return success();
  }
};

struct GraphQuantizedContractions
    : mlc::graph::impl::GraphQuantizedContractionsBase<
          GraphQuantizedContractions> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns
        .add<TransposeOfDequantize, ReshapeOfDequantize, MatMulOfDequantized>(
            &getContext());
    patterns.add<ConvOfDequantized>(&getContext(), groups, depthwise, block);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
