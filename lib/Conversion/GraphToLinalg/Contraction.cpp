//===- Contraction.cpp - matmul, conv and pooling -> linalg.generic -------===//
//
// Contractions and sliding windows become one linalg.generic each with the
// parallel loops first and the reduction loops innermost. Broadcast batch
// dims and conv groups are expressed in indexing maps rather than copies.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::lowering;

using utils::IteratorType;

SmallVector<AffineMap> mlc::lowering::matmulMaps(MLIRContext *ctx,
                                                 ArrayRef<int64_t> lhsShape,
                                                 ArrayRef<int64_t> rhsShape,
                                                 RankedTensorType outType) {
  int64_t outRank = outType.getRank();
  int64_t batchRank = outRank - 2;
  // Loops: batch..., m, n, k.
  int64_t numLoops = outRank + 1;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  auto operandMap = [&](ArrayRef<int64_t> shape, AffineExpr row,
                        AffineExpr col) {
    SmallVector<AffineExpr> exprs;
    int64_t opBatch = shape.size() - 2;
    for (int64_t i = 0; i < opBatch; ++i) {
      int64_t outDim = batchRank - opBatch + i;
      exprs.push_back(shape[i] == 1 && outType.getDimSize(outDim) != 1
                          ? getAffineConstantExpr(0, ctx)
                          : dim(outDim));
    }
    exprs.push_back(row);
    exprs.push_back(col);
    return AffineMap::get(numLoops, 0, exprs, ctx);
  };
  AffineExpr m = dim(batchRank), n = dim(batchRank + 1), k = dim(batchRank + 2);
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < outRank; ++i)
    outExprs.push_back(dim(i));
  return {operandMap(lhsShape, m, k), operandMap(rhsShape, k, n),
          AffineMap::get(numLoops, 0, outExprs, ctx)};
}

namespace {

struct MatMulPattern : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getType();
    int64_t outRank = outType.getRank();
    SmallVector<AffineMap> maps =
        matmulMaps(rewriter.getContext(), op.getLhs().getType().getShape(),
                   op.getRhs().getType().getShape(), outType);
    // A transpose grouped with the matmul (a weight's, Gemm's transB:
    // graph-form-fusion-groups) becomes the operand's indexing map, so the
    // contraction kernel packs the weight from its stored layout.
    Value rhs = op.getRhs();
    auto transpose = rhs.getDefiningOp<TransposeOp>();
    if (transpose && transpose->hasOneUse() &&
        transpose->getParentRegion() == op->getParentRegion() &&
        op->getParentOfType<FusionGroupOp>()) {
      SmallVector<AffineExpr> exprs(maps[1].getNumResults());
      for (auto [i, p] : llvm::enumerate(transpose.getPerm()))
        exprs[p] = maps[1].getResult(i);
      maps[1] =
          AffineMap::get(maps[1].getNumDims(), 0, exprs, rewriter.getContext());
      rhs = transpose.getInput();
    }
    SmallVector<IteratorType> iterators(outRank, IteratorType::parallel);
    iterators.push_back(IteratorType::reduction);
    Value init = filledTensor(
        rewriter, loc, outType,
        scalarConstant(rewriter, loc, outType.getElementType(), 0.0));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, outType, ValueRange{op.getLhs(), rhs}, init, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange a) {
          Value prod = mulScalar(b, l, a[0], a[1]);
          linalg::YieldOp::create(b, l, addScalar(b, l, a[2], prod));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

Value mlc::lowering::padSpatial(OpBuilder &b, Location loc, Value input,
                                ArrayRef<int64_t> pads, Value value) {
  SmallVector<int64_t> low = {0, 0, pads[0], pads[1]},
                       high = {0, 0, pads[2], pads[3]};
  if (cast<RankedTensorType>(input.getType()).getRank() == 5) {
    low.push_back(0);
    high.push_back(0);
  }
  return padTensor(b, loc, input, low, high, value);
}

Value mlc::lowering::splitDim(OpBuilder &b, Location loc, Value value,
                              int64_t d, int64_t groups) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassoc;
  for (int64_t i = 0, j = 0; i < type.getRank(); ++i) {
    if (i == d) {
      shape.push_back(groups);
      shape.push_back(type.getDimSize(i) / groups);
      reassoc.push_back({j, j + 1});
      j += 2;
    } else {
      shape.push_back(type.getDimSize(i));
      reassoc.push_back({j++});
    }
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value,
      reassoc);
}

