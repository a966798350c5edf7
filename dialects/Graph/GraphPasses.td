//===- GraphPasses.td - graph-level passes -----------------*- tablegen -*-===//
#ifndef MLC_GRAPH_PASSES
#define MLC_GRAPH_PASSES

include "mlir/Pass/PassBase.td"

def GraphInferShapes : Pass<"graph-infer-shapes", "mlir::ModuleOp"> {
  let summary = "Recompute every graph op's result type from its operands";
  let description = [{
    Walks functions in order and re-infers result types (through
    InferTypeOpInterface), then updates function signatures to match. Used
    after a function's argument types change (e.g. a different batch size),
    so that inference failures are reported at the op that causes them.
  }];
}

#endif // MLC_GRAPH_PASSES
