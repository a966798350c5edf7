//===- ResizeKernel.cpp - vector kernels of graph.resize ------------------===//
//
// A fusion group whose result is a resize generic (mlc/Conversion/
// ResizeGeneric.h) with constant tables, or an elementwise epilogue of one,
// is emitted as loops over the output rows with vectors along the last dim:
//
//   for every output dim but the last        (the first with 2+ trips may
//     for each run of vector tiles of the row  be an scf.forall: threads)
//       src[s] = sum over the taps of the other resized axes of
//                w * x[.., ih, base + s * vw : + vw]        (contiguous)
//       out[ow0 : + vw] = sum_j ww[j, ow0 : + vw] * shuffle(src, mask_j)
//       out = epilogue(out, ...)
//
// The last axis's taps of a tile of vw outputs read a few neighbouring input
// columns: the tile loads the vw (or 2 vw) columns from `base` and picks
// each tap's lanes with a constant vector.shuffle. Masks and bases are
// known at compile time from the constant index table; consecutive tiles
// with the same masks and evenly spaced bases (integer scale factors,
// periodic with up to four tiles) share one loop, other tiles are emitted
// one by one. An AVX2 gather of 8 floats cost as much as 8 scalar loads
// on the machines we tune on, which is why no vector.gather is used.
// Every sum is formed in the op's order (first tap's product, then the
// others added in tap order, the first axis innermost), so results equal
// the generic's and the evaluator's bit for bit.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "mlc/Conversion/GraphToLinalg/ResizeGeneric.h"
#include "mlc/Dialect/Graph/Evaluator.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/Sequence.h"

#include <functional>

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;

namespace {

/// One resized axis with its tables read at compile time.
struct AxisTable {
  int64_t axis = 0, taps = 0, out = 0;
  Value indices, weights; // [taps, out] tensors in the group
  SmallVector<int64_t> idx;
  /// One tap of weight 1 everywhere: a plain gather, no multiply.
  bool unitWeights = false;
};

/// How a tile of the last dim reads its sources.
struct Tile {
  int64_t lanes = 0;                       // valid output lanes
  int64_t base = 0;                        // first input column loaded
  int64_t sources = 1;                     // vectors loaded from `base`
  bool inBounds = true;                    // base + sources * vw <= input width
  SmallVector<SmallVector<int64_t>> masks; // per tap; empty: identity

  bool sameShape(const Tile &o) const {
    return lanes == o.lanes && sources == o.sources && inBounds == o.inBounds &&
           masks == o.masks;
  }
};

/// Tiles [start + c * period + q] for c < count share the body of tile
/// start + q, with their bases `step` apart per period.
struct Run {
  int64_t start, period, count, step;
};

struct Plan {
  linalg::GenericOp resize, epilogue;
  Value source;
  SmallVector<int64_t> inShape, outShape;
  SmallVector<AxisTable> outer; // resized axes before the last dim
  std::optional<AxisTable> last;
  SmallVector<EpilogueInput> epilogueInputs;
  int64_t vw = 8;
  SmallVector<Tile> tiles;
  SmallVector<Run> runs;
};

bool isF32Tensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() && t.getElementType().isF32();
}

/// Reads one axis' tables; false unless they are constants with indices in
/// range (the generic clamps; the kernel needs no clamp then).
bool readAxis(graph::FusionGroupOp group, const lowering::ResizeGeneric &r,
              size_t k, int64_t inSize, AxisTable &a) {
  std::optional<graph::HostTensor> idx = groupConstantTensor(group, r.indices[k]);
  std::optional<graph::HostTensor> w = groupConstantTensor(group, r.weights[k]);
  if (!idx || !w || w->getKind() != graph::ElementKind::F32)
    return false;
  a.axis = r.axes[k];
  a.taps = idx->getShape()[0];
  a.out = idx->getShape()[1];
  a.indices = r.indices[k];
  a.weights = r.weights[k];
  for (int64_t i = 0; i < idx->getNumElements(); ++i) {
    int64_t v = idx->getKind() == graph::ElementKind::I64
                    ? idx->values<int64_t>()[i]
                    : idx->values<int32_t>()[i];
    if (v < 0 || v >= inSize)
      return false;
    a.idx.push_back(v);
  }
  ArrayRef<float> wv = w->values<float>();
  a.unitWeights =
      a.taps == 1 && llvm::all_of(wv, [](float x) { return x == 1.0f; });
  return true;
}

