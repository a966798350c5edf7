//===- ONNXConstants.cpp - ONNX converters: constants
//-----------------------===//
//
// The converters that produce values known at import time: shape queries,
// constants, ranges, identity and one-hot tensors, triangular masks and
// signal windows, and their rows of the converter table (getONNXConverters,
// docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <cmath>

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Shapes, constants and generated tensors
//===----------------------------------------------------------------------===//

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
    return out(n, n.empty({0}, n.b.getI64Type()));
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
    return n.unsupported("dtype " + onnx::dataTypeName(t->dataType));
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
    if (d < 0)
      return n.error() << "shape has a negative dimension " << d, failure();
  const onnx::Attribute *a = n.getAttr("value");
  if (llvm::is_contained(shape, 0)) {
    Type elt = a ? onnxElementType(n.ctx, a->t.dataType) : n.b.getF32Type();
    if (!elt)
      return n.unsupported("dtype " + onnx::dataTypeName(a->t.dataType));
    return out(n, n.empty(shape, elt));
  }
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
      return out(n, n.empty(t.dims, elt));
    auto type = RankedTensorType::get(t.dims, elt);
    n.setOutput(0, graph::ConstantOp::create(
                       n.b, n.loc,
                       makeWeightAttr(
                           type, ArrayRef<char>(t.data.data(), t.data.size()),
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
    auto type = RankedTensorType::get({int64_t(vals.size())}, n.b.getF32Type());
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
    return out(n, n.empty({0}, elt));
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
  MLC_TRY(isNeg, compare(n, Pred::lt, idx, n.scalarLike(idx, 0)));
  MLC_TRY(wrapped, addScalar(n, idx, double(depth)));
  MLC_TRY(norm, select(n, isNeg, wrapped, idx));
  SmallVector<int64_t> ishape(N::shapeOf(indices));
  ishape.insert(ishape.begin() + axis, 1);
  MLC_TRY(idxE, reshape(n, norm, ishape));
  SmallVector<int64_t> rshape(outRank, 1);
  rshape[axis] = depth;
  MLC_TRY(hot, compare(n, Pred::eq, idxE, n.i64Constant(iota(depth), rshape)));
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
  MLC_TRY(keep, compare(n, upper ? Pred::ge : Pred::le, d, k));
  return out(n, select(n, keep, x, n.scalarLike(x, 0)));
}

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

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

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
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
    {"HannWindow", 17, kMax, 1, "output_datatype,periodic", convertHannWindow,
     "size must be constant"},
    {"HammingWindow", 17, kMax, 1, "output_datatype,periodic",
     convertHammingWindow, "size must be constant"},
    {"BlackmanWindow", 17, kMax, 1, "output_datatype,periodic",
     convertBlackmanWindow, "size must be constant"},
};

} // namespace

ArrayRef<OpConverter> getConstantConverters() { return kConverters; }

} // namespace mlc::frontend
