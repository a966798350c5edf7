//===- ONNXNN.cpp - ONNX converters: NN
//-------------------------------------===//
//
// The converters for contractions, windows, normalization, reductions and
// losses, and their rows of the converter table (getONNXConverters,
// docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"
#include "mlc/Dialect/Graph/VJPUtils.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult convertMatMul(N &n) {
  Value a = n.input(0), b = n.input(1);
  int64_t ra = N::rankOf(a), rb = N::rankOf(b);
  if (ra == 0 || rb == 0)
    return n.unsupported("scalar operands");
  // numpy: a vector operand gets a unit dimension that is dropped again.
  SmallVector<int64_t> sa(N::shapeOf(a)), sb(N::shapeOf(b));
  if (ra == 1)
    sa.insert(sa.begin(), 1);
  if (rb == 1)
    sb.push_back(1);
  MLC_TRY(a2, reshape(n, a, sa));
  MLC_TRY(b2, reshape(n, b, sb));
  MLC_TRY(p, binary(n, "matmul", a2, b2));
  SmallVector<int64_t> shape(N::shapeOf(p));
  if (rb == 1)
    shape.pop_back();
  if (ra == 1)
    shape.erase(shape.end() - (rb == 1 ? 1 : 2));
  return out(n, reshape(n, p, shape));
}

LogicalResult convertGemm(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  MLC_TRY(beta, n.getFloat("beta", 1.0f));
  MLC_TRY(transA, n.getInt("transA", 0));
  MLC_TRY(transB, n.getInt("transB", 0));
  if (n.opset < 7 && n.hasAttr("broadcast"))
    return n.unsupported("attribute 'broadcast'");
  Value a = n.input(0), b = n.input(1);
  if (N::rankOf(a) != 2 || N::rankOf(b) != 2)
    return n.error() << "A and B must be matrices", failure();
  if (transA) {
    MLC_TRY(t, transpose(n, a, {1, 0}));
    a = t;
  }
  if (transB) {
    MLC_TRY(t, transpose(n, b, {1, 0}));
    b = t;
  }
  MLC_TRY(ab, binary(n, "matmul", a, b));
  MLC_TRY(y, scale(n, ab, alpha));
  if (!n.hasInput(2) || beta == 0.0f)
    return out(n, y);
  MLC_TRY(c, scale(n, n.input(2), beta));
  return out(n, binary(n, "add", y, c));
}

/// Explicit begin/end pads for one spatial axis under ONNX auto_pad.
struct AxisPads {
  int64_t begin, end;
};

FailureOr<SmallVector<AxisPads>> spatialPads(N &n, ArrayRef<int64_t> in,
                                             ArrayRef<int64_t> kernel,
                                             ArrayRef<int64_t> strides,
                                             ArrayRef<int64_t> dilations) {
  size_t d = in.size();
  MLC_TRY(autoPad, n.getString("auto_pad", std::string("NOTSET")));
  MLC_TRY(pads, n.getInts("pads", SmallVector<int64_t>(2 * d, 0)));
  if (pads.size() != 2 * d)
    return n.error() << "pads has " << pads.size() << " entries, expected "
                     << 2 * d,
           failure();
  SmallVector<AxisPads> out;
  for (size_t i = 0; i < d; ++i) {
    if (autoPad == "NOTSET") {
      out.push_back({pads[i], pads[i + d]});
      if (pads[i] < 0 || pads[i + d] < 0)
        return n.unsupported("negative pads");
    } else if (autoPad == "VALID") {
      out.push_back({0, 0});
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t outSize = (in[i] + strides[i] - 1) / strides[i];
      int64_t total =
          std::max<int64_t>(0, (outSize - 1) * strides[i] +
                                   (kernel[i] - 1) * dilations[i] + 1 - in[i]);
      int64_t small = total / 2, big = total - small;
      out.push_back(autoPad == "SAME_UPPER" ? AxisPads{small, big}
                                            : AxisPads{big, small});
    } else {
      return n.unsupported("auto_pad '" + autoPad + "'");
    }
  }
  return out;
}

/// Reads kernel_shape (or the filter's), strides and dilations for `d`
/// spatial dims.
struct WindowAttrs {
  SmallVector<int64_t> kernel, strides, dilations;
};
FailureOr<WindowAttrs> windowAttrs(N &n, size_t d,
                                   std::optional<SmallVector<int64_t>> kernel) {
  WindowAttrs w;
  MLC_TRY(k, n.getInts("kernel_shape", kernel));
  MLC_TRY(s, n.getInts("strides", SmallVector<int64_t>(d, 1)));
  MLC_TRY(dl, n.getInts("dilations", SmallVector<int64_t>(d, 1)));
  if (k.size() != d || s.size() != d || dl.size() != d)
    return n.error() << "kernel_shape, strides and dilations must have " << d
                     << " entries",
           failure();
  for (size_t i = 0; i < d; ++i)
    if (k[i] <= 0 || s[i] <= 0 || dl[i] <= 0)
      return n.error() << "kernel_shape, strides and dilations must be "
                          "positive",
             failure();
  w.kernel = k;
  w.strides = s;
  w.dilations = dl;
  return w;
}

