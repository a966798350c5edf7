//===- WinogradConvs.cpp - 3x3 convolutions as Winograd F(4x4, 3x3) -------===//
//
// A stride-1 3x3 convolution computes each 4x4 output tile from a 6x6 input
// tile with 36 multiplies per channel pair instead of 144 (Lavin & Gray,
// "Fast Algorithms for Convolutional Neural Networks", points 0, +-1, +-2):
//   Y = A^T [ (G g G^T) . (B^T d B) ] A
// Everything is expressed in graph ops that already have fast kernels:
//   V = conv2d(x as [N*C, 1, H, W], B^T (x) B^T as 36 6x6 filters, stride 4)
//   M = matmul(U [36, K, C], V [36, C, tiles])     (U = G g G^T, folded here)
//   Y = matmul(A^T (x) A^T [16, 36], M as [36, K * tiles])
// with a transpose after the first and the last, then a slice to the output
// size and the bias. The filter transform is computed here in double
// precision. docs/compiler.md says which choices were measured and why.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Dialect/Graph/Winograd.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHWINOGRADCONVS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

using namespace mlc::graph::winograd;

Value constant(PatternRewriter &b, Location loc, ArrayRef<int64_t> shape,
               ArrayRef<float> values, StringRef name) {
  HostTensor t = HostTensor::get<float>(ElementKind::F32, shape, values);
  return ConstantOp::create(b, loc, toElementsAttr(b.getContext(), t, name));
}

/// The input transform as 36 6x6 filters: [36, 1, 6, 6], filter xi*6+nu
/// at (i, j) = B^T[xi][i] * B^T[nu][j]. (Separably, one dimension at a time,
/// it has a sixth of the multiplies, but the second pass runs on maps as
/// narrow as the tiles and measured slower.)
Value inputFilters(PatternRewriter &b, Location loc) {
  return constant(b, loc, {kPoints, 1, kAlpha, kAlpha}, kronSquare(kBT),
                  "winograd_in");
}

/// The output transform as a matrix: [16, 36], row a*4+b, column xi*6+nu.
Value outputMatrix(PatternRewriter &b, Location loc) {
  return constant(b, loc, {kTile * kTile, kPoints}, kronSquare(kAT),
                  "winograd_out");
}

/// (G g G^T)[xi][nu] of the 3x3 filter tap(s), s = kh * 3 + kw, in double
/// precision, handed to put(xi * 6 + nu, value).
template <typename Tap, typename Put> void transformFilter(Tap tap, Put put) {
  double gw[kAlpha][3]; // G g
  for (int64_t xi = 0; xi < kAlpha; ++xi)
    for (int64_t s = 0; s < 3; ++s)
      gw[xi][s] =
          kG[xi][0] * tap(s) + kG[xi][1] * tap(3 + s) + kG[xi][2] * tap(6 + s);
  for (int64_t xi = 0; xi < kAlpha; ++xi)
    for (int64_t nu = 0; nu < kAlpha; ++nu)
      put(xi * kAlpha + nu,
          float(gw[xi][0] * kG[nu][0] + gw[xi][1] * kG[nu][1] +
                gw[xi][2] * kG[nu][2]));
}

/// A float32 tensor of `shape` whose elements `fill(begin, end, values)`
/// writes, the range [begin, end) of `rows` split over the context's
/// threads. The transformed filters are four times the weights: written
/// once, where the constant keeps them (no second copy).
template <typename Fill>
Value filledConstant(PatternRewriter &b, Location loc, ArrayRef<int64_t> shape,
                     int64_t rows, Fill fill) {
  HostTensor t(ElementKind::F32, shape);
  MutableArrayRef<float> values = t.values<float>();
  constexpr int64_t kChunk = 16;
  parallelFor(b.getContext(), 0, llvm::divideCeil(rows, kChunk),
              [&](size_t chunk) {
                int64_t begin = chunk * kChunk;
                fill(begin, std::min(rows, begin + kChunk), values);
              });
  return ConstantOp::create(
      b, loc, toElementsAttr(b.getContext(), std::move(t), "winograd_filter"));
}

/// U[xi * 6 + nu, k, c] = (G w[k, c] G^T)[xi, nu] of an NCHW filter.
Value transformedFilter(PatternRewriter &b, Location loc, ArrayRef<float> wv,
                        ArrayRef<int64_t> ws) {
  int64_t k = ws[0], c = ws[1];
  return filledConstant(
      b, loc, {kPoints, k, c}, k,
      [&](int64_t kBegin, int64_t kEnd, MutableArrayRef<float> u) {
        for (int64_t ko = kBegin; ko < kEnd; ++ko)
          for (int64_t ci = 0; ci < c; ++ci)
            transformFilter(
                [&](int64_t s) { return wv[(ko * c + ci) * 9 + s]; },
                [&](int64_t p, float v) { u[(p * k + ko) * c + ci] = v; });
      });
}

