//===- GraphOpsQuant.cpp - quantize and dequantize ------------------------===//
//
// Shape and type inference of the quantization ops. The scale and zero
// point broadcast to the input's shape (a per-axis one has a single non-1
// dim), never enlarge it: the result has the input's shape.
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

} // namespace

LogicalResult QuantizeOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  return inferQuant(loc, adaptor.getOperands(), /*same=*/1, "input and scale",
                    /*eltFrom=*/2, results);
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  return inferQuant(loc, adaptor.getOperands(), /*same=*/2,
                    "input and zero point", /*eltFrom=*/1, results);
}