/// The source columns of every tile of the last dim.
void planTiles(Plan &p) {
  int64_t outW = p.outShape.back(), inW = p.inShape.back(), vw = p.vw;
  for (int64_t t = 0; t * vw < outW; ++t) {
    Tile tile;
    int64_t ow0 = t * vw;
    tile.lanes = std::min(vw, outW - ow0);
    if (!p.last) {
      tile.base = ow0;
      tile.inBounds = ow0 + vw <= inW;
      p.tiles.push_back(tile);
      continue;
    }
    const AxisTable &a = *p.last;
    int64_t lo = inW, hi = 0;
    for (int64_t j = 0; j < a.taps; ++j)
      for (int64_t l = 0; l < tile.lanes; ++l) {
        lo = std::min(lo, a.idx[j * a.out + ow0 + l]);
        hi = std::max(hi, a.idx[j * a.out + ow0 + l]);
      }
    // Load from `lo`, or further left where that keeps the loads inside the
    // row (no masked load).
    for (tile.sources = llvm::divideCeil(hi - lo + 1, vw);; ++tile.sources) {
      tile.base = lo;
      if (lo + tile.sources * vw > inW)
        tile.base = std::max<int64_t>(0, inW - tile.sources * vw);
      if (hi < tile.base + tile.sources * vw)
        break;
    }
    tile.inBounds = tile.base + tile.sources * vw <= inW;
    for (int64_t j = 0; j < a.taps; ++j) {
      SmallVector<int64_t> mask(vw, 0);
      for (int64_t l = 0; l < tile.lanes; ++l)
        mask[l] = a.idx[j * a.out + ow0 + l] - tile.base;
      tile.masks.push_back(mask);
    }
    p.tiles.push_back(tile);
  }
}

/// Groups the tiles into runs: the longest repetition (period up to four
/// tiles, at least two periods) from each tile on, else the tile alone.
void planRuns(Plan &p) {
  const SmallVector<Tile> &tiles = p.tiles;
  int64_t n = tiles.size();
  for (int64_t t = 0; t < n;) {
    Run best{t, 1, 1, 0};
    for (int64_t period = 1; period <= 4 && t + 2 * period <= n; ++period) {
      int64_t step = tiles[t + period].base - tiles[t].base;
      int64_t count = 1;
      while (t + (count + 1) * period <= n) {
        bool same = true;
        for (int64_t q = 0; q < period && same; ++q) {
          const Tile &a = tiles[t + q], &b = tiles[t + count * period + q];
          same = a.sameShape(b) && b.base == a.base + count * step;
        }
        if (!same)
          break;
        ++count;
      }
      if (count >= 2 && count * period > best.count * best.period)
        best = {t, period, count, step};
    }
    p.runs.push_back(best);
    t += best.count * best.period;
  }
}

std::optional<Plan> makePlan(graph::FusionGroupOp group,
                             const KernelOptions &opts) {
  std::optional<KernelRoot> kr =
      matchKernelRoot(group, [](linalg::GenericOp op) {
        return lowering::matchResizeGeneric(op).has_value();
      });
  if (!kr)
    return std::nullopt;
  Plan p;
  p.resize = kr->op;
  p.epilogue = kr->epilogue;
  std::optional<lowering::ResizeGeneric> r =
      lowering::matchResizeGeneric(p.resize);
  Value result = p.resize.getResult(0);
  if (!isF32Tensor(r->source) || !isF32Tensor(result))
    return std::nullopt;
  auto inType = cast<RankedTensorType>(r->source.getType());
  auto outType = cast<RankedTensorType>(result.getType());
  p.source = r->source;
  p.inShape.assign(inType.getShape().begin(), inType.getShape().end());
  p.outShape.assign(outType.getShape().begin(), outType.getShape().end());
  int64_t lastDim = outType.getRank() - 1;
  for (size_t k = 0; k < r->axes.size(); ++k) {
    AxisTable a;
    if (!readAxis(group, *r, k, p.inShape[r->axes[k]], a))
      return std::nullopt;
    if (a.axis == lastDim)
      p.last = std::move(a);
    else
      p.outer.push_back(std::move(a));
  }
  if (p.epilogue) {
    std::optional<SmallVector<EpilogueInput>> ins =
        epilogueInputs(p.epilogue, result);
    if (!ins)
      return std::nullopt;
    p.epilogueInputs = std::move(*ins);
  }
  p.vw = std::max<int64_t>(4, opts.vectorBits / 32);
  planTiles(p);
  planRuns(p);
  // Non-periodic rows (align_corners, odd ratios) are emitted tile by tile;
  // beyond this many bodies the code would outgrow its use.
  int64_t bodies = 0;
  for (const Run &run : p.runs)
    bodies += run.period;
  if (bodies > 64)
    return std::nullopt;
  return p;
}

