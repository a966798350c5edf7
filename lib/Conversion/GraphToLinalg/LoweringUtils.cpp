//===- LoweringUtils.cpp - helpers shared by graph->linalg patterns -------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;

namespace mlc::lowering {

bool isFloatTensor(Value v) {
  return isa<FloatType>(getElementTypeOrSelf(v.getType()));
}

Value scalarConstant(OpBuilder &b, Location loc, Type elementType,
                     double value) {
  if (auto ft = dyn_cast<FloatType>(elementType))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(elementType, static_cast<int64_t>(value)));
}

/// -inf or the signed minimum (lowest), +inf or the signed maximum.
static Value extremeValue(OpBuilder &b, Location loc, Type elementType,
                          bool lowest) {
  if (auto ft = dyn_cast<FloatType>(elementType))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(),
                                           /*Negative=*/lowest)));
  unsigned width = elementType.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(elementType, lowest ? APInt::getSignedMinValue(width)
                                           : APInt::getSignedMaxValue(width)));
}

Value lowestValue(OpBuilder &b, Location loc, Type elementType) {
  return extremeValue(b, loc, elementType, /*lowest=*/true);
}

Value highestValue(OpBuilder &b, Location loc, Type elementType) {
  return extremeValue(b, loc, elementType, /*lowest=*/false);
}

Value addScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}
Value subScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::SubFOp::create(b, loc, x, y);
  return arith::SubIOp::create(b, loc, x, y);
}
Value mulScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}
Value maxScalar(OpBuilder &b, Location loc, Value x, Value y) {
  // maximumf propagates NaN, matching numpy/PyTorch.
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}
Value minScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   Value scalar) {
  Value empty = emptyTensor(b, loc, type);
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> outShape) {
  size_t offset = outShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, d] : llvm::enumerate(operandShape)) {
    if (d == 1 && outShape[offset + i] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(offset + i, ctx));
  }
  return AffineMap::get(outShape.size(), 0, exprs, ctx);
}

Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, BodyBuilder body) {
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> outShape = resultType.getShape();
  SmallVector<AffineMap> maps;
  for (Value in : inputs)
    maps.push_back(broadcastMap(
        ctx, cast<RankedTensorType>(in.getType()).getShape(), outShape));
  maps.push_back(AffineMap::getMultiDimIdentityMap(outShape.size(), ctx));
  SmallVector<utils::IteratorType> iterators(outShape.size(),
                                             utils::IteratorType::parallel);
  Value init = emptyTensor(b, loc, resultType);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, v);
      });
  return generic.getResult(0);
}

Value accumulatorInit(OpBuilder &b, Location loc, RankedTensorType type,
                      Value bias, AffineMap biasMap) {
  if (bias)
    return broadcastInto(b, loc, bias, type, biasMap);
  return filledTensor(b, loc, type,
                      scalarConstant(b, loc, type.getElementType(), 0.0));
}

Value multiplyAccumulate(OpBuilder &b, Location loc, Value x, Value w,
                         Value init, ArrayRef<AffineMap> maps) {
  auto type = cast<RankedTensorType>(init.getType());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  iterators.resize(maps.front().getNumDims(), utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{x, w}, init, maps, iterators,
             [](OpBuilder &nb, Location l, ValueRange a) {
               Value prod = arith::MulFOp::create(nb, l, a[0], a[1]);
               linalg::YieldOp::create(
                   nb, l, Value(arith::AddFOp::create(nb, l, a[2], prod)));
             })
      .getResult(0);
}

Value broadcastInto(OpBuilder &b, Location loc, Value input,
                    RankedTensorType type, AffineMap map) {
  unsigned rank = type.getRank();
  return linalg::GenericOp::create(
             b, loc, type, input, emptyTensor(b, loc, type),
             SmallVector<AffineMap>{
                 map, AffineMap::getMultiDimIdentityMap(rank, b.getContext())},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [](OpBuilder &nb, Location l, ValueRange a) {
               linalg::YieldOp::create(nb, l, a[0]);
             })
      .getResult(0);
}

Value divideByConstant(OpBuilder &b, Location loc, Value input,
                       double divisor) {
  auto type = cast<RankedTensorType>(input.getType());
  Value d = scalarConstant(b, loc, type.getElementType(), divisor);
  return buildElementwise(b, loc, type, input,
                          [&](OpBuilder &nb, Location l, ValueRange a) {
                            return arith::DivFOp::create(nb, l, a[0], d);
                          });
}