/// U[xi * 6 + nu, c, k] of a blocked filter [K/B, C/B, 3, 3, B, B] (input
/// lane, then output lane): the right operand of [36, tiles, C] x [36, C, K].
/// Output channels innermost, so that each point's row is written in order.
Value transformedBlockedFilter(PatternRewriter &b, Location loc,
                               ArrayRef<float> wv, ArrayRef<int64_t> ws) {
  int64_t kb = ws[0], cb = ws[1], blk = ws[5], k = kb * blk, c = cb * blk;
  return filledConstant(
      b, loc, {kPoints, c, k}, c,
      [&](int64_t cBegin, int64_t cEnd, MutableArrayRef<float> u) {
        for (int64_t ci = cBegin; ci < cEnd; ++ci)
          for (int64_t ko = 0; ko < k; ++ko) {
            auto tap = [&](int64_t s) {
              return wv[((((ko / blk) * cb + ci / blk) * 9 + s) * blk +
                         ci % blk) *
                            blk +
                        ko % blk];
            };
            transformFilter(
                tap, [&](int64_t p, float v) { u[(p * c + ci) * k + ko] = v; });
          }
      });
}

/// What both forms check and compute first: a float32 convolution with one
/// group, a constant 3x3 filter, stride 1 and dilation 1, enough channels
/// (few: the transforms cost more than the product saves) and tiles (few:
/// the 4x larger transformed filter is read for little work).
struct Tiling {
  /// The filter's elements, read where the constant stores them (or decoded
  /// into `decoded` when it stores them otherwise).
  ArrayRef<float> filter;
  std::optional<HostTensor> decoded;
  int64_t th, tw;
  /// Padding below and to the right for whole 6x6 input tiles.
  int64_t padBottom, padRight;
};

template <typename ConvOp> struct WinogradPattern : OpRewritePattern<ConvOp> {
  WinogradPattern(MLIRContext *ctx, int64_t minIn, int64_t minOut,
                  int64_t minTiles)
      : OpRewritePattern<ConvOp>(ctx), minIn(minIn), minOut(minOut),
        minTiles(minTiles) {}

  /// `c` and `k` count input and output channels, `h`, `w` the input map.
  FailureOr<Tiling> tiling(ConvOp op, int64_t n, int64_t c, int64_t k,
                           int64_t h, int64_t w, int64_t oh, int64_t ow) const {
    // [K, C, KH, KW] and the blocked [K/B, C/B, KH, KW, B, B] alike.
    auto wType = op.getFilter().getType();
    if (!op.getType().getElementType().isF32() || op.getGroups() != 1 ||
        wType.getDimSize(2) != 3 || wType.getDimSize(3) != 3 ||
        llvm::any_of(op.getStrides(), [](int64_t s) { return s != 1; }) ||
        llvm::any_of(op.getDilations(), [](int64_t d) { return d != 1; }))
      return failure();
    ElementsAttr wAttr;
    if (!matchPattern(op.getFilter(), m_Constant(&wAttr)))
      return failure();
    Tiling t;
    t.th = llvm::divideCeil(oh, kTile);
    t.tw = llvm::divideCeil(ow, kTile);
    if (c < minIn || k < minOut || n * t.th * t.tw < minTiles)
      return failure();
    std::optional<ArrayRef<float>> filter =
        constantValues<float>(wAttr, t.decoded);
    if (!filter)
      return failure();
    t.filter = *filter;
    auto p = op.getPads();
    t.padBottom = kTile * t.th + 2 - h - p[0];
    t.padRight = kTile * t.tw + 2 - w - p[1];
    return t;
  }

  int64_t minIn, minOut, minTiles;
};

struct WinogradConv : WinogradPattern<Conv2DOp> {
  using WinogradPattern::WinogradPattern;

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    auto in = op.getInput().getType().getShape();
    auto out = op.getType().getShape();
    int64_t n = in[0], c = in[1], h = in[2], w = in[3];
    int64_t k = out[1], oh = out[2], ow = out[3];
    FailureOr<Tiling> t = tiling(op, n, c, k, h, w, oh, ow);
    if (failed(t))
      return failure();
    int64_t th = t->th, tw = t->tw;
    Location loc = op.getLoc();
    auto p = op.getPads();
    auto i64s = [&](ArrayRef<int64_t> v) {
      return rewriter.getDenseI64ArrayAttr(v);
    };