ConvLoops mlc::lowering::convLoops(OpBuilder &b, Location loc, Value input,
                                   Value filter, RankedTensorType outType,
                                   int64_t groups, ArrayRef<int64_t> s,
                                   ArrayRef<int64_t> d) {
  MLIRContext *ctx = b.getContext();
  auto e = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  auto out = outType.getShape();
  ConvLoops loops;
  // Groups are an explicit dim G: x [N,G,C/G,H,W], w [G,O/G,C/G,KH,KW],
  // y [N,G,O/G,OH,OW]. With one group that dim is left out entirely, so
  // the common conv has no reshapes and its consumers can fuse with it.
  // So is it for a depthwise conv (one input and one output channel per
  // group): the group dim is the channel dim itself.
  int64_t inChannels = cast<RankedTensorType>(input.getType()).getDimSize(1);
  bool depthwise = groups != 1 && groups == inChannels && groups == out[1];
  loops.grouped = groups != 1 && !depthwise;
  loops.x = loops.grouped ? splitDim(b, loc, input, 1, groups) : input;
  loops.w = loops.grouped ? splitDim(b, loc, filter, 0, groups) : filter;
  SmallVector<int64_t> accShape =
      loops.grouped ? SmallVector<int64_t>{out[0], groups, out[1] / groups,
                                           out[2], out[3]}
                    : SmallVector<int64_t>(out);
  loops.accType = RankedTensorType::get(accShape, outType.getElementType());
  // Loop dims: [n, (g,) o, oh, ow | c, kh, kw]; a depthwise conv has no
  // c loop (its single input channel is the output channel o).
  int64_t par = accShape.size();
  int64_t numReductions = depthwise ? 2 : 3;
  int64_t numLoops = par + numReductions;
  AffineExpr n = e(0), o = e(par - 3), oh = e(par - 2), ow = e(par - 1);
  AffineExpr c = e(par), kh = e(numLoops - 2), kw = e(numLoops - 1);
  AffineExpr ih = oh * s[0] + kh * d[0];
  AffineExpr iw = ow * s[1] + kw * d[1];
  SmallVector<AffineExpr> xExprs = {n}, wExprs, yExprs, biasExprs;
  if (loops.grouped) {
    xExprs.push_back(e(1));
    wExprs.push_back(e(1));
    biasExprs.push_back(e(1));
  }
  if (depthwise) {
    xExprs.append({o, ih, iw});
    wExprs.append({o, getAffineConstantExpr(0, ctx), kh, kw});
  } else {
    xExprs.append({c, ih, iw});
    wExprs.append({o, c, kh, kw});
  }
  for (int64_t i = 0; i < par; ++i)
    yExprs.push_back(e(i));
  biasExprs.push_back(o);
  loops.maps = {AffineMap::get(numLoops, 0, xExprs, ctx),
                AffineMap::get(numLoops, 0, wExprs, ctx),
                AffineMap::get(numLoops, 0, yExprs, ctx)};
  loops.biasMap = AffineMap::get(par, 0, biasExprs, ctx);
  return loops;
}

Value mlc::lowering::ungroup(OpBuilder &b, Location loc, const ConvLoops &loops,
                             Value acc, RankedTensorType outType) {
  if (!loops.grouped)
    return acc;
  return tensor::CollapseShapeOp::create(
      b, loc, outType, acc,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

namespace {

struct Conv2DPattern : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getType();
    Type elt = outType.getElementType();
    int64_t groups = op.getGroups();
    Value input = padSpatial(rewriter, loc, op.getInput(), op.getPads(),
                             scalarConstant(rewriter, loc, elt, 0.0));
    ConvLoops loops = convLoops(rewriter, loc, input, op.getFilter(), outType,
                                groups, op.getStrides(), op.getDilations());
    // The bias initializes the accumulator.
    Value bias = op.getBias();
    if (bias && loops.grouped)
      bias = splitDim(rewriter, loc, bias, 0, groups);
    Value init =
        accumulatorInit(rewriter, loc, loops.accType, bias, loops.biasMap);
    Value conv =
        multiplyAccumulate(rewriter, loc, loops.x, loops.w, init, loops.maps);
    rewriter.replaceOp(op, ungroup(rewriter, loc, loops, conv, outType));
    return success();
  }
};

/// Grouped conv2d_nchwc: the group is an explicit dim G, as for conv2d:
/// x [N, G, C/B/G, H, W, B], w [G, O/B/G, C/B/G, KH, KW, B, B], loops
/// [n, g, ob, oh, ow, o | cb, kh, kw, c], the result [N, G, O/B/G, OH, OW,
/// B] collapsed to [N, O/B, OH, OW, B].
LogicalResult lowerGrouped(Conv2DNchwcOp op, Value input,
                           PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  RankedTensorType outType = op.getType();
  Type elt = outType.getElementType();
  int64_t groups = op.getGroups();
  auto s = op.getStrides();
  auto d = op.getDilations();
  auto e = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  auto out = outType.getShape();
  Value x = splitDim(rewriter, loc, input, 1, groups);
  Value w = splitDim(rewriter, loc, op.getFilter(), 0, groups);
  auto accType = RankedTensorType::get(
      {out[0], groups, out[1] / groups, out[2], out[3], out[4]}, elt);
  AffineExpr n = e(0), g = e(1), ob = e(2), oh = e(3), ow = e(4), o = e(5),
             cb = e(6), kh = e(7), kw = e(8), c = e(9);
  SmallVector<AffineExpr> xExprs = {n,
                                    g,
                                    cb,
                                    oh * s[0] + kh * d[0],
                                    ow * s[1] + kw * d[1],
                                    c},
                          wExprs = {g, ob, cb, kh, kw, c, o}, yExprs;
  for (int64_t i = 0; i < 6; ++i)
    yExprs.push_back(e(i));
  Value bias = op.getBias();
  if (bias)
    bias = splitDim(rewriter, loc, bias, 0, groups);
  Value init = accumulatorInit(rewriter, loc, accType, bias,
                               AffineMap::get(6, 0, {g, ob, o}, ctx));
  Value conv = multiplyAccumulate(rewriter, loc, x, w, init,
                                  {AffineMap::get(10, 0, xExprs, ctx),
                                   AffineMap::get(10, 0, wExprs, ctx),
                                   AffineMap::get(10, 0, yExprs, ctx)});
  rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
      op, outType, conv,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}, {5}});
  return success();
}

