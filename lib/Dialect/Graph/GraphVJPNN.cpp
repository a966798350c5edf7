//===- GraphVJPNN.cpp - gradient rules of contractions, windows, norms ----===//
//
// VJPOpInterface rules of matmul, conv2d, pooling, the normalizations,
// softmax and the losses. maxpool2d routes each window's cotangent to the
// first maximum in row-major window order (as PyTorch); see docs/autodiff.md.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/VJPUtils.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlc::graph;

using P = ComparePredicate;

LogicalResult MatMulOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                 SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], a = getLhs(), b = getRhs();
  // Batch dims that broadcast are summed back by sumToShape.
  dxs.push_back(e.sumToShape(e.matmul(g, e.transposeLast2(b)), a.getType()));
  dxs.push_back(e.sumToShape(e.matmul(e.transposeLast2(a), g), b.getType()));
  return success();
}

LogicalResult Conv2DOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                 SmallVectorImpl<Value> &dxs) {
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  Value g = dys[0], x = getInput(), w = getFilter();
  ArrayRef<int64_t> s = getStrides(), p = getPads(), d = getDilations();
  int64_t groups = getGroups();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ws = tensorTypeOf(w).getShape();
  ArrayRef<int64_t> gs = tensorTypeOf(g).getShape();
  int64_t n = xs[0], o = ws[0], cg = ws[1];

  // Input: the transposed convolution of g. Rows of the padded input past
  // the last window (the stride remainder) get zeros: cropEnd shrinks.
  SmallVector<int64_t> cropBegin = {p[0], p[1]}, cropEnd;
  for (int i = 0; i < 2; ++i) {
    int64_t keff = (ws[2 + i] - 1) * d[i] + 1;
    int64_t rem = xs[2 + i] + p[i] + p[i + 2] - keff - (gs[2 + i] - 1) * s[i];
    cropEnd.push_back(p[i + 2] - rem);
  }
  dxs.push_back(buildConvTranspose2D(builder, loc, g, w, /*bias=*/nullptr, s, d,
                                     groups, cropBegin, cropEnd));

  // Filter: a convolution of x (batch <-> channels-per-group) with g as the
  // filter, strides and dilations swapped, then cut to the kernel size:
  // dw[o, c, i, j] = sum_{n, oh, ow} g[n, o, oh, ow] x[n, c', oh s + i d, ..].
  Value xt;
  if (groups == 1) {
    xt = e.transpose(x, {1, 0, 2, 3});
  } else {
    xt = e.reshape(x, {n, groups, cg, xs[2], xs[3]});
    xt = e.transpose(xt, {2, 1, 0, 3, 4});
    xt = e.reshape(xt, {cg, groups * n, xs[2], xs[3]});
  }
  Value gt = e.transpose(g, {1, 0, 2, 3});
  Value dw = Conv2DOp::create(builder, loc, xt, gt, /*bias=*/nullptr, d, p, s,
                              uint64_t(groups));
  ArrayRef<int64_t> dws = tensorTypeOf(dw).getShape();
  if (dws[2] != ws[2] || dws[3] != ws[3])
    dw = SliceOp::create(builder, loc, dw, ArrayRef<int64_t>{0, 0, 0, 0},
                         ArrayRef<int64_t>{cg, o, ws[2], ws[3]},
                         ArrayRef<int64_t>{1, 1, 1, 1});
  dxs.push_back(e.transpose(dw, {1, 0, 2, 3}));

  if (getBias())
    dxs.push_back(e.reduceSum(g, {0, 2, 3}, /*keepdims=*/false));
  return success();
}

namespace {
/// Strided windows of a pooling op: the slice of the padded input that holds
/// kernel offset (i, j) of every window, and its inverse.
struct Windows {
  ArrayRef<int64_t> s, d;
  SmallVector<int64_t> padded, out;

  SmallVector<int64_t> start(int64_t i, int64_t j) const {
    return {0, 0, i * d[0], j * d[1]};
  }
  Value slice(OpBuilder &b, Location loc, Value xp, int64_t i,
              int64_t j) const {
    SmallVector<int64_t> st = start(i, j);
    SmallVector<int64_t> ends = {out[0], out[1],
                                 st[2] + (out[2] - 1) * s[0] + 1,
                                 st[3] + (out[3] - 1) * s[1] + 1};
    return SliceOp::create(b, loc, xp, st, ends,
                           ArrayRef<int64_t>{1, 1, s[0], s[1]});
  }
  Value scatter(OpBuilder &b, Location loc, Value v, int64_t i,
                int64_t j) const {
    return scatterStrided(b, loc, v, start(i, j),
                          ArrayRef<int64_t>{1, 1, s[0], s[1]}, padded);
  }
};

Windows makeWindows(Value x, Value y, ArrayRef<int64_t> s, ArrayRef<int64_t> p,
                    ArrayRef<int64_t> d) {
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  Windows w{s, d, {}, {}};
  w.padded = {xs[0], xs[1], xs[2] + p[0] + p[2], xs[3] + p[1] + p[3]};
  w.out = SmallVector<int64_t>(tensorTypeOf(y).getShape());
  return w;
}

/// Removes pooling pads [t, l, b, r] from the spatial dims.
Value cropPads(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> p) {
  return padOrCrop(b, loc, v, {0, 0, -p[0], -p[1]}, {0, 0, -p[2], -p[3]});
}
} // namespace

