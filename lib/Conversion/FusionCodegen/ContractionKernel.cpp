//===- ContractionKernel.cpp - register-blocked contraction kernels -------===//
//
// A fusion group whose result is a contraction (out += lhs * rhs, from
// graph.matmul or graph.conv2d) or an elementwise epilogue of one is emitted
// as explicit loops over vector registers instead of tile-by-one loops:
//
//   for outer parallel dims        (one of these loops may be an scf.forall)
//     for n0 in N step nr          (nr = nv vectors; the output's last dim)
//       for m0 in M step mr        (rows: another parallel dim)
//         acc[mr][nv] = init
//         for reduction dims: acc[i][j] += a(i, j) * b(i, j)   (vector FMAs)
//         out[m0+i, n0+j*vw] = epilogue(acc[i][j], ...)
//
// Each multiplicand is read as a vector along n when its last index is
// n (*stride) + const, as a broadcast scalar when it does not depend on n.
// Rows are a parallel dim that only one of the two depends on (an outer
// product: matmul's m, convolution's output channel), or else one the
// vector operand depends on (depthwise convolution's output row). Tails of
// n and m are separate loop copies with static sizes; the last vector of an
// n tail is a masked transfer. A right-hand side indexed by plain loop dims
// (matmul's B) is packed as [outer..., N/nr, reduction..., nr] so that every
// vector load of the kernel is contiguous: constants at compile time, other
// tensors by a copy before the loops when they are reused enough.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "mlc/Dialect/Graph/Evaluator.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;

namespace {

/// How a multiplicand, an epilogue operand or the initial value is read.
struct Access {
  Value tensor;
  AffineMap map; // over the contraction's loops
  bool dependsM = false;
  bool dependsN = false;
  int64_t nStride = 0;  // coefficient of n in the index that has it
  unsigned nResult = 0; // which index has n
  bool gather = false;  // n is not in the last index: lane by lane
  // Packed: tensor is [outer..., N/nr, reduction..., nr].
  bool packed = false;
  SmallVector<unsigned> packOuter, packReduction;
};

struct Plan {
  linalg::GenericOp contraction;
  linalg::GenericOp epilogue; // may be null
  unsigned numLoops = 0, numParallel = 0;
  SmallVector<int64_t> bounds;
  unsigned nDim = 0;
  std::optional<unsigned> mDim;
  Access lhs, rhs;
  // Initial accumulator: a splat, or read through `init`.
  std::optional<Attribute> initSplat;
  Access init;
  SmallVector<Access> epilogueInputs; // null tensor: the contraction result
  int64_t vw = 8, nv = 1, mr = 1;
};

bool dependsOn(AffineMap map, unsigned dim) {
  return llvm::any_of(map.getResults(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(dim); });
}

/// Fills dependsM/N and how n indexes the tensor; false if it cannot be
/// read as vectors along n (n in two indices, or not linearly).
bool classify(Access &a, const Plan &p) {
  a.dependsN = dependsOn(a.map, p.nDim);
  a.dependsM = p.mDim && dependsOn(a.map, *p.mDim);
  a.gather = false;
  if (!a.dependsN)
    return true;
  ArrayRef<AffineExpr> results = a.map.getResults();
  std::optional<unsigned> pos;
  for (auto [i, e] : llvm::enumerate(results)) {
    if (!e.isFunctionOfDim(p.nDim))
      continue;
    if (pos)
      return false;
    pos = i;
  }
  std::optional<SmallVector<int64_t>> form =
      linearForm(results[*pos], a.map.getNumDims());
  if (!form || (*form)[p.nDim] < 1)
    return false;
  a.nStride = (*form)[p.nDim];
  a.nResult = *pos;
  a.gather = *pos + 1 != results.size();
  return true;
}

/// out = out + a * b over f32, with the operands in either order.
bool isMulAddBody(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || body.getOperations().size() != 3)
    return false;
  Value out = body.getArgument(2);
  Value prod = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if (add.getLhs() != out && add.getRhs() != out)
    return false;
  auto mul = prod.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

bool isContraction(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return false;
  auto outType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!outType || !outType.hasStaticShape() ||
      !outType.getElementType().isF32())
    return false;
  for (Value in : op.getDpsInputs()) {
    auto t = dyn_cast<RankedTensorType>(in.getType());
    if (!t || !t.hasStaticShape() || !t.getElementType().isF32())
      return false;
  }
  // Parallel loops first, output indexed by them in order.
  unsigned rank = outType.getRank();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (auto [i, it] : llvm::enumerate(iters))
    if ((i < rank) != (it == utils::IteratorType::parallel))
      return false;
  if (rank == 0 || rank == iters.size())
    return false;
  AffineMap outMap = op.getIndexingMapsArray()[2];
  if (outMap.getNumResults() != rank)
    return false;
  for (unsigned i = 0; i < rank; ++i)
    if (outMap.getResult(i) != getAffineDimExpr(i, op.getContext()))
      return false;
  return isMulAddBody(op);
}

