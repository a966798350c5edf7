//===- GraphVJPElementwise.cpp - gradient rules of elementwise ops --------===//
//
// VJPOpInterface rules of the unary and (broadcasting) binary math ops, gelu,
// select and cast. Conventions at kinks (docs/autodiff.md): relu'(0) = 0,
// abs'(0) = 0, max/min send a tie to the lhs, and pow's exponent gradient is
// 0 where the base is 0.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/VJPUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlc::graph;

using P = ComparePredicate;

/// A unary rule: `EXPR` is the input's cotangent, from `g` (the result's
/// cotangent), `x` (the input), `y` (the result) and the builder `e`.
#define MLC_UNARY_VJP(OP, EXPR)                                                \
  LogicalResult OP::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,          \
                             SmallVectorImpl<Value> &dxs) {                    \
    VJPBuilder e(builder, getLoc());                                           \
    Value g = dys[0], x = getInput(), y = getResult();                         \
    (void)x;                                                                   \
    (void)y;                                                                   \
    dxs.push_back(EXPR);                                                       \
    return success();                                                          \
  }

namespace {
/// 1 - x * x, a factor of several inverse-trigonometric derivatives.
Value oneMinusSquare(VJPBuilder &e, Value x) {
  return e.sub(e.scalar(x, 1.0), e.mul(x, x));
}
} // namespace

MLC_UNARY_VJP(NegOp, e.neg(g))
// sign(0) = 0 gives abs'(0) = 0.
MLC_UNARY_VJP(AbsOp, e.mul(g, e.sign(x)))
MLC_UNARY_VJP(ReluOp, e.where(e.cmp(P::gt, x, e.scalar(x, 0.0)), g))
MLC_UNARY_VJP(ExpOp, e.mul(g, y))
MLC_UNARY_VJP(LogOp, e.div(g, x))
MLC_UNARY_VJP(SqrtOp, e.div(e.scale(g, 0.5), y))
// d/dx x^-1/2 = -1/2 x^-3/2 = -1/2 y / x.
MLC_UNARY_VJP(RsqrtOp, e.mul(e.scale(g, -0.5), e.div(y, x)))
MLC_UNARY_VJP(TanhOp, e.mul(g, oneMinusSquare(e, y)))
MLC_UNARY_VJP(SigmoidOp, e.mul(g, e.mul(y, e.sub(e.scalar(y, 1.0), y))))
MLC_UNARY_VJP(ErfOp, e.mul(e.scale(g, 2.0 / std::sqrt(M_PI)),
                           e.exp(e.neg(e.mul(x, x)))))
MLC_UNARY_VJP(SinOp, e.mul(g, CosOp::create(builder, getLoc(), x)))
MLC_UNARY_VJP(CosOp, e.neg(e.mul(g, SinOp::create(builder, getLoc(), x))))
MLC_UNARY_VJP(TanOp, e.mul(g, e.add(e.scalar(y, 1.0), e.mul(y, y))))
MLC_UNARY_VJP(AsinOp, e.mul(g, e.rsqrt(oneMinusSquare(e, x))))
MLC_UNARY_VJP(AcosOp, e.neg(e.mul(g, e.rsqrt(oneMinusSquare(e, x)))))
MLC_UNARY_VJP(AtanOp, e.div(g, e.add(e.scalar(x, 1.0), e.mul(x, x))))
MLC_UNARY_VJP(SinhOp, e.mul(g, CoshOp::create(builder, getLoc(), x)))
MLC_UNARY_VJP(CoshOp, e.mul(g, SinhOp::create(builder, getLoc(), x)))
MLC_UNARY_VJP(AsinhOp, e.mul(g, e.rsqrt(e.add(e.mul(x, x), e.scalar(x, 1.0)))))
MLC_UNARY_VJP(AcoshOp, e.mul(g, e.rsqrt(e.sub(e.mul(x, x), e.scalar(x, 1.0)))))
MLC_UNARY_VJP(AtanhOp, e.div(g, oneMinusSquare(e, x)))

#undef MLC_UNARY_VJP

