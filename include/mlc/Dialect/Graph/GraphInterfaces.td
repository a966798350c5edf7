//===- GraphInterfaces.td - graph dialect interfaces -------*- tablegen -*-===//
#ifndef MLC_GRAPH_INTERFACES
#define MLC_GRAPH_INTERFACES

include "mlir/IR/OpBase.td"

def Graph_VJPOpInterface : OpInterface<"VJPOpInterface"> {
  let cppNamespace = "::mlc::graph";
  let description = [{
    Reverse-mode differentiation rule of a graph op (its vector-Jacobian
    product). `graph-autodiff` calls it for every active op, last to first,
    with the builder placed after the forward computation, so a rule may use
    the op's operands and results (the saved forward values) directly.
  }];
  let methods = [
    InterfaceMethod<[{
        Builds the cotangents of the operands from those of the results.
        `resultCotangents` has one entry per result, each of the result's
        type, or null for a symbolic zero (at least one is non-null).
        `operandCotangents` is returned with one entry per operand, of the
        operand's type, or null where the contribution is zero or the
        operand is not differentiable (integer indices, conditions).
        Failure (after emitting an error at the op) when the op cannot be
        differentiated with these attributes.
      }], "::mlir::LogicalResult", "buildVJP",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ArrayRef<::mlir::Value>":$resultCotangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandCotangents)>
  ];
}

// Shorthand for ops that implement the interface in GraphVJP*.cpp.
def Graph_HasVJP : DeclareOpInterfaceMethods<Graph_VJPOpInterface>;

// The op's results carry no gradient: piecewise-constant functions (floor,
// sign, comparisons), index-valued ops (argmax) and stop_gradient. Autodiff
// treats their results as constants instead of reporting a missing rule.
def Graph_NonDifferentiable : NativeOpTrait<"NonDifferentiable"> {
  let cppNamespace = "::mlc::graph::traits";
}

#endif // MLC_GRAPH_INTERFACES