bool isConstantInput(graph::FusionGroupOp group, Value v) {
  return static_cast<bool>(groupConstant(group, v));
}

/// The float values of a constant operand, dense or resource-backed.
std::optional<SmallVector<float>> constantData(graph::FusionGroupOp group,
                                               Value v) {
  std::optional<graph::HostTensor> t = groupConstantTensor(group, v);
  if (!t || t->getKind() != graph::ElementKind::F32)
    return std::nullopt;
  ArrayRef<float> values = t->values<float>();
  return SmallVector<float>(values.begin(), values.end());
}

/// Chooses rows, tile sizes and operand accesses; nullopt: not our shape.
std::optional<Plan> makePlan(graph::FusionGroupOp group,
                             const KernelOptions &opts) {
  auto yield = cast<graph::YieldOp>(group.getBody().front().getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  // The kernel's result may be returned through a collapsing view: a
  // grouped convolution's [N, G, O/G, OH, OW] or conv_transpose2d's
  // [N, Co, H, KH, W, KW], both NCHW views. The kernel writes the
  // contraction; the view stays.
  Value result = yield.getOperand(0);
  if (auto view = result.getDefiningOp<tensor::CollapseShapeOp>())
    result = view.getSrc();
  auto root = result.getDefiningOp<linalg::GenericOp>();
  if (!root || !root->hasOneUse())
    return std::nullopt;
  std::optional<KernelRoot> kr = matchKernelRoot(root, isContraction);
  if (!kr || (kr->epilogue && kr->epilogue.getNumLoops() !=
                                  kr->op.getNumParallelLoops()))
    return std::nullopt;
  Plan p;
  p.contraction = kr->op;
  p.epilogue = kr->epilogue;
  linalg::GenericOp c = p.contraction;
  p.numLoops = c.getNumLoops();
  p.numParallel = c.getNumParallelLoops();
  p.bounds = c.getStaticLoopRanges();
  p.nDim = p.numParallel - 1;
  SmallVector<AffineMap> maps = c.getIndexingMapsArray();
  p.lhs = {c.getDpsInputs()[0], maps[0]};
  p.rhs = {c.getDpsInputs()[1], maps[1]};

  p.vw = std::max<int64_t>(4, opts.vectorBits / 32);
  // Vectors run along the output's last dim unless it fills lanes poorly
  // (a 7-wide feature map in 16 lanes) and a dim only a constant
  // multiplicand indexes by plain dims (output channels of the weights,
  // packed at compile time) fills them better: then the output is written
  // lane by lane, one store per result against a whole reduction, so the
  // switch also needs a long reduction when the loss is moderate.
  auto laneUse = [&](int64_t extent) {
    return double(extent) / double(llvm::divideCeil(extent, p.vw) * p.vw);
  };
  int64_t reduction = 1;
  for (unsigned d = p.numParallel; d < p.numLoops; ++d)
    reduction *= p.bounds[d];
  double lastUse = laneUse(p.bounds[p.nDim]);
  // Measured on ResNet-18's layers (AVX-512, one thread): 14-, 28- and
  // 7-wide maps with long reductions gain 1.3-2x; a 56-wide map with a
  // 576-long reduction loses 30% to the transposed stores.
  if (lastUse < 0.75 || (lastUse < 0.9 && reduction >= 1024)) {
    for (unsigned d = 0; d + 1 < p.numParallel; ++d) {
      if (laneUse(p.bounds[d]) <= laneUse(p.bounds[p.nDim]) ||
          p.bounds[d] < p.vw)
        continue;
      bool l = dependsOn(p.lhs.map, d), r = dependsOn(p.rhs.map, d);
      if (l == r)
        continue;
      const Access &w = l ? p.lhs : p.rhs;
      bool plain = llvm::all_of(w.map.getResults(), [](AffineExpr e) {
        return isa<AffineDimExpr>(e);
      });
      if (plain && isConstantInput(group, w.tensor)) {
        p.nDim = d;
        break;
      }
    }
  }
  // Rows: prefer an outer product (each multiplicand varies along only one
  // of rows and n), innermost such dim first.
  auto varies = [&](const Access &a, unsigned d) {
    return dependsOn(a.map, d);
  };
  bool outerProduct = false;
  for (int d = int(p.numParallel) - 1; d >= 0 && !p.mDim; --d) {
    if (p.bounds[d] < 2 || unsigned(d) == p.nDim)
      continue;
    bool l = varies(p.lhs, d), r = varies(p.rhs, d);
    bool ln = varies(p.lhs, p.nDim), rn = varies(p.rhs, p.nDim);
    if (l != r && !(l && ln) && !(r && rn)) {
      p.mDim = d;
      outerProduct = true;
    }
  }
  for (int d = int(p.numParallel) - 1; d >= 0 && !p.mDim; --d)
    if (p.bounds[d] >= 2 && unsigned(d) != p.nDim &&
        (varies(p.lhs, d) || varies(p.rhs, d)))
      p.mDim = d;
  if (!classify(p.lhs, p) || !classify(p.rhs, p))
    return std::nullopt;
  if (!p.lhs.dependsN && !p.rhs.dependsN)
    return std::nullopt; // n does not index a multiplicand: not worth it

  // Registers: accumulators take five eighths, the rest hold operands.
  int64_t accBudget = std::max<int64_t>(4, opts.vectorRegisters * 5 / 8);
  int64_t nVecs = llvm::divideCeil(p.bounds[p.nDim], p.vw);
  int64_t maxNv = opts.vectorRegisters >= 32 ? 4 : 2;
  p.nv = std::min(nVecs, maxNv);
  if (p.nDim + 1 != p.numParallel) {
    // The weight panel of one n tile is read by every output pixel: keep
    // it within about half of a core's L2 (1 MiB on the machines we tune
    // on) by narrowing the tile.
    while (p.nv > 1 && reduction * p.nv * p.vw * 4 > (640 << 10))
      --p.nv;
  }
  int64_t m = p.mDim ? p.bounds[*p.mDim] : 1;
  int64_t rowCap = outerProduct ? 12 : 4;
  p.mr = std::min({m, accBudget / p.nv, rowCap});
  if (p.mr < 1)
    p.mr = 1;

  // Initial value.
  Value init = c.getDpsInits()[0];
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    Attribute a;
    if (!matchPattern(fill.getInputs()[0], m_Constant(&a)))
      return std::nullopt;
    p.initSplat = a;
  } else if (auto bcast = init.getDefiningOp<linalg::GenericOp>();
             bcast && bcast.getNumDpsInputs() == 1 &&
             bcast.getNumParallelLoops() == bcast.getNumLoops() &&
             bcast.getIndexingMapsArray().back().isIdentity() &&
             bcast.getRegion().front().getOperations().size() == 1 &&
             cast<linalg::YieldOp>(bcast.getRegion().front().getTerminator())
                     .getOperand(0) ==
                 bcast.getRegion().front().getArgument(0)) {
    // Bias broadcast: read the bias itself.
    AffineMap m0 = bcast.getIndexingMapsArray()[0];
    p.init = {bcast.getDpsInputs()[0],
              AffineMap::get(p.numLoops, 0, m0.getResults(), c.getContext())};
  } else {
    p.init = {init, AffineMap::get(p.numLoops, 0, maps[2].getResults(),
                                   c.getContext())};
  }
  if (p.init.tensor && !classify(p.init, p))
    return std::nullopt;

  if (p.epilogue) {
    for (OpOperand *in : p.epilogue.getDpsInputOperands()) {
      if (in->get() == c.getResult(0)) {
        p.epilogueInputs.push_back({});
        continue;
      }
      AffineMap em = p.epilogue.getMatchingIndexingMap(in);
      Access a{in->get(),
               AffineMap::get(p.numLoops, 0, em.getResults(), c.getContext())};
      if (!isa<RankedTensorType>(a.tensor.getType()) || !classify(a, p))
        return std::nullopt;
      p.epilogueInputs.push_back(a);
    }
  }
  return p;
}

