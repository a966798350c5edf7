//===- ONNXOps.cpp - ONNX operator converters -----------------------------===//
//
// One converter per ONNX operator (per opset range where the operator's form
// changed), mapping it onto graph ops. Operators whose meaning is a
// composition (Gemm, Clip, HardSigmoid, Softplus, the reductions L1/L2/...,
// Trilu, OneHot, the losses, Resize as interpolation matrices) are
// decomposed here; the table at the end is also the source of
// docs/supported-ops.md.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/ImportModel.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <map>
#include <numeric>

using namespace mlir;

namespace mlc::frontend {
namespace {

using N = NodeContext;

#define MLC_TRY(var, expr)                                                     \
  auto var##OrFail = (expr);                                                   \
  if (failed(var##OrFail))                                                     \
    return failure();                                                          \
  auto var = std::move(*var##OrFail)

int64_t product(ArrayRef<int64_t> v) {
  return std::accumulate(v.begin(), v.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

SmallVector<int64_t> iota(int64_t n, int64_t start = 0) {
  SmallVector<int64_t> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

FailureOr<Value> unary(N &n, StringRef op, Value x) { return n.emit(op, {x}); }
FailureOr<Value> binary(N &n, StringRef op, Value a, Value b) {
  return n.emit(op, {a, b});
}
FailureOr<Value> reshape(N &n, Value x, ArrayRef<int64_t> shape) {
  if (N::shapeOf(x) == shape)
    return x;
  return n.emit("reshape", {x}, {n.arrayAttr("shape", shape)});
}
FailureOr<Value> transpose(N &n, Value x, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, iota(perm.size())))
    return x;
  return n.emit("transpose", {x}, {n.arrayAttr("perm", perm)});
}
FailureOr<Value> castTo(N &n, Value x, Type to) {
  if (N::elementTypeOf(x) == to)
    return x;
  return n.emit("cast", {x}, {n.attr("to", TypeAttr::get(to))});
}
FailureOr<Value> compare(N &n, StringRef pred, Value a, Value b) {
  auto p = graph::symbolizeComparePredicate(pred);
  return n.emit("compare", {a, b},
                {n.attr("predicate", graph::ComparePredicateAttr::get(
                                         n.ctx, *p))});
}
FailureOr<Value> select(N &n, Value c, Value a, Value b) {
  return n.emit("select", {c, a, b});
}
FailureOr<Value> reduce(N &n, StringRef op, Value x, ArrayRef<int64_t> axes,
                        bool keepdims) {
  return n.emit(op, {x},
                {n.arrayAttr("axes", axes), n.boolAttr("keepdims", keepdims)});
}
FailureOr<Value> concat(N &n, ValueRange xs, int64_t axis) {
  if (xs.size() == 1)
    return Value(xs[0]);
  return n.emit("concat", xs, {n.i64Attr("axis", axis)});
}
/// Elements [start, end) with `step` along `axis`, everything elsewhere.
FailureOr<Value> sliceAxis(N &n, Value x, int64_t axis, int64_t start,
                           int64_t end, int64_t step = 1) {
  ArrayRef<int64_t> shape = N::shapeOf(x);
  if (start == 0 && end == shape[axis] && step == 1)
    return x;
  SmallVector<int64_t> s(shape.size(), 0), e(shape), st(shape.size(), 1);
  s[axis] = start;
  e[axis] = end;
  st[axis] = step;
  return n.emit("slice", {x},
                {n.arrayAttr("starts", s), n.arrayAttr("ends", e),
                 n.arrayAttr("steps", st)});
}
/// x[..., indices, ...] along `axis` with constant indices.
FailureOr<Value> takeAxis(N &n, Value x, int64_t axis,
                          ArrayRef<int64_t> indices) {
  if (llvm::equal(indices, iota(N::shapeOf(x)[axis])))
    return x;
  Value idx = n.i64Constant(indices, {int64_t(indices.size())});
  return n.emit("gather", {x, idx}, {n.i64Attr("axis", axis)});
}
FailureOr<Value> padConstant(N &n, Value x, ArrayRef<int64_t> pads,
                             double value) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return x;
  return n.emit("pad", {x},
                {n.arrayAttr("pads", pads),
                 n.attr("value", n.b.getF64FloatAttr(value))});
}
/// Multiplies by a scalar unless it is 1.
FailureOr<Value> scale(N &n, Value x, double s) {
  if (s == 1.0)
    return x;
  return binary(n, "mul", x, n.scalarLike(x, s));
}
FailureOr<Value> addScalar(N &n, Value x, double s) {
  if (s == 0.0)
    return x;
  return binary(n, "add", x, n.scalarLike(x, s));
}

/// Normalized, sorted, unique axes.
FailureOr<SmallVector<int64_t>> normalizeAxes(N &n, ArrayRef<int64_t> axes,
                                              int64_t rank) {
  SmallVector<int64_t> out;
  for (int64_t a : axes) {
    MLC_TRY(v, n.normalizeAxis(a, rank, "axis"));
    if (llvm::is_contained(out, v)) {
      n.error() << "axis " << a << " is repeated";
      return failure();
    }
    out.push_back(v);
  }
  llvm::sort(out);
  return out;
}

/// Left-folds a variadic elementwise operator (Sum, Max, ...).
FailureOr<Value> foldInputs(N &n, StringRef op) {
  Value acc = n.input(0);
  if (!acc)
    return n.unsupported("missing inputs"), failure();
  for (unsigned i = 1; i < n.numInputs(); ++i) {
    MLC_TRY(next, binary(n, op, acc, n.input(i)));
    acc = next;
  }
  return acc;
}

LogicalResult out(N &n, FailureOr<Value> v) {
  if (failed(v))
    return failure();
  n.setOutput(0, *v);
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

template <const char *Op> LogicalResult convertUnary(N &n) {
  return out(n, unary(n, Op, n.input(0)));
}
template <const char *Op> LogicalResult convertBinary(N &n) {
  return out(n, binary(n, Op, n.input(0), n.input(1)));
}
template <const char *Op> LogicalResult convertVariadic(N &n) {
  return out(n, foldInputs(n, Op));
}

#define MLC_OP_NAME(var, text) constexpr char var[] = text
MLC_OP_NAME(kAdd, "add");
MLC_OP_NAME(kSub, "sub");
MLC_OP_NAME(kMul, "mul");
MLC_OP_NAME(kDiv, "div");
MLC_OP_NAME(kMaxOp, "max");
MLC_OP_NAME(kMinOp, "min");
MLC_OP_NAME(kNeg, "neg");
MLC_OP_NAME(kAbs, "abs");
MLC_OP_NAME(kRelu, "relu");
MLC_OP_NAME(kExp, "exp");
MLC_OP_NAME(kLog, "log");
MLC_OP_NAME(kSqrt, "sqrt");
MLC_OP_NAME(kTanh, "tanh");
MLC_OP_NAME(kSigmoid, "sigmoid");
MLC_OP_NAME(kErf, "erf");
MLC_OP_NAME(kSin, "sin");
MLC_OP_NAME(kCos, "cos");
MLC_OP_NAME(kTan, "tan");
MLC_OP_NAME(kAsin, "asin");
MLC_OP_NAME(kAcos, "acos");
MLC_OP_NAME(kAtan, "atan");
MLC_OP_NAME(kSinh, "sinh");
MLC_OP_NAME(kCosh, "cosh");
MLC_OP_NAME(kAsinh, "asinh");
MLC_OP_NAME(kAcosh, "acosh");
MLC_OP_NAME(kAtanh, "atanh");
MLC_OP_NAME(kFloor, "floor");
MLC_OP_NAME(kCeil, "ceil");
MLC_OP_NAME(kRound, "round");
MLC_OP_NAME(kSign, "sign");
MLC_OP_NAME(kAnd, "and");
MLC_OP_NAME(kOr, "or");
MLC_OP_NAME(kXor, "xor");
MLC_OP_NAME(kNot, "not");

LogicalResult convertPow(N &n) {
  Value x = n.input(0), y = n.input(1);
  Type xt = N::elementTypeOf(x), yt = N::elementTypeOf(y);
  if (isa<FloatType>(xt)) {
    MLC_TRY(yc, castTo(n, y, xt));
    return out(n, binary(n, "pow", x, yc));
  }
  if (isa<FloatType>(yt)) {
    // int ** float: numpy computes in floating point; the result takes x's
    // type (truncating), as the ONNX reference does.
    MLC_TRY(xf, castTo(n, x, yt));
    MLC_TRY(p, binary(n, "pow", xf, y));
    return out(n, castTo(n, p, xt));
  }
  MLC_TRY(yc, castTo(n, y, xt));
  return out(n, binary(n, "pow", x, yc));
}

LogicalResult convertMean(N &n) {
  MLC_TRY(sum, foldInputs(n, "add"));
  return out(n, binary(n, "div", sum,
                       n.scalarLike(sum, double(n.numInputs()))));
}

LogicalResult convertReciprocal(N &n) {
  Value x = n.input(0);
  return out(n, binary(n, "div", n.scalarLike(x, 1.0), x));
}

LogicalResult convertMod(N &n) {
  MLC_TRY(fmod, n.getInt("fmod", 0));
  return out(n, n.emit("mod", {n.input(0), n.input(1)},
                       {n.boolAttr("fmod", fmod != 0)}));
}

/// Comparison; bools compare as i32 (graph.compare is numeric).
FailureOr<Value> compareInputs(N &n, StringRef pred) {
  Value a = n.input(0), b = n.input(1);
  if (N::elementTypeOf(a).isInteger(1)) {
    MLC_TRY(ai, castTo(n, a, n.b.getI32Type()));
    MLC_TRY(bi, castTo(n, b, n.b.getI32Type()));
    return compare(n, pred, ai, bi);
  }
  return compare(n, pred, a, b);
}
LogicalResult convertEqual(N &n) { return out(n, compareInputs(n, "eq")); }
LogicalResult convertLess(N &n) { return out(n, compareInputs(n, "lt")); }
LogicalResult convertLessOrEqual(N &n) {
  return out(n, compareInputs(n, "le"));
}
LogicalResult convertGreater(N &n) { return out(n, compareInputs(n, "gt")); }
LogicalResult convertGreaterOrEqual(N &n) {
  return out(n, compareInputs(n, "ge"));
}

LogicalResult convertIsNaN(N &n) {
  Value x = n.input(0);
  return out(n, compare(n, "ne", x, x));
}

LogicalResult convertIsInf(N &n) {
  MLC_TRY(neg, n.getInt("detect_negative", 1));
  MLC_TRY(pos, n.getInt("detect_positive", 1));
  Value x = n.input(0);
  if (neg && pos) {
    MLC_TRY(a, unary(n, "abs", x));
    return out(n, compare(n, "eq", a, n.scalarLike(x, INFINITY)));
  }
  if (pos)
    return out(n, compare(n, "eq", x, n.scalarLike(x, INFINITY)));
  if (neg)
    return out(n, compare(n, "eq", x, n.scalarLike(x, -INFINITY)));
  // Neither: all false (x < x is false for every x, NaN included).
  return out(n, compare(n, "lt", x, x));
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
    MLC_TRY(v, binary(n, "max", r, lo));
    r = v;
  }
  if (hi) {
    MLC_TRY(v, binary(n, "min", r, hi));
    r = v;
  }
  n.setOutput(0, r);
  return success();
}

/// select(x < 0, f(x), x) style activations.
LogicalResult convertLeakyRelu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 0.01f));
  Value x = n.input(0);
  MLC_TRY(neg, compare(n, "lt", x, n.scalarLike(x, 0)));
  MLC_TRY(ax, scale(n, x, alpha));
  return out(n, select(n, neg, ax, x));
}

LogicalResult convertPRelu(N &n) {
  Value x = n.input(0), slope = n.input(1);
  MLC_TRY(neg, compare(n, "lt", x, n.scalarLike(x, 0)));
  MLC_TRY(ax, binary(n, "mul", x, slope));
  return out(n, select(n, neg, ax, x));
}

LogicalResult convertThresholdedRelu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  Value x = n.input(0);
  MLC_TRY(gt, compare(n, "gt", x, n.scalarLike(x, alpha)));
  return out(n, select(n, gt, x, n.scalarLike(x, 0)));
}

/// alpha * (exp(x) - 1) for x < 0 (ELU's negative branch).
FailureOr<Value> expm1Scaled(N &n, Value x, double alpha) {
  MLC_TRY(e, unary(n, "exp", x));
  MLC_TRY(em1, addScalar(n, e, -1.0));
  return scale(n, em1, alpha);
}

LogicalResult convertElu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  Value x = n.input(0);
  MLC_TRY(neg, compare(n, "lt", x, n.scalarLike(x, 0)));
  MLC_TRY(e, expm1Scaled(n, x, alpha));
  return out(n, select(n, neg, e, x));
}

LogicalResult convertSelu(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.67326319217681884765625f));
  MLC_TRY(gamma, n.getFloat("gamma", 1.05070102214813232421875f));
  Value x = n.input(0);
  MLC_TRY(pos, compare(n, "gt", x, n.scalarLike(x, 0)));
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
  MLC_TRY(lo, binary(n, "min", e, n.scalarLike(x, 0)));
  MLC_TRY(hi, binary(n, "max", x, n.scalarLike(x, 0)));
  return out(n, binary(n, "add", hi, lo));
}

FailureOr<Value> hardSigmoid(N &n, Value x, double alpha, double beta) {
  MLC_TRY(ax, scale(n, x, alpha));
  MLC_TRY(axb, addScalar(n, ax, beta));
  MLC_TRY(lo, binary(n, "max", axb, n.scalarLike(x, 0)));
  return binary(n, "min", lo, n.scalarLike(x, 1));
}

LogicalResult convertHardSigmoid(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 0.2f));
  MLC_TRY(beta, n.getFloat("beta", 0.5f));
  return out(n, hardSigmoid(n, n.input(0), alpha, beta));
}

LogicalResult convertHardSwish(N &n) {
  Value x = n.input(0);
  MLC_TRY(h, hardSigmoid(n, x, 1.0 / 6.0, 0.5));
  return out(n, binary(n, "mul", x, h));
}

LogicalResult convertSoftplus(N &n) {
  Value x = n.input(0);
  MLC_TRY(e, unary(n, "exp", x));
  MLC_TRY(e1, addScalar(n, e, 1.0));
  return out(n, unary(n, "log", e1));
}

LogicalResult convertSoftsign(N &n) {
  Value x = n.input(0);
  MLC_TRY(a, unary(n, "abs", x));
  MLC_TRY(a1, addScalar(n, a, 1.0));
  return out(n, binary(n, "div", x, a1));
}

LogicalResult convertShrink(N &n) {
  MLC_TRY(bias, n.getFloat("bias", 0.0f));
  MLC_TRY(lambd, n.getFloat("lambd", 0.5f));
  Value x = n.input(0);
  MLC_TRY(lo, compare(n, "lt", x, n.scalarLike(x, -lambd)));
  MLC_TRY(hi, compare(n, "gt", x, n.scalarLike(x, lambd)));
  MLC_TRY(xp, addScalar(n, x, bias));
  MLC_TRY(xm, addScalar(n, x, -bias));
  MLC_TRY(inner, select(n, hi, xm, n.scalarLike(x, 0)));
  return out(n, select(n, lo, xp, inner));
}

LogicalResult convertIdentity(N &n) {
  n.setOutput(0, n.input(0));
  return success();
}

