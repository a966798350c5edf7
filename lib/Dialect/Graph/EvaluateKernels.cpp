//===- EvaluateKernels.cpp - the evaluator's multi-element kernels --------===//
//
// Reductions and row-wise ops, contractions and windows, data movement: each
// mirrors its GraphToLinalg pattern (accumulator type and initial value,
// reduction order, roundings). Compiled with -ffp-contract=off like
// Evaluator.cpp (see there).
//
//===----------------------------------------------------------------------===//

#include "EvaluatorSupport.h"

#include "EvaluateUpsampling.h"

namespace mlc::graph::detail {

//===----------------------------------------------------------------------===//
// Reductions and row-wise ops
//===----------------------------------------------------------------------===//

/// buildReduction: per kept index, acc = init then acc = acc (+|max) x over
/// the reduced dims in row-major order. Walking the input in row-major order
/// visits each output's elements in exactly that order. The result has
/// size-1 dims at the reduced axes (the keepdims layout; dropping them does
/// not change the element order).
HostTensor reduce(const HostTensor &in, ArrayRef<int64_t> axes, Reduce kind) {
  SmallVector<int64_t> outShape(in.getShape());
  for (int64_t a : axes)
    outShape[a] = 1;
  HostTensor out(in.getKind(), outShape);
  dispatchNumeric(in.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Limits = std::numeric_limits<T>;
    T init = 0;
    if (kind == Reduce::Prod)
      init = 1;
    if constexpr (kIsFloat<T>) {
      if (kind == Reduce::Max || kind == Reduce::Min)
        init = kind == Reduce::Max ? -Limits::infinity() : Limits::infinity();
    } else {
      if (kind == Reduce::Max || kind == Reduce::Min)
        init = kind == Reduce::Max ? Limits::min() : Limits::max();
    }
    auto dst = out.values<T>();
    std::fill(dst.begin(), dst.end(), init);
    auto src = in.values<T>();
    SmallVector<SmallVector<int64_t>> strides = {
        broadcastStrides(outShape, in.getShape())};
    walk(in.getShape(), strides, {0}, [&](int64_t i, ArrayRef<int64_t> off) {
      T &acc = dst[off[0]];
      switch (kind) {
      case Reduce::Sum:
        acc = addS(acc, src[i]);
        break;
      case Reduce::Prod:
        acc = mulS(acc, src[i]);
        break;
      case Reduce::Max:
        acc = maxS(acc, src[i]);
        break;
      case Reduce::Min:
        acc = minS(acc, src[i]);
        break;
      }
    });
  });
  return out;
}

/// ArgReducePattern's update rule: does x replace the accumulator?
template <typename T> bool argTakes(T x, T acc, bool isMax, bool last) {
  // C++ comparisons are ordered (false on NaN), like OGT/OGE/OLT/OLE.
  bool better =
      isMax ? (last ? x >= acc : x > acc) : (last ? x <= acc : x < acc);
  if constexpr (kIsFloat<T>) {
    bool xNaN = std::isnan(x), accNaN = std::isnan(acc);
    return (last ? xNaN : xNaN && !accNaN) || better;
  }
  return better;
}

/// argmax/argmin over `axis`, in the keepdims layout: the accumulator
/// starts at -inf/+inf (integer min/max) with index 0, and each element of
/// a row is offered in order.
HostTensor argReduce(const HostTensor &in, int64_t axis, bool isMax,
                     bool last) {
  SmallVector<int64_t> outShape(in.getShape());
  outShape[axis] = 1;
  HostTensor out(ElementKind::I64, outShape);
  auto dst = out.values<int64_t>();
  int64_t inner = product(in.getShape().drop_front(axis + 1));
  int64_t size = in.getShape()[axis];
  dispatchNumeric(in.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Limits = std::numeric_limits<T>;
    T init;
    if constexpr (kIsFloat<T>)
      init = isMax ? -Limits::infinity() : Limits::infinity();
    else
      init = isMax ? Limits::min() : Limits::max();
    SmallVector<T> acc(out.getNumElements(), init);
    auto src = in.values<T>();
    SmallVector<SmallVector<int64_t>> strides = {
        broadcastStrides(outShape, in.getShape())};
    walk(in.getShape(), strides, {0}, [&](int64_t i, ArrayRef<int64_t> off) {
      if (argTakes(src[i], acc[off[0]], isMax, last)) {
        acc[off[0]] = src[i];
        dst[off[0]] = (i / inner) % size;
      }
    });
  });
  return out;
}

