//===- WindowBuilders.cpp - convolutions and pooling over 1-3 dims --------===//

#include "mlc/Dialect/Graph/WindowBuilders.h"
#include "mlc/Dialect/Graph/GraphBuilders.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace mlc::graph {

CheckedBuilder::~CheckedBuilder() = default;

FailureOr<Value> LocatedBuilder::createOp(StringRef opName, ValueRange operands,
                                          ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(NoneType::get(b.getContext())); // set by inference
  Operation *op = b.create(state);
  if (failed(inferAndSetResultTypes(op)) || failed(verify(op))) {
    op->erase();
    return failure();
  }
  return op->getResult(0);
}

static NamedAttribute listAttr(OpBuilder &b, StringRef name,
                               ArrayRef<int64_t> v) {
  return b.getNamedAttr(name, b.getDenseI64ArrayAttr(v));
}

FailureOr<Value> checkedReshape(CheckedBuilder &cb, Value x,
                                ArrayRef<int64_t> shape) {
  if (cast<RankedTensorType>(x.getType()).getShape() == shape)
    return x;
  return cb.createOp("graph.reshape", x,
                     listAttr(cb.opBuilder(), "shape", shape));
}

FailureOr<Value> checkedTranspose(CheckedBuilder &cb, Value x,
                                  ArrayRef<int64_t> perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == int64_t(i);
  if (identity)
    return x;
  return cb.createOp("graph.transpose", x,
                     listAttr(cb.opBuilder(), "perm", perm));
}

FailureOr<Value> checkedSliceAxis(CheckedBuilder &cb, Value x, int64_t axis,
                                  int64_t start, int64_t end, int64_t step) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
  if (start == 0 && end == shape[axis] && step == 1)
    return x;
  SmallVector<int64_t> s(shape.size(), 0), e(shape), st(shape.size(), 1);
  s[axis] = start;
  e[axis] = end;
  st[axis] = step;
  OpBuilder &b = cb.opBuilder();
  return cb.createOp("graph.slice", x,
                     {listAttr(b, "starts", s), listAttr(b, "ends", e),
                      listAttr(b, "steps", st)});
}

FailureOr<Value> checkedPad(CheckedBuilder &cb, Value x, ArrayRef<int64_t> pads,
                            double value) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return x;
  OpBuilder &b = cb.opBuilder();
  return cb.createOp("graph.pad", x,
                     {listAttr(b, "pads", pads),
                      b.getNamedAttr("value", b.getF64FloatAttr(value))});
}

namespace {

/// The layout ops the decompositions use, through a CheckedBuilder; no-op
/// reshapes, transposes, slices and pads return their operand.
class Ops {
public:
  explicit Ops(CheckedBuilder &cb) : cb(cb), b(cb.opBuilder()) {}

  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  NamedAttribute list(StringRef name, ArrayRef<int64_t> v) {
    return listAttr(b, name, v);
  }
  FailureOr<Value> reshape(Value x, ArrayRef<int64_t> shape) {
    return checkedReshape(cb, x, shape);
  }
  FailureOr<Value> transpose(Value x, ArrayRef<int64_t> perm) {
    return checkedTranspose(cb, x, perm);
  }
  FailureOr<Value> slice(Value x, int64_t axis, int64_t start, int64_t end,
                         int64_t step = 1) {
    return checkedSliceAxis(cb, x, axis, start, end, step);
  }
  FailureOr<Value> concat(ValueRange xs, int64_t axis) {
    if (xs.size() == 1)
      return Value(xs[0]);
    return cb.createOp("graph.concat", xs,
                       b.getNamedAttr("axis", b.getI64IntegerAttr(axis)));
  }
  FailureOr<Value> pad(Value x, ArrayRef<int64_t> pads) {
    return checkedPad(cb, x, pads);
  }
  FailureOr<Value> add(Value x, Value y) {
    return cb.createOp("graph.add", {x, y}, {});
  }
  /// [N, C, W] -> [N, C, 1, W]: a 1-D operand of a window op as 2-D.
  FailureOr<Value> liftTo2D(Value x) {
    ArrayRef<int64_t> s = shapeOf(x);
    return reshape(x, {s[0], s[1], 1, s[2]});
  }
  /// [N, C, 1, W] -> [N, C, W].
  FailureOr<Value> dropRow(Value y) {
    ArrayRef<int64_t> s = shapeOf(y);
    return reshape(y, {s[0], s[1], s[3]});
  }