LogicalResult GeluOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                               SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], x = getInput();
  Value half = e.scalar(x, 0.5), one = e.scalar(x, 1.0);
  Value d;
  if (getTanhApproximation()) {
    // y = x/2 (1 + tanh(u)), u = c (x + k x^3):
    // y' = (1 + t)/2 + x/2 (1 - t^2) c (1 + 3 k x^2).
    const double c = std::sqrt(2.0 / M_PI), k = 0.044715;
    Value x2 = e.mul(x, x);
    Value u = e.scale(e.add(x, e.scale(e.mul(x2, x), k)), c);
    Value t = TanhOp::create(builder, getLoc(), u);
    Value du = e.scale(e.add(one, e.scale(x2, 3 * k)), c);
    Value left = e.mul(half, e.add(one, t));
    Value right = e.mul(e.mul(e.mul(half, x), oneMinusSquare(e, t)), du);
    d = e.add(left, right);
  } else {
    // y = x Phi(x): y' = Phi(x) + x phi(x).
    Value cdf = e.mul(
        half, e.add(one, ErfOp::create(builder, getLoc(),
                                       e.scale(x, 1.0 / std::sqrt(2.0)))));
    Value pdf =
        e.scale(e.exp(e.scale(e.mul(x, x), -0.5)), 1.0 / std::sqrt(2.0 * M_PI));
    d = e.add(cdf, e.mul(x, pdf));
  }
  dxs.push_back(e.mul(g, d));
  return success();
}

//===----------------------------------------------------------------------===//
// Broadcasting binary ops: every operand cotangent goes through sumToShape.
//===----------------------------------------------------------------------===//

#define MLC_BINARY_VJP(OP, DA, DB)                                             \
  LogicalResult OP::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,          \
                             SmallVectorImpl<Value> &dxs) {                    \
    VJPBuilder e(builder, getLoc());                                           \
    Value g = dys[0], a = getLhs(), b = getRhs(), z = getResult();             \
    (void)z;                                                                   \
    dxs.push_back(e.sumToShape(DA, a.getType()));                              \
    dxs.push_back(e.sumToShape(DB, b.getType()));                              \
    return success();                                                          \
  }

MLC_BINARY_VJP(AddOp, g, g)
MLC_BINARY_VJP(SubOp, g, e.neg(g))
MLC_BINARY_VJP(MulOp, e.mul(g, b), e.mul(g, a))
// d(a/b)/db = -a/b^2 = -z/b.
MLC_BINARY_VJP(DivOp, e.div(g, b), e.neg(e.div(e.mul(g, z), b)))
// The exponent's gradient z log(a) is taken as 0 where a = 0 (as PyTorch).
MLC_BINARY_VJP(PowOp, e.mul(e.mul(g, b), e.pow(a, e.sub(b, e.scalar(b, 1.0)))),
               e.where(e.cmp(P::eq, a, e.scalar(a, 0.0)),
                       e.mul(e.mul(g, z), e.log(a)), /*invert=*/true))
// Ties go to the lhs.
MLC_BINARY_VJP(MaxOp, e.where(e.cmp(P::ge, a, b), g),
               e.where(e.cmp(P::ge, a, b), g, /*invert=*/true))
MLC_BINARY_VJP(MinOp, e.where(e.cmp(P::le, a, b), g),
               e.where(e.cmp(P::le, a, b), g, /*invert=*/true))

#undef MLC_BINARY_VJP

LogicalResult SelectOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                 SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], c = getCondition();
  dxs.push_back(nullptr);
  dxs.push_back(e.sumToShape(e.where(c, g), getTrueValue().getType()));
  dxs.push_back(
      e.sumToShape(e.where(c, g, /*invert=*/true), getFalseValue().getType()));
  return success();
}

LogicalResult CastOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                               SmallVectorImpl<Value> &dxs) {
  // Only float -> float casts carry a gradient (rounded back).
  if (!isFloatTensor(getInput()) || !isFloatTensor(getResult())) {
    dxs.push_back(nullptr);
    return success();
  }
  VJPBuilder e(builder, getLoc());
  dxs.push_back(e.cast(dys[0], tensorTypeOf(getInput()).getElementType()));
  return success();
}
