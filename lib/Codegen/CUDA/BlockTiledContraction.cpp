//===- BlockTiledContraction.cpp - shared-memory tiled GPU matmul ---------===//
//
// The block-cooperative schedule of float contractions on CUDA (see
// BlockSchedules.h): the classic shared-memory SGEMM. Per block, a bm x bn
// output tile; per step of the reduction, a bm x bk slice of the left and a
// bk x bn slice of the right operand are staged in shared memory by all
// threads (coalesced along whichever index is contiguous in memory,
// zero-filled past the edges, which the multiply-add ignores), then every
// thread updates its tm x tn accumulators from them.
//
//===----------------------------------------------------------------------===//

#include "BlockSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace mlc::gpu {

bool isF32Throughout(linalg::LinalgOp op) {
  // Zero padding is the identity of an f32 multiply-add, and the tiles
  // have no mixed precision.
  return llvm::all_of(op->getOpOperands(), [](OpOperand &operand) {
    return getElementTypeOrSelf(operand.get().getType()).isF32();
  });
}

bool fillsBlockTile(int64_t m, int64_t n) {
  // Below 16 rows or columns most of a tile would idle: a thread per
  // output element (one dot product each) does better.
  return m >= 16 && n >= 16;
}

std::optional<BlockTile> chooseBlockTile(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  if (!isF32Throughout(op))
    return std::nullopt;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  int64_t m = ranges[dims->m[0]], n = ranges[dims->n[0]];
  if (!fillsBlockTile(m, n))
    return std::nullopt;
  int64_t batch = 1;
  for (unsigned d : dims->batch)
    batch *= ranges[d];
  // 128 x 128 tiles with 8 x 8 outputs per thread reuse each shared load
  // 8 times, but only pay off with enough blocks to fill the GPU (an H100
  // has 132 multiprocessors); smaller problems take 64 x 64 tiles.
  int64_t bigTiles =
      llvm::divideCeil(m, 128) * llvm::divideCeil(n, 128) * batch;
  if (bigTiles >= 128)
    return BlockTile{128, 128, 8, 8, 8};
  // Fewer 64 x 64 tiles than multiprocessors would leave some idle: a
  // transformer's 1024 x 256 output projection would have 64 blocks, and
  // its K = 1024 feed-forward one took 100 us so on an H200. 32 x 32 tiles
  // (2 x 2 outputs per thread) make 4x as many.
  int64_t mediumTiles =
      llvm::divideCeil(m, 64) * llvm::divideCeil(n, 64) * batch;
  if (mediumTiles < 128)
    return BlockTile{32, 32, 8, 2, 2};
  return BlockTile{64, 64, 8, 4, 4};
}

std::optional<BlockTile> getBlockTile(Operation *op) {
  auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kBlockTileAttr);
  if (!attr || attr.size() != 5)
    return std::nullopt;
  ArrayRef<int64_t> v = attr.asArrayRef();
  return BlockTile{v[0], v[1], v[2], v[3], v[4]};
}

void setBlockTile(Operation *op, const BlockTile &t) {
  op->setAttr(
      kBlockTileAttr,
      DenseI64ArrayAttr::get(op->getContext(), {t.bm, t.bn, t.bk, t.tm, t.tn}));
}

void buildThreadPhase(OpBuilder &b, Location loc, int64_t threads,
                      function_ref<void(OpBuilder &, Location, Value)> body) {
  ArrayAttr mapping = b.getArrayAttr({mlir::gpu::GPUThreadMappingAttr::get(
      b.getContext(), mlir::gpu::MappingId::LinearDim0)});
  scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(threads)}, ValueRange{},
      mapping, [&](OpBuilder &nested, Location l, ValueRange args) {
        body(nested, l, args.front());
        // With a body builder, the terminator is the caller's to build.
        nested.setInsertionPointToEnd(args.front().getParentBlock());
        scf::InParallelOp::create(nested, l);
      });
}

bool isThreadPhase(Operation *op) {
  auto forall = dyn_cast<scf::ForallOp>(op);
  if (!forall || !forall.getMapping() || forall.getMapping()->size() != 1)
    return false;
  return isa<mlir::gpu::GPUThreadMappingAttr>(
      forall.getMapping()->getValue()[0]);
}

