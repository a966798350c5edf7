//===- GraphDialect.td - graph dialect definition ----------*- tablegen -*-===//
//
// The graph dialect: tensor operations with value semantics on ranked,
// statically shaped tensors, as imported from model.json / ONNX.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_GRAPH_DIALECT
#define MLC_GRAPH_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let summary = "Tensor-level neural network operations";
  let description = [{
    Ops of a model graph: each takes and returns ranked tensors of static
    shape (f32, and i64/i32/i1 where shape ops and comparisons need them).
    Every op infers its result type through InferTypeOpInterface, so a
    mismatch between operands is reported by the op that sees it, and the
    verifier rejects results that disagree with inference.
  }];
  let cppNamespace = "::mlc::graph";
  let hasConstantMaterializer = 1;
  let dependentDialects = [];
}

def Graph_ComparePredicate : I64EnumAttr<"ComparePredicate",
    "comparison predicate", [
      I64EnumAttrCase<"eq", 0>, I64EnumAttrCase<"ne", 1>,
      I64EnumAttrCase<"lt", 2>, I64EnumAttrCase<"le", 3>,
      I64EnumAttrCase<"gt", 4>, I64EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mlc::graph";
}

#endif // MLC_GRAPH_DIALECT