Type onnxElementType(MLIRContext *ctx, int64_t t) {
  switch (t) {
  case onnx::Float: return Float32Type::get(ctx);
  case onnx::Int64: return IntegerType::get(ctx, 64);
  case onnx::Int32: return IntegerType::get(ctx, 32);
  case onnx::Bool: return IntegerType::get(ctx, 1);
  case onnx::Double: return Float64Type::get(ctx);
  case onnx::Float16: return Float16Type::get(ctx);
  case onnx::BFloat16: return BFloat16Type::get(ctx);
  case onnx::Int8: return IntegerType::get(ctx, 8);
  case onnx::Int16: return IntegerType::get(ctx, 16);
  default: return {};
  }
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
    n.setOutput(1, n.constant(type, SmallVector<double>(
                                        type.getNumElements(), 1.0)));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult convertMatMul(N &n) {
  Value a = n.input(0), b = n.input(1);
  int64_t ra = N::rankOf(a), rb = N::rankOf(b);
  if (ra == 0 || rb == 0)
    return n.unsupported("scalar operands");
  // numpy: a vector operand gets a unit dimension that is dropped again.
  SmallVector<int64_t> sa(N::shapeOf(a)), sb(N::shapeOf(b));
  if (ra == 1)
    sa.insert(sa.begin(), 1);
  if (rb == 1)
    sb.push_back(1);
  MLC_TRY(a2, reshape(n, a, sa));
  MLC_TRY(b2, reshape(n, b, sb));
  MLC_TRY(p, binary(n, "matmul", a2, b2));
  SmallVector<int64_t> shape(N::shapeOf(p));
  if (rb == 1)
    shape.pop_back();
  if (ra == 1)
    shape.erase(shape.end() - (rb == 1 ? 1 : 2));
  return out(n, reshape(n, p, shape));
}

LogicalResult convertGemm(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  MLC_TRY(beta, n.getFloat("beta", 1.0f));
  MLC_TRY(transA, n.getInt("transA", 0));
  MLC_TRY(transB, n.getInt("transB", 0));
  if (n.opset < 7 && n.hasAttr("broadcast"))
    return n.unsupported("attribute 'broadcast'");
  Value a = n.input(0), b = n.input(1);
  if (N::rankOf(a) != 2 || N::rankOf(b) != 2)
    return n.error() << "A and B must be matrices", failure();
  if (transA) {
    MLC_TRY(t, transpose(n, a, {1, 0}));
    a = t;
  }
  if (transB) {
    MLC_TRY(t, transpose(n, b, {1, 0}));
    b = t;
  }
  MLC_TRY(ab, binary(n, "matmul", a, b));
  MLC_TRY(y, scale(n, ab, alpha));
  if (!n.hasInput(2) || beta == 0.0f)
    return out(n, y);
  MLC_TRY(c, scale(n, n.input(2), beta));
  return out(n, binary(n, "add", y, c));
}

/// Explicit begin/end pads for one spatial axis under ONNX auto_pad.
struct AxisPads {
  int64_t begin, end;
};

FailureOr<SmallVector<AxisPads>>
spatialPads(N &n, ArrayRef<int64_t> in, ArrayRef<int64_t> kernel,
            ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  size_t d = in.size();
  MLC_TRY(autoPad, n.getString("auto_pad", std::string("NOTSET")));
  MLC_TRY(pads, n.getInts("pads", SmallVector<int64_t>(2 * d, 0)));
  if (pads.size() != 2 * d)
    return n.error() << "pads has " << pads.size() << " entries, expected "
                     << 2 * d,
           failure();
  SmallVector<AxisPads> out;
  for (size_t i = 0; i < d; ++i) {
    if (autoPad == "NOTSET") {
      out.push_back({pads[i], pads[i + d]});
      if (pads[i] < 0 || pads[i + d] < 0)
        return n.unsupported("negative pads"), failure();
    } else if (autoPad == "VALID") {
      out.push_back({0, 0});
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t outSize = (in[i] + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>(
          0, (outSize - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 -
                 in[i]);
      int64_t small = total / 2, big = total - small;
      out.push_back(autoPad == "SAME_UPPER" ? AxisPads{small, big}
                                            : AxisPads{big, small});
    } else {
      return n.unsupported("auto_pad '" + autoPad + "'"), failure();
    }
  }
  return out;
}

/// Reads kernel_shape (or the filter's), strides and dilations for `d`
/// spatial dims.
struct WindowAttrs {
  SmallVector<int64_t> kernel, strides, dilations;
};
FailureOr<WindowAttrs> windowAttrs(N &n, size_t d,
                                   std::optional<SmallVector<int64_t>> kernel) {
  WindowAttrs w;
  MLC_TRY(k, n.getInts("kernel_shape", kernel));
  MLC_TRY(s, n.getInts("strides", SmallVector<int64_t>(d, 1)));
  MLC_TRY(dl, n.getInts("dilations", SmallVector<int64_t>(d, 1)));
  if (k.size() != d || s.size() != d || dl.size() != d)
    return n.error() << "kernel_shape, strides and dilations must have "
                     << d << " entries",
           failure();
  for (size_t i = 0; i < d; ++i)
    if (k[i] <= 0 || s[i] <= 0 || dl[i] <= 0)
      return n.error() << "kernel_shape, strides and dilations must be "
                          "positive",
             failure();
  w.kernel = k;
  w.strides = s;
  w.dilations = dl;
  return w;
}

/// Lifts a 1-D NC[W] window op to 2-D NC1W; returns the new input.
FailureOr<Value> liftTo2D(N &n, Value x) {
  ArrayRef<int64_t> s = N::shapeOf(x);
  return reshape(n, x, {s[0], s[1], 1, s[2]});
}

LogicalResult convertConv(N &n) {
  Value x = n.input(0), w = n.input(1), bias = n.input(2);
  int64_t rank = N::rankOf(x);
  if (rank != 3 && rank != 4)
    return n.unsupported(Twine(rank - 2) + "-D convolution");
  if (N::rankOf(w) != rank)
    return n.error() << "filter rank " << N::rankOf(w)
                     << " does not match input rank " << rank,
           failure();
  size_t d = rank - 2;
  SmallVector<int64_t> wk(N::shapeOf(w).drop_front(2));
  MLC_TRY(win, windowAttrs(n, d, wk));
  if (win.kernel != wk)
    return n.error() << "kernel_shape does not match the filter", failure();
  MLC_TRY(group, n.getInt("group", 1));
  MLC_TRY(pads, spatialPads(n, N::shapeOf(x).drop_front(2), win.kernel,
                            win.strides, win.dilations));
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, x));
    MLC_TRY(w2, liftTo2D(n, w));
    x = x2;
    w = w2;
    win.strides.insert(win.strides.begin(), 1);
    win.dilations.insert(win.dilations.begin(), 1);
    pads.insert(pads.begin(), {0, 0});
  }
  SmallVector<Value> operands = {x, w};
  if (bias)
    operands.push_back(bias);
  MLC_TRY(y, n.emit("conv2d", operands,
                    {n.arrayAttr("strides", win.strides),
                     n.arrayAttr("pads", {pads[0].begin, pads[1].begin,
                                          pads[0].end, pads[1].end}),
                     n.arrayAttr("dilations", win.dilations),
                     n.i64Attr("groups", group)}));
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return out(n, reshape(n, y, {s[0], s[1], s[3]}));
  }
  return out(n, y);
}

/// Inserts stride-1 zeros between elements along `axis` (length L ->
/// (L-1)*s+1): the input side of a transposed convolution.
FailureOr<Value> dilateAxis(N &n, Value x, int64_t axis, int64_t s) {
  if (s == 1)
    return x;
  SmallVector<int64_t> shape(N::shapeOf(x));
  int64_t len = shape[axis];
  SmallVector<int64_t> expanded(shape);
  expanded.insert(expanded.begin() + axis + 1, 1);
  MLC_TRY(xe, reshape(n, x, expanded));
  SmallVector<int64_t> zshape(expanded);
  zshape[axis + 1] = s - 1;
  auto ztype = RankedTensorType::get(zshape, N::elementTypeOf(x));
  Value zeros = n.constant(ztype, SmallVector<double>(product(zshape), 0.0));
  MLC_TRY(cat, concat(n, {xe, zeros}, axis + 1));
  SmallVector<int64_t> merged(shape);
  merged[axis] = len * s;
  MLC_TRY(flat, reshape(n, cat, merged));
  return sliceAxis(n, flat, axis, 0, (len - 1) * s + 1);
}

/// Pads (positive) or crops (negative) `axis` at both ends with zeros.
FailureOr<Value> padOrCrop(N &n, Value x, int64_t axis, int64_t begin,
                           int64_t end) {
  int64_t len = N::shapeOf(x)[axis];
  if (begin < 0 || end < 0) {
    int64_t b = std::max<int64_t>(0, -begin), e = std::max<int64_t>(0, -end);
    if (b + e >= len)
      return n.unsupported("padding that removes the whole input"), failure();
    MLC_TRY(c, sliceAxis(n, x, axis, b, len - e));
    x = c;
  }
  SmallVector<int64_t> pads(2 * N::rankOf(x), 0);
  pads[axis] = std::max<int64_t>(0, begin);
  pads[axis + N::rankOf(x)] = std::max<int64_t>(0, end);
  return padConstant(n, x, pads, 0.0);
}

LogicalResult convertConvTranspose(N &n) {
  Value x = n.input(0), w = n.input(1), bias = n.input(2);
  int64_t rank = N::rankOf(x);
  if (rank != 3 && rank != 4)
    return n.unsupported(Twine(rank - 2) + "-D transposed convolution");
  size_t d = rank - 2;
  SmallVector<int64_t> wk(N::shapeOf(w).drop_front(2));
  MLC_TRY(win, windowAttrs(n, d, wk));
  MLC_TRY(group, n.getInt("group", 1));
  MLC_TRY(outPad, n.getInts("output_padding", SmallVector<int64_t>(d, 0)));
  MLC_TRY(autoPad, n.getString("auto_pad", std::string("NOTSET")));
  MLC_TRY(pads, n.getInts("pads", SmallVector<int64_t>(2 * d, 0)));
  if (outPad.size() != d || pads.size() != 2 * d)
    return n.error() << "output_padding/pads have the wrong length",
           failure();
  ArrayRef<int64_t> in = N::shapeOf(x).drop_front(2);
  SmallVector<int64_t> keff(d);
  for (size_t i = 0; i < d; ++i)
    keff[i] = (win.kernel[i] - 1) * win.dilations[i] + 1;
  SmallVector<AxisPads> p(d);
  std::optional<SmallVector<int64_t>> outShape;
  if (n.hasAttr("output_shape")) {
    MLC_TRY(os, n.getInts("output_shape"));
    if (os.size() == size_t(rank))
      os.erase(os.begin(), os.begin() + 2);
    if (os.size() != d)
      return n.error() << "output_shape must have " << d << " entries",
             failure();
    outShape = os;
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    outShape = SmallVector<int64_t>();
    for (size_t i = 0; i < d; ++i)
      outShape->push_back(in[i] * win.strides[i]);
  }
  for (size_t i = 0; i < d; ++i) {
    if (outShape) {
      int64_t total = win.strides[i] * (in[i] - 1) + outPad[i] + keff[i] -
                      (*outShape)[i];
      // Floor division, so a negative total extends the end.
      int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      p[i] = autoPad == "SAME_UPPER" ? AxisPads{half, total - half}
                                     : AxisPads{total - half, half};
    } else if (autoPad == "NOTSET" || autoPad == "VALID") {
      p[i] = autoPad == "VALID" ? AxisPads{0, 0}
                                : AxisPads{pads[i], pads[i + d]};
    } else {
      return n.unsupported("auto_pad '" + autoPad + "'");
    }
  }
  // Filter [C, M/g, k...] -> [M, C/g, k...], spatially flipped.
  ArrayRef<int64_t> ws = N::shapeOf(w);
  int64_t c = ws[0], mg = ws[1];
  if (c % group)
    return n.error() << "filter channels " << c << " not divisible by group "
                     << group,
           failure();
  SmallVector<int64_t> grouped = {group, c / group, mg};
  grouped.append(wk.begin(), wk.end());
  MLC_TRY(wg, reshape(n, w, grouped));
  SmallVector<int64_t> perm = {0, 2, 1};
  for (size_t i = 0; i < d; ++i)
    perm.push_back(3 + i);
  MLC_TRY(wt, transpose(n, wg, perm));
  SmallVector<int64_t> flat = {group * mg, c / group};
  flat.append(wk.begin(), wk.end());
  MLC_TRY(wf, reshape(n, wt, flat));
  Value filter = wf;
  for (size_t i = 0; i < d; ++i) {
    SmallVector<int64_t> rev = iota(wk[i]);
    std::reverse(rev.begin(), rev.end());
    MLC_TRY(fl, takeAxis(n, filter, 2 + i, rev));
    filter = fl;
  }
  // Input: zeros between elements, then the complementary padding.
  Value xin = x;
  for (size_t i = 0; i < d; ++i) {
    MLC_TRY(dil, dilateAxis(n, xin, 2 + i, win.strides[i]));
    MLC_TRY(pd, padOrCrop(n, dil, 2 + i, keff[i] - 1 - p[i].begin,
                          keff[i] - 1 - p[i].end + outPad[i]));
    xin = pd;
  }
  SmallVector<int64_t> ones(2, 1), dil2(win.dilations);
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, xin));
    MLC_TRY(f2, liftTo2D(n, filter));
    xin = x2;
    filter = f2;
    dil2.insert(dil2.begin(), 1);
  }
  SmallVector<Value> operands = {xin, filter};
  if (bias)
    operands.push_back(bias);
  MLC_TRY(y, n.emit("conv2d", operands,
                    {n.arrayAttr("strides", ones),
                     n.arrayAttr("pads", {0, 0, 0, 0}),
                     n.arrayAttr("dilations", dil2),
                     n.i64Attr("groups", group)}));
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return out(n, reshape(n, y, {s[0], s[1], s[3]}));
  }
  return out(n, y);
}

//===----------------------------------------------------------------------===//
// Pooling and normalization
//===----------------------------------------------------------------------===//

LogicalResult convertPool(N &n, bool isMax) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  if (rank != 3 && rank != 4)
    return n.unsupported(Twine(rank - 2) + "-D pooling");
  if (n.wantsOutput(1))
    return n.unsupported("Indices output");
  size_t d = rank - 2;
  MLC_TRY(win, windowAttrs(n, d, std::nullopt));
  MLC_TRY(ceilMode, n.getInt("ceil_mode", 0));
  MLC_TRY(storage, n.getInt("storage_order", 0));
  (void)storage; // only affects the Indices output
  MLC_TRY(cip, n.getInt("count_include_pad", 0));
  if (!isMax && llvm::any_of(win.dilations, [](int64_t v) { return v != 1; }))
    return n.unsupported("dilations in average pooling");
  ArrayRef<int64_t> in = N::shapeOf(x).drop_front(2);
  MLC_TRY(pads, spatialPads(n, in, win.kernel, win.strides, win.dilations));
  if (ceilMode) {
    for (size_t i = 0; i < d; ++i) {
      int64_t keff = (win.kernel[i] - 1) * win.dilations[i] + 1;
      int64_t span = in[i] + pads[i].begin + pads[i].end - keff;
      int64_t outCeil = (span + win.strides[i] - 1) / win.strides[i] + 1;
      // The last window must start inside the input or the begin padding.
      if ((outCeil - 1) * win.strides[i] >= in[i] + pads[i].begin)
        --outCeil;
      int64_t extra = (outCeil - 1) * win.strides[i] + keff - span - keff;
      if (extra > 0) {
        if (!isMax && cip)
          return n.unsupported("ceil_mode with count_include_pad");
        pads[i].end += extra;
      }
    }
  }
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, x));
    x = x2;
    win.kernel.insert(win.kernel.begin(), 1);
    win.strides.insert(win.strides.begin(), 1);
    win.dilations.insert(win.dilations.begin(), 1);
    pads.insert(pads.begin(), {0, 0});
  }
  SmallVector<NamedAttribute> attrs = {
      n.arrayAttr("kernel", win.kernel), n.arrayAttr("strides", win.strides),
      n.arrayAttr("pads",
                  {pads[0].begin, pads[1].begin, pads[0].end, pads[1].end})};
  if (isMax)
    attrs.push_back(n.arrayAttr("dilations", win.dilations));
  else
    attrs.push_back(n.boolAttr("count_include_pad", cip != 0));
  MLC_TRY(y, n.emit(isMax ? "maxpool2d" : "avgpool2d", {x}, attrs));
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return out(n, reshape(n, y, {s[0], s[1], s[3]}));
  }
  return out(n, y);
}
LogicalResult convertMaxPool(N &n) { return convertPool(n, true); }
LogicalResult convertAveragePool(N &n) { return convertPool(n, false); }

LogicalResult convertGlobalPool(N &n, bool isMax) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  if (rank < 3)
    return n.error() << "input must have spatial dimensions", failure();
  if (!isMax && rank == 4)
    return out(n, n.emit("global_avgpool", {x}));
  return out(n, reduce(n, isMax ? "reduce_max" : "reduce_mean", x,
                       iota(rank - 2, 2), true));
}
LogicalResult convertGlobalAveragePool(N &n) {
  return convertGlobalPool(n, false);
}
LogicalResult convertGlobalMaxPool(N &n) { return convertGlobalPool(n, true); }

/// [C] -> [1, C, 1, ...] for broadcasting against NC... tensors.
FailureOr<Value> channelVector(N &n, Value v, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[1] = N::shapeOf(v)[0];
  return reshape(n, v, shape);
}