ReductionLoops reductionLoops(MLIRContext *ctx, RankedTensorType inType,
                              ArrayRef<int64_t> axes, bool keepDims) {
  int64_t rank = inType.getRank();
  SmallVector<bool> reduced(rank, false);
  for (int64_t a : axes)
    reduced[a] = true;

  // Loops: one parallel loop per result dim, then the reduced dims, so
  // tiling sees the parallel loops outermost. With keepdims the result keeps
  // size-1 dims whose loops the input ignores: no reshape between the
  // reduction and its consumers, so tile-and-fuse can pull it into their
  // loop.
  SmallVector<int64_t> resultShape;
  SmallVector<AffineExpr> inExprs(rank);
  int64_t loop = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      inExprs[d] = getAffineDimExpr(loop++, ctx);
      resultShape.push_back(inType.getDimSize(d));
    } else if (keepDims) {
      ++loop; // the size-1 result dim
      resultShape.push_back(1);
    }
  }
  int64_t numParallel = loop;
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d])
      inExprs[d] = getAffineDimExpr(loop++, ctx);
  int64_t numLoops = loop;

  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < numParallel; ++i)
    outExprs.push_back(getAffineDimExpr(i, ctx));
  ReductionLoops loops;
  loops.resultShape = resultShape;
  loops.inputMap = AffineMap::get(numLoops, 0, inExprs, ctx);
  loops.resultMap = AffineMap::get(numLoops, 0, outExprs, ctx);
  loops.iterators.assign(numParallel, utils::IteratorType::parallel);
  loops.iterators.append(numLoops - numParallel,
                         utils::IteratorType::reduction);
  return loops;
}

Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, ReduceKind kind, bool keepDims) {
  auto inType = cast<RankedTensorType>(input.getType());
  Type elt = inType.getElementType();
  ReductionLoops loops = reductionLoops(b.getContext(), inType, axes, keepDims);
  auto outType = RankedTensorType::get(loops.resultShape, elt);
  Value identity;
  switch (kind) {
  case ReduceKind::Sum:
    identity = scalarConstant(b, loc, elt, 0.0);
    break;
  case ReduceKind::Prod:
    identity = scalarConstant(b, loc, elt, 1.0);
    break;
  case ReduceKind::Max:
    identity = lowestValue(b, loc, elt);
    break;
  case ReduceKind::Min:
    identity = highestValue(b, loc, elt);
    break;
  }
  Value init = filledTensor(b, loc, outType, identity);
  return linalg::GenericOp::create(
             b, loc, outType, input, init,
             ArrayRef<AffineMap>{loops.inputMap, loops.resultMap},
             loops.iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value acc = args[1], x = args[0], v;
               switch (kind) {
               case ReduceKind::Sum:
                 v = addScalar(nb, nloc, acc, x);
                 break;
               case ReduceKind::Prod:
                 v = mulScalar(nb, nloc, acc, x);
                 break;
               case ReduceKind::Max:
                 v = maxScalar(nb, nloc, acc, x);
                 break;
               case ReduceKind::Min:
                 v = minScalar(nb, nloc, acc, x);
                 break;
               }
               linalg::YieldOp::create(nb, nloc, v);
             })
      .getResult(0);
}

Value reshapeTensor(OpBuilder &b, Location loc, Value input,
                    ArrayRef<int64_t> shape) {
  auto inType = cast<RankedTensorType>(input.getType());
  if (inType.getShape() == shape)
    return input;
  Type elt = inType.getElementType();
  auto target = RankedTensorType::get(shape, elt);
  // Reassociation of "all dims into one"; empty when either side is 0-d.
  auto allInOne = [&](int64_t rank) {
    SmallVector<ReassociationIndices> r;
    if (rank == 0)
      return r;
    ReassociationIndices group;
    for (int64_t i = 0; i < rank; ++i)
      group.push_back(i);
    r.push_back(group);
    return r;
  };
  int64_t count = inType.getNumElements();
  auto flatType = RankedTensorType::get({count}, elt);
  Value flat = input;
  if (inType.getRank() > 1)
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, input,
                                           allInOne(inType.getRank()));
  else if (inType.getRank() == 0)
    flat = tensor::ExpandShapeOp::create(b, loc, flatType, input, allInOne(0));
  if (shape.size() == 1)
    return flat;
  if (shape.empty())
    return tensor::CollapseShapeOp::create(b, loc, target, flat, allInOne(0));
  return tensor::ExpandShapeOp::create(b, loc, target, flat,
                                       allInOne(shape.size()));
}

Value padTensor(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, Value value) {
  auto inType = cast<RankedTensorType>(input.getType());
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return input;
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    shape.push_back(inType.getDimSize(d) + low[d] + high[d]);
  auto outType = RankedTensorType::get(shape, inType.getElementType());
  Value filled;
  if (auto valueType = dyn_cast<RankedTensorType>(value.getType())) {
    // A one-element tensor read by the fill itself: no scalar extracted
    // outside a kernel (host code of a GPU model cannot read it).
    SmallVector<AffineExpr> zeros(valueType.getRank(),
                                  b.getAffineConstantExpr(0));
    filled = broadcastInto(
        b, loc, value, outType,
        AffineMap::get(outType.getRank(), 0, zeros, b.getContext()));
  } else {
    filled = filledTensor(b, loc, outType, value);
  }
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t d = 0; d < inType.getRank(); ++d) {
    offsets.push_back(b.getIndexAttr(low[d]));
    sizes.push_back(b.getIndexAttr(inType.getDimSize(d)));
    strides.push_back(b.getIndexAttr(1));
  }
  return tensor::InsertSliceOp::create(b, loc, input, filled, offsets, sizes,
                                       strides);
}

} // namespace mlc::lowering
