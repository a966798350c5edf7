//===- IntegerDepthwiseKernel.cpp - blocked 8-bit depthwise convolution ---===//
//
// graph.conv2d_integer_nchwc's depthwise generic (loops [n, ob, oh, ow, o |
// kh, kw], B-channel blocks, x [n, ob, oh * s + kh * d, ow * s + kw * d, o],
// w [ob, kh, kw, o]) with constant int8 weights (zero point 0), an 8-bit
// input with a constant zero point zx, and an optional elementwise epilogue:
//
//   sum (x - zx) w = sum x' w - (zx + s) sum(w)[o]
//
// x' the input as uint8 (a signed x has its sign bit flipped, s = 128). The
// input is padded with zx, so the correction is the same at the borders.
// No reduction runs across lanes: each int32 lane multiplies its own
// channel's bytes, widened: x' zero-extended (its upper 16 bits are zero)
// times the sign-extended weight is what LLVM makes one vpmaddwd, or
// vpdpwssd with VNNI (two sign-extended operands would be vpmulld). A tile is
// mr output pixels of one row and one vector of L channels; per kernel row kh
// every input column the tile reads is loaded and widened once and used
// for each (pixel, kw) that reads it, so at stride 1 a 3-wide window costs
// about one load per pixel instead of three:
//
//   for n, ob, oh, ow0 in steps of mr, v in the block's vectors:
//     acc[mr] = 0
//     for kh: for each column c of [ow0 * s, (ow0 + mr - 1) * s + (KW-1) d]:
//       xc = zext(x'[n, ob, oh * s + kh * d, c, v * L : +L])
//       acc[i] += xc * sext(w[ob, kh, kw, v * L : +L]) where i s + kw d = c
//     out[n, ob, oh, ow0 + i, v * L : +L] = epilogue(acc[i] - corr)
//
// Threads take output blocks when there are enough, else bands of rows.
// Exact: the int32 sums wrap as the generic's.
//
//===----------------------------------------------------------------------===//

#include "IntegerKernelUtils.h"
#include "KernelSchedules.h"
#include "mlc/Codegen/Common/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::int8;

namespace {

/// The weights are [OB, KH, KW, B].
struct Plan : KernelPlan {
  Value input; // padded [N, OB, HP, WP, B]
  int64_t batch = 0, ob = 0, oh = 0, ow = 0, kh = 0, kw = 0, block = 0;
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};
};

bool isIntegerDepthwise(graph::FusionGroupOp group, linalg::GenericOp op,
                        Plan *plan) {
  if (op.getNumLoops() != 7 || op.getNumReductionLoops() != 2 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return false;
  auto iters = op.getIteratorTypesArray();
  for (unsigned i = 0; i < 7; ++i)
    if ((iters[i] == utils::IteratorType::reduction) != (i >= 5))
      return false;
  auto outType = cast<RankedTensorType>(op.getResult(0).getType());
  auto inType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  if (!outType.getElementType().isInteger(32) || !outType.hasStaticShape() ||
      outType.getRank() != 5 || !inType || !inType.hasStaticShape() ||
      inType.getRank() != 5 || inType.getDimSize(4) != outType.getDimSize(4))
    return false;
  MLIRContext *ctx = op.getContext();
  auto e = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto maps = op.getIndexingMapsArray();
  AffineMap xMap = maps[0];
  if (xMap.getNumResults() != 5 || xMap.getResult(0) != e(0) ||
      xMap.getResult(1) != e(1) || xMap.getResult(4) != e(4) ||
      maps[1] != AffineMap::get(7, 0, {e(1), e(5), e(6), e(4)}, ctx) ||
      maps[2] != AffineMap::get(7, 0, {e(0), e(1), e(2), e(3), e(4)}, ctx))
    return false;
  auto rows = windowCoefficients(xMap.getResult(2), 2, 5, 7);
  auto cols = windowCoefficients(xMap.getResult(3), 3, 6, 7);
  ByteOperand x;
  if (!rows || !cols || !isByteDotBody(op, x))
    return false;
  std::optional<graph::HostTensor> weights =
      groupConstantTensor(group, op.getDpsInputs()[1]);
  if (!weights || weights->getKind() != graph::ElementKind::I8)
    return false;
  if (plan) {
    ArrayRef<int64_t> ws = weights->getShape(), os = outType.getShape();
    plan->op = op;
    plan->input = op.getDpsInputs()[0];
    plan->x = x;
    plan->weights = std::move(*weights);
    plan->batch = os[0];
    plan->ob = os[1];
    plan->oh = os[2];
    plan->ow = os[3];
    plan->block = os[4];
    plan->kh = ws[1];
    plan->kw = ws[2];
    std::tie(plan->stride[0], plan->dilation[0]) = *rows;
    std::tie(plan->stride[1], plan->dilation[1]) = *cols;
  }
  return true;
}

class Emitter {
public:
  Emitter(RewriterBase &b, Plan &p, const DotKind &kind,
          int64_t parallelMinWork)
      : b(b), p(p), kind(kind), loc(p.op.getLoc()), ctx(b.getContext()),
        parallelMinWork(parallelMinWork) {}

  Value run(Value dest);

private:
  /// The output blocks [obBegin, obBegin + obCount) and rows [ohBegin,
  /// ohBegin + band) of batch n, written into a destination whose indices
  /// start at (destOb, destOh) in the output.
  struct Range {
    Value n, obBegin, ohBegin, destOb, destOh;
    int64_t obCount = 0, band = 0;
  };

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value apply(AffineExpr e, ValueRange operands) {
    return applyFolded(b, loc, e, operands);
  }
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, ctx); }
  void makeOperands();
  Value loop(Value dest, int64_t from, int64_t to, int64_t step,
             function_ref<Value(Value, Value)> body) {
    return loopCarrying(b, loc, dest, from, to, step, body);
  }
  Value rows(Value dest, const Range &r);
  Value tile(Value dest, const Range &r, Value ob, Value oh, Value ow0,
             int64_t pixels, int64_t v);

  RewriterBase &b;
  Plan &p;
  DotKind kind;
  Location loc;
  MLIRContext *ctx;
  int64_t parallelMinWork;
  int64_t tilePixels = 1;
  Value weights, correction;
};