/// Training-mode batch normalization (opset >= 14): batch statistics
/// normalize, and the running statistics are updated with `momentum`.
LogicalResult batchNormTraining(N &n, float eps) {
  MLC_TRY(momentum, n.getFloat("momentum", 0.9f));
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  SmallVector<int64_t> axes = {0};
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  MLC_TRY(mean, reduce(n, "reduce_mean", x, axes, true));
  MLC_TRY(dx, binary(n, "sub", x, mean));
  MLC_TRY(sq, binary(n, "mul", dx, dx));
  MLC_TRY(var, reduce(n, "reduce_mean", sq, axes, true));
  MLC_TRY(ve, addScalar(n, var, eps));
  MLC_TRY(inv, unary(n, "rsqrt", ve));
  MLC_TRY(norm, binary(n, "mul", dx, inv));
  MLC_TRY(sc, channelVector(n, n.input(1), rank));
  MLC_TRY(bi, channelVector(n, n.input(2), rank));
  MLC_TRY(ys, binary(n, "mul", norm, sc));
  MLC_TRY(y, binary(n, "add", ys, bi));
  n.setOutput(0, y);
  // running = input * momentum + batch * (1 - momentum), per channel.
  int64_t c = N::shapeOf(x)[1];
  for (unsigned i = 1; i <= 2; ++i) {
    if (!n.wantsOutput(i))
      continue;
    MLC_TRY(batch, reshape(n, i == 1 ? mean : var, {c}));
    MLC_TRY(old, scale(n, n.input(2 + i), momentum));
    MLC_TRY(cur, scale(n, batch, 1.0 - momentum));
    MLC_TRY(upd, binary(n, "add", old, cur));
    n.setOutput(i, upd);
  }
  return success();
}

LogicalResult convertBatchNorm(N &n) {
  MLC_TRY(eps, n.getFloat("epsilon", 1e-5f));
  MLC_TRY(training, n.getInt("training_mode", 0));
  MLC_TRY(spatial, n.getInt("spatial", 1));
  if (!spatial)
    return n.unsupported("spatial=0");
  if (training) {
    if (n.opset < 14)
      return n.unsupported("training mode before opset 14");
    return batchNormTraining(n, eps);
  }
  bool extraOutputs =
      llvm::any_of(llvm::seq<unsigned>(1, std::max(1u, n.numOutputs())),
                   [&](unsigned i) { return n.wantsOutput(i); });
  if (extraOutputs)
    return n.unsupported(n.opset < 14 ? "training outputs (batch statistics)"
                                      : "running statistics outputs without "
                                        "training_mode");
  return out(n, n.emit("batch_norm",
                       {n.input(0), n.input(1), n.input(2), n.input(3),
                        n.input(4)},
                       {n.attr("epsilon", n.b.getF32FloatAttr(eps))}));
}

/// (x - mean) * rsqrt(var + eps) over `axes`, keepdims statistics.
struct Normalized {
  Value y, mean, invStd;
};
FailureOr<Normalized> normalize(N &n, Value x, ArrayRef<int64_t> axes,
                                double eps) {
  MLC_TRY(mean, reduce(n, "reduce_mean", x, axes, true));
  MLC_TRY(dx, binary(n, "sub", x, mean));
  MLC_TRY(sq, binary(n, "mul", dx, dx));
  MLC_TRY(var, reduce(n, "reduce_mean", sq, axes, true));
  MLC_TRY(ve, addScalar(n, var, eps));
  MLC_TRY(inv, unary(n, "rsqrt", ve));
  MLC_TRY(y, binary(n, "mul", dx, inv));
  return Normalized{y, mean, inv};
}

LogicalResult convertInstanceNorm(N &n) {
  MLC_TRY(eps, n.getFloat("epsilon", 1e-5f));
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  if (rank < 3)
    return n.error() << "input must have spatial dimensions", failure();
  MLC_TRY(norm, normalize(n, x, iota(rank - 2, 2), eps));
  MLC_TRY(s, channelVector(n, n.input(1), rank));
  MLC_TRY(bv, channelVector(n, n.input(2), rank));
  MLC_TRY(ys, binary(n, "mul", norm.y, s));
  return out(n, binary(n, "add", ys, bv));
}

LogicalResult convertLayerNorm(N &n) {
  MLC_TRY(axisAttr, n.getInt("axis", -1));
  MLC_TRY(eps, n.getFloat("epsilon", 1e-5f));
  MLC_TRY(stash, n.getInt("stash_type", 1));
  (void)stash; // statistics are computed in the input type (float32)
  Value x = n.input(0), scaleV = n.input(1), bias = n.input(2);
  int64_t rank = N::rankOf(x);
  MLC_TRY(axis, n.normalizeAxis(axisAttr, rank));
  ArrayRef<int64_t> normShape = N::shapeOf(x).drop_front(axis);
  bool onlyY = !n.wantsOutput(1) && !n.wantsOutput(2);
  if (onlyY && N::shapeOf(scaleV) == normShape &&
      (!bias || N::shapeOf(bias) == normShape)) {
    Value b = bias ? bias
                   : n.constant(cast<RankedTensorType>(scaleV.getType()),
                                SmallVector<double>(product(normShape), 0));
    return out(n, n.emit("layer_norm", {x, scaleV, b},
                         {n.i64Attr("axis", axis),
                          n.attr("epsilon", n.b.getF32FloatAttr(eps))}));
  }
  MLC_TRY(norm, normalize(n, x, iota(rank - axis, axis), eps));
  MLC_TRY(ys, binary(n, "mul", norm.y, scaleV));
  Value y = ys;
  if (bias) {
    MLC_TRY(yb, binary(n, "add", y, bias));
    y = yb;
  }
  n.setOutput(0, y);
  if (n.wantsOutput(1))
    n.setOutput(1, norm.mean);
  if (n.wantsOutput(2))
    n.setOutput(2, norm.invStd);
  return success();
}

LogicalResult convertMVN(N &n) {
  MLC_TRY(axesAttr, n.getInts("axes", SmallVector<int64_t>{0, 2, 3}));
  Value x = n.input(0);
  MLC_TRY(axes, normalizeAxes(n, axesAttr, N::rankOf(x)));
  // ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
  MLC_TRY(mean, reduce(n, "reduce_mean", x, axes, true));
  MLC_TRY(mean2, binary(n, "mul", mean, mean));
  MLC_TRY(sq, binary(n, "mul", x, x));
  MLC_TRY(msq, reduce(n, "reduce_mean", sq, axes, true));
  MLC_TRY(var, binary(n, "sub", msq, mean2));
  MLC_TRY(sd, unary(n, "sqrt", var));
  MLC_TRY(sde, addScalar(n, sd, 1e-9));
  MLC_TRY(dx, binary(n, "sub", x, mean));
  return out(n, binary(n, "div", dx, sde));
}

LogicalResult convertLRN(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1e-4f));
  MLC_TRY(beta, n.getFloat("beta", 0.75f));
  MLC_TRY(bias, n.getFloat("bias", 1.0f));
  MLC_TRY(size, n.getInt("size"));
  Value x = n.input(0);
  SmallVector<int64_t> shape(N::shapeOf(x));
  if (shape.size() < 3)
    return n.error() << "input must be N x C x ...", failure();
  // Sum of squares over a channel window = size * avg-pool (padding
  // included) of x^2 viewed as [N, 1, C, rest].
  MLC_TRY(sq, binary(n, "mul", x, x));
  int64_t rest = product(ArrayRef<int64_t>(shape).drop_front(2));
  MLC_TRY(v, reshape(n, sq, {shape[0], 1, shape[1], rest}));
  int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  MLC_TRY(avg, n.emit("avgpool2d", {v},
                      {n.arrayAttr("kernel", {size, 1}),
                       n.arrayAttr("strides", {1, 1}),
                       n.arrayAttr("pads", {lo, 0, hi, 0}),
                       n.boolAttr("count_include_pad", true)}));
  MLC_TRY(sum, reshape(n, avg, shape));
  // bias + alpha / size * sum = bias + alpha * avg
  MLC_TRY(scaled, scale(n, sum, alpha));
  MLC_TRY(base, addScalar(n, scaled, bias));
  MLC_TRY(den, binary(n, "pow", base, n.scalarLike(x, beta)));
  return out(n, binary(n, "div", x, den));
}

/// Softmax-like ops: opset >= 13 along one axis; before, on the input
/// flattened to 2-D at `axis` (default 1).
LogicalResult convertSoftmaxLike(N &n, StringRef op) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(axisAttr, n.getInt("axis", n.opset >= 13 ? -1 : 1));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, rank));
  auto apply = [&](Value v, int64_t ax) -> FailureOr<Value> {
    if (op != "hardmax")
      return n.emit(op, {v}, {n.i64Attr("axis", ax)});
    // One-hot of the first maximum along ax.
    MLC_TRY(am, n.emit("argmax", {v},
                       {n.i64Attr("axis", ax), n.boolAttr("keepdims", true),
                        n.boolAttr("select_last_index", false)}));
    int64_t len = N::shapeOf(v)[ax];
    SmallVector<int64_t> ishape(N::rankOf(v), 1);
    ishape[ax] = len;
    Value idx = n.i64Constant(iota(len), ishape);
    MLC_TRY(eq, compare(n, "eq", am, idx));
    return castTo(n, eq, N::elementTypeOf(v));
  };
  if (n.opset >= 13)
    return out(n, apply(x, axis));
  ArrayRef<int64_t> s = N::shapeOf(x);
  MLC_TRY(flat, reshape(n, x, {product(s.take_front(axis)),
                               product(s.drop_front(axis))}));
  MLC_TRY(y, apply(flat, 1));
  return out(n, reshape(n, y, s));
}
LogicalResult convertSoftmax(N &n) { return convertSoftmaxLike(n, "softmax"); }
LogicalResult convertLogSoftmax(N &n) {
  return convertSoftmaxLike(n, "log_softmax");
}
LogicalResult convertHardmax(N &n) { return convertSoftmaxLike(n, "hardmax"); }

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

enum class ReduceKind { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp,
                        SumSquare };

LogicalResult convertReduce(N &n, ReduceKind kind) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(keep, n.getInt("keepdims", 1));
  SmallVector<int64_t> axes;
  bool axesFromInput = kind == ReduceKind::Sum && n.opset >= 13;
  if (axesFromInput) {
    MLC_TRY(noop, n.getInt("noop_with_empty_axes", 0));
    if (n.hasInput(1)) {
      MLC_TRY(a, n.constantInts(1, "axes"));
      axes = a;
    }
    if (axes.empty() && noop) {
      n.setOutput(0, x);
      return success();
    }
  } else {
    MLC_TRY(a, n.getInts("axes", SmallVector<int64_t>()));
    axes = a;
  }
  if (axes.empty())
    axes = iota(rank);
  MLC_TRY(norm, normalizeAxes(n, axes, rank));
  Value v = x;
  switch (kind) {
  case ReduceKind::L1: {
    MLC_TRY(a, unary(n, "abs", x));
    v = a;
    break;
  }
  case ReduceKind::L2:
  case ReduceKind::SumSquare: {
    MLC_TRY(a, binary(n, "mul", x, x));
    v = a;
    break;
  }
  case ReduceKind::LogSumExp: {
    MLC_TRY(a, unary(n, "exp", x));
    v = a;
    break;
  }
  default:
    break;
  }
  StringRef op = kind == ReduceKind::Mean  ? "reduce_mean"
                 : kind == ReduceKind::Max ? "reduce_max"
                 : kind == ReduceKind::Min ? "reduce_min"
                 : kind == ReduceKind::Prod ? "reduce_prod"
                                            : "reduce_sum";
  MLC_TRY(r, reduce(n, op, v, norm, keep != 0));
  if (kind == ReduceKind::L2)
    return out(n, unary(n, "sqrt", r));
  if (kind == ReduceKind::LogSum || kind == ReduceKind::LogSumExp)
    return out(n, unary(n, "log", r));
  return out(n, r);
}

#define MLC_REDUCE(Name, Kind)                                                 \
  LogicalResult convert##Name(N &n) { return convertReduce(n, Kind); }
MLC_REDUCE(ReduceSum, ReduceKind::Sum)
MLC_REDUCE(ReduceMean, ReduceKind::Mean)
MLC_REDUCE(ReduceMax, ReduceKind::Max)
MLC_REDUCE(ReduceMin, ReduceKind::Min)
MLC_REDUCE(ReduceProd, ReduceKind::Prod)
MLC_REDUCE(ReduceL1, ReduceKind::L1)
MLC_REDUCE(ReduceL2, ReduceKind::L2)
MLC_REDUCE(ReduceLogSum, ReduceKind::LogSum)
MLC_REDUCE(ReduceLogSumExp, ReduceKind::LogSumExp)
MLC_REDUCE(ReduceSumSquare, ReduceKind::SumSquare)
#undef MLC_REDUCE

LogicalResult convertArgMinMax(N &n, StringRef op) {
  Value x = n.input(0);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(keep, n.getInt("keepdims", 1));
  MLC_TRY(last, n.getInt("select_last_index", 0));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  return out(n, n.emit(op, {x},
                       {n.i64Attr("axis", axis), n.boolAttr("keepdims", keep),
                        n.boolAttr("select_last_index", last)}));
}
LogicalResult convertArgMax(N &n) { return convertArgMinMax(n, "argmax"); }
LogicalResult convertArgMin(N &n) { return convertArgMinMax(n, "argmin"); }

LogicalResult convertCumSum(N &n) {
  MLC_TRY(exclusive, n.getInt("exclusive", 0));
  MLC_TRY(reverse, n.getInt("reverse", 0));
  MLC_TRY(axisV, n.constantInts(1, "axis"));
  if (axisV.size() != 1)
    return n.error() << "axis must be a scalar", failure();
  Value x = n.input(0);
  MLC_TRY(axis, n.normalizeAxis(axisV[0], N::rankOf(x)));
  return out(n, n.emit("cumsum", {x},
                       {n.i64Attr("axis", axis),
                        n.boolAttr("exclusive", exclusive),
                        n.boolAttr("reverse", reverse)}));
}

//===----------------------------------------------------------------------===//
// Shapes and data movement
//===----------------------------------------------------------------------===//

LogicalResult convertReshape(N &n) {
  Value x = n.input(0);
  SmallVector<int64_t> target;
  if (n.opset < 5) {
    MLC_TRY(s, n.getInts("shape"));
    target = s;
  } else {
    MLC_TRY(s, n.constantInts(1, "shape"));
    target = s;
  }
  MLC_TRY(allowZero, n.getInt("allowzero", 0));
  ArrayRef<int64_t> in = N::shapeOf(x);
  int64_t inferred = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(target)) {
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return n.error() << "shape entry " << i
                         << " is 0 (copy) but the input has rank "
                         << in.size(),
               failure();
      d = in[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return n.error() << "shape has more than one -1", failure();
      inferred = i;
      continue;
    }
    if (d < 0)
      return n.error() << "shape entry " << d << " is invalid", failure();
    known *= d;
  }
  int64_t total = product(in);
  if (inferred >= 0) {
    if (known == 0 || total % known)
      return n.error() << "cannot infer -1: " << total
                       << " elements do not divide by " << known,
             failure();
    target[inferred] = total / known;
  }
  return out(n, reshape(n, x, target));
}

LogicalResult convertFlatten(N &n) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(axisAttr, n.getInt("axis", 1));
  int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
  if (axis < 0 || axis > rank)
    return n.error() << "axis " << axisAttr << " out of range", failure();
  ArrayRef<int64_t> s = N::shapeOf(x);
  return out(n, reshape(n, x, {product(s.take_front(axis)),
                               product(s.drop_front(axis))}));
}

/// Axes from the attribute (before `inputOpset`) or input 1.
FailureOr<std::optional<SmallVector<int64_t>>> axesOperand(N &n,
                                                           int64_t inputOpset) {
  if (n.opset < inputOpset) {
    if (!n.hasAttr("axes"))
      return std::optional<SmallVector<int64_t>>();
    MLC_TRY(a, n.getInts("axes"));
    return std::optional<SmallVector<int64_t>>(a);
  }
  if (!n.hasInput(1))
    return std::optional<SmallVector<int64_t>>();
  MLC_TRY(a, n.constantInts(1, "axes"));
  return std::optional<SmallVector<int64_t>>(a);
}