/// Emits the loops of one plan.
class Emitter {
public:
  Emitter(RewriterBase &rewriter, graph::FusionGroupOp group, Plan &plan,
          const KernelOptions &opts)
      : b(rewriter), group(group), p(plan), opts(opts),
        loc(plan.contraction.getLoc()),
        vecType(VectorType::get({plan.vw}, rewriter.getF32Type())) {}

  Value run();

private:
  RewriterBase &b;
  graph::FusionGroupOp group;
  Plan &p;
  const KernelOptions &opts;
  Location loc;
  VectorType vecType;
  int64_t nr() const { return p.nv * p.vw; }

  /// Where the current tile is.
  struct Point {
    SmallVector<Value> dims;     // value of each loop dim (tile bases)
    SmallVector<Value> destBase; // offset of the current dest per out dim
    Value nTile;                 // n0 / nr
    int64_t rows = 1, vecs = 1, lastLanes = 0;
  };

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  SmallVector<Value> indices(const Access &a, const Point &pt, int64_t i,
                             int64_t j);
  Value read(const Access &a, const Point &pt, int64_t i, int64_t j);
  /// The largest value index `result` of `a` takes over the loop bounds.
  int64_t maxIndex(const Access &a, unsigned result) const;
  Value tile(Value dest, Point pt);
  Value loops(Value dest, Point pt, unsigned level);
  void pack(Access &a);

