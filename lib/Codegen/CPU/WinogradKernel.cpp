//===- WinogradKernel.cpp - vector kernels of the Winograd transforms -----===//
//
// A fusion group whose result is a marked Winograd generic (mlc/Conversion/
// WinogradGeneric.h), or an elementwise epilogue of the output transform's,
// is emitted as loops over whole tiles with vectors along the blocked
// channel lanes, which are contiguous in every operand:
//
//   input:  for n, th (the first with 2+ trips may be an scf.forall)
//             for tw, channel block, vector of lanes
//               the 36 points of B^T d B from the 6x6 tile's vectors
//   output: for n or channel block (scf.forall), th, tw, vector of lanes
//             the 4x4 (or edge-cut) block of A^T m A from the 36 products,
//             the epilogue applied, stored
//
// Both transforms run separably with constant coefficients (zeros skipped,
// +-1 as adds; mlc/Dialect/Graph/Winograd.h, which the evaluator shares), a
// fifth of the arithmetic of the 36-term sums that define the generic and
// independent of the map's width. Partial tiles at the bottom and right
// edges get loops of their own with fewer rows or columns.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "mlc/Conversion/GraphToLinalg/WinogradGeneric.h"
#include "mlc/Dialect/Graph/Winograd.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
namespace wg = mlc::graph::winograd;

namespace {

struct Plan {
  linalg::GenericOp op, epilogue;
  bool isInput = true;
  Value source;
  SmallVector<int64_t> inShape, outShape;
  SmallVector<EpilogueInput> epilogueInputs;
  int64_t vw = 8;
};

bool isStaticF32(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() && t.getElementType().isF32();
}

std::optional<Plan> makePlan(graph::FusionGroupOp group,
                             const KernelOptions &opts) {
  std::optional<KernelRoot> kr =
      matchKernelRoot(group, [](linalg::GenericOp op) {
        return lowering::matchWinogradGeneric(op).has_value();
      });
  if (!kr)
    return std::nullopt;
  Plan p;
  p.op = kr->op;
  p.epilogue = kr->epilogue;
  std::optional<lowering::WinogradGeneric> w =
      lowering::matchWinogradGeneric(p.op);
  Value result = p.op.getResult(0);
  if (!isStaticF32(w->source) || !isStaticF32(result))
    return std::nullopt;
  p.isInput = w->isInput;
  p.source = w->source;
  auto inType = cast<RankedTensorType>(p.source.getType());
  auto outType = cast<RankedTensorType>(result.getType());
  p.inShape.assign(inType.getShape().begin(), inType.getShape().end());
  p.outShape.assign(outType.getShape().begin(), outType.getShape().end());
  p.vw = std::max<int64_t>(4, opts.vectorBits / 32);
  if (p.inShape.back() % p.vw != 0)
    return std::nullopt;
  // The input transform feeds a matrix product: no epilogue expected.
  if (p.epilogue && p.isInput)
    return std::nullopt;
  if (p.epilogue) {
    std::optional<SmallVector<EpilogueInput>> ins =
        epilogueInputs(p.epilogue, result);
    if (!ins)
      return std::nullopt;
    p.epilogueInputs = std::move(*ins);
  }
  return p;
}

/// Vector arithmetic for the shared transforms.
struct VectorOps {
  OpBuilder &b;
  Location loc;
  VectorType type;
  Value mul(double c, Value v) {
    Value k = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(float(c))));
    return arith::MulFOp::create(b, loc, k, v);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
};

class Emitter {
public:
  Emitter(RewriterBase &b, Plan &p, const KernelOptions &opts)
      : b(b), p(p), opts(opts), loc(p.op.getLoc()),
        vecType(VectorType::get({p.vw}, b.getF32Type())),
        zero(arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0))),
        ops{b, loc, vecType} {}

  Value run(Value dest);

