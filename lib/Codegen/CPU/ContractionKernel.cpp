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

#include "ContractionKernel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::contraction;

Attribute Emitter::noUnrollHint() {
  MLIRContext *ctx = b.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/b.getBoolAttr(true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  return LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{}, unroll,
      /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{},
      /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
}

AffineExpr Emitter::atRow(AffineExpr e, int64_t i) const {
  if (!p.mDim)
    return e;
  MLIRContext *ctx = e.getContext();
  AffineExpr m = getAffineDimExpr(*p.mDim, ctx);
  if (!flatOuter)
    return e.replace(m, m + i);
  int64_t w = p.bounds[*p.mDim];
  DenseMap<AffineExpr, AffineExpr> rows = {
      {getAffineDimExpr(*flatOuter, ctx), (m + i).floorDiv(w)},
      {m, (m + i) % w}};
  return e.replace(rows);
}

SmallVector<Value> Emitter::indices(const Access &a, const Point &pt, int64_t i,
                                    int64_t j) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> out;
  auto apply = [&](AffineExpr e) {
    OpFoldResult r = affine::makeComposedFoldedAffineApply(
        b, loc, AffineMap::get(p.numLoops, 0, e), getAsOpFoldResult(pt.dims));
    out.push_back(getValueOrCreateConstantIndexOp(b, loc, r));
  };
  for (auto [k, result] : llvm::enumerate(a.map.getResults())) {
    AffineExpr e = result;
    if (a.deinterleaved && k == a.nResult) {
      // s * n + r: phase r mod s, column n + j * vw + r floordiv s.
      AffineExpr n = getAffineDimExpr(p.nDim, ctx);
      AffineExpr r = e - n * a.nStride;
      apply(r % a.nStride);
      apply(n + j * p.vw + r.floorDiv(a.nStride));
      continue;
    }
    e = atRow(e, i).replace(getAffineDimExpr(p.nDim, ctx),
                            getAffineDimExpr(p.nDim, ctx) + j * p.vw);
    if (!a.destRelative) {
      apply(e);
      continue;
    }
    out.push_back(getValueOrCreateConstantIndexOp(b, loc, destIndex(e, pt, k)));
  }
  return out;
}