/// Lifts a 1-D NC[W] window op to 2-D NC1W; returns the new input.
FailureOr<Value> liftTo2D(N &n, Value x) {
  ArrayRef<int64_t> s = N::shapeOf(x);
  return reshape(n, x, {s[0], s[1], 1, s[2]});
}

LogicalResult convertConv(N &n) {
  Value x = n.input(0), w = n.input(1), bias = n.input(2);
  int64_t rank = N::rankOf(x);
  if (rank != 3 && rank != 4)
    return n.unsupported(Twine(rank - 2) + "-D convolution");
  if (N::rankOf(w) != rank)
    return n.error() << "filter rank " << N::rankOf(w)
                     << " does not match input rank " << rank,
           failure();
  size_t d = rank - 2;
  SmallVector<int64_t> wk(N::shapeOf(w).drop_front(2));
  MLC_TRY(win, windowAttrs(n, d, wk));
  if (win.kernel != wk)
    return n.error() << "kernel_shape does not match the filter", failure();
  MLC_TRY(group, n.getInt("group", 1));
  MLC_TRY(pads, spatialPads(n, N::shapeOf(x).drop_front(2), win.kernel,
                            win.strides, win.dilations));
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, x));
    MLC_TRY(w2, liftTo2D(n, w));
    x = x2;
    w = w2;
    win.strides.insert(win.strides.begin(), 1);
    win.dilations.insert(win.dilations.begin(), 1);
    pads.insert(pads.begin(), {0, 0});
  }
  SmallVector<Value> operands = {x, w};
  if (bias)
    operands.push_back(bias);
  MLC_TRY(y, n.emit("conv2d", operands,
                    {n.arrayAttr("strides", win.strides),
                     n.arrayAttr("pads", {pads[0].begin, pads[1].begin,
                                          pads[0].end, pads[1].end}),
                     n.arrayAttr("dilations", win.dilations),
                     n.i64Attr("groups", group)}));
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return out(n, reshape(n, y, {s[0], s[1], s[3]}));
  }
  return out(n, y);
}

