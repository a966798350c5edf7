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

/// The graph builders' bounds, checked here already: auto_pad and
/// ConvTranspose's output_shape compute with the attributes first.
constexpr int64_t kMaxWindow = graph::kMaxWindowSize;
constexpr int64_t kMaxPad = graph::kMaxWindowPad;

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

/// The graph-level window of an ONNX node's attributes.
graph::Window toWindow(const WindowAttrs &win, ArrayRef<AxisPads> pads,
                       int64_t group) {
  graph::Window w;
  w.kernel.assign(win.kernel.begin(), win.kernel.end());
  w.strides.assign(win.strides.begin(), win.strides.end());
  w.dilations.assign(win.dilations.begin(), win.dilations.end());
  for (const AxisPads &p : pads) {
    w.padsBegin.push_back(p.begin);
    w.padsEnd.push_back(p.end);
  }
  w.groups = group;
  return w;
}

} // namespace

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
  if (d == 3 && !isa<FloatType>(N::elementTypeOf(x)))
    return (void)n.unsupported("3-D convolution of integers"), failure();
  return graph::buildConv(n, x, w, toWindow(win, pads, group), emit);
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
  // graph::buildConvTranspose checks the operands and builds it: the full
  // result, (in - 1) * stride + keff long, loses pads.begin at the start and
  // pads.end - output_padding at the end.
  if (N::rankOf(w) != rank || win.kernel != wk)
    return n.error() << "the filter must have rank " << rank
                     << " and match kernel_shape",
           failure();
  for (size_t i = 0; i < d; ++i)
    p[i].end -= outPad[i];
  return out(n,
             graph::buildConvTranspose(n, x, w, bias, toWindow(win, p, group)));
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
  graph::Window w = toWindow(win, pads, 1);
  w.countIncludePad = cip != 0;
  MLC_TRY(y, graph::buildPool(n, x, isMax, w));
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
     "1-D to 3-D; integers of up to 16 bits; no Indices output"},
    {"AveragePool", 1, kMax, 1,
     "auto_pad,ceil_mode,count_include_pad,kernel_shape,pads,strides",
     convertAveragePool, "1-D to 3-D"},
    {"GlobalAveragePool", 1, kMax, 1, "", convertGlobalAveragePool, ""},
    {"GlobalMaxPool", 1, kMax, 1, "", convertGlobalMaxPool, ""},
};

} // namespace

ArrayRef<OpConverter> getNNConverters() { return kConverters; }

} // namespace mlc::frontend