    // V[n*c, xi*6+nu, th, tw] = (B^T d B)[xi, nu] of tile (th, tw).
    Value x = ReshapeOp::create(rewriter, loc, op.getInput(),
                                ArrayRef<int64_t>{n * c, 1, h, w});
    Value v = Conv2DOp::create(rewriter, loc, x, inputFilters(rewriter, loc),
                               /*bias=*/nullptr, i64s({kTile, kTile}),
                               i64s({p[0], p[1], t->padBottom, t->padRight}),
                               i64s({1, 1}), rewriter.getI64IntegerAttr(1));
    // [36, C, N * TH * TW]: one matrix product per point.
    v = ReshapeOp::create(rewriter, loc, v,
                          ArrayRef<int64_t>{n, c, kPoints, th * tw});
    v = TransposeOp::create(rewriter, loc, v, i64s({2, 1, 0, 3}));
    v = ReshapeOp::create(rewriter, loc, v,
                          ArrayRef<int64_t>{kPoints, c, n * th * tw});
    Value m =
        MatMulOp::create(rewriter, loc,
                         transformedFilter(rewriter, loc, t->filter,
                                           op.getFilter().getType().getShape()),
                         v);
    // The output transform of every tile at once: [16, K * N * TH * TW],
    // then the 4x4 tiles back in place.
    m = ReshapeOp::create(rewriter, loc, m,
                          ArrayRef<int64_t>{kPoints, k * n * th * tw});
    Value y = MatMulOp::create(rewriter, loc, outputMatrix(rewriter, loc), m);
    y = ReshapeOp::create(rewriter, loc, y,
                          ArrayRef<int64_t>{kTile, kTile, k, n, th, tw});
    y = TransposeOp::create(rewriter, loc, y, i64s({3, 2, 4, 0, 5, 1}));
    y = ReshapeOp::create(rewriter, loc, y,
                          ArrayRef<int64_t>{n, k, kTile * th, kTile * tw});
    if (kTile * th != oh || kTile * tw != ow)
      y = SliceOp::create(rewriter, loc, y, ArrayRef<int64_t>{0, 0, 0, 0},
                          ArrayRef<int64_t>{n, k, oh, ow},
                          ArrayRef<int64_t>{1, 1, 1, 1});
    if (Value bias = op.getBias())
      y = AddOp::create(rewriter, loc, y,
                        ReshapeOp::create(rewriter, loc, bias,
                                          ArrayRef<int64_t>{1, k, 1, 1}));
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// The blocked form (conv2d_nchwc [N, C/B, H, W, B], one group): the
/// transforms are kernels of their own (graph.winograd_input/_output) with
/// vectors along the channel lanes, and the products put the output
/// channels along the columns, [36, tiles, C] x [36, C, K], so that every
/// operand keeps its channels contiguous and no transpose is needed.
struct WinogradBlockedConv : WinogradPattern<Conv2DNchwcOp> {
  using WinogradPattern::WinogradPattern;

  LogicalResult matchAndRewrite(Conv2DNchwcOp op,
                                PatternRewriter &rewriter) const override {
    if (op.isDepthwise() || op.hasPlainInput())
      return failure();
    auto in = op.getInput().getType().getShape();
    auto out = op.getType().getShape();
    int64_t n = in[0], cb = in[1], h = in[2], w = in[3], blk = in[4];
    int64_t kb = out[1], oh = out[2], ow = out[3];
    FailureOr<Tiling> t = tiling(op, n, cb * blk, kb * blk, h, w, oh, ow);
    if (failed(t))
      return failure();
    int64_t th = t->th, tw = t->tw, padBottom = t->padBottom,
            padRight = t->padRight;

    Location loc = op.getLoc();
    auto p = op.getPads();
    Value x = op.getInput();
    if (p[0] || p[1] || padBottom || padRight)
      x = PadOp::create(
          rewriter, loc, x,
          rewriter.getDenseI64ArrayAttr(
              {0, 0, p[0], p[1], 0, 0, 0, padBottom, padRight, 0}),
          rewriter.getF64FloatAttr(0));
    Value v = WinogradInputOp::create(rewriter, loc, x);
    v = ReshapeOp::create(rewriter, loc, v,
                          ArrayRef<int64_t>{kPoints, n * th * tw, cb * blk});
    Value m = MatMulOp::create(
        rewriter, loc, v,
        transformedBlockedFilter(rewriter, loc, t->filter,
                                 op.getFilter().getType().getShape()));
    m = ReshapeOp::create(rewriter, loc, m,
                          ArrayRef<int64_t>{kPoints, n, th, tw, kb, blk});
    Value y = WinogradOutputOp::create(rewriter, loc, m,
                                       rewriter.getDenseI64ArrayAttr({oh, ow}));
    if (Value bias = op.getBias())
      y = AddOp::create(rewriter, loc, y,
                        ReshapeOp::create(rewriter, loc, bias,
                                          ArrayRef<int64_t>{1, kb, 1, 1, blk}));
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct GraphWinogradConvs
    : mlc::graph::impl::GraphWinogradConvsBase<GraphWinogradConvs> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WinogradConv>(&getContext(), minInChannels, minOutChannels,
                               minTiles);
    patterns.add<WinogradBlockedConv>(&getContext(), minInChannelsBlocked,
                                      minOutChannelsBlocked, minTiles);
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
