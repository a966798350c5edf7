//===- GraphBuilders.cpp - building graph ops from C++ --------------------===//

#include "mlc/Dialect/Graph/GraphBuilders.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <numeric>

using namespace mlir;

namespace mlc::graph {

Value splatConstant(OpBuilder &b, Location loc, Type elementType,
                    ArrayRef<int64_t> shape, double value) {
  auto type = RankedTensorType::get(shape, elementType);
  Attribute elt;
  if (isa<FloatType>(elementType))
    elt = FloatAttr::get(elementType, value);
  else
    elt = IntegerAttr::get(elementType, int64_t(value));
  auto attr = DenseElementsAttr::get(type, elt);
  return ConstantOp::create(b, loc, cast<ElementsAttr>(attr));
}

Value floatConstant(OpBuilder &b, Location loc, Type elementType,
                    ArrayRef<int64_t> shape, ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, elementType);
  SmallVector<Attribute> elts;
  for (double v : values)
    elts.push_back(FloatAttr::get(elementType, v));
  auto attr = DenseElementsAttr::get(type, elts);
  return ConstantOp::create(b, loc, cast<ElementsAttr>(attr));
}

Value intConstant(OpBuilder &b, Location loc, Type elementType,
                  ArrayRef<int64_t> shape, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, elementType);
  unsigned width = elementType.getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(width, uint64_t(v), /*isSigned=*/true));
  auto attr = DenseElementsAttr::get(type, ints);
  return ConstantOp::create(b, loc, cast<ElementsAttr>(attr));
}

Value padOrCrop(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> begin,
                ArrayRef<int64_t> end) {
  ArrayRef<int64_t> shape = tensorTypeOf(x).getShape();
  size_t rank = shape.size();
  SmallVector<int64_t> starts(rank), ends(shape), steps(rank, 1),
      pads(2 * rank, 0);
  bool crop = false, pad = false;
  for (size_t i = 0; i < rank; ++i) {
    if (begin[i] < 0) {
      starts[i] = -begin[i];
      crop = true;
    }
    if (end[i] < 0) {
      ends[i] = shape[i] + end[i];
      crop = true;
    }
    pads[i] = std::max<int64_t>(0, begin[i]);
    pads[i + rank] = std::max<int64_t>(0, end[i]);
    pad |= pads[i] || pads[i + rank];
  }
  if (crop)
    x = SliceOp::create(b, loc, x, starts, ends, steps);
  if (pad)
    x = PadOp::create(b, loc, x, pads, APFloat(0.0));
  return x;
}

Value scatterStrided(OpBuilder &b, Location loc, Value x,
                     ArrayRef<int64_t> starts, ArrayRef<int64_t> steps,
                     ArrayRef<int64_t> full) {
  ArrayRef<int64_t> shape = tensorTypeOf(x).getShape();
  size_t rank = shape.size();
  // Interleave zeros: [.., L, ..] -> [.., L, 1, ..] -> pad the unit dim to
  // `step` -> [.., L * step, ..], so element i lands at i * step.
  if (llvm::any_of(steps, [](int64_t s) { return s != 1; })) {
    SmallVector<int64_t> split, merged;
    for (size_t i = 0; i < rank; ++i) {
      split.push_back(shape[i]);
      merged.push_back(shape[i] * steps[i]);
      if (steps[i] != 1)
        split.push_back(1);
    }
    Value v = ReshapeOp::create(b, loc, x, split);
    SmallVector<int64_t> pads(2 * split.size(), 0);
    for (size_t i = 0, j = 0; i < rank; ++i, ++j)
      if (steps[i] != 1)
        pads[++j + split.size()] = steps[i] - 1;
    v = PadOp::create(b, loc, v, pads, APFloat(0.0));
    x = ReshapeOp::create(b, loc, v, merged);
  }
  ArrayRef<int64_t> cur = tensorTypeOf(x).getShape();
  SmallVector<int64_t> endPads(rank);
  for (size_t i = 0; i < rank; ++i)
    endPads[i] = full[i] - starts[i] - cur[i];
  return padOrCrop(b, loc, x, starts, endPads);
}

