//===- GraphFlops.cpp - floating-point work of a graph op -----------------===//
//
// One definition of "FLOPs" for everything that reports them: the compile
// report (--report) and the kernel table of profiled models
// (mlc-instrument-kernels), so both give the same figures.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Dialect/Graph/Winograd.h"

using namespace mlir;

namespace mlc::graph {

namespace {
int64_t elements(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}
} // namespace

int64_t estimateFlops(Operation *op) {
  if (auto mm = dyn_cast<MatMulOp>(op)) {
    int64_t k = mm.getLhs().getType().getShape().back();
    return 2 * elements(mm.getType()) * k;
  }
  if (auto mm = dyn_cast<MatMulIntegerOp>(op)) {
    int64_t k = mm.getLhs().getType().getShape().back();
    return 2 * elements(mm.getType()) * k;
  }
  if (isa<Conv2DOp, Conv2DIntegerOp>(op)) {
    auto w = cast<ShapedType>(op->getOperand(1).getType()).getShape();
    return 2 * elements(op->getResult(0).getType()) * w[1] * w[2] * w[3];
  }
  if (auto conv = dyn_cast<Conv2DNchwcOp>(op)) {
    // Padded channels included: they are computed.
    auto w = conv.getFilter().getType().getShape();
    int64_t taps = conv.isDepthwise()      ? w[1] * w[2]
                   : conv.hasPlainInput() ? w[1] * w[2] * w[3]
                                          : w[1] * w[2] * w[3] * w[4];
    return 2 * elements(conv.getType()) * taps;
  }
  if (auto conv = dyn_cast<Conv2DIntegerNchwcOp>(op)) {
    auto w = conv.getFilter().getType().getShape();
    return 2 * elements(conv.getType()) *
           (conv.isDepthwise() ? w[1] * w[2] : w[1] * w[2] * w[3] * w[4]);
  }
  if (auto conv = dyn_cast<ConvTranspose2DOp>(op)) {
    auto w = conv.getFilter().getType().getShape();
    return 2 * elements(conv.getInput().getType()) * w[1] * w[2] * w[3];
  }
  // The transforms' multiplies and adds per tile and channel (Winograd.h).
  if (isa<WinogradInputOp, WinogradOutputOp>(op)) {
    struct Count {
      int64_t ops = 0;
      int mul(double, int) { return ++ops, 0; }
      int add(int, int) { return ++ops, 0; }
      int sub(int, int) { return ++ops, 0; }
      int neg(int) { return ++ops, 0; }
    } count;
    auto none = [](auto...) { return 0; };
    auto m = cast<ShapedType>(op->getOperand(0).getType()).getShape();
    if (isa<WinogradInputOp>(op)) {
      winograd::inputTile<int>(
          none, [](auto...) {}, count);
      return count.ops * elements(op->getResult(0).getType()) /
             winograd::kPoints;
    }
    winograd::outputTile<int>(
        none, [](auto...) {}, 4, 4, count);
    return count.ops * (elements(op->getOperand(0).getType()) / m[0]);
  }
  // A multiply and an add per combination of taps.
  if (auto resize = dyn_cast<ResizeOp>(op)) {
    int64_t taps = 1;
    for (Value idx : resize.getIndices())
      taps *= cast<ShapedType>(idx.getType()).getDimSize(0);
    return 2 * elements(resize.getType()) * taps;
  }
  if (auto pool = dyn_cast<MaxPool2DOp>(op))
    return elements(pool.getType()) * pool.getKernel()[0] * pool.getKernel()[1];
  if (auto pool = dyn_cast<AvgPool2DOp>(op))
    return elements(pool.getType()) * pool.getKernel()[0] * pool.getKernel()[1];
  if (isa<GlobalAvgPoolOp, ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp,
          ReduceProdOp, ArgMaxOp, ArgMinOp>(op))
    return elements(op->getOperand(0).getType());
  // max, subtract, exp, sum, divide per element.
  if (isa<SoftmaxOp, LogSoftmaxOp>(op))
    return 5 * elements(op->getOperand(0).getType());
  // mean, center, square, variance, normalize, scale, shift.
  if (isa<LayerNormOp>(op))
    return 7 * elements(op->getOperand(0).getType());
  if (isa<ConstantOp, FusionGroupOp, YieldOp, ReshapeOp, TransposeOp, ConcatOp,
          SliceOp, GatherOp, PadOp, CastOp, GatherElementsOp, BroadcastToOp>(
          op))
    return 0;
  return op->getNumResults() ? elements(op->getResult(0).getType()) : 0;
}

} // namespace mlc::graph