  /// Loop levels, outermost first.
  enum Kind { Outer, NTiles, MTiles };
  struct Level {
    Kind kind;
    unsigned dim;
  };
  SmallVector<Level> levels;
  std::optional<unsigned> parallelLevel;
};

SmallVector<Value> Emitter::indices(const Access &a, const Point &pt, int64_t i,
                                    int64_t j) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> out;
  for (AffineExpr e : a.map.getResults()) {
    if (p.mDim)
      e = e.replace(getAffineDimExpr(*p.mDim, ctx),
                    getAffineDimExpr(*p.mDim, ctx) + i);
    e = e.replace(getAffineDimExpr(p.nDim, ctx),
                  getAffineDimExpr(p.nDim, ctx) + j * p.vw);
    OpFoldResult r = affine::makeComposedFoldedAffineApply(
        b, loc, AffineMap::get(p.numLoops, 0, e), getAsOpFoldResult(pt.dims));
    out.push_back(getValueOrCreateConstantIndexOp(b, loc, r));
  }
  return out;
}

int64_t Emitter::maxIndex(const Access &a, unsigned result) const {
  std::optional<SmallVector<int64_t>> form =
      linearForm(a.map.getResult(result), p.numLoops);
  if (!form)
    return std::numeric_limits<int64_t>::max() / 2;
  int64_t max = form->back();
  for (unsigned d = 0; d < p.numLoops; ++d) {
    if ((*form)[d] < 0)
      return std::numeric_limits<int64_t>::max() / 2;
    max += (*form)[d] * (p.bounds[d] - 1);
  }
  return max;
}

Value Emitter::read(const Access &a, const Point &pt, int64_t i, int64_t j) {
  Type elt = cast<RankedTensorType>(a.tensor.getType()).getElementType();
  VectorType vecType = VectorType::get({p.vw}, elt);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elt));
  bool full = j + 1 < pt.vecs || pt.lastLanes == p.vw;
  if (a.packed) {
    SmallVector<Value> idx;
    for (unsigned d : a.packOuter)
      idx.push_back(pt.dims[d]);
    idx.push_back(pt.nTile);
    for (unsigned d : a.packReduction)
      idx.push_back(pt.dims[d]);
    idx.push_back(cst(j * p.vw));
    return vector::TransferReadOp::create(b, loc, vecType, a.tensor, idx, zero,
                                          ArrayRef<bool>{true});
  }
  SmallVector<Value> idx = indices(a, pt, i, j);
  if (!a.dependsN) {
    Value s = tensor::ExtractOp::create(b, loc, a.tensor, idx);
    return vector::BroadcastOp::create(b, loc, vecType, s);
  }
  if (a.gather || elt.getIntOrFloatBitWidth() % 8 != 0) {
    // n is not the innermost index, or i1 (bit-packed as a vector, a byte
    // per element in a tensor): the valid lanes one by one.
    int64_t lanes = full ? p.vw : pt.lastLanes;
    SmallVector<Value> elems(p.vw, zero);
    Value first = idx[a.nResult];
    for (int64_t l = 0; l < lanes; ++l) {
      idx[a.nResult] = affine::makeComposedAffineApply(
          b, loc, getAffineDimExpr(0, b.getContext()) + l * a.nStride,
          {OpFoldResult(first)});
      elems[l] = tensor::ExtractOp::create(b, loc, a.tensor, idx);
    }
    return vector::FromElementsOp::create(b, loc, vecType, elems);
  }
  if (a.nStride == 1)
    return vector::TransferReadOp::create(b, loc, vecType, a.tensor, idx, zero,
                                          ArrayRef<bool>{full});
  // Strided along n: one wide read, then every stride-th lane. It reads
  // stride - 1 elements past the last lane it needs; when even the largest
  // index the contraction reads leaves that much room (a padded row), a
  // full vector's read is in bounds: a plain load, not a masked one
  // (vmaskmovps is microcoded on AMD and took 80% of a stride-2 depthwise
  // convolution).
  auto wide = VectorType::get({p.vw * a.nStride}, elt);
  bool inBounds = full && maxIndex(a, a.nResult) + a.nStride - 1 <
                              cast<RankedTensorType>(a.tensor.getType())
                                  .getDimSize(a.nResult);
  Value v = vector::TransferReadOp::create(b, loc, wide, a.tensor, idx, zero,
                                           ArrayRef<bool>{inBounds});
  SmallVector<int64_t> lanes;
  for (int64_t l = 0; l < p.vw; ++l)
    lanes.push_back(l * a.nStride);
  return vector::ShuffleOp::create(b, loc, v, v, lanes);
}

