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
#include "mlc/Conversion/WinogradGeneric.h"
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
  auto yield = cast<graph::YieldOp>(group.getBody().front().getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  auto root = yield.getOperand(0).getDefiningOp<linalg::GenericOp>();
  if (!root)
    return std::nullopt;
  std::optional<KernelRoot> kr =
      matchKernelRoot(root, [](linalg::GenericOp op) {
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
        vecType(VectorType::get({p.vw}, b.getF32Type())) {}

  Value run(Value dest);

private:
  RewriterBase &b;
  Plan &p;
  const KernelOptions &opts;
  Location loc;
  VectorType vecType;

  /// One loop of the nest: its trip count and the result dim it walks (a
  /// thread's slice of the destination is cut along that dim).
  struct Loop {
    int64_t extent;
    unsigned destDim;
  };
  using Body = function_ref<Value(Value dest, ArrayRef<Value> iv,
                                  ArrayRef<Value> destIv)>;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value apply(AffineExpr e, ValueRange operands) {
    return getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(
            b, loc, AffineMap::get(operands.size(), 0, e),
            getAsOpFoldResult(operands)));
  }
  /// 4 * t + off.
  Value tileOrigin(Value t, int64_t off) {
    return apply(getAffineDimExpr(0, b.getContext()) * wg::kTile + off, {t});
  }

  Value nest(Value dest, ArrayRef<Loop> loops, std::optional<unsigned> par,
             SmallVectorImpl<Value> &iv, SmallVectorImpl<Value> &destIv,
             Body body);
  Value inputTiles(Value dest, ArrayRef<Value> iv, ArrayRef<Value> destIv);
  Value outputTiles(Value dest, ArrayRef<Value> iv, ArrayRef<Value> destIv);
  Value outputRow(Value dest, Value th, Value destTh, int64_t rows,
                  ArrayRef<Value> iv, ArrayRef<Value> destIv);
  Value outputTile(Value dest, Value th, Value tw, int64_t rows, int64_t cols,
                   ArrayRef<Value> iv, ArrayRef<Value> destIv, Value destTh);
};

/// Loops `loops` around `body`, the one at index `par` (if any) as an
/// scf.forall writing its slice (size 1 along that loop's dim) of `dest`.
Value Emitter::nest(Value dest, ArrayRef<Loop> loops,
                    std::optional<unsigned> par, SmallVectorImpl<Value> &iv,
                    SmallVectorImpl<Value> &destIv, Body body) {
  unsigned k = iv.size();
  if (k == loops.size())
    return body(dest, iv, destIv);
  const Loop &loop = loops[k];
  if (par && *par == k) {
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(loop.extent)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, ValueRange{dest},
        std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getTerminator());
    Value i = forall.getInductionVars()[0];
    auto destType = cast<RankedTensorType>(dest.getType());
    SmallVector<OpFoldResult> offsets(destType.getRank(), b.getIndexAttr(0)),
        sizes, strides(destType.getRank(), b.getIndexAttr(1));
    for (int64_t s : destType.getShape())
      sizes.push_back(b.getIndexAttr(s));
    offsets[loop.destDim] = i;
    sizes[loop.destDim] = b.getIndexAttr(1);
    Value shared = forall.getRegionIterArgs()[0];
    Value slice =
        tensor::ExtractSliceOp::create(b, loc, shared, offsets, sizes, strides);
    iv.push_back(i);
    destIv.push_back(cst(0));
    Value result = nest(slice, loops, par, iv, destIv, body);
    iv.pop_back();
    destIv.pop_back();
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, result, shared, offsets,
                                          sizes, strides);
    return forall.getResult(0);
  }
  auto forOp = scf::ForOp::create(
      b, loc, cst(0), cst(loop.extent), cst(1), ValueRange{dest},
      [&](OpBuilder &, Location, Value i, ValueRange iter) {
        iv.push_back(i);
        destIv.push_back(i);
        Value r = nest(iter[0], loops, par, iv, destIv, body);
        iv.pop_back();
        destIv.pop_back();
        scf::YieldOp::create(b, loc, r);
      });
  return forOp.getResult(0);
}

/// The input transform of the tiles (n, th, *, *): iv = {n, th}.
Value Emitter::inputTiles(Value dest, ArrayRef<Value> iv,
                          ArrayRef<Value> destIv) {
  int64_t tw = p.outShape[3], cb = p.outShape[4], lanes = p.outShape[5];
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  VectorOps ops{b, loc, vecType};
  auto loops = [&](Value d, function_ref<Value(Value, Value, Value, Value)> f) {
    auto l0 = scf::ForOp::create(
        b, loc, cst(0), cst(tw), cst(1), ValueRange{d},
        [&](OpBuilder &, Location, Value z, ValueRange i0) {
          auto l1 = scf::ForOp::create(
              b, loc, cst(0), cst(cb), cst(1), ValueRange{i0[0]},
              [&](OpBuilder &, Location, Value c, ValueRange i1) {
                auto l2 = scf::ForOp::create(
                    b, loc, cst(0), cst(lanes), cst(p.vw), ValueRange{i1[0]},
                    [&](OpBuilder &, Location, Value l, ValueRange i2) {
                      scf::YieldOp::create(b, loc, f(i2[0], z, c, l));
                    });
                scf::YieldOp::create(b, loc, l2.getResult(0));
              });
          scf::YieldOp::create(b, loc, l1.getResult(0));
        });
    return l0.getResult(0);
  };
  return loops(dest, [&](Value d, Value z, Value c, Value l) {
    auto read = [&](int64_t i, int64_t j) -> Value {
      return vector::TransferReadOp::create(
          b, loc, vecType, p.source,
          ValueRange{iv[0], c, tileOrigin(iv[1], i), tileOrigin(z, j), l}, zero,
          ArrayRef<bool>{true});
    };
    wg::inputTile<Value>(
        read,
        [&](int64_t xi, int64_t nu, Value v) {
          d = vector::TransferWriteOp::create(
                  b, loc, v, d,
                  ValueRange{cst(xi * wg::kAlpha + nu), destIv[0], destIv[1], z,
                             c, l},
                  ArrayRef<bool>{true})
                  .getResult();
        },
        ops);
    return d;
  });
}

