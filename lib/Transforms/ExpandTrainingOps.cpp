//===- ExpandTrainingOps.cpp - losses and optimizer steps to primitives ---===//
//
// Losses, optimizer updates and training-mode batch_norm are single ops while
// autodiff runs (their rules are short and the train step reads well). Here
// they become the elementwise and reduction ops they are made of, which the
// folding, fusion and lowering passes already handle.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphBuilders.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDTRAININGOPS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

/// mean(v) over every axis, as a scalar.
Value meanAll(GraphBuilder &b, Value v) {
  int64_t rank = tensorTypeOf(v).getRank();
  if (rank == 0)
    return v;
  return b.reduceMean(v, llvm::to_vector(llvm::seq<int64_t>(0, rank)),
                      /*keepdims=*/false);
}

/// grad + weight_decay * param (L2 regularization as torch.optim does it).
Value decayed(GraphBuilder &b, Value param, Value grad, double wd) {
  return wd == 0 ? grad : b.add(grad, b.scale(param, wd));
}

void expand(SoftmaxCrossEntropyOp op, GraphBuilder &b) {
  OpBuilder &ob = b.builder();
  Value logProbs = LogSoftmaxOp::create(ob, op.getLoc(), op.getLogits(), 1);
  Value index = b.reshape(op.getLabels(),
                          {tensorTypeOf(op.getLabels()).getDimSize(0), 1});
  Value picked =
      GatherElementsOp::create(ob, op.getLoc(), logProbs, index, /*axis=*/1);
  op.getResult().replaceAllUsesWith(b.neg(meanAll(b, picked)));
}

void expand(MSELossOp op, GraphBuilder &b) {
  Value diff = b.sub(op.getPrediction(), op.getTarget());
  op.getResult().replaceAllUsesWith(meanAll(b, b.mul(diff, diff)));
}

void expand(SGDUpdateOp op, GraphBuilder &b) {
  double momentum = op.getMomentum().convertToDouble();
  Value grad = decayed(b, op.getParam(), op.getGrad(),
                       op.getWeightDecay().convertToDouble());
  Value step = grad;
  if (Value velocity = op.getVelocity()) {
    Value newVelocity = b.add(b.scale(velocity, momentum), grad);
    op.getResults()[1].replaceAllUsesWith(newVelocity);
    step = op.getNesterov() ? b.add(grad, b.scale(newVelocity, momentum))
                            : newVelocity;
  }
  op.getResults()[0].replaceAllUsesWith(
      b.sub(op.getParam(), b.scale(step, op.getLr().convertToDouble())));
}

void expand(AdamUpdateOp op, GraphBuilder &b) {
  double beta1 = op.getBeta1().convertToDouble();
  double beta2 = op.getBeta2().convertToDouble();
  Value param = op.getParam();
  Value grad = decayed(b, param, op.getGrad(),
                       op.getWeightDecay().convertToDouble());
  Value m = b.add(b.scale(op.getM(), beta1), b.scale(grad, 1 - beta1));
  Value v = b.add(b.scale(op.getV(), beta2),
                  b.scale(b.mul(grad, grad), 1 - beta2));
  // Bias corrections 1 - beta^step are scalars computed once per step.
  auto correction = [&](double beta) {
    Value power = b.pow(b.scalar(param, beta), op.getStep());
    return b.sub(b.scalar(param, 1), power);
  };
  Value correction1 = correction(beta1);
  Value correction2 = correction(beta2);
  Value mHat = b.div(m, correction1);
  Value vHat = b.div(v, correction2);
  Value denom = b.add(SqrtOp::create(b.builder(), op.getLoc(), vHat),
                      b.scalar(param, op.getEpsilon().convertToDouble()));
  Value update = b.scale(b.div(mHat, denom), op.getLr().convertToDouble());
  op.getNewParam().replaceAllUsesWith(b.sub(param, update));
  op.getNewM().replaceAllUsesWith(m);
  op.getNewV().replaceAllUsesWith(v);
}

void expand(BatchNormTrainOp op, GraphBuilder &b) {
  Value x = op.getInput();
  auto type = tensorTypeOf(x);
  int64_t channels = type.getDimSize(1);
  SmallVector<int64_t> axes, perChannel(type.getRank(), 1);
  perChannel[1] = channels;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != 1)
      axes.push_back(d);
  Value mean = b.reduceMean(x, axes, /*keepdims=*/true);
  Value centered = b.sub(x, mean);
  Value variance =
      b.reduceMean(b.mul(centered, centered), axes, /*keepdims=*/true);
  Value rstd = b.rsqrt(
      b.add(variance, b.scalar(x, op.getEpsilon().convertToDouble())));
  Value y = b.add(b.mul(b.mul(centered, rstd),
                        b.reshape(op.getScale(), perChannel)),
                  b.reshape(op.getBias(), perChannel));
  op.getResult().replaceAllUsesWith(y);
  op.getMean().replaceAllUsesWith(b.reshape(mean, {channels}));
  op.getVariance().replaceAllUsesWith(b.reshape(variance, {channels}));
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
      OpBuilder ob(op);
      GraphBuilder b(ob, op->getLoc());
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