private:
  RewriterBase &b;
  Plan &p;
  const KernelOptions &opts;
  Location loc;
  VectorType vecType;
  Value zero; // padding of the (in-bounds) transfer reads
  VectorOps ops;

  /// One loop of the outer nest: its trip count and the result dim it walks
  /// (a thread's slice of the destination is cut along that dim).
  struct Loop {
    int64_t extent;
    unsigned destDim;
  };
  using Body = function_ref<Value(Value dest, ArrayRef<Value> iv,
                                  ArrayRef<Value> destIv)>;
  using Step = function_ref<Value(Value dest, Value iv)>;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// 4 * t + off.
  Value tileOrigin(Value t, int64_t off) {
    return applyFolded(
        b, loc, getAffineDimExpr(0, b.getContext()) * wg::kTile + off, {t});
  }
  /// scf.for iv = 0 to `ub` step `step` carrying `dest` through `body`.
  Value loop(Value dest, int64_t ub, int64_t step, Step body) {
    return scf::ForOp::create(
               b, loc, cst(0), cst(ub), cst(step), ValueRange{dest},
               [&](OpBuilder &, Location, Value iv, ValueRange iter) {
                 scf::YieldOp::create(b, loc, body(iter[0], iv));
               })
        .getResult(0);
  }
  /// The tiles of an output dim of `extent`: the whole ones in a loop, then
  /// the one cut at the edge; `tile(dest, t, outputs)`.
  Value tiles(Value dest, int64_t extent,
              function_ref<Value(Value, Value, int64_t)> tile) {
    int64_t whole = extent / wg::kTile, cut = extent % wg::kTile;
    if (whole > 0)
      dest = loop(dest, whole, 1,
                  [&](Value d, Value t) { return tile(d, t, wg::kTile); });
    return cut > 0 ? tile(dest, cst(whole), cut) : dest;
  }

  Value nest(Value dest, ArrayRef<Loop> loops, std::optional<unsigned> par,
             SmallVectorImpl<Value> &iv, SmallVectorImpl<Value> &destIv,
             Body body);
  Value inputTiles(Value dest, ArrayRef<Value> iv, ArrayRef<Value> destIv);
  Value outputTiles(Value dest, ArrayRef<Value> iv, ArrayRef<Value> destIv);
  Value outputTile(Value dest, Value th, Value tw, int64_t rows, int64_t cols,
                   ArrayRef<Value> iv, ArrayRef<Value> destIv);
};

/// Loops `loops` around `body`, the one at index `par` (if any) as an
/// scf.forall writing its slice (size 1 along that loop's dim) of `dest`.
Value Emitter::nest(Value dest, ArrayRef<Loop> loops,
                    std::optional<unsigned> par, SmallVectorImpl<Value> &iv,
                    SmallVectorImpl<Value> &destIv, Body body) {
  unsigned k = iv.size();
  if (k == loops.size())
    return body(dest, iv, destIv);
  const Loop &l = loops[k];
  bool threaded = par && *par == k;
  auto inner = [&](Value d, Value i) {
    iv.push_back(i);
    destIv.push_back(threaded ? cst(0) : i);
    Value r = nest(d, loops, par, iv, destIv, body);
    iv.pop_back();
    destIv.pop_back();
    return r;
  };
  if (threaded)
    return forallOverSlices(
        b, loc, dest, l.destDim, l.extent,
        [&](Value i, Value slice) { return inner(slice, i); });
  return loop(dest, l.extent, 1, inner);
}

/// The input transform of the tiles (n, th, *, *): iv = {n, th}.
Value Emitter::inputTiles(Value dest, ArrayRef<Value> iv,
                          ArrayRef<Value> destIv) {
  int64_t tw = p.outShape[3], cb = p.outShape[4], lanes = p.outShape[5];
  return loop(dest, tw, 1, [&](Value d, Value z) {
    return loop(d, cb, 1, [&](Value d, Value c) {
      return loop(d, lanes, p.vw, [&](Value d, Value l) {
        auto read = [&](int64_t i, int64_t j) -> Value {
          return vector::TransferReadOp::create(
              b, loc, vecType, p.source,
              ValueRange{iv[0], c, tileOrigin(iv[1], i), tileOrigin(z, j), l},
              zero, ArrayRef<bool>{true});
        };
        wg::inputTile<Value>(
            read,
            [&](int64_t xi, int64_t nu, Value v) {
              d = vector::TransferWriteOp::create(
                      b, loc, v, d,
                      ValueRange{cst(xi * wg::kAlpha + nu), destIv[0],
                                 destIv[1], z, c, l},
                      ArrayRef<bool>{true})
                      .getResult();
            },
            ops);
        return d;
      });
    });
  });
}

