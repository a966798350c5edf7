//===- IntegerMatMulKernel.cpp - u8 x s8 matmul on VNNI or int16 pairs ---===//
//
// graph.matmul_integer's generic with a constant int8 right-hand side whose
// zero point is 0 (symmetric weights, what --quantize writes), an 8-bit
// left-hand side with a constant zero point zx, and an optional elementwise
// epilogue (the dequantize, bias, activation and quantize of a QDQ graph):
//
//   sum_k (x[.., m, k] - zx) w[k, n] = sum_k x' w - (zx + s) colsum(w)[n]
//
// (IntegerKernelUtils.h). The weights are packed at compile time as
// [N / L, K / g, L x g] (L int32 lanes, g = 4 bytes for vpdpbusd, 2 int16
// for vpmaddwd), so that one load is the weight operand of a dot step; g
// bytes of x, broadcast to every lane, are the other:
//
//   for outer dims, for m0 in M step mr, for n tiles of nv vectors:
//     acc[mr][nv] = 0
//     for k in K / g: acc[i][j] = dot(acc[i][j], x'[m0 + i, g k : +g],
//                                     w[n tile + j][k])
//     out[m0 + i, columns of vector j] = epilogue(acc[i][j] - corr[..])
//
// K and N are padded with zero weights (and zero bytes of x read past K);
// the columns past N are masked at the stores. Exact: the int32 sums wrap
// like the generic's.
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
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::int8;

namespace {

constexpr int64_t kRows = 4; // mr

/// The weights are [K, N].
struct Plan : KernelPlan {
  Value lhs;
  SmallVector<int64_t> outShape;
  int64_t k = 0, n = 0;
};

/// (d0, ..., d[L-1]) -> (d0, ..., d[L-2]): the output of the loops but the
/// reduction.
AffineMap outputMap(unsigned loops, MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d + 1 < loops; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(loops, 0, exprs, ctx);
}

/// The generic of an integer matmul this kernel computes (see the top).
bool isIntegerMatMul(graph::FusionGroupOp group, linalg::GenericOp op,
                     Plan *plan) {
  unsigned loops = op.getNumLoops();
  if (loops < 3 || op.getNumReductionLoops() != 1 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return false;
  auto iters = op.getIteratorTypesArray();
  if (iters.back() != utils::IteratorType::reduction)
    return false;
  auto outType = cast<RankedTensorType>(op.getResult(0).getType());
  if (!outType.getElementType().isInteger(32) || !outType.hasStaticShape())
    return false;
  // Maps: lhs (d0, .., d[P-2], dK), rhs (dK, d[P-1]), out identity.
  MLIRContext *ctx = op.getContext();
  unsigned kDim = loops - 1, nDim = loops - 2;
  SmallVector<AffineExpr> lhsExprs;
  for (unsigned d = 0; d < nDim; ++d)
    lhsExprs.push_back(getAffineDimExpr(d, ctx));
  lhsExprs.push_back(getAffineDimExpr(kDim, ctx));
  auto maps = op.getIndexingMapsArray();
  if (maps[0] != AffineMap::get(loops, 0, lhsExprs, ctx) ||
      maps[1] != AffineMap::get(
                     loops, 0,
                     {getAffineDimExpr(kDim, ctx), getAffineDimExpr(nDim, ctx)},
                     ctx) ||
      maps[2] != outputMap(loops, ctx))
    return false;
  ByteOperand x;
  if (!isByteDotBody(op, x))
    return false;
  // The weights: a constant (an input of the group).
  std::optional<graph::HostTensor> weights =
      groupConstantTensor(group, op.getDpsInputs()[1]);
  if (!weights || weights->getKind() != graph::ElementKind::I8)
    return false;
  if (plan) {
    plan->op = op;
    plan->lhs = op.getDpsInputs()[0];
    plan->x = x;
    plan->weights = std::move(*weights);
    plan->outShape.assign(outType.getShape().begin(), outType.getShape().end());
    plan->k = plan->weights.getShape()[0];
    plan->n = plan->weights.getShape()[1];
  }
  return true;
}

class Emitter {
public:
  Emitter(RewriterBase &b, Plan &p, const DotKind &kind,
          int64_t parallelMinWork)
      : b(b), p(p), kind(kind), loc(p.op.getLoc()),
        parallelMinWork(parallelMinWork),
        // nv: kRows * nv accumulators, kRows broadcasts and a weight.
        vectors(kind.registers >= 32 ? 4 : 2) {}

  Value run(Value dest);

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  void packConstants();
  /// `destM`: the row's index in `dest` when that is a thread's slice of one
  /// row (else null: the output's own indices).
  Value tile(Value dest, ValueRange outer, Value m0, int64_t rows, Value nt,
             Value destM);
  Value rowLoops(Value dest, SmallVector<Value> outer, unsigned dim);
  /// The tiles of rows [m0, m0 + rows) across all columns.
  Value columns(Value dest, ValueRange outer, Value m0, int64_t rows,
                Value destM);

  RewriterBase &b;
  Plan &p;
  DotKind kind;
  Location loc;
  int64_t parallelMinWork;
  int64_t vectors;
  Value packed, correction; // [tiles, steps, lanes * group], [tiles * lanes]
  int64_t tiles = 0, steps = 0;
};

void Emitter::packConstants() {
  tiles =
      llvm::divideCeil(llvm::divideCeil(p.n, kind.lanes), vectors) * vectors;
  PackedWeights weights(kind, tiles, p.k);
  ArrayRef<int8_t> w = p.weights.values<int8_t>();
  for (int64_t col = 0; col < p.n; ++col)
    for (int64_t row = 0; row < p.k; ++row)
      weights.set(col, row, w[row * p.n + col]);
  steps = weights.steps;
  packed = weights.packed(b, loc, "packed_int8_weight");
  correction = weights.correction(b, loc, p.x);
}

Value Emitter::tile(Value dest, ValueRange outer, Value m0, int64_t rows,
                    Value nt, Value destM) {
  MLIRContext *ctx = b.getContext();
  auto accType = VectorType::get({kind.lanes}, b.getI32Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  SmallVector<Value> inits(rows * vectors, zero);
  auto kLoop = scf::ForOp::create(b, loc, cst(0), cst(steps), cst(1), inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value k = kLoop.getInductionVar();
    Value kx = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx) * kind.group), k);
    SmallVector<Value> xs;
    for (int64_t i = 0; i < rows; ++i) {
      SmallVector<Value> at(outer.begin(), outer.end());
      at.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + i), m0));
      at.push_back(kx);
      // Whole groups when they divide K: plain loads, not byte by byte.
      xs.push_back(
          broadcastGroup(b, loc, kind, p.lhs, at, p.x, p.k % kind.group == 0));
    }
    SmallVector<Value> ws;
    for (int64_t j = 0; j < vectors; ++j)
      ws.push_back(readWeights(
          b, loc, kind, packed,
          affine::AffineApplyOp::create(
              b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + j), nt),
          k));
    SmallVector<Value> next;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j)
        next.push_back(dotStep(b, loc, kind,
                               kLoop.getRegionIterArgs()[i * vectors + j],
                               xs[i], ws[j]));
    scf::YieldOp::create(b, loc, next);
  }
  int64_t outRank = p.outShape.size();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < vectors; ++j) {
      Value col = affine::AffineApplyOp::create(
          b, loc,
          AffineMap::get(1, 0, (getAffineDimExpr(0, ctx) + j) * kind.lanes),
          nt);
      SmallVector<Value> at(outer.begin(), outer.end());
      at.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + i), m0));
      at.push_back(col);
      assert(int64_t(at.size()) == outRank && "indices of the output");
      SmallVector<Value> destAt = at;
      if (destM)
        destAt[outRank - 2] = affine::AffineApplyOp::create(
            b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx) + i), destM);
      dest =
          writeResult(b, loc, kind, dest, kLoop.getResult(i * vectors + j),
                      correction, col, p.epilogue, p.epilogueInputs, at, destAt,
                      /*inBounds=*/false);
    }
  return dest;
}