class Emitter {
public:
  Emitter(RewriterBase &b, Plan &p, const KernelOptions &opts)
      : b(b), p(p), opts(opts), loc(p.resize.getLoc()),
        vecType(VectorType::get({p.vw}, b.getF32Type())) {}

  Value run(Value dest);

private:
  RewriterBase &b;
  Plan &p;
  const KernelOptions &opts;
  Location loc;
  VectorType vecType;
  /// Output coordinates of the current row (all but the last dim), and the
  /// destination's coordinates (different in a thread's slice).
  SmallVector<Value> coords, destCoords;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value apply(AffineExpr e, ValueRange operands) {
    return applyFolded(b, loc, e, operands);
  }

  Value rows(Value dest, unsigned dim, std::optional<unsigned> parallelDim);
  Value row(Value dest);
  Value tileBody(Value dest, const Tile &tile, Value ow0, Value base);
  Value vertical(Value col, bool inBounds);
  Value readEpilogueInput(const EpilogueInput &in, Value ow0, bool full);
};

/// The taps of the outer resized axes summed on the input columns
/// [col, col + vw) of the current row.
Value Emitter::vertical(Value col, bool inBounds) {
  SmallVector<Value> at(coords.begin(), coords.end());
  at.push_back(col);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  std::function<Value(size_t)> value = [&](size_t k) -> Value {
    if (k == 0)
      return vector::TransferReadOp::create(b, loc, vecType, p.source, at, zero,
                                            ArrayRef<bool>{inBounds});
    const AxisTable &a = p.outer[k - 1];
    Value o = coords[a.axis];
    Value acc;
    for (int64_t t = 0; t < a.taps; ++t) {
      Value idx =
          tensor::ExtractOp::create(b, loc, a.indices, ValueRange{cst(t), o});
      at[a.axis] = arith::IndexCastOp::create(b, loc, b.getIndexType(), idx);
      Value term = value(k - 1);
      if (!a.unitWeights) {
        Value w =
            tensor::ExtractOp::create(b, loc, a.weights, ValueRange{cst(t), o});
        term = arith::MulFOp::create(
            b, loc, vector::BroadcastOp::create(b, loc, vecType, w), term);
      }
      acc = t == 0 ? term : arith::AddFOp::create(b, loc, acc, term);
    }
    return acc;
  };
  return value(p.outer.size());
}

Value Emitter::readEpilogueInput(const EpilogueInput &in, Value ow0,
                                 bool full) {
  SmallVector<Value> at(coords.begin(), coords.end());
  at.push_back(ow0);
  return mlc::codegen::readEpilogueInput(b, loc, in, at, p.vw, full);
}

Value Emitter::tileBody(Value dest, const Tile &tile, Value ow0, Value base) {
  SmallVector<Value> src;
  for (int64_t s = 0; s < tile.sources; ++s)
    src.push_back(
        vertical(apply(getAffineDimExpr(0, b.getContext()) + s * p.vw, {base}),
                 tile.inBounds));
  bool full = tile.lanes == p.vw;
  Value acc = src[0];
  if (p.last) {
    const AxisTable &a = *p.last;
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    for (int64_t j = 0; j < a.taps; ++j) {
      ArrayRef<int64_t> mask = tile.masks[j];
      Value picked;
      bool identity =
          tile.sources == 1 && llvm::equal(mask, llvm::seq<int64_t>(0, p.vw));
      if (identity) {
        picked = src[0];
      } else if (tile.sources <= 2) {
        Value second = tile.sources == 2 ? src[1] : src[0];
        picked = vector::ShuffleOp::create(b, loc, src[0], second, mask);
      } else {
        // Wide taps (downsampling): lane by lane.
        SmallVector<Value> lanes;
        for (int64_t m : mask)
          lanes.push_back(
              vector::ExtractOp::create(b, loc, src[m / p.vw], m % p.vw));
        picked = vector::FromElementsOp::create(b, loc, vecType, lanes);
      }
      Value term = picked;
      if (!a.unitWeights) {
        Value w = vector::TransferReadOp::create(b, loc, vecType, a.weights,
                                                 ValueRange{cst(j), ow0}, zero,
                                                 ArrayRef<bool>{full});
        term = arith::MulFOp::create(b, loc, w, picked);
      }
      acc = j == 0 ? term : arith::AddFOp::create(b, loc, acc, term);
    }
  }
  if (p.epilogue) {
    SmallVector<Value> args;
    for (const EpilogueInput &in : p.epilogueInputs)
      args.push_back(in.tensor ? readEpilogueInput(in, ow0, full) : acc);
    acc = replayOnVectors(b, loc, p.epilogue.getRegion().front(), args, p.vw);
  }
  SmallVector<Value> at(destCoords.begin(), destCoords.end());
  at.push_back(ow0);
  return vector::TransferWriteOp::create(b, loc, acc, dest, at,
                                         ArrayRef<bool>{full})
      .getResult();
}