OpFoldResult Emitter::destIndex(AffineExpr e, const Point &pt, unsigned d) {
  SmallVector<OpFoldResult> operands = getAsOpFoldResult(pt.dims);
  operands.push_back(pt.destBase[d]);
  return affine::makeComposedFoldedAffineApply(
      b, loc,
      AffineMap::get(p.numLoops + 1, 0,
                     e - getAffineDimExpr(p.numLoops, b.getContext())),
      operands);
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
  if (a.deinterleaved) // padded so that every vector is in bounds
    return vector::TransferReadOp::create(b, loc, vecType, a.tensor, idx, zero,
                                          ArrayRef<bool>{true});
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
  bool inBounds =
      full &&
      maxIndex(a, a.nResult) + a.nStride - 1 <
          cast<RankedTensorType>(a.tensor.getType()).getDimSize(a.nResult);
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
      if (pt.phase == Point::Middle || pt.phase == Point::Last) {
        acc.push_back(readPartial(dest, pt, i, j));
      } else if (p.initSplat) {
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
    bool block = kBlock && d == kDim && pt.phase != Point::Whole;
    int64_t extent = block ? pt.kExtent : p.bounds[d];
    auto loop = scf::ForOp::create(
        b, loc, cst(0), cst(extent), cst(1), accIn,
        [&](OpBuilder &, Location, Value iv, ValueRange iter) {
          pt.dims[d] = block ? getValueOrCreateConstantIndexOp(
                                   b, loc,
                                   affine::makeComposedFoldedAffineApply(
                                       b, loc,
                                       getAffineDimExpr(0, b.getContext()) +
                                           getAffineDimExpr(1, b.getContext()),
                                       {OpFoldResult(saved), OpFoldResult(iv)}))
                             : iv;
          scf::YieldOp::create(b, loc, reduce(d + 1, iter));
        });
    pt.dims[d] = saved; // the induction variable is out of scope now
    // One vector column against many broadcast rows: LLVM unrolls the
    // loop by 2, schedules both iterations' broadcasts early and spills
    // accumulators (a 1x1 convolution on a 7x7 map ran 1.4-1.75x slower).
    if (d == innermostReduction && extent > 8 && vecs == 1 && rows > 6)
      loop->setDiscardableAttr("llvm.loop_annotation", noUnrollHint());
    return SmallVector<Value>(loop.getResults());
  };
  innermostReduction = p.numLoops;
  for (unsigned d = p.numParallel; d < p.numLoops; ++d)
    if (p.bounds[d] > 1)
      innermostReduction = d;
  if (pt.phase == Point::Whole || pt.phase == Point::Last)
    prefetchNextRows(pt);
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
      if (p.epilogue && (pt.phase == Point::Whole || pt.phase == Point::Last)) {
        SmallVector<Value> args;
        for (const Access &in : p.epilogueInputs)
          args.push_back(in.tensor ? read(in, pt, i, j) : v);
        v = replayOnVectors(b, loc, p.epilogue.getRegion().front(), args, p.vw);
      }
      bool full = j + 1 < vecs || pt.lastLanes == p.vw;
      SmallVector<Value> idx;
      MLIRContext *ctx = b.getContext();
      for (unsigned d = 0; d < p.numParallel; ++d) {
        if (flatOuter) {
          // Row i at its (p floordiv W, p mod W).
          AffineExpr e = atRow(getAffineDimExpr(d, ctx), i);
          if (d == p.nDim)
            e = e + j * p.vw;
          idx.push_back(
              getValueOrCreateConstantIndexOp(b, loc, destIndex(e, pt, d)));
          continue;
        }
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
  if (flatOuter) {
    // Rows may cross a row of the map: each is inserted as a column of its
    // own at its (p floordiv W, p mod W).
    for (int64_t i = 0; i < rows; ++i) {
      Value column = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get({lanes}, b.getF32Type()), transposed,
          ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(i)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(lanes), b.getIndexAttr(1)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
      offsets.clear();
      sizes.clear();
      for (unsigned d = 0; d < p.numParallel; ++d) {
        offsets.push_back(destIndex(atRow(getAffineDimExpr(d, ctx), i), pt, d));
        sizes.push_back(b.getIndexAttr(d == p.nDim ? lanes : 1));
      }
      dest = tensor::InsertSliceOp::create(b, loc, column, dest, offsets, sizes,
                                           strides)
                 .getResult();
    }
    return dest;
  }
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
  if (kind == KBlocks) {
    // The first block, the middle ones in a loop, the last (a tail).
    int64_t blocks = llvm::divideCeil(p.bounds[dim], kBlock);
    Point q = pt;
    q.dims[dim] = cst(0);
    q.kExtent = kBlock;
    q.phase = Point::First;
    dest = loops(dest, q, level + 1);
    if (blocks > 2) {
      auto loop = scf::ForOp::create(
          b, loc, cst(1), cst(blocks - 1), cst(1), ValueRange{dest},
          [&](OpBuilder &, Location, Value t, ValueRange iter) {
            Point m = pt;
            m.dims[dim] = getValueOrCreateConstantIndexOp(
                b, loc,
                affine::makeComposedFoldedAffineApply(
                    b, loc, getAffineDimExpr(0, b.getContext()) * kBlock,
                    {OpFoldResult(t)}));
            m.kExtent = kBlock;
            m.phase = Point::Middle;
            scf::YieldOp::create(b, loc, loops(iter[0], m, level + 1));
          });
      dest = loop.getResult(0);
    }
    q.dims[dim] = cst((blocks - 1) * kBlock);
    q.kExtent = p.bounds[dim] - (blocks - 1) * kBlock;
    q.phase = Point::Last;
    return loops(dest, q, level + 1);
  }
  if (kind == Groups) {
    // Full groups in a loop, then the rest.
    int64_t full = p.bounds[dim] / panelGroup,
            rest = p.bounds[dim] % panelGroup;
    auto atGroup = [&](Point q, Value base, int64_t extent, Value d) {
      q.groupBase = base;
      q.groupExtent = extent;
      return loops(d, q, level + 1);
    };
    if (full == 1) {
      dest = atGroup(pt, cst(0), panelGroup, dest);
    } else if (full > 1) {
      auto loop = scf::ForOp::create(
          b, loc, cst(0), cst(full * panelGroup), cst(panelGroup),
          ValueRange{dest},
          [&](OpBuilder &, Location, Value base, ValueRange iter) {
            scf::YieldOp::create(b, loc,
                                 atGroup(pt, base, panelGroup, iter[0]));
          });
      dest = loop.getResult(0);
    }
    if (rest > 0)
      dest = atGroup(pt, cst(full * panelGroup), rest, dest);
    return dest;
  }
  bool grouped = kind == Outer && pt.groupBase &&
                 llvm::any_of(levels, [&](const Level &l) {
                   return l.kind == Groups && l.dim == dim;
                 });
  int64_t extent = grouped ? pt.groupExtent : p.bounds[dim];
  if (kind == MTiles && flatOuter)
    extent *= p.bounds[*flatOuter];
  int64_t step = kind == Outer    ? 1
                 : kind == NTiles ? nr()
                                  : p.rowsFor(pt.vecs, extent);
  int64_t fullTiles = extent / step, rest = extent % step;
  MLIRContext *ctx = b.getContext();

  // Body of one full tile at tile index `t`.
  auto setPoint = [&](Point &q, Value t) {
    Value base =
        grouped ? getValueOrCreateConstantIndexOp(
                      b, loc,
                      affine::makeComposedFoldedAffineApply(
                          b, loc,
                          getAffineDimExpr(0, ctx) + getAffineDimExpr(1, ctx),
                          {OpFoldResult(pt.groupBase), OpFoldResult(t)}))
        : kind == Outer
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
      q.rows = step;
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

Value Emitter::readPartial(Value dest, const Point &pt, int64_t i, int64_t j) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < p.numParallel; ++d)
    dims.push_back(getAffineDimExpr(d, ctx));
  Access a{dest, AffineMap::get(p.numLoops, 0, dims, ctx)};
  a.dependsN = true;
  a.dependsM = p.mDim.has_value();
  a.nStride = 1;
  a.nResult = p.nDim;
  a.gather = p.nDim + 1 != p.numParallel;
  a.destRelative = true;
  return read(a, pt, i, j);
}

Value Emitter::run() {
  // Pack the vector operand when it is indexed by plain dims and reused
  // across row tiles (or is a constant, packed for free).
  for (Access *a : {&p.lhs, &p.rhs}) {
    if (!a->dependsN || a->dependsM)
      continue;
    auto type = cast<RankedTensorType>(a->tensor.getType());
    bool isConst = isConstantInput(group, a->tensor);
    if (!canPack(*a, isConst))
      continue;
    // An activation is copied when it is large and reused, and its own
    // layout needs masked or strided loads (a 7-wide row, a stride-2
    // convolution) or is a matmul operand's (rows N apart); a convolution
    // input with whole-vector rows is read in place.
    int64_t rowTiles = p.mDim ? llvm::divideCeil(p.bounds[*p.mDim], p.mr) : 1;
    bool maskedOrStrided = a->nStride != 1 || p.bounds[p.nDim] % p.vw != 0 ||
                           llvm::any_of(a->map.getResults(), [](AffineExpr e) {
                             return !isPlainResult(e);
                           });
    if (isConst || (rowTiles >= 4 && type.getNumElements() >= 16 * 1024 &&
                    (a->plainIndices || maskedOrStrided)))
      pack(*a);
  }

  // A strided vector operand read by several row tiles (a stride-2
  // convolution's input) is deinterleaved once rather than shuffled in
  // every tile.
  for (Access *a : {&p.lhs, &p.rhs}) {
    int64_t rowTiles = p.mDim ? llvm::divideCeil(p.bounds[*p.mDim], p.mr) : 1;
    if (a->dependsN && !a->dependsM && a->nStride > 1 && !a->gather &&
        !a->packed && rowTiles >= 4 && canDeinterleave(*a))
      deinterleave(*a);
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
  // With vectors along output channels and rows along a narrow map's
  // columns, a 7-wide map is tiled 5 + 2 and the 2-row tile leaves most
  // accumulators idle; rows over all of the map's pixels (49 = 9 x 5 + 4)
  // keep them busy. The transposed tile's columns are then stored one by
  // one, so only where the row tiles are not split across threads.
  // So do the rows of the blocked layout [N, C / B, H, W, B], where W is
  // just before the vector dim and a tile's rows are whole vectors apart.
  bool rowsOverMap =
      (panelOutermost && p.mDim && *p.mDim + 1 == p.numParallel) ||
      (!panelOutermost && p.mDim && *p.mDim + 2 == p.numParallel &&
       p.bounds[p.nDim] % p.vw == 0);
  // A multiplicand that does not vary along the rows is loaded once for
  // all of a tile's rows, so it must not vary along the dim they are
  // flattened with either (a batched matmul's B does: [B, H, K, N]).
  auto sharedAcrossFlatRows = [&](unsigned h) {
    return llvm::all_of(
        std::array<const Access *, 2>{&p.lhs, &p.rhs},
        [&](const Access *a) { return a->dependsM || !dependsOn(a->map, h); });
  };
  bool canFlatten = rowsOverMap && *p.mDim >= 1 && *p.mDim - 1 != p.nDim &&
                    p.bounds[*p.mDim - 1] > 1 &&
                    sharedAcrossFlatRows(*p.mDim - 1);
  // A map of at most 256 pixels in the blocked layout whose 1x1 reduction
  // is summed in blocks once its rows run over the whole map takes those
  // rows and blocks rather than panel groups: ResNeXt-50's 1024 -> 512
  // convolutions on 14x14 ran at 92 GFLOP/s against 88 (on 28x28 and 56x56
  // maps, panel groups stay 3-8% ahead). Its channel blocks come before
  // the rows, so threads never split them.
  bool flatBlocks = canFlatten && !panelOutermost &&
                    p.bounds[*p.mDim - 1] * p.bounds[*p.mDim] <= 256 &&
                    reductionBlock(*p.mDim - 1) != 0;
  if (!flatBlocks)
    choosePanelGroups();
  if (!panelOutermost)
    levels.push_back({NTiles, p.nDim});
  if (p.mDim)
    levels.push_back({MTiles, *p.mDim});
  chooseParallelLevel();

  if (canFlatten && !rowsOutside) {
    unsigned h = *p.mDim - 1;
    auto use = [&](int64_t extent) {
      return double(extent) / double(llvm::alignTo(extent, p.mr));
    };
    bool threadsOnRows =
        parallelLevel && (levels[*parallelLevel].dim == h ||
                          levels[*parallelLevel].kind == MTiles);
    if (!threadsOnRows && (flatBlocks || use(p.bounds[h] * p.bounds[*p.mDim]) >
                                             use(p.bounds[*p.mDim]) + 0.05)) {
      flatOuter = h;
      llvm::erase_if(levels, [&](const Level &l) {
        return l.kind == Outer && l.dim == h;
      });
      parallelLevel.reset();
      chooseParallelLevel();
    }
  }

  chooseReductionBlock();
  choosePrefetches();
  if (kBlock) {
    levels.insert(levels.begin(), {KBlocks, kDim});
    if (parallelLevel)
      ++*parallelLevel;
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
