//===- GraphOps.cpp - graph dialect ops and shape inference ---------------===//
//
// Every graph op infers its result type here. Inference is the single place
// where operand shapes, dtypes and attributes are checked against each other,
// so its messages are what users see for a bad model: they name the operand
// or attribute and the values involved.
//
//===----------------------------------------------------------------------===//

#include "InferTypeUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::graph::infer;

#include "mlc/Dialect/Graph/GraphDialect.cpp.inc"
#include "mlc/Dialect/Graph/GraphEnums.cpp.inc"
#include "mlc/Dialect/Graph/GraphInterfaces.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mlc/Dialect/Graph/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool mlc::graph::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                 SmallVectorImpl<int64_t> &result) {
  size_t rank = std::max(a.size(), b.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return false;
    result[i] = da == 1 ? db : da;
  }
  return true;
}

LogicalResult mlc::graph::inferAndSetResultTypes(Operation *op) {
  auto iface = dyn_cast<InferTypeOpInterface>(op);
  if (!iface)
    return success();
  SmallVector<Type> types;
  if (failed(iface.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), types)))
    return failure();
  if (types.size() != op->getNumResults())
    return op->emitOpError("inferred ")
           << types.size() << " result types for " << op->getNumResults()
           << " results";
  for (auto [res, type] : llvm::zip(op->getResults(), types))
    res.setType(type);
  return success();
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  auto value = GRAPH_ATTR(adaptor, ElementsAttr, value);
  if (failed(requireAttr(loc, value, "value")))
    return failure();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return fail(loc, "value must be a statically shaped tensor, got " +
                         typeStr(value.getType()));
  results.push_back(type);
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

#define GRAPH_BINARY_INFER(OP)                                                 \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferBinary(loc, adaptor.getOperands(), results);                   \
  }
GRAPH_BINARY_INFER(AddOp)
GRAPH_BINARY_INFER(SubOp)
GRAPH_BINARY_INFER(MulOp)
GRAPH_BINARY_INFER(DivOp)
GRAPH_BINARY_INFER(PowOp)
GRAPH_BINARY_INFER(MaxOp)
GRAPH_BINARY_INFER(MinOp)
GRAPH_BINARY_INFER(AndOp)
GRAPH_BINARY_INFER(OrOp)
GRAPH_BINARY_INFER(XorOp)
GRAPH_BINARY_INFER(ShiftLeftOp)
GRAPH_BINARY_INFER(ShiftRightOp)
#undef GRAPH_BINARY_INFER

#define GRAPH_SAME_INFER(OP)                                                   \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferSame(loc, adaptor.getOperands(), results);                     \
  }
GRAPH_SAME_INFER(NegOp)
GRAPH_SAME_INFER(AbsOp)
GRAPH_SAME_INFER(ReluOp)
GRAPH_SAME_INFER(ExpOp)
GRAPH_SAME_INFER(LogOp)
GRAPH_SAME_INFER(SqrtOp)
GRAPH_SAME_INFER(RsqrtOp)
GRAPH_SAME_INFER(TanhOp)
GRAPH_SAME_INFER(SigmoidOp)
GRAPH_SAME_INFER(ErfOp)
GRAPH_SAME_INFER(GeluOp)
GRAPH_SAME_INFER(SinOp)
GRAPH_SAME_INFER(CosOp)
GRAPH_SAME_INFER(TanOp)
GRAPH_SAME_INFER(AsinOp)
GRAPH_SAME_INFER(AcosOp)
GRAPH_SAME_INFER(AtanOp)
GRAPH_SAME_INFER(SinhOp)
GRAPH_SAME_INFER(CoshOp)
GRAPH_SAME_INFER(AsinhOp)
GRAPH_SAME_INFER(AcoshOp)
GRAPH_SAME_INFER(AtanhOp)
GRAPH_SAME_INFER(FloorOp)
GRAPH_SAME_INFER(CeilOp)
GRAPH_SAME_INFER(RoundOp)
GRAPH_SAME_INFER(SignOp)
GRAPH_SAME_INFER(NotOp)
#undef GRAPH_SAME_INFER