Value Emitter::tile(Value dest, Point pt) {
  int64_t rows = pt.rows, vecs = pt.vecs;
  // Initial accumulators.
  SmallVector<Value> acc;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < vecs; ++j) {
      if (p.initSplat) {
        auto attr = DenseElementsAttr::get(vecType, *p.initSplat);
        acc.push_back(arith::ConstantOp::create(b, loc, attr));
      } else {
        acc.push_back(read(p.init, pt, i, j));
      }
    }

  // Reduction loops carry the accumulators.
  std::function<SmallVector<Value>(unsigned, ValueRange)> reduce =
      [&](unsigned d, ValueRange accIn) -> SmallVector<Value> {
    if (d == p.numLoops) {
      SmallVector<Value> a(rows * vecs), w(rows * vecs);
      auto load = [&](const Access &x, SmallVector<Value> &dst) {
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < vecs; ++j) {
            bool shareRow = !x.dependsM && i > 0;
            bool shareCol = !x.dependsN && !x.packed && j > 0;
            if (shareRow)
              dst[i * vecs + j] = dst[j];
            else if (shareCol)
              dst[i * vecs + j] = dst[i * vecs];
            else
              dst[i * vecs + j] = read(x, pt, i, j);
          }
      };
      load(p.lhs, a);
      load(p.rhs, w);
      SmallVector<Value> out;
      for (int64_t k = 0; k < rows * vecs; ++k)
        out.push_back(vector::FMAOp::create(b, loc, a[k], w[k], accIn[k]));
      return out;
    }
    Value saved = pt.dims[d];
    auto loop = scf::ForOp::create(
        b, loc, cst(0), cst(p.bounds[d]), cst(1), accIn,
        [&](OpBuilder &, Location, Value iv, ValueRange iter) {
          pt.dims[d] = iv;
          scf::YieldOp::create(b, loc, reduce(d + 1, iter));
        });
    pt.dims[d] = saved; // the induction variable is out of scope now
    return SmallVector<Value>(loop.getResults());
  };
  acc = reduce(p.numParallel, acc);

  // Vectors across the output's last dim (output channels) with the rows
  // after them: the tile is stored as [rows, lanes] in a small tensor,
  // transposed and inserted as one slice. Lane-by-lane inserts into
  // the output made one-shot bufferization quadratic (minutes).
  int64_t lanes = (vecs - 1) * p.vw + pt.lastLanes;
  bool viaTile = p.nDim + 1 != p.numParallel && p.mDim && *p.mDim > p.nDim;
  Value tileT;
  if (viaTile)
    tileT = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows, lanes},
                                    b.getF32Type());

  // Epilogue on the accumulators, then the stores.
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < vecs; ++j) {
      Value v = acc[i * vecs + j];
      if (p.epilogue) {
        SmallVector<Value> args;
        for (const Access &in : p.epilogueInputs)
          args.push_back(in.tensor ? read(in, pt, i, j) : v);
        v = replayOnVectors(b, loc, p.epilogue.getRegion().front(), args, p.vw);
      }
      bool full = j + 1 < vecs || pt.lastLanes == p.vw;
      SmallVector<Value> idx;
      MLIRContext *ctx = b.getContext();
      for (unsigned d = 0; d < p.numParallel; ++d) {
        AffineExpr e = getAffineDimExpr(0, ctx) - getAffineDimExpr(1, ctx);
        if (p.mDim && d == *p.mDim)
          e = e + i;
        if (d == p.nDim)
          e = e + j * p.vw;
        OpFoldResult r = affine::makeComposedFoldedAffineApply(
            b, loc, AffineMap::get(2, 0, e), {pt.dims[d], pt.destBase[d]});
        idx.push_back(getValueOrCreateConstantIndexOp(b, loc, r));
      }
      if (p.nDim + 1 == p.numParallel) {
        dest = vector::TransferWriteOp::create(b, loc, v, dest, idx,
                                               ArrayRef<bool>{full})
                   .getResult();
        continue;
      }
      if (viaTile) {
        tileT = vector::TransferWriteOp::create(
                    b, loc, v, tileT, ValueRange{cst(i), cst(j * p.vw)},
                    ArrayRef<bool>{full})
                    .getResult();
        continue;
      }
      // No rows after the vector dim: one store per lane.
      Value first = idx[p.nDim];
      for (int64_t l = 0, e = full ? p.vw : pt.lastLanes; l < e; ++l) {
        idx[p.nDim] = affine::makeComposedAffineApply(
            b, loc, getAffineDimExpr(0, ctx) + l, {OpFoldResult(first)});
        Value x = vector::ExtractOp::create(b, loc, v, l);
        dest = tensor::InsertOp::create(b, loc, x, dest, idx).getResult();
      }
    }
  if (!viaTile)
    return dest;
  Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{lanes, rows},
                                        b.getF32Type());
  Value transposed =
      linalg::TransposeOp::create(b, loc, tileT, empty, ArrayRef<int64_t>{1, 0})
          .getResult()[0];
  SmallVector<OpFoldResult> offsets, sizes,
      strides(p.numParallel, b.getIndexAttr(1));
  MLIRContext *ctx = b.getContext();
  for (unsigned d = 0; d < p.numParallel; ++d) {
    offsets.push_back(affine::makeComposedFoldedAffineApply(
        b, loc, getAffineDimExpr(0, ctx) - getAffineDimExpr(1, ctx),
        {pt.dims[d], pt.destBase[d]}));
    sizes.push_back(b.getIndexAttr(d == p.nDim    ? lanes
                                   : d == *p.mDim ? rows
                                                  : 1));
  }
  return tensor::InsertSliceOp::create(b, loc, transposed, dest, offsets, sizes,
                                       strides)
      .getResult();
}

