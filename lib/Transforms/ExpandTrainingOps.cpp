//===- ExpandTrainingOps.cpp - losses and optimizer steps to primitives ---===//
//
// Losses, optimizer updates and training-mode batch_norm are single ops while
// autodiff runs (their rules are short and the train step reads well). Here
// they become the elementwise and reduction ops they are made of, which the
// folding, fusion and lowering passes already handle.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDTRAININGOPS
#include "Graph/GraphPasses.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

/// A rank-0 constant of `elementType` (it broadcasts against any tensor).
Value scalar(ImplicitLocOpBuilder &b, Type elementType, double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute v = isa<FloatType>(elementType)
                    ? Attribute(b.getFloatAttr(elementType, value))
                    : Attribute(b.getIntegerAttr(elementType, int64_t(value)));
  return ConstantOp::create(b, DenseElementsAttr::get(type, v));
}

Type elementTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

SmallVector<int64_t> allAxes(Value v) {
  return llvm::to_vector(
      llvm::seq<int64_t>(0, cast<RankedTensorType>(v.getType()).getRank()));
}

/// mean(v) over every axis, as a scalar.
Value meanAll(ImplicitLocOpBuilder &b, Value v) {
  if (cast<RankedTensorType>(v.getType()).getRank() == 0)
    return v;
  return ReduceMeanOp::create(b, v, allAxes(v), /*keepdims=*/false);
}

/// grad + weight_decay * param (L2 regularization as torch.optim does it).
Value decayed(ImplicitLocOpBuilder &b, Value param, Value grad, double wd) {
  if (wd == 0)
    return grad;
  return AddOp::create(
      b, grad, MulOp::create(b, param, scalar(b, elementTypeOf(param), wd)));
}

void expand(SoftmaxCrossEntropyOp op, ImplicitLocOpBuilder &b) {
  auto labels = cast<RankedTensorType>(op.getLabels().getType());
  Value logProbs = LogSoftmaxOp::create(b, op.getLogits(), /*axis=*/1);
  Value index =
      ReshapeOp::create(b, op.getLabels(),
                        ArrayRef<int64_t>{labels.getDimSize(0), 1});
  Value picked = GatherElementsOp::create(b, logProbs, index, /*axis=*/1);
  op.getResult().replaceAllUsesWith(NegOp::create(b, meanAll(b, picked)));
}

void expand(MSELossOp op, ImplicitLocOpBuilder &b) {
  Value diff = SubOp::create(b, op.getPrediction(), op.getTarget());
  op.getResult().replaceAllUsesWith(
      meanAll(b, MulOp::create(b, diff, diff)));
}

void expand(SGDUpdateOp op, ImplicitLocOpBuilder &b) {
  Type et = elementTypeOf(op.getParam());
  double momentum = op.getMomentum().convertToDouble();
  Value grad = decayed(b, op.getParam(), op.getGrad(),
                       op.getWeightDecay().convertToDouble());
  Value step = grad;
  if (Value velocity = op.getVelocity()) {
    Value newVelocity =
        AddOp::create(b, MulOp::create(b, velocity, scalar(b, et, momentum)),
                      grad);
    op.getResults()[1].replaceAllUsesWith(newVelocity);
    step = op.getNesterov()
               ? Value(AddOp::create(
                     b, grad,
                     MulOp::create(b, newVelocity, scalar(b, et, momentum))))
               : newVelocity;
  }
  Value lr = scalar(b, et, op.getLr().convertToDouble());
  op.getResults()[0].replaceAllUsesWith(
      SubOp::create(b, op.getParam(), MulOp::create(b, step, lr)));
}

void expand(AdamUpdateOp op, ImplicitLocOpBuilder &b) {
  Type et = elementTypeOf(op.getParam());
  double beta1 = op.getBeta1().convertToDouble();
  double beta2 = op.getBeta2().convertToDouble();
  auto c = [&](double v) { return scalar(b, et, v); };
  Value grad = decayed(b, op.getParam(), op.getGrad(),
                       op.getWeightDecay().convertToDouble());
  Value m = AddOp::create(b, MulOp::create(b, op.getM(), c(beta1)),
                          MulOp::create(b, grad, c(1 - beta1)));
  Value v = AddOp::create(
      b, MulOp::create(b, op.getV(), c(beta2)),
      MulOp::create(b, MulOp::create(b, grad, grad), c(1 - beta2)));
  // Bias corrections 1 - beta^step are scalars computed once per step.
  Value correction1 = SubOp::create(b, c(1), PowOp::create(b, c(beta1), op.getStep()));
  Value correction2 = SubOp::create(b, c(1), PowOp::create(b, c(beta2), op.getStep()));
  Value mHat = DivOp::create(b, m, correction1);
  Value vHat = DivOp::create(b, v, correction2);
  Value denom = AddOp::create(b, SqrtOp::create(b, vHat),
                              c(op.getEpsilon().convertToDouble()));
  Value update = MulOp::create(b, DivOp::create(b, mHat, denom),
                               c(op.getLr().convertToDouble()));
  op.getNewParam().replaceAllUsesWith(SubOp::create(b, op.getParam(), update));
  op.getNewM().replaceAllUsesWith(m);
  op.getNewV().replaceAllUsesWith(v);
}

void expand(BatchNormTrainOp op, ImplicitLocOpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  int64_t channels = type.getDimSize(1);
  SmallVector<int64_t> axes, perChannel(type.getRank(), 1);
  perChannel[1] = channels;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != 1)
      axes.push_back(d);
  Value mean = ReduceMeanOp::create(b, op.getInput(), axes, /*keepdims=*/true);
  Value centered = SubOp::create(b, op.getInput(), mean);
  Value variance = ReduceMeanOp::create(
      b, MulOp::create(b, centered, centered), axes, /*keepdims=*/true);
  Value rstd = RsqrtOp::create(
      b, AddOp::create(b, variance,
                       scalar(b, type.getElementType(),
                              op.getEpsilon().convertToDouble())));
  Value scale = ReshapeOp::create(b, op.getScale(), perChannel);
  Value bias = ReshapeOp::create(b, op.getBias(), perChannel);
  Value y = AddOp::create(
      b, MulOp::create(b, MulOp::create(b, centered, rstd), scale), bias);
  op.getResult().replaceAllUsesWith(y);
  SmallVector<int64_t> flat{channels};
  op.getMean().replaceAllUsesWith(ReshapeOp::create(b, mean, flat));
  op.getVariance().replaceAllUsesWith(ReshapeOp::create(b, variance, flat));
}

struct GraphExpandTrainingOps
    : mlc::graph::impl::GraphExpandTrainingOpsBase<GraphExpandTrainingOps> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<StopGradientOp, SoftmaxCrossEntropyOp, MSELossOp, SGDUpdateOp,
              AdamUpdateOp, BatchNormTrainOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      ImplicitLocOpBuilder b(op->getLoc(), op);
      llvm::TypeSwitch<Operation *>(op)
          .Case([&](StopGradientOp s) {
            s.getResult().replaceAllUsesWith(s.getInput());
          })
          .Case<SoftmaxCrossEntropyOp, MSELossOp, SGDUpdateOp, AdamUpdateOp,
                BatchNormTrainOp>([&](auto concrete) { expand(concrete, b); });
      op->erase();
    }
  }
};

} // namespace
