//===- IntegerConvKernel.cpp - blocked u8 x s8 convolution ----------------===//
//
// graph.conv2d_integer_nchwc's generic (loops [n, ob, oh, ow, o | cb, kh,
// kw, c], B-channel blocks) with constant int8 weights whose zero point is
// 0, an 8-bit input with a constant zero point zx, and an optional
// elementwise epilogue (the dequantize, bias, residual, activation and
// quantize of a quantized network), on VNNI or int16 pairs
// (IntegerKernelUtils.h):
//
//   sum (x - zx) w = sum x' w - (zx + s) sum(w)[o]
//
// The input is padded with zx, so the correction is the same at the
// borders. The B input channels of a block are contiguous at each pixel:
// g of them (4 bytes for vpdpbusd, 2 for vpmaddwd) are what one dot step
// multiplies into each int32 lane, broadcast to every lane, while the packed
// weights hold L output channels (one vector of sums) times g input
// channels:
//
//   packed[ob * B / L + v][((cb * KH + kh) * KW + kw) * B / g + c / g][L x g]
//
//   for pixel tiles of mr output pixels (flattened over oh and ow):
//     for vector tiles of nv (L channels each):
//       acc[mr][nv] = 0
//       for cb, kh, kw, c in steps of g: acc[i][j] = dot(acc[i][j],
//           x'[n, cb, ih_i + kh, iw_i + kw, c : +g], packed[..][..])
//       out[n, ob, oh_i, ow_i, lanes of j] = epilogue(acc[i][j] - corr)
//
// mr x nv is 6 x 4 with 32 vector registers, 4 x 2 with 16. Grouped
// (graph.conv2d_integer_nchwc's groups): output block ob reads the cb input
// blocks of its group, and a tile's vectors stay within one group (fewer
// vectors, more rows). Threads take
// whole output blocks when there are enough of them, else bands of output
// rows. Exact: the int32 sums wrap as the generic's.
//
//===----------------------------------------------------------------------===//

#include "IntegerKernelUtils.h"
#include "KernelSchedules.h"
#include "mlc/Codegen/Common/KernelUtils.h"
#include "mlc/Dialect/Graph/Evaluator.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::int8;

namespace {

/// The weights are [OB, CB, KH, KW, B, B].
struct Plan : KernelPlan {
  Value input; // padded [N, CB, HP, WP, B]
  int64_t batch = 0, ob = 0, oh = 0, ow = 0, cb = 0, kh = 0, kw = 0;
  // Grouped: output block ob reads input blocks (ob / obPerGroup) * cb + c
  // (obPerGroup = ob: one group).
  int64_t obPerGroup = 0;
  int64_t block = 0;
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};
};

bool isIntegerConv(graph::FusionGroupOp group, linalg::GenericOp op,
                   Plan *plan) {
  if (op.getNumLoops() != 9 || op.getNumReductionLoops() != 4 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return false;
  auto iters = op.getIteratorTypesArray();
  for (unsigned i = 0; i < 9; ++i)
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
  if (xMap.getNumResults() != 5)
    return false;
  auto rows = windowCoefficients(xMap.getResult(2), 2, 6, 9);
  auto cols = windowCoefficients(xMap.getResult(3), 3, 7, 9);
  if (!rows || !cols)
    return false;
  auto [s0, d0] = *rows;
  auto [s1, d1] = *cols;
  auto wType = dyn_cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  if (!wType || wType.getRank() != 6 || !wType.hasStaticShape())
    return false;
  // The input block: cb, or (ob floordiv k) * CB + cb for groups of k
  // output blocks reading CB input blocks each.
  int64_t ob = outType.getDimSize(1), cbPerGroup = wType.getDimSize(1);
  std::optional<int64_t> obPerGroup;
  for (int64_t k = 1; k <= ob && !obPerGroup; ++k) {
    AffineExpr block = k == ob ? e(5) : e(1).floorDiv(k) * cbPerGroup + e(5);
    if (ob % k == 0 &&
        xMap == AffineMap::get(9, 0,
                               {e(0), block, e(2) * s0 + e(6) * d0,
                                e(3) * s1 + e(7) * d1, e(8)},
                               ctx))
      obPerGroup = k;
  }
  if (!obPerGroup ||
      maps[1] !=
          AffineMap::get(9, 0, {e(1), e(5), e(6), e(7), e(8), e(4)}, ctx) ||
      maps[2] != AffineMap::get(9, 0, {e(0), e(1), e(2), e(3), e(4)}, ctx))
    return false;
  ByteOperand x;
  if (!isByteDotBody(op, x))
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
    plan->cb = ws[1];
    plan->kh = ws[2];
    plan->kw = ws[3];
    plan->block = os[4];
    plan->stride[0] = s0;
    plan->stride[1] = s1;
    plan->dilation[0] = d0;
    plan->dilation[1] = d1;
    plan->obPerGroup = *obPerGroup;
  }
  return true;
}