LogicalResult CompareOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  SmallVector<Type> bcast;
  if (failed(inferBinary(loc, adaptor.getOperands(), bcast)))
    return failure();
  results.push_back(cast<RankedTensorType>(bcast[0]).clone(
      IntegerType::get(ctx, 1)));
  return success();
}

LogicalResult ModOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  auto fmodA = GRAPH_ATTR(adaptor, BoolAttr, fmod);
  if (failed(requireAttr(loc, fmodA, "fmod")) ||
      failed(inferBinary(loc, adaptor.getOperands(), results)))
    return failure();
  Type elt = cast<RankedTensorType>(results[0]).getElementType();
  if (isa<FloatType>(elt) && !fmodA.getValue())
    return fail(loc, "mod of " + typeStr(elt) +
                         " needs fmod = true: floor modulo (fmod = false) "
                         "is defined for integers only");
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> shape;
  if (failed(getRanked(loc, adaptor.getOperands(), types)))
    return failure();
  if (!types[0].getElementType().isInteger(1))
    return fail(loc, "condition must be a bool (i1) tensor, got " +
                         typeStr(types[0]));
  if (failed(sameElementType(loc, {types[1], types[2]}, "selected values")) ||
      failed(broadcastAll(loc, types, shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, types[1].getElementType()));
  return success();
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto to = GRAPH_ATTR(adaptor, TypeAttr, to);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, to, "to")))
    return failure();
  Type elt = to.getValue();
  auto isInt = [&](unsigned width) {
    return elt.isSignlessInteger(width) || elt.isUnsignedInteger(width);
  };
  if (!elt.isF32() && !elt.isF64() && !elt.isF16() && !elt.isBF16() &&
      !isInt(64) && !isInt(32) && !isInt(16) && !isInt(8) &&
      !elt.isSignlessInteger(1))
    return fail(loc, "cannot cast to " + typeStr(elt) +
                         ": supported element types are f32, f64, f16, bf16, "
                         "i64, i32, i16, i8, ui64, ui32, ui16, ui8, i1");
  results.push_back(types[0].clone(elt));
  return success();
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