/// CumSumPattern: out[.., i, ..] = 0 (+ in[.., j, ..] for each selected j,
/// in increasing j).
HostTensor cumsum(const HostTensor &in, int64_t axis, bool exclusive,
                  bool reverse) {
  HostTensor out(in.getKind(), in.getShape());
  auto shape = in.getShape();
  int64_t outer = product(shape.take_front(axis)), n = shape[axis];
  int64_t inner = product(shape.drop_front(axis + 1));
  auto selected = [&](int64_t j, int64_t i) {
    return reverse ? (exclusive ? j > i : j >= i)
                   : (exclusive ? j < i : j <= i);
  };
  dispatchNumeric(in.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = in.values<T>();
    auto dst = out.values<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < inner; ++k) {
          T acc = 0;
          for (int64_t j = 0; j < n; ++j)
            if (selected(j, i))
              acc = addS(acc, src[(o * n + j) * inner + k]);
          dst[(o * n + i) * inner + k] = acc;
        }
  });
  return out;
}

HostTensor withShape(HostTensor t, ArrayRef<int64_t> shape) {
  HostTensor out(t.getKind(), shape);
  std::memcpy(out.getMutableBytes().data(), t.getBytes().data(),
              t.getSizeInBytes());
  return out;
}

/// divideByConstant: x / (float)divisor.
HostTensor divideBy(const HostTensor &t, double divisor) {
  float d = static_cast<float>(divisor);
  return mapUnary<float, float>(t, ElementKind::F32,
                                [&](float x) { return x / d; });
}

int64_t countOver(ArrayRef<int64_t> shape, ArrayRef<int64_t> axes) {
  int64_t n = 1;
  for (int64_t a : axes)
    n *= shape[a];
  return n;
}

HostTensor subF(const HostTensor &a, const HostTensor &b) {
  return mapBinary<float, float, float>(a, b, a.getShape(), ElementKind::F32,
                                        [](float x, float y) { return x - y; });
}

HostTensor softmax(const HostTensor &x, int64_t axis, bool log) {
  HostTensor max = reduce(x, axis, Reduce::Max);
  HostTensor shifted = subF(x, max);
  HostTensor e = unaryFloat(shifted, [](float v) { return expf(v); });
  HostTensor sum = reduce(e, axis, Reduce::Sum);
  if (log)
    return mapBinary<float, float, float>(
        shifted, sum, x.getShape(), ElementKind::F32,
        [](float s, float t) { return s - logf(t); });
  return mapBinary<float, float, float>(e, sum, x.getShape(), ElementKind::F32,
                                        [](float v, float t) { return v / t; });
}

HostTensor layerNorm(const HostTensor &x, const HostTensor &scale,
                     const HostTensor &bias, int64_t axis, float eps) {
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < x.getRank(); ++d)
    axes.push_back(d);
  double count = countOver(x.getShape(), axes);
  HostTensor mean = divideBy(reduce(x, axes, Reduce::Sum), count);
  HostTensor centered = subF(x, mean);
  HostTensor sq = unaryFloat(centered, [](float v) { return v * v; });
  HostTensor var = divideBy(reduce(sq, axes, Reduce::Sum), count);
  HostTensor out(ElementKind::F32, x.getShape());
  ArrayRef<float> c = centered.values<float>(), v = var.values<float>(),
                  s = scale.values<float>(), b = bias.values<float>();
  auto dst = out.values<float>();
  forEachBroadcast(x.getShape(), {&centered, &var, &scale, &bias},
                   [&](int64_t i, ArrayRef<int64_t> off) {
                     float inv = rsqrtF(v[off[1]] + eps);
                     float n = c[off[0]] * inv;
                     dst[i] = n * s[off[2]] + b[off[3]];
                   });
  return out;
}