LogicalResult convertConvTranspose(N &n) {
  Value x = n.input(0), w = n.input(1), bias = n.input(2);
  int64_t rank = N::rankOf(x);
  if (rank != 3 && rank != 4)
    return n.unsupported(Twine(rank - 2) + "-D transposed convolution");
  size_t d = rank - 2;
  SmallVector<int64_t> wk(N::shapeOf(w).drop_front(2));
  MLC_TRY(win, windowAttrs(n, d, wk));
  MLC_TRY(group, n.getInt("group", 1));
  MLC_TRY(outPad, n.getInts("output_padding", SmallVector<int64_t>(d, 0)));
  MLC_TRY(autoPad, n.getString("auto_pad", std::string("NOTSET")));
  MLC_TRY(pads, n.getInts("pads", SmallVector<int64_t>(2 * d, 0)));
  if (outPad.size() != d || pads.size() != 2 * d)
    return n.error() << "output_padding/pads have the wrong length", failure();
  ArrayRef<int64_t> in = N::shapeOf(x).drop_front(2);
  SmallVector<int64_t> keff(d);
  for (size_t i = 0; i < d; ++i)
    keff[i] = (win.kernel[i] - 1) * win.dilations[i] + 1;
  SmallVector<AxisPads> p(d);
  std::optional<SmallVector<int64_t>> outShape;
  if (n.hasAttr("output_shape")) {
    MLC_TRY(os, n.getInts("output_shape"));
    if (os.size() == size_t(rank))
      os.erase(os.begin(), os.begin() + 2);
    if (os.size() != d)
      return n.error() << "output_shape must have " << d << " entries",
             failure();
    outShape = os;
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    outShape = SmallVector<int64_t>();
    for (size_t i = 0; i < d; ++i)
      outShape->push_back(in[i] * win.strides[i]);
  }
  for (size_t i = 0; i < d; ++i) {
    if (outShape) {
      int64_t total =
          win.strides[i] * (in[i] - 1) + outPad[i] + keff[i] - (*outShape)[i];
      // Floor division, so a negative total extends the end.
      int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      p[i] = autoPad == "SAME_UPPER" ? AxisPads{half, total - half}
                                     : AxisPads{total - half, half};
    } else if (autoPad == "NOTSET" || autoPad == "VALID") {
      p[i] =
          autoPad == "VALID" ? AxisPads{0, 0} : AxisPads{pads[i], pads[i + d]};
    } else {
      return n.unsupported("auto_pad '" + autoPad + "'");
    }
  }
  // graph::buildConvTranspose2D builds it (shared with conv2d's gradient):
  // the full result, (in - 1) * stride + keff long, loses pads.begin at the
  // start and pads.end - output_padding at the end. Shapes it cannot take
  // are reported here, since its ops infer their types without a node to
  // blame.
  ArrayRef<int64_t> ws = N::shapeOf(w);
  if (N::rankOf(w) != rank || win.kernel != wk)
    return n.error() << "the filter must have rank " << rank
                     << " and match kernel_shape",
           failure();
  if (group <= 0)
    return n.error() << "group must be positive", failure();
  int64_t c = ws[0], mg = ws[1];
  if (c % group)
    return n.error() << "filter channels " << c << " not divisible by group "
                     << group,
           failure();
  if (N::shapeOf(x)[1] != c)
    return n.error() << "input has " << N::shapeOf(x)[1]
                     << " channels but the filter expects " << c,
           failure();
  if (!isa<FloatType>(N::elementTypeOf(x)) ||
      N::elementTypeOf(w) != N::elementTypeOf(x) ||
      (bias && N::elementTypeOf(bias) != N::elementTypeOf(x)))
    return n.error() << "input, filter and bias must have the same float "
                        "element type",
           failure();
  if (bias && (N::rankOf(bias) != 1 || N::shapeOf(bias)[0] != group * mg))
    return n.error() << "bias must have shape [" << group * mg << "]",
           failure();
  SmallVector<int64_t> strides(win.strides), dilations(win.dilations),
      cropBegin, cropEnd;
  for (size_t i = 0; i < d; ++i) {
    int64_t cb = p[i].begin, ce = p[i].end - outPad[i];
    if ((in[i] - 1) * win.strides[i] + keff[i] - cb - ce <= 0)
      return n.unsupported("padding that removes the whole output");
    // Crops beyond the kernel's reach cut into the zero-dilated input.
    int64_t cutBegin = std::max<int64_t>(0, cb - (keff[i] - 1));
    int64_t cutEnd =
        std::max<int64_t>(0, ce - (keff[i] - 1) + win.strides[i] - 1);
    if (cutBegin + cutEnd >= in[i] * win.strides[i])
      return n.unsupported("padding that removes the whole input");
    cropBegin.push_back(cb);
    cropEnd.push_back(ce);
  }
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, x));
    MLC_TRY(w2, liftTo2D(n, w));
    x = x2;
    w = w2;
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    cropBegin.insert(cropBegin.begin(), 0);
    cropEnd.insert(cropEnd.begin(), 0);
  }
  Value y = graph::buildConvTranspose2D(n.b, n.loc, x, w, bias, strides,
                                        dilations, group, cropBegin, cropEnd);
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return out(n, reshape(n, y, {s[0], s[1], s[3]}));
  }
  return out(n, y);
}

//===----------------------------------------------------------------------===//
// Pooling and normalization
//===----------------------------------------------------------------------===//

LogicalResult convertPool(N &n, bool isMax) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  if (rank != 3 && rank != 4)
    return n.unsupported(Twine(rank - 2) + "-D pooling");
  if (n.wantsOutput(1))
    return n.unsupported("Indices output");
  size_t d = rank - 2;
  MLC_TRY(win, windowAttrs(n, d, std::nullopt));
  MLC_TRY(ceilMode, n.getInt("ceil_mode", 0));
  MLC_TRY(storage, n.getInt("storage_order", 0));
  (void)storage; // only affects the Indices output
  MLC_TRY(cip, n.getInt("count_include_pad", 0));
  if (!isMax && llvm::any_of(win.dilations, [](int64_t v) { return v != 1; }))
    return n.unsupported("dilations in average pooling");
  ArrayRef<int64_t> in = N::shapeOf(x).drop_front(2);
  MLC_TRY(pads, spatialPads(n, in, win.kernel, win.strides, win.dilations));
  if (ceilMode) {
    for (size_t i = 0; i < d; ++i) {
      int64_t keff = (win.kernel[i] - 1) * win.dilations[i] + 1;
      int64_t span = in[i] + pads[i].begin + pads[i].end - keff;
      int64_t outCeil = (span + win.strides[i] - 1) / win.strides[i] + 1;
      // The last window must start inside the input or the begin padding.
      if ((outCeil - 1) * win.strides[i] >= in[i] + pads[i].begin)
        --outCeil;
      int64_t extra = (outCeil - 1) * win.strides[i] + keff - span - keff;
      if (extra > 0) {
        if (!isMax && cip)
          return n.unsupported("ceil_mode with count_include_pad");
        pads[i].end += extra;
      }
    }
  }
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, x));
    x = x2;
    win.kernel.insert(win.kernel.begin(), 1);
    win.strides.insert(win.strides.begin(), 1);
    win.dilations.insert(win.dilations.begin(), 1);
    pads.insert(pads.begin(), {0, 0});
  }
  SmallVector<NamedAttribute> attrs = {
      n.arrayAttr("kernel", win.kernel), n.arrayAttr("strides", win.strides),
      n.arrayAttr("pads",
                  {pads[0].begin, pads[1].begin, pads[0].end, pads[1].end})};
  if (isMax)
    attrs.push_back(n.arrayAttr("dilations", win.dilations));
  else
    attrs.push_back(n.boolAttr("count_include_pad", cip != 0));
  MLC_TRY(y, n.emit(isMax ? "maxpool2d" : "avgpool2d", {x}, attrs));
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return out(n, reshape(n, y, {s[0], s[1], s[3]}));
  }
  return out(n, y);
}
LogicalResult convertMaxPool(N &n) { return convertPool(n, true); }
LogicalResult convertAveragePool(N &n) { return convertPool(n, false); }