/// graph.conv2d_nchwc as one linalg.generic: loops [n, ob, oh, ow, o | c
/// blocks, kh, kw, c] (blocked input), [n, ob, oh, ow, o | c, kh, kw]
/// (plain input) or [n, cb, oh, ow, c | kh, kw] (depthwise), so that the
/// output's lane dim o is the vector dim of the contraction kernel and its
/// stores are whole vectors.
struct Conv2DNchwcPattern : OpRewritePattern<Conv2DNchwcOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DNchwcOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType outType = op.getType();
    Type elt = outType.getElementType();
    auto s = op.getStrides();
    auto d = op.getDilations();
    Value input = padSpatial(rewriter, loc, op.getInput(), op.getPads(),
                             scalarConstant(rewriter, loc, elt, 0.0));
    auto e = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    bool depthwise = op.isDepthwise(), plain = op.hasPlainInput();
    if (op.getGroups() != 1)
      return lowerGrouped(op, input, rewriter);
    int64_t numLoops = depthwise ? 7 : plain ? 8 : 9;
    AffineExpr n = e(0), ob = e(1), oh = e(2), ow = e(3), o = e(4);
    AffineExpr kh = e(numLoops - (plain       ? 2
                                  : depthwise ? 2
                                              : 3)),
               kw = e(numLoops - (plain       ? 1
                                  : depthwise ? 1
                                              : 2));
    AffineExpr ih = oh * s[0] + kh * d[0], iw = ow * s[1] + kw * d[1];
    SmallVector<AffineExpr> xExprs, wExprs;
    if (depthwise) {
      xExprs = {n, ob, ih, iw, o};
      wExprs = {ob, kh, kw, o};
    } else if (plain) {
      AffineExpr c = e(5);
      xExprs = {n, c, ih, iw};
      wExprs = {ob, c, kh, kw, o};
    } else {
      AffineExpr cb = e(5), c = e(8);
      xExprs = {n, cb, ih, iw, c};
      wExprs = {ob, cb, kh, kw, c, o};
    }
    SmallVector<AffineExpr> yExprs = {n, ob, oh, ow, o};
    Value init = accumulatorInit(rewriter, loc, outType, op.getBias(),
                                 AffineMap::get(5, 0, {ob, o}, ctx));
    rewriter.replaceOp(
        op, multiplyAccumulate(rewriter, loc, input, op.getFilter(), init,
                               {AffineMap::get(numLoops, 0, xExprs, ctx),
                                AffineMap::get(numLoops, 0, wExprs, ctx),
                                AffineMap::get(numLoops, 0, yExprs, ctx)}));
    return success();
  }
};

