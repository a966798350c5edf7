//===- CompileReport.cpp - figures for mlc-compile --report ---------------===//

#include "mlc/Target/CompileReport.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

using namespace mlir;
using namespace mlc::graph;

namespace mlc::target {

namespace {

bool isGraphCompute(Operation *op) {
  return isa<GraphDialect>(op->getDialect()) &&
         !isa<ConstantOp, FusionGroupOp, YieldOp>(op);
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
      flops += estimateFlops(op);
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