LogicalResult convertGlobalPool(N &n, bool isMax) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  if (rank < 3)
    return n.error() << "input must have spatial dimensions", failure();
  if (!isMax && rank == 4)
    return out(n, n.emit("global_avgpool", {x}));
  return out(n, reduce(n, isMax ? "reduce_max" : "reduce_mean", x,
                       iota(rank - 2, 2), true));
}
LogicalResult convertGlobalAveragePool(N &n) {
  return convertGlobalPool(n, false);
}
LogicalResult convertGlobalMaxPool(N &n) { return convertGlobalPool(n, true); }

/// [C] -> [1, C, 1, ...] for broadcasting against NC... tensors.
FailureOr<Value> channelVector(N &n, Value v, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[1] = N::shapeOf(v)[0];
  return reshape(n, v, shape);
}

/// Training-mode batch normalization (opset >= 14): batch statistics
/// normalize, and the running statistics are updated with `momentum`.
LogicalResult batchNormTraining(N &n, float eps) {
  MLC_TRY(momentum, n.getFloat("momentum", 0.9f));
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  SmallVector<int64_t> axes = {0};
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  MLC_TRY(mean, reduce(n, "reduce_mean", x, axes, true));
  MLC_TRY(dx, binary(n, "sub", x, mean));
  MLC_TRY(sq, binary(n, "mul", dx, dx));
  MLC_TRY(var, reduce(n, "reduce_mean", sq, axes, true));
  MLC_TRY(ve, addScalar(n, var, eps));
  MLC_TRY(inv, unary(n, "rsqrt", ve));
  MLC_TRY(norm, binary(n, "mul", dx, inv));
  MLC_TRY(sc, channelVector(n, n.input(1), rank));
  MLC_TRY(bi, channelVector(n, n.input(2), rank));
  MLC_TRY(ys, binary(n, "mul", norm, sc));
  MLC_TRY(y, binary(n, "add", ys, bi));
  n.setOutput(0, y);
  // running = input * momentum + batch * (1 - momentum), per channel.
  int64_t c = N::shapeOf(x)[1];
  for (unsigned i = 1; i <= 2; ++i) {
    if (!n.wantsOutput(i))
      continue;
    MLC_TRY(batch, reshape(n, i == 1 ? mean : var, {c}));
    MLC_TRY(old, scale(n, n.input(2 + i), momentum));
    MLC_TRY(cur, scale(n, batch, 1.0 - momentum));
    MLC_TRY(upd, binary(n, "add", old, cur));
    n.setOutput(i, upd);
  }
  return success();
}

LogicalResult convertBatchNorm(N &n) {
  MLC_TRY(eps, n.getFloat("epsilon", 1e-5f));
  MLC_TRY(training, n.getInt("training_mode", 0));
  MLC_TRY(spatial, n.getInt("spatial", 1));
  if (!spatial)
    return n.unsupported("spatial=0");
  if (training) {
    if (n.opset < 14)
      return n.unsupported("training mode before opset 14");
    return batchNormTraining(n, eps);
  }
  bool extraOutputs =
      llvm::any_of(llvm::seq<unsigned>(1, std::max(1u, n.numOutputs())),
                   [&](unsigned i) { return n.wantsOutput(i); });
  if (extraOutputs)
    return n.unsupported(n.opset < 14 ? "training outputs (batch statistics)"
                                      : "running statistics outputs without "
                                        "training_mode");
  return out(
      n, n.emit("batch_norm",
                {n.input(0), n.input(1), n.input(2), n.input(3), n.input(4)},
                {n.attr("epsilon", n.b.getF32FloatAttr(eps))}));
}

