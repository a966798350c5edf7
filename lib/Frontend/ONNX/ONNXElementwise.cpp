//===- ONNXElementwise.cpp - ONNX converters: elementwise
//-------------------===//
//
// The converters for elementwise operators (arithmetic, math, activations,
// logic, casts), and their rows of the converter table (getONNXConverters,
// docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

template <typename OpTy> LogicalResult convertUnary(N &n) {
  return out(n, unary<OpTy>(n, n.input(0)));
}
template <typename OpTy> LogicalResult convertBinary(N &n) {
  return out(n, binary<OpTy>(n, n.input(0), n.input(1)));
}
template <typename OpTy> LogicalResult convertVariadic(N &n) {
  return out(n, foldInputs<OpTy>(n));
}

LogicalResult convertPow(N &n) {
  Value x = n.input(0), y = n.input(1);
  Type xt = N::elementTypeOf(x), yt = N::elementTypeOf(y);
  if (isa<FloatType>(xt)) {
    MLC_TRY(yc, castTo(n, y, xt));
    return out(n, binary<graph::PowOp>(n, x, yc));
  }
  if (isa<FloatType>(yt)) {
    // int ** float: numpy computes in floating point; the result takes x's
    // type (truncating), as the ONNX reference does.
    MLC_TRY(xf, castTo(n, x, yt));
    MLC_TRY(p, binary<graph::PowOp>(n, xf, y));
    return out(n, castTo(n, p, xt));
  }
  MLC_TRY(yc, castTo(n, y, xt));
  return out(n, binary<graph::PowOp>(n, x, yc));
}

LogicalResult convertMean(N &n) {
  MLC_TRY(sum, foldInputs<graph::AddOp>(n));
  return out(n, binary<graph::DivOp>(n, sum,
                                     n.scalarLike(sum, double(n.numInputs()))));
}

LogicalResult convertReciprocal(N &n) {
  Value x = n.input(0);
  return out(n, binary<graph::DivOp>(n, n.scalarLike(x, 1.0), x));
}

LogicalResult convertMod(N &n) {
  MLC_TRY(fmod, n.getInt("fmod", 0));
  return out(n, n.emit<graph::ModOp>({n.input(0), n.input(1)},
                                     {n.boolAttr("fmod", fmod != 0)}));
}

LogicalResult convertBitShift(N &n) {
  MLC_TRY(direction, n.getString("direction"));
  Value x = n.input(0), y = n.input(1);
  if (direction == "LEFT")
    return out(n, binary<graph::ShiftLeftOp>(n, x, y));
  if (direction == "RIGHT")
    return out(n, binary<graph::ShiftRightOp>(n, x, y));
  return n.error() << "direction must be \"LEFT\" or \"RIGHT\", got \""
                   << direction << "\"",
         failure();
}

/// Comparison; bools compare as i32 (graph.compare is numeric).
FailureOr<Value> compareInputs(N &n, Pred pred) {
  Value a = n.input(0), b = n.input(1);
  if (N::elementTypeOf(a).isInteger(1)) {
    MLC_TRY(ai, castTo(n, a, n.b.getI32Type()));
    MLC_TRY(bi, castTo(n, b, n.b.getI32Type()));
    return compare(n, pred, ai, bi);
  }
  return compare(n, pred, a, b);
}
LogicalResult convertEqual(N &n) { return out(n, compareInputs(n, Pred::eq)); }
LogicalResult convertLess(N &n) { return out(n, compareInputs(n, Pred::lt)); }
LogicalResult convertLessOrEqual(N &n) {
  return out(n, compareInputs(n, Pred::le));
}
LogicalResult convertGreater(N &n) {
  return out(n, compareInputs(n, Pred::gt));
}
LogicalResult convertGreaterOrEqual(N &n) {
  return out(n, compareInputs(n, Pred::ge));
}

LogicalResult convertIsNaN(N &n) {
  Value x = n.input(0);
  return out(n, compare(n, Pred::ne, x, x));
}

