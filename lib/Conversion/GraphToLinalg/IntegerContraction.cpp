//===- IntegerContraction.cpp - 8-bit matmul and conv -> linalg.generic ---===//
//
// The integer contractions become the generics of their float forms with an
// int32 body: acc += (ext(x) - x_zp) * (ext(w) - w_zp), ext signed or
// unsigned by the operand's graph type. A zero point that is a splat
// constant is folded into the body (and a zero one disappears); any other
// is an extra input read through the operand's map, broadcast.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::lowering;

namespace {

/// One multiplicand of the contraction: the 8-bit tensor (signless), how
/// its zero point is read, and its signedness.
struct Operand {
  Value tensor;
  bool isUnsigned = false;
  std::optional<int64_t> zpConstant; // a splat zero point, else zpTensor
  Value zpTensor;
};

/// The value of a splat integer constant (looking through the views of
/// Signless.cpp), with the graph type's signedness.
std::optional<int64_t> splatValue(Value v, bool isUnsigned) {
  while (true) {
    if (auto cast = v.getDefiningOp<UnrealizedConversionCastOp>()) {
      v = cast.getOperand(0);
      continue;
    }
    // Inside a kernel: the fusion group's operand.
    auto arg = dyn_cast<BlockArgument>(v);
    auto group =
        arg ? dyn_cast<FusionGroupOp>(arg.getOwner()->getParentOp()) : nullptr;
    if (!group)
      break;
    v = group.getInputs()[arg.getArgNumber()];
  }
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  APInt value = attr.getSplatValue<APInt>();
  return isUnsigned ? int64_t(value.getZExtValue()) : value.getSExtValue();
}

Operand makeOperand(OpBuilder &b, Location loc, Value tensor, Value zp) {
  Operand o;
  o.isUnsigned = isUnsignedTensor(tensor);
  o.tensor = toSignless(b, loc, tensor);
  o.zpConstant = splatValue(zp, o.isUnsigned);
  if (!o.zpConstant)
    o.zpTensor = toSignless(b, loc, zp);
  return o;
}

/// The map reading a zero point of `zpShape` that broadcasts to an operand
/// read through `operandMap` (size-1 dims read index 0).
AffineMap zeroPointMap(AffineMap operandMap, ArrayRef<int64_t> zpShape) {
  MLIRContext *ctx = operandMap.getContext();
  int64_t offset = operandMap.getNumResults() - zpShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, d] : llvm::enumerate(zpShape))
    exprs.push_back(d == 1 ? getAffineConstantExpr(0, ctx)
                           : operandMap.getResult(offset + i));
  return AffineMap::get(operandMap.getNumDims(), 0, exprs, ctx);
}

/// acc + (x - x_zp) * (w - w_zp) in i32 as one generic over `maps` (x, w,
/// acc), the accumulator's rank parallel loops first.
Value integerMultiplyAccumulate(OpBuilder &b, Location loc, const Operand &x,
                                const Operand &w, RankedTensorType accType,
                                ArrayRef<AffineMap> maps) {
  SmallVector<Value> inputs = {x.tensor, w.tensor};
  SmallVector<AffineMap> inputMaps = {maps[0], maps[1]};
  for (auto [o, map] : {std::pair(&x, maps[0]), std::pair(&w, maps[1])}) {
    if (!o->zpTensor)
      continue;
    inputs.push_back(o->zpTensor);
    inputMaps.push_back(zeroPointMap(
        map, cast<RankedTensorType>(o->zpTensor.getType()).getShape()));
  }
  inputMaps.push_back(maps[2]);
  SmallVector<utils::IteratorType> iterators(accType.getRank(),
                                             utils::IteratorType::parallel);
  iterators.resize(maps.front().getNumDims(), utils::IteratorType::reduction);
  Value init =
      filledTensor(b, loc, accType, scalarConstant(b, loc, b.getI32Type(), 0));
  return linalg::GenericOp::create(
             b, loc, accType, inputs, init, inputMaps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               unsigned nextZp = 2;
               auto centered = [&](const Operand &o, Value v) -> Value {
                 Value wide = toI32(nb, l, v, o.isUnsigned);
                 Value zp;
                 if (o.zpConstant) {
                   if (*o.zpConstant == 0)
                     return wide;
                   zp = arith::ConstantIntOp::create(nb, l, nb.getI32Type(),
                                                     *o.zpConstant);
                 } else {
                   zp = toI32(nb, l, a[nextZp++], o.isUnsigned);
                 }
                 return arith::SubIOp::create(nb, l, wide, zp);
               };
               Value xv = centered(x, a[0]);
               Value wv = centered(w, a[1]);
               Value prod = arith::MulIOp::create(nb, l, xv, wv);
               linalg::YieldOp::create(
                   nb, l, Value(arith::AddIOp::create(nb, l, a.back(), prod)));
             })
      .getResult(0);
}

