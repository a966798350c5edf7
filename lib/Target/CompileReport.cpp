//===- CompileReport.cpp - figures for mlc-compile --report ---------------===//

#include "mlc/Target/CompileReport.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

using namespace mlir;
using namespace mlc::graph;

namespace mlc::target {

namespace {

int64_t elements(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}

bool isGraphCompute(Operation *op) {
  return isa<GraphDialect>(op->getDialect()) &&
         !isa<ConstantOp, FusionGroupOp, YieldOp>(op);
}

int64_t flopsOf(Operation *op) {
  if (auto mm = dyn_cast<MatMulOp>(op)) {
    int64_t k = mm.getLhs().getType().getShape().back();
    return 2 * elements(mm.getType()) * k;
  }
  if (auto conv = dyn_cast<Conv2DOp>(op)) {
    auto w = conv.getFilter().getType().getShape();
    return 2 * elements(conv.getType()) * w[1] * w[2] * w[3];
  }
  if (auto conv = dyn_cast<ConvTranspose2DOp>(op)) {
    auto w = conv.getFilter().getType().getShape();
    return 2 * elements(conv.getInput().getType()) * w[1] * w[2] * w[3];
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
  if (isa<ReshapeOp, TransposeOp, ConcatOp, SliceOp, GatherOp, PadOp, CastOp,
          GatherElementsOp, BroadcastToOp>(op))
    return 0;
  return op->getNumResults() ? elements(op->getResult(0).getType()) : 0;
}

} // namespace

int64_t countGraphOps(ModuleOp module) {
  int64_t n = 0;
  module.walk([&](Operation *op) { n += isGraphCompute(op); });
  return n;
}

llvm::json::Object graphStats(ModuleOp module) {
  int64_t weightsBytes = 0, flops = 0;
  llvm::json::Array kernels;
  module.walk([&](Operation *op) {
    if (auto cst = dyn_cast<ConstantOp>(op)) {
      auto type = cast<ShapedType>(cst.getType());
      unsigned bits = type.getElementTypeBitWidth();
      weightsBytes += type.getNumElements() * std::max(1u, bits / 8);
    }
    if (isGraphCompute(op))
      flops += flopsOf(op);
    if (auto group = dyn_cast<FusionGroupOp>(op)) {
      llvm::json::Array ops;
      for (Operation &inner : group.getBody().front().without_terminator())
        ops.push_back(inner.getName().stripDialect().str());
      kernels.push_back(llvm::json::Object{{"kind", group.getKind().str()},
                                           {"ops", std::move(ops)}});
    } else if (isGraphCompute(op) && !op->getParentOfType<FusionGroupOp>() &&
               !isView(op)) {
      // Not grouped (-O0): each op is a loop nest of its own.
      kernels.push_back(llvm::json::Object{
          {"kind", "op"},
          {"ops", llvm::json::Array{op->getName().stripDialect().str()}}});
    }
  });
  llvm::json::Object stats;
  stats["graph_ops_after"] = countGraphOps(module);
  stats["kernels"] = int64_t(kernels.size());
  stats["fused_ops"] = std::move(kernels);
  stats["weights_bytes"] = weightsBytes;
  stats["flops"] = flops;
  return stats;
}

} // namespace mlc::target