LogicalResult convertIsInf(N &n) {
  MLC_TRY(neg, n.getInt("detect_negative", 1));
  MLC_TRY(pos, n.getInt("detect_positive", 1));
  Value x = n.input(0);
  if (neg && pos) {
    MLC_TRY(a, unary<graph::AbsOp>(n, x));
    return out(n, compare(n, Pred::eq, a, n.scalarLike(x, INFINITY)));
  }
  if (pos)
    return out(n, compare(n, Pred::eq, x, n.scalarLike(x, INFINITY)));
  if (neg)
    return out(n, compare(n, Pred::eq, x, n.scalarLike(x, -INFINITY)));
  // Neither: all false (x < x is false for every x, NaN included).
  return out(n, compare(n, Pred::lt, x, x));
}

LogicalResult convertWhere(N &n) {
  return out(n, select(n, n.input(0), n.input(1), n.input(2)));
}

LogicalResult convertClip(N &n) {
  Value x = n.input(0), lo, hi;
  if (n.opset < 11) {
    MLC_TRY(mn, n.getFloat("min", -INFINITY));
    MLC_TRY(mx, n.getFloat("max", INFINITY));
    if (!std::isinf(mn))
      lo = n.scalarLike(x, mn);
    if (!std::isinf(mx))
      hi = n.scalarLike(x, mx);
  } else {
    lo = n.input(1);
    hi = n.input(2);
  }
  Value r = x;
  if (lo) {
    MLC_TRY(v, binary<graph::MaxOp>(n, r, lo));
    r = v;
  }
  if (hi) {
    MLC_TRY(v, binary<graph::MinOp>(n, r, hi));
    r = v;
  }
  n.setOutput(0, r);
  return success();
}

/// Sets output 0 to select(x < 0, fx, x): the leaky activations.
LogicalResult outNegativeBranch(N &n, Value x, FailureOr<Value> fx) {
  if (failed(fx))
    return failure();
  MLC_TRY(neg, compare(n, Pred::lt, x, n.scalarLike(x, 0)));
  return out(n, select(n, neg, *fx, x));
}

LogicalResult convertLeakyRelu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 0.01f));
  Value x = n.input(0);
  return outNegativeBranch(n, x, scale(n, x, alpha));
}

LogicalResult convertPRelu(N &n) {
  Value x = n.input(0);
  return outNegativeBranch(n, x, binary<graph::MulOp>(n, x, n.input(1)));
}

/// PRelu before opset 7: a slope of one value per channel has shape [C]
/// and applies along dim 1, not (as numpy would align it) the last dim.
LogicalResult convertLegacyPRelu(N &n) {
  Value x = n.input(0), slope = n.input(1);
  if (N::rankOf(slope) == 1 && N::rankOf(x) >= 2 &&
      N::shapeOf(slope)[0] == N::shapeOf(x)[1] && N::shapeOf(slope)[0] != 1) {
    SmallVector<int64_t> shape(N::rankOf(x) - 1, 1);
    shape[0] = N::shapeOf(slope)[0];
    MLC_TRY(aligned, reshape(n, slope, shape));
    n.replaceInput(1, aligned);
  }
  return convertPRelu(n);
}

LogicalResult convertThresholdedRelu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  Value x = n.input(0);
  MLC_TRY(gt, compare(n, Pred::gt, x, n.scalarLike(x, alpha)));
  return out(n, select(n, gt, x, n.scalarLike(x, 0)));
}

/// alpha * (exp(x) - 1) for x < 0 (ELU's negative branch).
FailureOr<Value> expm1Scaled(N &n, Value x, double alpha) {
  MLC_TRY(e, unary<graph::ExpOp>(n, x));
  MLC_TRY(em1, addScalar(n, e, -1.0));
  return scale(n, em1, alpha);
}

LogicalResult convertElu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  Value x = n.input(0);
  return outNegativeBranch(n, x, expm1Scaled(n, x, alpha));
}

LogicalResult convertSelu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.67326319217681884765625f));
  MLC_TRY(gamma, n.getFloat("gamma", 1.05070102214813232421875f));
  Value x = n.input(0);
  MLC_TRY(pos, compare(n, Pred::gt, x, n.scalarLike(x, 0)));
  MLC_TRY(e, expm1Scaled(n, x, alpha));
  MLC_TRY(s, select(n, pos, x, e));
  return out(n, scale(n, s, gamma));
}

