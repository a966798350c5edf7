//===- ONNXNN.cpp - ONNX converters: contractions and pooling -------------===//
//
// The converters for contractions (MatMul, Gemm, Einsum, Conv,
// ConvTranspose) and pooling, and their rows of the converter table
// (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"
#include "mlc/Dialect/Graph/GraphBuilders.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

} // namespace

FailureOr<Value> numpyMatMul(N &n, Value a, Value b, MatMulEmitter emit) {
  int64_t ra = N::rankOf(a), rb = N::rankOf(b);
  if (ra == 0 || rb == 0)
    return (void)n.unsupported("scalar operands"), failure();
  // numpy: a vector operand gets a unit dimension that is dropped again.
  SmallVector<int64_t> sa(N::shapeOf(a)), sb(N::shapeOf(b));
  if (ra == 1)
    sa.insert(sa.begin(), 1);
  if (rb == 1)
    sb.push_back(1);
  MLC_TRY(a2, reshape(n, a, sa));
  MLC_TRY(b2, reshape(n, b, sb));
  MLC_TRY(p, emit(a2, b2));
  SmallVector<int64_t> shape(N::shapeOf(p));
  if (rb == 1)
    shape.pop_back();
  if (ra == 1)
    shape.erase(shape.end() - (rb == 1 ? 1 : 2));
  return reshape(n, p, shape);
}

namespace {

LogicalResult convertMatMul(N &n) {
  return out(n, numpyMatMul(n, n.input(0), n.input(1), [&](Value a, Value b) {
               return binary<graph::MatMulOp>(n, a, b);
             }));
}

LogicalResult convertGemm(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 1.0f));
  MLC_TRY(beta, n.getFloat("beta", 1.0f));
  MLC_TRY(transA, n.getInt("transA", 0));
  MLC_TRY(transB, n.getInt("transB", 0));
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
  MLC_TRY(ab, binary<graph::MatMulOp>(n, a, b));
  MLC_TRY(y, scale(n, ab, alpha));
  if (!n.hasInput(2) || beta == 0.0f)
    return out(n, y);
  MLC_TRY(c, scale(n, n.input(2), beta));
  return out(n, binary<graph::AddOp>(n, y, c));
}

/// Bounds on window attributes, so that shape arithmetic on them cannot
/// overflow: dims are at most 2^40 (a tensor's elements are), so
/// stride * dim + (kernel - 1) * dilation + pads stays below 2^62.
constexpr int64_t kMaxWindow = int64_t(1) << 20;
constexpr int64_t kMaxPad = int64_t(1) << 40;

/// Fails with an error naming `what` unless every value of `v` has a
/// magnitude of at most kMaxPad.
LogicalResult checkPads(N &n, StringRef what, ArrayRef<int64_t> v) {
  for (int64_t x : v)
    if (x > kMaxPad || x < -kMaxPad)
      return n.error() << what << " value " << x
                       << " is out of range (at most 2^40 in magnitude)";
  return success();
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
  if (failed(checkPads(n, "pads", pads)))
    return failure();
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
  for (size_t i = 0; i < d; ++i)
    if (k[i] > kMaxWindow || s[i] > kMaxWindow || dl[i] > kMaxWindow)
      return n.error() << "kernel_shape, strides and dilations must be at "
                          "most 2^20, got "
                       << std::max({k[i], s[i], dl[i]}),
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

} // namespace