class Emitter {
public:
  Emitter(RewriterBase &b, Plan &p, const DotKind &kind,
          int64_t parallelMinWork)
      : b(b), p(p), kind(kind), loc(p.op.getLoc()), ctx(b.getContext()),
        parallelMinWork(parallelMinWork) {
    // rows * vectors accumulators, rows broadcasts and a weight vector:
    // 6 x 4 with 32 registers, 4 x 2 with 16. A tile's vectors share their
    // broadcast input, so with groups they stay within one group: a
    // divisor of the group's vectors, then more rows.
    bool wide = kind.registers >= 32;
    vectors = wide ? 4 : 2;
    tileRows = wide ? 6 : 4;
    if (p.obPerGroup != p.ob) {
      int64_t groupVectors = p.obPerGroup * p.block / kind.lanes;
      while (groupVectors % vectors)
        --vectors;
      if (vectors == 1)
        tileRows = wide ? 12 : 6;
      else if (vectors == 2 && wide)
        tileRows = 8;
    }
  }

  Value run(Value dest);

private:
  /// Where the tiles of a loop nest write: the output vectors [vBegin,
  /// vBegin + vCount) (L channels each, B / L per block) and the rows
  /// [ohBegin, ohBegin + band), into a destination whose indices start at
  /// (destOb, destOh) in the output.
  struct Range {
    Value n, vBegin, ohBegin, destOb, destOh;
    int64_t vCount = 0, band = 0;
  };

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value apply(AffineExpr e, ValueRange operands) {
    return applyFolded(b, loc, e, operands);
  }
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, ctx); }
  void packConstants();
  Value pixels(Value dest, const Range &r);
  Value outputVectors(Value dest, const Range &r, Value p0, int64_t rows);
  Value tile(Value dest, const Range &r, Value p0, int64_t rows, Value v0,
             int64_t vecs);
  Value loop(Value dest, int64_t from, int64_t to, int64_t step,
             function_ref<Value(Value, Value)> body) {
    return loopCarrying(b, loc, dest, from, to, step, body);
  }

  RewriterBase &b;
  Plan &p;
  DotKind kind;
  Location loc;
  MLIRContext *ctx;
  int64_t parallelMinWork;
  int64_t tileRows, vectors;
  Value packed, correction;
  int64_t stepsPerTap = 0; // dot steps per (cb, kh, kw): B / g
};

void Emitter::packConstants() {
  int64_t taps = p.cb * p.kh * p.kw, blk = p.block;
  stepsPerTap = blk / kind.group;
  // Column ob * B + o, reduction index t * B + c for tap t = (cb, kh, kw).
  PackedWeights weights(kind, p.ob * blk / kind.lanes, taps * blk);
  ArrayRef<int8_t> w = p.weights.values<int8_t>();
  for (int64_t ob = 0; ob < p.ob; ++ob)
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t c = 0; c < blk; ++c)
        for (int64_t o = 0; o < blk; ++o)
          weights.set(ob * blk + o, t * blk + c,
                      w[((ob * taps + t) * blk + c) * blk + o]);
  packed = weights.packed(b, loc, "packed_int8_filter");
  correction = weights.correction(b, loc, p.x);
}