void Emitter::makeOperands() {
  ArrayRef<int8_t> w = p.weights.values<int8_t>();
  int64_t taps = p.kh * p.kw, channels = p.ob * p.block;
  // The correction (zx + s) * sum(w) per channel, wrapping as the sums do.
  std::vector<int32_t> corr(channels, 0);
  for (int64_t c = 0; c < channels; ++c) {
    int64_t sum = 0;
    for (int64_t t = 0; t < taps; ++t)
      sum += w[((c / p.block) * taps + t) * p.block + c % p.block];
    corr[c] = int32_t(uint32_t(unsignedZeroPoint(p.x) * sum));
  }
  auto corrType = RankedTensorType::get({channels}, b.getI32Type());
  correction = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(corrType, ArrayRef<int32_t>(corr)));
  // The filter is read as it is: [OB, KH, KW, B] has each tap's channels
  // contiguous.
  weights = p.op.getDpsInputs()[1];
}

Value Emitter::tile(Value dest, const Range &r, Value ob, Value oh, Value ow0,
                    int64_t pixels, int64_t v) {
  int64_t lanes = kind.lanes, s = p.stride[1], dl = p.dilation[1];
  auto accType = VectorType::get({lanes}, b.getI32Type());
  auto bytesType = VectorType::get({lanes}, b.getI8Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  Value i8zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  Value lane0 = cst(v * lanes);
  Value signBit = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(bytesType, b.getI8IntegerAttr(-128)));
  auto forOp = scf::ForOp::create(b, loc, cst(0), cst(p.kh), cst(1),
                                  SmallVector<Value>(pixels, zero));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    Value khIv = forOp.getInductionVar();
    SmallVector<Value> acc(forOp.getRegionIterArgs());
    Value ih = apply(d(0) * p.stride[0] + d(1) * p.dilation[0], {oh, khIv});
    Value iw0 = apply(d(0) * s, {ow0});
    SmallVector<Value> ws;
    for (int64_t k = 0; k < p.kw; ++k) {
      Value w = vector::TransferReadOp::create(
          b, loc, bytesType, weights, ValueRange{ob, khIv, cst(k), lane0},
          i8zero, ArrayRef<bool>{true});
      ws.push_back(arith::ExtSIOp::create(b, loc, accType, w));
    }
    // Columns in order, each loaded once and multiplied into every pixel
    // whose window reads it.
    int64_t lastColumn = (pixels - 1) * s + (p.kw - 1) * dl;
    for (int64_t c = 0; c <= lastColumn; ++c) {
      SmallVector<std::pair<int64_t, int64_t>> uses; // (pixel, kw)
      for (int64_t k = 0; k < p.kw; ++k)
        if (c >= k * dl && (c - k * dl) % s == 0 && (c - k * dl) / s < pixels)
          uses.push_back({(c - k * dl) / s, k});
      if (uses.empty())
        continue;
      Value bytes = vector::TransferReadOp::create(
          b, loc, bytesType, p.input,
          ValueRange{r.n, ob, ih, apply(d(0) + c, {iw0}), lane0}, i8zero,
          ArrayRef<bool>{true});
      if (p.x.isSigned)
        bytes = arith::XOrIOp::create(b, loc, bytes, signBit);
      Value xc = arith::ExtUIOp::create(b, loc, accType, bytes);
      for (auto [i, k] : uses)
        acc[i] = arith::AddIOp::create(
            b, loc, acc[i], arith::MulIOp::create(b, loc, xc, ws[k]));
    }
    scf::YieldOp::create(b, loc, acc);
  }
  Value col = apply(d(0) * p.block + v * lanes, {ob});
  for (int64_t i = 0; i < pixels; ++i) {
    Value ow = apply(d(0) + i, {ow0});
    SmallVector<Value> at = {r.n, ob, oh, ow, lane0};
    SmallVector<Value> destAt = {r.n, apply(d(0) - d(1), {ob, r.destOb}),
                                 apply(d(0) - d(1), {oh, r.destOh}), ow, lane0};
    dest = writeResult(b, loc, kind, dest, forOp.getResult(i), correction, col,
                       p.epilogue, p.epilogueInputs, at, destAt,
                       /*inBounds=*/true);
  }
  return dest;
}

