//===- Upsampling.cpp - resize and conv_transpose2d -> linalg -------------===//
//
// graph.resize becomes one all-parallel generic over its result that reads
// the input at the tabled indices (see mlc/Conversion/ResizeGeneric.h):
// Prod(taps) reads per element, no dense interpolation matrix, no
// transposes. graph.conv_transpose2d becomes one contraction over the input
// channels whose result is [N, Co, H, KH, W, KW], a row-major view of
// [N, Co, H * KH, W * KW] (collapse_shape), so every loop indexes its
// operands by plain dims and the contraction kernel applies.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlc/Conversion/GraphToLinalg/ResizeGeneric.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::lowering;

using utils::IteratorType;

Value mlc::lowering::buildResizeGeneric(OpBuilder &b, Location loc,
                                        Value source, RankedTensorType type,
                                        ArrayRef<int64_t> axes,
                                        ValueRange indices,
                                        ValueRange weights) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  ArrayRef<int64_t> inShape =
      cast<RankedTensorType>(source.getType()).getShape();
  // Inputs: (index, weight) of every tap of every axis, read at [t, o].
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (auto [k, axis] : llvm::enumerate(axes)) {
    int64_t taps = cast<RankedTensorType>(indices[k].getType()).getDimSize(0);
    for (int64_t t = 0; t < taps; ++t) {
      AffineMap m = AffineMap::get(
          rank, 0, {getAffineConstantExpr(t, ctx), getAffineDimExpr(axis, ctx)},
          ctx);
      inputs.append({indices[k], weights[k]});
      maps.append({m, m});
    }
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  auto generic = linalg::GenericOp::create(
      b, loc, type, inputs, emptyTensor(b, loc, type), maps,
      SmallVector<IteratorType>(rank, IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> coord;
        for (int64_t d = 0; d < rank; ++d)
          coord.push_back(llvm::is_contained(axes, d)
                              ? Value()
                              : Value(linalg::IndexOp::create(nb, l, d)));
        // Block arguments of axis k start at 2 * firstTap[k].
        SmallVector<int64_t> firstTap;
        int64_t count = 0;
        for (Value idx : indices) {
          firstTap.push_back(count);
          count += cast<RankedTensorType>(idx.getType()).getDimSize(0);
        }
        auto c = [&](int64_t v) {
          return arith::ConstantIndexOp::create(nb, l, v);
        };
        // The taps of axes [0, k) summed around the input element.
        std::function<Value(size_t)> value = [&](size_t k) -> Value {
          if (k == 0)
            return tensor::ExtractOp::create(nb, l, source, coord);
          int64_t axis = axes[k - 1];
          int64_t taps =
              cast<RankedTensorType>(indices[k - 1].getType()).getDimSize(0);
          Value acc;
          for (int64_t t = 0; t < taps; ++t) {
            Value idx = arith::IndexCastOp::create(
                nb, l, nb.getIndexType(), args[2 * (firstTap[k - 1] + t)]);
            coord[axis] = arith::MinSIOp::create(
                nb, l, arith::MaxSIOp::create(nb, l, idx, c(0)),
                c(inShape[axis] - 1));
            Value w = args[2 * (firstTap[k - 1] + t) + 1];
            Value term = arith::MulFOp::create(nb, l, w, value(k - 1));
            acc = t == 0 ? term : arith::AddFOp::create(nb, l, acc, term);
          }
          return acc;
        };
        linalg::YieldOp::create(nb, l, value(axes.size()));
      });
  generic->setAttr(kResizeAxesAttr, b.getDenseI64ArrayAttr(axes));
  return generic.getResult(0);
}

std::optional<ResizeGeneric>
mlc::lowering::matchResizeGeneric(linalg::GenericOp op) {
  auto axesAttr = op->getAttrOfType<DenseI64ArrayAttr>(kResizeAxesAttr);
  if (!axesAttr || op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics())
    return std::nullopt;
  ResizeGeneric r;
  r.axes.assign(axesAttr.asArrayRef().begin(), axesAttr.asArrayRef().end());
  SmallVector<Value> inputs = op.getDpsInputs();
  size_t pos = 0;
  for (int64_t axis : r.axes) {
    (void)axis;
    if (pos + 2 > inputs.size())
      return std::nullopt;
    Value idx = inputs[pos], w = inputs[pos + 1];
    auto type = dyn_cast<RankedTensorType>(idx.getType());
    if (!type || type.getRank() != 2)
      return std::nullopt;
    for (int64_t t = 0; t < type.getDimSize(0); ++t, pos += 2)
      if (pos + 2 > inputs.size() || inputs[pos] != idx || inputs[pos + 1] != w)
        return std::nullopt;
    r.indices.push_back(idx);
    r.weights.push_back(w);
  }
  if (pos != inputs.size())
    return std::nullopt;
  op.getBody()->walk([&](tensor::ExtractOp extract) {
    r.source = extract.getTensor();
    return WalkResult::interrupt();
  });
  if (!r.source)
    return std::nullopt;
  return r;
}

namespace {

struct ResizePattern : OpRewritePattern<ResizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ResizeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       buildResizeGeneric(rewriter, op.getLoc(), op.getInput(),
                                          op.getType(), op.getAxes(),
                                          op.getIndices(), op.getWeights()));
    return success();
  }
};

/// y6[n, co, h, i, w, j] = bias[co] + sum_ci x[n, ci, h, w] f[ci, co, i, j]
/// with the bias as the accumulator's initial value (as conv2d's).
struct ConvTranspose2DPattern : OpRewritePattern<ConvTranspose2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvTranspose2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType outType = op.getType();
    Type elt = outType.getElementType();
    ArrayRef<int64_t> xs = op.getInput().getType().getShape();
    ArrayRef<int64_t> fs = op.getFilter().getType().getShape();
    auto accType =
        RankedTensorType::get({xs[0], fs[1], xs[2], fs[2], xs[3], fs[3]}, elt);
    auto e = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    Value init = accumulatorInit(rewriter, loc, accType, op.getBias(),
                                 AffineMap::get(6, 0, {e(1)}, ctx));
    // Loops: n, co, h, i, w, j | ci.
    Value acc = multiplyAccumulate(
        rewriter, loc, op.getInput(), op.getFilter(), init,
        {AffineMap::get(7, 0, {e(0), e(6), e(2), e(4)}, ctx),
         AffineMap::get(7, 0, {e(6), e(1), e(3), e(5)}, ctx),
         AffineMap::get(7, 0, {e(0), e(1), e(2), e(3), e(4), e(5)}, ctx)});
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, outType, acc,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
    return success();
  }
};

} // namespace

void mlc::lowering::populateUpsamplingPatterns(RewritePatternSet &patterns) {
  patterns.add<ResizePattern, ConvTranspose2DPattern>(patterns.getContext());
}
