//===- Quantization.cpp - quantize and dequantize -> linalg.generic -------===//
//
// Both are broadcasting elementwise generics on signless integers: a ui8
// operand is viewed as i8 (the same bits) and its unsignedness picks the
// extension and the saturation bounds. makeIntegersSignless, at the end of
// the pass, gives every remaining ui8 value its signless type.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::lowering;

namespace {

/// saturate(round(x / s) + zp) as a float (exact: small integers), the
/// saturation bounds those of `bits` unsigned or signed integers.
Value quantizedValue(OpBuilder &b, Location l, Value x, Value s, Value zp,
                     bool isUnsigned, unsigned bits) {
  Type ft = x.getType();
  double lo = isUnsigned ? 0.0 : -std::ldexp(1.0, bits - 1);
  double hi = isUnsigned ? std::ldexp(1.0, bits) - 1 : -lo - 1;
  // Round half to even, as ONNX and numpy; NaN quantizes to 0 before the
  // zero point is added (fptosi of NaN is poison).
  Value q = math::RoundEvenOp::create(b, l, arith::DivFOp::create(b, l, x, s));
  Value isNaN = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, q, q);
  q = arith::SelectOp::create(b, l, isNaN, scalarConstant(b, l, ft, 0.0), q);
  // Zero point and rounded value are integers well within f32's exact
  // range, so their sum and the clamp are exact.
  Value z = arith::SIToFPOp::create(b, l, ft, toI32(b, l, zp, isUnsigned));
  Value v = arith::AddFOp::create(b, l, q, z);
  v = arith::MaximumFOp::create(b, l, v, scalarConstant(b, l, ft, lo));
  return arith::MinimumFOp::create(b, l, v, scalarConstant(b, l, ft, hi));
}

struct QuantizePattern : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool isUnsigned = isUnsignedTensor(op.getResult());
    auto type = cast<RankedTensorType>(signlessType(op.getType()));
    unsigned bits = type.getElementTypeBitWidth();
    Value zp = toSignless(rewriter, loc, op.getZeroPoint());
    Value result = buildElementwise(
        rewriter, loc, type, {op.getInput(), op.getScale(), zp},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value v = quantizedValue(b, l, a[0], a[1], a[2], isUnsigned, bits);
          Value i = arith::FPToSIOp::create(b, l, b.getI32Type(), v);
          return arith::TruncIOp::create(b, l, type.getElementType(), i);
        });
    rewriter.replaceOp(op, fromSignless(rewriter, loc, result, op.getType()));
    return success();
  }
};

/// (saturate(round(x / s) + zp) - zp) * s, all in float: the difference of
/// two small integers is exact, as dequantize's i32 one.
struct FakeQuantizePattern : OpRewritePattern<FakeQuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FakeQuantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool isUnsigned = isUnsignedTensor(op.getZeroPoint());
    unsigned bits = cast<RankedTensorType>(op.getZeroPoint().getType())
                        .getElementTypeBitWidth();
    Value zp = toSignless(rewriter, loc, op.getZeroPoint());
    Value result = buildElementwise(
        rewriter, loc, op.getType(), {op.getInput(), op.getScale(), zp},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value v = quantizedValue(b, l, a[0], a[1], a[2], isUnsigned, bits);
          Value z = arith::SIToFPOp::create(b, l, v.getType(),
                                            toI32(b, l, a[2], isUnsigned));
          return arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, v, z),
                                       a[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizePattern : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool isUnsigned = isUnsignedTensor(op.getInput());
    Value x = toSignless(rewriter, loc, op.getInput());
    Value zp = toSignless(rewriter, loc, op.getZeroPoint());
    Value result = buildElementwise(
        rewriter, loc, op.getType(), {x, op.getScale(), zp},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          // Exact in i32 for 8-bit values (an i32 input wraps, as ONNX's
          // reference does in its int32 arithmetic).
          Value d = arith::SubIOp::create(b, l, toI32(b, l, a[0], isUnsigned),
                                          toI32(b, l, a[2], isUnsigned));
          Value f = arith::SIToFPOp::create(b, l, a[1].getType(), d);
          return arith::MulFOp::create(b, l, f, a[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlc::lowering::populateQuantizationPatterns(RewritePatternSet &patterns) {
  patterns.add<QuantizePattern, DequantizePattern, FakeQuantizePattern>(
      patterns.getContext());
}
