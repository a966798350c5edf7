//===- GraphOpsTensor.cpp - shape inference of data movement ops ----------===//
//
// Reshape, transpose, concat, slice, gather, gather_elements, broadcast_to
// and pad: result types, verifiers and folds (GraphOps.cpp has the others).
//
//===----------------------------------------------------------------------===//

#include "InferTypeUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::graph::infer;

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto shapeA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, shape);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, shapeA, "shape")))
    return failure();
  SmallVector<int64_t> shape(shapeA.asArrayRef());
  int64_t known = 1, inferred = -1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == -1) {
      if (inferred >= 0)
        return fail(loc, "reshape shape " + shapeStr(shape) +
                             " has more than one -1");
      inferred = i;
    } else if (d < 0) {
      return fail(loc, "reshape shape " + shapeStr(shape) +
                           " has a negative dimension");
    } else {
      known *= d;
    }
  }
  int64_t count = types[0].getNumElements();
  if (inferred >= 0) {
    if (known == 0 || count % known != 0)
      return fail(loc, "cannot reshape " + typeStr(types[0]) + " to " +
                           shapeStr(shape));
    shape[inferred] = count / known;
    known = count;
  }
  if (known != count)
    return fail(loc, "cannot reshape " + typeStr(types[0]) + " (" +
                         Twine(count) + " elements) to " + shapeStr(shape) +
                         " (" + Twine(known) + " elements)");
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto permA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, perm);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, permA, "perm")))
    return failure();
  auto perm = permA.asArrayRef();
  int64_t rank = types[0].getRank();
  SmallVector<bool> seen(rank, false);
  if ((int64_t)perm.size() != rank)
    return fail(loc, "perm " + shapeStr(perm) + " must have " + Twine(rank) +
                         " entries");
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return fail(loc, "perm " + shapeStr(perm) +
                           " is not a permutation of [0, " + Twine(rank) + ")");
    seen[p] = true;
    shape.push_back(types[0].getDimSize(p));
  }
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axisA = GRAPH_ATTR(adaptor, IntegerAttr, axis);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axisA, "axis")))
    return failure();
  if (types.empty())
    return fail(loc, "concat needs at least one input");
  if (failed(sameElementType(loc, types, "concat inputs")))
    return failure();
  int64_t rank = types[0].getRank(), axis = axisA.getInt();
  if (axis < 0 || axis >= rank)
    return fail(loc, "concat axis " + Twine(axis) + " must be in [0, " +
                         Twine(rank) + ")");
  SmallVector<int64_t> shape(types[0].getShape());
  for (auto [i, t] : llvm::enumerate(ArrayRef(types).drop_front())) {
    if (t.getRank() != rank)
      return fail(loc, "concat input #" + Twine(i + 1) + " " + typeStr(t) +
                           " has a different rank than input #0 " +
                           typeStr(types[0]));
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.getDimSize(d) != shape[d])
        return fail(loc, "concat input #" + Twine(i + 1) + " " + typeStr(t) +
                             " differs from input #0 " + typeStr(types[0]) +
                             " in dimension " + Twine(d));
    shape[axis] += t.getDimSize(axis);
  }
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto startsA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, starts);
  auto endsA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, ends);
  auto stepsA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, steps);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, startsA, "starts")) ||
      failed(requireAttr(loc, endsA, "ends")) ||
      failed(requireAttr(loc, stepsA, "steps")))
    return failure();
  int64_t rank = types[0].getRank();
  auto starts = startsA.asArrayRef(), ends = endsA.asArrayRef(),
       steps = stepsA.asArrayRef();
  if ((int64_t)starts.size() != rank || (int64_t)ends.size() != rank ||
      (int64_t)steps.size() != rank)
    return fail(loc, "starts, ends and steps must each have " + Twine(rank) +
                         " entries");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = types[0].getDimSize(d);
    if (steps[d] <= 0)
      return fail(loc, "slice step " + Twine(steps[d]) + " in dimension " +
                           Twine(d) + " must be positive");
    if (starts[d] < 0 || starts[d] > ends[d] || ends[d] > size)
      return fail(loc, "slice bounds [" + Twine(starts[d]) + ", " +
                           Twine(ends[d]) + ") in dimension " + Twine(d) +
                           " must satisfy 0 <= start <= end <= " + Twine(size));
    shape.push_back((ends[d] - starts[d] + steps[d] - 1) / steps[d]);
  }
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axisA = GRAPH_ATTR(adaptor, IntegerAttr, axis);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axisA, "axis")))
    return failure();
  int64_t rank = types[0].getRank(), axis = axisA.getInt();
  if (axis < 0 || axis >= rank)
    return fail(loc, "gather axis " + Twine(axis) + " must be in [0, " +
                         Twine(rank) + ")");
  if (!types[1].getElementType().isInteger(64) &&
      !types[1].getElementType().isInteger(32))
    return fail(loc,
                "gather indices must be i32 or i64, got " + typeStr(types[1]));
  auto data = types[0].getShape();
  if (data[axis] == 0 && types[1].getNumElements() != 0)
    return fail(loc, "cannot gather from dimension " + Twine(axis) + " of " +
                         typeStr(types[0]) + ": it is empty");
  SmallVector<int64_t> shape(data.take_front(axis));
  llvm::append_range(shape, types[1].getShape());
  llvm::append_range(shape, data.drop_front(axis + 1));
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto shapeA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, shape);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, shapeA, "shape")))
    return failure();
  ArrayRef<int64_t> target = shapeA.asArrayRef();
  if (llvm::any_of(target, [](int64_t d) { return d < 0; }))
    return fail(loc, "broadcast_to shape " + shapeStr(target) +
                         " has a negative dimension");
  SmallVector<int64_t> shape;
  if (!broadcastShapes(types[0].getShape(), target, shape))
    return fail(loc, "cannot broadcast " + typeStr(types[0]) + " to shape " +
                         shapeStr(target));
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult
GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axisA = GRAPH_ATTR(adaptor, IntegerAttr, axis);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axisA, "axis")))
    return failure();
  RankedTensorType data = types[0], indices = types[1];
  int64_t rank = data.getRank(), axis = axisA.getInt();
  if (failed(checkAxis(loc, "gather_elements axis", axis, rank)))
    return failure();
  if (!indices.getElementType().isInteger(64) &&
      !indices.getElementType().isInteger(32))
    return fail(loc, "gather_elements indices must be i32 or i64, got " +
                         typeStr(indices));
  if (indices.getRank() != rank)
    return fail(loc, "gather_elements indices " + typeStr(indices) +
                         " must have the rank of the data " + typeStr(data));
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.getDimSize(d) > data.getDimSize(d))
      return fail(loc, "gather_elements indices " + typeStr(indices) +
                           " are larger than the data " + typeStr(data) +
                           " in dimension " + Twine(d));
  if (data.getDimSize(axis) == 0 && indices.getNumElements() != 0)
    return fail(loc, "cannot gather from dimension " + Twine(axis) + " of " +
                         typeStr(data) + ": it is empty");
  results.push_back(indices.clone(data.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto padsA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, pads);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, padsA, "pads")) ||
      failed(requireAttr(loc, GRAPH_ATTR(adaptor, FloatAttr, value), "value")))
    return failure();
  int64_t rank = types[0].getRank();
  if (failed(checkPositive(loc, padsA.asArrayRef(), 2 * rank, "pads", true)))
    return failure();
  auto pads = padsA.asArrayRef();
  // Integer and bool tensors take the pad value exactly or not at all:
  // silently rounding or wrapping it would hide a model bug.
  Type elt = types[0].getElementType();
  double value =
      GRAPH_ATTR(adaptor, FloatAttr, value).getValue().convertToDouble();
  if (auto intType = dyn_cast<IntegerType>(elt)) {
    unsigned width = intType.getWidth();
    // Valid range [lo, hi), both powers of two so exact in a double.
    double lo = width == 1 ? 0.0 : -std::ldexp(1.0, width - 1);
    double hi = width == 1 ? 2.0 : std::ldexp(1.0, width - 1);
    if (value != std::trunc(value) || value < lo || value >= hi)
      return fail(loc, "pad value " + shortNumber(value) +
                           " is not representable in " + typeStr(elt));
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(types[0].getDimSize(d) + pads[d] + pads[rank + d]);
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}
