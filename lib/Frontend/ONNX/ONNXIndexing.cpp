//===- ONNXIndexing.cpp - ONNX converters: indexing
//-------------------------===//
//
// The converters of index-driven ops without data-dependent shapes
// (GatherND, the scatters, TopK) and of selection (Compress,
// ReverseSequence), and their rows of the converter table
// (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Index-driven ops without data-dependent shapes: GatherND, the scatters, TopK
//===----------------------------------------------------------------------===//

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
  MLC_TRY(neg, compare(n, Pred::lt, idx, n.scalarLike(idx, 0)));
  MLC_TRY(wrapped, binary<graph::AddOp>(n, idx, dimsC));
  MLC_TRY(norm, select(n, neg, wrapped, idx));
  MLC_TRY(scaled, binary<graph::MulOp>(n, norm, n.i64Constant(strides, {k})));
  MLC_TRY(lin,
          reduce<graph::ReduceSumOp>(n, scaled, {N::rankOf(idx) - 1}, false));
  if (!base)
    return lin;
  return binary<graph::AddOp>(n, lin, base);
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
  return out(n, n.emit<graph::GatherOp>({df, lin}, {n.i64Attr("axis", 0)}));
}

/// Combines the updates selected by a one-hot mask `hot` [..., T, U] (T
/// target positions, U updates; `upd` broadcasts to it) into `data` [...,
/// T] following `reduction`.
FailureOr<Value> scatterCombine(N &n, Value data, Value hot, Value upd,
                                StringRef reduction, int64_t updAxis) {
  if (reduction == "mul") {
    MLC_TRY(f, select(n, hot, upd, n.scalarLike(upd, 1)));
    MLC_TRY(p, reduce<graph::ReduceProdOp>(n, f, {updAxis}, false));
    return binary<graph::MulOp>(n, data, p);
  }
  MLC_TRY(f, select(n, hot, upd, n.scalarLike(upd, 0)));
  MLC_TRY(sum, reduce<graph::ReduceSumOp>(n, f, {updAxis}, false));
  if (reduction == "add")
    return binary<graph::AddOp>(n, data, sum);
  // none: positions hit take the update (duplicates are undefined in ONNX).
  MLC_TRY(hits, castTo(n, hot, n.b.getI32Type()));
  MLC_TRY(count, reduce<graph::ReduceSumOp>(n, hits, {updAxis}, false));
  MLC_TRY(any, compare(n, Pred::gt, count, n.scalarLike(count, 0)));
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
  MLC_TRY(neg, compare(n, Pred::lt, i64, n.scalarLike(i64, 0)));
  MLC_TRY(wrapped, addScalar(n, i64, double(t)));
  MLC_TRY(idx, select(n, neg, wrapped, i64));
  // hot[..., t, u] = idx[..., u] == t
  SmallVector<int64_t> ishape(N::shapeOf(idx));
  ishape.insert(ishape.end() - 1, 1);
  MLC_TRY(ie, reshape(n, idx, ishape));
  SmallVector<int64_t> tshape(rank + 1, 1);
  tshape[rank - 1] = t;
  MLC_TRY(hot, compare(n, Pred::eq, ie, n.i64Constant(iota(t), tshape)));
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
  MLC_TRY(hot2, compare(n, Pred::eq, linFlat,
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
  MLC_TRY(beats, compare(n, largest ? Pred::gt : Pred::lt, xj, xi));
  MLC_TRY(same, compare(n, Pred::eq, xj, xi));
  SmallVector<double> before;
  for (int64_t i = 0; i < len; ++i)
    for (int64_t j = 0; j < len; ++j)
      before.push_back(j < i);
  Value earlier =
      n.constant(RankedTensorType::get({len, len}, n.b.getI1Type()), before);
  MLC_TRY(tie, binary<graph::AndOp>(n, same, earlier));
  MLC_TRY(ahead, binary<graph::OrOp>(n, beats, tie));
  MLC_TRY(ahead64, castTo(n, ahead, n.b.getI64Type()));
  MLC_TRY(pos, reduce<graph::ReduceSumOp>(n, ahead64,
                                          {int64_t(base.size()) + 1}, true));
  // pos: [..., len, 1] -> [..., 1, len]; pick[..., r, i] = pos[i] == r.
  MLC_TRY(posRow, reshape(n, pos, rowShape));
  SmallVector<int64_t> kShape(base.size(), 1);
  kShape.append({k, 1});
  MLC_TRY(pick, compare(n, Pred::eq, posRow, n.i64Constant(iota(k), kShape)));
  MLC_TRY(vals, select(n, pick, xj, n.scalarLike(x, 0)));
  int64_t last = base.size() + 1;
  MLC_TRY(v, reduce<graph::ReduceSumOp>(n, vals, {last}, false));
  SmallVector<int64_t> iShape(base.size(), 1);
  iShape.append({1, len});
  MLC_TRY(ids, select(n, pick, n.i64Constant(iota(len), iShape),
                      n.i64Constant({0}, {})));
  MLC_TRY(ix, reduce<graph::ReduceSumOp>(n, ids, {last}, false));
  MLC_TRY(vo, transpose(n, v, inv));
  MLC_TRY(io, transpose(n, ix, inv));
  n.setOutput(0, vo);
  n.setOutput(1, io);
  return success();
}

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

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
  if (keep.empty()) {
    SmallVector<int64_t> shape(N::shapeOf(x));
    shape[axis] = 0;
    return out(n, n.empty(shape, N::elementTypeOf(x)));
  }
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
  MLC_TRY(inside, compare(n, Pred::lt, ti, l));
  MLC_TRY(lm1, addScalar(n, l, -1.0));
  MLC_TRY(rev, binary<graph::SubOp>(n, lm1, ti));
  MLC_TRY(idx2, select(n, inside, rev, ti));
  SmallVector<int64_t> ishape = {shape[0], shape[1]};
  ishape.append(shape.size() - 2, 1);
  MLC_TRY(idxR, reshape(n, idx2, ishape));
  MLC_TRY(idx,
          n.emit<graph::BroadcastToOp>({idxR}, {n.arrayAttr("shape", shape)}));
  return out(n, n.emit<graph::GatherElementsOp>({x, idx},
                                                {n.i64Attr("axis", timeAxis)}));
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
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

ArrayRef<OpConverter> getIndexingConverters() { return kConverters; }

} // namespace mlc::frontend