/// Sums (avg) or maxes (max) each window; `window` gives the loop bounds of
/// the window dims, which appear in no other operand's shape.
Value windowReduce(OpBuilder &b, Location loc, Value padded,
                   RankedTensorType outType, ArrayRef<int64_t> kernel,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                   bool isMax) {
  MLIRContext *ctx = b.getContext();
  Type elt = outType.getElementType();
  auto e = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // Loops: n, c, oh, ow (, the channel lane c % B when blocked) | kh, kw.
  int64_t par = outType.getRank(), loops = par + 2;
  SmallVector<AffineExpr> in = {e(0), e(1),
                                e(2) * strides[0] + e(par) * dilations[0],
                                e(3) * strides[1] + e(par + 1) * dilations[1]},
                          out = {e(0), e(1), e(2), e(3)};
  if (par == 5) {
    in.push_back(e(4));
    out.push_back(e(4));
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(loops, 0, in, ctx),
      AffineMap::get(loops, 0, {e(par), e(par + 1)}, ctx),
      AffineMap::get(loops, 0, out, ctx)};
  SmallVector<IteratorType> iterators(par, IteratorType::parallel);
  iterators.append(2, IteratorType::reduction);
  Value window = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{kernel[0], kernel[1]}, elt);
  Value init = filledTensor(b, loc, outType,
                            isMax ? lowestValue(b, loc, elt)
                                  : scalarConstant(b, loc, elt, 0.0));
  return linalg::GenericOp::create(
             b, loc, outType, ValueRange{padded, window}, init, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value v = isMax ? maxScalar(nb, l, a[2], a[0])
                               : addScalar(nb, l, a[2], a[0]);
               linalg::YieldOp::create(nb, l, v);
             })
      .getResult(0);
}

struct MaxPoolPattern : OpRewritePattern<MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elt = op.getType().getElementType();
    auto p = op.getPads();
    Value padded = padSpatial(rewriter, loc, op.getInput(), p,
                              lowestValue(rewriter, loc, elt));
    rewriter.replaceOp(op, windowReduce(rewriter, loc, padded, op.getType(),
                                        op.getKernel(), op.getStrides(),
                                        op.getDilations(), /*isMax=*/true));
    return success();
  }
};

struct AvgPoolPattern : OpRewritePattern<AvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AvgPool2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getType();
    Type elt = outType.getElementType();
    auto p = op.getPads();
    auto k = op.getKernel();
    auto s = op.getStrides();
    int64_t ones[] = {1, 1};
    Value padded = padSpatial(rewriter, loc, op.getInput(), p,
                              scalarConstant(rewriter, loc, elt, 0.0));
    Value sums = windowReduce(rewriter, loc, padded, outType, k, s, ones,
                              /*isMax=*/false);
    if (op.getCountIncludePad()) {
      rewriter.replaceOp(
          op, divideByConstant(rewriter, loc, sums, double(k[0] * k[1])));
      return success();
    }
    // Divide by the number of real (unpadded) elements under each window:
    // per dim, |[o*s - pad, o*s - pad + k) intersected with [0, size)|.
    auto inShape = op.getInput().getType().getShape();
    Value result = buildElementwise(
        rewriter, loc, outType, sums,
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          auto extent = [&](int64_t dim, int64_t stride, int64_t pad,
                            int64_t kernel, int64_t size) -> Value {
            Value o = linalg::IndexOp::create(b, l, dim);
            auto c = [&](int64_t v) {
              return arith::ConstantIndexOp::create(b, l, v);
            };
            Value start = arith::SubIOp::create(
                b, l, arith::MulIOp::create(b, l, o, c(stride)), c(pad));
            Value end = arith::AddIOp::create(b, l, start, c(kernel));
            Value lo = arith::MaxSIOp::create(b, l, start, c(0));
            Value hi = arith::MinSIOp::create(b, l, end, c(size));
            return arith::SubIOp::create(b, l, hi, lo);
          };
          Value h = extent(2, s[0], p[0], k[0], inShape[2]);
          Value w = extent(3, s[1], p[1], k[1], inShape[3]);
          Value n = arith::MulIOp::create(b, l, h, w);
          Value nInt = arith::IndexCastOp::create(b, l, b.getI64Type(), n);
          Value nF = arith::SIToFPOp::create(b, l, elt, nInt);
          return arith::DivFOp::create(b, l, a[0], nF);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GlobalAvgPoolPattern : OpRewritePattern<GlobalAvgPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GlobalAvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inShape = op.getInput().getType().getShape();
    Value sums = buildReduction(rewriter, loc, op.getInput(), {2, 3},
                                ReduceKind::Sum, /*keepDims=*/true);
    rewriter.replaceOp(op, divideByConstant(rewriter, loc, sums,
                                            double(inShape[2] * inShape[3])));
    return success();
  }
};

} // namespace

void mlc::lowering::populateContractionPatterns(RewritePatternSet &patterns) {
  patterns.add<MatMulPattern, Conv2DPattern, Conv2DNchwcPattern, MaxPoolPattern,
               AvgPoolPattern, GlobalAvgPoolPattern>(patterns.getContext());
}