namespace {

/// Index arithmetic on one builder, to keep the schedule readable.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  /// memref[indices] if `inBounds`, else zero.
  Value loadOrZero(Value inBounds, Value memref, ValueRange indices) {
    Type type = cast<MemRefType>(memref.getType()).getElementType();
    auto ifOp = scf::IfOp::create(
        b, loc, inBounds,
        [&](OpBuilder &nb, Location l) {
          Value v = memref::LoadOp::create(nb, l, memref, indices);
          scf::YieldOp::create(nb, l, v);
        },
        [&](OpBuilder &nb, Location l) {
          Value zero = arith::ConstantOp::create(nb, l, nb.getZeroAttr(type));
          scf::YieldOp::create(nb, l, zero);
        });
    return ifOp.getResult(0);
  }
};

} // namespace

LogicalResult emitBlockTiledContraction(RewriterBase &rewriter,
                                        linalg::LinalgOp op,
                                        const BlockTile &tile,
                                        Value initValue) {
  Location loc = op.getLoc();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (!op.hasPureBufferSemantics() || failed(dims) || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1 || tile.bm % tile.tm ||
      tile.bn % tile.tn || (tile.bm * tile.bk) % tile.threads() ||
      (tile.bn * tile.bk) % tile.threads())
    return op.emitError("internal error: not a block-tiled contraction");
  unsigned mDim = dims->m[0], nDim = dims->n[0], kDim = dims->k[0];

  rewriter.setInsertionPoint(op);
  IndexMath im{rewriter, loc};
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  for (unsigned d : dims->batch)
    if (getConstantIntValue(ranges[d].size) != 1)
      return op.emitError("internal error: a block-tiled contraction takes "
                          "one batch element per block");
  auto size = [&](unsigned d) {
    return getValueOrCreateConstantIndexOp(rewriter, loc, ranges[d].size);
  };
  Value mSize = size(mDim), nSize = size(nDim), kSize = size(kDim);
  Value zero = im.c(0);

  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value out = op.getDpsInitOperand(0)->get();
  AffineMap lhsMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap rhsMap = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  // An operand's indices at loop position (m, n, k); batch loops are 0.
  auto at = [&](AffineMap map, Value m, Value n, Value k) {
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      indices.push_back(d == mDim ? m : d == nDim ? n : d == kDim ? k : zero);
    }
    return indices;
  };
  // Whether the reduction index is the contiguous one of an operand.
  auto kContiguous = [&](AffineMap map) {
    return map.getNumResults() &&
           cast<AffineDimExpr>(map.getResults().back()).getPosition() == kDim;
  };

  const int64_t threads = tile.threads();
  const int64_t threadRows = tile.bm / tile.tm, threadCols = tile.bn / tile.tn;
  MLIRContext *ctx = rewriter.getContext();
  Type elementType = getElementTypeOrSelf(out.getType());
  auto space = [&](mlir::gpu::AddressSpace s) {
    return mlir::gpu::AddressSpaceAttr::get(ctx, s);
  };
  // Rows padded by 4 elements: the staging stores, which walk down a
  // column when the reduction index is contiguous, hit distinct banks.
  const int64_t pad = 4;
  auto shared = [&](int64_t cols) {
    return memref::AllocaOp::create(
        rewriter, loc,
        MemRefType::get({tile.bk, cols + pad}, elementType,
                        MemRefLayoutAttrInterface(),
                        space(mlir::gpu::AddressSpace::Workgroup)));
  };
  Value lhsTile = shared(tile.bm), rhsTile = shared(tile.bn);
  Value acc = memref::AllocaOp::create(
      rewriter, loc,
      MemRefType::get({threads, tile.tm, tile.tn}, elementType,
                      MemRefLayoutAttrInterface(),
                      space(mlir::gpu::AddressSpace::Private)));

  // Thread t owns rows t / threadCols + i * threadRows and columns
  // t % threadCols + j * threadCols of the tile.
  struct Owned {
    SmallVector<Value> rows, cols, rowOk, colOk;
  };
  auto owned = [&](IndexMath &m, Value t) {
    Owned o;
    Value ty = m.div(t, threadCols), tx = m.rem(t, threadCols);
    for (int64_t i = 0; i < tile.tm; ++i) {
      o.rows.push_back(m.add(ty, m.c(i * threadRows)));
      o.rowOk.push_back(m.lt(o.rows.back(), mSize));
    }
    for (int64_t j = 0; j < tile.tn; ++j) {
      o.cols.push_back(m.add(tx, m.c(j * threadCols)));
      o.colOk.push_back(m.lt(o.cols.back(), nSize));
    }
    return o;
  };
  auto accIndex = [&](IndexMath &m, Value t, int64_t i, int64_t j) {
    return SmallVector<Value>{t, m.c(i), m.c(j)};
  };

  // A phase visiting each output (i, j) that thread t owns.
  auto ownedPhase = [&](function_ref<void(OpBuilder &, IndexMath &, Value,
                                          const Owned &, int64_t, int64_t)>
                            visit) {
    buildThreadPhase(rewriter, loc, threads,
                     [&](OpBuilder &b, Location l, Value t) {
                       IndexMath m{b, l};
                       Owned o = owned(m, t);
                       for (int64_t i = 0; i < tile.tm; ++i)
                         for (int64_t j = 0; j < tile.tn; ++j)
                           visit(b, m, t, o, i, j);
                     });
  };

  // The accumulators start from the fill value or the output (its init: a
  // bias, a residual...).
  ownedPhase([&](OpBuilder &b, IndexMath &m, Value t, const Owned &o, int64_t i,
                 int64_t j) {
    Value v = initValue ? initValue
                        : m.loadOrZero(m.both(o.rowOk[i], o.colOk[j]), out,
                                       at(outMap, o.rows[i], o.cols[j], zero));
    memref::StoreOp::create(b, m.loc, v, acc, accIndex(m, t, i, j));
  });

  auto kLoop = scf::ForOp::create(rewriter, loc, zero, kSize, im.c(tile.bk));
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(kLoop.getBody()->getTerminator());
    Value k0 = kLoop.getInductionVar();
    // Stage lhs[m, k0 + kk] and rhs[k0 + kk, n], zero past the edges.
    buildThreadPhase(
        rewriter, loc, threads, [&](OpBuilder &b, Location l, Value t) {
          IndexMath m{b, l};
          auto stage = [&](Value src, AffineMap map, Value dst, int64_t width,
                           Value limit, bool isLhs) {
            bool kFast = kContiguous(map);
            for (int64_t e = 0; e < width * tile.bk / threads; ++e) {
              Value id = m.add(t, m.c(e * threads));
              Value kk = kFast ? m.rem(id, tile.bk) : m.div(id, width);
              Value x = kFast ? m.div(id, tile.bk) : m.rem(id, width);
              Value k = m.add(k0, kk);
              Value ok = m.both(m.lt(x, limit), m.lt(k, kSize));
              Value v = m.loadOrZero(
                  ok, src, isLhs ? at(map, x, zero, k) : at(map, zero, x, k));
              memref::StoreOp::create(b, l, v, dst, ValueRange{kk, x});
            }
          };
          stage(lhs, lhsMap, lhsTile, tile.bm, mSize, /*isLhs=*/true);
          stage(rhs, rhsMap, rhsTile, tile.bn, nSize, /*isLhs=*/false);
        });
    // acc[i][j] += lhsTile[kk][row i] * rhsTile[kk][col j].
    buildThreadPhase(
        rewriter, loc, threads, [&](OpBuilder &b, Location l, Value t) {
          IndexMath m{b, l};
          Value ty = m.div(t, threadCols), tx = m.rem(t, threadCols);
          auto kkLoop = scf::ForOp::create(b, l, m.c(0), m.c(tile.bk), m.c(1));
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPoint(kkLoop.getBody()->getTerminator());
          Value kk = kkLoop.getInductionVar();
          SmallVector<Value> a, r;
          for (int64_t i = 0; i < tile.tm; ++i)
            a.push_back(memref::LoadOp::create(
                b, l, lhsTile, ValueRange{kk, m.add(ty, m.c(i * threadRows))}));
          for (int64_t j = 0; j < tile.tn; ++j)
            r.push_back(memref::LoadOp::create(
                b, l, rhsTile, ValueRange{kk, m.add(tx, m.c(j * threadCols))}));
          for (int64_t i = 0; i < tile.tm; ++i)
            for (int64_t j = 0; j < tile.tn; ++j) {
              SmallVector<Value> idx = accIndex(m, t, i, j);
              Value sum = memref::LoadOp::create(b, l, acc, idx);
              sum = math::FmaOp::create(b, l, a[i], r[j], sum);
              memref::StoreOp::create(b, l, sum, acc, idx);
            }
        });
  }

  // Each thread stores its outputs that lie inside the tile.
  ownedPhase([&](OpBuilder &b, IndexMath &m, Value t, const Owned &o, int64_t i,
                 int64_t j) {
    auto ifOp = scf::IfOp::create(b, m.loc, m.both(o.rowOk[i], o.colOk[j]),
                                  /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value v = memref::LoadOp::create(b, m.loc, acc, accIndex(m, t, i, j));
    memref::StoreOp::create(b, m.loc, v, out,
                            at(outMap, o.rows[i], o.cols[j], zero));
  });
  rewriter.eraseOp(op);
  return success();
}

} // namespace mlc::gpu
