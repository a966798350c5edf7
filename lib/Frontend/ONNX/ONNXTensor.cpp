//===- ONNXTensor.cpp - ONNX converters: tensors
//----------------------------===//
//
// The converters for shapes, data movement, indexing, Einsum and constant
// generators, and their rows of the converter table (getONNXConverters,
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
                         << " is 0 (copy) but the input has rank " << in.size(),
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
  return out(
      n, reshape(n, x,
                 {product(s.take_front(axis)), product(s.drop_front(axis))}));
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
        return n.error() << "cannot squeeze axis " << a << " of size " << s[a],
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
      return n.unsupported("zero-size result");
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
  return out(n, n.emit("gather_elements", {x, idx}, {n.i64Attr("axis", axis)}));
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
    return n.error() << "repeats has " << repeats.size() << " entries for rank "
                     << N::rankOf(x),
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
    return n.unsupported("reduction '" + r + "'");
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
  Value earlier =
      n.constant(RankedTensorType::get({len, len}, n.b.getI1Type()), before);
  MLC_TRY(tie, binary(n, "and", same, earlier));
  MLC_TRY(ahead, binary(n, "or", beats, tie));
  MLC_TRY(ahead64, castTo(n, ahead, n.b.getI64Type()));
  MLC_TRY(pos,
          reduce(n, "reduce_sum", ahead64, {int64_t(base.size()) + 1}, true));
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
  if (shape.size() < 2 ||
      !((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
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
  return out(
      n, n.emit("gather_elements", {x, idx}, {n.i64Attr("axis", timeAxis)}));
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"Reshape", 1, kMax, 1, "shape,allowzero", convertReshape,
     "shape must be constant"},
    {"Flatten", 1, kMax, 1, "axis", convertFlatten, ""},
    {"Squeeze", 1, kMax, 1, "axes", convertSqueeze, "axes must be constant"},
    {"Unsqueeze", 1, kMax, 1, "axes", convertUnsqueeze,
     "axes must be constant"},
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
    {"GatherND", 11, kMax, 2, "batch_dims", convertGatherND, ""},
    {"ScatterElements", 11, kMax, 3, "axis,reduction", convertScatterElements,
     "reduction none/add/mul; updates span the data off the axis"},
    {"Scatter", 9, 10, 3, "axis", convertScatterElements, "as ScatterElements"},
    {"ScatterND", 11, kMax, 3, "reduction", convertScatterND,
     "reduction none/add/mul"},
    {"TopK", 1, kMax, 1, "axis,k,largest,sorted", convertTopK,
     "K must be constant; always sorted; NaN inputs unspecified"},
};

} // namespace

ArrayRef<OpConverter> getTensorConverters() { return kConverters; }

} // namespace mlc::frontend
