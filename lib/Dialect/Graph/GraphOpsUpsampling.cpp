//===- GraphOpsUpsampling.cpp - type inference of resize, conv_transpose --===//
//
// The upsampling ops: graph.resize (interpolation from tap tables) and
// graph.conv_transpose2d (a transposed convolution whose windows do not
// overlap). Their semantics are in GraphOps.td.
//
//===----------------------------------------------------------------------===//

#include "InferTypeUtils.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::graph::infer;

LogicalResult ResizeOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axesA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, axes);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axesA, "axes")))
    return failure();
  RankedTensorType input = types[0];
  ArrayRef<int64_t> axes = axesA.asArrayRef();
  size_t n = axes.size();
  if (types.size() != 1 + 2 * n)
    return fail(loc, "resize has " + Twine(n) + " axes but " +
                         Twine(types.size() - 1) +
                         " tables (one index and one weight table per axis)");
  if (n == 0)
    return fail(loc, "resize needs at least one axis");
  SmallVector<int64_t> shape(input.getShape());
  for (auto [k, axis] : llvm::enumerate(axes)) {
    if (failed(checkAxis(loc, "resize axis", axis, input.getRank())))
      return failure();
    if (k > 0 && axis <= axes[k - 1])
      return fail(loc, "resize axes must be sorted and distinct, got " +
                           shapeStr(axes));
    RankedTensorType idx = types[1 + k], w = types[1 + n + k];
    Type idxElt = idx.getElementType();
    if (!idxElt.isInteger(64) && !idxElt.isInteger(32))
      return fail(loc, "resize index table " + Twine(k) +
                           " must be i32 or i64, got " + typeStr(idx));
    if (w.getElementType() != input.getElementType())
      return fail(loc, "resize weight table " + Twine(k) + " " + typeStr(w) +
                           " must have the input's element type " +
                           typeStr(input.getElementType()));
    if (idx.getRank() != 2 || idx.getShape() != w.getShape())
      return fail(loc, "resize tables of axis " + Twine(axis) +
                           " must both be [taps, out], got " + typeStr(idx) +
                           " and " + typeStr(w));
    if (idx.getDimSize(0) < 1 || idx.getDimSize(1) < 1)
      return fail(loc, "resize tables of axis " + Twine(axis) +
                           " need at least one tap and one output, got " +
                           typeStr(idx));
    if (input.getDimSize(axis) == 0)
      return fail(loc, "cannot resize the empty dimension " + Twine(axis) +
                           " of " + typeStr(input));
    shape[axis] = idx.getDimSize(1);
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult
ConvTranspose2DOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto stridesA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, strides);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, stridesA, "strides")) ||
      failed(sameElementType(loc, types, "conv_transpose2d operands")) ||
      failed(requireRank(loc, types[0], 4, "conv_transpose2d input")) ||
      failed(requireRank(loc, types[1], 4, "conv_transpose2d filter")) ||
      failed(checkPositive(loc, stridesA.asArrayRef(), 2, "strides", false)))
    return failure();
  ArrayRef<int64_t> in = types[0].getShape(), w = types[1].getShape();
  if (w[0] != in[1])
    return fail(loc, "conv_transpose2d filter " + typeStr(types[1]) +
                         " expects " + Twine(w[0]) +
                         " input channels but the input " + typeStr(types[0]) +
                         " has " + Twine(in[1]));
  ArrayRef<int64_t> s = stridesA.asArrayRef();
  if (s[0] != w[2] || s[1] != w[3])
    return fail(loc, "conv_transpose2d strides " + shapeStr(s) +
                         " must equal the kernel size " +
                         shapeStr(w.drop_front(2)));
  if (types.size() == 3 &&
      (types[2].getRank() != 1 || types[2].getDimSize(0) != w[1]))
    return fail(loc, "bias must have shape [" + Twine(w[1]) + "], got " +
                         typeStr(types[2]));
  results.push_back(RankedTensorType::get(
      {in[0], w[1], in[2] * w[2], in[3] * w[3]}, types[0].getElementType()));
  return success();
}