/// (x - mean) * rsqrt(var + eps) over `axes`, keepdims statistics.
struct Normalized {
  Value y, mean, invStd;
};
FailureOr<Normalized> normalize(N &n, Value x, ArrayRef<int64_t> axes,
                                double eps) {
  MLC_TRY(mean, reduce(n, "reduce_mean", x, axes, true));
  MLC_TRY(dx, binary(n, "sub", x, mean));
  MLC_TRY(sq, binary(n, "mul", dx, dx));
  MLC_TRY(var, reduce(n, "reduce_mean", sq, axes, true));
  MLC_TRY(ve, addScalar(n, var, eps));
  MLC_TRY(inv, unary(n, "rsqrt", ve));
  MLC_TRY(y, binary(n, "mul", dx, inv));
  return Normalized{y, mean, inv};
}

LogicalResult convertInstanceNorm(N &n) {
  MLC_TRY(eps, n.getFloat("epsilon", 1e-5f));
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  if (rank < 3)
    return n.error() << "input must have spatial dimensions", failure();
  MLC_TRY(norm, normalize(n, x, iota(rank - 2, 2), eps));
  MLC_TRY(s, channelVector(n, n.input(1), rank));
  MLC_TRY(bv, channelVector(n, n.input(2), rank));
  MLC_TRY(ys, binary(n, "mul", norm.y, s));
  return out(n, binary(n, "add", ys, bv));
}

LogicalResult convertLayerNorm(N &n) {
  MLC_TRY(axisAttr, n.getInt("axis", -1));
  MLC_TRY(eps, n.getFloat("epsilon", 1e-5f));
  MLC_TRY(stash, n.getInt("stash_type", 1));
  (void)stash; // statistics are computed in the input type (float32)
  Value x = n.input(0), scaleV = n.input(1), bias = n.input(2);
  int64_t rank = N::rankOf(x);
  MLC_TRY(axis, n.normalizeAxis(axisAttr, rank));
  ArrayRef<int64_t> normShape = N::shapeOf(x).drop_front(axis);
  bool onlyY = !n.wantsOutput(1) && !n.wantsOutput(2);
  if (onlyY && N::shapeOf(scaleV) == normShape &&
      (!bias || N::shapeOf(bias) == normShape)) {
    Value b = bias ? bias
                   : n.constant(cast<RankedTensorType>(scaleV.getType()),
                                SmallVector<double>(product(normShape), 0));
    return out(n, n.emit("layer_norm", {x, scaleV, b},
                         {n.i64Attr("axis", axis),
                          n.attr("epsilon", n.b.getF32FloatAttr(eps))}));
  }
  MLC_TRY(norm, normalize(n, x, iota(rank - axis, axis), eps));
  MLC_TRY(ys, binary(n, "mul", norm.y, scaleV));
  Value y = ys;
  if (bias) {
    MLC_TRY(yb, binary(n, "add", y, bias));
    y = yb;
  }
  n.setOutput(0, y);
  if (n.wantsOutput(1))
    n.setOutput(1, norm.mean);
  if (n.wantsOutput(2))
    n.setOutput(2, norm.invStd);
  return success();
}

LogicalResult convertMVN(N &n) {
  MLC_TRY(axesAttr, n.getInts("axes", SmallVector<int64_t>{0, 2, 3}));
  Value x = n.input(0);
  MLC_TRY(axes, normalizeAxes(n, axesAttr, N::rankOf(x)));
  // ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
  MLC_TRY(mean, reduce(n, "reduce_mean", x, axes, true));
  MLC_TRY(mean2, binary(n, "mul", mean, mean));
  MLC_TRY(sq, binary(n, "mul", x, x));
  MLC_TRY(msq, reduce(n, "reduce_mean", sq, axes, true));
  MLC_TRY(var, binary(n, "sub", msq, mean2));
  MLC_TRY(sd, unary(n, "sqrt", var));
  MLC_TRY(sde, addScalar(n, sd, 1e-9));
  MLC_TRY(dx, binary(n, "sub", x, mean));
  return out(n, binary(n, "div", dx, sde));
}

LogicalResult convertLRN(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1e-4f));
  MLC_TRY(beta, n.getFloat("beta", 0.75f));
  MLC_TRY(bias, n.getFloat("bias", 1.0f));
  MLC_TRY(size, n.getInt("size"));
  Value x = n.input(0);
  SmallVector<int64_t> shape(N::shapeOf(x));
  if (shape.size() < 3)
    return n.error() << "input must be N x C x ...", failure();
  // Sum of squares over a channel window = size * avg-pool (padding
  // included) of x^2 viewed as [N, 1, C, rest].
  MLC_TRY(sq, binary(n, "mul", x, x));
  int64_t rest = product(ArrayRef<int64_t>(shape).drop_front(2));
  MLC_TRY(v, reshape(n, sq, {shape[0], 1, shape[1], rest}));
  int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  MLC_TRY(avg, n.emit("avgpool2d", {v},
                      {n.arrayAttr("kernel", {size, 1}),
                       n.arrayAttr("strides", {1, 1}),
                       n.arrayAttr("pads", {lo, 0, hi, 0}),
                       n.boolAttr("count_include_pad", true)}));
  MLC_TRY(sum, reshape(n, avg, shape));
  // bias + alpha / size * sum = bias + alpha * avg
  MLC_TRY(scaled, scale(n, sum, alpha));
  MLC_TRY(base, addScalar(n, scaled, bias));
  MLC_TRY(den, binary(n, "pow", base, n.scalarLike(x, beta)));
  return out(n, binary(n, "div", x, den));
}

