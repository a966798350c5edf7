//===- IntegerConvKernel.cpp - blocked u8 x s8 convolution on VNNI --------===//
//
// graph.conv2d_integer_nchwc's generic (loops [n, ob, oh, ow, o | cb, kh,
// kw, c], 16-channel blocks) with constant int8 weights whose zero point is
// 0, an 8-bit input with a constant zero point zx, and an optional
// elementwise epilogue (the dequantize, bias, residual, activation and
// quantize of a quantized network):
//
//   sum (x - zx) w = sum x' w - (zx + s) sum(w)[o]
//
// x' is x as uint8 (s = 128 flips a signed x's sign bit, else 0), and the
// input is padded with zx, so the correction is the same at the borders.
// The 16 input channels of a block are contiguous at each pixel: 4 of them
// are the 4 bytes vpdpbusd multiplies into each int32 lane, broadcast to
// every lane, while the packed weights hold the 16 output channels of a
// block (one zmm of sums) times 4 input channels:
//
//   packed[ob][((cb * KH + kh) * KW + kw) * 4 + c4][16 x 4 bytes]
//
//   for pixel tiles of mr output pixels (flattened over oh and ow):
//     for ob0 in OB step nv:
//       acc[mr][nv] = 0
//       for cb, kh, kw, c4: acc[i][j] = vpdpbusd(acc[i][j],
//           x'[n, cb, ih_i + kh, iw_i + kw, 4 c4 : +4], packed[ob0 + j][..])
//       out[n, ob0 + j, oh_i, ow_i, :] = epilogue(acc[i][j] - corr)
//
// Threads take whole output blocks of nv when there are enough of them, else
// bands of output rows. Exact: the int32 sums wrap as the generic's.
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

constexpr int64_t kRows = 6;    // mr: output pixels per tile
constexpr int64_t kVectors = 4; // nv: output blocks per tile
/// Tasks wanted when threads split the output rows into bands.
constexpr int64_t kBands = 8;

struct Plan {
  linalg::GenericOp op, epilogue;
  SmallVector<EpilogueInput> epilogueInputs;
  Value input; // padded [N, CB, HP, WP, 16]
  ByteOperand x;
  graph::HostTensor weights; // [OB, CB, KH, KW, 16, 16]
  int64_t batch = 0, ob = 0, oh = 0, ow = 0, cb = 0, kh = 0, kw = 0;
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};
};

/// The coefficient of dim `d` in the linear expression `e` over `numDims`.
std::optional<int64_t> coefficient(AffineExpr e, unsigned d, unsigned numDims) {
  MLIRContext *ctx = e.getContext();
  SmallVector<AffineExpr> at(numDims, getAffineConstantExpr(0, ctx));
  auto value = [&](AffineExpr v) -> std::optional<int64_t> {
    auto c = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(v, numDims, 0));
    return c ? std::optional<int64_t>(c.getValue()) : std::nullopt;
  };
  std::optional<int64_t> base = value(e.replaceDims(at));
  at[d] = getAffineConstantExpr(1, ctx);
  std::optional<int64_t> one = value(e.replaceDims(at));
  if (!base || !one)
    return std::nullopt;
  return *one - *base;
}

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
      outType.getRank() != 5 || outType.getDimSize(4) != kLanes || !inType ||
      !inType.hasStaticShape() || inType.getRank() != 5 ||
      inType.getDimSize(4) != kLanes)
    return false;
  MLIRContext *ctx = op.getContext();
  auto e = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto maps = op.getIndexingMapsArray();
  AffineMap xMap = maps[0];
  if (xMap.getNumResults() != 5)
    return false;
  std::optional<int64_t> s0 = coefficient(xMap.getResult(2), 2, 9),
                         d0 = coefficient(xMap.getResult(2), 6, 9),
                         s1 = coefficient(xMap.getResult(3), 3, 9),
                         d1 = coefficient(xMap.getResult(3), 7, 9);
  if (!s0 || !d0 || !s1 || !d1 || *s0 < 1 || *s1 < 1 || *d0 < 1 || *d1 < 1)
    return false;
  if (xMap != AffineMap::get(9, 0,
                             {e(0), e(5), e(2) * *s0 + e(6) * *d0,
                              e(3) * *s1 + e(7) * *d1, e(8)},
                             ctx) ||
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
    plan->stride[0] = *s0;
    plan->stride[1] = *s1;
    plan->dilation[0] = *d0;
    plan->dilation[1] = *d1;
  }
  return true;
}

class Emitter {
public:
  Emitter(RewriterBase &b, Plan &p, int64_t parallelMinWork)
      : b(b), p(p), loc(p.op.getLoc()), ctx(b.getContext()),
        parallelMinWork(parallelMinWork) {}

