//===- ONNXQuantization.cpp - QuantizeLinear, DequantizeLinear, ... -------===//
//
// Per-tensor and per-axis (de)quantization map onto graph.quantize and
// graph.dequantize, whose scale and zero point broadcast: a per-axis one is
// reshaped to the input's rank with its length at the axis.
// DynamicQuantizeLinear is composed from reductions and graph.quantize.
// MatMulInteger and ConvInteger are graph.matmul_integer and
// graph.conv2d_integer; the QLinear forms add the requantization
// round(acc * (x_scale * w_scale / y_scale)) + y_zero_point as a dequantize
// by that product and a quantize with scale 1.
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"
#include "ONNXImporter.h"

#include <cmath>
#include <cstdio>

using namespace mlir;

namespace mlc::frontend {
namespace {

/// The scale or zero point of a (de)quantization of `x`: a scalar, or a
/// 1-D tensor of x's length at `axis` (opset 13), reshaped to broadcast.
FailureOr<Value> quantParam(N &n, Value param, Value x, StringRef what) {
  ArrayRef<int64_t> shape = N::shapeOf(param);
  if (shape.empty() ||
      (shape.size() == 1 && shape[0] == 1 && N::rankOf(x) == 0))
    return reshape(n, param, {});
  if (shape.size() != 1)
    return n.error() << what << " must be a scalar or 1-D, got shape "
                     << shapeString(shape);
  if (n.opset < 13)
    return n.error() << "per-axis " << what << " (shape " << shapeString(shape)
                     << ") needs opset 13";
  MLC_TRY(axisAttr, n.getInt("axis", 1));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  if (shape[0] != N::shapeOf(x)[axis])
    return n.error() << what << " has " << shape[0]
                     << " elements but the input has " << N::shapeOf(x)[axis]
                     << " at axis " << axis << " (shape "
                     << shapeString(N::shapeOf(x)) << ")";
  SmallVector<int64_t> to(N::rankOf(x), 1);
  to[axis] = shape[0];
  return reshape(n, param, to);
}

/// Input `i` if given, else a zero of `type`'s element type and the shape of
/// the scale.
Value zeroPointOrDefault(N &n, unsigned i, Type elementType, Value scale) {
  if (n.hasInput(i))
    return n.input(i);
  auto type = RankedTensorType::get(N::shapeOf(scale), elementType);
  return n.constant(type, SmallVector<double>(type.getNumElements(), 0.0));
}

/// A float scale; a constant one must be positive and finite everywhere
/// (a zero scale divides by zero, a negative one mirrors the values).
LogicalResult checkScale(N &n, Value scale) {
  if (!isa<FloatType>(N::elementTypeOf(scale)))
    return n.error() << "scale must be a float tensor, got "
                     << N::typeOf(scale);
  std::optional<graph::HostTensor> c = n.tryConstant(scale);
  if (!c || c->getKind() != graph::ElementKind::F32)
    return success();
  for (auto [i, v] : llvm::enumerate(c->values<float>())) {
    if (v > 0.0f && std::isfinite(v))
      continue;
    char text[32];
    std::snprintf(text, sizeof(text), "%g", double(v));
    return n.error() << "scale must be positive and finite, got " << text
                     << (c->getNumElements() > 1
                             ? " at element " + std::to_string(i)
                             : std::string());
  }
  return success();
}

LogicalResult convertQuantizeLinear(N &n) {
  Value x = n.input(0), scale = n.input(1);
  if (failed(checkScale(n, scale)))
    return failure();
  // int32 inputs (opset 10+) are quantized as floats, like ORT does.
  if (isa<IntegerType>(N::elementTypeOf(x))) {
    MLC_TRY(f, castTo(n, x, N::elementTypeOf(scale)));
    x = f;
  }
  Value zp = zeroPointOrDefault(
      n, 2, IntegerType::get(n.ctx, 8, IntegerType::Unsigned), scale);
  MLC_TRY(s, quantParam(n, scale, x, "scale"));
  MLC_TRY(z, quantParam(n, zp, x, "zero point"));
  MLC_TRY(xs, castTo(n, x, N::elementTypeOf(scale)));
  MLC_TRY(y, n.emit<graph::QuantizeOp>({xs, s, z}));
  n.setOutput(0, y);
  return success();
}

LogicalResult convertDequantizeLinear(N &n) {
  Value x = n.input(0), scale = n.input(1);
  if (failed(checkScale(n, scale)))
    return failure();
  Value zp = zeroPointOrDefault(n, 2, N::elementTypeOf(x), scale);
  MLC_TRY(s, quantParam(n, scale, x, "scale"));
  MLC_TRY(z, quantParam(n, zp, x, "zero point"));
  MLC_TRY(y, n.emit<graph::DequantizeOp>({x, s, z}));
  n.setOutput(0, y);
  return success();
}

/// y_scale = (max(x, 0) - min(x, 0)) / 255, y_zero_point =
/// saturate(round(-min(x, 0) / y_scale)), y = quantize(x): ONNX's
/// definition, uint8 only.
LogicalResult convertDynamicQuantizeLinear(N &n) {
  Value x = n.input(0);
  if (!N::elementTypeOf(x).isF32())
    return n.unsupported("input dtype other than float");
  SmallVector<int64_t> all = iota(N::rankOf(x));
  Value zero = n.scalarLike(x, 0.0);
  MLC_TRY(lo, reduce<graph::ReduceMinOp>(n, x, all, false));
  MLC_TRY(hi, reduce<graph::ReduceMaxOp>(n, x, all, false));
  MLC_TRY(lo0, binary<graph::MinOp>(n, lo, zero));
  MLC_TRY(hi0, binary<graph::MaxOp>(n, hi, zero));
  MLC_TRY(range, binary<graph::SubOp>(n, hi0, lo0));
  MLC_TRY(yScale, binary<graph::DivOp>(n, range, n.scalarLike(x, 255.0)));
  MLC_TRY(ratio, binary<graph::DivOp>(n, lo0, yScale));
  MLC_TRY(zpFloat, unary<graph::NegOp>(n, ratio));
  // Rounding and saturating a float to uint8: a quantize with scale 1.
  Type u8 = IntegerType::get(n.ctx, 8, IntegerType::Unsigned);
  MLC_TRY(zp, n.emit<graph::QuantizeOp>(
                  {zpFloat, n.scalarLike(x, 1.0), n.scalar(u8, 0.0)}));
  MLC_TRY(y, n.emit<graph::QuantizeOp>({x, yScale, zp}));
  n.setOutput(0, y);
  n.setOutput(1, yScale);
  n.setOutput(2, zp);
  return success();
}

/// A scale or zero point of a contraction operand: a scalar or one element
/// (a scalar), or a 1-D tensor of `count` elements reshaped to `perIndex`.
FailureOr<Value> contractionParam(N &n, Value v, int64_t count,
                                  ArrayRef<int64_t> perIndex, StringRef what) {
  ArrayRef<int64_t> shape = N::shapeOf(v);
  if (product(shape) == 1)
    return reshape(n, v, {});
  if (shape.size() == 1 && shape[0] == count)
    return reshape(n, v, perIndex);
  return n.error() << what << " must be a scalar or have " << count
                   << " elements, got shape " << shapeString(shape),
         failure();
}

/// A contraction operand's zero point (input `i`, zero when absent) with
/// shape `perIndex` when it has `count` != 1 elements (one per row, column
/// or output channel), else a scalar.
FailureOr<Value> contractionZeroPoint(N &n, unsigned i, Value operand,
                                      int64_t count, ArrayRef<int64_t> perIndex,
                                      StringRef what) {
  if (!n.hasInput(i))
    return n.scalar(N::elementTypeOf(operand), 0.0);
  return contractionParam(n, n.input(i), count, perIndex, what);
}

/// round(acc * scale) + zp, saturated: the requantization of an int32
/// accumulator to the 8-bit type of `zp`.
FailureOr<Value> requantize(N &n, Value acc, Value scale, Value zp) {
  MLC_TRY(f, n.emit<graph::DequantizeOp>(
                 {acc, scale, n.scalar(N::elementTypeOf(acc), 0.0)}));
  return n.emit<graph::QuantizeOp>({f, n.scalarLike(scale, 1.0), zp});
}

/// x_scale * w_scale / y_scale, each a scalar or already shaped to
/// broadcast over the accumulator.
FailureOr<Value> requantScale(N &n, Value xScale, Value wScale, Value yScale) {
  for (Value s : {xScale, wScale, yScale})
    if (failed(checkScale(n, s)))
      return failure();
  MLC_TRY(xw, binary<graph::MulOp>(n, xScale, wScale));
  return binary<graph::DivOp>(n, xw, yScale);
}

/// Rows of a matmul lhs (its dim -2; 1 for a vector), columns of its rhs.
int64_t matRows(Value a) {
  ArrayRef<int64_t> s = N::shapeOf(a);
  return s.size() < 2 ? 1 : s[s.size() - 2];
}
int64_t matCols(Value b) {
  ArrayRef<int64_t> s = N::shapeOf(b);
  return s.size() < 2 ? 1 : s.back();
}

/// matmul_integer of a and b with per-tensor, per-row (a) or per-column (b)
/// zero points, numpy's rank rules.
FailureOr<Value> matmulInteger(N &n, Value a, Value b, Value aZp, Value bZp) {
  return numpyMatMul(n, a, b, [&](Value a2, Value b2) {
    return n.emit<graph::MatMulIntegerOp>({a2, b2, aZp, bZp});
  });
}

LogicalResult convertMatMulInteger(N &n) {
  Value a = n.input(0), b = n.input(1);
  int64_t m = matRows(a), cols = matCols(b);
  MLC_TRY(aZp, contractionZeroPoint(n, 2, a, m, {m, 1}, "a_zero_point"));
  MLC_TRY(bZp, contractionZeroPoint(n, 3, b, cols, {cols}, "b_zero_point"));
  return out(n, matmulInteger(n, a, b, aZp, bZp));
}

LogicalResult convertQLinearMatMul(N &n) {
  Value a = n.input(0), b = n.input(3);
  int64_t m = matRows(a), cols = matCols(b);
  MLC_TRY(aScale, contractionParam(n, n.input(1), m, {m, 1}, "a_scale"));
  MLC_TRY(aZp, contractionParam(n, n.input(2), m, {m, 1}, "a_zero_point"));
  MLC_TRY(bScale, contractionParam(n, n.input(4), cols, {cols}, "b_scale"));
  MLC_TRY(bZp, contractionParam(n, n.input(5), cols, {cols}, "b_zero_point"));
  MLC_TRY(yScale, contractionParam(n, n.input(6), 1, {}, "y_scale"));
  MLC_TRY(yZp, contractionParam(n, n.input(7), 1, {}, "y_zero_point"));
  MLC_TRY(acc, matmulInteger(n, a, b, aZp, bZp));
  // With a vector rhs the result has no column dim: rows are its last.
  if (N::rankOf(b) == 1 && N::rankOf(aScale) == 2) {
    MLC_TRY(s, reshape(n, aScale, {m}));
    aScale = s;
  }
  MLC_TRY(scale, requantScale(n, aScale, bScale, yScale));
  return out(n, requantize(n, acc, scale, yZp));
}

/// conv2d_integer with a scalar input zero point and a per-tensor or
/// per-output-channel filter zero point (input `wZpIndex`).
FailureOr<Value> convInteger(N &n, Value x, Value w, Value xZp,
                             unsigned wZpIndex,
                             ArrayRef<NamedAttribute> attrs) {
  int64_t o = N::shapeOf(w)[0];
  MLC_TRY(wZp, contractionZeroPoint(n, wZpIndex, w, o, {o, 1, 1, 1},
                                    "w_zero_point"));
  return n.emit<graph::Conv2DIntegerOp>({x, w, xZp, wZp}, attrs);
}

LogicalResult convertConvInteger(N &n) {
  Value x = n.input(0);
  MLC_TRY(xZp, contractionZeroPoint(n, 2, x, 1, {}, "x_zero_point"));
  return out(n, onnxConv(n, x, n.input(1),
                         [&](Value x2, Value w2, ArrayRef<NamedAttribute> a) {
                           return convInteger(n, x2, w2, xZp, 3, a);
                         }));
}

LogicalResult convertQLinearConv(N &n) {
  Value x = n.input(0);
  MLC_TRY(xScale, contractionParam(n, n.input(1), 1, {}, "x_scale"));
  MLC_TRY(xZp, contractionParam(n, n.input(2), 1, {}, "x_zero_point"));
  MLC_TRY(yScale, contractionParam(n, n.input(6), 1, {}, "y_scale"));
  MLC_TRY(yZp, contractionParam(n, n.input(7), 1, {}, "y_zero_point"));
  Value bias = n.input(8);
  auto emit = [&](Value x2, Value w2,
                  ArrayRef<NamedAttribute> attrs) -> FailureOr<Value> {
    int64_t o = N::shapeOf(w2)[0];
    MLC_TRY(acc, convInteger(n, x2, w2, xZp, 5, attrs));
    if (bias) {
      if (N::shapeOf(bias) != ArrayRef<int64_t>{o} ||
          !N::elementTypeOf(bias).isSignlessInteger(32))
        return n.error() << "B must be an int32 tensor of shape [" << o
                         << "], got " << N::typeOf(bias),
               failure();
      MLC_TRY(b3, reshape(n, bias, {o, 1, 1}));
      MLC_TRY(sum, binary<graph::AddOp>(n, acc, b3));
      acc = sum;
    }
    MLC_TRY(wScale, contractionParam(n, n.input(4), o, {o, 1, 1}, "w_scale"));
    MLC_TRY(scale, requantScale(n, xScale, wScale, yScale));
    return requantize(n, acc, scale, yZp);
  };
  return out(n, onnxConv(n, x, n.input(3), emit));
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"QuantizeLinear", 10, kMax, 2, "axis", convertQuantizeLinear,
     "int8/uint8; per-tensor, per-axis from opset 13"},
    {"DequantizeLinear", 10, kMax, 2, "axis", convertDequantizeLinear,
     "int8/uint8/int32; per-tensor, per-axis from opset 13"},
    {"DynamicQuantizeLinear", 11, kMax, 1, "", convertDynamicQuantizeLinear,
     "float input"},
    {"MatMulInteger", 10, kMax, 2, "", convertMatMulInteger,
     "int8/uint8; per-tensor, per-row and per-column zero points"},
    {"ConvInteger", 10, kMax, 2,
     "auto_pad,dilations,group,kernel_shape,pads,strides", convertConvInteger,
     "1-D and 2-D; per-tensor or per-channel filter zero point"},
    {"QLinearMatMul", 10, kMax, 8, "", convertQLinearMatMul,
     "int8/uint8; per-tensor, per-row and per-column scales"},
    {"QLinearConv", 10, kMax, 8,
     "auto_pad,dilations,group,kernel_shape,pads,strides", convertQLinearConv,
     "1-D and 2-D; per-tensor or per-channel filter scale"},
};

} // namespace

ArrayRef<OpConverter> getQuantizationConverters() { return kConverters; }

} // namespace mlc::frontend