/// A 3-D convolution as one 2-D convolution over depth-stacked channels:
/// output depth o reads input depths o * SD + kd * DD (kd < KD) of the
/// depth-padded input, so the KD depth taps of every output depth become
/// KD times the channels of a batch of N * D' planes, and the filter
/// [Co, C/g, KD, KH, KW] becomes [Co, KD * C/g, KH, KW]; channels are
/// ordered (group, kd, c) so that groups stay contiguous. The 2-D kernels
/// (blocked layouts, Winograd, im2col) then apply; the input is copied KD
/// times over (D' / D).
static FailureOr<Value> conv3dAs2d(N &n, Value x, Value w,
                                   const WindowAttrs &win,
                                   ArrayRef<AxisPads> pads, int64_t group,
                                   ConvEmitter emit) {
  if (!isa<FloatType>(N::elementTypeOf(x)))
    return (void)n.unsupported("3-D convolution of integers"), failure();
  ArrayRef<int64_t> xs = N::shapeOf(x), ws = N::shapeOf(w);
  int64_t batch = xs[0], c = xs[1], depth = xs[2], h = xs[3], wd = xs[4];
  int64_t co = ws[0], cg = ws[1], kd = ws[2];
  if (group <= 0 || c % group != 0 || c / group != cg)
    return n.error() << "input has " << c << " channels but the filter "
                     << "expects " << cg << " per group of " << group,
           failure();
  int64_t sd = win.strides[0], dd = win.dilations[0];
  int64_t padded = depth + pads[0].begin + pads[0].end;
  int64_t span = (kd - 1) * dd + 1;
  if (padded < span)
    return n.error() << "the kernel's depth " << span
                     << " exceeds the padded input's " << padded,
           failure();
  int64_t outDepth = (padded - span) / sd + 1;
  MLC_TRY(xp, padConstant(n, x,
                          {0, 0, pads[0].begin, 0, 0, 0, 0, pads[0].end, 0, 0},
                          0.0));
  SmallVector<Value> taps;
  for (int64_t k = 0; k < kd; ++k) {
    MLC_TRY(tap,
            sliceAxis(n, xp, 2, k * dd, k * dd + (outDepth - 1) * sd + 1, sd));
    MLC_TRY(t6, reshape(n, tap, {batch, group, 1, cg, outDepth, h * wd}));
    taps.push_back(t6);
  }
  MLC_TRY(stacked, concat(n, taps, 2)); // [N, g, KD, C/g, D', HW]
  MLC_TRY(planesFirst, transpose(n, stacked, {0, 4, 1, 2, 3, 5}));
  MLC_TRY(x2, reshape(n, planesFirst, {batch * outDepth, c * kd, h, wd}));
  MLC_TRY(wt, transpose(n, w, {0, 2, 1, 3, 4})); // [Co, KD, C/g, KH, KW]
  MLC_TRY(w2, reshape(n, wt, {co, kd * cg, ws[3], ws[4]}));
  MLC_TRY(y2,
          emit(x2, w2,
               {n.arrayAttr("strides", {win.strides[1], win.strides[2]}),
                n.arrayAttr("pads", {pads[1].begin, pads[2].begin, pads[1].end,
                                     pads[2].end}),
                n.arrayAttr("dilations", {win.dilations[1], win.dilations[2]}),
                n.i64Attr("groups", group)}));
  ArrayRef<int64_t> ys = N::shapeOf(y2); // [N * D', Co, H', W']
  MLC_TRY(y5, reshape(n, y2, {batch, outDepth, co, ys[2], ys[3]}));
  return transpose(n, y5, {0, 2, 1, 3, 4});
}

FailureOr<Value> onnxConv(N &n, Value x, Value w, ConvEmitter emit) {
  int64_t rank = N::rankOf(x);
  if (rank < 3 || rank > 5)
    return (void)n.unsupported(Twine(rank - 2) + "-D convolution"), failure();
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
  if (d == 3)
    return conv3dAs2d(n, x, w, win, pads, group, emit);
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, x));
    MLC_TRY(w2, liftTo2D(n, w));
    x = x2;
    w = w2;
    win.strides.insert(win.strides.begin(), 1);
    win.dilations.insert(win.dilations.begin(), 1);
    pads.insert(pads.begin(), {0, 0});
  }
  MLC_TRY(y, emit(x, w,
                  {n.arrayAttr("strides", win.strides),
                   n.arrayAttr("pads", {pads[0].begin, pads[1].begin,
                                        pads[0].end, pads[1].end}),
                   n.arrayAttr("dilations", win.dilations),
                   n.i64Attr("groups", group)}));
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return reshape(n, y, {s[0], s[1], s[3]});
  }
  return y;
}