/// One tile's rows x cols outputs at tile (th, tw): iv = {n, kb}.
Value Emitter::outputTile(Value dest, Value th, Value tw, int64_t rows,
                          int64_t cols, ArrayRef<Value> iv,
                          ArrayRef<Value> destIv, Value destTh) {
  int64_t lanes = p.outShape[4];
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  VectorOps ops{b, loc, vecType};
  auto loop = scf::ForOp::create(
      b, loc, cst(0), cst(lanes), cst(p.vw), ValueRange{dest},
      [&](OpBuilder &, Location, Value l, ValueRange iter) {
        Value d = iter[0];
        auto read = [&](int64_t xi, int64_t nu) -> Value {
          return vector::TransferReadOp::create(
              b, loc, vecType, p.source,
              ValueRange{cst(xi * wg::kAlpha + nu), iv[0], th, tw, iv[1], l},
              zero, ArrayRef<bool>{true});
        };
        wg::outputTile<Value>(
            read,
            [&](int64_t a, int64_t c, Value v) {
              Value oh = tileOrigin(th, a), ow = tileOrigin(tw, c);
              if (p.epilogue) {
                SmallVector<Value> at{iv[0], iv[1], oh, ow, l}, args;
                for (const EpilogueInput &in : p.epilogueInputs)
                  args.push_back(
                      in.tensor ? readEpilogueInput(b, loc, in, at, p.vw, true)
                                : v);
                v = replayOnVectors(b, loc, p.epilogue.getRegion().front(),
                                    args, p.vw);
              }
              d = vector::TransferWriteOp::create(
                      b, loc, v, d,
                      ValueRange{destIv[0], destIv[1], tileOrigin(destTh, a),
                                 ow, l},
                      ArrayRef<bool>{true})
                      .getResult();
            },
            rows, cols, ops);
        scf::YieldOp::create(b, loc, d);
      });
  return loop.getResult(0);
}

/// The tiles of row th (`rows` output rows): whole tiles in a loop, then
/// the cut one at the right edge.
Value Emitter::outputRow(Value dest, Value th, Value destTh, int64_t rows,
                         ArrayRef<Value> iv, ArrayRef<Value> destIv) {
  int64_t ow = p.outShape[3];
  int64_t whole = ow / wg::kTile, cut = ow % wg::kTile;
  if (whole > 0) {
    auto loop = scf::ForOp::create(
        b, loc, cst(0), cst(whole), cst(1), ValueRange{dest},
        [&](OpBuilder &, Location, Value tw, ValueRange iter) {
          scf::YieldOp::create(
              b, loc,
              outputTile(iter[0], th, tw, rows, wg::kTile, iv, destIv, destTh));
        });
    dest = loop.getResult(0);
  }
  if (cut > 0)
    dest = outputTile(dest, th, cst(whole), rows, cut, iv, destIv, destTh);
  return dest;
}

/// The output transform of the tiles of (n, kb): iv = {n, kb}.
Value Emitter::outputTiles(Value dest, ArrayRef<Value> iv,
                           ArrayRef<Value> destIv) {
  int64_t oh = p.outShape[2];
  int64_t whole = oh / wg::kTile, cut = oh % wg::kTile;
  if (whole > 0) {
    auto loop = scf::ForOp::create(
        b, loc, cst(0), cst(whole), cst(1), ValueRange{dest},
        [&](OpBuilder &, Location, Value th, ValueRange iter) {
          scf::YieldOp::create(
              b, loc, outputRow(iter[0], th, th, wg::kTile, iv, destIv));
        });
    dest = loop.getResult(0);
  }
  if (cut > 0)
    dest = outputRow(dest, cst(whole), cst(whole), cut, iv, destIv);
  return dest;
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
  linalg::GenericOp root = plan->epilogue ? plan->epilogue : plan->op;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(root);
  Value dest = plan->epilogue
                   ? plan->epilogue.getDpsInits()[0]
                   : Value(tensor::EmptyOp::create(rewriter, root.getLoc(),
                                                   plan->outShape,
                                                   rewriter.getF32Type()));
  Emitter emitter(rewriter, *plan, options);
  rewriter.replaceOp(root, emitter.run(dest));
  return true;
}