Value Emitter::loops(Value dest, Point pt, unsigned level) {
  if (level == levels.size())
    return tile(dest, pt);
  Kind kind = levels[level].kind;
  unsigned dim = levels[level].dim;
  int64_t extent = p.bounds[dim];
  int64_t step = kind == Outer ? 1 : kind == NTiles ? nr() : p.mr;
  int64_t fullTiles = extent / step, rest = extent % step;
  MLIRContext *ctx = b.getContext();

  // Body of one full tile at tile index `t`.
  auto setPoint = [&](Point &q, Value t) {
    Value base =
        kind == Outer
            ? t
            : getValueOrCreateConstantIndexOp(
                  b, loc,
                  affine::makeComposedFoldedAffineApply(
                      b, loc,
                      AffineMap::get(1, 0, getAffineDimExpr(0, ctx) * step),
                      {OpFoldResult(t)}));
    q.dims[dim] = base;
    if (kind == NTiles)
      q.nTile = t;
  };

  if (fullTiles > 0) {
    Point q = pt;
    if (kind == NTiles) {
      q.vecs = p.nv;
      q.lastLanes = p.vw;
    } else if (kind == MTiles) {
      q.rows = p.mr;
    }
    if (parallelLevel && *parallelLevel == level && fullTiles > 1) {
      auto forall = scf::ForallOp::create(
          b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(fullTiles)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, ValueRange{dest},
          std::nullopt);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(forall.getTerminator());
      Value t = forall.getInductionVars()[0];
      setPoint(q, t);
      // This iteration's slice of the destination.
      auto destType = cast<RankedTensorType>(dest.getType());
      SmallVector<OpFoldResult> offsets(destType.getRank(), b.getIndexAttr(0)),
          sizes, strides(destType.getRank(), b.getIndexAttr(1));
      for (int64_t s : destType.getShape())
        sizes.push_back(b.getIndexAttr(s));
      offsets[dim] = q.dims[dim];
      sizes[dim] = b.getIndexAttr(step);
      Value shared = forall.getRegionIterArgs()[0];
      Value slice = tensor::ExtractSliceOp::create(b, loc, shared, offsets,
                                                   sizes, strides);
      q.destBase[dim] = q.dims[dim];
      Value result = loops(slice, q, level + 1);
      b.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(b, loc, result, shared, offsets,
                                            sizes, strides);
      dest = forall.getResult(0);
    } else if (fullTiles == 1) {
      setPoint(q, cst(0));
      dest = loops(dest, q, level + 1);
    } else {
      auto loop = scf::ForOp::create(
          b, loc, cst(0), cst(fullTiles), cst(1), ValueRange{dest},
          [&](OpBuilder &, Location, Value t, ValueRange iter) {
            setPoint(q, t);
            scf::YieldOp::create(b, loc, loops(iter[0], q, level + 1));
          });
      dest = loop.getResult(0);
    }
  }
  if (rest > 0) {
    Point q = pt;
    setPoint(q, cst(fullTiles));
    if (kind == NTiles) {
      q.vecs = llvm::divideCeil(rest, p.vw);
      q.lastLanes = rest - (q.vecs - 1) * p.vw;
    } else if (kind == MTiles) {
      q.rows = rest;
    }
    dest = loops(dest, q, level + 1);
  }
  return dest;
}