/// Softmax-like ops: opset >= 13 along one axis; before, on the input
/// flattened to 2-D at `axis` (default 1).
LogicalResult convertSoftmaxLike(N &n, StringRef op) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(axisAttr, n.getInt("axis", n.opset >= 13 ? -1 : 1));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, rank));
  auto apply = [&](Value v, int64_t ax) -> FailureOr<Value> {
    if (op != "hardmax")
      return n.emit(op, {v}, {n.i64Attr("axis", ax)});
    // One-hot of the first maximum along ax.
    MLC_TRY(am, n.emit("argmax", {v},
                       {n.i64Attr("axis", ax), n.boolAttr("keepdims", true),
                        n.boolAttr("select_last_index", false)}));
    int64_t len = N::shapeOf(v)[ax];
    SmallVector<int64_t> ishape(N::rankOf(v), 1);
    ishape[ax] = len;
    Value idx = n.i64Constant(iota(len), ishape);
    MLC_TRY(eq, compare(n, "eq", am, idx));
    return castTo(n, eq, N::elementTypeOf(v));
  };
  if (n.opset >= 13)
    return out(n, apply(x, axis));
  ArrayRef<int64_t> s = N::shapeOf(x);
  MLC_TRY(flat,
          reshape(n, x,
                  {product(s.take_front(axis)), product(s.drop_front(axis))}));
  MLC_TRY(y, apply(flat, 1));
  return out(n, reshape(n, y, s));
}
LogicalResult convertSoftmax(N &n) { return convertSoftmaxLike(n, "softmax"); }
LogicalResult convertLogSoftmax(N &n) {
  return convertSoftmaxLike(n, "log_softmax");
}
LogicalResult convertHardmax(N &n) { return convertSoftmaxLike(n, "hardmax"); }

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

enum class ReduceKind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};

LogicalResult convertReduce(N &n, ReduceKind kind) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(keep, n.getInt("keepdims", 1));
  SmallVector<int64_t> axes;
  bool axesFromInput = kind == ReduceKind::Sum && n.opset >= 13;
  if (axesFromInput) {
    MLC_TRY(noop, n.getInt("noop_with_empty_axes", 0));
    if (n.hasInput(1)) {
      MLC_TRY(a, n.constantInts(1, "axes"));
      axes = a;
    }
    if (axes.empty() && noop) {
      n.setOutput(0, x);
      return success();
    }
  } else {
    MLC_TRY(a, n.getInts("axes", SmallVector<int64_t>()));
    axes = a;
  }
  if (axes.empty())
    axes = iota(rank);
  MLC_TRY(norm, normalizeAxes(n, axes, rank));
  Value v = x;
  switch (kind) {
  case ReduceKind::L1: {
    MLC_TRY(a, unary(n, "abs", x));
    v = a;
    break;
  }
  case ReduceKind::L2:
  case ReduceKind::SumSquare: {
    MLC_TRY(a, binary(n, "mul", x, x));
    v = a;
    break;
  }
  case ReduceKind::LogSumExp: {
    MLC_TRY(a, unary(n, "exp", x));
    v = a;
    break;
  }
  default:
    break;
  }
  StringRef op = kind == ReduceKind::Mean   ? "reduce_mean"
                 : kind == ReduceKind::Max  ? "reduce_max"
                 : kind == ReduceKind::Min  ? "reduce_min"
                 : kind == ReduceKind::Prod ? "reduce_prod"
                                            : "reduce_sum";
  MLC_TRY(r, reduce(n, op, v, norm, keep != 0));
  if (kind == ReduceKind::L2)
    return out(n, unary(n, "sqrt", r));
  if (kind == ReduceKind::LogSum || kind == ReduceKind::LogSumExp)
    return out(n, unary(n, "log", r));
  return out(n, r);
}

#define MLC_REDUCE(Name, Kind)                                                 \
  LogicalResult convert##Name(N &n) { return convertReduce(n, Kind); }