namespace {

LogicalResult convertConv(N &n) {
  Value bias = n.input(2);
  return out(n, onnxConv(n, n.input(0), n.input(1),
                         [&](Value x, Value w, ArrayRef<NamedAttribute> attrs) {
                           SmallVector<Value> operands = {x, w};
                           if (bias)
                             operands.push_back(bias);
                           return n.emit<graph::Conv2DOp>(operands, attrs);
                         }));
}

/// A 3-D transposed convolution as KD 2-D ones over the depth slices (a
/// batch of N x D planes), one per depth tap kd of the filter; the tap's
/// output for input depth i lands at depth i * SD + kd * DD of the full
/// result, so each is spread by the stride (zeros between), shifted, and
/// the KD of them summed; then the depth crop (pads, output_padding) and
/// the bias.
static FailureOr<Value> convTranspose3dAs2d(N &n, Value x, Value w, Value bias,
                                            ArrayRef<int64_t> strides,
                                            ArrayRef<int64_t> dilations,
                                            int64_t group,
                                            ArrayRef<int64_t> cropBegin,
                                            ArrayRef<int64_t> cropEnd) {
  ArrayRef<int64_t> xs = N::shapeOf(x), ws = N::shapeOf(w);
  int64_t nb = xs[0], c = xs[1], depth = xs[2];
  int64_t kd = ws[2], sd = strides[0], dd = dilations[0];
  MLC_TRY(xt, transpose(n, x, {0, 2, 1, 3, 4}));
  MLC_TRY(planes, reshape(n, xt, {nb * depth, c, xs[3], xs[4]}));
  int64_t full = (depth - 1) * sd + (kd - 1) * dd + 1;
  int64_t spread = (depth - 1) * sd + 1;
  Value sum;
  SmallVector<int64_t> outShape;
  for (int64_t t = 0; t < kd; ++t) {
    MLC_TRY(tap, sliceAxis(n, w, 2, t, t + 1));
    MLC_TRY(w2, reshape(n, tap, {ws[0], ws[1], ws[3], ws[4]}));
    Value y = graph::buildConvTranspose2D(
        n.b, n.loc, planes, w2, Value(), strides.drop_front(),
        dilations.drop_front(), group, cropBegin.drop_front(),
        cropEnd.drop_front());
    ArrayRef<int64_t> ys = N::shapeOf(y);
    int64_t rest = ys[1] * ys[2] * ys[3];
    outShape = {ys[1], ys[2], ys[3]};
    // [N, D, rest] -> [N, D, SD, rest] with zeros after each slice ->
    // [N, D * SD, rest], cut to the spread length, shifted by kd * DD.
    MLC_TRY(y3, reshape(n, y, {nb, depth, 1, rest}));
    MLC_TRY(zeros, padConstant(n, y3, {0, 0, 0, 0, 0, 0, sd - 1, 0}, 0.0));
    MLC_TRY(flat, reshape(n, zeros, {nb, depth * sd, rest}));
    MLC_TRY(cut, sliceAxis(n, flat, 1, 0, spread));
    int64_t before = t * dd;
    MLC_TRY(
        placed,
        padConstant(n, cut, {0, before, 0, 0, full - spread - before, 0}, 0.0));
    if (!sum) {
      sum = placed;
      continue;
    }
    MLC_TRY(acc, binary<graph::AddOp>(n, sum, placed));
    sum = acc;
  }
  // Crops below zero extend the result with zeros (output_padding).
  int64_t cb = cropBegin[0], ce = cropEnd[0];
  MLC_TRY(padded, padConstant(n, sum,
                              {0, std::max<int64_t>(0, -cb), 0, 0,
                               std::max<int64_t>(0, -ce), 0},
                              0.0));
  int64_t len = N::shapeOf(padded)[1];
  MLC_TRY(cropped, sliceAxis(n, padded, 1, std::max<int64_t>(0, cb),
                             len - std::max<int64_t>(0, ce)));
  int64_t od = N::shapeOf(cropped)[1];
  MLC_TRY(y5,
          reshape(n, cropped, {nb, od, outShape[0], outShape[1], outShape[2]}));
  MLC_TRY(y, transpose(n, y5, {0, 2, 1, 3, 4}));
  if (!bias)
    return y;
  MLC_TRY(b, reshape(n, bias, {outShape[0], 1, 1, 1}));
  return binary<graph::AddOp>(n, y, b);
}

LogicalResult convertConvTranspose(N &n) {
  Value x = n.input(0), w = n.input(1), bias = n.input(2);
  int64_t rank = N::rankOf(x);
  if (rank < 3 || rank > 5)
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
  if (failed(checkPads(n, "pads", pads)) ||
      failed(checkPads(n, "output_padding", outPad)))
    return failure();
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
    if (failed(checkPads(n, "output_shape", os)))
      return failure();
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
  if (d == 3)
    return out(n, convTranspose3dAs2d(n, x, w, bias, strides, dilations, group,
                                      cropBegin, cropEnd));
  Value y = graph::buildConvTranspose2D(n.b, n.loc, x, w, bias, strides,
                                        dilations, group, cropBegin, cropEnd);
  if (d == 1) {
    ArrayRef<int64_t> s = N::shapeOf(y);
    return out(n, reshape(n, y, {s[0], s[1], s[3]}));
  }
  return out(n, y);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

LogicalResult convertPool(N &n, bool isMax) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  if (rank < 3 || rank > 5)
    return n.unsupported(Twine(rank - 2) + "-D pooling");
  if (n.wantsOutput(1))
    return n.unsupported("Indices output");
  size_t d = rank - 2;
  // Integers up to 16 bits (MaxPool's int8/uint8) pool exactly in f32.
  Type intType = N::elementTypeOf(x);
  if (!isa<IntegerType>(intType))
    intType = {};
  if (intType) {
    if (!isMax || intType.getIntOrFloatBitWidth() > 16)
      return n.unsupported(Twine(isMax ? "max" : "average") + " pooling of " +
                           Twine(intType.getIntOrFloatBitWidth()) +
                           "-bit integers");
    MLC_TRY(xf, castTo(n, x, n.b.getF32Type()));
    x = xf;
  }
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
  // One 2-D pooling whose (rows, columns) are window dims a and b; -1 is a
  // unit dim (kernel 1, stride 1, no padding).
  auto pool2d = [&](Value v, int a, int b) -> FailureOr<Value> {
    auto pick = [&](ArrayRef<int64_t> values) {
      return SmallVector<int64_t>{a < 0 ? 1 : values[a], b < 0 ? 1 : values[b]};
    };
    AxisPads none{0, 0}, pa = a < 0 ? none : pads[a],
                         pb = b < 0 ? none : pads[b];
    SmallVector<NamedAttribute> attrs = {
        n.arrayAttr("kernel", pick(win.kernel)),
        n.arrayAttr("strides", pick(win.strides)),
        n.arrayAttr("pads", {pa.begin, pb.begin, pa.end, pb.end})};
    if (isMax)
      attrs.push_back(n.arrayAttr("dilations", pick(win.dilations)));
    else
      attrs.push_back(n.boolAttr("count_include_pad", cip != 0));
    return isMax ? n.emit<graph::MaxPool2DOp>({v}, attrs)
                 : n.emit<graph::AvgPool2DOp>({v}, attrs);
  };
  ArrayRef<int64_t> s = N::shapeOf(x);
  Value y;
  if (d == 1) {
    MLC_TRY(x2, liftTo2D(n, x));
    MLC_TRY(y2, pool2d(x2, -1, 0));
    ArrayRef<int64_t> t = N::shapeOf(y2);
    MLC_TRY(y1, reshape(n, y2, {t[0], t[1], t[3]}));
    y = y1;
  } else if (d == 2) {
    MLC_TRY(y2, pool2d(x, 0, 1));
    y = y2;
  } else {
    // 3-D windows are separable: both the max and the mean over a box
    // (whose valid count, without padding, is a product over the dims) are
    // a 2-D pooling over (H, W) of every depth slice, then a pooling over D
    // with a (KD, 1) window of the flattened H'W' positions.
    MLC_TRY(planes, reshape(n, x, {s[0], s[1] * s[2], s[3], s[4]}));
    MLC_TRY(hw, pool2d(planes, 1, 2));
    ArrayRef<int64_t> t = N::shapeOf(hw);
    MLC_TRY(columns, reshape(n, hw, {s[0], s[1], s[2], t[2] * t[3]}));
    MLC_TRY(depth, pool2d(columns, 0, -1));
    MLC_TRY(y3,
            reshape(n, depth, {s[0], s[1], N::shapeOf(depth)[2], t[2], t[3]}));
    y = y3;
  }
  if (intType) {
    MLC_TRY(yi, castTo(n, y, intType));
    y = yi;
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
    return out(n, n.emit<graph::GlobalAvgPoolOp>({x}));
  SmallVector<int64_t> spatial = iota(rank - 2, 2);
  return out(n, isMax ? reduce<graph::ReduceMaxOp>(n, x, spatial, true)
                      : reduce<graph::ReduceMeanOp>(n, x, spatial, true));
}
LogicalResult convertGlobalAveragePool(N &n) {
  return convertGlobalPool(n, false);
}
LogicalResult convertGlobalMaxPool(N &n) { return convertGlobalPool(n, true); }

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"MatMul", 1, kMax, 2, "", convertMatMul, "rank >= 1, batch broadcasting"},
    {"Gemm", 1, 6, 3, "alpha,beta,broadcast,transA,transB", convertGemm,
     "C as numpy broadcasting allows (a superset of `broadcast`)"},
    {"Gemm", 7, kMax, 2, "alpha,beta,transA,transB", convertGemm, ""},
    {"Conv", 1, kMax, 2, "auto_pad,dilations,group,kernel_shape,pads,strides",
     convertConv, "1-D to 3-D (3-D: float)"},
    {"ConvTranspose", 1, kMax, 2,
     "auto_pad,dilations,group,kernel_shape,output_padding,output_shape,pads,"
     "strides",
     convertConvTranspose,
     "1-D, 2-D and 3-D (KD 2-D ones); stride = kernel (no pads, dilations, "
     "groups): one "
     "contraction, else a convolution of the dilated input"},
    {"MaxPool", 1, kMax, 1,
     "auto_pad,ceil_mode,dilations,kernel_shape,pads,storage_order,strides",
     convertMaxPool,
     "1-D and 2-D; integers of up to 16 bits; no Indices output"},
    {"AveragePool", 1, kMax, 1,
     "auto_pad,ceil_mode,count_include_pad,kernel_shape,pads,strides",
     convertAveragePool, "1-D to 3-D"},
    {"GlobalAveragePool", 1, kMax, 1, "", convertGlobalAveragePool, ""},
    {"GlobalMaxPool", 1, kMax, 1, "", convertGlobalMaxPool, ""},
};

} // namespace

ArrayRef<OpConverter> getNNConverters() { return kConverters; }

} // namespace mlc::frontend