/// Packs a right-hand side indexed by plain loop dims into
/// [outer..., N/nr, reduction..., nr], zero-padded along n.
void Emitter::pack(Access &a) {
  auto type = cast<RankedTensorType>(a.tensor.getType());
  SmallVector<unsigned> order; // the tensor's dims as loop dims
  for (AffineExpr e : a.map.getResults())
    order.push_back(cast<AffineDimExpr>(e).getPosition());
  for (unsigned d : order) {
    if (d == p.nDim)
      continue;
    (d < p.numParallel ? a.packOuter : a.packReduction).push_back(d);
  }
  int64_t n = p.bounds[p.nDim], tiles = llvm::divideCeil(n, nr());
  SmallVector<int64_t> shape;
  for (unsigned d : a.packOuter)
    shape.push_back(p.bounds[d]);
  shape.push_back(tiles);
  for (unsigned d : a.packReduction)
    shape.push_back(p.bounds[d]);
  shape.push_back(nr());
  auto packedType = RankedTensorType::get(shape, b.getF32Type());

  // Position of each tensor dim in the packed layout, n split in two.
  auto packedIndex = [&](ArrayRef<int64_t> src, int64_t &tile, int64_t &lane,
                         SmallVector<int64_t> &dst) {
    dst.clear();
    int64_t nIdx = 0;
    for (auto [k, d] : llvm::enumerate(order))
      if (d == p.nDim)
        nIdx = src[k];
    tile = nIdx / nr();
    lane = nIdx % nr();
    auto find = [&](unsigned d) {
      for (auto [k, dd] : llvm::enumerate(order))
        if (dd == d)
          return src[k];
      return int64_t(0);
    };
    for (unsigned d : a.packOuter)
      dst.push_back(find(d));
    dst.push_back(tile);
    for (unsigned d : a.packReduction)
      dst.push_back(find(d));
    dst.push_back(lane);
  };

  if (std::optional<SmallVector<float>> data = constantData(group, a.tensor)) {
    // Weights: packed now, at compile time.
    SmallVector<float> packed(packedType.getNumElements(), 0.0f);
    SmallVector<int64_t> srcStrides = computeStrides(type.getShape());
    SmallVector<int64_t> dstStrides = computeStrides(shape);
    SmallVector<int64_t> src(type.getRank()), dst;
    for (int64_t lin = 0, e = type.getNumElements(); lin < e; ++lin) {
      int64_t r = lin;
      for (int64_t k = 0; k < type.getRank(); ++k) {
        src[k] = r / srcStrides[k];
        r %= srcStrides[k];
      }
      int64_t tile, lane;
      packedIndex(src, tile, lane, dst);
      int64_t off = 0;
      for (auto [k, v] : llvm::enumerate(dst))
        off += v * dstStrides[k];
      packed[off] = (*data)[lin];
    }
    auto blob =
        HeapAsmResourceBlob::allocateAndCopyInferAlign(ArrayRef<float>(packed));
    auto attr = DenseResourceElementsAttr::get(packedType, "packed_weight",
                                               std::move(blob));
    a.tensor = arith::ConstantOp::create(b, loc, attr);
  } else {
    // Activations: padded along n, then copied into the packed layout.
    MLIRContext *ctx = b.getContext();
    int64_t nPos = 0;
    for (auto [k, d] : llvm::enumerate(order))
      if (d == p.nDim)
        nPos = k;
    Value src = a.tensor;
    if (tiles * nr() != n) {
      SmallVector<int64_t> lo(type.getRank(), 0), hi(type.getRank(), 0);
      hi[nPos] = tiles * nr() - n;
      SmallVector<int64_t> padShape(type.getShape());
      padShape[nPos] = tiles * nr();
      auto padType = RankedTensorType::get(padShape, b.getF32Type());
      Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      src = tensor::PadOp::create(b, loc, padType, src,
                                  getAsIndexOpFoldResult(ctx, lo),
                                  getAsIndexOpFoldResult(ctx, hi), zero);
    }
    // Copy loops: packed dims in order; the source index of n is
    // tile * nr + lane.
    unsigned rank = shape.size();
    SmallVector<AffineExpr> srcExprs;
    unsigned tilePos = a.packOuter.size(), lanePos = rank - 1;
    for (unsigned d : order) {
      if (d == p.nDim) {
        srcExprs.push_back(getAffineDimExpr(tilePos, ctx) * nr() +
                           getAffineDimExpr(lanePos, ctx));
        continue;
      }
      auto it = llvm::find(a.packOuter, d);
      unsigned pos = it != a.packOuter.end()
                         ? unsigned(it - a.packOuter.begin())
                         : unsigned(tilePos + 1 +
                                    (llvm::find(a.packReduction, d) -
                                     a.packReduction.begin()));
      srcExprs.push_back(getAffineDimExpr(pos, ctx));
    }
    Value empty = tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
    a.tensor = linalg::GenericOp::create(
                   b, loc, packedType, src, empty,
                   SmallVector<AffineMap>{
                       AffineMap::get(rank, 0, srcExprs, ctx),
                       AffineMap::getMultiDimIdentityMap(rank, ctx)},
                   SmallVector<utils::IteratorType>(
                       rank, utils::IteratorType::parallel),
                   [](OpBuilder &nb, Location l, ValueRange args) {
                     linalg::YieldOp::create(nb, l, args[0]);
                   })
                   .getResult(0);
  }
  a.packed = true;
}

