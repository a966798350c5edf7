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

/// argmax/argmin: one reduction generic over `axis` carrying the extreme
/// value and its index; an element replaces the accumulator when it is
/// strictly better (first index wins ties) or, with select_last_index, at
/// least as good. NaN beats every number, so the first (last) NaN wins.
template <typename OpTy, bool IsMax>
struct ArgReducePattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType();
    Type elt = inType.getElementType();
    int64_t axis = op.getAxis();
    bool last = op.getSelectLastIndex();
    ReductionLoops loops =
        reductionLoops(rewriter.getContext(), inType, axis, op.getKeepdims());
    auto valueType = RankedTensorType::get(loops.resultShape, elt);
    RankedTensorType indexType = op.getType();
    Value valueInit = filledTensor(rewriter, loc, valueType,
                                   IsMax ? lowestValue(rewriter, loc, elt)
                                         : highestValue(rewriter, loc, elt));
    Value indexInit =
        filledTensor(rewriter, loc, indexType,
                     scalarConstant(rewriter, loc, rewriter.getI64Type(), 0));
    int64_t axisLoop = loops.iterators.size() - 1;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indexType}, op.getInput(),
        ValueRange{valueInit, indexInit},
        ArrayRef<AffineMap>{loops.inputMap, loops.resultMap, loops.resultMap},
        loops.iterators, [&](OpBuilder &b, Location l, ValueRange a) {
          Value x = a[0], acc = a[1];
          Value take;
          if (isa<FloatType>(elt)) {
            using P = arith::CmpFPredicate;
            P pred =
                IsMax ? (last ? P::OGE : P::OGT) : (last ? P::OLE : P::OLT);
            Value better = arith::CmpFOp::create(b, l, pred, x, acc);
            Value xNaN = arith::CmpFOp::create(b, l, P::UNO, x, x);
            Value accNum = arith::CmpFOp::create(b, l, P::ORD, acc, acc);
            // First index: a NaN replaces only a number; last: any NaN.
            Value nanWins =
                last ? xNaN : arith::AndIOp::create(b, l, xNaN, accNum);
            take = arith::OrIOp::create(b, l, nanWins, better);
          } else {
            using P = arith::CmpIPredicate;
            P pred =
                IsMax ? (last ? P::sge : P::sgt) : (last ? P::sle : P::slt);
            take = arith::CmpIOp::create(b, l, pred, x, acc);
          }
          Value index = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axisLoop));
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, take, x, acc),
                         arith::SelectOp::create(b, l, take, index, a[2])});
        });
    rewriter.replaceOp(op, generic.getResult(1));
    return success();
  }
};

/// cumsum: loops over the result, then j along the axis (a reduction):
/// out[.., i, ..] += in[.., j, ..] for the j the attributes select, in
/// increasing j.
struct CumSumPattern : OpRewritePattern<CumSumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CumSumOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    SmallVector<AffineExpr> inExprs;
    for (int64_t d = 0; d < rank; ++d)
      inExprs.push_back(getAffineDimExpr(d == axis ? rank : d, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, inExprs, ctx),
        AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    using P = arith::CmpIPredicate;
    P pred = op.getReverse() ? (op.getExclusive() ? P::sgt : P::sge)
                             : (op.getExclusive() ? P::slt : P::sle);
    Value init =
        filledTensor(rewriter, loc, type,
                     scalarConstant(rewriter, loc, type.getElementType(), 0.0));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, op.getInput(), init, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value i = linalg::IndexOp::create(b, l, axis);
          Value j = linalg::IndexOp::create(b, l, rank);
          Value selected = arith::CmpIOp::create(b, l, pred, j, i);
          Value sum = addScalar(b, l, a[1], a[0]);
          linalg::YieldOp::create(
              b, l, Value(arith::SelectOp::create(b, l, selected, sum, a[1])));
        });
    rewriter.replaceOp(op, generic.getResult(0));
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
    else {
      // One division per row, not per element (a vdivps costs ten FMAs).
      Value inv = buildElementwise(
          rewriter, loc, cast<RankedTensorType>(sum.getType()), sum,
          [](OpBuilder &b, Location l, ValueRange a) {
            return arith::DivFOp::create(
                b, l, scalarConstant(b, l, a[0].getType(), 1.0), a[0]);
          });
      result =
          buildElementwise(rewriter, loc, type, ValueRange{e, inv},
                           [](OpBuilder &b, Location l, ValueRange a) {
                             return arith::MulFOp::create(b, l, a[0], a[1]);
                           });
    }
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
  patterns
      .add<ReducePattern<ReduceSumOp, ReduceKind::Sum, false>,
           ReducePattern<ReduceMeanOp, ReduceKind::Sum, true>,
           ReducePattern<ReduceMaxOp, ReduceKind::Max, false>,
           ReducePattern<ReduceMinOp, ReduceKind::Min, false>,
           ReducePattern<ReduceProdOp, ReduceKind::Prod, false>,
           ArgReducePattern<ArgMaxOp, true>, ArgReducePattern<ArgMinOp, false>,
           CumSumPattern, SoftmaxPattern<SoftmaxOp, false>,
           SoftmaxPattern<LogSoftmaxOp, true>, LayerNormPattern,
           BatchNormPattern>(patterns.getContext());
}