LogicalResult infer::matmulShape(std::optional<Location> loc,
                                 RankedTensorType lhs, RankedTensorType rhs,
                                 SmallVectorImpl<int64_t> &shape) {
  auto a = lhs.getShape(), b = rhs.getShape();
  if (a.size() < 2 || b.size() < 2)
    return fail(loc, "matmul operands must have rank >= 2, got " +
                         typeStr(lhs) + " and " + typeStr(rhs));
  if (a[a.size() - 1] != b[b.size() - 2])
    return fail(loc, "matmul contraction dimensions differ: lhs " +
                         typeStr(lhs) + " has K = " + Twine(a[a.size() - 1]) +
                         " but rhs " + typeStr(rhs) +
                         " has K = " + Twine(b[b.size() - 2]));
  SmallVector<int64_t> batch;
  if (!broadcastShapes(a.drop_back(2), b.drop_back(2), batch))
    return fail(loc, "matmul batch dimensions are not broadcast-compatible: " +
                         typeStr(lhs) + " and " + typeStr(rhs));
  shape.assign(batch.begin(), batch.end());
  shape.push_back(a[a.size() - 2]);
  shape.push_back(b[b.size() - 1]);
  return success();
}

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> shape;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(sameElementType(loc, types, "matmul operands")) ||
      failed(matmulShape(loc, types[0], types[1], shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Conv and pooling
//===----------------------------------------------------------------------===//

LogicalResult
infer::conv2dShape(std::optional<Location> loc, RankedTensorType input,
                   RankedTensorType filter, DenseI64ArrayAttr stridesA,
                   DenseI64ArrayAttr padsA, DenseI64ArrayAttr dilationsA,
                   IntegerAttr groupsA, SmallVectorImpl<int64_t> &shape) {
  if (failed(requireAttr(loc, stridesA, "strides")) ||
      failed(requireAttr(loc, padsA, "pads")) ||
      failed(requireAttr(loc, dilationsA, "dilations")) ||
      failed(requireAttr(loc, groupsA, "groups")) ||
      failed(requireRank(loc, input, 4, "conv2d input")) ||
      failed(requireRank(loc, filter, 4, "conv2d filter")) ||
      failed(checkPositive(loc, stridesA.asArrayRef(), 2, "strides", false)) ||
      failed(checkPositive(loc, padsA.asArrayRef(), 4, "pads", true)) ||
      failed(
          checkPositive(loc, dilationsA.asArrayRef(), 2, "dilations", false)))
    return failure();
  auto in = input.getShape(), w = filter.getShape();
  int64_t groups = groupsA.getInt();
  if (groups <= 0)
    return fail(loc, "groups must be positive, got " + Twine(groups));
  if (in[1] % groups != 0 || w[0] % groups != 0)
    return fail(loc, "input channels (" + Twine(in[1]) +
                         ") and output channels (" + Twine(w[0]) +
                         ") must be divisible by groups (" + Twine(groups) +
                         ")");
  if (w[1] * groups != in[1])
    return fail(loc, "filter " + typeStr(filter) + " expects " +
                         Twine(w[1] * groups) +
                         " input channels but the input " + typeStr(input) +
                         " has " + Twine(in[1]));
  auto s = stridesA.asArrayRef(), p = padsA.asArrayRef(),
       d = dilationsA.asArrayRef();
  int64_t oh, ow;
  if (failed(windowOutSize(loc, "height", in[2], w[2], s[0], p[0], p[2], d[0],
                           oh)) ||
      failed(windowOutSize(loc, "width", in[3], w[3], s[1], p[1], p[3], d[1],
                           ow)))
    return failure();
  shape.assign({in[0], w[0], oh, ow});
  return success();
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> shape;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(conv2dShape(loc, adaptor, types[0], types[1], shape)))
    return failure();
  if (types.size() == 3) {
    auto bias = types[2].getShape();
    if (bias.size() != 1 || bias[0] != shape[1])
      return fail(loc, "bias must have shape [" + Twine(shape[1]) + "], got " +
                           typeStr(types[2]));
  }
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

namespace {
/// NCHW, or the blocked [N, C / B, H, W, B] of graph-block-channels.
LogicalResult requireBlockedOrPlain(std::optional<Location> loc,
                                    RankedTensorType t, StringRef what) {
  if (t.getRank() == 5)
    return success();
  return requireRank(loc, t, 4, what);
}

LogicalResult inferPool(std::optional<Location> loc, ValueRange operands,
                        DenseI64ArrayAttr kernelA, DenseI64ArrayAttr stridesA,
                        DenseI64ArrayAttr padsA, ArrayRef<int64_t> dilations,
                        SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, operands, types)) ||
      failed(requireAttr(loc, kernelA, "kernel")) ||
      failed(requireAttr(loc, stridesA, "strides")) ||
      failed(requireAttr(loc, padsA, "pads")) ||
      failed(requireBlockedOrPlain(loc, types[0], "pooling input")) ||
      failed(checkPositive(loc, kernelA.asArrayRef(), 2, "kernel", false)) ||
      failed(checkPositive(loc, stridesA.asArrayRef(), 2, "strides", false)) ||
      failed(checkPositive(loc, padsA.asArrayRef(), 4, "pads", true)) ||
      failed(checkPositive(loc, dilations, 2, "dilations", false)))
    return failure();
  auto in = types[0].getShape();
  auto k = kernelA.asArrayRef(), s = stridesA.asArrayRef(),
       p = padsA.asArrayRef();
  // A pad as large as the window would give windows made only of padding.
  if (p[0] >= k[0] || p[2] >= k[0] || p[1] >= k[1] || p[3] >= k[1])
    return fail(loc, "pads " + shapeStr(p) +
                         " must be smaller than the kernel " + shapeStr(k));
  int64_t oh, ow;
  if (failed(windowOutSize(loc, "height", in[2], k[0], s[0], p[0], p[2],
                           dilations[0], oh)) ||
      failed(windowOutSize(loc, "width", in[3], k[1], s[1], p[1], p[3],
                           dilations[1], ow)))
    return failure();
  SmallVector<int64_t> shape(in);
  shape[2] = oh;
  shape[3] = ow;
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}
} // namespace

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  auto dilations = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, dilations);
  if (failed(requireAttr(loc, dilations, "dilations")))
    return failure();
  return inferPool(loc, adaptor.getOperands(),
                   GRAPH_ATTR(adaptor, DenseI64ArrayAttr, kernel),
                   GRAPH_ATTR(adaptor, DenseI64ArrayAttr, strides),
                   GRAPH_ATTR(adaptor, DenseI64ArrayAttr, pads),
                   dilations.asArrayRef(), results);
}

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  if (failed(requireAttr(loc, GRAPH_ATTR(adaptor, BoolAttr, count_include_pad),
                         "count_include_pad")))
    return failure();
  int64_t ones[] = {1, 1};
  return inferPool(loc, adaptor.getOperands(),
                   GRAPH_ATTR(adaptor, DenseI64ArrayAttr, kernel),
                   GRAPH_ATTR(adaptor, DenseI64ArrayAttr, strides),
                   GRAPH_ATTR(adaptor, DenseI64ArrayAttr, pads), ones,
                   results);
}

