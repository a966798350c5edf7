//===- Passes.td - graph -> linalg lowering pass -----------*- tablegen -*-===//
#ifndef MLC_CONVERSION_GRAPHTOLINALG_PASSES
#define MLC_CONVERSION_GRAPHTOLINALG_PASSES

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalg : Pass<"convert-graph-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower graph ops to linalg/tensor/arith/math on tensors";
  let description = [{
    Each graph op becomes linalg ops on tensors (mostly one linalg.generic
    per op, parallel loops outermost) plus tensor ops for reshapes, slices,
    padding and concatenation. Weights stay dense_resource constants.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect"
  ];
}

#endif // MLC_CONVERSION_GRAPHTOLINALG_PASSES
