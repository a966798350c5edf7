//===- GraphVJPUpsampling.cpp - gradient rules of resize, conv_transpose --===//
//
// graph.resize is linear in its input and in each weight table. The input's
// cotangent applies each axis' interpolation transposed, as a dense
// [out, in] matrix built from the tables (they are constants in imported
// models, so the matrices fold); a backward pass is no hot path for
// inference, and this keeps the rule to existing ops. The transposed
// convolution's input gradient is a strided conv2d with the same filter.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/VJPUtils.h"

using namespace mlir;
using namespace mlc::graph;

namespace {

/// M[o, i] = sum_t w[t, o] * [clamp(idx[t, o]) == i]: one axis of a resize
/// as a matrix.
Value interpolationMatrix(OpBuilder &b, Location loc, Value idx, Value w,
                          int64_t inSize) {
  VJPBuilder e(b, loc);
  Type it = tensorTypeOf(idx).getElementType();
  auto c = [&](int64_t v) { return splatConstant(b, loc, it, {}, v); };
  idx = MaxOp::create(b, loc, MinOp::create(b, loc, idx, c(inSize - 1)), c(0));
  Value onehot = e.cast(oneHotMask(b, loc, idx, inSize, 2),
                        tensorTypeOf(w).getElementType());
  ArrayRef<int64_t> ws = tensorTypeOf(w).getShape();
  Value weighted = e.mul(onehot, e.reshape(w, {ws[0], ws[1], 1}));
  return e.reduceSum(weighted, {0}, /*keepdims=*/false);
}

/// g'[.., i, ..] = sum_o m[o, i] * g[.., o, ..] along `axis`.
Value contractAxis(VJPBuilder &e, Value g, Value m, int64_t axis) {
  ArrayRef<int64_t> gs = tensorTypeOf(g).getShape();
  int64_t rank = gs.size(), in = tensorTypeOf(m).getDimSize(1);
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  SmallVector<int64_t> inverse(rank);
  for (int64_t i = 0; i < rank; ++i)
    inverse[perm[i]] = i;
  Value t = e.transpose(g, perm);
  if (rank == 1)
    t = e.reshape(t, {1, gs[0]});
  Value p = e.matmul(t, m);
  if (rank == 1)
    return e.reshape(p, {in});
  return e.transpose(p, inverse);
}

} // namespace

LogicalResult ResizeOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                 SmallVectorImpl<Value> &dxs) {
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  Value g = dys[0], x = getInput();
  ArrayRef<int64_t> axes = getAxes();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  int64_t rank = xs.size();

  // Input: the axes' matrices transposed (they act on different axes, so
  // the order does not matter).
  Value dx = g;
  for (auto [k, axis] : llvm::enumerate(axes))
    dx = contractAxis(e, dx,
                      interpolationMatrix(builder, loc, getIndices()[k],
                                          getWeights()[k], xs[axis]),
                      axis);
  dxs.push_back(dx);
  dxs.append(axes.size(), nullptr); // index tables

  // Weights of axis k, tap t: the resize with that axis reduced to tap t of
  // weight 1, times g, summed over every other dim.
  for (auto [k, axis] : llvm::enumerate(axes)) {
    Value idx = getIndices()[k], w = getWeights()[k];
    ArrayRef<int64_t> ts = tensorTypeOf(w).getShape();
    SmallVector<int64_t> others;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        others.push_back(d);
    Value ones = splatConstant(builder, loc, tensorTypeOf(w).getElementType(),
                               {1, ts[1]}, 1.0);
    SmallVector<Value> rows;
    for (int64_t t = 0; t < ts[0]; ++t) {
      SmallVector<Value> indices(getIndices()), weights(getWeights());
      indices[k] = e.sliceAxis(idx, 0, t, t + 1);
      weights[k] = ones;
      Value part = ResizeOp::create(builder, loc, x, indices, weights, axes);
      Value dw = e.mul(g, part);
      if (!others.empty())
        dw = e.reduceSum(dw, others, /*keepdims=*/false);
      rows.push_back(e.reshape(dw, {1, ts[1]}));
    }
    dxs.push_back(rows.size() == 1
                      ? rows[0]
                      : ConcatOp::create(builder, loc, rows, uint64_t(0)));
  }
  return success();
}

LogicalResult ConvTranspose2DOp::buildVJP(OpBuilder &builder,
                                          ArrayRef<Value> dys,
                                          SmallVectorImpl<Value> &dxs) {
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  Value g = dys[0], x = getInput(), w = getFilter();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ws = tensorTypeOf(w).getShape();
  int64_t n = xs[0], ci = xs[1], h = xs[2], wd = xs[3];
  int64_t co = ws[1], kh = ws[2], kw = ws[3];
  // dx[n, ci, h, w] = sum_{co, i, j} g[n, co, h*KH + i, w*KW + j] f[ci, co,
  // i, j]: the strided convolution with f read as an [O, C, KH, KW] filter.
  dxs.push_back(Conv2DOp::create(builder, loc, g, w, /*bias=*/nullptr,
                                 getStrides(), ArrayRef<int64_t>{0, 0, 0, 0},
                                 ArrayRef<int64_t>{1, 1}, uint64_t(1)));
  // df[ci, (co, i, j)] = sum_{n, h, w} x[ci, (n, h, w)] g[(n, h, w), (co, i,
  // j)]: one matmul after moving the window offsets next to co.
  Value g6 = e.reshape(g, {n, co, h, kh, wd, kw});
  Value gm = e.reshape(e.transpose(g6, {0, 2, 4, 1, 3, 5}),
                       {n * h * wd, co * kh * kw});
  Value xm = e.reshape(e.transpose(x, {1, 0, 2, 3}), {ci, n * h * wd});
  dxs.push_back(e.reshape(e.matmul(xm, gm), ws));
  if (getBias())
    dxs.push_back(e.reduceSum(g, {0, 2, 3}, /*keepdims=*/false));
  return success();
}
