//===- ContractionPack.cpp - operand layouts made before the loops -------===//
//
// A contraction kernel reads its vector operand with contiguous loads. When
// the operand's own layout does not allow that, or allows it only with
// masked or strided loads, it is copied once, before the loops, into one
// that does: weights at compile time, activations by a copy in the kernel.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernel.h"

#include "mlc/Dialect/Graph/WeightBlobs.h"

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

/// Scatters the row-major `src` of `srcShape` (dims as loop dims `order`,
/// kUnitDim for extent 1) into the packed layout `shape` = [outer..., N/nr,
/// reduction..., nr]. Each source dim adds its own term to the destination
/// offset, so per-dim tables and an odometer replace per-element index math.
void Emitter::packConstant(ArrayRef<float> src, ArrayRef<int64_t> srcShape,
                           ArrayRef<unsigned> order, const Access &a,
                           ArrayRef<int64_t> shape,
                           MutableArrayRef<float> packed) const {
  SmallVector<int64_t> dstStrides = computeStrides(shape);
  unsigned tilePos = a.packOuter.size();
  unsigned rank = srcShape.size();
  // terms[k][i]: the destination offset that index i of source dim k adds.
  SmallVector<SmallVector<int64_t>> terms(rank);
  for (unsigned k = 0; k < rank; ++k) {
    unsigned d = order[k];
    int64_t stride = 0;
    if (auto it = llvm::find(a.packOuter, d); it != a.packOuter.end())
      stride = dstStrides[it - a.packOuter.begin()];
    else if (auto it = llvm::find(a.packReduction, d);
             it != a.packReduction.end())
      stride = dstStrides[tilePos + 1 + (it - a.packReduction.begin())];
    for (int64_t i = 0; i < srcShape[k]; ++i)
      terms[k].push_back(d == p.nDim ? i / nr() * dstStrides[tilePos] + i % nr()
                                     : i * stride);
  }
  if (rank == 0) {
    packed[0] = src[0];
    return;
  }
  // Odometer over the outer source dims; the last dim is the inner loop.
  SmallVector<int64_t> index(rank, 0);
  ArrayRef<int64_t> inner = terms.back();
  int64_t base = 0, width = srcShape.back();
  for (int64_t lin = 0, e = src.size(); lin < e; lin += width) {
    const float *row = src.data() + lin;
    for (int64_t i = 0; i < width; ++i)
      packed[base + inner[i]] = row[i];
    for (int k = int(rank) - 2; k >= 0; --k) {
      base -= terms[k][index[k]];
      if (++index[k] < srcShape[k]) {
        base += terms[k][index[k]];
        break;
      }
      index[k] = 0;
      base += terms[k][0];
    }
  }
}

/// Transposes in place the row-major `rows` x `cols` matrix of `width`-float
/// elements at `data`, following each cycle of the permutation once: element
/// (r, c) moves to (c, r). Slow next to a copy (random accesses) but needs
/// no second copy of a weight of hundreds of MB.
static void transposeInPlace(MutableArrayRef<float> data, int64_t rows,
                             int64_t cols, int64_t width) {
  int64_t n = rows * cols;
  std::vector<bool> moved(n, false);
  std::vector<float> carry(width), swap(width);
  for (int64_t start = 1; start + 1 < n; ++start) {
    if (moved[start])
      continue;
    std::copy_n(&data[start * width], width, carry.begin());
    int64_t i = start;
    do {
      int64_t dest = (i % cols) * rows + i / cols;
      float *slot = &data[dest * width];
      std::copy_n(slot, width, swap.begin());
      std::copy_n(carry.begin(), width, slot);
      carry.swap(swap);
      moved[dest] = true;
      i = dest;
    } while (i != start);
  }
}