HostTensor batchNorm(ArrayRef<HostTensor> in, float eps) {
  const HostTensor &x = in[0];
  // Per-channel params [C] -> [C, 1, ..., 1], broadcast along axis 1.
  SmallVector<int64_t> paramShape(x.getRank() - 1, 1);
  paramShape[0] = x.getShape()[1];
  SmallVector<HostTensor> p;
  for (int i = 1; i < 5; ++i)
    p.push_back(withShape(in[i], paramShape));
  HostTensor out(ElementKind::F32, x.getShape());
  ArrayRef<float> xv = x.values<float>(), scale = p[0].values<float>(),
                  bias = p[1].values<float>(), mean = p[2].values<float>(),
                  var = p[3].values<float>();
  auto dst = out.values<float>();
  forEachBroadcast(x.getShape(), {&x, &p[0], &p[1], &p[2], &p[3]},
                   [&](int64_t i, ArrayRef<int64_t> off) {
                     float inv = rsqrtF(var[off[4]] + eps);
                     float n = (xv[off[0]] - mean[off[3]]) * inv;
                     dst[i] = n * scale[off[1]] + bias[off[2]];
                   });
  return out;
}

//===----------------------------------------------------------------------===//
// Contractions and windows
//===----------------------------------------------------------------------===//

HostTensor matmul(const HostTensor &a, const HostTensor &b,
                  ArrayRef<int64_t> outShape) {
  int64_t outRank = outShape.size();
  int64_t m = outShape[outRank - 2], n = outShape[outRank - 1];
  int64_t k = a.getShape().back();
  HostTensor out(a.getKind(), outShape);
  ArrayRef<int64_t> batch = outShape.drop_back(2);
  SmallVector<SmallVector<int64_t>> strides = {
      broadcastStrides(a.getShape().drop_back(2), batch),
      broadcastStrides(b.getShape().drop_back(2), batch)};
  dispatchNumeric(a.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto av = a.values<T>(), bv = b.values<T>();
    auto dst = out.values<T>();
    walk(batch, strides, {0, 0}, [&](int64_t bi, ArrayRef<int64_t> off) {
      const T *lhs = av.data() + off[0] * m * k;
      const T *rhs = bv.data() + off[1] * k * n;
      T *res = dst.data() + bi * m * n;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          T acc = 0;
          for (int64_t p = 0; p < k; ++p)
            acc = addS(acc, mulS(lhs[i * k + p], rhs[p * n + j]));
          res[i * n + j] = acc;
        }
    });
  });
  return out;
}

/// NCHW x OIHW with groups; taps in the padding read 0. T is the element
/// type, Acc the accumulator's (the sum is converted to T at the end).
template <typename T, typename Acc>
HostTensor convolve(const HostTensor &x, const HostTensor &w, const T *bias,
                    ArrayRef<int64_t> outShape, int64_t groups,
                    ArrayRef<int64_t> s, ArrayRef<int64_t> p,
                    ArrayRef<int64_t> d) {
  auto xs = x.getShape(), ws = w.getShape();
  int64_t batch = xs[0], channels = xs[1], h = xs[2], wd = xs[3];
  int64_t outC = ws[0], groupC = ws[1], kh = ws[2], kw = ws[3];
  int64_t oh = outShape[2], ow = outShape[3];
  int64_t groupO = outC / groups;
  auto xv = x.values<T>(), wv = w.values<T>();
  HostTensor out(x.getKind(), outShape);
  auto dst = out.values<T>();
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < outC; ++o) {
      int64_t g = o / groupO;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z) {
          Acc acc = bias ? Acc(bias[o]) : Acc(0);
          for (int64_t c = 0; c < groupC; ++c)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                // Padding is a real 0 in the kernel: 0 * inf is NaN there too.
                int64_t iy = y * s[0] + i * d[0] - p[0];
                int64_t iz = z * s[1] + j * d[1] - p[1];
                T v = 0;
                if (iy >= 0 && iy < h && iz >= 0 && iz < wd)
                  v = xv[((n * channels + g * groupC + c) * h + iy) * wd + iz];
                acc = acc +
                      Acc(v) * Acc(wv[((o * groupC + c) * kh + i) * kw + j]);
              }
          dst[((n * outC + o) * oh + y) * ow + z] = static_cast<T>(acc);
        }
    }
  return out;
}

HostTensor conv2d(Conv2DOp op, ArrayRef<HostTensor> in,
                  ArrayRef<int64_t> outShape) {
  const float *bias = in.size() > 2 ? in[2].values<float>().data() : nullptr;
  return convolve<float, float>(in[0], in[1], bias, outShape, op.getGroups(),
                                op.getStrides(), op.getPads(),
                                op.getDilations());
}