Value normalizeIndices(OpBuilder &b, Location loc, Value indices,
                       int64_t size) {
  Type elt = tensorTypeOf(indices).getElementType();
  auto c = [&](int64_t v) { return splatConstant(b, loc, elt, {}, v); };
  Value negative =
      CompareOp::create(b, loc, ComparePredicate::lt, indices, c(0));
  Value wrapped = AddOp::create(b, loc, indices, c(size));
  Value idx = SelectOp::create(b, loc, negative, wrapped, indices);
  idx = MinOp::create(b, loc, idx, c(size - 1));
  return MaxOp::create(b, loc, idx, c(0));
}

Value oneHotMask(OpBuilder &b, Location loc, Value indices, int64_t depth,
                 int64_t axis) {
  auto type = tensorTypeOf(indices);
  SmallVector<int64_t> unsq(type.getShape());
  unsq.insert(unsq.begin() + axis, 1);
  Value idx = ReshapeOp::create(b, loc, indices, unsq);
  SmallVector<int64_t> iotaShape(unsq.size(), 1), iota(depth);
  iotaShape[axis] = depth;
  std::iota(iota.begin(), iota.end(), 0);
  Value range = intConstant(b, loc, type.getElementType(), iotaShape, iota);
  return CompareOp::create(b, loc, ComparePredicate::eq, idx, range);
}

Value buildConvTranspose2D(OpBuilder &b, Location loc, Value x, Value filter,
                           Value bias, ArrayRef<int64_t> strides,
                           ArrayRef<int64_t> dilations, int64_t groups,
                           ArrayRef<int64_t> cropBegin,
                           ArrayRef<int64_t> cropEnd) {
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ws = tensorTypeOf(filter).getShape();
  int64_t cin = ws[0], coutg = ws[1], kh = ws[2], kw = ws[3];
  // Windows that tile the output without overlap: a contraction of its
  // own, without the zero-dilated input (stride^2 times less work).
  bool noCrop = llvm::all_of(cropBegin, [](int64_t c) { return c == 0; }) &&
                llvm::all_of(cropEnd, [](int64_t c) { return c == 0; });
  if (groups == 1 && noCrop && strides[0] == kh && strides[1] == kw &&
      llvm::all_of(dilations, [](int64_t d) { return d == 1; }))
    return ConvTranspose2DOp::create(b, loc, x, filter, bias, strides);
  // [Cin, Cout/g, k] -> [g, Cin/g, Cout/g, k] -> [g, Cout/g, Cin/g, k]
  // -> [Cout, Cin/g, k]: the filter of the equivalent direct convolution.
  Value w = filter;
  if (groups == 1) {
    w = TransposeOp::create(b, loc, w, ArrayRef<int64_t>{1, 0, 2, 3});
  } else {
    w = ReshapeOp::create(
        b, loc, w, ArrayRef<int64_t>{groups, cin / groups, coutg, kh, kw});
    w = TransposeOp::create(b, loc, w, ArrayRef<int64_t>{0, 2, 1, 3, 4});
    w = ReshapeOp::create(
        b, loc, w, ArrayRef<int64_t>{groups * coutg, cin / groups, kh, kw});
  }
  // Spatially flipped.
  for (int i = 0; i < 2; ++i) {
    int64_t k = ws[2 + i];
    if (k == 1)
      continue;
    SmallVector<int64_t> rev(k);
    for (int64_t j = 0; j < k; ++j)
      rev[j] = k - 1 - j;
    Value idx = intConstant(b, loc, b.getI64Type(), {k}, rev);
    w = GatherOp::create(b, loc, w, idx, uint64_t(2 + i));
  }
  // Input: zeros between elements, then the complementary padding.
  SmallVector<int64_t> starts = {0, 0}, steps = {1, 1}, full = {xs[0], xs[1]};
  for (int i = 0; i < 2; ++i) {
    int64_t keff = (ws[2 + i] - 1) * dilations[i] + 1;
    int64_t begin = keff - 1 - cropBegin[i], end = keff - 1 - cropEnd[i];
    starts.push_back(begin);
    steps.push_back(strides[i]);
    full.push_back(begin + (xs[2 + i] - 1) * strides[i] + 1 + end);
  }
  Value in = scatterStrided(b, loc, x, starts, steps, full);
  return Conv2DOp::create(b, loc, in, w, bias, ArrayRef<int64_t>{1, 1},
                          ArrayRef<int64_t>{0, 0, 0, 0}, dilations,
                          uint64_t(groups));
}

