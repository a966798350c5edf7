//===- InferShapes.cpp - re-infer graph result types ----------------------===//
//
// Re-runs every op's type inference in program order and updates function
// signatures, so a change of input shapes propagates through the graph and
// the first op that cannot accept its operands reports it.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHINFERSHAPES
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;

namespace {
struct GraphInferShapes
    : mlc::graph::impl::GraphInferShapesBase<GraphInferShapes> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      WalkResult result = func.walk([](Operation *op) {
        if (!isa<mlc::graph::GraphDialect>(op->getDialect()))
          return WalkResult::advance();
        return failed(mlc::graph::inferAndSetResultTypes(op))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (result.wasInterrupted())
        return signalPassFailure();
      for (Block &block : func.getBody()) {
        if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
          func.setFunctionType(FunctionType::get(
              func.getContext(), func.getArgumentTypes(),
              ret.getOperandTypes()));
      }
    }
  }
};
} // namespace
