//===- GraphVJPUtils.cpp - building blocks of the graph VJP rules ---------===//

#include "mlc/Dialect/Graph/VJPUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace mlc::graph {

bool isFloatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType>(t.getElementType());
}

Value sumToShape(OpBuilder &b, Location loc, Value grad,
                 RankedTensorType target) {
  ArrayRef<int64_t> gs = tensorTypeOf(grad).getShape();
  ArrayRef<int64_t> ts = target.getShape();
  if (gs == ts)
    return grad;
  int64_t lead = int64_t(gs.size()) - int64_t(ts.size());
  assert(lead >= 0 && "gradient has a lower rank than its target");
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < int64_t(gs.size()); ++i)
    if (i < lead || (ts[i - lead] == 1 && gs[i] != 1))
      axes.push_back(i);
  if (!axes.empty())
    grad = ReduceSumOp::create(b, loc, grad, axes, /*keepdims=*/true);
  if (tensorTypeOf(grad).getShape() != ts)
    grad = ReshapeOp::create(b, loc, grad, ts);
  return grad;
}

Value VJPBuilder::sumToShape(Value g, Type target) {
  return graph::sumToShape(b, loc, g, llvm::cast<RankedTensorType>(target));
}

Value VJPBuilder::expandReduced(Value g, ArrayRef<int64_t> axes, bool keepdims,
                                ArrayRef<int64_t> shape) {
  if (!keepdims) {
    SmallVector<int64_t> kept(shape);
    for (int64_t a : axes)
      kept[a] = 1;
    g = reshape(g, kept);
  }
  return broadcastTo(g, shape);
}

} // namespace mlc::graph
