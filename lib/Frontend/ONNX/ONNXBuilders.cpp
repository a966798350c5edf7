//===- ONNXBuilders.cpp - graph-op building blocks for converters ---------===//

#include "ONNXBuilders.h"

using namespace mlir;

namespace mlc::frontend {

FailureOr<Value> reshape(N &n, Value x, ArrayRef<int64_t> shape) {
  return graph::checkedReshape(n, x, shape);
}
FailureOr<Value> transpose(N &n, Value x, ArrayRef<int64_t> perm) {
  return graph::checkedTranspose(n, x, perm);
}
FailureOr<Value> castTo(N &n, Value x, Type to) {
  if (N::elementTypeOf(x) == to)
    return x;
  return n.emit<graph::CastOp>({x}, {n.attr("to", TypeAttr::get(to))});
}
FailureOr<Value> compare(N &n, Pred pred, Value a, Value b) {
  return n.emit<graph::CompareOp>(
      {a, b},
      {n.attr("predicate", graph::ComparePredicateAttr::get(n.ctx, pred))});
}
FailureOr<Value> select(N &n, Value c, Value a, Value b) {
  return n.emit<graph::SelectOp>({c, a, b});
}
FailureOr<Value> concat(N &n, ValueRange xs, int64_t axis) {
  if (xs.size() == 1)
    return Value(xs[0]);
  // Pieces empty along `axis` add nothing: dropped once the shapes are
  // known to agree elsewhere (otherwise graph.concat reports them).
  auto agrees = [&](Value x) {
    ArrayRef<int64_t> s = N::shapeOf(x), s0 = N::shapeOf(xs[0]);
    if (N::elementTypeOf(x) != N::elementTypeOf(xs[0]) || s.size() != s0.size())
      return false;
    for (size_t d = 0; d < s.size(); ++d)
      if (int64_t(d) != axis && s[d] != s0[d])
        return false;
    return true;
  };
  SmallVector<Value> pieces(xs.begin(), xs.end());
  if (llvm::all_of(xs, agrees)) {
    llvm::erase_if(pieces,
                   [&](Value x) { return N::shapeOf(x)[axis] == 0; });
    if (pieces.empty()) {
      SmallVector<int64_t> shape(N::shapeOf(xs[0]));
      return n.empty(shape, N::elementTypeOf(xs[0]));
    }
    if (pieces.size() == 1)
      return pieces[0];
  }
  return n.emit<graph::ConcatOp>(pieces, {n.i64Attr("axis", axis)});
}
FailureOr<Value> stackAxis(N &n, ValueRange pieces, int64_t axis,
                           StringRef what) {
  RankedTensorType first = N::typeOf(pieces.front());
  SmallVector<Value> lifted;
  for (auto [i, p] : llvm::enumerate(pieces)) {
    if (N::typeOf(p) != first)
      return n.error() << what << " " << i << " is " << N::typeOf(p) << " but "
                       << what << " 0 is " << first
                       << "; stacking needs one static type";
    SmallVector<int64_t> shape(first.getShape());
    shape.insert(shape.begin() + axis, 1);
    MLC_TRY(r, reshape(n, p, shape));
    lifted.push_back(r);
  }
  return concat(n, lifted, axis);
}
/// Elements [start, end) with `step` along `axis`, everything elsewhere.
FailureOr<Value> sliceAxis(N &n, Value x, int64_t axis, int64_t start,
                           int64_t end, int64_t step) {
  return graph::checkedSliceAxis(n, x, axis, start, end, step);
}
/// x[..., indices, ...] along `axis` with constant indices.
FailureOr<Value> takeAxis(N &n, Value x, int64_t axis,
                          ArrayRef<int64_t> indices) {
  if (llvm::equal(indices, iota(N::shapeOf(x)[axis])))
    return x;
  Value idx = n.i64Constant(indices, {int64_t(indices.size())});
  return n.emit<graph::GatherOp>({x, idx}, {n.i64Attr("axis", axis)});
}
FailureOr<Value> padConstant(N &n, Value x, ArrayRef<int64_t> pads,
                             double value) {
  return graph::checkedPad(n, x, pads, value);
}
/// Multiplies by a scalar unless it is 1.
FailureOr<Value> scale(N &n, Value x, double s) {
  if (s == 1.0)
    return x;
  return binary<graph::MulOp>(n, x, n.scalarLike(x, s));
}
FailureOr<Value> addScalar(N &n, Value x, double s) {
  if (s == 0.0)
    return x;
  return binary<graph::AddOp>(n, x, n.scalarLike(x, s));
}

/// Normalized, sorted, unique axes.
FailureOr<SmallVector<int64_t>> normalizeAxes(N &n, ArrayRef<int64_t> axes,
                                              int64_t rank) {
  SmallVector<int64_t> out;
  for (int64_t a : axes) {
    MLC_TRY(v, n.normalizeAxis(a, rank, "axis"));
    if (llvm::is_contained(out, v)) {
      n.error() << "axis " << a << " is repeated";
      return failure();
    }
    out.push_back(v);
  }
  llvm::sort(out);
  return out;
}

LogicalResult out(N &n, FailureOr<Value> v) {
  if (failed(v))
    return failure();
  n.setOutput(0, *v);
  return success();
}

LogicalResult legacyBroadcast(N &n) {
  MLC_TRY(broadcast, n.getInt("broadcast", 0));
  Value a = n.input(0), b = n.input(1);
  if (!a || !b)
    return success(); // the converter reports the missing operand
  if (!broadcast) {
    if (N::shapeOf(a) != N::shapeOf(b))
      return n.error() << "operands of shapes " << shapeString(N::shapeOf(a))
                       << " and " << shapeString(N::shapeOf(b))
                       << " need broadcast=1 before opset 7";
    return success();
  }
  if (!n.hasAttr("axis"))
    return success(); // B aligned with A's trailing dims: numpy's rule
  MLC_TRY(axisAttr, n.getInt("axis"));
  int64_t ra = N::rankOf(a), rb = N::rankOf(b);
  int64_t axis = axisAttr < 0 ? axisAttr + ra : axisAttr;
  if (axis < 0 || axis + rb > ra)
    return n.error() << "axis " << axisAttr << " does not place B of shape "
                     << shapeString(N::shapeOf(b)) << " in A of shape "
                     << shapeString(N::shapeOf(a));
  SmallVector<int64_t> shape(axis, 1);
  llvm::append_range(shape, N::shapeOf(b));
  shape.append(ra - axis - rb, 1);
  MLC_TRY(aligned, reshape(n, b, shape));
  n.replaceInput(1, aligned);
  return success();
}

} // namespace mlc::frontend
