//===- ONNXNormalization.cpp - ONNX converters: normalization
//---------------===//
//
// The converters for batch, instance and layer normalization, MVN, LRN and
// the softmax family, and their rows of the converter table
// (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <type_traits>

using namespace mlir;

namespace mlc::frontend {
namespace {

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
  MLC_TRY(mean, reduce<graph::ReduceMeanOp>(n, x, axes, true));
  MLC_TRY(dx, binary<graph::SubOp>(n, x, mean));
  MLC_TRY(sq, binary<graph::MulOp>(n, dx, dx));
  MLC_TRY(var, reduce<graph::ReduceMeanOp>(n, sq, axes, true));
  MLC_TRY(ve, addScalar(n, var, eps));
  MLC_TRY(inv, unary<graph::RsqrtOp>(n, ve));
  MLC_TRY(norm, binary<graph::MulOp>(n, dx, inv));
  MLC_TRY(sc, channelVector(n, n.input(1), rank));
  MLC_TRY(bi, channelVector(n, n.input(2), rank));
  MLC_TRY(ys, binary<graph::MulOp>(n, norm, sc));
  MLC_TRY(y, binary<graph::AddOp>(n, ys, bi));
  n.setOutput(0, y);
  // running = input * momentum + batch * (1 - momentum), per channel.
  int64_t c = N::shapeOf(x)[1];
  for (unsigned i = 1; i <= 2; ++i) {
    if (!n.wantsOutput(i))
      continue;
    MLC_TRY(batch, reshape(n, i == 1 ? mean : var, {c}));
    MLC_TRY(old, scale(n, n.input(2 + i), momentum));
    MLC_TRY(cur, scale(n, batch, 1.0 - momentum));
    MLC_TRY(upd, binary<graph::AddOp>(n, old, cur));
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
  return out(n,
             n.emit<graph::BatchNormOp>(
                 {n.input(0), n.input(1), n.input(2), n.input(3), n.input(4)},
                 {n.attr("epsilon", n.b.getF32FloatAttr(eps))}));
}

/// Opsets 1-6 mark inference with is_test=1; the default (0) is training,
/// whose batch statistics these opsets define differently.
LogicalResult convertLegacyBatchNorm(N &n) {
  MLC_TRY(isTest, n.getInt("is_test", 0));
  if (!isTest)
    return n.unsupported("is_test=0 (training mode)");
  return convertBatchNorm(n);
}

/// (x - mean) * rsqrt(var + eps) over `axes`, keepdims statistics.
struct Normalized {
  Value y, mean, invStd;
};
FailureOr<Normalized> normalize(N &n, Value x, ArrayRef<int64_t> axes,
                                double eps) {
  MLC_TRY(mean, reduce<graph::ReduceMeanOp>(n, x, axes, true));
  MLC_TRY(dx, binary<graph::SubOp>(n, x, mean));
  MLC_TRY(sq, binary<graph::MulOp>(n, dx, dx));
  MLC_TRY(var, reduce<graph::ReduceMeanOp>(n, sq, axes, true));
  MLC_TRY(ve, addScalar(n, var, eps));
  MLC_TRY(inv, unary<graph::RsqrtOp>(n, ve));
  MLC_TRY(y, binary<graph::MulOp>(n, dx, inv));
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
  MLC_TRY(ys, binary<graph::MulOp>(n, norm.y, s));
  return out(n, binary<graph::AddOp>(n, ys, bv));
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
    return out(
        n, n.emit<graph::LayerNormOp>(
               {x, scaleV, b}, {n.i64Attr("axis", axis),
                                n.attr("epsilon", n.b.getF32FloatAttr(eps))}));
  }
  MLC_TRY(norm, normalize(n, x, iota(rank - axis, axis), eps));
  MLC_TRY(ys, binary<graph::MulOp>(n, norm.y, scaleV));
  Value y = ys;
  if (bias) {
    MLC_TRY(yb, binary<graph::AddOp>(n, y, bias));
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
  MLC_TRY(mean, reduce<graph::ReduceMeanOp>(n, x, axes, true));
  MLC_TRY(mean2, binary<graph::MulOp>(n, mean, mean));
  MLC_TRY(sq, binary<graph::MulOp>(n, x, x));
  MLC_TRY(msq, reduce<graph::ReduceMeanOp>(n, sq, axes, true));
  MLC_TRY(var, binary<graph::SubOp>(n, msq, mean2));
  MLC_TRY(sd, unary<graph::SqrtOp>(n, var));
  MLC_TRY(sde, addScalar(n, sd, 1e-9));
  MLC_TRY(dx, binary<graph::SubOp>(n, x, mean));
  return out(n, binary<graph::DivOp>(n, dx, sde));
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
  MLC_TRY(sq, binary<graph::MulOp>(n, x, x));
  int64_t rest = product(ArrayRef<int64_t>(shape).drop_front(2));
  MLC_TRY(v, reshape(n, sq, {shape[0], 1, shape[1], rest}));
  int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  MLC_TRY(avg, n.emit<graph::AvgPool2DOp>(
                   {v}, {n.arrayAttr("kernel", {size, 1}),
                         n.arrayAttr("strides", {1, 1}),
                         n.arrayAttr("pads", {lo, 0, hi, 0}),
                         n.boolAttr("count_include_pad", true)}));
  MLC_TRY(sum, reshape(n, avg, shape));
  // bias + alpha / size * sum = bias + alpha * avg
  MLC_TRY(scaled, scale(n, sum, alpha));
  MLC_TRY(base, addScalar(n, scaled, bias));
  MLC_TRY(den, binary<graph::PowOp>(n, base, n.scalarLike(x, beta)));
  return out(n, binary<graph::DivOp>(n, x, den));
}

/// Hardmax has no graph op: a one-hot of the first maximum.
struct Hardmax {};

/// Softmax-like ops: opset >= 13 along one axis; before, on the input
/// flattened to 2-D at `axis` (default 1). OpTy is the graph op, or Hardmax.
template <typename OpTy> LogicalResult convertSoftmaxLike(N &n) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(axisAttr, n.getInt("axis", n.opset >= 13 ? -1 : 1));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, rank));
  auto apply = [&](Value v, int64_t ax) -> FailureOr<Value> {
    if constexpr (!std::is_same_v<OpTy, Hardmax>)
      return n.emit<OpTy>({v}, {n.i64Attr("axis", ax)});
    // One-hot of the first maximum along ax.
    MLC_TRY(am, n.emit<graph::ArgMaxOp>(
                    {v}, {n.i64Attr("axis", ax), n.boolAttr("keepdims", true),
                          n.boolAttr("select_last_index", false)}));
    int64_t len = N::shapeOf(v)[ax];
    SmallVector<int64_t> ishape(N::rankOf(v), 1);
    ishape[ax] = len;
    Value idx = n.i64Constant(iota(len), ishape);
    MLC_TRY(eq, compare(n, Pred::eq, am, idx));
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
LogicalResult convertSoftmax(N &n) {
  return convertSoftmaxLike<graph::SoftmaxOp>(n);
}
LogicalResult convertLogSoftmax(N &n) {
  return convertSoftmaxLike<graph::LogSoftmaxOp>(n);
}
LogicalResult convertHardmax(N &n) { return convertSoftmaxLike<Hardmax>(n); }

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"BatchNormalization", 1, 6, 5, "epsilon,is_test,momentum,spatial",
     convertLegacyBatchNorm, "is_test=1 (inference) only"},
    {"BatchNormalization", 7, kMax, 5, "epsilon,momentum,spatial,training_mode",
     convertBatchNorm, "inference; training_mode from opset 14"},
    {"InstanceNormalization", 1, kMax, 3, "epsilon", convertInstanceNorm, ""},
    {"LayerNormalization", 17, kMax, 2, "axis,epsilon,stash_type",
     convertLayerNorm, "Mean and InvStdDev outputs supported"},
    {"MeanVarianceNormalization", 9, kMax, 1, "axes", convertMVN, ""},
    {"LRN", 1, kMax, 1, "alpha,beta,bias,size", convertLRN, ""},
    {"Softmax", 1, kMax, 1, "axis", convertSoftmax, ""},
    {"LogSoftmax", 1, kMax, 1, "axis", convertLogSoftmax, ""},
    {"Hardmax", 1, kMax, 1, "axis", convertHardmax, ""},
};

} // namespace

ArrayRef<OpConverter> getNormalizationConverters() { return kConverters; }

} // namespace mlc::frontend
