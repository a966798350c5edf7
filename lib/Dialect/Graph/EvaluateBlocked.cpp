//===- EvaluateBlocked.cpp - reference kernels of the blocked layout ------===//
//
// graph.conv2d_nchwc and graph.conv2d_integer_nchwc on host tensors, summing in
// the lowering's loop order (the bias, then the reduction loops outermost to
// innermost), the blocked Winograd transforms (in the CPU kernel's order,
// Winograd.h), and the layout moves for the blocked pooling ops.
//
//===----------------------------------------------------------------------===//

#include "EvaluateBlocked.h"
#include "mlc/Dialect/Graph/Winograd.h"

using namespace mlir;
using namespace mlc::graph;

HostTensor mlc::graph::evaluateConv2DNchwc(Conv2DNchwcOp op,
                                           ArrayRef<HostTensor> in,
                                           ArrayRef<int64_t> outShape) {
  const HostTensor &x = in[0], &w = in[1];
  ArrayRef<int64_t> xs = x.getShape(), ws = w.getShape();
  bool depthwise = op.isDepthwise(), plain = op.hasPlainInput();
  int64_t batch = outShape[0], ob = outShape[1], oh = outShape[2],
          ow = outShape[3], blk = outShape[4];
  int64_t h = xs[2], wd = xs[3], inLanes = plain ? 1 : xs[4];
  // Reduction extents: input channel blocks (or plain channels), window.
  int64_t cIn = depthwise ? 1 : ws[1];
  int64_t kh = depthwise ? ws[1] : ws[2], kw = depthwise ? ws[2] : ws[3];
  int64_t lanes = depthwise || plain ? 1 : inLanes;
  auto s = op.getStrides(), p = op.getPads(), d = op.getDilations();
  ArrayRef<float> xv = x.values<float>(), wv = w.values<float>();
  const float *bias = in.size() > 2 ? in[2].values<float>().data() : nullptr;
  HostTensor out(ElementKind::F32, outShape);
  MutableArrayRef<float> dst = out.values<float>();
  // Output blocks per group (grouped blocked form): block b reads the
  // input blocks of group b / perGroup.
  int64_t perGroup = ob / op.getGroups();
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t b = 0; b < ob; ++b)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z)
          for (int64_t o = 0; o < blk; ++o) {
            float acc = bias ? bias[b * blk + o] : 0.0f;
            for (int64_t c = 0; c < cIn; ++c)
              for (int64_t i = 0; i < kh; ++i)
                for (int64_t j = 0; j < kw; ++j)
                  for (int64_t l = 0; l < lanes; ++l) {
                    // Padding is a real 0 in the kernel too.
                    int64_t iy = y * s[0] + i * d[0] - p[0];
                    int64_t iz = z * s[1] + j * d[1] - p[1];
                    float v = 0.0f;
                    if (iy >= 0 && iy < h && iz >= 0 && iz < wd) {
                      if (plain)
                        v = xv[((n * xs[1] + c) * h + iy) * wd + iz];
                      else
                        v = xv[(((n * xs[1] +
                                  (depthwise ? b : b / perGroup * cIn + c)) *
                                     h +
                                 iy) *
                                    wd +
                                iz) *
                                   inLanes +
                               (depthwise ? o : l)];
                    }
                    float f;
                    if (depthwise)
                      f = wv[((b * kh + i) * kw + j) * blk + o];
                    else if (plain)
                      f = wv[(((b * cIn + c) * kh + i) * kw + j) * blk + o];
                    else
                      f = wv[((((b * cIn + c) * kh + i) * kw + j) * lanes + l) *
                                 blk +
                             o];
                    acc = acc + v * f;
                  }
            dst[(((n * ob + b) * oh + y) * ow + z) * blk + o] = acc;
          }
  return out;
}

HostTensor mlc::graph::evaluateConv2DIntegerNchwc(
    Conv2DIntegerNchwcOp op, const HostTensor &centeredInput,
    const HostTensor &filter, ArrayRef<int64_t> outShape) {
  ArrayRef<int64_t> xs = centeredInput.getShape(), ws = filter.getShape();
  int64_t batch = outShape[0], ob = outShape[1], oh = outShape[2],
          ow = outShape[3], blk = outShape[4];
  // Depthwise: one input channel (o's own, lane o of block b) per output.
  bool depthwise = op.isDepthwise();
  int64_t h = xs[2], wd = xs[3], cb = depthwise ? 1 : ws[1],
          kh = depthwise ? ws[1] : ws[2], kw = depthwise ? ws[2] : ws[3],
          lanes = depthwise ? 1 : blk;
  auto s = op.getStrides(), p = op.getPads(), d = op.getDilations();
  ArrayRef<int32_t> xv = centeredInput.values<int32_t>();
  ArrayRef<int8_t> wv = filter.values<int8_t>();
  HostTensor out(ElementKind::I32, outShape);
  MutableArrayRef<int32_t> dst = out.values<int32_t>();
  // Grouped: output block b reads the cb input blocks of group
  // b / perGroup.
  int64_t perGroup = ob / op.getGroups(), inBlocks = xs[1];
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t b = 0; b < ob; ++b)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z)
          for (int64_t o = 0; o < blk; ++o) {
            // Modulo 2^32, as the kernel's wrapping sums.
            uint32_t acc = 0;
            for (int64_t c = 0; c < cb; ++c)
              for (int64_t i = 0; i < kh; ++i)
                for (int64_t j = 0; j < kw; ++j) {
                  // Padding holds the zero point: centered, 0.
                  int64_t iy = y * s[0] + i * d[0] - p[0];
                  int64_t iz = z * s[1] + j * d[1] - p[1];
                  if (iy < 0 || iy >= h || iz < 0 || iz >= wd)
                    continue;
                  for (int64_t l = 0; l < lanes; ++l) {
                    int64_t xi =
                        depthwise
                            ? (((n * ob + b) * h + iy) * wd + iz) * blk + o
                            : (((n * inBlocks + b / perGroup * cb + c) * h +
                                iy) *
                                   wd +
                               iz) * blk +
                                  l;
                    int64_t wi =
                        depthwise ? ((b * kh + i) * kw + j) * blk + o
                                  : ((((b * cb + c) * kh + i) * kw + j) * blk +
                                     l) * blk +
                                        o;
                    acc += uint32_t(xv[xi] * int32_t(wv[wi]));
                  }
                }
            dst[(((n * ob + b) * oh + y) * ow + z) * blk + o] = int32_t(acc);
          }
  return out;
}