LogicalResult MaxPool2DOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  Value g = dys[0], x = getInput(), y = getResult();
  ArrayRef<int64_t> k = getKernel(), p = getPads();
  Windows win = makeWindows(x, y, getStrides(), p, getDilations());
  Value xp = x;
  if (llvm::any_of(p, [](int64_t v) { return v != 0; }))
    xp = PadOp::create(builder, loc, x,
                       ArrayRef<int64_t>{0, 0, p[0], p[1], 0, 0, p[2], p[3]},
                       APFloat(-INFINITY));
  // Offsets in row-major order; an offset gets the cotangent where it holds
  // the maximum and no earlier offset did.
  Value found, acc;
  for (int64_t i = 0; i < k[0]; ++i) {
    for (int64_t j = 0; j < k[1]; ++j) {
      Value hit = e.cmp(P::eq, win.slice(builder, loc, xp, i, j), y);
      Value first = hit;
      if (found) {
        first = AndOp::create(builder, loc, hit,
                              NotOp::create(builder, loc, found));
        found = OrOp::create(builder, loc, found, hit);
      } else {
        found = hit;
      }
      Value placed = win.scatter(builder, loc, e.where(first, g), i, j);
      acc = acc ? e.add(acc, placed) : placed;
    }
  }
  dxs.push_back(cropPads(builder, loc, acc, p));
  return success();
}

LogicalResult AvgPool2DOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  Value g = dys[0], x = getInput(), y = getResult();
  ArrayRef<int64_t> k = getKernel(), s = getStrides(), p = getPads();
  int64_t ones[] = {1, 1};
  Windows win = makeWindows(x, y, s, p, ones);
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  Value share;
  if (getCountIncludePad()) {
    share = e.scale(g, 1.0 / double(k[0] * k[1]));
  } else {
    // Each window divides by its number of elements inside the input.
    auto inside = [&](int64_t pos, int dim) {
      int64_t first = pos * s[dim] - p[dim], n = 0;
      for (int64_t t = 0; t < k[dim]; ++t)
        n += first + t >= 0 && first + t < xs[2 + dim];
      return n;
    };
    SmallVector<double> counts;
    for (int64_t i = 0; i < win.out[2]; ++i)
      for (int64_t j = 0; j < win.out[3]; ++j)
        counts.push_back(double(inside(i, 0) * inside(j, 1)));
    Value count = floatConstant(builder, loc, tensorTypeOf(g).getElementType(),
                                {win.out[2], win.out[3]}, counts);
    share = e.div(g, count);
  }
  Value acc;
  for (int64_t i = 0; i < k[0]; ++i)
    for (int64_t j = 0; j < k[1]; ++j) {
      Value placed = win.scatter(builder, loc, share, i, j);
      acc = acc ? e.add(acc, placed) : placed;
    }
  dxs.push_back(cropPads(builder, loc, acc, p));
  return success();
}

LogicalResult GlobalAvgPoolOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                        SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  ArrayRef<int64_t> xs = tensorTypeOf(getInput()).getShape();
  dxs.push_back(
      e.broadcastTo(e.scale(dys[0], 1.0 / double(xs[2] * xs[3])), xs));
  return success();
}

namespace {
/// Shape [C, 1, ...] that broadcasts a per-channel vector over axis 1.
SmallVector<int64_t> channelShape(Value x) {
  auto type = tensorTypeOf(x);
  SmallVector<int64_t> shape(type.getRank() - 1, 1);
  shape[0] = type.getDimSize(1);
  return shape;
}
/// Every axis but the channel axis 1.
SmallVector<int64_t> nonChannelAxes(Value x) {
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < tensorTypeOf(x).getRank(); ++i)
    if (i != 1)
      axes.push_back(i);
  return axes;
}
} // namespace

LogicalResult BatchNormOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  // Inference form: mean and variance are inputs, so every operand is an
  // independent leaf.
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], x = getInput(), scale = getScale(), mean = getMean(),
        var = getVariance();
  SmallVector<int64_t> cs = channelShape(x), axes = nonChannelAxes(x);
  double eps = getEpsilonAttr().getValueAsDouble();
  Value inv = e.rsqrt(e.add(var, e.scalar(var, eps)));
  Value k = e.mul(scale, inv);
  Value xc = e.sub(x, e.reshape(mean, cs));
  Value sg = e.reduceSum(g, axes, false);
  Value sgx = e.reduceSum(e.mul(g, xc), axes, false);
  dxs.push_back(e.mul(g, e.reshape(k, cs)));
  dxs.push_back(e.mul(sgx, inv));
  dxs.push_back(sg);
  dxs.push_back(e.neg(e.mul(sg, k)));
  // d inv / d var = -1/2 inv^3.
  dxs.push_back(
      e.mul(e.scale(e.mul(sgx, scale), -0.5), e.mul(inv, e.mul(inv, inv))));
  return success();
}