HostTensor conv2dCentered(const HostTensor &x, const HostTensor &w,
                          ArrayRef<int64_t> outShape, int64_t groups,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                          ArrayRef<int64_t> dilations) {
  // Modulo 2^32 in the end, as the wrapping i32 sums of the kernel.
  return convolve<int32_t, int64_t>(x, w, nullptr, outShape, groups, strides,
                                    pads, dilations);
}

/// windowReduce over a virtually padded input: max with -inf padding, or sum
/// with 0 padding.
HostTensor pool(const HostTensor &x, ArrayRef<int64_t> outShape,
                ArrayRef<int64_t> k, ArrayRef<int64_t> s, ArrayRef<int64_t> p,
                ArrayRef<int64_t> d, bool isMax) {
  auto xs = x.getShape();
  int64_t h = xs[2], w = xs[3], oh = outShape[2], ow = outShape[3];
  const float pad = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
  auto xv = x.values<float>();
  HostTensor out(ElementKind::F32, outShape);
  auto dst = out.values<float>();
  for (int64_t nc = 0; nc < xs[0] * xs[1]; ++nc)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t z = 0; z < ow; ++z) {
        float acc = pad;
        for (int64_t i = 0; i < k[0]; ++i)
          for (int64_t j = 0; j < k[1]; ++j) {
            int64_t iy = y * s[0] + i * d[0] - p[0];
            int64_t iz = z * s[1] + j * d[1] - p[1];
            float v = pad;
            if (iy >= 0 && iy < h && iz >= 0 && iz < w)
              v = xv[(nc * h + iy) * w + iz];
            acc = isMax ? maxS(acc, v) : acc + v;
          }
        dst[(nc * oh + y) * ow + z] = acc;
      }
  return out;
}

HostTensor avgPool(AvgPool2DOp op, const HostTensor &x,
                   ArrayRef<int64_t> outShape) {
  auto k = op.getKernel(), s = op.getStrides(), p = op.getPads();
  int64_t ones[] = {1, 1};
  HostTensor sums = pool(x, outShape, k, s, p, ones, /*isMax=*/false);
  if (op.getCountIncludePad())
    return divideBy(sums, double(k[0] * k[1]));
  // Divide by the number of real elements under each window.
  auto xs = x.getShape();
  auto extent = [](int64_t o, int64_t stride, int64_t pad, int64_t kernel,
                   int64_t size) {
    int64_t start = o * stride - pad;
    return std::min(start + kernel, size) - std::max<int64_t>(start, 0);
  };
  auto dst = sums.values<float>();
  int64_t oh = outShape[2], ow = outShape[3];
  for (int64_t nc = 0; nc < outShape[0] * outShape[1]; ++nc)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t z = 0; z < ow; ++z) {
        int64_t count = extent(y, s[0], p[0], k[0], xs[2]) *
                        extent(z, s[1], p[1], k[1], xs[3]);
        float &v = dst[(nc * oh + y) * ow + z];
        v = v / static_cast<float>(count);
      }
  return sums;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

HostTensor transpose(const HostTensor &x, ArrayRef<int64_t> perm,
                     ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  transposeBytes(x.getBytes(), x.getShape(), perm, getElementSize(x.getKind()),
                 out.getMutableBytes());
  return out;
}

HostTensor slice(SliceOp op, const HostTensor &x, ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  SmallVector<int64_t> inStrides = rowMajorStrides(x.getShape());
  SmallVector<SmallVector<int64_t>> strides(1);
  int64_t base = 0;
  for (int64_t d = 0; d < x.getRank(); ++d) {
    strides[0].push_back(op.getSteps()[d] * inStrides[d]);
    base += op.getStarts()[d] * inStrides[d];
  }
  dispatchAll(x.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = x.values<T>();
    auto dst = out.values<T>();
    walk(outShape, strides, {base},
         [&](int64_t i, ArrayRef<int64_t> off) { dst[i] = src[off[0]]; });
  });
  return out;
}

HostTensor concat(ArrayRef<HostTensor> in, int64_t axis,
                  ArrayRef<int64_t> outShape) {
  HostTensor out(in[0].getKind(), outShape);
  int64_t es = getElementSize(out.getKind());
  int64_t outer = product(outShape.take_front(axis));
  int64_t inner = product(outShape.drop_front(axis + 1)) * es;
  char *dst = out.getMutableBytes().data();
  int64_t offset = 0;
  for (const HostTensor &t : in) {
    int64_t chunk = t.getShape()[axis] * inner;
    const char *src = t.getBytes().data();
    for (int64_t o = 0; o < outer && chunk; ++o)
      std::memcpy(dst + (o * outShape[axis] * inner) + offset, src + o * chunk,
                  chunk);
    offset += chunk;
  }
  return out;
}

