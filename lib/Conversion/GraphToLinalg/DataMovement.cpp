//===- DataMovement.cpp - shape and indexing ops -> tensor/linalg ---------===//
//
// Reshape, slice and concat become tensor ops that bufferize to views or
// in-place writes; transpose and gather become linalg ops; constants become
// arith.constant keeping their dense_resource blobs.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::lowering;

namespace {

struct ConstantPattern : OpRewritePattern<ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConstantOp op,
                                PatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "constant is not a TypedAttr");
    // ui8 constants (zero points) become i8 constants of the same bytes.
    Type type = signlessType(value.getType());
    if (type != value.getType()) {
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(cast<ShapedType>(type).getElementType());
      else if (auto blob = dyn_cast<DenseResourceElementsAttr>(value))
        value = DenseResourceElementsAttr::get(cast<ShapedType>(type),
                                               blob.getRawHandle());
      else
        return rewriter.notifyMatchFailure(op, "unsigned constant kind");
    }
    Value c = arith::ConstantOp::create(rewriter, op.getLoc(), value);
    rewriter.replaceOp(op,
                       fromSignless(rewriter, op.getLoc(), c, op.getType()));
    return success();
  }
};

struct ReshapePattern : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, reshapeTensor(rewriter, op.getLoc(), op.getInput(),
                                         op.getType().getShape()));
    return success();
  }
};

struct TransposePattern : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Value init = emptyTensor(rewriter, op.getLoc(), op.getType());
    auto t = linalg::TransposeOp::create(rewriter, op.getLoc(), op.getInput(),
                                         init, op.getPerm());
    rewriter.replaceOp(op, t.getResult());
    return success();
  }
};

struct ConcatPattern : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    Value result = emptyTensor(rewriter, loc, op.getType());
    int64_t offset = 0;
    for (Value in : op.getInputs()) {
      auto type = cast<RankedTensorType>(in.getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        offsets.push_back(rewriter.getIndexAttr(d == axis ? offset : 0));
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        strides.push_back(rewriter.getIndexAttr(1));
      }
      result = tensor::InsertSliceOp::create(rewriter, loc, in, result,
                                             offsets, sizes, strides);
      offset += type.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SlicePattern : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (int64_t d = 0; d < op.getType().getRank(); ++d) {
      offsets.push_back(rewriter.getIndexAttr(op.getStarts()[d]));
      sizes.push_back(rewriter.getIndexAttr(op.getType().getDimSize(d)));
      strides.push_back(rewriter.getIndexAttr(op.getSteps()[d]));
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), op.getInput(), offsets, sizes, strides);
    return success();
  }
};

struct PadPattern : OpRewritePattern<PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PadOp op,
                                PatternRewriter &rewriter) const override {
    int64_t rank = op.getInput().getType().getRank();
    auto pads = op.getPads();
    Location loc = op.getLoc();
    // A ui8 tensor is padded as its signless bytes.
    Value input = toSignless(rewriter, loc, op.getInput());
    Value value = scalarConstant(
        rewriter, loc, cast<RankedTensorType>(input.getType()).getElementType(),
        op.getValue().convertToDouble());
    Value padded = padTensor(rewriter, loc, input, pads.take_front(rank),
                             pads.drop_front(rank), value);
    rewriter.replaceOp(op, fromSignless(rewriter, loc, padded, op.getType()));
    return success();
  }
};

/// An index into a dim of `size` as gather ops read it: a negative index
/// wraps once, and the rest is clamped so bad data cannot read outside the
/// tensor.
Value clampedIndex(OpBuilder &b, Location l, Value index, int64_t size) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, l, v); };
  Value idx = arith::IndexCastOp::create(b, l, b.getIndexType(), index);
  Value isNeg =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx, c(0));
  Value wrapped = arith::SelectOp::create(
      b, l, isNeg, arith::AddIOp::create(b, l, idx, c(size)), idx);
  return arith::MinSIOp::create(
      b, l, arith::MaxSIOp::create(b, l, wrapped, c(0)), c(size - 1));
}

/// out[i.., j.., k..] = data[i.., clamp(wrap(indices[j..])), k..]
struct GatherPattern : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType outType = op.getType();
    Value data = op.getData();
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t axis = op.getAxis();
    int64_t idxRank = op.getIndices().getType().getRank();
    int64_t outRank = outType.getRank();
    int64_t axisSize = dataType.getDimSize(axis);

    SmallVector<AffineExpr> idxExprs;
    for (int64_t i = 0; i < idxRank; ++i)
      idxExprs.push_back(getAffineDimExpr(axis + i, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(outRank, 0, idxExprs, ctx),
        AffineMap::getMultiDimIdentityMap(outRank, ctx)};
    SmallVector<utils::IteratorType> iterators(outRank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, outType, op.getIndices(),
        emptyTensor(rewriter, loc, outType), maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value clamped = clampedIndex(b, l, a[0], axisSize);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < axis; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          coords.push_back(clamped);
          for (int64_t d = axis + idxRank; d < outRank; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          Value v = tensor::ExtractOp::create(b, l, data, coords);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// One elementwise generic whose input map broadcasts (no copy of the
/// input's own elements).
struct BroadcastToPattern : OpRewritePattern<BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastToOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, buildElementwise(rewriter, op.getLoc(), op.getType(),
                                            op.getInput(),
                                            [](OpBuilder &, Location,
                                               ValueRange a) { return a[0]; }));
    return success();
  }
};

/// out[i][j][k] = data[clamp(wrap(indices[i][j][k]))][j][k] (axis 0): one
/// parallel generic over the indices' shape.
struct GatherElementsPattern : OpRewritePattern<GatherElementsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherElementsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getType();
    Value data = op.getData();
    int64_t axis = op.getAxis();
    int64_t axisSize = cast<RankedTensorType>(data.getType()).getDimSize(axis);
    Value result = buildElementwise(
        rewriter, loc, outType, op.getIndices(),
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < outType.getRank(); ++d)
            coords.push_back(d == axis ? clampedIndex(b, l, a[0], axisSize)
                                       : linalg::IndexOp::create(b, l, d));
          return tensor::ExtractOp::create(b, l, data, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlc::lowering::populateDataMovementPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantPattern, ReshapePattern, TransposePattern, ConcatPattern,
               SlicePattern, PadPattern, GatherPattern, GatherElementsPattern,
               BroadcastToPattern>(patterns.getContext());
}
