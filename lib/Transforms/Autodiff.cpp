//===- Autodiff.cpp - the graph-autodiff pass -----------------------------===//
//
// Adds the vector-Jacobian product function of one function of the module;
// the engine is AutodiffEngine.cpp, the pass description
// include/mlc/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Autodiff.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHAUTODIFF
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;

namespace {
struct GraphAutodiff : mlc::graph::impl::GraphAutodiffBase<GraphAutodiff> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(funcName);
    if (!func || func.isExternal()) {
      module.emitError("graph-autodiff: no function '")
          << funcName << "' with a body in the module";
      return signalPassFailure();
    }
    SmallVector<unsigned> indices(wrt.begin(), wrt.end());
    if (failed(mlc::graph::buildGradientFunction(func, indices, gradName)))
      signalPassFailure();
  }
};
} // namespace