Value Emitter::rows(Value dest, const Range &r) {
  int64_t vectors = p.block / kind.lanes;
  int64_t full = p.ow / tilePixels * tilePixels;
  return loop(dest, 0, r.obCount, 1, [&](Value i, Value dst) {
    Value ob = apply(d(0) + d(1), {r.obBegin, i});
    return loop(dst, 0, r.band, 1, [&](Value j, Value rowDst) {
      Value oh = apply(d(0) + d(1), {r.ohBegin, j});
      for (int64_t v = 0; v < vectors; ++v) {
        rowDst = loop(rowDst, 0, full, tilePixels, [&](Value ow0, Value t) {
          return tile(t, r, ob, oh, ow0, tilePixels, v);
        });
        if (full < p.ow)
          rowDst = tile(rowDst, r, ob, oh, cst(full), p.ow - full, v);
      }
      return rowDst;
    });
  });
}

Value Emitter::run(Value dest) {
  makeOperands();
  // Registers: the accumulators, the KW widened weights, a column or two.
  int64_t cap = std::max<int64_t>(1, kind.registers / 2 - 2);
  int64_t tiles = llvm::divideCeil(p.ow, cap);
  tilePixels = llvm::divideCeil(p.ow, tiles);
  int64_t work = p.batch * p.ob * p.oh * p.ow * p.block * p.kh * p.kw;
  bool threaded = parallelMinWork > 0 && work >= parallelMinWork;
  return loop(dest, 0, p.batch, 1, [&](Value n, Value dst) -> Value {
    Range whole{n, cst(0), cst(0), cst(0), cst(0), p.ob, p.oh};
    if (!threaded)
      return rows(dst, whole);
    if (p.ob >= 4)
      return forallOverSlices(b, loc, dst, 1, p.ob,
                              [&](Value ob0, Value slice) {
                                Range r = whole;
                                r.obBegin = r.destOb = ob0;
                                r.obCount = 1;
                                return rows(slice, r);
                              });
    return forallOverRowBands(b, loc, dst, p.oh,
                              [&](Value oh0, Value slice, int64_t band) {
                                Range r = whole;
                                r.ohBegin = r.destOh = oh0;
                                r.band = band;
                                return rows(slice, r);
                              });
  });
}

} // namespace

FailureOr<bool>
mlc::codegen::emitIntegerDepthwiseKernel(RewriterBase &rewriter,
                                         graph::FusionGroupOp group,
                                         const KernelOptions &options) {
  return emitIntegerKernel<Plan>(
      rewriter, group, options,
      [&](linalg::GenericOp op, Plan *plan) {
        return isIntegerDepthwise(group, op, plan);
      },
      [](const Plan &plan, const DotKind &kind) {
        return plan.block % kind.lanes == 0;
      },
      [&](Plan &plan, const DotKind &kind, Value dest) {
        return Emitter(rewriter, plan, kind, options.parallelMinWork).run(dest);
      });
}