LogicalResult BatchNormTrainOp::buildVJP(OpBuilder &builder,
                                         ArrayRef<Value> dys,
                                         SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value x = getInput(), scale = getScale(), mean = getMean(),
        var = getVariance();
  SmallVector<int64_t> cs = channelShape(x), axes = nonChannelAxes(x);
  auto xs = tensorTypeOf(x);
  double m = double(xs.getNumElements() / xs.getDimSize(1));
  double eps = getEpsilonAttr().getValueAsDouble();
  // The saved batch statistics, not recomputed.
  Value inv = e.rsqrt(e.add(var, e.scalar(var, eps)));
  Value xc = e.sub(x, e.reshape(mean, cs));
  Value dx, dscale, dbias;
  if (Value g = dys[0]) {
    Value xhat = e.mul(xc, e.reshape(inv, cs));
    Value sg = e.reduceSum(g, axes, false);
    Value sgx = e.reduceSum(e.mul(g, xhat), axes, false);
    dbias = sg;
    dscale = sgx;
    // dx = scale inv (g - mean(g) - xhat mean(g xhat)).
    Value centered = e.sub(e.sub(g, e.reshape(e.scale(sg, 1.0 / m), cs)),
                           e.mul(xhat, e.reshape(e.scale(sgx, 1.0 / m), cs)));
    dx = e.mul(centered, e.reshape(e.mul(scale, inv), cs));
  }
  // The statistics' own cotangents (running-average updates normally stop
  // them): d mean / dx = 1/m, d var / dx = 2 (x - mean) / m.
  auto accumulate = [&](Value v) { dx = dx ? e.add(dx, v) : v; };
  if (Value dmean = dys[1])
    accumulate(
        e.broadcastTo(e.reshape(e.scale(dmean, 1.0 / m), cs), xs.getShape()));
  if (Value dvar = dys[2])
    accumulate(e.mul(xc, e.reshape(e.scale(dvar, 2.0 / m), cs)));
  dxs.push_back(dx);
  dxs.push_back(dscale);
  dxs.push_back(dbias);
  return success();
}

LogicalResult LayerNormOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], x = getInput(), scale = getScale();
  int64_t rank = tensorTypeOf(x).getRank();
  SmallVector<int64_t> axes(rank - int64_t(getAxis()));
  std::iota(axes.begin(), axes.end(), int64_t(getAxis()));
  double eps = getEpsilonAttr().getValueAsDouble();
  // Statistics recomputed as the forward op computes them.
  Value xc = e.sub(x, e.reduceMean(x, axes, true));
  Value var = e.reduceMean(e.mul(xc, xc), axes, true);
  Value rstd = e.rsqrt(e.add(var, e.scalar(var, eps)));
  Value xhat = e.mul(xc, rstd);
  Value dxhat = e.mul(g, scale);
  Value inner =
      e.sub(e.sub(dxhat, e.reduceMean(dxhat, axes, true)),
            e.mul(xhat, e.reduceMean(e.mul(dxhat, xhat), axes, true)));
  dxs.push_back(e.mul(rstd, inner));
  dxs.push_back(e.sumToShape(e.mul(g, xhat), scale.getType()));
  dxs.push_back(e.sumToShape(g, getBias().getType()));
  return success();
}

LogicalResult SoftmaxOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                  SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], y = getResult();
  int64_t axis = getAxis();
  Value dot = e.reduceSum(e.mul(g, y), {axis}, true);
  dxs.push_back(e.mul(y, e.sub(g, dot)));
  return success();
}

LogicalResult LogSoftmaxOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                     SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], y = getResult();
  int64_t axis = getAxis();
  Value sum = e.reduceSum(g, {axis}, true);
  dxs.push_back(e.sub(g, e.mul(e.exp(y), sum)));
  return success();
}

LogicalResult SoftmaxCrossEntropyOp::buildVJP(OpBuilder &builder,
                                              ArrayRef<Value> dys,
                                              SmallVectorImpl<Value> &dxs) {
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  Value g = dys[0], logits = getLogits();
  auto type = tensorTypeOf(logits);
  int64_t n = type.getDimSize(0), c = type.getDimSize(1);
  Value probs = SoftmaxOp::create(builder, loc, logits, uint64_t(1));
  Value labels = normalizeIndices(builder, loc, getLabels(), c);
  Value target =
      e.cast(oneHotMask(builder, loc, labels, c, 1), type.getElementType());
  // (softmax - onehot) * dL / N.
  dxs.push_back(e.mul(e.sub(probs, target), e.scale(g, 1.0 / double(n))));
  dxs.push_back(nullptr);
  return success();
}

LogicalResult MSELossOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                  SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  Value g = dys[0], pred = getPrediction(), target = getTarget();
  double numel = double(tensorTypeOf(pred).getNumElements());
  Value d = e.mul(e.sub(pred, target), e.scale(g, 2.0 / numel));
  dxs.push_back(d);
  dxs.push_back(e.neg(d));
  return success();
}
