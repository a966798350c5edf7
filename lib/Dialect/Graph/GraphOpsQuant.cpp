//===- GraphOpsQuant.cpp - quantization ops and integer contractions ------===//
//
// Shape and type inference of the quantization ops. The scale and zero
// point broadcast to the input's shape (a per-axis one has a single non-1
// dim), never enlarge it: the result has the input's shape. The integer
// contractions have the shapes of their float forms; their zero points
// must not vary along the dims they reduce.
//
//===----------------------------------------------------------------------===//

#include "InferTypeUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::graph::infer;

namespace {

/// Checks that `scale` and `zero point` broadcast to the input's shape.
LogicalResult checkQuantParams(std::optional<Location> loc,
                               ArrayRef<RankedTensorType> types) {
  SmallVector<int64_t> shape;
  if (failed(broadcastAll(loc, types, shape)))
    return failure();
  if (ArrayRef<int64_t>(shape) != types[0].getShape())
    return fail(loc, "scale " + typeStr(types[1]) + " and zero point " +
                         typeStr(types[2]) +
                         " must broadcast to the input's shape " +
                         typeStr(types[0]));
  return success();
}

/// Both ops: operand `same` has the input's element type (`what` names the
/// pair), and the result has the input's shape and operand `eltFrom`'s
/// element type.
LogicalResult inferQuant(std::optional<Location> loc, ValueRange operands,
                         unsigned same, StringRef what, unsigned eltFrom,
                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, operands, types)) ||
      failed(sameElementType(loc, {types[0], types[same]}, what)) ||
      failed(checkQuantParams(loc, types)))
    return failure();
  results.push_back(RankedTensorType::get(types[0].getShape(),
                                          types[eltFrom].getElementType()));
  return success();
}

/// A zero point of `operand` (`what`): its element type, and a shape that
/// broadcasts to the operand's with size 1 in every dim of `reduced` (dims
/// of the operand, counted from the front).
LogicalResult checkZeroPoint(std::optional<Location> loc, StringRef what,
                             RankedTensorType operand, RankedTensorType zp,
                             ArrayRef<int64_t> reduced) {
  if (zp.getElementType() != operand.getElementType())
    return fail(loc, what + " zero point " + typeStr(zp) +
                         " must have the element type of its operand " +
                         typeStr(operand));
  int64_t rank = operand.getRank(), offset = rank - zp.getRank();
  bool ok = offset >= 0;
  for (int64_t i = 0; ok && i < zp.getRank(); ++i) {
    int64_t d = zp.getDimSize(i), od = i + offset;
    ok = d == 1 ||
         (d == operand.getDimSize(od) && !llvm::is_contained(reduced, od));
  }
  if (!ok)
    return fail(loc, what + " zero point " + typeStr(zp) +
                         " must broadcast to " + typeStr(operand) +
                         " and be one value along the reduced dims");
  return success();
}

} // namespace

LogicalResult
MatMulIntegerOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> t;
  SmallVector<int64_t> shape;
  if (failed(getRanked(loc, adaptor.getOperands(), t)) ||
      failed(matmulShape(loc, t[0], t[1], shape)))
    return failure();
  int64_t lhsK = t[0].getRank() - 1, rhsK = t[1].getRank() - 2;
  if (failed(checkZeroPoint(loc, "lhs", t[0], t[2], {lhsK})) ||
      failed(checkZeroPoint(loc, "rhs", t[1], t[3], {rhsK})))
    return failure();
  results.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 32)));
  return success();
}

LogicalResult
Conv2DIntegerOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> t;
  SmallVector<int64_t> shape;
  if (failed(getRanked(loc, adaptor.getOperands(), t)) ||
      failed(conv2dShape(loc, adaptor, t[0], t[1], shape)) ||
      failed(checkZeroPoint(loc, "input", t[0], t[2], {0, 1, 2, 3})) ||
      failed(checkZeroPoint(loc, "filter", t[1], t[3], {1, 2, 3})))
    return failure();
  results.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 32)));
  return success();
}

LogicalResult QuantizeOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  return inferQuant(loc, adaptor.getOperands(), /*same=*/1, "input and scale",
                    /*eltFrom=*/2, results);
}

LogicalResult FakeQuantizeOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  return inferQuant(loc, adaptor.getOperands(), /*same=*/1, "input and scale",
                    /*eltFrom=*/0, results);
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  return inferQuant(loc, adaptor.getOperands(), /*same=*/2,
                    "input and zero point", /*eltFrom=*/1, results);
}
