//===- GraphVJPTensor.cpp - gradient rules of reductions, data movement ---===//
//
// VJPOpInterface rules of the reductions, cumsum and the data-movement ops.
// reduce_max/min split a tie evenly among the extreme elements; reduce_prod
// divides the product by each element, so it requires nonzero inputs (see
// docs/autodiff.md). Indices get no gradient.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/VJPUtils.h"

using namespace mlir;
using namespace mlc::graph;

using P = ComparePredicate;

namespace {
int64_t reducedCount(Value x, ArrayRef<int64_t> axes) {
  int64_t n = 1;
  for (int64_t a : axes)
    n *= tensorTypeOf(x).getDimSize(a);
  return n;
}

template <typename OpT> Value expandResult(VJPBuilder &e, OpT op, Value v) {
  return e.expandReduced(v, op.getAxes(), op.getKeepdims(),
                         tensorTypeOf(op.getInput()).getShape());
}

/// reduce_max/min: the cotangent is shared evenly by the elements equal to
/// the result.
template <typename OpT> Value extremeVJP(OpBuilder &builder, OpT op, Value g) {
  VJPBuilder e(builder, op.getLoc());
  Value x = op.getInput();
  Value mask = e.cmp(P::eq, x, expandResult(e, op, op.getResult()));
  Type elt = tensorTypeOf(x).getElementType();
  Value count = e.reduceSum(e.cast(mask, elt), op.getAxes(), true);
  return e.where(mask, e.div(expandResult(e, op, g), count));
}
} // namespace

LogicalResult ReduceSumOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  dxs.push_back(expandResult(e, *this, dys[0]));
  return success();
}

LogicalResult ReduceMeanOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                     SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  double n = double(reducedCount(getInput(), getAxes()));
  dxs.push_back(expandResult(e, *this, e.scale(dys[0], 1.0 / n)));
  return success();
}

LogicalResult ReduceMaxOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  dxs.push_back(extremeVJP(builder, *this, dys[0]));
  return success();
}

LogicalResult ReduceMinOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  dxs.push_back(extremeVJP(builder, *this, dys[0]));
  return success();
}

LogicalResult ReduceProdOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                     SmallVectorImpl<Value> &dxs) {
  // The product of the others is y / x: exact only for nonzero x.
  VJPBuilder e(builder, getLoc());
  Value gy = e.mul(dys[0], getResult());
  dxs.push_back(e.div(expandResult(e, *this, gy), getInput()));
  return success();
}

LogicalResult CumSumOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                 SmallVectorImpl<Value> &dxs) {
  // The adjoint sums in the other direction, with the same exclusivity.
  dxs.push_back(CumSumOp::create(builder, getLoc(), dys[0], getAxis(),
                                 getExclusive(), !getReverse()));
  return success();
}

LogicalResult ReshapeOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                  SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  dxs.push_back(e.reshape(dys[0], tensorTypeOf(getInput()).getShape()));
  return success();
}

LogicalResult TransposeOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                    SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  ArrayRef<int64_t> perm = getPerm();
  SmallVector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[perm[i]] = i;
  dxs.push_back(e.transpose(dys[0], inverse));
  return success();
}

LogicalResult ConcatOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                 SmallVectorImpl<Value> &dxs) {
  VJPBuilder e(builder, getLoc());
  int64_t axis = getAxis(), offset = 0;
  for (Value in : getInputs()) {
    int64_t len = tensorTypeOf(in).getDimSize(axis);
    dxs.push_back(e.sliceAxis(dys[0], axis, offset, offset + len));
    offset += len;
  }
  return success();
}

LogicalResult SliceOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                SmallVectorImpl<Value> &dxs) {
  dxs.push_back(scatterStrided(builder, getLoc(), dys[0], getStarts(),
                               getSteps(),
                               tensorTypeOf(getInput()).getShape()));
  return success();
}

LogicalResult PadOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                              SmallVectorImpl<Value> &dxs) {
  ArrayRef<int64_t> pads = getPads();
  ArrayRef<int64_t> shape = tensorTypeOf(getInput()).getShape();
  SmallVector<int64_t> negBegin, negEnd;
  for (size_t i = 0; i < shape.size(); ++i) {
    negBegin.push_back(-pads[i]);
    negEnd.push_back(-pads[i + shape.size()]);
  }
  dxs.push_back(padOrCrop(builder, getLoc(), dys[0], negBegin, negEnd));
  return success();
}

LogicalResult BroadcastToOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                      SmallVectorImpl<Value> &dxs) {
  dxs.push_back(
      sumToShape(builder, getLoc(), dys[0], tensorTypeOf(getInput())));
  return success();
}

LogicalResult GatherOp::buildVJP(OpBuilder &builder, ArrayRef<Value> dys,
                                 SmallVectorImpl<Value> &dxs) {
  // data[p, d, q] gets sum_k [idx[k] == d] g[p, k, q]: a one-hot matmul.
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  auto dataType = tensorTypeOf(getData());
  ArrayRef<int64_t> ds = dataType.getShape();
  int64_t axis = getAxis();
  int64_t outer = 1, inner = 1, depth = ds[axis];
  for (int64_t i = 0; i < axis; ++i)
    outer *= ds[i];
  for (size_t i = axis + 1; i < ds.size(); ++i)
    inner *= ds[i];
  int64_t k = tensorTypeOf(getIndices()).getNumElements();
  Value idx =
      normalizeIndices(builder, loc, e.reshape(getIndices(), {k}), depth);
  Value onehot = e.cast(oneHotMask(builder, loc, idx, depth, 0),
                        dataType.getElementType());
  Value g = e.reshape(dys[0], {outer, k, inner});
  dxs.push_back(e.reshape(e.matmul(onehot, g), ds));
  dxs.push_back(nullptr);
  return success();
}

LogicalResult GatherElementsOp::buildVJP(OpBuilder &builder,
                                         ArrayRef<Value> dys,
                                         SmallVectorImpl<Value> &dxs) {
  // A one-hot dim after `axis` selects the data row of each element, the
  // sum over `axis` collects them; the indices may cover less than data.
  Location loc = getLoc();
  VJPBuilder e(builder, loc);
  ArrayRef<int64_t> ds = tensorTypeOf(getData()).getShape();
  ArrayRef<int64_t> is = tensorTypeOf(getIndices()).getShape();
  int64_t axis = getAxis();
  Value idx = normalizeIndices(builder, loc, getIndices(), ds[axis]);
  Value mask = oneHotMask(builder, loc, idx, ds[axis], axis + 1);
  SmallVector<int64_t> unsq(is);
  unsq.insert(unsq.begin() + axis + 1, 1);
  Value spread = e.where(mask, e.reshape(dys[0], unsq));
  Value summed = e.reduceSum(spread, {axis}, false);
  ArrayRef<int64_t> cur = tensorTypeOf(summed).getShape();
  SmallVector<int64_t> zeros(ds.size(), 0), ends;
  for (size_t i = 0; i < ds.size(); ++i)
    ends.push_back(ds[i] - cur[i]);
  dxs.push_back(padOrCrop(builder, loc, summed, zeros, ends));
  dxs.push_back(nullptr);
  return success();
}