  Value run(Value dest);

private:
  /// Where the tiles of a loop nest write: the output blocks [obBegin,
  /// obBegin + obCount) and the rows [ohBegin, ohBegin + band), into a
  /// destination whose indices start at (destOb, destOh) in the output.
  struct Range {
    Value n, obBegin, ohBegin, destOb, destOh;
    int64_t obCount = 0, band = 0;
  };

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value apply(AffineExpr e, ValueRange operands) {
    return applyFolded(b, loc, e, operands);
  }
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, ctx); }
  void packConstants();
  Value pixels(Value dest, const Range &r);
  Value outputBlocks(Value dest, const Range &r, Value p0, int64_t rows);
  Value tile(Value dest, const Range &r, Value p0, int64_t rows, Value ob0,
             int64_t vecs);
  /// for i in [0, extent) step `step`, carrying `dest`.
  Value loop(Value dest, int64_t from, int64_t to, int64_t step,
             function_ref<Value(Value, Value)> body);

  RewriterBase &b;
  Plan &p;
  Location loc;
  MLIRContext *ctx;
  int64_t parallelMinWork;
  Value packed, correction; // [OB, KSTEPS, 64] i8, [OB * 16] i32
  int64_t ksteps = 0;
};

void Emitter::packConstants() {
  ksteps = p.cb * p.kh * p.kw * 4;
  auto packedType =
      RankedTensorType::get({p.ob, ksteps, 4 * kLanes}, b.getI8Type());
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocate(packedType.getNumElements(), 1);
  MutableArrayRef<char> out = blob.getMutableData();
  ArrayRef<int8_t> w = p.weights.values<int8_t>();
  std::vector<int32_t> corr(p.ob * kLanes, 0);
  int64_t zp = unsignedZeroPoint(p.x);
  int64_t taps = p.cb * p.kh * p.kw; // (cb, kh, kw) flattened
  for (int64_t ob = 0; ob < p.ob; ++ob)
    for (int64_t o = 0; o < kLanes; ++o) {
      int64_t sum = 0;
      for (int64_t t = 0; t < taps; ++t)
        for (int64_t c = 0; c < kLanes; ++c) {
          int8_t v = w[(((ob * taps + t) * kLanes) + c) * kLanes + o];
          sum += v;
          out[((ob * ksteps + t * 4 + c / 4) * kLanes + o) * 4 + c % 4] =
              char(v);
        }
      corr[ob * kLanes + o] = int32_t(uint32_t(zp * sum));
    }
  packed = arith::ConstantOp::create(
      b, loc,
      DenseResourceElementsAttr::get(packedType, "packed_int8_filter",
                                     std::move(blob)));
  auto corrType = RankedTensorType::get({p.ob * kLanes}, b.getI32Type());
  correction = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(corrType, ArrayRef<int32_t>(corr)));
}

Value Emitter::loop(Value dest, int64_t from, int64_t to, int64_t step,
                    function_ref<Value(Value, Value)> body) {
  auto forOp = scf::ForOp::create(b, loc, cst(from), cst(to), cst(step),
                                  ValueRange{dest});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  Value r = body(forOp.getInductionVar(), forOp.getRegionIterArgs()[0]);
  scf::YieldOp::create(b, loc, r);
  return forOp.getResult(0);
}