MLC_REDUCE(ReduceSum, ReduceKind::Sum)
MLC_REDUCE(ReduceMean, ReduceKind::Mean)
MLC_REDUCE(ReduceMax, ReduceKind::Max)
MLC_REDUCE(ReduceMin, ReduceKind::Min)
MLC_REDUCE(ReduceProd, ReduceKind::Prod)
MLC_REDUCE(ReduceL1, ReduceKind::L1)
MLC_REDUCE(ReduceL2, ReduceKind::L2)
MLC_REDUCE(ReduceLogSum, ReduceKind::LogSum)
MLC_REDUCE(ReduceLogSumExp, ReduceKind::LogSumExp)
MLC_REDUCE(ReduceSumSquare, ReduceKind::SumSquare)
#undef MLC_REDUCE

LogicalResult convertArgMinMax(N &n, StringRef op) {
  Value x = n.input(0);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(keep, n.getInt("keepdims", 1));
  MLC_TRY(last, n.getInt("select_last_index", 0));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  return out(n, n.emit(op, {x},
                       {n.i64Attr("axis", axis), n.boolAttr("keepdims", keep),
                        n.boolAttr("select_last_index", last)}));
}
LogicalResult convertArgMax(N &n) { return convertArgMinMax(n, "argmax"); }
LogicalResult convertArgMin(N &n) { return convertArgMinMax(n, "argmin"); }