/// Element j of an index tensor as gather ops read it (clampedIndex):
/// negative indices wrap once; the rest is clamped into [0, size).
int64_t clampedIndex(const HostTensor &indices, int64_t j, int64_t size) {
  int64_t v = indices.getKind() == ElementKind::I64
                  ? indices.values<int64_t>()[j]
                  : indices.values<int32_t>()[j];
  if (v < 0)
    v += size;
  return std::min(std::max<int64_t>(v, 0), size - 1);
}

HostTensor gather(const HostTensor &data, const HostTensor &indices,
                  int64_t axis, ArrayRef<int64_t> outShape) {
  HostTensor out(data.getKind(), outShape);
  auto ds = data.getShape();
  int64_t es = getElementSize(data.getKind());
  int64_t outer = product(ds.take_front(axis)), axisSize = ds[axis];
  int64_t inner = product(ds.drop_front(axis + 1)) * es;
  int64_t count = indices.getNumElements();
  auto index = [&](int64_t j) { return clampedIndex(indices, j, axisSize); };
  const char *src = data.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < count; ++j)
      if (inner)
        std::memcpy(dst + (o * count + j) * inner,
                    src + (o * axisSize + index(j)) * inner, inner);
  return out;
}

/// out[i][j][k] = data[clampedIndex(indices[i][j][k])][j][k] (axis 0).
HostTensor gatherElements(const HostTensor &data, const HostTensor &indices,
                          int64_t axis) {
  HostTensor out(data.getKind(), indices.getShape());
  SmallVector<int64_t> dataStrides = rowMajorStrides(data.getShape());
  int64_t axisSize = data.getShape()[axis];
  // Offsets of data[i][j][k] with the axis coordinate left at 0.
  SmallVector<SmallVector<int64_t>> strides = {dataStrides};
  strides[0][axis] = 0;
  dispatchAll(data.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = data.values<T>();
    auto dst = out.values<T>();
    walk(indices.getShape(), strides, {0},
         [&](int64_t i, ArrayRef<int64_t> off) {
           dst[i] = src[off[0] +
                        clampedIndex(indices, i, axisSize) * dataStrides[axis]];
         });
  });
  return out;
}

HostTensor pad(PadOp op, const HostTensor &x, ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  int64_t rank = x.getRank();
  auto pads = op.getPads();
  double value = op.getValue().convertToDouble();
  SmallVector<int64_t> outStrides = rowMajorStrides(outShape);
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d)
    base += pads[d] * outStrides[d];
  SmallVector<SmallVector<int64_t>> strides = {outStrides};
  dispatchAll(x.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // scalarConstant: the value as f32, or as an integer of the width.
    T fill;
    if constexpr (kIsFloat<T>)
      fill = static_cast<float>(value);
    else if constexpr (std::is_same_v<T, uint8_t>)
      fill = x.getKind() == ElementKind::I1
                 ? value != 0
                 : static_cast<uint8_t>(static_cast<int64_t>(value));
    else
      fill = static_cast<T>(static_cast<int64_t>(value));
    auto dst = out.values<T>();
    std::fill(dst.begin(), dst.end(), fill);
    auto src = x.values<T>();
    walk(x.getShape(), strides, {base},
         [&](int64_t i, ArrayRef<int64_t> off) { dst[off[0]] = src[i]; });
  });
  return out;
}

HostTensor broadcastTo(const HostTensor &x, ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  dispatchAll(x.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = x.values<T>();
    auto dst = out.values<T>();
    forEachBroadcast(outShape, {&x}, [&](int64_t i, ArrayRef<int64_t> off) {
      dst[i] = src[off[0]];
    });
  });
  return out;
}

HostTensor select(ArrayRef<HostTensor> in, ArrayRef<int64_t> outShape) {
  HostTensor out(in[1].getKind(), outShape);
  auto cond = in[0].values<uint8_t>();
  dispatchAll(out.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto a = in[1].values<T>(), b = in[2].values<T>();
    auto dst = out.values<T>();
    forEachBroadcast(outShape, {&in[0], &in[1], &in[2]},
                     [&](int64_t i, ArrayRef<int64_t> off) {
                       dst[i] = cond[off[0]] ? a[off[1]] : b[off[2]];
                     });
  });
  return out;
}

