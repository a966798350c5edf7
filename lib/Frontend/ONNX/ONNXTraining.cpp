//===- ONNXTraining.cpp - ONNX converters: ai.onnx.preview.training ------===//
//
// The optimizer update rules of the ai.onnx.preview.training domain
// (Adagrad, Momentum, Adam): elementwise formulas over each optimized tensor
// with the learning rate R and step count T as run-time scalars, and their
// rows of the converter table (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <cmath>

using namespace mlir;

namespace mlc::frontend {
namespace {

constexpr const char *kTrainingDomain = "ai.onnx.preview.training";

/// The tensors an optimizer node updates: inputs R, T, then `groups` runs
/// of n tensors each (X..., G..., and the optimizer's state); outputs n
/// updated X and n of each state.
struct OptimizerOperands {
  Value r, t; // f32 scalars: the learning rate, the step count as float
  int64_t n;
};

FailureOr<OptimizerOperands> optimizerOperands(N &n, unsigned groups) {
  unsigned in = n.numInputs();
  if (in < 2 + groups || (in - 2) % groups != 0)
    return n.error() << "needs R, T and " << groups
                     << " inputs per optimized tensor, got " << in << " inputs",
           failure();
  int64_t count = (in - 2) / groups;
  if (n.numOutputs() != unsigned((groups - 1) * count))
    return n.error() << "updates " << count << " tensors into "
                     << (groups - 1) * count << " outputs, got "
                     << n.numOutputs(),
           failure();
  for (unsigned i = 0; i < in; ++i)
    if (!n.hasInput(i))
      return n.error() << "input #" << i << " is missing", failure();
  Value r = n.input(0), t = n.input(1);
  if (N::rankOf(r) != 0 || !N::elementTypeOf(r).isF32() || N::rankOf(t) != 0 ||
      !N::elementTypeOf(t).isInteger(64))
    return n.error() << "R must be an f32 scalar and T an int64 scalar",
           failure();
  for (int64_t i = 0; i < count; ++i) {
    Type xt = n.input(2 + i).getType();
    for (unsigned g = 1; g < groups; ++g)
      if (n.input(2 + g * count + i).getType() != xt)
        return n.error() << "input #" << 2 + g * count + i
                         << " must have the type of input #" << 2 + i,
               failure();
    if (!N::elementTypeOf(n.input(2 + i)).isF32())
      return n.unsupported("optimized tensors of a type other than f32");
  }
  MLC_TRY(tf, castTo(n, t, n.b.getF32Type()));
  return OptimizerOperands{r, tf, count};
}

/// norm_coefficient * x + g.
FailureOr<Value> regularized(N &n, Value x, Value g, double normCoefficient) {
  if (normCoefficient == 0)
    return g;
  MLC_TRY(nx, scale(n, x, normCoefficient));
  return binary<graph::AddOp>(n, nx, g);
}

/// a * u + b * v (a, b constants).
FailureOr<Value> blend(N &n, double a, Value u, double b, Value v) {
  MLC_TRY(au, scale(n, u, a));
  MLC_TRY(bv, scale(n, v, b));
  return binary<graph::AddOp>(n, au, bv);
}

LogicalResult convertAdagrad(N &n) {
  MLC_TRY(decay, n.getFloat("decay_factor", 0.0f));
  MLC_TRY(epsilon, n.getFloat("epsilon", 0.0f));
  MLC_TRY(norm, n.getFloat("norm_coefficient", 0.0f));
  MLC_TRY(ops, optimizerOperands(n, 3));
  // r = R / (1 + T * decay_factor)
  MLC_TRY(td, scale(n, ops.t, decay));
  MLC_TRY(denom, addScalar(n, td, 1.0));
  MLC_TRY(r, binary<graph::DivOp>(n, ops.r, denom));
  for (int64_t i = 0; i < ops.n; ++i) {
    Value x = n.input(2 + i), g = n.input(2 + ops.n + i),
          h = n.input(2 + 2 * ops.n + i);
    MLC_TRY(gr, regularized(n, x, g, norm));
    MLC_TRY(g2, binary<graph::MulOp>(n, gr, gr));
    MLC_TRY(hNew, binary<graph::AddOp>(n, h, g2));
    MLC_TRY(root, unary<graph::SqrtOp>(n, hNew));
    MLC_TRY(adaptive, addScalar(n, root, epsilon));
    MLC_TRY(step, binary<graph::DivOp>(n, gr, adaptive));
    MLC_TRY(rStep, binary<graph::MulOp>(n, r, step));
    MLC_TRY(xNew, binary<graph::SubOp>(n, x, rStep));
    n.setOutput(i, xNew);
    n.setOutput(ops.n + i, hNew);
  }
  return success();
}

LogicalResult convertMomentum(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha"));
  MLC_TRY(beta, n.getFloat("beta"));
  MLC_TRY(norm, n.getFloat("norm_coefficient"));
  MLC_TRY(mode, n.getString("mode"));
  if (mode != "standard" && mode != "nesterov")
    return n.error() << "mode must be \"standard\" or \"nesterov\", got \""
                     << mode << "\"",
           failure();
  MLC_TRY(ops, optimizerOperands(n, 3));
  // The first step (T = 0) takes the gradient whole: beta becomes 1.
  Value zero = n.scalarLike(ops.t, 0.0);
  MLC_TRY(started, compare(n, Pred::gt, ops.t, zero));
  MLC_TRY(betaT, select(n, started, n.scalarLike(ops.t, beta),
                        n.scalarLike(ops.t, 1.0)));
  for (int64_t i = 0; i < ops.n; ++i) {
    Value x = n.input(2 + i), g = n.input(2 + ops.n + i),
          v = n.input(2 + 2 * ops.n + i);
    MLC_TRY(gr, regularized(n, x, g, norm));
    MLC_TRY(av, scale(n, v, alpha));
    MLC_TRY(bg, binary<graph::MulOp>(n, betaT, gr));
    MLC_TRY(vNew, binary<graph::AddOp>(n, av, bg));
    Value direction = vNew;
    if (mode == "nesterov") {
      MLC_TRY(d, blend(n, 1.0, gr, alpha, vNew));
      direction = d;
    }
    MLC_TRY(rStep, binary<graph::MulOp>(n, ops.r, direction));
    MLC_TRY(xNew, binary<graph::SubOp>(n, x, rStep));
    n.setOutput(i, xNew);
    n.setOutput(ops.n + i, vNew);
  }
  return success();
}

LogicalResult convertAdam(N &n) {
  MLC_TRY(alpha, n.getFloat("alpha", 0.9f));
  MLC_TRY(beta, n.getFloat("beta", 0.999f));
  MLC_TRY(epsilon, n.getFloat("epsilon", 1e-6f));
  MLC_TRY(norm, n.getFloat("norm_coefficient", 0.0f));
  MLC_TRY(normPost, n.getFloat("norm_coefficient_post", 0.0f));
  MLC_TRY(ops, optimizerOperands(n, 4));
  // Bias correction from the first step on: R * sqrt(1 - beta^T) /
  // (1 - alpha^T); R itself at T = 0.
  auto powT = [&](double base) -> FailureOr<Value> {
    return binary<graph::PowOp>(n, n.scalarLike(ops.t, base), ops.t);
  };
  MLC_TRY(betaT, powT(beta));
  MLC_TRY(alphaT, powT(alpha));
  MLC_TRY(oneMinusBetaT, blend(n, -1.0, betaT, 1.0, n.scalarLike(betaT, 1.0)));
  MLC_TRY(oneMinusAlphaT,
          blend(n, -1.0, alphaT, 1.0, n.scalarLike(alphaT, 1.0)));
  MLC_TRY(root, unary<graph::SqrtOp>(n, oneMinusBetaT));
  MLC_TRY(rRoot, binary<graph::MulOp>(n, ops.r, root));
  MLC_TRY(corrected, binary<graph::DivOp>(n, rRoot, oneMinusAlphaT));
  MLC_TRY(started, compare(n, Pred::gt, ops.t, n.scalarLike(ops.t, 0.0)));
  MLC_TRY(r, select(n, started, corrected, ops.r));
  for (int64_t i = 0; i < ops.n; ++i) {
    Value x = n.input(2 + i), g = n.input(2 + ops.n + i),
          v = n.input(2 + 2 * ops.n + i), h = n.input(2 + 3 * ops.n + i);
    MLC_TRY(gr, regularized(n, x, g, norm));
    MLC_TRY(vNew, blend(n, alpha, v, 1.0 - alpha, gr));
    MLC_TRY(g2, binary<graph::MulOp>(n, gr, gr));
    MLC_TRY(hNew, blend(n, beta, h, 1.0 - beta, g2));
    MLC_TRY(hRoot, unary<graph::SqrtOp>(n, hNew));
    MLC_TRY(hSqrt, addScalar(n, hRoot, epsilon));
    MLC_TRY(ratio, binary<graph::DivOp>(n, vNew, hSqrt));
    MLC_TRY(rStep, binary<graph::MulOp>(n, r, ratio));
    MLC_TRY(xNew, binary<graph::SubOp>(n, x, rStep));
    MLC_TRY(xFinal, scale(n, xNew, 1.0 - normPost));
    n.setOutput(i, xFinal);
    n.setOutput(ops.n + i, vNew);
    n.setOutput(2 * ops.n + i, hNew);
  }
  return success();
}

constexpr int64_t kMax = 1; // the domain's only opset

const OpConverter kConverters[] = {
    {"Adagrad", 1, kMax, 5, "decay_factor,epsilon,norm_coefficient",
     convertAdagrad, "f32; any number of tensors", kTrainingDomain},
    {"Momentum", 1, kMax, 5, "alpha,beta,mode,norm_coefficient",
     convertMomentum, "f32; standard and nesterov", kTrainingDomain},
    {"Adam", 1, kMax, 6,
     "alpha,beta,epsilon,norm_coefficient,norm_coefficient_post", convertAdam,
     "f32; any number of tensors", kTrainingDomain},
};

} // namespace

ArrayRef<OpConverter> getTrainingConverters() { return kConverters; }

} // namespace mlc::frontend
