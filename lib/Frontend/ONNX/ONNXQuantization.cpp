//===- ONNXQuantization.cpp - QuantizeLinear, DequantizeLinear, ... -------===//
//
// Per-tensor and per-axis (de)quantization map onto graph.quantize and
// graph.dequantize, whose scale and zero point broadcast: a per-axis one is
// reshaped to the input's rank with its length at the axis.
// DynamicQuantizeLinear is composed from reductions and graph.quantize.
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"
#include "ONNXImporter.h"

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

LogicalResult checkScale(N &n, Value scale) {
  if (!isa<FloatType>(N::elementTypeOf(scale)))
    return n.error() << "scale must be a float tensor, got "
                     << N::typeOf(scale);
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

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"QuantizeLinear", 10, kMax, 2, "axis", convertQuantizeLinear,
     "int8/uint8; per-tensor, per-axis from opset 13"},
    {"DequantizeLinear", 10, kMax, 2, "axis", convertDequantizeLinear,
     "int8/uint8/int32; per-tensor, per-axis from opset 13"},
    {"DynamicQuantizeLinear", 11, kMax, 1, "", convertDynamicQuantizeLinear,
     "float input"},
};

} // namespace

ArrayRef<OpConverter> getQuantizationConverters() { return kConverters; }

} // namespace mlc::frontend