LogicalResult convertCelu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  Value x = n.input(0);
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
  MLC_TRY(xa, scale(n, x, 1.0 / alpha));
  MLC_TRY(e, expm1Scaled(n, xa, alpha));
  MLC_TRY(lo, binary<graph::MinOp>(n, e, n.scalarLike(x, 0)));
  MLC_TRY(hi, binary<graph::MaxOp>(n, x, n.scalarLike(x, 0)));
  return out(n, binary<graph::AddOp>(n, hi, lo));
}

FailureOr<Value> hardSigmoid(N &n, Value x, double alpha, double beta) {
  MLC_TRY(ax, scale(n, x, alpha));
  MLC_TRY(axb, addScalar(n, ax, beta));
  MLC_TRY(lo, binary<graph::MaxOp>(n, axb, n.scalarLike(x, 0)));
  return binary<graph::MinOp>(n, lo, n.scalarLike(x, 1));
}

LogicalResult convertHardSigmoid(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 0.2f));
  MLC_TRY(beta, n.getFloat("beta", 0.5f));
  return out(n, hardSigmoid(n, n.input(0), alpha, beta));
}

LogicalResult convertHardSwish(N &n) {
  Value x = n.input(0);
  MLC_TRY(h, hardSigmoid(n, x, 1.0 / 6.0, 0.5));
  return out(n, binary<graph::MulOp>(n, x, h));
}

LogicalResult convertSoftplus(N &n) {
  Value x = n.input(0);
  MLC_TRY(e, unary<graph::ExpOp>(n, x));
  MLC_TRY(e1, addScalar(n, e, 1.0));
  return out(n, unary<graph::LogOp>(n, e1));
}

LogicalResult convertSoftsign(N &n) {
  Value x = n.input(0);
  MLC_TRY(a, unary<graph::AbsOp>(n, x));
  MLC_TRY(a1, addScalar(n, a, 1.0));
  return out(n, binary<graph::DivOp>(n, x, a1));
}

LogicalResult convertShrink(N &n) {
  MLC_TRY(bias, n.getFloat("bias", 0.0f));
  MLC_TRY(lambd, n.getFloat("lambd", 0.5f));
  Value x = n.input(0);
  MLC_TRY(lo, compare(n, Pred::lt, x, n.scalarLike(x, -lambd)));
  MLC_TRY(hi, compare(n, Pred::gt, x, n.scalarLike(x, lambd)));
  MLC_TRY(xp, addScalar(n, x, bias));
  MLC_TRY(xm, addScalar(n, x, -bias));
  MLC_TRY(inner, select(n, hi, xm, n.scalarLike(x, 0)));
  return out(n, select(n, lo, xp, inner));
}

LogicalResult convertIdentity(N &n) {
  n.setOutput(0, n.anyInput(0)); // a tensor or a sequence
  return success();
}

LogicalResult convertCast(N &n) {
  MLC_TRY(to, n.getInt("to"));
  Type t = onnxElementType(n.ctx, to);
  if (!t)
    return n.unsupported("target dtype " + onnx::dataTypeName(int32_t(to)));
  return out(n, castTo(n, n.input(0), t));
}

LogicalResult convertCastLike(N &n) {
  return out(n, castTo(n, n.input(0), N::elementTypeOf(n.input(1))));
}