//===----------------------------------------------------------------------===//
// GraphBuilder
//===----------------------------------------------------------------------===//

Value GraphBuilder::add(Value x, Value y) {
  return AddOp::create(b, loc, x, y);
}
Value GraphBuilder::sub(Value x, Value y) {
  return SubOp::create(b, loc, x, y);
}
Value GraphBuilder::mul(Value x, Value y) {
  return MulOp::create(b, loc, x, y);
}
Value GraphBuilder::div(Value x, Value y) {
  return DivOp::create(b, loc, x, y);
}
Value GraphBuilder::pow(Value x, Value y) {
  return PowOp::create(b, loc, x, y);
}
Value GraphBuilder::neg(Value x) { return NegOp::create(b, loc, x); }
Value GraphBuilder::exp(Value x) { return ExpOp::create(b, loc, x); }
Value GraphBuilder::log(Value x) { return LogOp::create(b, loc, x); }
Value GraphBuilder::rsqrt(Value x) { return RsqrtOp::create(b, loc, x); }
Value GraphBuilder::sign(Value x) { return SignOp::create(b, loc, x); }

Value GraphBuilder::scalar(Value like, double v) {
  return splatConstant(b, loc, tensorTypeOf(like).getElementType(), {}, v);
}

Value GraphBuilder::scale(Value x, double s) { return mul(x, scalar(x, s)); }

Value GraphBuilder::cmp(ComparePredicate pred, Value x, Value y) {
  return CompareOp::create(b, loc, pred, x, y);
}

Value GraphBuilder::select(Value c, Value t, Value f) {
  return SelectOp::create(b, loc, c, t, f);
}

Value GraphBuilder::where(Value c, Value g, bool invert) {
  Value zero = scalar(g, 0.0);
  return invert ? select(c, zero, g) : select(c, g, zero);
}

Value GraphBuilder::cast(Value x, Type elementType) {
  return CastOp::create(b, loc, x, elementType);
}

Value GraphBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (tensorTypeOf(x).getShape() == shape)
    return x;
  return ReshapeOp::create(b, loc, x, shape);
}

Value GraphBuilder::transpose(Value x, ArrayRef<int64_t> perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == int64_t(i);
  return identity ? x : TransposeOp::create(b, loc, x, perm);
}

Value GraphBuilder::broadcastTo(Value x, ArrayRef<int64_t> shape) {
  if (tensorTypeOf(x).getShape() == shape)
    return x;
  return BroadcastToOp::create(b, loc, x, shape);
}

Value GraphBuilder::reduceSum(Value x, ArrayRef<int64_t> axes, bool keepdims) {
  return ReduceSumOp::create(b, loc, x, axes, keepdims);
}

Value GraphBuilder::reduceMean(Value x, ArrayRef<int64_t> axes, bool keepdims) {
  return ReduceMeanOp::create(b, loc, x, axes, keepdims);
}

Value GraphBuilder::matmul(Value x, Value y) {
  return MatMulOp::create(b, loc, x, y);
}

Value GraphBuilder::sliceAxis(Value x, int64_t axis, int64_t start,
                              int64_t end) {
  ArrayRef<int64_t> shape = tensorTypeOf(x).getShape();
  if (start == 0 && end == shape[axis])
    return x;
  SmallVector<int64_t> starts(shape.size(), 0), ends(shape),
      steps(shape.size(), 1);
  starts[axis] = start;
  ends[axis] = end;
  return SliceOp::create(b, loc, x, starts, ends, steps);
}

Value GraphBuilder::transposeLast2(Value x) {
  int64_t rank = tensorTypeOf(x).getRank();
  SmallVector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[rank - 1], perm[rank - 2]);
  return transpose(x, perm);
}

} // namespace mlc::graph