/// A cast to 8 bits keeps the low bits of the value as an i32 (floats
/// convert to i32 first), as the lowering does; bools are 0 or 1.
template <typename To, typename From> To lowBits(From v) {
  if constexpr (kIsFloat<From>)
    return static_cast<To>(floatToInt<int32_t>(v));
  else
    return static_cast<To>(v);
}

template <typename To>
HostTensor castTo8Bit(const HostTensor &x, ElementKind to) {
  return dispatchAll(x.getKind(), [&](auto fromTag) {
    using From = typename decltype(fromTag)::type;
    return mapUnary<To, From>(x, to,
                              [](From v) { return lowBits<To, From>(v); });
  });
}

HostTensor cast(const HostTensor &x, ElementKind to) {
  if (to == ElementKind::I8)
    return castTo8Bit<int8_t>(x, to);
  if (to == ElementKind::U8)
    return castTo8Bit<uint8_t>(x, to);
  return dispatchAll(x.getKind(), [&](auto fromTag) {
    using From = typename decltype(fromTag)::type;
    return dispatchAll(to, [&](auto toTag) {
      using To = typename decltype(toTag)::type;
      return mapUnary<To, From>(x, to,
                                [](From v) { return convertS<To, From>(v); });
    });
  });
}

} // namespace mlc::graph::detail

namespace {

using llvm::ArrayRef;
using llvm::MutableArrayRef;
using llvm::SmallVector;

using namespace mlc::graph::detail;

template <typename T>
void transposeTyped(const T *src, ArrayRef<int64_t> inShape,
                    ArrayRef<int64_t> perm, T *dst) {
  int64_t rank = perm.size();
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  SmallVector<int64_t> inStrides = rowMajorStrides(inShape);
  SmallVector<int64_t> outShape, srcStrides;
  for (int64_t p : perm) {
    outShape.push_back(inShape[p]);
    srcStrides.push_back(inStrides[p]);
  }
  SmallVector<int64_t> dstStrides = rowMajorStrides(outShape);
  int64_t last = rank - 1;
  int64_t j = llvm::find(perm, last) - perm.begin();
  SmallVector<int64_t> space(outShape);
  SmallVector<SmallVector<int64_t>> strides = {srcStrides, dstStrides};
  space[last] = 1;
  if (j == last) {
    // The innermost dim stays innermost: whole rows.
    int64_t n = outShape[last];
    walk(space, strides, {0, 0}, [&](int64_t, ArrayRef<int64_t> off) {
      std::copy_n(src + off[0], n, dst + off[1]);
    });
    return;
  }
  // Output dim j reads the input's rows: tiles of j x last keep both the
  // reads and the writes in cache (a weight's transpose at memory speed).
  constexpr int64_t kTile = 32;
  space[j] = 1;
  int64_t nj = outShape[j], nl = outShape[last];
  int64_t srcL = srcStrides[last], dstJ = dstStrides[j];
  walk(space, strides, {0, 0}, [&](int64_t, ArrayRef<int64_t> off) {
    for (int64_t j0 = 0; j0 < nj; j0 += kTile)
      for (int64_t l0 = 0; l0 < nl; l0 += kTile) {
        int64_t je = std::min(nj, j0 + kTile), le = std::min(nl, l0 + kTile);
        for (int64_t jj = j0; jj < je; ++jj) {
          const T *in = src + off[0] + jj;
          T *o = dst + off[1] + jj * dstJ;
          for (int64_t ll = l0; ll < le; ++ll)
            o[ll] = in[ll * srcL];
        }
      }
  });
}

} // namespace

void mlc::graph::transposeBytes(ArrayRef<char> src, ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> perm, int64_t elementSize,
                                MutableArrayRef<char> dst) {
  assert(src.size() == dst.size() && "transpose keeps the size");
  auto run = [&](auto tag) {
    using T = decltype(tag);
    transposeTyped(reinterpret_cast<const T *>(src.data()), shape, perm,
                   reinterpret_cast<T *>(dst.data()));
  };
  switch (elementSize) {
  case 1:
    return run(uint8_t());
  case 2:
    return run(uint16_t());
  case 4:
    return run(uint32_t());
  case 8:
    return run(uint64_t());
  }
  llvm_unreachable("unsupported element size");
}
