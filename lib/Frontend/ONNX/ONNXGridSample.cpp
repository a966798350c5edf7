//===- ONNXGridSample.cpp - GridSample as taps gathered per output --------===//
//
// GridSample (opset 16, 4-D): output[n, c, i, j] interpolates X[n, c] at the
// point grid[n, i, j] = (x, y), normalized to [-1, 1]. The points are run-time
// data, so each interpolation tap (4 for bilinear, 1 for nearest, 16 for
// bicubic) is a gather of X flattened to [N, C, H * W] at the tap's linear
// index, times the tap's weight, which is zeroed where the tap falls outside
// the image. The source coordinates follow PyTorch's grid_sample (whose
// outputs ONNX's tests hold): unnormalized by align_corners; padding_mode
// border clamps and reflection reflects the coordinate (bicubic: each tap's).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

using namespace mlir;

namespace mlc::frontend {

namespace {

constexpr int64_t kMax = kMaxONNXOpset;

/// Elementwise helpers on [N, Ho, Wo] float coordinates.
struct Coords {
  N &n;
  FailureOr<Value> add(Value a, Value b) {
    return binary<graph::AddOp>(n, a, b);
  }
  FailureOr<Value> sub(Value a, Value b) {
    return binary<graph::SubOp>(n, a, b);
  }
  FailureOr<Value> mul(Value a, Value b) {
    return binary<graph::MulOp>(n, a, b);
  }
  Value c(Value like, double v) { return n.scalarLike(like, v); }
  FailureOr<Value> clip(Value x, double lo, double hi) {
    MLC_TRY(a, binary<graph::MaxOp>(n, x, c(x, lo)));
    return binary<graph::MinOp>(n, a, c(x, hi));
  }
  /// x reflected into [lo, hi] (PyTorch's reflect_coordinates).
  FailureOr<Value> reflect(Value x, double lo, double hi) {
    double span = hi - lo;
    if (span <= 0)
      return mul(x, c(x, 0.0));
    MLC_TRY(d, addScalar(n, x, -lo));
    MLC_TRY(a, unary<graph::AbsOp>(n, d));
    MLC_TRY(q, scale(n, a, 1.0 / span));
    MLC_TRY(flips, unary<graph::FloorOp>(n, q));
    MLC_TRY(fs, scale(n, flips, span));
    MLC_TRY(extra, sub(a, fs));
    MLC_TRY(half, scale(n, flips, 0.5));
    MLC_TRY(halfFloor, unary<graph::FloorOp>(n, half));
    MLC_TRY(odd, sub(half, halfFloor)); // 0 for an even number of flips
    MLC_TRY(even, compare(n, Pred::eq, odd, c(odd, 0.0)));
    MLC_TRY(up, addScalar(n, extra, lo));
    MLC_TRY(negExtra, scale(n, extra, -1.0));
    MLC_TRY(down, addScalar(n, negExtra, span + lo));
    return select(n, even, up, down);
  }
};

LogicalResult convertGridSample(N &n) {
  Value x = n.input(0), grid = n.input(1);
  MLC_TRY(mode, n.getString("mode", std::string("bilinear")));
  MLC_TRY(padding, n.getString("padding_mode", std::string("zeros")));
  MLC_TRY(alignCorners, n.getInt("align_corners", 0));
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    return n.unsupported("mode '" + mode + "'");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return n.unsupported("padding_mode '" + padding + "'");
  if (N::rankOf(x) != 4)
    return n.unsupported(Twine(N::rankOf(x) - 2) + "-D input");
  ArrayRef<int64_t> xs = N::shapeOf(x), gs = N::shapeOf(grid);
  if (N::rankOf(grid) != 4 || gs[0] != xs[0] || gs[3] != 2)
    return n.error() << "grid must have shape [" << xs[0] << ", H_out, W_out, "
                     << "2], got " << shapeString(gs);
  Type ft = N::elementTypeOf(x);
  if (!isa<FloatType>(ft) || N::elementTypeOf(grid) != ft)
    return n.error() << "X and grid must have the same float element type";
  int64_t nb = xs[0], ch = xs[1], h = xs[2], w = xs[3], ho = gs[1], wo = gs[2];
  Coords k{n};

  // Source coordinates, [N, Ho, Wo] each.
  auto source = [&](int64_t comp, int64_t size) -> FailureOr<Value> {
    MLC_TRY(g, sliceAxis(n, grid, 3, comp, comp + 1));
    MLC_TRY(g3, reshape(n, g, {nb, ho, wo}));
    double s = alignCorners ? (size - 1) / 2.0 : size / 2.0;
    MLC_TRY(scaled, scale(n, g3, s));
    return addScalar(n, scaled, (size - 1) / 2.0);
  };
  auto pad = [&](Value v, int64_t size) -> FailureOr<Value> {
    if (padding == "border")
      return k.clip(v, 0, size - 1);
    if (padding == "reflection") {
      MLC_TRY(r, alignCorners ? k.reflect(v, 0, size - 1)
                              : k.reflect(v, -0.5, size - 0.5));
      return k.clip(r, 0, size - 1);
    }
    return v;
  };
  MLC_TRY(sx, source(0, w));
  MLC_TRY(sy, source(1, h));
  if (mode != "bicubic") {
    MLC_TRY(px, pad(sx, w));
    MLC_TRY(py, pad(sy, h));
    sx = px;
    sy = py;
  }

  MLC_TRY(flatX, reshape(n, x, {nb, ch, h * w}));
  Value acc;
  // Adds X at integer-valued coordinates (tx, ty) times `weight`; taps
  // outside the image count zero.
  auto tap = [&](Value tx, Value ty, Value weight) -> LogicalResult {
    MLC_TRY(geX0, compare(n, Pred::ge, tx, k.c(tx, 0)));
    MLC_TRY(leX1, compare(n, Pred::le, tx, k.c(tx, w - 1)));
    MLC_TRY(geY0, compare(n, Pred::ge, ty, k.c(ty, 0)));
    MLC_TRY(leY1, compare(n, Pred::le, ty, k.c(ty, h - 1)));
    MLC_TRY(inX, binary<graph::AndOp>(n, geX0, leX1));
    MLC_TRY(inY, binary<graph::AndOp>(n, geY0, leY1));
    MLC_TRY(inside, binary<graph::AndOp>(n, inX, inY));
    MLC_TRY(cx, k.clip(tx, 0, w - 1));
    MLC_TRY(cy, k.clip(ty, 0, h - 1));
    MLC_TRY(row, scale(n, cy, double(w)));
    MLC_TRY(linear, k.add(row, cx));
    MLC_TRY(idx, castTo(n, linear, n.b.getI64Type()));
    MLC_TRY(idx3, reshape(n, idx, {nb, 1, ho * wo}));
    MLC_TRY(idxC, n.emit<graph::BroadcastToOp>(
                      {idx3}, {n.arrayAttr("shape", {nb, ch, ho * wo})}));
    MLC_TRY(vals, n.emit<graph::GatherElementsOp>({flatX, idxC},
                                                  {n.i64Attr("axis", 2)}));
    MLC_TRY(vals4, reshape(n, vals, {nb, ch, ho, wo}));
    MLC_TRY(wt, select(n, inside, weight, k.c(weight, 0)));
    MLC_TRY(wt4, reshape(n, wt, {nb, 1, ho, wo}));
    MLC_TRY(term, k.mul(vals4, wt4));
    if (!acc) {
      acc = term;
      return success();
    }
    MLC_TRY(sum, k.add(acc, term));
    acc = sum;
    return success();
  };

  if (mode == "nearest") {
    MLC_TRY(rx, unary<graph::RoundOp>(n, sx));
    MLC_TRY(ry, unary<graph::RoundOp>(n, sy));
    if (failed(tap(rx, ry, k.c(rx, 1.0))))
      return failure();
    return out(n, acc);
  }
  MLC_TRY(x0, unary<graph::FloorOp>(n, sx));
  MLC_TRY(y0, unary<graph::FloorOp>(n, sy));
  MLC_TRY(tx, k.sub(sx, x0)); // fractional parts
  MLC_TRY(ty, k.sub(sy, y0));
  if (mode == "bilinear") {
    MLC_TRY(x1, addScalar(n, x0, 1));
    MLC_TRY(y1, addScalar(n, y0, 1));
    MLC_TRY(ntx, scale(n, tx, -1));
    MLC_TRY(wx0, addScalar(n, ntx, 1));
    MLC_TRY(nty, scale(n, ty, -1));
    MLC_TRY(wy0, addScalar(n, nty, 1));
    Value xsTaps[] = {x0, x1}, ysTaps[] = {y0, y1};
    Value wx[] = {wx0, tx}, wy[] = {wy0, ty};
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        MLC_TRY(wgt, k.mul(wx[i], wy[j]));
        if (failed(tap(xsTaps[i], ysTaps[j], wgt)))
          return failure();
      }
    return out(n, acc);
  }
  // Bicubic: taps floor - 1 .. floor + 2 with the cubic convolution
  // weights (A = -0.75); padding applies to each tap's coordinate.
  auto cubicWeights = [&](Value t) -> FailureOr<SmallVector<Value>> {
    constexpr double a = -0.75;
    // |d| <= 1: (a+2)|d|^3 - (a+3)|d|^2 + 1; 1 < |d| < 2:
    // a|d|^3 - 5a|d|^2 + 8a|d| - 4a; the taps sit at d = t+1, t, 1-t, 2-t.
    auto near = [&](Value d) -> FailureOr<Value> {
      MLC_TRY(p, scale(n, d, a + 2));
      MLC_TRY(q, addScalar(n, p, -(a + 3)));
      MLC_TRY(dd, k.mul(d, d));
      MLC_TRY(r, k.mul(q, dd));
      return addScalar(n, r, 1);
    };
    auto far = [&](Value d) -> FailureOr<Value> {
      MLC_TRY(p, scale(n, d, a));
      MLC_TRY(q, addScalar(n, p, -5 * a));
      MLC_TRY(r, k.mul(q, d));
      MLC_TRY(s, addScalar(n, r, 8 * a));
      MLC_TRY(u, k.mul(s, d));
      return addScalar(n, u, -4 * a);
    };
    MLC_TRY(t1, addScalar(n, t, 1));
    MLC_TRY(nt, scale(n, t, -1));
    MLC_TRY(omt, addScalar(n, nt, 1));
    MLC_TRY(tmt, addScalar(n, nt, 2));
    MLC_TRY(w0, far(t1));
    MLC_TRY(w1, near(t));
    MLC_TRY(w2, near(omt));
    MLC_TRY(w3, far(tmt));
    return SmallVector<Value>{w0, w1, w2, w3};
  };
  MLC_TRY(wx, cubicWeights(tx));
  MLC_TRY(wy, cubicWeights(ty));
  SmallVector<Value> xt, yt;
  for (int i = 0; i < 4; ++i) {
    MLC_TRY(cx, addScalar(n, x0, i - 1));
    MLC_TRY(px, pad(cx, w));
    xt.push_back(px);
    MLC_TRY(cy, addScalar(n, y0, i - 1));
    MLC_TRY(py, pad(cy, h));
    yt.push_back(py);
  }
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      MLC_TRY(wgt, k.mul(wx[i], wy[j]));
      if (failed(tap(xt[i], yt[j], wgt)))
        return failure();
    }
  return out(n, acc);
}

const OpConverter kConverters[] = {
    {"GridSample", 16, kMax, 2, "align_corners,mode,padding_mode",
     convertGridSample,
     "4-D; each tap a gather of the flattened image (bilinear 4, nearest 1, "
     "bicubic 16)"},
};

} // namespace

ArrayRef<OpConverter> getGridSampleConverters() { return kConverters; }

} // namespace mlc::frontend
