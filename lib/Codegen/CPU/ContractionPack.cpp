//===- ContractionPack.cpp - operand layouts made before the loops -------===//
//
// A contraction kernel reads its vector operand with contiguous loads. When
// the operand's own layout does not allow that, or allows it only with
// masked or strided loads, it is copied once, before the loops, into one
// that does: weights at compile time, activations by a copy in the kernel.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernel.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::contraction;

/// One index of a packable operand: s * d + c over a single loop dim d
/// (s >= 1, c >= 0).
struct ScaledDim {
  unsigned dim;
  int64_t scale, offset;
};

static std::optional<ScaledDim> scaledDim(AffineExpr e, const Plan &p) {
  std::optional<SmallVector<int64_t>> form = linearForm(e, p.numLoops);
  if (!form || form->back() < 0)
    return std::nullopt;
  std::optional<ScaledDim> found;
  for (unsigned d = 0; d < p.numLoops; ++d) {
    if ((*form)[d] == 0)
      continue;
    if (found || (*form)[d] < 1)
      return std::nullopt;
    found = ScaledDim{d, (*form)[d], form->back()};
  }
  return found;
}

bool Emitter::canPack(const Access &a, bool isConstant) const {
  bool hasReduction = false;
  SmallVector<bool> seen(p.numLoops, false);
  for (AffineExpr e : a.map.getResults()) {
    std::optional<ScaledDim> sd = scaledDim(e, p);
    if (sd && seen[sd->dim])
      return false; // a loop dim in two indices
    if (sd)
      seen[sd->dim] = true;
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      hasReduction |= d.getPosition() >= p.numParallel;
      continue;
    }
    if (isPlainResult(e))
      continue;
    // A strided index (a 1x1 stride-2 convolution's x[c, 2 oh, 2 ow]): the
    // copy keeps only what is read. Not for constants, whose packing reads
    // them by plain index.
    if (!sd || isConstant)
      return false;
    hasReduction |= sd->dim >= p.numParallel;
  }
  return hasReduction;
}