Value Emitter::tile(Value dest, const Range &r, Value p0, int64_t rows,
                    Value v0, int64_t vecs) {
  // Each row's output pixel and the input pixel its window starts at.
  SmallVector<Value> ohs, ows, ihs, iws;
  for (int64_t i = 0; i < rows; ++i) {
    ohs.push_back(apply(d(0) + (d(1) + i).floorDiv(p.ow), {r.ohBegin, p0}));
    ows.push_back(apply((d(0) + i) % p.ow, {p0}));
    ihs.push_back(apply(d(0) * p.stride[0], {ohs.back()}));
    iws.push_back(apply(d(0) * p.stride[1], {ows.back()}));
  }
  auto accType = VectorType::get({kind.lanes}, b.getI32Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  // for cb, kh, kw: the accumulators carried through all three loops.
  SmallVector<scf::ForOp> loops;
  SmallVector<Value> ivs, carried(rows * vecs, zero);
  for (int64_t extent : {p.cb, p.kh, p.kw}) {
    auto forOp =
        scf::ForOp::create(b, loc, cst(0), cst(extent), cst(1), carried);
    if (!loops.empty())
      scf::YieldOp::create(b, loc, forOp.getResults());
    loops.push_back(forOp);
    b.setInsertionPointToStart(forOp.getBody());
    ivs.push_back(forOp.getInductionVar());
    carried.assign(forOp.getRegionIterArgs().begin(),
                   forOp.getRegionIterArgs().end());
  }
  Value cbIv = ivs[0], khIv = ivs[1], kwIv = ivs[2];
  // The input block: the group of the tile's output blocks (one group).
  Value inBlock =
      p.obPerGroup == p.ob
          ? cbIv
          : apply((d(0) * kind.lanes).floorDiv(p.block * p.obPerGroup) * p.cb +
                      d(1),
                  {v0, cbIv});
  Value stepBase = apply(((d(0) * p.kh + d(1)) * p.kw + d(2)) * stepsPerTap,
                         {cbIv, khIv, kwIv});
  SmallVector<Value> rowIh, rowIw;
  for (int64_t i = 0; i < rows; ++i) {
    rowIh.push_back(apply(d(0) + d(1) * p.dilation[0], {ihs[i], khIv}));
    rowIw.push_back(apply(d(0) + d(1) * p.dilation[1], {iws[i], kwIv}));
  }
  for (int64_t s = 0; s < stepsPerTap; ++s) {
    SmallVector<Value> xs, ws;
    for (int64_t i = 0; i < rows; ++i)
      xs.push_back(broadcastGroup(
          b, loc, kind, p.input,
          {r.n, inBlock, rowIh[i], rowIw[i], cst(s * kind.group)}, p.x,
          /*inBounds=*/true));
    Value step = apply(d(0) + s, {stepBase});
    for (int64_t j = 0; j < vecs; ++j)
      ws.push_back(
          readWeights(b, loc, kind, packed, apply(d(0) + j, {v0}), step));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vecs; ++j)
        carried[i * vecs + j] =
            dotStep(b, loc, kind, carried[i * vecs + j], xs[i], ws[j]);
  }
  scf::YieldOp::create(b, loc, carried);
  b.setInsertionPointAfter(loops.front());
  ValueRange sums = loops.front().getResults();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < vecs; ++j) {
      // Vector v0 + j: channels [col, col + L) of block col / B.
      Value col = apply((d(0) + j) * kind.lanes, {v0});
      Value obj = apply(d(0).floorDiv(p.block), {col});
      Value lane = apply(d(0) % p.block, {col});
      SmallVector<Value> at = {r.n, obj, ohs[i], ows[i], lane};
      SmallVector<Value> destAt = {r.n, apply(d(0) - d(1), {obj, r.destOb}),
                                   apply(d(0) - d(1), {ohs[i], r.destOh}),
                                   ows[i], lane};
      dest = writeResult(b, loc, kind, dest, sums[i * vecs + j], correction,
                         col, p.epilogue, p.epilogueInputs, at, destAt,
                         /*inBounds=*/true);
    }
  return dest;
}