/// One tile's rows x cols outputs at tile (th, tw): iv = {n, kb}.
Value Emitter::outputTile(Value dest, Value th, Value tw, int64_t rows,
                          int64_t cols, ArrayRef<Value> iv,
                          ArrayRef<Value> destIv) {
  return loop(dest, p.outShape[4], p.vw, [&](Value d, Value l) {
    auto read = [&](int64_t xi, int64_t nu) -> Value {
      return vector::TransferReadOp::create(
          b, loc, vecType, p.source,
          ValueRange{cst(xi * wg::kAlpha + nu), iv[0], th, tw, iv[1], l}, zero,
          ArrayRef<bool>{true});
    };
    wg::outputTile<Value>(
        read,
        [&](int64_t a, int64_t c, Value v) {
          Value oh = tileOrigin(th, a), ow = tileOrigin(tw, c);
          if (p.epilogue) {
            SmallVector<Value> at{iv[0], iv[1], oh, ow, l}, args;
            for (const EpilogueInput &in : p.epilogueInputs)
              args.push_back(in.tensor
                                 ? readEpilogueInput(b, loc, in, at, p.vw, true)
                                 : v);
            v = replayOnVectors(b, loc, p.epilogue.getRegion().front(), args,
                                p.vw);
          }
          d = vector::TransferWriteOp::create(
                  b, loc, v, d, ValueRange{destIv[0], destIv[1], oh, ow, l},
                  ArrayRef<bool>{true})
                  .getResult();
        },
        rows, cols, ops);
    return d;
  });
}

/// The output transform of the tiles of (n, kb): iv = {n, kb}; tile rows,
/// then tile columns, each whole tiles first and the edge-cut one last.
Value Emitter::outputTiles(Value dest, ArrayRef<Value> iv,
                           ArrayRef<Value> destIv) {
  return tiles(dest, p.outShape[2], [&](Value d, Value th, int64_t rows) {
    return tiles(d, p.outShape[3], [&](Value d, Value tw, int64_t cols) {
      return outputTile(d, th, tw, rows, cols, iv, destIv);
    });
  });
}

Value Emitter::run(Value dest) {
  // Input: loops n, th over the result [36, N, TH, TW, C/B, B]; output:
  // loops n, kb over the result [N, K/B, OH, OW, B].
  SmallVector<Loop> loops =
      p.isInput ? SmallVector<Loop>{{p.outShape[1], 1}, {p.outShape[2], 2}}
                : SmallVector<Loop>{{p.outShape[0], 0}, {p.outShape[1], 1}};
  SmallVector<int64_t> work(p.outShape);
  work.push_back(8); // about 8 operations per result element
  std::optional<unsigned> par;
  if (worthThreads(work, opts.parallelMinWork))
    for (unsigned k = 0; k < loops.size() && !par; ++k)
      if (loops[k].extent >= 2)
        par = k;
  SmallVector<Value> iv, destIv;
  return nest(dest, loops, par, iv, destIv,
              [&](Value d, ArrayRef<Value> i, ArrayRef<Value> di) {
                return p.isInput ? inputTiles(d, i, di) : outputTiles(d, i, di);
              });
}

} // namespace

FailureOr<bool> mlc::codegen::emitWinogradKernel(RewriterBase &rewriter,
                                                 graph::FusionGroupOp group,
                                                 const KernelOptions &options) {
  std::optional<Plan> plan = makePlan(group, options);
  if (!plan)
    return false;
  replaceKernelRoot(
      rewriter, {plan->op, plan->epilogue}, plan->outShape,
      [&](Value dest) { return Emitter(rewriter, *plan, options).run(dest); });
  return true;
}