/// Packs a right-hand side indexed by plain loop dims (or by s * d + c
/// when not a constant) into [outer..., N/nr, reduction..., nr],
/// zero-padded along n.
void Emitter::pack(Access &a) {
  auto type = cast<RankedTensorType>(a.tensor.getType());
  // The tensor's dims as loop dims (index scale * dim + offset); kUnit for
  // a dim of extent 1 (index 0).
  constexpr unsigned kUnit = ~0u;
  SmallVector<unsigned> order;
  SmallVector<std::pair<int64_t, int64_t>> scales;
  for (AffineExpr e : a.map.getResults()) {
    std::optional<ScaledDim> sd = scaledDim(e, p);
    order.push_back(sd ? sd->dim : kUnit);
    scales.push_back(sd ? std::make_pair(sd->scale, sd->offset)
                        : std::make_pair(int64_t(1), int64_t(0)));
  }
  for (unsigned d : order) {
    if (d == p.nDim || d == kUnit)
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
    auto [nScale, nOffset] = scales[nPos];
    int64_t needed = nScale * (tiles * nr() - 1) + nOffset + 1;
    if (needed > type.getDimSize(nPos)) {
      SmallVector<int64_t> lo(type.getRank(), 0), hi(type.getRank(), 0);
      hi[nPos] = needed - type.getDimSize(nPos);
      SmallVector<int64_t> padShape(type.getShape());
      padShape[nPos] = needed;
      auto padType = RankedTensorType::get(padShape, b.getF32Type());
      Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      src = tensor::PadOp::create(b, loc, padType, src,
                                  getAsIndexOpFoldResult(ctx, lo),
                                  getAsIndexOpFoldResult(ctx, hi), zero);
    }
    // Copy loops: packed dims in order; the source index of n is
    // (tile * nr + lane) * s + c.
    unsigned rank = shape.size();
    SmallVector<AffineExpr> srcExprs;
    unsigned tilePos = a.packOuter.size(), lanePos = rank - 1;
    for (auto [d, sc] : llvm::zip(order, scales)) {
      if (d == kUnit) {
        srcExprs.push_back(getAffineConstantExpr(0, ctx));
        continue;
      }
      if (d == p.nDim) {
        srcExprs.push_back((getAffineDimExpr(tilePos, ctx) * nr() +
                            getAffineDimExpr(lanePos, ctx)) *
                               sc.first +
                           sc.second);
        continue;
      }
      auto it = llvm::find(a.packOuter, d);
      unsigned pos = it != a.packOuter.end()
                         ? unsigned(it - a.packOuter.begin())
                         : unsigned(tilePos + 1 +
                                    (llvm::find(a.packReduction, d) -
                                     a.packReduction.begin()));
      srcExprs.push_back(getAffineDimExpr(pos, ctx) * sc.first + sc.second);
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

/// The largest value r (the index of `a` along n, less s * n) takes.
static std::optional<int64_t> maxRest(const Access &a, const Plan &p) {
  std::optional<SmallVector<int64_t>> form =
      linearForm(a.map.getResult(a.nResult), p.numLoops);
  if (!form)
    return std::nullopt;
  int64_t max = form->back();
  for (unsigned d = 0; d < p.numLoops; ++d) {
    if (d == p.nDim)
      continue;
    if ((*form)[d] < 0)
      return std::nullopt;
    max += (*form)[d] * (p.bounds[d] - 1);
  }
  return max >= 0 && form->back() >= 0 ? std::optional<int64_t>(max)
                                       : std::nullopt;
}

bool Emitter::canDeinterleave(const Access &a) const {
  auto type = cast<RankedTensorType>(a.tensor.getType());
  return type.getElementType().isF32() && maxRest(a, p).has_value();
}

/// Copies a tensor read at s * n + r along its last dim into
/// [..., s, W'] with t[..., ph, c] = x[..., s * c + ph], zero-padded so
/// that W' covers every vector the kernel reads (whole vectors past the
/// last column too: no masked loads).
void Emitter::deinterleave(Access &a) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(a.tensor.getType());
  int64_t s = a.nStride, rank = type.getRank(), w = type.getShape().back();
  int64_t cols =
      std::max(llvm::divideCeil(w, s),
               llvm::alignTo(p.bounds[p.nDim], p.vw) + *maxRest(a, p) / s);
  Value src = a.tensor;
  if (cols * s != w) {
    SmallVector<int64_t> lo(rank, 0), hi(rank, 0);
    hi.back() = cols * s - w;
    SmallVector<int64_t> padShape(type.getShape());
    padShape.back() = cols * s;
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    src = tensor::PadOp::create(
        b, loc, RankedTensorType::get(padShape, b.getF32Type()), src,
        getAsIndexOpFoldResult(ctx, lo), getAsIndexOpFoldResult(ctx, hi), zero);
  }
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = s;
  shape.push_back(cols);
  SmallVector<AffineExpr> srcExprs;
  for (int64_t d = 0; d + 1 < rank; ++d)
    srcExprs.push_back(getAffineDimExpr(d, ctx));
  srcExprs.push_back(getAffineDimExpr(rank, ctx) * s +
                     getAffineDimExpr(rank - 1, ctx));
  auto outType = RankedTensorType::get(shape, b.getF32Type());
  Value empty = tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
  a.tensor = linalg::GenericOp::create(
                 b, loc, outType, src, empty,
                 SmallVector<AffineMap>{
                     AffineMap::get(rank + 1, 0, srcExprs, ctx),
                     AffineMap::getMultiDimIdentityMap(rank + 1, ctx)},
                 SmallVector<utils::IteratorType>(
                     rank + 1, utils::IteratorType::parallel),
                 [](OpBuilder &nb, Location l, ValueRange args) {
                   linalg::YieldOp::create(nb, l, args[0]);
                 })
                 .getResult(0);
  a.deinterleaved = true;
}