LogicalResult convertSqueeze(N &n) {
  Value x = n.input(0);
  MLC_TRY(axes, axesOperand(n, 13));
  ArrayRef<int64_t> s = N::shapeOf(x);
  SmallVector<int64_t> drop;
  if (axes) {
    MLC_TRY(norm, normalizeAxes(n, *axes, s.size()));
    for (int64_t a : norm)
      if (s[a] != 1)
        return n.error() << "cannot squeeze axis " << a << " of size "
                         << s[a],
               failure();
    drop = norm;
  } else {
    for (auto [i, d] : llvm::enumerate(s))
      if (d == 1)
        drop.push_back(i);
  }
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(s))
    if (!llvm::is_contained(drop, int64_t(i)))
      shape.push_back(d);
  return out(n, reshape(n, x, shape));
}

LogicalResult convertUnsqueeze(N &n) {
  Value x = n.input(0);
  MLC_TRY(axes, axesOperand(n, 13));
  if (!axes)
    return n.error() << "missing axes", failure();
  int64_t outRank = N::rankOf(x) + axes->size();
  MLC_TRY(norm, normalizeAxes(n, *axes, outRank));
  SmallVector<int64_t> shape;
  ArrayRef<int64_t> s = N::shapeOf(x);
  size_t k = 0;
  for (int64_t i = 0; i < outRank; ++i)
    shape.push_back(llvm::is_contained(norm, i) ? 1 : s[k++]);
  return out(n, reshape(n, x, shape));
}

LogicalResult convertTranspose(N &n) {
  Value x = n.input(0);
  SmallVector<int64_t> rev = iota(N::rankOf(x));
  std::reverse(rev.begin(), rev.end());
  MLC_TRY(perm, n.getInts("perm", rev));
  return out(n, n.emit("transpose", {x}, {n.arrayAttr("perm", perm)}));
}

LogicalResult convertConcat(N &n) {
  SmallVector<Value> xs;
  for (unsigned i = 0; i < n.numInputs(); ++i)
    if (n.hasInput(i))
      xs.push_back(n.input(i));
  if (xs.empty())
    return n.error() << "no inputs", failure();
  MLC_TRY(axisAttr, n.getInt("axis", n.opset < 4 ? std::optional<int64_t>(1)
                                                 : std::nullopt));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(xs[0])));
  return out(n, concat(n, xs, axis));
}

LogicalResult convertSplit(N &n) {
  Value x = n.input(0);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  int64_t len = N::shapeOf(x)[axis];
  unsigned parts = n.numOutputs();
  SmallVector<int64_t> sizes;
  if (n.opset >= 13 && n.hasInput(1)) {
    MLC_TRY(s, n.constantInts(1, "split"));
    sizes = s;
  } else if (n.opset < 13 && n.hasAttr("split")) {
    MLC_TRY(s, n.getInts("split"));
    sizes = s;
  } else if (n.opset == 1 && n.hasInput(1)) {
    MLC_TRY(s, n.constantInts(1, "split"));
    sizes = s;
  } else {
    if (len % parts)
      return n.error() << "axis of size " << len << " does not split into "
                       << parts << " equal parts",
             failure();
    sizes.assign(parts, len / parts);
  }
  if (sizes.size() != parts)
    return n.error() << "split has " << sizes.size() << " sizes for " << parts
                     << " outputs",
           failure();
  int64_t start = 0;
  for (auto [i, sz] : llvm::enumerate(sizes)) {
    if (sz < 0 || start + sz > len)
      return n.error() << "split sizes do not add up to " << len, failure();
    if (n.wantsOutput(i)) {
      MLC_TRY(part, sliceAxis(n, x, axis, start, start + sz));
      n.setOutput(i, part);
    }
    start += sz;
  }
  if (start != len)
    return n.error() << "split sizes add up to " << start << ", not " << len,
           failure();
  return success();
}

LogicalResult convertSlice(N &n) {
  Value x = n.input(0);
  ArrayRef<int64_t> shape = N::shapeOf(x);
  int64_t rank = shape.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (n.opset < 10) {
    MLC_TRY(s, n.getInts("starts"));
    MLC_TRY(e, n.getInts("ends"));
    MLC_TRY(a, n.getInts("axes", iota(s.size())));
    starts = s;
    ends = e;
    axes = a;
  } else {
    MLC_TRY(s, n.constantInts(1, "starts"));
    MLC_TRY(e, n.constantInts(2, "ends"));
    starts = s;
    ends = e;
    if (n.hasInput(3)) {
      MLC_TRY(a, n.constantInts(3, "axes"));
      axes = a;
    } else {
      axes = iota(starts.size());
    }
    if (n.hasInput(4)) {
      MLC_TRY(st, n.constantInts(4, "steps"));
      steps = st;
    }
  }
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return n.error() << "starts, ends, axes and steps differ in length",
           failure();
  SmallVector<int64_t> s(rank, 0), e(shape), st(rank, 1);
  SmallVector<std::pair<int64_t, SmallVector<int64_t>>> reversed;
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < axes.size(); ++i) {
    MLC_TRY(ax, n.normalizeAxis(axes[i], rank));
    if (seen[ax])
      return n.error() << "axis " << axes[i] << " is repeated", failure();
    seen[ax] = true;
    int64_t len = shape[ax], step = steps[i];
    if (step == 0)
      return n.error() << "steps must not be 0", failure();
    int64_t b = starts[i], en = ends[i];
    if (b < 0)
      b += len;
    if (en < 0)
      en += len;
    if (step > 0) {
      b = std::clamp<int64_t>(b, 0, len);
      en = std::clamp<int64_t>(en, 0, len);
      s[ax] = b;
      e[ax] = std::max(b, en);
      st[ax] = step;
    } else {
      b = std::clamp<int64_t>(b, 0, len - 1);
      en = std::clamp<int64_t>(en, -1, len - 1);
      SmallVector<int64_t> idx;
      for (int64_t k = b; k > en; k += step)
        idx.push_back(k);
      reversed.push_back({ax, idx});
    }
  }
  Value r = x;
  if (s != SmallVector<int64_t>(rank, 0) || e != SmallVector<int64_t>(shape) ||
      st != SmallVector<int64_t>(rank, 1)) {
    MLC_TRY(v, n.emit("slice", {r},
                      {n.arrayAttr("starts", s), n.arrayAttr("ends", e),
                       n.arrayAttr("steps", st)}));
    r = v;
  }
  for (auto &[ax, idx] : reversed) {
    if (idx.empty())
      return n.unsupported("zero-size result"), failure();
    MLC_TRY(v, takeAxis(n, r, ax, idx));
    r = v;
  }
  n.setOutput(0, r);
  return success();
}

LogicalResult convertGather(N &n) {
  Value x = n.input(0), idx = n.input(1);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  return out(n, n.emit("gather", {x, idx}, {n.i64Attr("axis", axis)}));
}

LogicalResult convertGatherElements(N &n) {
  Value x = n.input(0), idx = n.input(1);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  return out(n, n.emit("gather_elements", {x, idx},
                       {n.i64Attr("axis", axis)}));
}

LogicalResult convertExpand(N &n) {
  MLC_TRY(shape, n.constantInts(1, "shape"));
  Value x = n.input(0);
  return out(n, n.emit("broadcast_to", {x}, {n.arrayAttr("shape", shape)}));
}

LogicalResult convertTile(N &n) {
  Value x = n.input(0);
  MLC_TRY(repeats, n.constantInts(1, "repeats"));
  if (int64_t(repeats.size()) != N::rankOf(x))
    return n.error() << "repeats has " << repeats.size()
                     << " entries for rank " << N::rankOf(x),
           failure();
  Value r = x;
  for (auto [axis, rep] : llvm::enumerate(repeats)) {
    if (rep < 1)
      return n.unsupported("repeat count " + Twine(rep));
    if (rep == 1)
      continue;
    SmallVector<Value> copies(rep, r);
    MLC_TRY(c, concat(n, copies, axis));
    r = c;
  }
  n.setOutput(0, r);
  return success();
}

LogicalResult convertPad(N &n) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(mode, n.getString("mode", std::string("constant")));
  SmallVector<int64_t> pads;
  double value = 0;
  if (n.opset < 11) {
    MLC_TRY(p, n.getInts(n.opset < 2 ? "paddings" : "pads"));
    MLC_TRY(v, n.getFloat("value", 0.0f));
    pads = p;
    value = v;
  } else {
    MLC_TRY(p, n.constantInts(1, "pads"));
    pads = p;
    if (n.hasInput(2)) {
      MLC_TRY(v, n.constantFloats(2, "constant_value"));
      if (v.size() != 1)
        return n.error() << "constant_value must be a scalar", failure();
      value = v[0];
    }
  }
  if (int64_t(pads.size()) != 2 * rank)
    return n.error() << "pads has " << pads.size() << " entries for rank "
                     << rank,
           failure();
  Value r = x;
  if (mode == "constant") {
    for (int64_t a = 0; a < rank; ++a)
      if (pads[a] < 0 || pads[a + rank] < 0) {
        int64_t len = N::shapeOf(r)[a];
        MLC_TRY(c, sliceAxis(n, r, a, std::max<int64_t>(0, -pads[a]),
                             len - std::max<int64_t>(0, -pads[a + rank])));
        r = c;
      }
    SmallVector<int64_t> pos;
    for (int64_t p : pads)
      pos.push_back(std::max<int64_t>(p, 0));
    return out(n, padConstant(n, r, pos, value));
  }
  if (mode != "reflect" && mode != "edge")
    return n.unsupported("mode '" + mode + "'");
  // Edge and reflect padding are gathers with clamped or mirrored indices.
  for (int64_t a = 0; a < rank; ++a) {
    int64_t len = N::shapeOf(r)[a], lo = pads[a], hi = pads[a + rank];
    if (lo < 0 || hi < 0)
      return n.unsupported("negative pads with mode '" + mode + "'");
    if (mode == "reflect" && (lo >= len || hi >= len))
      return n.unsupported("reflect padding wider than the input");
    SmallVector<int64_t> idx;
    for (int64_t k = -lo; k < len + hi; ++k) {
      int64_t j = k;
      if (mode == "edge")
        j = std::clamp<int64_t>(k, 0, len - 1);
      else if (k < 0)
        j = -k;
      else if (k >= len)
        j = 2 * (len - 1) - k;
      idx.push_back(j);
    }
    MLC_TRY(g, takeAxis(n, r, a, idx));
    r = g;
  }
  n.setOutput(0, r);
  return success();
}

LogicalResult convertShape(N &n) {
  ArrayRef<int64_t> shape = N::shapeOf(n.input(0));
  int64_t rank = shape.size();
  MLC_TRY(start, n.getInt("start", 0));
  MLC_TRY(end, n.getInt("end", rank));
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  SmallVector<int64_t> v(shape.begin() + start, shape.begin() + end);
  if (v.empty())
    return n.unsupported("zero-size result");
  n.setOutput(0, n.i64Constant(v, {int64_t(v.size())}));
  return success();
}

LogicalResult convertSize(N &n) {
  n.setOutput(0, n.i64Constant({product(N::shapeOf(n.input(0)))}, {}));
  return success();
}

/// A tensor attribute (or a 1-element default) as a constant of `shape`.
FailureOr<Value> splatFromAttr(N &n, const onnx::Tensor *t,
                               ArrayRef<int64_t> shape) {
  if (!t) {
    auto type = RankedTensorType::get(shape, n.b.getF32Type());
    return n.constant(type, SmallVector<double>(product(shape), 0.0));
  }
  Type elt = onnxElementType(n.ctx, t->dataType);
  if (!elt)
    return n.unsupported("dtype " + onnx::dataTypeName(t->dataType)),
           failure();
  if (t->numElements() != 1)
    return n.error() << "value must have one element", failure();
  auto type = RankedTensorType::get(shape, elt);
  auto one = RankedTensorType::get({}, elt);
  auto attr = DenseElementsAttr::getFromRawBuffer(
      one, ArrayRef<char>(t->data.data(), t->data.size()));
  auto splat = DenseElementsAttr::get(
      type, elt.isInteger(1) ? Attribute(attr.getSplatValue<BoolAttr>())
                             : attr.getSplatValue<Attribute>());
  return Value(graph::ConstantOp::create(n.b, n.loc, splat));
}

LogicalResult convertConstantOfShape(N &n) {
  MLC_TRY(shape, n.constantInts(0, "shape"));
  for (int64_t d : shape)
    if (d <= 0)
      return n.unsupported("zero-size result");
  const onnx::Attribute *a = n.getAttr("value");
  return out(n, splatFromAttr(n, a ? &a->t : nullptr, shape));
}

LogicalResult convertConstant(N &n) {
  if (n.node.attributes.size() != 1)
    return n.error() << "a Constant needs exactly one value attribute",
           failure();
  const onnx::Attribute &a = n.node.attributes[0];
  SmallVector<double> vals;
  if (a.name == "value") {
    const onnx::Tensor &t = a.t;
    Type elt = onnxElementType(n.ctx, t.dataType);
    if (!elt)
      return n.unsupported("dtype " + onnx::dataTypeName(t.dataType));
    if (t.numElements() == 0)
      return n.unsupported("zero-size result");
    auto type = RankedTensorType::get(t.dims, elt);
    n.setOutput(0, graph::ConstantOp::create(
                       n.b, n.loc,
                       makeWeightAttr(type,
                                      ArrayRef<char>(t.data.data(),
                                                     t.data.size()),
                                      n.node.outputs[0])));
    return success();
  }
  if (a.name == "value_float")
    return n.setOutput(0, n.scalar(n.b.getF32Type(), a.f)), success();
  if (a.name == "value_int")
    return n.setOutput(0, n.i64Constant({a.i}, {})), success();
  if (a.name == "value_floats" && !a.floats.empty()) {
    for (float f : a.floats)
      vals.push_back(f);
    auto type = RankedTensorType::get({int64_t(vals.size())},
                                      n.b.getF32Type());
    return n.setOutput(0, n.constant(type, vals)), success();
  }
  if (a.name == "value_ints" && !a.ints.empty())
    return n.setOutput(0, n.i64Constant(a.ints, {int64_t(a.ints.size())})),
           success();
  return n.unsupported("value attribute '" + a.name + "'");
}

LogicalResult convertRange(N &n) {
  Value start = n.input(0);
  Type elt = N::elementTypeOf(start);
  MLC_TRY(s, n.constantFloats(0, "start"));
  MLC_TRY(l, n.constantFloats(1, "limit"));
  MLC_TRY(d, n.constantFloats(2, "delta"));
  if (s.size() != 1 || l.size() != 1 || d.size() != 1 || d[0] == 0)
    return n.error() << "start, limit and delta must be scalars, delta != 0",
           failure();
  int64_t count =
      std::max<int64_t>(0, int64_t(std::ceil((l[0] - s[0]) / d[0])));
  if (count == 0)
    return n.unsupported("zero-size result");
  SmallVector<double> v;
  for (int64_t i = 0; i < count; ++i)
    v.push_back(s[0] + double(i) * d[0]);
  return n.setOutput(0, n.constant(RankedTensorType::get({count}, elt), v)),
         success();
}

LogicalResult convertEyeLike(N &n) {
  Value x = n.input(0);
  MLC_TRY(k, n.getInt("k", 0));
  Type elt = N::elementTypeOf(x);
  if (n.hasAttr("dtype")) {
    MLC_TRY(dt, n.getInt("dtype"));
    elt = onnxElementType(n.ctx, dt);
    if (!elt)
      return n.unsupported("dtype " + onnx::dataTypeName(int32_t(dt)));
  }
  ArrayRef<int64_t> s = N::shapeOf(x);
  if (s.size() != 2)
    return n.error() << "input must be 2-D", failure();
  SmallVector<double> v(s[0] * s[1], 0.0);
  for (int64_t i = 0; i < s[0]; ++i)
    if (i + k >= 0 && i + k < s[1])
      v[i * s[1] + i + k] = 1.0;
  return n.setOutput(0, n.constant(RankedTensorType::get(s, elt), v)),
         success();
}