/// [N, K] -> [N/nr, K, nr] in place: each tile of nr rows keeps its place
/// and is transposed through a copy of its own.
static void transposeRowTiles(MutableArrayRef<float> data, int64_t rows,
                              int64_t cols, int64_t tileRows,
                              std::vector<float> &tile) {
  tile.resize(tileRows * cols);
  for (int64_t at = 0; at < rows * cols; at += tileRows * cols) {
    std::copy_n(&data[at], tile.size(), tile.begin());
    float *out = &data[at];
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t r = 0; r < tileRows; ++r)
        *out++ = tile[r * cols + c];
  }
}

/// [K, N] -> [N/nr, K, nr] in place through a copy of the whole matrix:
/// for matrices small enough that the copy costs less than following the
/// permutation's cycles (a Winograd filter's point).
static void transposeColumnTiles(MutableArrayRef<float> data, int64_t rows,
                                 int64_t cols, int64_t width,
                                 std::vector<float> &copy) {
  copy.assign(data.begin(), data.end());
  float *out = data.data();
  for (int64_t c = 0; c < cols; c += width)
    for (int64_t r = 0; r < rows; ++r, out += width)
      std::copy_n(&copy[r * cols + c], width, out);
}

/// Matrices up to this many floats pack through a copy of their own.
constexpr int64_t kMaxCopiedMatrix = int64_t(1) << 22;

/// pack()'s loop dim of a tensor dim of extent 1 (read at index 0).
constexpr unsigned kUnitDim = ~0u;

/// The blob of the weight `a` reads, when the kernel alone reads it and its
/// bytes are `a`'s floats, writable where they are; else null.
graph::BlobEntry *Emitter::ownedWeight(const Access &a) const {
  arith::ConstantOp cst = groupConstant(group, a.tensor);
  graph::BlobEntry *entry = cst ? graph::weightBlob(cst) : nullptr;
  int64_t n = cast<RankedTensorType>(a.tensor.getType()).getNumElements();
  if (!entry || !opts.ownsWeight(cst) ||
      !graph::writableBytes(entry, n * sizeof(float), alignof(float)))
    return nullptr;
  return entry;
}

/// The floats of a blob ownedWeight returned.
static MutableArrayRef<float> weightValues(graph::BlobEntry *entry) {
  MutableArrayRef<char> bytes = entry->getBlob()->getMutableData();
  return MutableArrayRef<float>(reinterpret_cast<float *>(bytes.data()),
                                bytes.size() / sizeof(float));
}

/// `a` reads the packed weight now in `entry`'s bytes, which a new constant
/// takes over (the old one, unread, keeps an empty blob).
void Emitter::adoptPacked(Access &a, graph::BlobEntry *entry,
                          RankedTensorType packedType) {
  a.tensor = arith::ConstantOp::create(
      b, loc,
      DenseResourceElementsAttr::get(packedType, "packed_weight",
                                     graph::takeBlob(entry)));
}

bool Emitter::packInPlace(Access &a, ArrayRef<unsigned> order,
                          RankedTensorType packedType) {
  // [outer..., K, N] packs to [outer..., N/nr, K, nr]: with N a multiple of
  // nr, each outer index's matrix is the transpose of its [K, N/nr] matrix
  // of nr-float rows, in the same place. [outer..., N, K] (a Gemm's transB,
  // read through its transpose) packs tile by tile.
  auto type = cast<RankedTensorType>(a.tensor.getType());
  unsigned outer = a.packOuter.size();
  if (!opts.ownsWeight || type.getRank() != int64_t(outer) + 2 ||
      order.size() != outer + 2 || a.packReduction.size() != 1 ||
      !a.tensor.hasOneUse() ||
      ArrayRef<unsigned>(order).take_front(outer) != ArrayRef(a.packOuter))
    return false;
  unsigned d0 = order[outer], d1 = order[outer + 1];
  bool kn = d1 == p.nDim && a.packReduction[0] == d0;
  bool nk = d0 == p.nDim && a.packReduction[0] == d1;
  int64_t rows = type.getDimSize(outer), cols = type.getDimSize(outer + 1);
  if (!(kn || nk) || (kn ? cols : rows) % nr() != 0 ||
      llvm::any_of(llvm::enumerate(order), [&](auto dim) {
        return type.getDimSize(dim.index()) != p.bounds[dim.value()];
      }))
    return false;
  graph::BlobEntry *entry = ownedWeight(a);
  if (!entry)
    return false;
  MutableArrayRef<float> values = weightValues(entry);
  std::vector<float> scratch;
  for (int64_t at = 0, size = rows * cols, e = values.size(); at < e;
       at += size) {
    MutableArrayRef<float> matrix = values.slice(at, size);
    if (nk)
      transposeRowTiles(matrix, rows, cols, nr(), scratch);
    else if (size <= kMaxCopiedMatrix)
      transposeColumnTiles(matrix, rows, cols, nr(), scratch);
    else
      transposeInPlace(matrix, rows, cols / nr(), nr());
  }
  adoptPacked(a, entry, packedType);
  return true;
}