LogicalResult convertCumSum(N &n) {
  MLC_TRY(exclusive, n.getInt("exclusive", 0));
  MLC_TRY(reverse, n.getInt("reverse", 0));
  MLC_TRY(axisV, n.constantInts(1, "axis"));
  if (axisV.size() != 1)
    return n.error() << "axis must be a scalar", failure();
  Value x = n.input(0);
  MLC_TRY(axis, n.normalizeAxis(axisV[0], N::rankOf(x)));
  return out(
      n, n.emit("cumsum", {x},
                {n.i64Attr("axis", axis), n.boolAttr("exclusive", exclusive),
                 n.boolAttr("reverse", reverse)}));
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// NegativeLogLikelihoodLoss on log-probabilities `logp` [N, C, d...].
FailureOr<Value> nllLoss(N &n, Value logp, Value target, Value weight) {
  MLC_TRY(reduction, n.getString("reduction", std::string("mean")));
  std::optional<int64_t> ignore;
  if (n.hasAttr("ignore_index")) {
    MLC_TRY(ii, n.getInt("ignore_index"));
    ignore = ii;
  }
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return n.unsupported("reduction '" + reduction + "'");
  int64_t rank = N::rankOf(logp);
  if (rank < 2)
    return n.error() << "input must be [N, C, ...]", failure();
  int64_t classes = N::shapeOf(logp)[1];
  MLC_TRY(t, castTo(n, target, n.b.getI64Type()));
  Value mask, safe = t;
  if (ignore) {
    MLC_TRY(m, compare(n, "ne", t, n.scalarLike(t, double(*ignore))));
    MLC_TRY(s, select(n, m, t, n.scalarLike(t, 0)));
    mask = m;
    safe = s;
  }
  // -logp[n, t[n, ...], ...] through a one-hot mask over C.
  SmallVector<int64_t> tshape(N::shapeOf(safe));
  tshape.insert(tshape.begin() + 1, 1);
  MLC_TRY(te, reshape(n, safe, tshape));
  SmallVector<int64_t> cshape(rank, 1);
  cshape[1] = classes;
  MLC_TRY(hot, compare(n, "eq", te, n.i64Constant(iota(classes), cshape)));
  MLC_TRY(picked, select(n, hot, logp, n.scalarLike(logp, 0)));
  MLC_TRY(sum, reduce(n, "reduce_sum", picked, {1}, false));
  MLC_TRY(loss, unary(n, "neg", sum));
  Value w;
  if (weight) {
    MLC_TRY(wg, n.emit("gather", {weight, safe}, {n.i64Attr("axis", 0)}));
    w = wg;
  }
  if (mask) {
    MLC_TRY(mf, castTo(n, mask, N::elementTypeOf(logp)));
    if (w) {
      MLC_TRY(wm, binary(n, "mul", w, mf));
      w = wm;
    } else {
      w = mf;
    }
  }
  Value l = loss;
  if (w) {
    MLC_TRY(lw, binary(n, "mul", loss, w));
    l = lw;
  }
  if (reduction == "none")
    return l;
  SmallVector<int64_t> all = iota(N::rankOf(l));
  MLC_TRY(total, reduce(n, "reduce_sum", l, all, false));
  if (reduction == "sum")
    return total;
  if (!w)
    return binary(n, "div", total,
                  n.scalarLike(total, double(product(N::shapeOf(l)))));
  MLC_TRY(wsum, reduce(n, "reduce_sum", w, all, false));
  return binary(n, "div", total, wsum);
}

LogicalResult convertNLLLoss(N &n) {
  return out(n, nllLoss(n, n.input(0), n.input(1), n.input(2)));
}

LogicalResult convertSCELoss(N &n) {
  MLC_TRY(logp, n.emit("log_softmax", {n.input(0)}, {n.i64Attr("axis", 1)}));
  MLC_TRY(loss, nllLoss(n, logp, n.input(1), n.input(2)));
  n.setOutput(0, loss);
  if (n.wantsOutput(1))
    n.setOutput(1, logp);
  return success();
}

LogicalResult convertSum(N &n) { return out(n, foldInputs(n, "add")); }

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"Sum", 6, kMax, 1, "", convertSum, ""},
    {"MatMul", 1, kMax, 2, "", convertMatMul, "rank >= 1, batch broadcasting"},
    {"Gemm", 7, kMax, 2, "alpha,beta,transA,transB", convertGemm, ""},
    {"Conv", 1, kMax, 2, "auto_pad,dilations,group,kernel_shape,pads,strides",
     convertConv, "1-D and 2-D"},
    {"ConvTranspose", 1, kMax, 2,
     "auto_pad,dilations,group,kernel_shape,output_padding,output_shape,pads,"
     "strides",
     convertConvTranspose,
     "1-D and 2-D; stride = kernel (no pads, dilations, groups): one "
     "contraction, else a convolution of the dilated input"},
    {"MaxPool", 1, kMax, 1,
     "auto_pad,ceil_mode,dilations,kernel_shape,pads,storage_order,strides",
     convertMaxPool, "1-D and 2-D; no Indices output"},
    {"AveragePool", 1, kMax, 1,
     "auto_pad,ceil_mode,count_include_pad,kernel_shape,pads,strides",
     convertAveragePool, "1-D and 2-D"},
    {"GlobalAveragePool", 1, kMax, 1, "", convertGlobalAveragePool, ""},
    {"GlobalMaxPool", 1, kMax, 1, "", convertGlobalMaxPool, ""},
    {"BatchNormalization", 7, kMax, 5, "epsilon,momentum,spatial,training_mode",
     convertBatchNorm, "inference; training_mode from opset 14"},
    {"InstanceNormalization", 6, kMax, 3, "epsilon", convertInstanceNorm, ""},
    {"LayerNormalization", 17, kMax, 2, "axis,epsilon,stash_type",
     convertLayerNorm, "Mean and InvStdDev outputs supported"},
    {"MeanVarianceNormalization", 9, kMax, 1, "axes", convertMVN, ""},
    {"LRN", 1, kMax, 1, "alpha,beta,bias,size", convertLRN, ""},
    {"Softmax", 1, kMax, 1, "axis", convertSoftmax, ""},
    {"LogSoftmax", 1, kMax, 1, "axis", convertLogSoftmax, ""},
    {"Hardmax", 1, kMax, 1, "axis", convertHardmax, ""},
    {"ReduceSum", 1, kMax, 1, "axes,keepdims,noop_with_empty_axes",
     convertReduceSum, "axes must be constant"},
    {"ReduceMean", 1, kMax, 1, "axes,keepdims", convertReduceMean, "float"},
    {"ReduceMax", 1, kMax, 1, "axes,keepdims", convertReduceMax, ""},
    {"ReduceMin", 1, kMax, 1, "axes,keepdims", convertReduceMin, ""},
    {"ReduceProd", 1, kMax, 1, "axes,keepdims", convertReduceProd, ""},
    {"ReduceL1", 1, kMax, 1, "axes,keepdims", convertReduceL1, ""},
    {"ReduceL2", 1, kMax, 1, "axes,keepdims", convertReduceL2, "float"},
    {"ReduceLogSum", 1, kMax, 1, "axes,keepdims", convertReduceLogSum, "float"},
    {"ReduceLogSumExp", 1, kMax, 1, "axes,keepdims", convertReduceLogSumExp,
     "float; computed as log(sum(exp(x))) like the ONNX reference"},
    {"ReduceSumSquare", 1, kMax, 1, "axes,keepdims", convertReduceSumSquare,
     ""},
    {"ArgMax", 1, kMax, 1, "axis,keepdims,select_last_index", convertArgMax,
     ""},
    {"ArgMin", 1, kMax, 1, "axis,keepdims,select_last_index", convertArgMin,
     ""},
    {"CumSum", 11, kMax, 2, "exclusive,reverse", convertCumSum,
     "axis must be constant"},
    {"NegativeLogLikelihoodLoss", 12, kMax, 2, "reduction,ignore_index",
     convertNLLLoss, ""},
    {"SoftmaxCrossEntropyLoss", 12, kMax, 2, "reduction,ignore_index",
     convertSCELoss, ""},
};

} // namespace

ArrayRef<OpConverter> getNNConverters() { return kConverters; }

} // namespace mlc::frontend