LogicalResult convertOneHot(N &n) {
  Value indices = n.input(0), values = n.input(2);
  MLC_TRY(depthV, n.constantFloats(1, "depth"));
  if (depthV.size() != 1 || depthV[0] < 1)
    return n.error() << "depth must be a positive scalar", failure();
  int64_t depth = int64_t(depthV[0]);
  MLC_TRY(axisAttr, n.getInt("axis", -1));
  int64_t outRank = N::rankOf(indices) + 1;
  MLC_TRY(axis, n.normalizeAxis(axisAttr, outRank));
  if (N::shapeOf(values) != ArrayRef<int64_t>{2})
    return n.error() << "values must be [off, on]", failure();
  MLC_TRY(idx, castTo(n, indices, n.b.getI64Type()));
  // Negative indices count from the end.
  MLC_TRY(isNeg, compare(n, "lt", idx, n.scalarLike(idx, 0)));
  MLC_TRY(wrapped, addScalar(n, idx, double(depth)));
  MLC_TRY(norm, select(n, isNeg, wrapped, idx));
  SmallVector<int64_t> ishape(N::shapeOf(indices));
  ishape.insert(ishape.begin() + axis, 1);
  MLC_TRY(idxE, reshape(n, norm, ishape));
  SmallVector<int64_t> rshape(outRank, 1);
  rshape[axis] = depth;
  MLC_TRY(hot, compare(n, "eq", idxE, n.i64Constant(iota(depth), rshape)));
  MLC_TRY(off, sliceAxis(n, values, 0, 0, 1));
  MLC_TRY(on, sliceAxis(n, values, 0, 1, 2));
  MLC_TRY(off0, reshape(n, off, {}));
  MLC_TRY(on0, reshape(n, on, {}));
  return out(n, select(n, hot, on0, off0));
}

LogicalResult convertTrilu(N &n) {
  Value x = n.input(0);
  MLC_TRY(upper, n.getInt("upper", 1));
  ArrayRef<int64_t> s = N::shapeOf(x);
  if (s.size() < 2)
    return n.error() << "input must have rank >= 2", failure();
  int64_t rows = s[s.size() - 2], cols = s.back();
  // Keep element (i, j) when j - i >= k (upper) or j - i <= k (lower); k may
  // be a runtime scalar.
  SmallVector<int64_t> diff;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      diff.push_back(j - i);
  Value d = n.i64Constant(diff, {rows, cols});
  Value k = n.hasInput(1) ? n.input(1) : n.i64Constant({0}, {});
  if (N::rankOf(k) != 0) {
    MLC_TRY(k0, reshape(n, k, {}));
    k = k0;
  }
  MLC_TRY(keep, compare(n, upper ? "ge" : "le", d, k));
  return out(n, select(n, keep, x, n.scalarLike(x, 0)));
}

LogicalResult convertDepthToSpace(N &n) {
  Value x = n.input(0);
  MLC_TRY(bs, n.getInt("blocksize"));
  MLC_TRY(mode, n.getString("mode", std::string("DCR")));
  ArrayRef<int64_t> s = N::shapeOf(x);
  if (s.size() != 4 || bs <= 0 || s[1] % (bs * bs))
    return n.error() << "input must be NCHW with C divisible by blocksize^2",
           failure();
  int64_t c = s[1] / (bs * bs);
  Value r;
  if (mode == "DCR") {
    MLC_TRY(a, reshape(n, x, {s[0], bs, bs, c, s[2], s[3]}));
    MLC_TRY(t, transpose(n, a, {0, 3, 4, 1, 5, 2}));
    r = t;
  } else if (mode == "CRD") {
    MLC_TRY(a, reshape(n, x, {s[0], c, bs, bs, s[2], s[3]}));
    MLC_TRY(t, transpose(n, a, {0, 1, 4, 2, 5, 3}));
    r = t;
  } else {
    return n.unsupported("mode '" + mode + "'");
  }
  return out(n, reshape(n, r, {s[0], c, s[2] * bs, s[3] * bs}));
}

LogicalResult convertSpaceToDepth(N &n) {
  Value x = n.input(0);
  MLC_TRY(bs, n.getInt("blocksize"));
  ArrayRef<int64_t> s = N::shapeOf(x);
  if (s.size() != 4 || bs <= 0 || s[2] % bs || s[3] % bs)
    return n.error() << "input must be NCHW with H, W divisible by blocksize",
           failure();
  MLC_TRY(a, reshape(n, x, {s[0], s[1], s[2] / bs, bs, s[3] / bs, bs}));
  MLC_TRY(t, transpose(n, a, {0, 3, 5, 1, 2, 4}));
  return out(n, reshape(n, t, {s[0], s[1] * bs * bs, s[2] / bs, s[3] / bs}));
}

//===----------------------------------------------------------------------===//
// Resize: separable interpolation matrices
//===----------------------------------------------------------------------===//

struct ResizeAttrs {
  std::string mode = "nearest", coord = "half_pixel",
              nearestMode = "round_prefer_floor";
  double cubicA = -0.75, extrapolation = 0;
  bool excludeOutside = false;
};

/// Coefficients for the taps left of and right of x (ONNX's reference).
SmallVector<double> resizeCoeffs(const ResizeAttrs &a, double ratio) {
  if (a.mode == "nearest") {
    if (ratio == 1.0)
      return {0, 1};
    if (a.nearestMode == "round_prefer_floor")
      return {double(ratio <= 0.5), double(ratio > 0.5)};
    if (a.nearestMode == "round_prefer_ceil")
      return {double(ratio < 0.5), double(ratio >= 0.5)};
    if (a.nearestMode == "floor")
      return {1, 0};
    return {0, 1};
  }
  if (a.mode == "linear")
    return {1 - ratio, ratio};
  double A = a.cubicA, r = ratio, q = 1 - ratio;
  return {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
          ((A + 2) * r - (A + 3)) * r * r + 1,
          ((A + 2) * q - (A + 3)) * q * q + 1,
          ((A * (q + 1) - 5 * A) * (q + 1) + 8 * A) * (q + 1) - 4 * A};
}

/// The [out, in] matrix (row-major) and per-row extrapolation flags for one
/// axis.
void resizeMatrix(const ResizeAttrs &a, int64_t in, int64_t outLen,
                  double scaleFactor, double roiStart, double roiEnd,
                  SmallVectorImpl<double> &m, SmallVectorImpl<bool> &extra) {
  m.assign(outLen * in, 0.0);
  extra.assign(outLen, false);
  double outWidth = scaleFactor * in;
  for (int64_t x = 0; x < outLen; ++x) {
    double xo;
    const std::string &c = a.coord;
    if (c == "align_corners")
      xo = outWidth == 1 ? 0 : x * double(in - 1) / (outWidth - 1);
    else if (c == "asymmetric")
      xo = x / scaleFactor;
    else if (c == "tf_crop_and_resize") {
      xo = outWidth == 1 ? (roiEnd - roiStart) * (in - 1) / 2
                         : x * (roiEnd - roiStart) * (in - 1) / (outWidth - 1);
      xo += roiStart * (in - 1);
      if (xo < 0 || xo > in - 1) {
        extra[x] = true;
        continue;
      }
    } else if (c == "pytorch_half_pixel")
      xo = outWidth == 1 ? -0.5 : (x + 0.5) / scaleFactor - 0.5;
    else if (c == "tf_half_pixel_for_nn")
      xo = (x + 0.5) / scaleFactor;
    else
      xo = (x + 0.5) / scaleFactor - 0.5;
    double fl = std::floor(xo);
    double ratio = xo == fl ? 1.0 : xo - fl;
    SmallVector<double> coeffs = resizeCoeffs(a, ratio);
    int64_t taps = coeffs.size();
    // The `taps` nearest indices of the edge-padded input (ties: lower).
    int64_t pad = (taps + 1) / 2;
    double xp = xo + pad;
    SmallVector<int64_t> cand;
    for (int64_t i = int64_t(std::floor(xp)) - taps - 1;
         i <= int64_t(std::floor(xp)) + taps + 1; ++i)
      if (i >= 0 && i < in + 2 * pad)
        cand.push_back(i);
    llvm::stable_sort(cand, [&](int64_t p, int64_t q) {
      double dp = std::fabs(xp - p), dq = std::fabs(xp - q);
      return dp != dq ? dp < dq : p < q;
    });
    cand.resize(std::min<size_t>(cand.size(), taps));
    llvm::sort(cand);
    if (a.excludeOutside) {
      double sum = 0;
      for (int64_t t = 0; t < taps; ++t) {
        int64_t idx = cand[t] - pad;
        if (idx < 0 || idx >= in)
          coeffs[t] = 0;
        sum += coeffs[t];
      }
      for (double &cf : coeffs)
        cf /= sum;
    }
    for (int64_t t = 0; t < taps; ++t) {
      int64_t idx = std::clamp<int64_t>(cand[t] - pad, 0, in - 1);
      m[x * in + idx] += coeffs[t];
    }
  }
}

LogicalResult resizeWith(N &n, Value x, const ResizeAttrs &a,
                         ArrayRef<double> scales, ArrayRef<int64_t> sizes,
                         ArrayRef<double> roi) {
  ArrayRef<int64_t> shape = N::shapeOf(x);
  int64_t rank = shape.size();
  if (!isa<FloatType>(N::elementTypeOf(x)))
    return n.unsupported("non-float input");
  Value r = x;
  // Innermost axis first, as ONNX's reference recursion applies them.
  for (int64_t axis = rank - 1; axis >= 0; --axis) {
    int64_t in = shape[axis];
    double sc = scales.empty() ? double(sizes[axis]) / in : scales[axis];
    int64_t outLen = sizes.empty() ? int64_t(std::floor(in * sc))
                                   : sizes[axis];
    if (outLen <= 0)
      return n.unsupported("zero-size result");
    double rs = roi.empty() ? 0 : roi[axis], re = roi.empty() ? 1 : roi[axis + rank];
    SmallVector<double> m;
    SmallVector<bool> extra;
    resizeMatrix(a, in, outLen, sc, rs, re, m, extra);
    bool identity = outLen == in && !llvm::is_contained(extra, true);
    for (int64_t i = 0; identity && i < in; ++i)
      for (int64_t j = 0; identity && j < in; ++j)
        identity = m[i * in + j] == (i == j ? 1.0 : 0.0);
    if (identity)
      continue;
    Type elt = N::elementTypeOf(x);
    // Move `axis` to the second-to-last position, left-multiply by M.
    SmallVector<int64_t> perm = iota(rank);
    bool isLast = axis == rank - 1;
    Value v = r;
    if (isLast) {
      SmallVector<double> mt(in * outLen);
      for (int64_t i = 0; i < outLen; ++i)
        for (int64_t j = 0; j < in; ++j)
          mt[j * outLen + i] = m[i * in + j];
      Value mc = n.constant(RankedTensorType::get({in, outLen}, elt), mt);
      if (rank == 1) {
        MLC_TRY(v2, reshape(n, v, {1, in}));
        MLC_TRY(p, binary(n, "matmul", v2, mc));
        MLC_TRY(p1, reshape(n, p, {outLen}));
        v = p1;
      } else {
        MLC_TRY(p, binary(n, "matmul", v, mc));
        v = p;
      }
    } else {
      std::swap(perm[axis], perm[rank - 2]);
      MLC_TRY(t, transpose(n, v, perm));
      Value mc = n.constant(RankedTensorType::get({outLen, in}, elt), m);
      MLC_TRY(p, binary(n, "matmul", mc, t));
      MLC_TRY(tb, transpose(n, p, perm));
      v = tb;
    }
    if (llvm::is_contained(extra, true)) {
      SmallVector<double> e;
      for (bool b : extra)
        e.push_back(b ? a.extrapolation : 0.0);
      SmallVector<int64_t> eshape(rank, 1);
      eshape[axis] = outLen;
      MLC_TRY(sum, binary(n, "add", v,
                          n.constant(RankedTensorType::get(eshape, elt), e)));
      v = sum;
    }
    r = v;
  }
  n.setOutput(0, r);
  return success();
}

