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

} // namespace

LogicalResult QuantizeOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)))
    return failure();
  if (failed(sameElementType(loc, {types[0], types[1]}, "input and scale")) ||
      failed(checkQuantParams(loc, types)))
    return failure();
  results.push_back(
      RankedTensorType::get(types[0].getShape(), types[2].getElementType()));
  return success();
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)))
    return failure();
  if (failed(
          sameElementType(loc, {types[0], types[2]}, "input and zero point")) ||
      failed(checkQuantParams(loc, types)))
    return failure();
  results.push_back(
      RankedTensorType::get(types[0].getShape(), types[1].getElementType()));
  return success();
}