  CheckedBuilder &cb;
  OpBuilder &b;
};

#define MLC_TRY(var, expr)                                                     \
  auto var##OrFail = (expr);                                                   \
  if (failed(var##OrFail))                                                     \
    return failure();                                                          \
  Value var = *var##OrFail

/// Fails unless `x` has 1-3 spatial dims, every list of `win` (and the
/// kernel, for pooling) has one entry per spatial dim, and the values are
/// in range (pads may be negative only as a transposed convolution's
/// crops). A convolution's `filter` must have x's rank and a nonempty
/// window.
LogicalResult checkWindow(CheckedBuilder &cb, Value x, Value filter,
                          const Window &win, bool negativePads,
                          StringRef what) {
  bool isPool = !filter;
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (rank < 3 || rank > 5)
    return cb.error() << what << " needs an input of rank 3 to 5 (1 to 3 "
                      << "spatial dims), got rank " << rank;
  size_t d = rank - 2;
  if (win.strides.size() != d || win.dilations.size() != d ||
      win.padsBegin.size() != d || win.padsEnd.size() != d ||
      (isPool && win.kernel.size() != d))
    return cb.error() << what << " over " << d << " spatial dims needs " << d
                      << " kernel sizes, strides, dilations and pads at each "
                         "end";
  for (size_t i = 0; i < d; ++i) {
    for (int64_t v : {win.strides[i], win.dilations[i],
                      isPool ? win.kernel[i] : int64_t(1)})
      if (v < 1 || v > kMaxWindowSize)
        return cb.error() << "kernel sizes, strides and dilations must be in "
                             "[1, 2^20], got "
                          << v;
    for (int64_t v : {win.padsBegin[i], win.padsEnd[i]})
      if (v > kMaxWindowPad || v < (negativePads ? -kMaxWindowPad : 0))
        return cb.error() << "pads must be in ["
                          << (negativePads ? "-2^40" : "0") << ", 2^40], got "
                          << v;
  }
  if (win.groups < 1 || win.groups > kMaxWindowPad)
    return cb.error() << "groups must be in [1, 2^40], got " << win.groups;
  if (!filter)
    return success();
  auto ft = cast<RankedTensorType>(filter.getType());
  if (ft.getRank() != rank)
    return cb.error() << "filter rank " << ft.getRank()
                      << " does not match input rank " << rank;
  // An empty window would leave the decompositions nothing to sum.
  for (int64_t k : ft.getShape().drop_front(2))
    if (k < 1)
      return cb.error() << "the filter " << ft << " has an empty window";
  return success();
}

/// Window dims (a, b) of a 2-D op built from `win`; -1 is a unit dim
/// (size, stride and dilation 1, no padding).
struct Dims2D {
  int a, b;
  SmallVector<int64_t> pick(ArrayRef<int64_t> v, int64_t unit) const {
    return {a < 0 ? unit : v[a], b < 0 ? unit : v[b]};
  }
  /// The 2-D op's pads: [top, left, bottom, right].
  SmallVector<int64_t> pads(const Window &win) const {
    SmallVector<int64_t> begin = pick(win.padsBegin, 0),
                         end = pick(win.padsEnd, 0);
    return {begin[0], begin[1], end[0], end[1]};
  }
};

/// conv2d's attributes for window dims `dims` of `win`.
SmallVector<NamedAttribute> conv2DAttrs(Ops &o, const Window &win,
                                        Dims2D dims) {
  return {o.list("strides", dims.pick(win.strides, 1)),
          o.list("pads", dims.pads(win)),
          o.list("dilations", dims.pick(win.dilations, 1)),
          o.b.getNamedAttr("groups", o.b.getI64IntegerAttr(win.groups))};
}

/// A 3-D convolution as one 2-D convolution over depth-stacked channels:
/// output depth o reads input depths o * SD + kd * DD (kd < KD) of the
/// depth-padded input, so the KD depth taps of every output depth become
/// KD times the channels of a batch of N * D' planes, and the filter
/// [Co, C/g, KD, KH, KW] becomes [Co, KD * C/g, KH, KW]; channels are
/// ordered (group, kd, c) so that groups stay contiguous. The 2-D kernels
/// (blocked layouts, Winograd, im2col) then apply; the input is copied KD
/// times over (D' / D).
FailureOr<Value> conv3dAs2d(Ops &o, Value x, Value w, const Window &win,
                            Conv2DEmitter emit) {
  CheckedBuilder &cb = o.cb;
  if (!isa<FloatType>(cast<RankedTensorType>(x.getType()).getElementType()))
    return cb.error() << "3-D convolution of integers is not supported",
           failure();
  ArrayRef<int64_t> xs = Ops::shapeOf(x), ws = Ops::shapeOf(w);
  int64_t batch = xs[0], c = xs[1], depth = xs[2], h = xs[3], wd = xs[4];
  int64_t co = ws[0], cg = ws[1], kd = ws[2];
  int64_t group = win.groups;
  if (c % group != 0 || c / group != cg)
    return cb.error() << "input has " << c << " channels but the filter "
                      << "expects " << cg << " per group of " << group,
           failure();
  int64_t sd = win.strides[0], dd = win.dilations[0];
  int64_t padded = depth + win.padsBegin[0] + win.padsEnd[0];
  int64_t span = (kd - 1) * dd + 1;
  if (padded < span)
    return cb.error() << "the kernel's depth " << span
                      << " exceeds the padded input's " << padded,
           failure();
  int64_t outDepth = (padded - span) / sd + 1;
  MLC_TRY(xp,
          o.pad(x, {0, 0, win.padsBegin[0], 0, 0, 0, 0, win.padsEnd[0], 0, 0}));
  SmallVector<Value> taps;
  for (int64_t k = 0; k < kd; ++k) {
    MLC_TRY(tap, o.slice(xp, 2, k * dd, k * dd + (outDepth - 1) * sd + 1, sd));
    MLC_TRY(t6, o.reshape(tap, {batch, group, 1, cg, outDepth, h * wd}));
    taps.push_back(t6);
  }
  MLC_TRY(stacked, o.concat(taps, 2)); // [N, g, KD, C/g, D', HW]
  MLC_TRY(planesFirst, o.transpose(stacked, {0, 4, 1, 2, 3, 5}));
  MLC_TRY(x2, o.reshape(planesFirst, {batch * outDepth, c * kd, h, wd}));
  MLC_TRY(wt, o.transpose(w, {0, 2, 1, 3, 4})); // [Co, KD, C/g, KH, KW]
  MLC_TRY(w2, o.reshape(wt, {co, kd * cg, ws[3], ws[4]}));
  MLC_TRY(y2, emit(x2, w2, conv2DAttrs(o, win, {1, 2})));
  ArrayRef<int64_t> ys = Ops::shapeOf(y2); // [N * D', Co, H', W']
  MLC_TRY(y5, o.reshape(y2, {batch, outDepth, co, ys[2], ys[3]}));
  return o.transpose(y5, {0, 2, 1, 3, 4});
}

} // namespace

FailureOr<Value> buildConv(CheckedBuilder &cb, Value x, Value w,
                           const Window &win, Conv2DEmitter emit) {
  if (failed(checkWindow(cb, x, w, win, false, "a convolution")))
    return failure();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Ops o(cb);
  switch (rank - 2) {
  case 1: {
    MLC_TRY(x2, o.liftTo2D(x));
    MLC_TRY(w2, o.liftTo2D(w));
    MLC_TRY(y, emit(x2, w2, conv2DAttrs(o, win, {-1, 0})));
    return o.dropRow(y);
  }
  case 2:
    return emit(x, w, conv2DAttrs(o, win, {0, 1}));
  default:
    return conv3dAs2d(o, x, w, win, emit);
  }
}

FailureOr<Value> buildConv(CheckedBuilder &cb, Value x, Value w, Value bias,
                           const Window &win) {
  return buildConv(cb, x, w, win,
                   [&](Value x2, Value w2, ArrayRef<NamedAttribute> attrs) {
                     SmallVector<Value> operands = {x2, w2};
                     if (bias)
                       operands.push_back(bias);
                     return cb.createOp("graph.conv2d", operands, attrs);
                   });
}

FailureOr<Value> buildPool(CheckedBuilder &cb, Value x, bool isMax,
                           const Window &win) {
  if (failed(checkWindow(cb, x, Value(), win, false, "a pooling")))
    return failure();
  // Checked here for every dim: the decomposition pools depth as the rows
  // of a 2-D pooling, whose message would call it the height.
  ArrayRef<int64_t> in = Ops::shapeOf(x).drop_front(2);
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t keff = (win.kernel[i] - 1) * win.dilations[i] + 1;
    int64_t padded = in[i] + win.padsBegin[i] + win.padsEnd[i];
    if (keff > padded)
      return cb.error() << "window of effective size " << keff
                        << " does not fit in the padded input's size " << padded
                        << " (spatial dim " << i << ")",
             failure();
  }
  Ops o(cb);
  // One 2-D pooling over window dims `dims`.
  auto pool2d = [&](Value v, Dims2D dims) -> FailureOr<Value> {
    SmallVector<NamedAttribute> attrs = {
        o.list("kernel", dims.pick(win.kernel, 1)),
        o.list("strides", dims.pick(win.strides, 1)),
        o.list("pads", dims.pads(win))};
    if (isMax)
      attrs.push_back(o.list("dilations", dims.pick(win.dilations, 1)));
    else
      attrs.push_back(o.b.getNamedAttr("count_include_pad",
                                       o.b.getBoolAttr(win.countIncludePad)));
    return cb.createOp(isMax ? "graph.maxpool2d" : "graph.avgpool2d", v, attrs);
  };
  ArrayRef<int64_t> s = Ops::shapeOf(x);
  switch (s.size() - 2) {
  case 1: {
    MLC_TRY(x2, o.liftTo2D(x));
    MLC_TRY(y2, pool2d(x2, {-1, 0}));
    return o.dropRow(y2);
  }
  case 2:
    return pool2d(x, {0, 1});
  default: {
    // 3-D windows are separable: both the max and the mean over a box
    // (whose valid count, without padding, is a product over the dims) are
    // a 2-D pooling over (H, W) of every depth slice, then a pooling over D
    // with a (KD, 1) window of the flattened H'W' positions.
    MLC_TRY(planes, o.reshape(x, {s[0], s[1] * s[2], s[3], s[4]}));
    MLC_TRY(hw, pool2d(planes, {1, 2}));
    ArrayRef<int64_t> t = Ops::shapeOf(hw);
    MLC_TRY(columns, o.reshape(hw, {s[0], s[1], s[2], t[2] * t[3]}));
    MLC_TRY(depth, pool2d(columns, {0, -1}));
    return o.reshape(depth, {s[0], s[1], Ops::shapeOf(depth)[2], t[2], t[3]});
  }
  }
}

namespace {

/// A 3-D transposed convolution as KD 2-D ones over the depth slices (a
/// batch of N x D planes), one per depth tap kd of the filter; the tap's
/// output for input depth i lands at depth i * SD + kd * DD of the full
/// result, so each is spread by the stride (zeros between), shifted, and
/// the KD of them summed; then the depth crop and the bias.
FailureOr<Value> convTranspose3dAs2d(Ops &o, Value x, Value w, Value bias,
                                     const Window &win) {
  OpBuilder &b = o.b;
  Location loc = o.cb.location();
  ArrayRef<int64_t> xs = Ops::shapeOf(x), ws = Ops::shapeOf(w);
  int64_t nb = xs[0], c = xs[1], depth = xs[2];
  int64_t kd = ws[2], sd = win.strides[0], dd = win.dilations[0];
  MLC_TRY(xt, o.transpose(x, {0, 2, 1, 3, 4}));
  MLC_TRY(planes, o.reshape(xt, {nb * depth, c, xs[3], xs[4]}));
  int64_t full = (depth - 1) * sd + (kd - 1) * dd + 1;
  ArrayRef<int64_t> strides2 = ArrayRef<int64_t>(win.strides).drop_front(),
                    dilations2 = ArrayRef<int64_t>(win.dilations).drop_front(),
                    cropBegin2 = ArrayRef<int64_t>(win.padsBegin).drop_front(),
                    cropEnd2 = ArrayRef<int64_t>(win.padsEnd).drop_front();
  Value sum;
  SmallVector<int64_t> outShape;
  for (int64_t t = 0; t < kd; ++t) {
    MLC_TRY(tap, o.slice(w, 2, t, t + 1));
    MLC_TRY(w2, o.reshape(tap, {ws[0], ws[1], ws[3], ws[4]}));
    // Valid by the checks in buildConvTranspose.
    Value y =
        buildConvTranspose2D(b, loc, planes, w2, Value(), strides2, dilations2,
                             win.groups, cropBegin2, cropEnd2);
    ArrayRef<int64_t> ys = Ops::shapeOf(y);
    int64_t rest = ys[1] * ys[2] * ys[3];
    outShape = {ys[1], ys[2], ys[3]};
    // Input depth i of this tap lands at depth i * SD + t * DD.
    MLC_TRY(y3, o.reshape(y, {nb, depth, rest}));
    Value placed = scatterStrided(b, loc, y3, {0, t * dd, 0}, {1, sd, 1},
                                  {nb, full, rest});
    if (!sum) {
      sum = placed;
      continue;
    }
    MLC_TRY(acc, o.add(sum, placed));
    sum = acc;
  }
  // Crops below zero extend the result with zeros (output_padding).
  Value cropped = padOrCrop(b, loc, sum, {0, -win.padsBegin[0], 0},
                            {0, -win.padsEnd[0], 0});
  int64_t od = Ops::shapeOf(cropped)[1];
  MLC_TRY(y5,
          o.reshape(cropped, {nb, od, outShape[0], outShape[1], outShape[2]}));
  MLC_TRY(y, o.transpose(y5, {0, 2, 1, 3, 4}));
  if (!bias)
    return y;
  MLC_TRY(b4, o.reshape(bias, {outShape[0], 1, 1, 1}));
  return o.add(y, b4);
}

} // namespace

FailureOr<Value> buildConvTranspose(CheckedBuilder &cb, Value x, Value w,
                                    Value bias, const Window &win) {
  if (failed(checkWindow(cb, x, w, win, true, "a transposed convolution")))
    return failure();
  auto xt = cast<RankedTensorType>(x.getType());
  auto wt = cast<RankedTensorType>(w.getType());
  size_t d = xt.getRank() - 2;
  ArrayRef<int64_t> ws = wt.getShape();
  int64_t c = ws[0], mg = ws[1], group = win.groups;
  if (c % group)
    return cb.error() << "filter channels " << c << " not divisible by groups "
                      << group,
           failure();
  if (xt.getDimSize(1) != c)
    return cb.error() << "input has " << xt.getDimSize(1)
                      << " channels but the filter expects " << c,
           failure();
  if (!isa<FloatType>(xt.getElementType()) ||
      wt.getElementType() != xt.getElementType() ||
      (bias && getElementTypeOrSelf(bias.getType()) != xt.getElementType()))
    return cb.error() << "input, filter and bias must have the same float "
                         "element type",
           failure();
  if (bias && (cast<RankedTensorType>(bias.getType()).getShape() !=
               ArrayRef<int64_t>{group * mg}))
    return cb.error() << "bias must have shape [" << group * mg << "]",
           failure();
  ArrayRef<int64_t> in = xt.getShape().drop_front(2);
  for (size_t i = 0; i < d; ++i) {
    if (in[i] <= 0)
      return cb.error() << "spatial dim " << i << " of the input is empty",
             failure();
    int64_t keff = (ws[2 + i] - 1) * win.dilations[i] + 1;
    int64_t begin = win.padsBegin[i], end = win.padsEnd[i];
    if ((in[i] - 1) * win.strides[i] + keff - begin - end <= 0)
      return cb.error() << "padding that removes the whole output (spatial "
                           "dim "
                        << i << ")",
             failure();
    // Crops beyond the kernel's reach cut into the zero-dilated input.
    int64_t cutBegin = std::max<int64_t>(0, begin - (keff - 1));
    int64_t cutEnd =
        std::max<int64_t>(0, end - (keff - 1) + win.strides[i] - 1);
    if (cutBegin + cutEnd >= in[i] * win.strides[i])
      return cb.error() << "padding that removes the whole input (spatial "
                           "dim "
                        << i << ")",
             failure();
  }
  Ops o(cb);
  if (d == 3)
    return convTranspose3dAs2d(o, x, w, bias, win);
  Window w2 = win;
  if (d == 1) {
    MLC_TRY(x2, o.liftTo2D(x));
    MLC_TRY(f2, o.liftTo2D(w));
    x = x2;
    w = f2;
    w2.strides.insert(w2.strides.begin(), 1);
    w2.dilations.insert(w2.dilations.begin(), 1);
    w2.padsBegin.insert(w2.padsBegin.begin(), 0);
    w2.padsEnd.insert(w2.padsEnd.begin(), 0);
  }
  Value y = buildConvTranspose2D(cb.opBuilder(), cb.location(), x, w, bias,
                                 w2.strides, w2.dilations, group, w2.padsBegin,
                                 w2.padsEnd);
  return d == 1 ? o.dropRow(y) : FailureOr<Value>(y);
}

} // namespace mlc::graph