LogicalResult convertResize(N &n) {
  ResizeAttrs a;
  MLC_TRY(mode, n.getString("mode", std::string("nearest")));
  MLC_TRY(coord, n.getString("coordinate_transformation_mode",
                             std::string("half_pixel")));
  MLC_TRY(nearest, n.getString("nearest_mode",
                               std::string("round_prefer_floor")));
  MLC_TRY(cubicA, n.getFloat("cubic_coeff_a", -0.75f));
  MLC_TRY(excl, n.getInt("exclude_outside", 0));
  MLC_TRY(extra, n.getFloat("extrapolation_value", 0.0f));
  a.mode = mode;
  a.coord = coord;
  a.nearestMode = nearest;
  a.cubicA = cubicA;
  a.excludeOutside = excl;
  a.extrapolation = extra;
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return n.unsupported("mode '" + mode + "'");
  static const char *coords[] = {"half_pixel",         "pytorch_half_pixel",
                                 "align_corners",      "asymmetric",
                                 "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (!llvm::is_contained(coords, coord))
    return n.unsupported("coordinate_transformation_mode '" + coord + "'");
  static const char *nearestModes[] = {"round_prefer_floor",
                                       "round_prefer_ceil", "floor", "ceil"};
  if (!llvm::is_contained(nearestModes, nearest))
    return n.unsupported("nearest_mode '" + nearest + "'");
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  SmallVector<double> scales, roi;
  SmallVector<int64_t> sizes;
  auto scalesInput = [&]() -> FailureOr<SmallVector<double>> {
    if (!n.hasInput(2))
      return SmallVector<double>();
    // An empty tensor means "not given" (opset 11-12 require the input).
    if (auto c = n.tryConstant(n.input(2)))
      if (c->getNumElements() == 0)
        return SmallVector<double>();
    return n.constantFloats(2, "scales");
  };
  MLC_TRY(sc, scalesInput());
  scales = sc;
  if (n.hasInput(3)) {
    MLC_TRY(sz, n.constantInts(3, "sizes"));
    sizes = sz;
  }
  if (scales.empty() == sizes.empty())
    return n.error() << "exactly one of scales and sizes must be given",
           failure();
  if ((!scales.empty() && int64_t(scales.size()) != rank) ||
      (!sizes.empty() && int64_t(sizes.size()) != rank))
    return n.error() << "scales/sizes must have one entry per dimension",
           failure();
  if (coord == "tf_crop_and_resize") {
    MLC_TRY(r, n.constantFloats(1, "roi"));
    if (int64_t(r.size()) != 2 * rank)
      return n.error() << "roi must have 2 * rank entries", failure();
    roi = r;
  }
  return resizeWith(n, x, a, scales, sizes, roi);
}

LogicalResult convertUpsample(N &n) {
  ResizeAttrs a;
  MLC_TRY(mode, n.getString("mode", std::string("nearest")));
  if (mode != "nearest" && mode != "linear")
    return n.unsupported("mode '" + mode + "'");
  a.mode = mode;
  a.coord = "asymmetric";
  a.nearestMode = "floor";
  SmallVector<double> scales;
  if (n.opset >= 9) {
    MLC_TRY(s, n.constantFloats(1, "scales"));
    scales = s;
  } else {
    MLC_TRY(s, n.getFloats("scales"));
    for (float f : s)
      scales.push_back(f);
  }
  if (int64_t(scales.size()) != N::rankOf(n.input(0)))
    return n.error() << "scales must have one entry per dimension", failure();
  return resizeWith(n, n.input(0), a, scales, {}, {});
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// NegativeLogLikelihoodLoss on log-probabilities `logp` [N, C, d...].
FailureOr<Value> nllLoss(N &n, Value logp, Value target, Value weight) {
  MLC_TRY(reduction, n.getString("reduction", std::string("mean")));
  std::optional<int64_t> ignore;
  if (n.hasAttr("ignore_index")) {
    MLC_TRY(ii, n.getInt("ignore_index"));
    ignore = ii;
  }
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return n.unsupported("reduction '" + reduction + "'"), failure();
  int64_t rank = N::rankOf(logp);
  if (rank < 2)
    return n.error() << "input must be [N, C, ...]", failure();
  int64_t classes = N::shapeOf(logp)[1];
  MLC_TRY(t, castTo(n, target, n.b.getI64Type()));
  Value mask, safe = t;
  if (ignore) {
    MLC_TRY(m, compare(n, "ne", t, n.scalarLike(t, double(*ignore))));
    MLC_TRY(s, select(n, m, t, n.scalarLike(t, 0)));
    mask = m;
    safe = s;
  }
  // -logp[n, t[n, ...], ...] through a one-hot mask over C.
  SmallVector<int64_t> tshape(N::shapeOf(safe));
  tshape.insert(tshape.begin() + 1, 1);
  MLC_TRY(te, reshape(n, safe, tshape));
  SmallVector<int64_t> cshape(rank, 1);
  cshape[1] = classes;
  MLC_TRY(hot, compare(n, "eq", te, n.i64Constant(iota(classes), cshape)));
  MLC_TRY(picked, select(n, hot, logp, n.scalarLike(logp, 0)));
  MLC_TRY(sum, reduce(n, "reduce_sum", picked, {1}, false));
  MLC_TRY(loss, unary(n, "neg", sum));
  Value w;
  if (weight) {
    MLC_TRY(wg, n.emit("gather", {weight, safe}, {n.i64Attr("axis", 0)}));
    w = wg;
  }
  if (mask) {
    MLC_TRY(mf, castTo(n, mask, N::elementTypeOf(logp)));
    if (w) {
      MLC_TRY(wm, binary(n, "mul", w, mf));
      w = wm;
    } else {
      w = mf;
    }
  }
  Value l = loss;
  if (w) {
    MLC_TRY(lw, binary(n, "mul", loss, w));
    l = lw;
  }
  if (reduction == "none")
    return l;
  SmallVector<int64_t> all = iota(N::rankOf(l));
  MLC_TRY(total, reduce(n, "reduce_sum", l, all, false));
  if (reduction == "sum")
    return total;
  if (!w)
    return binary(n, "div", total,
                  n.scalarLike(total, double(product(N::shapeOf(l)))));
  MLC_TRY(wsum, reduce(n, "reduce_sum", w, all, false));
  return binary(n, "div", total, wsum);
}

LogicalResult convertNLLLoss(N &n) {
  return out(n, nllLoss(n, n.input(0), n.input(1), n.input(2)));
}

LogicalResult convertSCELoss(N &n) {
  MLC_TRY(logp, n.emit("log_softmax", {n.input(0)}, {n.i64Attr("axis", 1)}));
  MLC_TRY(loss, nllLoss(n, logp, n.input(1), n.input(2)));
  n.setOutput(0, loss);
  if (n.wantsOutput(1))
    n.setOutput(1, logp);
  return success();
}

LogicalResult convertSum(N &n) { return out(n, foldInputs(n, "add")); }
//===----------------------------------------------------------------------===//
// Index-driven ops without data-dependent shapes: GatherND, the scatters
// (one-hot masks), TopK (ranks from pairwise comparisons)
//===----------------------------------------------------------------------===//

/// Moves `axis` to the end (perm and its inverse).
std::pair<SmallVector<int64_t>, SmallVector<int64_t>> axisToEnd(int64_t rank,
                                                                int64_t axis) {
  SmallVector<int64_t> perm, inv(rank);
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      perm.push_back(i);
  perm.push_back(axis);
  for (int64_t i = 0; i < rank; ++i)
    inv[perm[i]] = i;
  return {perm, inv};
}

/// Row-major linear positions of the index tuples in `indices` [..., k]
/// within `dims` (negative components wrap), plus `base` per tuple.
FailureOr<Value> linearIndex(N &n, Value indices, ArrayRef<int64_t> dims,
                             Value base) {
  int64_t k = dims.size();
  MLC_TRY(idx, castTo(n, indices, n.b.getI64Type()));
  SmallVector<int64_t> strides(k, 1);
  for (int64_t j = k - 2; j >= 0; --j)
    strides[j] = strides[j + 1] * dims[j + 1];
  Value dimsC = n.i64Constant(dims, {k});
  MLC_TRY(neg, compare(n, "lt", idx, n.scalarLike(idx, 0)));
  MLC_TRY(wrapped, binary(n, "add", idx, dimsC));
  MLC_TRY(norm, select(n, neg, wrapped, idx));
  MLC_TRY(scaled, binary(n, "mul", norm, n.i64Constant(strides, {k})));
  MLC_TRY(lin, reduce(n, "reduce_sum", scaled, {N::rankOf(idx) - 1}, false));
  if (!base)
    return lin;
  return binary(n, "add", lin, base);
}

LogicalResult convertGatherND(N &n) {
  Value data = n.input(0), indices = n.input(1);
  MLC_TRY(b, n.getInt("batch_dims", 0));
  ArrayRef<int64_t> ds = N::shapeOf(data), is = N::shapeOf(indices);
  int64_t k = is.empty() ? 0 : is.back();
  if (is.empty() || b < 0 || b + k > int64_t(ds.size()) ||
      b >= int64_t(is.size()) || ds.take_front(b) != is.take_front(b))
    return n.error() << "indices " << is.size() << "-D with last dim " << k
                     << " do not fit data of rank " << ds.size()
                     << " with batch_dims " << b,
           failure();
  int64_t batch = product(ds.take_front(b));
  ArrayRef<int64_t> indexed = ds.slice(b, k), rest = ds.drop_front(b + k);
  int64_t positions = product(indexed);
  // The batch coordinate of each index tuple, times the positions per batch.
  SmallVector<int64_t> tupleShape(is.drop_back());
  Value base;
  if (b > 0) {
    int64_t per = product(ArrayRef<int64_t>(tupleShape).drop_front(b));
    SmallVector<int64_t> v;
    for (int64_t i = 0; i < product(tupleShape); ++i)
      v.push_back(i / per * positions);
    base = n.i64Constant(v, tupleShape);
  }
  MLC_TRY(lin, linearIndex(n, indices, indexed, base));
  SmallVector<int64_t> flat = {batch * positions};
  flat.append(rest.begin(), rest.end());
  MLC_TRY(df, reshape(n, data, flat));
  return out(n, n.emit("gather", {df, lin}, {n.i64Attr("axis", 0)}));
}

/// Combines the updates selected by a one-hot mask `hot` [..., T, U] (T
/// target positions, U updates; `upd` broadcasts to it) into `data` [...,
/// T] following `reduction`.
FailureOr<Value> scatterCombine(N &n, Value data, Value hot, Value upd,
                                StringRef reduction, int64_t updAxis) {
  if (reduction == "mul") {
    MLC_TRY(f, select(n, hot, upd, n.scalarLike(upd, 1)));
    MLC_TRY(p, reduce(n, "reduce_prod", f, {updAxis}, false));
    return binary(n, "mul", data, p);
  }
  MLC_TRY(f, select(n, hot, upd, n.scalarLike(upd, 0)));
  MLC_TRY(sum, reduce(n, "reduce_sum", f, {updAxis}, false));
  if (reduction == "add")
    return binary(n, "add", data, sum);
  // none: positions hit take the update (duplicates are undefined in ONNX).
  MLC_TRY(hits, castTo(n, hot, n.b.getI32Type()));
  MLC_TRY(count, reduce(n, "reduce_sum", hits, {updAxis}, false));
  MLC_TRY(any, compare(n, "gt", count, n.scalarLike(count, 0)));
  return select(n, any, sum, data);
}

FailureOr<std::string> scatterReduction(N &n) {
  MLC_TRY(r, n.getString("reduction", std::string("none")));
  if (r != "none" && r != "add" && r != "mul")
    return n.unsupported("reduction '" + r + "'"), failure();
  return r;
}

LogicalResult convertScatterElements(N &n) {
  Value data = n.input(0), indices = n.input(1), updates = n.input(2);
  MLC_TRY(reduction, scatterReduction(n));
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  int64_t rank = N::rankOf(data);
  MLC_TRY(axis, n.normalizeAxis(axisAttr, rank));
  ArrayRef<int64_t> ds = N::shapeOf(data), us = N::shapeOf(updates);
  if (N::shapeOf(indices) != us || int64_t(us.size()) != rank)
    return n.error() << "indices and updates must have one shape, of the "
                        "data's rank",
           failure();
  for (int64_t m = 0; m < rank; ++m)
    if (m != axis && us[m] != ds[m])
      return n.unsupported("updates smaller than the data off the axis");
  // Work with the axis last: data [R, T], updates/indices [R, U].
  auto [perm, inv] = axisToEnd(rank, axis);
  int64_t t = ds[axis];
  MLC_TRY(dt, transpose(n, data, perm));
  MLC_TRY(it, transpose(n, indices, perm));
  MLC_TRY(ut, transpose(n, updates, perm));
  MLC_TRY(i64, castTo(n, it, n.b.getI64Type()));
  MLC_TRY(neg, compare(n, "lt", i64, n.scalarLike(i64, 0)));
  MLC_TRY(wrapped, addScalar(n, i64, double(t)));
  MLC_TRY(idx, select(n, neg, wrapped, i64));
  // hot[..., t, u] = idx[..., u] == t
  SmallVector<int64_t> ishape(N::shapeOf(idx));
  ishape.insert(ishape.end() - 1, 1);
  MLC_TRY(ie, reshape(n, idx, ishape));
  SmallVector<int64_t> tshape(rank + 1, 1);
  tshape[rank - 1] = t;
  MLC_TRY(hot, compare(n, "eq", ie, n.i64Constant(iota(t), tshape)));
  MLC_TRY(ue, reshape(n, ut, ishape));
  MLC_TRY(res, scatterCombine(n, dt, hot, ue, reduction, rank));
  return out(n, transpose(n, res, inv));
}

LogicalResult convertScatterND(N &n) {
  Value data = n.input(0), indices = n.input(1), updates = n.input(2);
  MLC_TRY(reduction, scatterReduction(n));
  ArrayRef<int64_t> ds = N::shapeOf(data), is = N::shapeOf(indices);
  int64_t k = is.empty() ? 0 : is.back();
  if (is.empty() || k > int64_t(ds.size()))
    return n.error() << "indices do not fit the data", failure();
  ArrayRef<int64_t> indexed = ds.take_front(k), rest = ds.drop_front(k);
  int64_t positions = product(indexed), count = product(is.drop_back());
  MLC_TRY(lin, linearIndex(n, indices, indexed, Value()));
  MLC_TRY(linFlat, reshape(n, lin, {1, count}));
  // hot[p, u, 1...] = lin[u] == p; data [P, rest], updates [1, U, rest].
  MLC_TRY(hot2, compare(n, "eq", linFlat,
                        n.i64Constant(iota(positions), {positions, 1})));
  SmallVector<int64_t> hshape = {positions, count};
  hshape.append(rest.size(), 1);
  MLC_TRY(hot, reshape(n, hot2, hshape));
  SmallVector<int64_t> dshape = {positions}, ushape = {1, count};
  dshape.append(rest.begin(), rest.end());
  ushape.append(rest.begin(), rest.end());
  MLC_TRY(df, reshape(n, data, dshape));
  MLC_TRY(uf, reshape(n, updates, ushape));
  MLC_TRY(res, scatterCombine(n, df, hot, uf, reduction, 1));
  return out(n, reshape(n, res, ds));
}

LogicalResult convertTopK(N &n) {
  Value x = n.input(0);
  MLC_TRY(axisAttr, n.getInt("axis", -1));
  MLC_TRY(largest, n.getInt("largest", 1));
  MLC_TRY(sorted, n.getInt("sorted", 1));
  (void)sorted; // the result is always sorted, which every order allows
  int64_t rank = N::rankOf(x);
  MLC_TRY(axis, n.normalizeAxis(axisAttr, rank));
  int64_t k;
  if (n.opset < 10) {
    MLC_TRY(kv, n.getInt("k"));
    k = kv;
  } else {
    MLC_TRY(kv, n.constantInts(1, "K"));
    if (kv.size() != 1)
      return n.error() << "K must have one element", failure();
    k = kv[0];
  }
  int64_t len = N::shapeOf(x)[axis];
  if (k < 1 || k > len)
    return n.error() << "K = " << k << " is out of range for an axis of "
                     << len,
           failure();
  // rank[i] = #{j : x_j beats x_i} + #{j < i : x_j == x_i}; output r takes
  // the element of rank r. Exact for every value but NaN.
  auto [perm, inv] = axisToEnd(rank, axis);
  MLC_TRY(xt, transpose(n, x, perm));
  SmallVector<int64_t> base(N::shapeOf(xt).drop_back());
  SmallVector<int64_t> colShape(base), rowShape(base);
  colShape.append({len, 1});
  rowShape.append({1, len});
  MLC_TRY(xi, reshape(n, xt, colShape));
  MLC_TRY(xj, reshape(n, xt, rowShape));
  MLC_TRY(beats, compare(n, largest ? "gt" : "lt", xj, xi));
  MLC_TRY(same, compare(n, "eq", xj, xi));
  SmallVector<double> before;
  for (int64_t i = 0; i < len; ++i)
    for (int64_t j = 0; j < len; ++j)
      before.push_back(j < i);
  Value earlier = n.constant(
      RankedTensorType::get({len, len}, n.b.getI1Type()), before);
  MLC_TRY(tie, binary(n, "and", same, earlier));
  MLC_TRY(ahead, binary(n, "or", beats, tie));
  MLC_TRY(ahead64, castTo(n, ahead, n.b.getI64Type()));
  MLC_TRY(pos, reduce(n, "reduce_sum", ahead64, {int64_t(base.size()) + 1},
                      true));
  // pos: [..., len, 1] -> [..., 1, len]; pick[..., r, i] = pos[i] == r.
  MLC_TRY(posRow, reshape(n, pos, rowShape));
  SmallVector<int64_t> kShape(base.size(), 1);
  kShape.append({k, 1});
  MLC_TRY(pick, compare(n, "eq", posRow, n.i64Constant(iota(k), kShape)));
  MLC_TRY(vals, select(n, pick, xj, n.scalarLike(x, 0)));
  int64_t last = base.size() + 1;
  MLC_TRY(v, reduce(n, "reduce_sum", vals, {last}, false));
  SmallVector<int64_t> iShape(base.size(), 1);
  iShape.append({1, len});
  MLC_TRY(ids, select(n, pick, n.i64Constant(iota(len), iShape),
                      n.i64Constant({0}, {})));
  MLC_TRY(ix, reduce(n, "reduce_sum", ids, {last}, false));
  MLC_TRY(vo, transpose(n, v, inv));
  MLC_TRY(io, transpose(n, ix, inv));
  n.setOutput(0, vo);
  n.setOutput(1, io);
  return success();
}

//===----------------------------------------------------------------------===//
// Recurrent layers, unrolled over the (static) sequence
//===----------------------------------------------------------------------===//

enum class RecurrentKind { RNN, GRU, LSTM };

/// The gate nonlinearities ONNX defaults to; other activation lists are
/// refused.
LogicalResult checkDefaultActivations(N &n, RecurrentKind kind,
                                      int64_t dirs) {
  if (!n.hasAttr("activations"))
    return success();
  const onnx::Attribute *a = n.getAttr("activations");
  SmallVector<std::string> want =
      kind == RecurrentKind::RNN   ? SmallVector<std::string>{"Tanh"}
      : kind == RecurrentKind::GRU ? SmallVector<std::string>{"Sigmoid", "Tanh"}
                                   : SmallVector<std::string>{"Sigmoid", "Tanh",
                                                              "Tanh"};
  SmallVector<std::string> all;
  for (int64_t d = 0; d < dirs; ++d)
    all.append(want.begin(), want.end());
  if (a->kind != onnx::Attribute::Strings ||
      !llvm::equal(a->strings, all, [](const std::string &x,
                                       const std::string &y) {
        return StringRef(x).equals_insensitive(y);
      }))
    return n.unsupported("non-default activations");
  return success();
}

LogicalResult convertRecurrent(N &n, RecurrentKind kind) {
  MLC_TRY(hidden, n.getInt("hidden_size"));
  MLC_TRY(direction, n.getString("direction", std::string("forward")));
  MLC_TRY(layout, n.getInt("layout", 0));
  MLC_TRY(lbr, n.getInt("linear_before_reset", 0));
  MLC_TRY(inputForget, n.getInt("input_forget", 0));
  if (n.hasAttr("clip"))
    return n.unsupported("clip");
  if (n.hasAttr("activation_alpha") || n.hasAttr("activation_beta"))
    return n.unsupported("activation_alpha/beta");
  if (inputForget)
    return n.unsupported("input_forget");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && dirs != 2)
    return n.unsupported("direction '" + direction + "'");
  if (failed(checkDefaultActivations(n, kind, dirs)))
    return failure();
  int64_t gates = kind == RecurrentKind::RNN ? 1
                  : kind == RecurrentKind::GRU ? 3
                                               : 4;
  Value x = n.input(0), w = n.input(1), r = n.input(2);
  if (N::rankOf(x) != 3)
    return n.error() << "X must have rank 3", failure();
  if (layout) {
    MLC_TRY(t, transpose(n, x, {1, 0, 2}));
    x = t;
  }
  ArrayRef<int64_t> xs = N::shapeOf(x);
  int64_t seq = xs[0], batch = xs[1], in = xs[2], gh = gates * hidden;
  if (N::shapeOf(w) != ArrayRef<int64_t>{dirs, gh, in} ||
      N::shapeOf(r) != ArrayRef<int64_t>{dirs, gh, hidden})
    return n.error() << "W or R has the wrong shape for hidden_size "
                     << hidden,
           failure();
  Type elt = N::elementTypeOf(x);
  // Sequence lengths: a mask per step (forward only when they vary).
  Value lens = n.hasInput(4) ? n.input(4) : Value();
  if (lens) {
    if (auto c = n.tryConstant(lens)) {
      MLC_TRY(v, n.constantInts(4, "sequence_lens"));
      if (llvm::all_of(v, [&](int64_t l) { return l == seq; }))
        lens = Value();
    }
  }
  if (lens && direction != "forward")
    return n.unsupported("sequence_lens with direction '" + direction + "'");
  Value lens64;
  if (lens) {
    MLC_TRY(l, castTo(n, lens, n.b.getI64Type()));
    MLC_TRY(l2, reshape(n, l, {batch, 1}));
    lens64 = l2;
  }
  auto zeros = [&](ArrayRef<int64_t> shape) {
    return n.constant(RankedTensorType::get(shape, elt),
                      SmallVector<double>(product(shape), 0.0));
  };
  auto take = [&](Value v, int64_t axis, int64_t k, int64_t size)
      -> FailureOr<Value> { return sliceAxis(n, v, axis, k * size,
                                              (k + 1) * size); };
  // Drops the leading unit dim of a [1, ...] slice.
  auto squeeze0 = [&](Value v) {
    return reshape(n, v, N::shapeOf(v).drop_front());
  };

  SmallVector<Value> ys(dirs), yh(dirs), yc(dirs);
  SmallVector<SmallVector<Value>> steps(dirs);
  for (int64_t d = 0; d < dirs; ++d) {
    MLC_TRY(wd0, take(w, 0, d, 1));
    MLC_TRY(wd, squeeze0(wd0));
    MLC_TRY(rd0, take(r, 0, d, 1));
    MLC_TRY(rd, squeeze0(rd0));
    MLC_TRY(wt, transpose(n, wd, {1, 0}));
    MLC_TRY(rt, transpose(n, rd, {1, 0}));
    // Input projections of all steps at once: [seq * batch, gh].
    MLC_TRY(x2, reshape(n, x, {seq * batch, in}));
    MLC_TRY(xw2, binary(n, "matmul", x2, wt));
    Value xw = xw2, rb;
    if (n.hasInput(3)) {
      MLC_TRY(bd0, take(n.input(3), 0, d, 1));
      MLC_TRY(bd, squeeze0(bd0));
      MLC_TRY(wb, take(bd, 0, 0, gh));
      MLC_TRY(rbb, take(bd, 0, 1, gh));
      rb = rbb;
      if (kind == RecurrentKind::GRU && lbr) {
        // The hidden gate's recurrent bias goes inside r * (...).
        MLC_TRY(xb, binary(n, "add", xw, wb));
        xw = xb;
      } else {
        MLC_TRY(sum, binary(n, "add", wb, rbb));
        MLC_TRY(xb, binary(n, "add", xw, sum));
        xw = xb;
        rb = Value();
      }
    }
    MLC_TRY(xw3, reshape(n, xw, {seq, batch, gh}));
    Value h, c;
    if (n.hasInput(5)) {
      MLC_TRY(h0, take(n.input(5), 0, d, 1));
      MLC_TRY(h1, squeeze0(h0));
      h = h1;
    } else {
      h = zeros({batch, hidden});
    }
    if (kind == RecurrentKind::LSTM) {
      if (n.hasInput(6)) {
        MLC_TRY(c0, take(n.input(6), 0, d, 1));
        MLC_TRY(c1, squeeze0(c0));
        c = c1;
      } else {
        c = zeros({batch, hidden});
      }
    }
    Value peep;
    if (kind == RecurrentKind::LSTM && n.hasInput(7)) {
      MLC_TRY(p0, take(n.input(7), 0, d, 1));
      MLC_TRY(p1, squeeze0(p0));
      peep = p1;
    }
    bool reverse = direction == "reverse" || d == 1;
    steps[d].assign(seq, Value());
    for (int64_t k = 0; k < seq; ++k) {
      int64_t t = reverse ? seq - 1 - k : k;
      MLC_TRY(xt0, take(xw3, 0, t, 1));
      MLC_TRY(xt, squeeze0(xt0));
      MLC_TRY(hr, binary(n, "matmul", h, rt));
      auto gate = [&](Value v, int64_t g) { return take(v, 1, g, hidden); };
      Value hNew, cNew;
      if (kind == RecurrentKind::RNN) {
        MLC_TRY(a, binary(n, "add", xt, hr));
        MLC_TRY(hn, unary(n, "tanh", a));
        hNew = hn;
      } else if (kind == RecurrentKind::GRU) {
        MLC_TRY(xz, gate(xt, 0));
        MLC_TRY(xr, gate(xt, 1));
        MLC_TRY(xh, gate(xt, 2));
        MLC_TRY(hz, gate(hr, 0));
        MLC_TRY(hrr, gate(hr, 1));
        Value rbz, rbr, rbh;
        if (rb) {
          MLC_TRY(a, take(rb, 0, 0, hidden));
          MLC_TRY(b2, take(rb, 0, 1, hidden));
          MLC_TRY(c2, take(rb, 0, 2, hidden));
          rbz = a;
          rbr = b2;
          rbh = c2;
        }
        auto plus = [&](Value a, Value b) -> FailureOr<Value> {
          return b ? binary(n, "add", a, b) : FailureOr<Value>(a);
        };
        MLC_TRY(za, binary(n, "add", xz, hz));
        MLC_TRY(zb, plus(za, rbz));
        MLC_TRY(z, unary(n, "sigmoid", zb));
        MLC_TRY(ra, binary(n, "add", xr, hrr));
        MLC_TRY(rbv, plus(ra, rbr));
        MLC_TRY(rg, unary(n, "sigmoid", rbv));
        Value pre;
        if (lbr) {
          MLC_TRY(hh, gate(hr, 2));
          MLC_TRY(hhb, plus(hh, rbh));
          MLC_TRY(rh, binary(n, "mul", rg, hhb));
          MLC_TRY(p, binary(n, "add", xh, rh));
          pre = p;
        } else {
          MLC_TRY(rh, binary(n, "mul", rg, h));
          MLC_TRY(rhr, take(rt, 1, 2, hidden));
          MLC_TRY(m, binary(n, "matmul", rh, rhr));
          MLC_TRY(p, binary(n, "add", xh, m));
          pre = p;
        }
        MLC_TRY(ht, unary(n, "tanh", pre));
        // (1 - z) * ht + z * h = ht + z * (h - ht)
        MLC_TRY(dh, binary(n, "sub", h, ht));
        MLC_TRY(zdh, binary(n, "mul", z, dh));
        MLC_TRY(hn, binary(n, "add", ht, zdh));
        hNew = hn;
      } else {
        MLC_TRY(a, binary(n, "add", xt, hr));
        MLC_TRY(gi0, gate(a, 0));
        MLC_TRY(go0, gate(a, 1));
        MLC_TRY(gf0, gate(a, 2));
        MLC_TRY(gc0, gate(a, 3));
        Value gi = gi0, gf = gf0, go = go0;
        if (peep) {
          MLC_TRY(pi, take(peep, 0, 0, hidden));
          MLC_TRY(po, take(peep, 0, 1, hidden));
          MLC_TRY(pf, take(peep, 0, 2, hidden));
          MLC_TRY(pic, binary(n, "mul", pi, c));
          MLC_TRY(pfc, binary(n, "mul", pf, c));
          MLC_TRY(gi1, binary(n, "add", gi, pic));
          MLC_TRY(gf1, binary(n, "add", gf, pfc));
          gi = gi1;
          gf = gf1;
          peep = po; // the output gate's peephole uses the new cell
        }
        MLC_TRY(i, unary(n, "sigmoid", gi));
        MLC_TRY(f, unary(n, "sigmoid", gf));
        MLC_TRY(cc, unary(n, "tanh", gc0));
        MLC_TRY(fc, binary(n, "mul", f, c));
        MLC_TRY(ic, binary(n, "mul", i, cc));
        MLC_TRY(cn, binary(n, "add", fc, ic));
        cNew = cn;
        if (peep) {
          MLC_TRY(poc, binary(n, "mul", peep, cNew));
          MLC_TRY(go1, binary(n, "add", go, poc));
          go = go1;
        }
        MLC_TRY(o, unary(n, "sigmoid", go));
        MLC_TRY(tc, unary(n, "tanh", cNew));
        MLC_TRY(hn, binary(n, "mul", o, tc));
        hNew = hn;
        if (n.hasInput(7)) {
          MLC_TRY(p0, take(n.input(7), 0, d, 1));
          MLC_TRY(p1, squeeze0(p0));
          peep = p1;
        }
      }
      Value yt = hNew;
      if (lens64) {
        // Past a sequence's end: the state stays, the output is zero.
        Value tk = n.i64Constant({t}, {});
        MLC_TRY(live, compare(n, "lt", tk, lens64));
        MLC_TRY(hk, select(n, live, hNew, h));
        MLC_TRY(yk, select(n, live, hNew, n.scalarLike(hNew, 0)));
        hNew = hk;
        yt = yk;
        if (cNew) {
          MLC_TRY(ck, select(n, live, cNew, c));
          cNew = ck;
        }
      }
      h = hNew;
      if (cNew)
        c = cNew;
      steps[d][t] = yt;
    }
    yh[d] = h;
    yc[d] = c;
  }
  // Y: [seq, dirs, batch, hidden] (layout 1: [batch, seq, dirs, hidden]).
  if (n.wantsOutput(0)) {
    SmallVector<Value> perStep;
    for (int64_t t = 0; t < seq; ++t) {
      SmallVector<Value> perDir;
      for (int64_t d = 0; d < dirs; ++d) {
        MLC_TRY(v, reshape(n, steps[d][t], {1, 1, batch, hidden}));
        perDir.push_back(v);
      }
      MLC_TRY(cd, concat(n, perDir, 1));
      perStep.push_back(cd);
    }
    MLC_TRY(y, concat(n, perStep, 0));
    if (layout) {
      MLC_TRY(yt, transpose(n, y, {2, 0, 1, 3}));
      y = yt;
    }
    n.setOutput(0, y);
  }
  auto stackState = [&](ArrayRef<Value> states) -> FailureOr<Value> {
    SmallVector<Value> parts;
    for (Value v : states) {
      MLC_TRY(p, reshape(n, v, {1, batch, hidden}));
      parts.push_back(p);
    }
    MLC_TRY(st, concat(n, parts, 0));
    if (layout)
      return transpose(n, st, {1, 0, 2});
    return st;
  };
  if (n.wantsOutput(1)) {
    MLC_TRY(v, stackState(yh));
    n.setOutput(1, v);
  }
  if (kind == RecurrentKind::LSTM && n.wantsOutput(2)) {
    MLC_TRY(v, stackState(yc));
    n.setOutput(2, v);
  }
  return success();
}
LogicalResult convertRNN(N &n) {
  return convertRecurrent(n, RecurrentKind::RNN);
}
LogicalResult convertGRU(N &n) {
  return convertRecurrent(n, RecurrentKind::GRU);
}
LogicalResult convertLSTM(N &n) {
  return convertRecurrent(n, RecurrentKind::LSTM);
}

//===----------------------------------------------------------------------===//
// Einsum, windows, selection
//===----------------------------------------------------------------------===//

/// Einsum as one broadcast product and a sum over the contracted letters:
/// each operand is transposed into a global letter order (output letters
/// first) and given unit dims for the letters it lacks.
LogicalResult convertEinsum(N &n) {
  MLC_TRY(eq, n.getString("equation"));
  std::string e;
  for (char c : eq)
    if (c != ' ')
      e += c;
  if (e.find("...") != std::string::npos)
    return n.unsupported("ellipsis in equation '" + eq + "'");
  size_t arrow = e.find("->");
  std::string lhs = e.substr(0, arrow);
  SmallVector<StringRef> terms;
  StringRef(lhs).split(terms, ',');
  if (terms.size() != n.numInputs())
    return n.error() << "equation '" << eq << "' has " << terms.size()
                     << " operands but the node has " << n.numInputs(),
           failure();
  std::string outTerm;
  if (arrow != std::string::npos) {
    outTerm = e.substr(arrow + 2);
  } else {
    // Implicit output: letters used once, alphabetically.
    std::map<char, int> count;
    for (char c : lhs)
      if (c != ',')
        ++count[c];
    for (auto [c, k] : count)
      if (k == 1)
        outTerm += c;
  }
  std::string order = outTerm;
  for (char c : lhs)
    if (c != ',' && order.find(c) == std::string::npos)
      order += c;
  std::map<char, int64_t> sizes;
  Value product;
  for (auto [i, term] : llvm::enumerate(terms)) {
    Value x = n.input(i);
    ArrayRef<int64_t> shape = N::shapeOf(x);
    if (term.size() != shape.size())
      return n.error() << "operand " << i << " has rank " << shape.size()
                       << " but '" << term << "' names " << term.size()
                       << " dims",
             failure();
    SmallVector<int64_t> perm, full;
    for (char c : order) {
      size_t pos = term.find(c);
      if (pos == StringRef::npos) {
        full.push_back(1);
        continue;
      }
      if (term.find(c, pos + 1) != StringRef::npos)
        return n.unsupported("repeated index '" + std::string(1, c) +
                             "' (diagonals)");
      auto [it, inserted] = sizes.insert({c, shape[pos]});
      if (!inserted && it->second != shape[pos])
        return n.error() << "index '" << c << "' has sizes " << it->second
                         << " and " << shape[pos],
               failure();
      perm.push_back(pos);
      full.push_back(shape[pos]);
    }
    MLC_TRY(t, transpose(n, x, perm));
    MLC_TRY(r, reshape(n, t, full));
    if (!product) {
      product = r;
      continue;
    }
    MLC_TRY(p, binary(n, "mul", product, r));
    product = p;
  }
  for (char c : outTerm)
    if (!sizes.count(c))
      return n.error() << "output index '" << c << "' is not an input index",
             failure();
  if (order.size() == outTerm.size())
    return out(n, reshape(n, product, N::shapeOf(product)));
  return out(n, reduce(n, "reduce_sum", product,
                       iota(order.size() - outTerm.size(), outTerm.size()),
                       false));
}

/// Hann, Hamming and Blackman windows: constants of a compile-time size.
LogicalResult convertWindow(N &n, ArrayRef<double> coeffs) {
  MLC_TRY(periodic, n.getInt("periodic", 1));
  MLC_TRY(dtype, n.getInt("output_datatype", onnx::Float));
  MLC_TRY(sizeV, n.constantInts(0, "size"));
  if (sizeV.size() != 1 || sizeV[0] < 1)
    return n.error() << "size must be a positive scalar", failure();
  Type elt = onnxElementType(n.ctx, dtype);
  if (!elt)
    return n.unsupported("output_datatype " +
                         onnx::dataTypeName(int32_t(dtype)));
  int64_t size = sizeV[0];
  double denom = periodic ? double(size) : double(size - 1);
  SmallVector<double> v;
  for (int64_t i = 0; i < size; ++i) {
    double w = 0;
    for (auto [k, c] : llvm::enumerate(coeffs))
      w += (k % 2 ? -c : c) * std::cos(2 * M_PI * double(k) * i / denom);
    v.push_back(denom == 0 ? 1.0 : w);
  }
  return n.setOutput(0, n.constant(RankedTensorType::get({size}, elt), v)),
         success();
}
LogicalResult convertHannWindow(N &n) { return convertWindow(n, {0.5, 0.5}); }
LogicalResult convertHammingWindow(N &n) {
  return convertWindow(n, {25.0 / 46.0, 1.0 - 25.0 / 46.0});
}
LogicalResult convertBlackmanWindow(N &n) {
  return convertWindow(n, {0.42, 0.5, 0.08});
}

/// Compress with a compile-time condition is a gather of the kept indices.
LogicalResult convertCompress(N &n) {
  Value x = n.input(0);
  MLC_TRY(cond, n.constantInts(1, "condition"));
  int64_t axis = 0;
  if (n.hasAttr("axis")) {
    MLC_TRY(a, n.getInt("axis"));
    MLC_TRY(norm, n.normalizeAxis(a, N::rankOf(x)));
    axis = norm;
  } else {
    MLC_TRY(flat, reshape(n, x, {product(N::shapeOf(x))}));
    x = flat;
  }
  int64_t len = N::shapeOf(x)[axis];
  if (int64_t(cond.size()) > len)
    return n.error() << "condition has " << cond.size()
                     << " entries for an axis of " << len,
           failure();
  SmallVector<int64_t> keep;
  for (auto [i, c] : llvm::enumerate(cond))
    if (c)
      keep.push_back(i);
  if (keep.empty())
    return n.unsupported("zero-size result");
  return out(n, takeAxis(n, x, axis, keep));
}

LogicalResult convertReverseSequence(N &n) {
  Value x = n.input(0), lens = n.input(1);
  MLC_TRY(batchAxis, n.getInt("batch_axis", 1));
  MLC_TRY(timeAxis, n.getInt("time_axis", 0));
  SmallVector<int64_t> shape(N::shapeOf(x));
  if (shape.size() < 2 || !((batchAxis == 0 && timeAxis == 1) ||
                            (batchAxis == 1 && timeAxis == 0)))
    return n.error() << "batch_axis and time_axis must be 0 and 1", failure();
  int64_t t = shape[timeAxis], bsz = shape[batchAxis];
  // idx[t, b] = t < len[b] ? len[b] - 1 - t : t, gathered along time.
  SmallVector<int64_t> tshape(2, 1), bshape(2, 1);
  tshape[timeAxis] = t;
  bshape[batchAxis] = bsz;
  Value ti = n.i64Constant(iota(t), tshape);
  MLC_TRY(l64, castTo(n, lens, n.b.getI64Type()));
  MLC_TRY(l, reshape(n, l64, bshape));
  MLC_TRY(inside, compare(n, "lt", ti, l));
  MLC_TRY(lm1, addScalar(n, l, -1.0));
  MLC_TRY(rev, binary(n, "sub", lm1, ti));
  MLC_TRY(idx2, select(n, inside, rev, ti));
  SmallVector<int64_t> ishape = {shape[0], shape[1]};
  ishape.append(shape.size() - 2, 1);
  MLC_TRY(idxR, reshape(n, idx2, ishape));
  MLC_TRY(idx, n.emit("broadcast_to", {idxR}, {n.arrayAttr("shape", shape)}));
  return out(n, n.emit("gather_elements", {x, idx},
                       {n.i64Attr("axis", timeAxis)}));
}


//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    // Elementwise arithmetic (numpy broadcasting from opset 7).
    {"Add", 1, kMax, 2, "", convertBinary<kAdd>, ""},
    {"Sub", 1, kMax, 2, "", convertBinary<kSub>, ""},
    {"Mul", 1, kMax, 2, "", convertBinary<kMul>, ""},
    {"Div", 1, kMax, 2, "", convertBinary<kDiv>,
     "integer division truncates; x/0 is 0 for integers"},
    {"Pow", 1, kMax, 2, "", convertPow, "mixed int/float operands"},
    {"Mod", 10, kMax, 2, "fmod", convertMod, ""},
    {"Max", 6, kMax, 1, "", convertVariadic<kMaxOp>, ""},
    {"Min", 6, kMax, 1, "", convertVariadic<kMinOp>, ""},
    {"Sum", 6, kMax, 1, "", convertSum, ""},
    {"Mean", 6, kMax, 1, "", convertMean, "float"},
    {"Neg", 6, kMax, 1, "", convertUnary<kNeg>, ""},
    {"Abs", 6, kMax, 1, "", convertUnary<kAbs>, ""},
    {"Reciprocal", 6, kMax, 1, "", convertReciprocal, ""},
    {"Relu", 6, kMax, 1, "", convertUnary<kRelu>, ""},
    {"Exp", 6, kMax, 1, "", convertUnary<kExp>, "float"},
    {"Log", 6, kMax, 1, "", convertUnary<kLog>, "float"},
    {"Sqrt", 6, kMax, 1, "", convertUnary<kSqrt>, "float"},
    {"Tanh", 6, kMax, 1, "", convertUnary<kTanh>, "float"},
    {"Sigmoid", 6, kMax, 1, "", convertUnary<kSigmoid>, "float"},
    {"Erf", 9, kMax, 1, "", convertUnary<kErf>, "float"},
    {"Sin", 7, kMax, 1, "", convertUnary<kSin>, "float"},
    {"Cos", 7, kMax, 1, "", convertUnary<kCos>, "float"},
    {"Tan", 7, kMax, 1, "", convertUnary<kTan>, "float"},
    {"Asin", 7, kMax, 1, "", convertUnary<kAsin>, "float"},
    {"Acos", 7, kMax, 1, "", convertUnary<kAcos>, "float"},
    {"Atan", 7, kMax, 1, "", convertUnary<kAtan>, "float"},
    {"Sinh", 9, kMax, 1, "", convertUnary<kSinh>, "float"},
    {"Cosh", 9, kMax, 1, "", convertUnary<kCosh>, "float"},
    {"Asinh", 9, kMax, 1, "", convertUnary<kAsinh>, "float"},
    {"Acosh", 9, kMax, 1, "", convertUnary<kAcosh>, "float"},
    {"Atanh", 9, kMax, 1, "", convertUnary<kAtanh>, "float"},
    {"Floor", 6, kMax, 1, "", convertUnary<kFloor>, "float"},
    {"Ceil", 6, kMax, 1, "", convertUnary<kCeil>, "float"},
    {"Round", 11, kMax, 1, "", convertUnary<kRound>, "half to even"},
    {"Sign", 9, kMax, 1, "", convertUnary<kSign>, ""},
    {"IsNaN", 9, kMax, 1, "", convertIsNaN, ""},
    {"IsInf", 10, kMax, 1, "detect_negative,detect_positive", convertIsInf, ""},
    {"Softplus", 1, kMax, 1, "", convertSoftplus, "log(exp(x) + 1)"},
    {"Softsign", 1, kMax, 1, "", convertSoftsign, ""},
    {"Elu", 6, kMax, 1, "alpha", convertElu, ""},
    {"Selu", 6, kMax, 1, "alpha,gamma", convertSelu, ""},
    {"Celu", 12, kMax, 1, "alpha", convertCelu, ""},
    {"LeakyRelu", 6, kMax, 1, "alpha", convertLeakyRelu, ""},
    {"PRelu", 7, kMax, 2, "", convertPRelu, ""},
    {"ThresholdedRelu", 10, kMax, 1, "alpha", convertThresholdedRelu, ""},
    {"HardSigmoid", 6, kMax, 1, "alpha,beta", convertHardSigmoid, ""},
    {"HardSwish", 14, kMax, 1, "", convertHardSwish, ""},
    {"Shrink", 9, kMax, 1, "bias,lambd", convertShrink, ""},
    {"Clip", 6, kMax, 1, "min,max", convertClip, "bounds may be runtime values"},
    // Logic and comparisons.
    {"Equal", 7, kMax, 2, "", convertEqual, "numbers and bools"},
    {"Less", 7, kMax, 2, "", convertLess, ""},
    {"LessOrEqual", 12, kMax, 2, "", convertLessOrEqual, ""},
    {"Greater", 7, kMax, 2, "", convertGreater, ""},
    {"GreaterOrEqual", 12, kMax, 2, "", convertGreaterOrEqual, ""},
    {"And", 7, kMax, 2, "", convertBinary<kAnd>, ""},
    {"Or", 7, kMax, 2, "", convertBinary<kOr>, ""},
    {"Xor", 7, kMax, 2, "", convertBinary<kXor>, ""},
    {"Not", 1, kMax, 1, "", convertUnary<kNot>, ""},
    {"Where", 9, kMax, 3, "", convertWhere, ""},
    // Types.
    {"Cast", 6, kMax, 1, "to,saturate", convertCast,
     "float, double, float16, bfloat16, int8/16/32/64, bool (no strings)"},
    {"CastLike", 15, kMax, 2, "saturate", convertCastLike, ""},
    {"Identity", 1, kMax, 1, "", convertIdentity, "tensors only"},
    {"Dropout", 1, kMax, 1, "ratio,is_test,seed", convertDropout,
     "inference, or training with ratio 0"},
    // Contractions, windows, normalization.
    {"MatMul", 1, kMax, 2, "", convertMatMul, "rank >= 1, batch broadcasting"},
    {"Gemm", 7, kMax, 2, "alpha,beta,transA,transB", convertGemm, ""},
    {"Conv", 1, kMax, 2, "auto_pad,dilations,group,kernel_shape,pads,strides",
     convertConv, "1-D and 2-D"},
    {"ConvTranspose", 1, kMax, 2,
     "auto_pad,dilations,group,kernel_shape,output_padding,output_shape,pads,"
     "strides",
     convertConvTranspose, "1-D and 2-D, as a convolution of the dilated input"},
    {"MaxPool", 1, kMax, 1,
     "auto_pad,ceil_mode,dilations,kernel_shape,pads,storage_order,strides",
     convertMaxPool, "1-D and 2-D; no Indices output"},
    {"AveragePool", 1, kMax, 1,
     "auto_pad,ceil_mode,count_include_pad,kernel_shape,pads,strides",
     convertAveragePool, "1-D and 2-D"},
    {"GlobalAveragePool", 1, kMax, 1, "", convertGlobalAveragePool, ""},
    {"GlobalMaxPool", 1, kMax, 1, "", convertGlobalMaxPool, ""},
    {"BatchNormalization", 7, kMax, 5, "epsilon,momentum,spatial,training_mode",
     convertBatchNorm, "inference; training_mode from opset 14"},
    {"InstanceNormalization", 6, kMax, 3, "epsilon", convertInstanceNorm, ""},
    {"LayerNormalization", 17, kMax, 2, "axis,epsilon,stash_type",
     convertLayerNorm, "Mean and InvStdDev outputs supported"},
    {"MeanVarianceNormalization", 9, kMax, 1, "axes", convertMVN, ""},
    {"LRN", 1, kMax, 1, "alpha,beta,bias,size", convertLRN, ""},
    {"Softmax", 1, kMax, 1, "axis", convertSoftmax, ""},
    {"LogSoftmax", 1, kMax, 1, "axis", convertLogSoftmax, ""},
    {"Hardmax", 1, kMax, 1, "axis", convertHardmax, ""},
    // Reductions.
    {"ReduceSum", 1, kMax, 1, "axes,keepdims,noop_with_empty_axes",
     convertReduceSum, "axes must be constant"},
    {"ReduceMean", 1, kMax, 1, "axes,keepdims", convertReduceMean, "float"},
    {"ReduceMax", 1, kMax, 1, "axes,keepdims", convertReduceMax, ""},
    {"ReduceMin", 1, kMax, 1, "axes,keepdims", convertReduceMin, ""},
    {"ReduceProd", 1, kMax, 1, "axes,keepdims", convertReduceProd, ""},
    {"ReduceL1", 1, kMax, 1, "axes,keepdims", convertReduceL1, ""},
    {"ReduceL2", 1, kMax, 1, "axes,keepdims", convertReduceL2, "float"},
    {"ReduceLogSum", 1, kMax, 1, "axes,keepdims", convertReduceLogSum, "float"},
    {"ReduceLogSumExp", 1, kMax, 1, "axes,keepdims", convertReduceLogSumExp,
     "float; computed as log(sum(exp(x))) like the ONNX reference"},
    {"ReduceSumSquare", 1, kMax, 1, "axes,keepdims", convertReduceSumSquare, ""},
    {"ArgMax", 1, kMax, 1, "axis,keepdims,select_last_index", convertArgMax, ""},
    {"ArgMin", 1, kMax, 1, "axis,keepdims,select_last_index", convertArgMin, ""},
    {"CumSum", 11, kMax, 2, "exclusive,reverse", convertCumSum,
     "axis must be constant"},
    // Shapes and data movement.
    {"Reshape", 1, kMax, 1, "shape,allowzero", convertReshape,
     "shape must be constant"},
    {"Flatten", 1, kMax, 1, "axis", convertFlatten, ""},
    {"Squeeze", 1, kMax, 1, "axes", convertSqueeze, "axes must be constant"},
    {"Unsqueeze", 1, kMax, 1, "axes", convertUnsqueeze, "axes must be constant"},
    {"Transpose", 1, kMax, 1, "perm", convertTranspose, ""},
    {"Concat", 1, kMax, 1, "axis", convertConcat, ""},
    {"Split", 1, kMax, 1, "axis,split", convertSplit, "sizes must be constant"},
    {"Slice", 1, kMax, 1, "starts,ends,axes", convertSlice,
     "bounds must be constant; negative steps become gathers"},
    {"Gather", 1, kMax, 2, "axis", convertGather, ""},
    {"GatherElements", 11, kMax, 2, "axis", convertGatherElements, ""},
    {"Expand", 8, kMax, 2, "", convertExpand, "shape must be constant"},
    {"Tile", 6, kMax, 2, "", convertTile, "repeats must be constant"},
    {"Pad", 2, kMax, 1, "mode,pads,value", convertPad,
     "constant, reflect, edge; pads must be constant"},
    {"Shape", 1, kMax, 1, "start,end", convertShape, "folded at compile time"},
    {"Size", 1, kMax, 1, "", convertSize, "folded at compile time"},
    {"ConstantOfShape", 9, kMax, 1, "value", convertConstantOfShape,
     "shape must be constant"},
    {"Constant", 1, kMax, 0,
     "value,value_float,value_floats,value_int,value_ints", convertConstant,
     "no sparse or string values"},
    {"Range", 11, kMax, 3, "", convertRange, "inputs must be constant"},
    {"EyeLike", 9, kMax, 1, "dtype,k", convertEyeLike, ""},
    {"OneHot", 9, kMax, 3, "axis", convertOneHot, "depth must be constant"},
    {"Trilu", 14, kMax, 1, "upper", convertTrilu, "k may be a runtime value"},
    {"DepthToSpace", 1, kMax, 1, "blocksize,mode", convertDepthToSpace, ""},
    {"SpaceToDepth", 1, kMax, 1, "blocksize", convertSpaceToDepth, ""},
    {"Resize", 11, kMax, 1,
     "mode,coordinate_transformation_mode,nearest_mode,cubic_coeff_a,"
     "exclude_outside,extrapolation_value",
     convertResize,
     "all modes; scales/sizes/roi must be constant; separable matrices"},
    {"Upsample", 7, 9, 1, "mode,scales", convertUpsample, "nearest, linear"},
    {"Einsum", 12, kMax, 1, "equation", convertEinsum,
     "no ellipsis or diagonals; a broadcast product and a sum"},
    {"HannWindow", 17, kMax, 1, "output_datatype,periodic", convertHannWindow,
     "size must be constant"},
    {"HammingWindow", 17, kMax, 1, "output_datatype,periodic",
     convertHammingWindow, "size must be constant"},
    {"BlackmanWindow", 17, kMax, 1, "output_datatype,periodic",
     convertBlackmanWindow, "size must be constant"},
    {"Compress", 9, kMax, 2, "axis", convertCompress,
     "condition must be constant"},
    {"ReverseSequence", 10, kMax, 2, "batch_axis,time_axis",
     convertReverseSequence, ""},
    {"RNN", 7, kMax, 3,
     "activation_alpha,activation_beta,activations,clip,direction,"
     "hidden_size,layout",
     convertRNN, "unrolled; default activations; no clip"},
    {"GRU", 7, kMax, 3,
     "activation_alpha,activation_beta,activations,clip,direction,"
     "hidden_size,layout,linear_before_reset",
     convertGRU, "unrolled; default activations; no clip"},
    {"LSTM", 7, kMax, 3,
     "activation_alpha,activation_beta,activations,clip,direction,"
     "hidden_size,input_forget,layout",
     convertLSTM, "unrolled; default activations; no clip or input_forget"},
    {"GatherND", 11, kMax, 2, "batch_dims", convertGatherND, ""},
    {"ScatterElements", 11, kMax, 3, "axis,reduction", convertScatterElements,
     "reduction none/add/mul; updates span the data off the axis"},
    {"Scatter", 9, 10, 3, "axis", convertScatterElements,
     "as ScatterElements"},
    {"ScatterND", 11, kMax, 3, "reduction", convertScatterND,
     "reduction none/add/mul"},
    {"TopK", 1, kMax, 1, "axis,k,largest,sorted", convertTopK,
     "K must be constant; always sorted; NaN inputs unspecified"},
    // Losses.
    {"NegativeLogLikelihoodLoss", 12, kMax, 2, "reduction,ignore_index",
     convertNLLLoss, ""},
    {"SoftmaxCrossEntropyLoss", 12, kMax, 2, "reduction,ignore_index",
     convertSCELoss, ""},
};

} // namespace

ArrayRef<OpConverter> getONNXConverters() { return kConverters; }

} // namespace mlc::frontend