Value Emitter::run() {
  // Pack the vector operand when it is indexed by plain dims and reused
  // across row tiles (or is a constant, packed for free).
  for (Access *a : {&p.lhs, &p.rhs}) {
    if (!a->dependsN || a->dependsM || a->nStride != 1)
      continue; // plain dims only: a stride means a compound index
    bool plain = llvm::all_of(a->map.getResults(), [](AffineExpr e) {
      return isa<AffineDimExpr>(e);
    });
    bool hasReduction = llvm::any_of(a->map.getResults(), [&](AffineExpr e) {
      return cast<AffineDimExpr>(e).getPosition() >= p.numParallel;
    });
    if (!plain || !hasReduction)
      continue;
    auto type = cast<RankedTensorType>(a->tensor.getType());
    bool isConst = isConstantInput(group, a->tensor);
    int64_t rowTiles = p.mDim ? llvm::divideCeil(p.bounds[*p.mDim], p.mr) : 1;
    if (isConst || (rowTiles >= 4 && type.getNumElements() >= 16 * 1024))
      pack(*a);
  }

  // Loop levels: outer dims, n tiles, m tiles. With vectors along the
  // weights' output channels, the n tiles go outermost instead: each
  // packed weight panel then stays in cache while every output pixel
  // reads it, rather than being streamed again for each output row.
  bool panelOutermost = p.nDim + 1 != p.numParallel;
  if (panelOutermost)
    levels.push_back({NTiles, p.nDim});
  for (unsigned d = 0; d < p.numParallel; ++d)
    if (d != p.nDim && d != p.mDim && p.bounds[d] > 1)
      levels.push_back({Outer, d});
  if (!panelOutermost)
    levels.push_back({NTiles, p.nDim});
  if (p.mDim)
    levels.push_back({MTiles, *p.mDim});
  if (worthThreads(p.bounds, opts.parallelMinWork)) {
    for (unsigned level = 0; level < levels.size() && !parallelLevel; ++level) {
      int64_t extent = p.bounds[levels[level].dim];
      int64_t trips = levels[level].kind == Outer    ? extent
                      : levels[level].kind == NTiles ? extent / nr()
                                                     : extent / p.mr;
      if (trips >= 2)
        parallelLevel = level;
    }
  }

  Value result =
      p.epilogue
          ? p.epilogue.getDpsInits()[0]
          : Value(tensor::EmptyOp::create(
                b, loc,
                cast<RankedTensorType>(p.contraction.getResult(0).getType())
                    .getShape(),
                b.getF32Type()));
  Point pt;
  pt.dims.assign(p.numLoops, cst(0));
  pt.destBase.assign(p.numParallel, cst(0));
  return loops(result, pt, 0);
}

} // namespace

FailureOr<bool>
mlc::codegen::emitContractionKernel(RewriterBase &rewriter,
                                    graph::FusionGroupOp group,
                                    const KernelOptions &options) {
  std::optional<Plan> plan = makePlan(group, options);
  if (!plan)
    return false;
  Operation *root =
      plan->epilogue ? plan->epilogue.getOperation() : plan->contraction;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(root);
  Emitter emitter(rewriter, group, *plan, options);
  Value result = emitter.run();
  rewriter.replaceOp(root, result);
  return true;
}