LogicalResult GlobalAvgPoolOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireBlockedOrPlain(loc, types[0], "global_avgpool input")))
    return failure();
  SmallVector<int64_t> shape(types[0].getShape());
  shape[2] = shape[3] = 1;
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// Batch-norm style operands: an input of rank >= 2 (N, C, ...) and one
/// [C] tensor per name after it.
static LogicalResult checkPerChannel(std::optional<Location> loc,
                                     StringRef op,
                                     ArrayRef<RankedTensorType> types,
                                     ArrayRef<const char *> names) {
  if (types[0].getRank() < 2)
    return fail(loc, op + " input must have rank >= 2 (N, C, ...), got " +
                         typeStr(types[0]));
  int64_t channels = types[0].getDimSize(1);
  for (auto [i, name] : llvm::enumerate(names))
    if (types[i + 1].getRank() != 1 ||
        types[i + 1].getDimSize(0) != channels)
      return fail(loc, op + " " + name + " must have shape [" +
                           Twine(channels) +
                           "] (the input's channel count), got " +
                           typeStr(types[i + 1]));
  return success();
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, GRAPH_ATTR(adaptor, FloatAttr, epsilon),
                         "epsilon")))
    return failure();
  if (failed(checkPerChannel(loc, "batch_norm", types,
                             {"scale", "bias", "mean", "variance"})))
    return failure();
  results.push_back(types[0]);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axisA = GRAPH_ATTR(adaptor, IntegerAttr, axis);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axisA, "axis")) ||
      failed(requireAttr(loc, GRAPH_ATTR(adaptor, FloatAttr, epsilon),
                         "epsilon")))
    return failure();
  int64_t rank = types[0].getRank(), axis = axisA.getInt();
  if (axis < 0 || axis >= rank)
    return fail(loc, "layer_norm axis " + Twine(axis) +
                         " must be in [0, " + Twine(rank) + ")");
  auto normShape = types[0].getShape().drop_front(axis);
  for (int i = 1; i < 3; ++i)
    if (types[i].getShape() != normShape)
      return fail(loc, Twine("layer_norm ") + (i == 1 ? "scale" : "bias") +
                           " must have shape " + shapeStr(normShape) +
                           ", got " + typeStr(types[i]));
  results.push_back(types[0]);
  return success();
}

namespace {
template <typename AdaptorT>
LogicalResult inferSoftmax(std::optional<Location> loc, AdaptorT &adaptor,
                           IntegerAttr axisA, SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axisA, "axis")))
    return failure();
  int64_t axis = axisA.getInt(), rank = types[0].getRank();
  if (axis < 0 || axis >= rank)
    return fail(loc, "axis " + Twine(axis) + " must be in [0, " +
                         Twine(rank) + ")");
  results.push_back(types[0]);
  return success();
}
} // namespace

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  return inferSoftmax(loc, adaptor, GRAPH_ATTR(adaptor, IntegerAttr, axis),
                      results);
}

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  return inferSoftmax(loc, adaptor, GRAPH_ATTR(adaptor, IntegerAttr, axis),
                      results);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
