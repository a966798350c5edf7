//===- Normalization.cpp - reductions, softmax and norms -> linalg --------===//
//
// Row-wise ops are composed from reductions and broadcasting elementwise
// generics; fusion (a later pass) merges them into single kernels.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::lowering;

namespace {

int64_t countOver(RankedTensorType type, ArrayRef<int64_t> axes) {
  int64_t n = 1;
  for (int64_t a : axes)
    n *= type.getDimSize(a);
  return n;
}

template <typename OpTy, ReduceKind Kind, bool Mean>
struct ReducePattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> axes(op.getAxes());
    llvm::sort(axes);
    Value r = buildReduction(rewriter, loc, op.getInput(), axes, Kind,
                             op.getKeepdims());
    if (Mean)
      r = divideByConstant(rewriter, loc, r,
                           double(countOver(op.getInput().getType(), axes)));
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Mean over `axes` with kept dims.
Value meanKeep(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(x.getType());
  Value sum = buildReduction(b, loc, x, axes, ReduceKind::Sum, true);
  return divideByConstant(b, loc, sum, double(countOver(type, axes)));
}

template <typename OpTy, bool Log>
struct SoftmaxPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t axis = op.getAxis();
    Value x = op.getInput();
    // Subtracting the row max keeps exp from overflowing.
    Value max = buildReduction(rewriter, loc, x, axis, ReduceKind::Max, true);
    Value shifted = buildElementwise(
        rewriter, loc, type, ValueRange{x, max},
        [](OpBuilder &b, Location l, ValueRange a) {
          return arith::SubFOp::create(b, l, a[0], a[1]);
        });
    Value e = buildElementwise(rewriter, loc, type, shifted,
                               [](OpBuilder &b, Location l, ValueRange a) {
                                 return math::ExpOp::create(b, l, a[0]);
                               });
    Value sum = buildReduction(rewriter, loc, e, axis, ReduceKind::Sum, true);
    Value result;
    if (Log)
      result = buildElementwise(
          rewriter, loc, type, ValueRange{shifted, sum},
          [](OpBuilder &b, Location l, ValueRange a) {
            return arith::SubFOp::create(b, l, a[0],
                                         math::LogOp::create(b, l, a[1]));
          });
    else
      result = buildElementwise(
          rewriter, loc, type, ValueRange{e, sum},
          [](OpBuilder &b, Location l, ValueRange a) {
            return arith::DivFOp::create(b, l, a[0], a[1]);
          });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LayerNormPattern : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    SmallVector<int64_t> axes;
    for (int64_t d = op.getAxis(); d < type.getRank(); ++d)
      axes.push_back(d);
    Value x = op.getInput();
    Value mean = meanKeep(rewriter, loc, x, axes);
    Value centered = buildElementwise(
        rewriter, loc, type, ValueRange{x, mean},
        [](OpBuilder &b, Location l, ValueRange a) {
          return arith::SubFOp::create(b, l, a[0], a[1]);
        });
    Value sq = buildElementwise(rewriter, loc, type, centered,
                                [](OpBuilder &b, Location l, ValueRange a) {
                                  return arith::MulFOp::create(b, l, a[0],
                                                               a[0]);
                                });
    Value var = meanKeep(rewriter, loc, sq, axes);
    Value eps = scalarConstant(rewriter, loc, type.getElementType(),
                               op.getEpsilon().convertToDouble());
    Value result = buildElementwise(
        rewriter, loc, type,
        ValueRange{centered, var, op.getScale(), op.getBias()},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value inv =
              math::RsqrtOp::create(b, l, arith::AddFOp::create(b, l, a[1], eps));
          Value n = arith::MulFOp::create(b, l, a[0], inv);
          return arith::AddFOp::create(b, l,
                                       arith::MulFOp::create(b, l, n, a[2]),
                                       a[3]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BatchNormPattern : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    // Per-channel params [C] -> [C, 1, ..., 1] so they broadcast along
    // axis 1 of [N, C, ...].
    SmallVector<int64_t> paramShape(type.getRank() - 1, 1);
    paramShape[0] = type.getDimSize(1);
    auto param = [&](Value v) {
      return reshapeTensor(rewriter, loc, v, paramShape);
    };
    Value eps = scalarConstant(rewriter, loc, type.getElementType(),
                               op.getEpsilon().convertToDouble());
    Value result = buildElementwise(
        rewriter, loc, type,
        ValueRange{op.getInput(), param(op.getScale()), param(op.getBias()),
                   param(op.getMean()), param(op.getVariance())},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value inv =
              math::RsqrtOp::create(b, l, arith::AddFOp::create(b, l, a[4], eps));
          Value n = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, a[0], a[3]), inv);
          return arith::AddFOp::create(b, l,
                                       arith::MulFOp::create(b, l, n, a[1]),
                                       a[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlc::lowering::populateNormalizationPatterns(RewritePatternSet &patterns) {
  patterns.add<ReducePattern<ReduceSumOp, ReduceKind::Sum, false>,
               ReducePattern<ReduceMeanOp, ReduceKind::Sum, true>,
               ReducePattern<ReduceMaxOp, ReduceKind::Max, false>,
               SoftmaxPattern<SoftmaxOp, false>,
               SoftmaxPattern<LogSoftmaxOp, true>, LayerNormPattern,
               BatchNormPattern>(patterns.getContext());
}