LogicalResult convertDropout(N &n) {
  // Inference semantics; training with a non-zero ratio is random.
  bool training = false;
  double ratio = 0.5;
  if (n.opset >= 12) {
    if (n.hasInput(2)) {
      MLC_TRY(t, n.constantInput(2, "training_mode"));
      training = t.getBytes()[0] != 0;
    }
    if (n.hasInput(1)) {
      MLC_TRY(r, n.constantFloats(1, "ratio"));
      ratio = r.empty() ? 0.5 : r[0];
    }
  } else {
    MLC_TRY(isTest, n.getInt("is_test", 0));
    MLC_TRY(r, n.getFloat("ratio", 0.5f));
    ratio = r;
    training = n.opset < 7 && !isTest;
  }
  if (training && ratio != 0)
    return n.unsupported("training mode with ratio " + std::to_string(ratio) +
                         " (random masks)");
  Value x = n.input(0);
  n.setOutput(0, x);
  if (n.wantsOutput(1)) {
    auto type = RankedTensorType::get(N::shapeOf(x), n.b.getI1Type());
    n.setOutput(
        1, n.constant(type, SmallVector<double>(type.getNumElements(), 1.0)));
  }
  return success();
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"Add", 7, kMax, 2, "", convertBinary<graph::AddOp>, ""},
    {"Sub", 7, kMax, 2, "", convertBinary<graph::SubOp>, ""},
    {"Mul", 7, kMax, 2, "", convertBinary<graph::MulOp>, ""},
    // Opsets 1-6: `broadcast` and `axis` attributes instead of numpy
    // broadcasting.
    {"Add", 1, 6, 2, "broadcast,axis",
     withLegacyBroadcast<convertBinary<graph::AddOp>>, ""},
    {"Sub", 1, 6, 2, "broadcast,axis",
     withLegacyBroadcast<convertBinary<graph::SubOp>>, ""},
    {"Mul", 1, 6, 2, "broadcast,axis",
     withLegacyBroadcast<convertBinary<graph::MulOp>>, ""},
    {"Div", 1, 6, 2, "broadcast,axis",
     withLegacyBroadcast<convertBinary<graph::DivOp>>, ""},
    {"Pow", 1, 6, 2, "broadcast,axis", withLegacyBroadcast<convertPow>, ""},
    {"And", 1, 6, 2, "broadcast,axis",
     withLegacyBroadcast<convertBinary<graph::AndOp>>, ""},
    {"Or", 1, 6, 2, "broadcast,axis",
     withLegacyBroadcast<convertBinary<graph::OrOp>>, ""},
    {"Xor", 1, 6, 2, "broadcast,axis",
     withLegacyBroadcast<convertBinary<graph::XorOp>>, ""},
    {"Equal", 1, 6, 2, "broadcast,axis", withLegacyBroadcast<convertEqual>, ""},
    {"Greater", 1, 6, 2, "broadcast,axis", withLegacyBroadcast<convertGreater>,
     ""},
    {"Less", 1, 6, 2, "broadcast,axis", withLegacyBroadcast<convertLess>, ""},
    {"PRelu", 1, 6, 2, "", convertLegacyPRelu,
     "a slope of C values applies per channel (dim 1)"},
    {"Div", 7, kMax, 2, "", convertBinary<graph::DivOp>,
     "integer division truncates; x/0 is 0 for integers"},
    {"Pow", 7, kMax, 2, "", convertPow, "mixed int/float operands"},
    {"Mod", 10, kMax, 2, "fmod", convertMod, ""},
    {"BitShift", 11, kMax, 2, "direction", convertBitShift,
     "amounts of the bit width or more give 0"},
    {"Max", 1, kMax, 1, "", convertVariadic<graph::MaxOp>, ""},
    {"Min", 1, kMax, 1, "", convertVariadic<graph::MinOp>, ""},
    {"Mean", 1, kMax, 1, "", convertMean, "float"},
    {"Neg", 1, kMax, 1, "", convertUnary<graph::NegOp>, ""},
    {"Abs", 1, kMax, 1, "", convertUnary<graph::AbsOp>, ""},
    {"Reciprocal", 1, kMax, 1, "", convertReciprocal, ""},
    {"Relu", 1, kMax, 1, "", convertUnary<graph::ReluOp>, ""},
    {"Exp", 1, kMax, 1, "", convertUnary<graph::ExpOp>, "float"},
    {"Log", 1, kMax, 1, "", convertUnary<graph::LogOp>, "float"},
    {"Sqrt", 1, kMax, 1, "", convertUnary<graph::SqrtOp>, "float"},
    {"Tanh", 1, kMax, 1, "", convertUnary<graph::TanhOp>, "float"},
    {"Sigmoid", 1, kMax, 1, "", convertUnary<graph::SigmoidOp>, "float"},
    {"Erf", 9, kMax, 1, "", convertUnary<graph::ErfOp>, "float"},
    {"Sin", 7, kMax, 1, "", convertUnary<graph::SinOp>, "float"},
    {"Cos", 7, kMax, 1, "", convertUnary<graph::CosOp>, "float"},
    {"Tan", 7, kMax, 1, "", convertUnary<graph::TanOp>, "float"},
    {"Asin", 7, kMax, 1, "", convertUnary<graph::AsinOp>, "float"},
    {"Acos", 7, kMax, 1, "", convertUnary<graph::AcosOp>, "float"},
    {"Atan", 7, kMax, 1, "", convertUnary<graph::AtanOp>, "float"},
    {"Sinh", 9, kMax, 1, "", convertUnary<graph::SinhOp>, "float"},
    {"Cosh", 9, kMax, 1, "", convertUnary<graph::CoshOp>, "float"},
    {"Asinh", 9, kMax, 1, "", convertUnary<graph::AsinhOp>, "float"},
    {"Acosh", 9, kMax, 1, "", convertUnary<graph::AcoshOp>, "float"},
    {"Atanh", 9, kMax, 1, "", convertUnary<graph::AtanhOp>, "float"},
    {"Floor", 1, kMax, 1, "", convertUnary<graph::FloorOp>, "float"},
    {"Ceil", 1, kMax, 1, "", convertUnary<graph::CeilOp>, "float"},
    {"Round", 11, kMax, 1, "", convertUnary<graph::RoundOp>, "half to even"},
    {"Sign", 9, kMax, 1, "", convertUnary<graph::SignOp>, ""},
    {"IsNaN", 9, kMax, 1, "", convertIsNaN, ""},
    {"IsInf", 10, kMax, 1, "detect_negative,detect_positive", convertIsInf, ""},
    {"Softplus", 1, kMax, 1, "", convertSoftplus, "log(exp(x) + 1)"},
    {"Softsign", 1, kMax, 1, "", convertSoftsign, ""},
    {"Elu", 1, kMax, 1, "alpha", convertElu, ""},
    {"Selu", 1, kMax, 1, "alpha,gamma", convertSelu, ""},
    {"Celu", 12, kMax, 1, "alpha", convertCelu, ""},
    {"LeakyRelu", 1, kMax, 1, "alpha", convertLeakyRelu, ""},
    {"PRelu", 7, kMax, 2, "", convertPRelu, ""},
    {"ThresholdedRelu", 10, kMax, 1, "alpha", convertThresholdedRelu, ""},
    {"HardSigmoid", 1, kMax, 1, "alpha,beta", convertHardSigmoid, ""},
    {"HardSwish", 14, kMax, 1, "", convertHardSwish, ""},
    {"Shrink", 9, kMax, 1, "bias,lambd", convertShrink, ""},
    {"Clip", 1, kMax, 1, "min,max", convertClip,
     "bounds may be runtime values"},
    {"Equal", 7, kMax, 2, "", convertEqual, "numbers and bools"},
    {"Less", 7, kMax, 2, "", convertLess, ""},
    {"LessOrEqual", 12, kMax, 2, "", convertLessOrEqual, ""},
    {"Greater", 7, kMax, 2, "", convertGreater, ""},
    {"GreaterOrEqual", 12, kMax, 2, "", convertGreaterOrEqual, ""},
    {"And", 7, kMax, 2, "", convertBinary<graph::AndOp>, ""},
    {"Or", 7, kMax, 2, "", convertBinary<graph::OrOp>, ""},
    {"Xor", 7, kMax, 2, "", convertBinary<graph::XorOp>, ""},
    {"Not", 1, kMax, 1, "", convertUnary<graph::NotOp>, ""},
    {"Where", 9, kMax, 3, "", convertWhere, ""},
    {"Cast", 6, kMax, 1, "to,saturate", convertCast,
     "float, double, float16, bfloat16, int8/16/32/64, bool (no strings)"},
    {"CastLike", 15, kMax, 2, "saturate", convertCastLike, ""},
    {"Identity", 1, kMax, 1, "", convertIdentity, "tensors and sequences"},
    {"Dropout", 1, kMax, 1, "ratio,is_test,seed", convertDropout,
     "inference, or training with ratio 0"},
};

} // namespace

ArrayRef<OpConverter> getElementwiseConverters() { return kConverters; }

} // namespace mlc::frontend