template <typename AdaptorT>
LogicalResult inferReduce(std::optional<Location> loc, AdaptorT &adaptor,
                          SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axesA = GRAPH_ATTR(adaptor, DenseI64ArrayAttr, axes);
  auto keepA = GRAPH_ATTR(adaptor, BoolAttr, keepdims);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axesA, "axes")) ||
      failed(requireAttr(loc, keepA, "keepdims")))
    return failure();
  int64_t rank = types[0].getRank();
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t a : axesA.asArrayRef()) {
    if (a < 0 || a >= rank)
      return fail(loc, "reduction axis " + Twine(a) + " must be in [0, " +
                           Twine(rank) + ")");
    if (!seen.insert(a).second)
      return fail(loc, "reduction axis " + Twine(a) + " appears twice");
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!seen.contains(d))
      shape.push_back(types[0].getDimSize(d));
    else if (keepA.getValue())
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}
} // namespace

#define GRAPH_REDUCE_INFER(OP)                                                 \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferReduce(loc, adaptor, results);                                 \
  }
GRAPH_REDUCE_INFER(ReduceSumOp)
GRAPH_REDUCE_INFER(ReduceMeanOp)
GRAPH_REDUCE_INFER(ReduceMaxOp)
GRAPH_REDUCE_INFER(ReduceMinOp)
GRAPH_REDUCE_INFER(ReduceProdOp)
#undef GRAPH_REDUCE_INFER

namespace {
template <typename AdaptorT>
LogicalResult inferArgReduce(MLIRContext *ctx, std::optional<Location> loc,
                             AdaptorT &adaptor,
                             SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axisA = GRAPH_ATTR(adaptor, IntegerAttr, axis);
  auto keepA = GRAPH_ATTR(adaptor, BoolAttr, keepdims);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axisA, "axis")) ||
      failed(requireAttr(loc, keepA, "keepdims")) ||
      failed(requireAttr(loc, GRAPH_ATTR(adaptor, BoolAttr, select_last_index),
                         "select_last_index")))
    return failure();
  int64_t axis = axisA.getInt();
  if (failed(checkAxis(loc, "axis", axis, types[0].getRank())))
    return failure();
  if (types[0].getDimSize(axis) == 0)
    return fail(loc, "cannot take an index along dimension " + Twine(axis) +
                         " of " + typeStr(types[0]) + ": it is empty");
  SmallVector<int64_t> shape(types[0].getShape());
  if (keepA.getValue())
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  results.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}
} // namespace

LogicalResult CumSumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  auto axisA = GRAPH_ATTR(adaptor, IntegerAttr, axis);
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireAttr(loc, axisA, "axis")) ||
      failed(requireAttr(loc, GRAPH_ATTR(adaptor, BoolAttr, exclusive),
                         "exclusive")) ||
      failed(requireAttr(loc, GRAPH_ATTR(adaptor, BoolAttr, reverse),
                         "reverse")) ||
      failed(checkAxis(loc, "cumsum axis", axisA.getInt(), types[0].getRank())))
    return failure();
  results.push_back(types[0]);
  return success();
}

#define GRAPH_ARG_REDUCE_INFER(OP)                                             \
  LogicalResult OP::inferReturnTypes(MLIRContext *ctx,                         \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &results) {         \
    return inferArgReduce(ctx, loc, adaptor, results);                         \
  }
GRAPH_ARG_REDUCE_INFER(ArgMaxOp)
GRAPH_ARG_REDUCE_INFER(ArgMinOp)
#undef GRAPH_ARG_REDUCE_INFER

//===----------------------------------------------------------------------===//
// Training ops
//===----------------------------------------------------------------------===//

LogicalResult StopGradientOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  return inferSame(loc, adaptor.getOperands(), results);
}

LogicalResult BatchNormTrainOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(sameElementType(loc, types, "batch_norm_train operands")) ||
      failed(requireAttr(loc, GRAPH_ATTR(adaptor, FloatAttr, epsilon),
                         "epsilon")))
    return failure();
  if (failed(checkPerChannel(loc, "batch_norm_train", types,
                             {"scale", "bias"})))
    return failure();
  results.push_back(types[0]);
  results.push_back(types[1]);
  results.push_back(types[1]);
  return success();
}

LogicalResult SoftmaxCrossEntropyOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(requireRank(loc, types[0], 2, "softmax_cross_entropy logits")) ||
      failed(requireRank(loc, types[1], 1, "softmax_cross_entropy labels")))
    return failure();
  if (types[1].getDimSize(0) != types[0].getDimSize(0))
    return fail(loc, "softmax_cross_entropy labels " + typeStr(types[1]) +
                         " must have one entry per row of logits " +
                         typeStr(types[0]));
  results.push_back(RankedTensorType::get({}, types[0].getElementType()));
  return success();
}

LogicalResult MSELossOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)))
    return failure();
  if (types[0] != types[1])
    return fail(loc, "mse_loss prediction and target must have the same "
                     "type, got " + typeStr(types[0]) + " and " +
                         typeStr(types[1]));
  results.push_back(RankedTensorType::get({}, types[0].getElementType()));
  return success();
}

/// Optimizer state and gradients have the parameter's type.
static LogicalResult checkLikeParam(std::optional<Location> loc, StringRef op,
                                    ArrayRef<RankedTensorType> types,
                                    ArrayRef<const char *> names) {
  for (size_t i = 1; i < std::min(names.size(), types.size()); ++i)
    if (types[i] != types[0])
      return fail(loc, op + " " + names[i] + " must have the param's type " +
                           typeStr(types[0]) + ", got " + typeStr(types[i]));
  return success();
}

LogicalResult SGDUpdateOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(checkLikeParam(loc, "sgd_update", types,
                            {"param", "grad", "velocity"})))
    return failure();
  auto momentum = GRAPH_ATTR(adaptor, FloatAttr, momentum);
  if (failed(requireAttr(loc, momentum, "momentum")))
    return failure();
  bool hasVelocity = types.size() == 3;
  if (hasVelocity != (momentum.getValueAsDouble() != 0))
    return fail(loc, hasVelocity
                         ? "sgd_update with momentum 0 takes no velocity"
                         : "sgd_update with momentum needs a velocity");
  results.append(types.size() - 1, types[0]);
  return success();
}

LogicalResult AdamUpdateOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, adaptor.getOperands(), types)) ||
      failed(checkLikeParam(loc, "adam_update", ArrayRef(types).take_front(4),
                            {"param", "grad", "m", "v"})))
    return failure();
  if (types[4].getRank() != 0 ||
      types[4].getElementType() != types[0].getElementType())
    return fail(loc, "adam_update step must be a scalar of the param's "
                     "element type, got " + typeStr(types[4]));
  results.append(3, types[0]);
  return success();
}

//===----------------------------------------------------------------------===//
// Fusion groups
//===----------------------------------------------------------------------===//

void FusionGroupOp::build(OpBuilder &builder, OperationState &state,
                          TypeRange resultTypes, ValueRange inputs,
                          StringRef kind) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  state.addAttribute(getKindAttrName(state.name), builder.getStringAttr(kind));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value in : inputs)
    block->addArgument(in.getType(), in.getLoc());
}

LogicalResult FusionGroupOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("has ") << getInputs().size() << " inputs but its body "
                               << block.getNumArguments() << " arguments";
  for (auto [i, in, arg] : llvm::enumerate(getInputs(), block.getArguments()))
    if (in.getType() != arg.getType())
      return emitOpError("input #") << i << " has type " << in.getType()
                                     << " but body argument #" << i
                                     << " has type " << arg.getType();
  auto yield = cast<YieldOp>(block.getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().getTypes() << " but its results are "
           << getResultTypes();
  // Graph ops at graph level; convert-graph-to-linalg lowers them in place,
  // so any op may appear, but groups never nest.
  for (Operation &op : block.without_terminator())
    if (isa<FusionGroupOp>(op))
      return op.emitOpError("fusion groups cannot be nested");
  return success();
}

#define GET_OP_CLASSES
#include "mlc/Dialect/Graph/GraphOps.cpp.inc"
