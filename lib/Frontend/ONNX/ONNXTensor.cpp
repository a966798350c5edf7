//===- ONNXTensor.cpp - ONNX converters: shapes and data movement ---------===//
//
// The converters for reshapes, transposes, concatenation, splits, slices,
// gathers, expansion, tiling, padding and depth/space rearrangement, and
// their rows of the converter table (getONNXConverters,
// docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

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
  return out(n, n.emit<graph::TransposeOp>({x}, {n.arrayAttr("perm", perm)}));
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
    MLC_TRY(v, n.emit<graph::SliceOp>({r}, {n.arrayAttr("starts", s),
                                            n.arrayAttr("ends", e),
                                            n.arrayAttr("steps", st)}));
    r = v;
  }
  for (auto &[ax, idx] : reversed) {
    if (idx.empty()) {
      SmallVector<int64_t> shape(N::shapeOf(r));
      shape[ax] = 0;
      return out(n, n.empty(shape, N::elementTypeOf(r)));
    }
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
  return out(n, n.emit<graph::GatherOp>({x, idx}, {n.i64Attr("axis", axis)}));
}

LogicalResult convertGatherElements(N &n) {
  Value x = n.input(0), idx = n.input(1);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  return out(
      n, n.emit<graph::GatherElementsOp>({x, idx}, {n.i64Attr("axis", axis)}));
}

LogicalResult convertExpand(N &n) {
  MLC_TRY(shape, n.constantInts(1, "shape"));
  Value x = n.input(0);
  return out(n,
             n.emit<graph::BroadcastToOp>({x}, {n.arrayAttr("shape", shape)}));
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
    {"DepthToSpace", 1, kMax, 1, "blocksize,mode", convertDepthToSpace, ""},
    {"SpaceToDepth", 1, kMax, 1, "blocksize", convertSpaceToDepth, ""},
};

} // namespace

ArrayRef<OpConverter> getTensorConverters() { return kConverters; }

} // namespace mlc::frontend