/// Loops over the output's dims before m (one trip each), then the rows.
Value Emitter::rowLoops(Value dest, SmallVector<Value> outer, unsigned dim) {
  unsigned mDim = p.outShape.size() - 2;
  if (dim < mDim) {
    auto loop = scf::ForOp::create(b, loc, cst(0), cst(p.outShape[dim]), cst(1),
                                   ValueRange{dest});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    outer.push_back(loop.getInductionVar());
    Value r = rowLoops(loop.getRegionIterArgs()[0], outer, dim + 1);
    scf::YieldOp::create(b, loc, r);
    return loop.getResult(0);
  }
  int64_t m = p.outShape[mDim];
  auto rowTiles = [&](Value d, int64_t from, int64_t to, int64_t rows) {
    if (from >= to)
      return d;
    auto loop = scf::ForOp::create(b, loc, cst(from), cst(to), cst(rows),
                                   ValueRange{d});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = columns(loop.getRegionIterArgs()[0], outer,
                      loop.getInductionVar(), rows, Value());
    scf::YieldOp::create(b, loc, r);
    return loop.getResult(0);
  };
  int64_t full = m / kRows * kRows;
  // Enough work for threads: an scf.forall over the blocks of kRows rows,
  // each writing its slice of the destination; the last M % kRows rows
  // after it.
  if (parallelMinWork > 0 && full > kRows && m * p.n * p.k >= parallelMinWork)
    dest = forallOverSlices(
        b, loc, dest, mDim, full,
        [&](Value m0, Value slice) {
          return columns(slice, outer, m0, kRows, cst(0));
        },
        kRows);
  else
    dest = rowTiles(dest, 0, full, kRows);
  return rowTiles(dest, full, m, 1);
}

Value Emitter::columns(Value dest, ValueRange outer, Value m0, int64_t rows,
                       Value destM) {
  auto loop = scf::ForOp::create(b, loc, cst(0), cst(tiles), cst(vectors),
                                 ValueRange{dest});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value r = tile(loop.getRegionIterArgs()[0], outer, m0, rows,
                 loop.getInductionVar(), destM);
  scf::YieldOp::create(b, loc, r);
  return loop.getResult(0);
}

Value Emitter::run(Value dest) {
  packConstants();
  return rowLoops(dest, {}, 0);
}

} // namespace

FailureOr<bool>
mlc::codegen::emitIntegerMatMulKernel(RewriterBase &rewriter,
                                      graph::FusionGroupOp group,
                                      const KernelOptions &options) {
  return emitIntegerKernel<Plan>(
      rewriter, group, options,
      [&](linalg::GenericOp op, Plan *plan) {
        return isIntegerMatMul(group, op, plan);
      },
      [](const Plan &, const DotKind &) { return true; },
      [&](Plan &plan, const DotKind &kind, Value dest) {
        return Emitter(rewriter, plan, kind, options.parallelMinWork).run(dest);
      });
}
