//===- EvaluateUpsampling.cpp - reference kernels of the upsampling ops ---===//
//
// graph.resize and graph.conv_transpose2d on host tensors, with the
// arithmetic of their lowerings (GraphToLinalg/Upsampling.cpp): the resize
// sums taps in order from the first product, innermost axis first; the
// transposed convolution starts from the bias and adds input channels in
// order. Compiled with -ffp-contract=off like Evaluator.cpp.
//
//===----------------------------------------------------------------------===//

#include "EvaluateUpsampling.h"

#include <algorithm>

using namespace mlir;
using namespace mlc::graph;

namespace {

int64_t tableIndex(const HostTensor &t, int64_t i) {
  return t.getKind() == ElementKind::I64 ? t.values<int64_t>()[i]
                                         : t.values<int32_t>()[i];
}

/// Evaluates one output element of a resize: the taps of axes[0, k) summed
/// around the input elements, `coord` the input coordinates so far.
class ResizeEvaluator {
public:
  ResizeEvaluator(ResizeOp op, ArrayRef<HostTensor> in)
      : axes(op.getAxes()), x(in[0]), idx(in.slice(1, axes.size())),
        w(in.slice(1 + axes.size(), axes.size())), strides(x.getRank(), 1) {
    for (int64_t d = x.getRank() - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * x.getShape()[d + 1];
  }

  /// out: the output coordinates; coord: input coordinates, updated at the
  /// resized axes as taps are chosen.
  float value(size_t k, ArrayRef<int64_t> out,
              SmallVectorImpl<int64_t> &coord) {
    if (k == 0) {
      int64_t off = 0;
      for (auto [c, s] : llvm::zip(coord, strides))
        off += c * s;
      return x.values<float>()[off];
    }
    int64_t axis = axes[k - 1], o = out[axis];
    int64_t taps = idx[k - 1].getShape()[0], outLen = idx[k - 1].getShape()[1];
    int64_t size = x.getShape()[axis];
    float acc = 0.0f;
    for (int64_t t = 0; t < taps; ++t) {
      coord[axis] = std::clamp<int64_t>(tableIndex(idx[k - 1], t * outLen + o),
                                        0, size - 1);
      float term =
          w[k - 1].values<float>()[t * outLen + o] * value(k - 1, out, coord);
      acc = t == 0 ? term : acc + term;
    }
    return acc;
  }

  size_t numAxes() const { return axes.size(); }

private:
  ArrayRef<int64_t> axes;
  const HostTensor &x;
  ArrayRef<HostTensor> idx, w;
  SmallVector<int64_t> strides;
};

} // namespace

HostTensor mlc::graph::evaluateResize(ResizeOp op, ArrayRef<HostTensor> in,
                                      ArrayRef<int64_t> outShape) {
  ResizeEvaluator eval(op, in);
  HostTensor out(ElementKind::F32, outShape);
  auto dst = out.values<float>();
  int64_t rank = outShape.size();
  SmallVector<int64_t> o(rank, 0), coord(rank, 0);
  for (int64_t lin = 0, e = out.getNumElements(); lin < e; ++lin) {
    coord.assign(o.begin(), o.end());
    dst[lin] = eval.value(eval.numAxes(), o, coord);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++o[d] < outShape[d])
        break;
      o[d] = 0;
    }
  }
  return out;
}

HostTensor mlc::graph::evaluateConvTranspose2D(ArrayRef<HostTensor> in,
                                               ArrayRef<int64_t> outShape) {
  const HostTensor &x = in[0], &f = in[1];
  auto xs = x.getShape(), fs = f.getShape();
  int64_t batch = xs[0], ci = xs[1], h = xs[2], wd = xs[3];
  int64_t co = fs[1], kh = fs[2], kw = fs[3];
  auto xv = x.values<float>(), fv = f.values<float>();
  const float *bias = in.size() > 2 ? in[2].values<float>().data() : nullptr;
  HostTensor out(ElementKind::F32, outShape);
  auto dst = out.values<float>();
  int64_t oh = outShape[2], ow = outShape[3];
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < co; ++o)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t z = 0; z < wd; ++z)
            for (int64_t j = 0; j < kw; ++j) {
              float acc = bias ? bias[o] : 0.0f;
              for (int64_t c = 0; c < ci; ++c)
                acc = acc + xv[((n * ci + c) * h + y) * wd + z] *
                                fv[((c * co + o) * kh + i) * kw + j];
              dst[((n * co + o) * oh + y * kh + i) * ow + z * kw + j] = acc;
            }
  return out;
}