Value Emitter::row(Value dest) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  for (const Run &run : p.runs) {
    if (run.count == 1) {
      for (int64_t q = 0; q < run.period; ++q) {
        const Tile &tile = p.tiles[run.start + q];
        dest =
            tileBody(dest, tile, cst((run.start + q) * p.vw), cst(tile.base));
      }
      continue;
    }
    auto loop = scf::ForOp::create(
        b, loc, cst(0), cst(run.count), cst(1), ValueRange{dest},
        [&](OpBuilder &, Location, Value c, ValueRange iter) {
          Value d = iter[0];
          for (int64_t q = 0; q < run.period; ++q) {
            const Tile &tile = p.tiles[run.start + q];
            Value ow0 =
                apply(d0 * (run.period * p.vw) + (run.start + q) * p.vw, {c});
            Value base = apply(d0 * run.step + tile.base, {c});
            d = tileBody(d, tile, ow0, base);
          }
          scf::YieldOp::create(b, loc, d);
        });
    dest = loop.getResult(0);
  }
  return dest;
}

/// Loops over the output dims before the last, `parallelDim` (if any) as an
/// scf.forall writing its slice of the destination.
Value Emitter::rows(Value dest, unsigned dim,
                    std::optional<unsigned> parallelDim) {
  if (dim + 1 == p.outShape.size())
    return row(dest);
  int64_t extent = p.outShape[dim];
  if (extent == 1) {
    coords[dim] = destCoords[dim] = cst(0);
    return rows(dest, dim + 1, parallelDim);
  }
  if (parallelDim && *parallelDim == dim)
    return forallOverSlices(b, loc, dest, dim, extent,
                            [&](Value iv, Value slice) {
                              coords[dim] = iv;
                              destCoords[dim] = cst(0);
                              return rows(slice, dim + 1, parallelDim);
                            });
  auto loop = scf::ForOp::create(
      b, loc, cst(0), cst(extent), cst(1), ValueRange{dest},
      [&](OpBuilder &, Location, Value iv, ValueRange iter) {
        coords[dim] = destCoords[dim] = iv;
        scf::YieldOp::create(b, loc, rows(iter[0], dim + 1, parallelDim));
      });
  return loop.getResult(0);
}

Value Emitter::run(Value dest) {
  unsigned rank = p.outShape.size();
  coords.assign(rank - 1, Value());
  destCoords.assign(rank - 1, Value());
  // Work per output element: the taps it reads.
  int64_t taps = p.last ? p.last->taps : 1;
  for (const AxisTable &a : p.outer)
    taps *= a.taps;
  SmallVector<int64_t> work(p.outShape);
  work.push_back(taps);
  std::optional<unsigned> parallelDim;
  if (worthThreads(work, opts.parallelMinWork))
    for (unsigned d = 0; d + 1 < rank && !parallelDim; ++d)
      if (p.outShape[d] >= 2)
        parallelDim = d;
  return rows(dest, 0, parallelDim);
}

} // namespace

FailureOr<bool> mlc::codegen::emitResizeKernel(RewriterBase &rewriter,
                                               graph::FusionGroupOp group,
                                               const KernelOptions &options) {
  std::optional<Plan> plan = makePlan(group, options);
  if (!plan)
    return false;
  replaceKernelRoot(
      rewriter, {plan->resize, plan->epilogue}, plan->outShape,
      [&](Value dest) { return Emitter(rewriter, *plan, options).run(dest); });
  return true;
}