Value Emitter::outputVectors(Value dest, const Range &r, Value p0,
                             int64_t rows) {
  int64_t full = r.vCount / vectors * vectors;
  dest = loop(dest, 0, full, vectors, [&](Value j, Value dst) {
    return tile(dst, r, p0, rows, apply(d(0) + d(1), {r.vBegin, j}), vectors);
  });
  if (full < r.vCount)
    dest = tile(dest, r, p0, rows, apply(d(0) + full, {r.vBegin}),
                r.vCount - full);
  return dest;
}

Value Emitter::pixels(Value dest, const Range &r) {
  int64_t count = r.band * p.ow, full = count / tileRows * tileRows;
  dest = loop(dest, 0, full, tileRows, [&](Value p0, Value dst) {
    return outputVectors(dst, r, p0, tileRows);
  });
  if (full < count)
    dest = outputVectors(dest, r, cst(full), count - full);
  return dest;
}

Value Emitter::run(Value dest) {
  packConstants();
  int64_t work =
      p.batch * p.ob * p.oh * p.ow * p.block * p.cb * p.kh * p.kw * p.block;
  bool threaded = parallelMinWork > 0 && work >= parallelMinWork;
  int64_t vectorsPerBlock = p.block / kind.lanes;
  int64_t blocksPerTile = std::max<int64_t>(1, vectors / vectorsPerBlock);
  return loop(dest, 0, p.batch, 1, [&](Value n, Value dst) -> Value {
    Range whole{n,   cst(0), cst(0), cst(0), cst(0), p.ob * vectorsPerBlock,
                p.oh};
    if (!threaded)
      return pixels(dst, whole);
    // Whole tiles of output blocks per task when there are enough of them
    // (every pixel then flattened into rows), else bands of output rows.
    if (p.ob % blocksPerTile == 0 && p.ob / blocksPerTile >= 4)
      return forallOverSlices(
          b, loc, dst, 1, p.ob,
          [&](Value ob0, Value slice) {
            Range r = whole;
            r.destOb = ob0;
            r.vBegin = apply(d(0) * vectorsPerBlock, {ob0});
            r.vCount = blocksPerTile * vectorsPerBlock;
            return pixels(slice, r);
          },
          blocksPerTile);
    return forallOverRowBands(b, loc, dst, p.oh,
                              [&](Value oh0, Value slice, int64_t band) {
                                Range r = whole;
                                r.ohBegin = r.destOh = oh0;
                                r.band = band;
                                return pixels(slice, r);
                              });
  });
}

} // namespace

FailureOr<bool>
mlc::codegen::emitIntegerConvKernel(RewriterBase &rewriter,
                                    graph::FusionGroupOp group,
                                    const KernelOptions &options) {
  return emitIntegerKernel<Plan>(
      rewriter, group, options,
      [&](linalg::GenericOp op, Plan *plan) {
        return isIntegerConv(group, op, plan);
      },
      [](const Plan &plan, const DotKind &kind) {
        // Blocks of whole vectors, and of whole dot steps.
        return plan.block % kind.lanes == 0 && plan.block % kind.group == 0;
      },
      [&](Plan &plan, const DotKind &kind, Value dest) {
        return Emitter(rewriter, plan, kind, options.parallelMinWork).run(dest);
      });
}