Value Emitter::tile(Value dest, const Range &r, Value p0, int64_t rows,
                    Value ob0, int64_t vecs) {
  // Each row's output pixel and the input pixel its window starts at.
  SmallVector<Value> ohs, ows, ihs, iws;
  for (int64_t i = 0; i < rows; ++i) {
    ohs.push_back(apply(d(0) + (d(1) + i).floorDiv(p.ow), {r.ohBegin, p0}));
    ows.push_back(apply((d(0) + i) % p.ow, {p0}));
    ihs.push_back(apply(d(0) * p.stride[0], {ohs.back()}));
    iws.push_back(apply(d(0) * p.stride[1], {ows.back()}));
  }
  auto accType = VectorType::get({kLanes}, b.getI32Type());
  auto bytesType = VectorType::get({4 * kLanes}, b.getI8Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  SmallVector<Value> accs(rows * vecs, zero);
  // for cb, kh, kw: the accumulators carried through all three loops.
  SmallVector<scf::ForOp> loops;
  int64_t extents[3] = {p.cb, p.kh, p.kw};
  SmallVector<Value> ivs;
  SmallVector<Value> carried = accs;
  for (int64_t extent : extents) {
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
  Value kBase =
      apply(((d(0) * p.kh + d(1)) * p.kw + d(2)) * 4, {cbIv, khIv, kwIv});
  Value i8zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  SmallVector<Value> rowIh, rowIw;
  for (int64_t i = 0; i < rows; ++i) {
    rowIh.push_back(apply(d(0) + d(1) * p.dilation[0], {ihs[i], khIv}));
    rowIw.push_back(apply(d(0) + d(1) * p.dilation[1], {iws[i], kwIv}));
  }
  for (int64_t c4 = 0; c4 < 4; ++c4) {
    SmallVector<Value> xs, ws;
    for (int64_t i = 0; i < rows; ++i)
      xs.push_back(broadcastWord(
          b, loc, p.input, {r.n, cbIv, rowIh[i], rowIw[i], cst(4 * c4)}, p.x));
    Value k = apply(d(0) + c4, {kBase});
    for (int64_t j = 0; j < vecs; ++j)
      ws.push_back(
          widenWeights(b, loc,
                       vector::TransferReadOp::create(
                           b, loc, bytesType, packed,
                           ValueRange{apply(d(0) + j, {ob0}), k, cst(0)},
                           i8zero, ArrayRef<bool>{true})));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vecs; ++j)
        carried[i * vecs + j] =
            byteDot(b, loc, carried[i * vecs + j], xs[i], ws[j]);
  }
  scf::YieldOp::create(b, loc, carried);
  b.setInsertionPointAfter(loops.front());
  ValueRange sums = loops.front().getResults();
  Value lane0 = cst(0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < vecs; ++j) {
      Value obj = apply(d(0) + j, {ob0});
      Value col = apply(d(0) * kLanes, {obj});
      SmallVector<Value> at = {r.n, obj, ohs[i], ows[i], lane0};
      SmallVector<Value> destAt = {r.n, apply(d(0) - d(1), {obj, r.destOb}),
                                   apply(d(0) - d(1), {ohs[i], r.destOh}),
                                   ows[i], lane0};
      dest = writeResult(b, loc, dest, sums[i * vecs + j], correction, col,
                         p.epilogue, p.epilogueInputs, at, destAt,
                         /*inBounds=*/true);
    }
  return dest;
}

Value Emitter::outputBlocks(Value dest, const Range &r, Value p0,
                            int64_t rows) {
  int64_t full = r.obCount / kVectors * kVectors;
  auto at = [&](int64_t from) { return apply(d(0) + from, {r.obBegin}); };
  dest = loop(dest, 0, full, kVectors, [&](Value j, Value dst) {
    return tile(dst, r, p0, rows, apply(d(0) + d(1), {r.obBegin, j}), kVectors);
  });
  if (full < r.obCount)
    dest = tile(dest, r, p0, rows, at(full), r.obCount - full);
  return dest;
}

Value Emitter::pixels(Value dest, const Range &r) {
  int64_t count = r.band * p.ow, full = count / kRows * kRows;
  dest = loop(dest, 0, full, kRows, [&](Value p0, Value dst) {
    return outputBlocks(dst, r, p0, kRows);
  });
  if (full < count)
    dest = outputBlocks(dest, r, cst(full), count - full);
  return dest;
}

Value Emitter::run(Value dest) {
  packConstants();
  int64_t work = p.batch * p.ob * p.oh * p.ow * kLanes * ksteps * 4;
  bool threaded = parallelMinWork > 0 && work >= parallelMinWork;
  return loop(dest, 0, p.batch, 1, [&](Value n, Value dst) -> Value {
    Range whole{n, cst(0), cst(0), cst(0), cst(0), p.ob, p.oh};
    if (!threaded)
      return pixels(dst, whole);
    // Whole tiles of output blocks per task when there are enough of them
    // (every pixel then flattened into rows), else bands of output rows.
    if (p.ob % kVectors == 0 && p.ob / kVectors >= 4)
      return forallOverSlices(
          b, loc, dst, 1, p.ob,
          [&](Value ob0, Value slice) {
            Range r = whole;
            r.obBegin = r.destOb = ob0;
            r.obCount = kVectors;
            return pixels(slice, r);
          },
          kVectors);
    int64_t band = 1;
    for (int64_t v = p.oh / kBands; v > 1; --v)
      if (p.oh % v == 0) {
        band = v;
        break;
      }
    return forallOverSlices(
        b, loc, dst, 2, p.oh,
        [&](Value oh0, Value slice) {
          Range r = whole;
          r.ohBegin = r.destOh = oh0;
          r.band = band;
          return pixels(slice, r);
        },
        band);
  });
}

} // namespace

FailureOr<bool>
mlc::codegen::emitIntegerConvKernel(RewriterBase &rewriter,
                                    graph::FusionGroupOp group,
                                    const KernelOptions &options) {
  if (!options.vnni)
    return false;
  std::optional<KernelRoot> kr =
      matchKernelRoot(group, [&](linalg::GenericOp op) {
        return isIntegerConv(group, op, nullptr);
      });
  if (!kr)
    return false;
  Plan plan;
  isIntegerConv(group, kr->op, &plan);
  plan.epilogue = kr->epilogue;
  if (plan.epilogue) {
    std::optional<SmallVector<EpilogueInput>> ins =
        epilogueInputs(plan.epilogue, kr->op.getResult(0));
    if (!ins)
      return false;
    plan.epilogueInputs = std::move(*ins);
  }
  linalg::GenericOp root = kr->epilogue ? kr->epilogue : kr->op;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(root);
  Value dest = root.getDpsInits()[0];
  Value result = Emitter(rewriter, plan, options.parallelMinWork).run(dest);
  rewriter.replaceOp(root, result);
  return true;
}