bool Emitter::packThroughCopy(Access &a, ArrayRef<unsigned> order,
                              RankedTensorType packedType) {
  // Without padding along n, and with every dim the full extent of its
  // loop, each weight lands in one place of the packed layout, which is
  // then as large. (Dims of extent 1 read index 0.)
  auto type = cast<RankedTensorType>(a.tensor.getType());
  int64_t n = type.getNumElements();
  if (!opts.ownsWeight || !a.tensor.hasOneUse() ||
      packedType.getNumElements() != n || n > kMaxCopiedMatrix ||
      llvm::any_of(llvm::enumerate(order), [&](auto dim) {
        return type.getDimSize(dim.index()) !=
               (dim.value() == kUnitDim ? 1 : p.bounds[dim.value()]);
      }))
    return false;
  graph::BlobEntry *entry = ownedWeight(a);
  if (!entry)
    return false;
  graph::ScratchBuffers own;
  (opts.scratch ? *opts.scratch : own)
      .rewriteFromCopy(weightValues(entry),
                       [&](ArrayRef<float> src, MutableArrayRef<float> dst) {
                         packConstant(src, type.getShape(), order, a,
                                      packedType.getShape(), dst);
                       });
  adoptPacked(a, entry, packedType);
  return true;
}

/// Packs a right-hand side indexed by plain loop dims (or by s * d + c
/// when not a constant) into [outer..., N/nr, reduction..., nr],
/// zero-padded along n.
void Emitter::pack(Access &a) {
  auto type = cast<RankedTensorType>(a.tensor.getType());
  // The tensor's dims as loop dims (index scale * dim + offset); kUnitDim
  // for a dim of extent 1 (index 0).
  SmallVector<unsigned> order;
  SmallVector<std::pair<int64_t, int64_t>> scales;
  for (AffineExpr e : a.map.getResults()) {
    std::optional<ScaledDim> sd = scaledDim(e, p);
    order.push_back(sd ? sd->dim : kUnitDim);
    scales.push_back(sd ? std::make_pair(sd->scale, sd->offset)
                        : std::make_pair(int64_t(1), int64_t(0)));
  }
  for (unsigned d : order) {
    if (d == p.nDim || d == kUnitDim)
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
  if (packInPlace(a, order, packedType) ||
      packThroughCopy(a, order, packedType)) {
    a.packed = true;
    return;
  }

  std::vector<float> storage;
  if (std::optional<ArrayRef<float>> data =
          constantData(group, a.tensor, storage)) {
    // Weights: packed now, at compile time, straight into the blob.
    AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
        packedType.getNumElements() * sizeof(float), alignof(float));
    MutableArrayRef<float> packed(
        reinterpret_cast<float *>(blob.getMutableData().data()),
        packedType.getNumElements());
    std::fill(packed.begin(), packed.end(), 0.0f);
    packConstant(*data, type.getShape(), order, a, shape, packed);
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
      if (d == kUnitDim) {
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
