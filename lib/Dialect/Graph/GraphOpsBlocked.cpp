//===- GraphOpsBlocked.cpp - type inference of the blocked layout ops -----===//
//
// graph.conv2d_nchwc and graph.conv2d_integer_nchwc, the convolutions that
// graph-block-channels makes in the blocked channel layout [N, C / B, H, W,
// B]. Their forms are in GraphOps.td and GraphOpsQuant.td.
//
//===----------------------------------------------------------------------===//

#include "InferTypeUtils.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::graph::infer;

namespace {

/// The result shape [N, O / B, OH, OW, B] of a blocked convolution (the
/// forms of graph.conv2d_nchwc; graph.conv2d_integer_nchwc has the blocked
/// one), after checking its attributes and operand shapes.
template <typename AdaptorT>
LogicalResult blockedConvShape(std::optional<Location> loc, AdaptorT &adaptor,
                               StringRef name, RankedTensorType inType,
                               RankedTensorType filterType, int64_t groups,
                               SmallVectorImpl<int64_t> &shape) {
  auto stridesA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, strides);
  auto padsA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, pads);
  auto dilationsA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, dilations);
  if (failed(requireAttr(loc, stridesA, "strides")) ||
      failed(requireAttr(loc, padsA, "pads")) ||
      failed(requireAttr(loc, dilationsA, "dilations")) ||
      failed(checkPositive(loc, stridesA.asArrayRef(), 2, "strides", false)) ||
      failed(checkPositive(loc, padsA.asArrayRef(), 4, "pads", true)) ||
      failed(
          checkPositive(loc, dilationsA.asArrayRef(), 2, "dilations", false)))
    return failure();
  ArrayRef<int64_t> in = inType.getShape(), w = filterType.getShape();
  int64_t inRank = in.size(), wRank = w.size();
  // (input rank, filter rank): blocked (5, 6), plain input (4, 5),
  // depthwise (5, 4).
  if (!((inRank == 5 && wRank == 6) || (inRank == 4 && wRank == 5) ||
        (inRank == 5 && wRank == 4)))
    return fail(loc, name +
                         " takes an input [N, C/B, H, W, B] with a "
                         "filter [O/B, C/B, KH, KW, B, B] or [C/B, KH, KW, "
                         "B], or an input [N, C, H, W] with a filter "
                         "[O/B, C, KH, KW, B]; got " +
                         typeStr(inType) + " and " + typeStr(filterType));
  if (groups < 1)
    return fail(loc, "groups must be positive, got " + Twine(groups));
  if (groups != 1 && wRank != 6)
    return fail(loc, name + " groups need the blocked form, got a filter " +
                         typeStr(filterType));
  int64_t block = w.back();
  int64_t kh = wRank == 4 ? w[1] : w[2], kw = wRank == 4 ? w[2] : w[3];
  bool ok = block > 0;
  if (wRank == 6)
    ok = ok && in[1] == w[1] * groups && w[0] % groups == 0 && in[4] == block &&
         w[4] == block;
  else if (wRank == 5)
    ok = ok && in[1] == w[1];
  else
    ok = ok && in[1] == w[0] && in[4] == block;
  if (!ok)
    return fail(loc, name + " filter " + typeStr(filterType) +
                         " does not match the input " + typeStr(inType));
  auto s = stridesA.asArrayRef(), p = padsA.asArrayRef(),
       d = dilationsA.asArrayRef();
  int64_t oh, ow;
  if (failed(windowOutSize(loc, "height", in[2], kh, s[0], p[0], p[2], d[0],
                           oh)) ||
      failed(
          windowOutSize(loc, "width", in[3], kw, s[1], p[1], p[3], d[1], ow)))
    return failure();
  shape.assign({in[0], w[0], oh, ow, block});
  return success();
}

} // namespace

LogicalResult Conv2DNchwcOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> shape;
  auto groupsA = GRAPH_ATTR(adaptor, IntegerAttr, groups);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(blockedConvShape(loc, adaptor, "conv2d_nchwc", types[0], types[1],
                              groupsA ? groupsA.getInt() : 1, shape)))
    return failure();
  int64_t outBlocks = shape[1], block = shape[4];
  if (types.size() == 3 &&
      types[2].getShape() != ArrayRef<int64_t>{outBlocks, block})
    return fail(loc, "bias must have shape [" + Twine(outBlocks) + "," +
                         Twine(block) + "], got " + typeStr(types[2]));
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

LogicalResult Conv2DIntegerNchwcOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> shape;
  if (failed(getRanked(loc, adaptor.getOperands(), types)))
    return failure();
  if (types[0].getRank() != 5 ||
      (types[1].getRank() != 6 && types[1].getRank() != 4))
    return fail(loc, "conv2d_integer_nchwc takes a blocked input [N, C/B, H, "
                     "W, B] and a filter [O/B, C/B, KH, KW, B, B] or [C/B, "
                     "KH, KW, B] (depthwise), got " +
                         typeStr(types[0]) + " and " + typeStr(types[1]));
  if (!types[1].getElementType().isSignlessInteger(8))
    return fail(loc, "conv2d_integer_nchwc filter must be int8, got " +
                         typeStr(types[1]));
  if (types[2].getElementType() != types[0].getElementType() ||
      types[2].getNumElements() != 1)
    return fail(loc, "input zero point " + typeStr(types[2]) +
                         " must be one value of the input's element type " +
                         typeStr(types[0]));
  auto groupsA = GRAPH_ATTR(adaptor, IntegerAttr, groups);
  if (failed(blockedConvShape(loc, adaptor, "conv2d_integer_nchwc", types[0],
                              types[1], groupsA ? groupsA.getInt() : 1, shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 32)));
  return success();
}

LogicalResult
WinogradInputOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)))
    return failure();
  ArrayRef<int64_t> in = types[0].getShape();
  if (in.size() != 5 || in[2] < 6 || in[3] < 6 || (in[2] - 2) % 4 != 0 ||
      (in[3] - 2) % 4 != 0)
    return fail(loc, "winograd_input takes a blocked input [N, C/B, 4*TH+2, "
                     "4*TW+2, B] of whole 6x6 tiles, got " +
                         typeStr(types[0]));
  results.push_back(RankedTensorType::get(
      {36, in[0], (in[2] - 2) / 4, (in[3] - 2) / 4, in[1], in[4]},
      types[0].getElementType()));
  return success();
}

LogicalResult
WinogradOutputOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto sizeA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, output_size);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, sizeA, "output_size")))
    return failure();
  ArrayRef<int64_t> in = types[0].getShape(), size = sizeA.asArrayRef();
  if (in.size() != 6 || in[0] != 36)
    return fail(loc, "winograd_output takes products [36, N, TH, TW, K/B, "
                     "B], got " +
                         typeStr(types[0]));
  if (size.size() != 2 || size[0] > 4 * in[2] || size[0] <= 4 * in[2] - 4 ||
      size[1] > 4 * in[3] || size[1] <= 4 * in[3] - 4)
    return fail(loc, "winograd_output output_size " + shapeStr(size) +
                         " does not fit " + Twine(in[2]) + "x" + Twine(in[3]) +
                         " tiles of 4x4");
  results.push_back(RankedTensorType::get(
      {in[1], in[4], size[0], size[1], in[5]}, types[0].getElementType()));
  return success();
}