/// Padding holds the input's zero point: (pad - x_zp) is 0.
Value paddingValue(OpBuilder &b, Location loc, const Operand &x) {
  Type i8 = cast<RankedTensorType>(x.tensor.getType()).getElementType();
  return x.zpConstant ? arith::ConstantIntOp::create(b, loc, i8, *x.zpConstant)
                            .getResult()
                      : x.zpTensor;
}

struct MatMulIntegerPattern : OpRewritePattern<MatMulIntegerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulIntegerOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getType();
    Operand x = makeOperand(rewriter, loc, op.getLhs(), op.getLhsZeroPoint());
    Operand w = makeOperand(rewriter, loc, op.getRhs(), op.getRhsZeroPoint());
    SmallVector<AffineMap> maps =
        matmulMaps(rewriter.getContext(), op.getLhs().getType().getShape(),
                   op.getRhs().getType().getShape(), outType);
    rewriter.replaceOp(
        op, integerMultiplyAccumulate(rewriter, loc, x, w, outType, maps));
    return success();
  }
};

struct Conv2DIntegerPattern : OpRewritePattern<Conv2DIntegerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DIntegerOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getType();
    Operand x =
        makeOperand(rewriter, loc, op.getInput(), op.getInputZeroPoint());
    Operand w =
        makeOperand(rewriter, loc, op.getFilter(), op.getFilterZeroPoint());
    x.tensor = padSpatial(rewriter, loc, x.tensor, op.getPads(),
                          paddingValue(rewriter, loc, x));
    ConvLoops loops =
        convLoops(rewriter, loc, x.tensor, w.tensor, outType, op.getGroups(),
                  op.getStrides(), op.getDilations());
    x.tensor = loops.x;
    w.tensor = loops.w;
    // A per-channel filter zero point [O, 1, 1, 1] splits like the filter.
    if (loops.grouped && w.zpTensor &&
        cast<RankedTensorType>(w.zpTensor.getType()).getRank() == 4 &&
        cast<RankedTensorType>(w.zpTensor.getType()).getDimSize(0) != 1)
      w.zpTensor = splitDim(rewriter, loc, w.zpTensor, 0, op.getGroups());
    Value acc = integerMultiplyAccumulate(rewriter, loc, x, w, loops.accType,
                                          loops.maps);
    rewriter.replaceOp(op, ungroup(rewriter, loc, loops, acc, outType));
    return success();
  }
};

/// The blocked forms: loops [n, ob, oh, ow, o | cb, kh, kw, c] (grouped:
/// the input block offset by ob's group), or [n, ob, oh, ow, o | kh, kw]
/// (depthwise), as conv2d_nchwc's, so that the output's lane dim o is
/// innermost parallel.
struct Conv2DIntegerNchwcPattern : OpRewritePattern<Conv2DIntegerNchwcOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DIntegerNchwcOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Operand x =
        makeOperand(rewriter, loc, op.getInput(), op.getInputZeroPoint());
    Operand w;
    w.tensor = toSignless(rewriter, loc, op.getFilter());
    w.zpConstant = 0;
    x.tensor = padSpatial(rewriter, loc, x.tensor, op.getPads(),
                          paddingValue(rewriter, loc, x));
    auto s = op.getStrides();
    auto d = op.getDilations();
    auto e = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    AffineExpr n = e(0), ob = e(1), oh = e(2), ow = e(3), o = e(4);
    SmallVector<AffineMap> maps;
    if (op.isDepthwise()) {
      AffineExpr kh = e(5), kw = e(6);
      maps = {AffineMap::get(
                  7, 0,
                  {n, ob, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1], o},
                  ctx),
              AffineMap::get(7, 0, {ob, kh, kw, o}, ctx),
              AffineMap::get(7, 0, {n, ob, oh, ow, o}, ctx)};
    } else {
      AffineExpr cb = e(5), kh = e(6), kw = e(7), c = e(8);
      // Grouped: output block ob reads input block (ob / OBg) * CBg + cb.
      int64_t obPerGroup = op.getType().getDimSize(1) / op.getGroups();
      int64_t cbPerGroup = op.getFilter().getType().getDimSize(1);
      AffineExpr inBlock =
          op.getGroups() == 1 ? cb : ob.floorDiv(obPerGroup) * cbPerGroup + cb;
      maps = {AffineMap::get(
                  9, 0,
                  {n, inBlock, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1], c},
                  ctx),
              AffineMap::get(9, 0, {ob, cb, kh, kw, c, o}, ctx),
              AffineMap::get(9, 0, {n, ob, oh, ow, o}, ctx)};
    }
    rewriter.replaceOp(
        op, integerMultiplyAccumulate(rewriter, loc, x, w, op.getType(), maps));
    return success();
  }
};

} // namespace

void mlc::lowering::populateIntegerContractionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MatMulIntegerPattern, Conv2DIntegerPattern,
               Conv2DIntegerNchwcPattern>(patterns.getContext());
}