HostTensor mlc::graph::unblockChannels(const HostTensor &x) {
  ArrayRef<int64_t> s = x.getShape();
  int64_t n = s[0], cb = s[1], hw = s[2] * s[3], blk = s[4];
  HostTensor out(ElementKind::F32, {n, cb * blk, s[2], s[3]});
  ArrayRef<float> src = x.values<float>();
  MutableArrayRef<float> dst = out.values<float>();
  for (int64_t i = 0; i < n * cb; ++i)
    for (int64_t p = 0; p < hw; ++p)
      for (int64_t l = 0; l < blk; ++l)
        dst[(i * blk + l) * hw + p] = src[(i * hw + p) * blk + l];
  return out;
}

HostTensor mlc::graph::blockChannels(const HostTensor &x, int64_t block) {
  ArrayRef<int64_t> s = x.getShape();
  int64_t n = s[0], cb = s[1] / block, hw = s[2] * s[3];
  HostTensor out(ElementKind::F32, {n, cb, s[2], s[3], block});
  ArrayRef<float> src = x.values<float>();
  MutableArrayRef<float> dst = out.values<float>();
  for (int64_t i = 0; i < n * cb; ++i)
    for (int64_t p = 0; p < hw; ++p)
      for (int64_t l = 0; l < block; ++l)
        dst[(i * hw + p) * block + l] = src[(i * block + l) * hw + p];
  return out;
}

namespace {
/// Scalar arithmetic for the shared Winograd transforms.
struct FloatOps {
  float mul(double c, float x) { return float(c) * x; }
  float add(float a, float b) { return a + b; }
  float sub(float a, float b) { return a - b; }
  float neg(float a) { return -a; }
};

/// f(n, y, z, c, l, at) for every lane of every tile of a [36, N, TH, TW,
/// C/B, B] tensor (`shape`), `at` the offset within one of its 36 planes.
template <typename F> void forEachTileLane(ArrayRef<int64_t> shape, F f) {
  int64_t at = 0;
  for (int64_t n = 0; n < shape[1]; ++n)
    for (int64_t y = 0; y < shape[2]; ++y)
      for (int64_t z = 0; z < shape[3]; ++z)
        for (int64_t c = 0; c < shape[4]; ++c)
          for (int64_t l = 0; l < shape[5]; ++l)
            f(n, y, z, c, l, at++);
}
} // namespace

HostTensor mlc::graph::evaluateWinogradInput(const HostTensor &x,
                                             ArrayRef<int64_t> outShape) {
  using namespace winograd;
  ArrayRef<int64_t> xs = x.getShape();
  int64_t cb = xs[1], h = xs[2], w = xs[3], blk = xs[4];
  ArrayRef<float> xv = x.values<float>();
  HostTensor out(ElementKind::F32, outShape);
  MutableArrayRef<float> dst = out.values<float>();
  int64_t plane = out.getNumElements() / kPoints;
  FloatOps ops;
  forEachTileLane(outShape, [&](int64_t n, int64_t y, int64_t z, int64_t c,
                                int64_t l, int64_t at) {
    inputTile<float>(
        [&](int64_t i, int64_t j) {
          return xv[(((n * cb + c) * h + 4 * y + i) * w + 4 * z + j) * blk + l];
        },
        [&](int64_t xi, int64_t nu, float v) {
          dst[(xi * kAlpha + nu) * plane + at] = v;
        },
        ops);
  });
  return out;
}

HostTensor mlc::graph::evaluateWinogradOutput(const HostTensor &m,
                                              ArrayRef<int64_t> outShape) {
  using namespace winograd;
  ArrayRef<int64_t> ms = m.getShape();
  int64_t kb = ms[4], blk = ms[5];
  int64_t oh = outShape[2], ow = outShape[3];
  ArrayRef<float> mv = m.values<float>();
  HostTensor out(ElementKind::F32, outShape);
  MutableArrayRef<float> dst = out.values<float>();
  int64_t plane = m.getNumElements() / kPoints;
  FloatOps ops;
  forEachTileLane(ms, [&](int64_t n, int64_t y, int64_t z, int64_t k, int64_t l,
                          int64_t at) {
    outputTile<float>(
        [&](int64_t xi, int64_t nu) {
          return mv[(xi * kAlpha + nu) * plane + at];
        },
        [&](int64_t a, int64_t b, float v) {
          dst[(((n * kb + k) * oh + 4 * y + a) * ow + 4 * z + b) * blk + l] = v;
        },
        std::min<int64_t>(4, oh - 4 * y), std::min<int64_t>(4, ow - 4 * z),
        ops);
  });
  return out;
}
