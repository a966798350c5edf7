//===- ContractionPrefetch.cpp - epilogue operands fetched ahead ----------===//
//
// A contraction whose epilogue reads a tensor as large as its result (a
// residual connection's add) reads one tile's rows of it after each tile's
// reduction. With output channels as rows and the map along the vectors,
// one row tile touches one cache line in each of several channel planes
// megabytes apart: no hardware prefetcher follows that, so every tile
// waits for a memory round trip (ResNet-50's conv3 + add + relu on 56x56
// took 2.3 ms against 1.45 ms for the convolution alone, the separate add
// 0.25 ms). Each tile therefore prefetches the lines the next row tile's
// epilogue will read, a whole reduction ahead of the loads.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::contraction;

void Emitter::choosePrefetches() {
  prefetchBuffers.assign(p.epilogueInputs.size(), Value());
  // Rows inside the vectors' loop (the usual order; not the transposed
  // tiles of vectors along output channels), and a plain row index.
  if (!p.epilogue || !p.mDim || p.nDim + 1 != p.numParallel || flatOuter)
    return;
  MLIRContext *ctx = b.getContext();
  for (auto [k, a] : llvm::enumerate(p.epilogueInputs)) {
    if (!a.tensor || !a.dependsM || !a.dependsN || a.gather || a.nStride != 1)
      continue;
    auto type = cast<RankedTensorType>(a.tensor.getType());
    // Small operands stay in cache by themselves.
    if (!type.getElementType().isF32() || type.getNumElements() < (64 << 10))
      continue;
    if (!llvm::any_of(a.map.getResults(), [&](AffineExpr e) {
          return e == getAffineDimExpr(*p.mDim, ctx);
        }))
      continue;
    // The buffer the tensor will live in, whatever its layout: a cast, no
    // copy, once bufferized.
    SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
    auto layout = StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides);
    auto memrefType =
        MemRefType::get(type.getShape(), type.getElementType(), layout);
    prefetchBuffers[k] = bufferization::ToBufferOp::create(
        b, loc, memrefType, a.tensor, /*readOnly=*/true);
  }
}

void Emitter::prefetchNextRows(const Point &pt) {
  if (llvm::none_of(prefetchBuffers, [](Value v) { return bool(v); }))
    return;
  MLIRContext *ctx = b.getContext();
  AffineExpr mExpr = getAffineDimExpr(*p.mDim, ctx);
  int64_t lineFloats = 16; // 64-byte lines
  for (auto [k, a] : llvm::enumerate(p.epilogueInputs)) {
    Value buffer = prefetchBuffers[k];
    if (!buffer)
      continue;
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(a.tensor.getType()).getShape();
    int64_t lanes = (pt.vecs - 1) * p.vw + pt.lastLanes;
    // The row tile loop's (rows are never flattened here).
    int64_t step = p.rowsFor(pt.vecs, p.bounds[*p.mDim]);
    for (int64_t i = 0; i < step; ++i) {
      for (int64_t off = 0; off < lanes; off += lineFloats) {
        // Row step + i and column off of this tile: the next row tile's,
        // clamped into the tensor (the last tile prefetches itself).
        SmallVector<Value> idx;
        for (auto [r, e] : llvm::enumerate(a.map.getResults())) {
          AffineExpr at = e.replace(mExpr, mExpr + step + i)
                              .replace(getAffineDimExpr(p.nDim, ctx),
                                       getAffineDimExpr(p.nDim, ctx) + off);
          OpFoldResult v = affine::makeComposedFoldedAffineApply(
              b, loc, AffineMap::get(p.numLoops, 0, at),
              getAsOpFoldResult(pt.dims));
          if (e.isFunctionOfDim(*p.mDim) ||
              (off > 0 && e.isFunctionOfDim(p.nDim)))
            v = affine::makeComposedFoldedAffineMin(
                b, loc,
                AffineMap::get(1, 0,
                               {getAffineDimExpr(0, ctx),
                                getAffineConstantExpr(shape[r] - 1, ctx)},
                               ctx),
                {v});
          idx.push_back(getValueOrCreateConstantIndexOp(b, loc, v));
        }
        memref::PrefetchOp::create(b, loc, buffer, idx, /*isWrite=*/false,
                                   /*localityHint=*/3, /*isDataCache=*/true);
      }
    }
  }
}
