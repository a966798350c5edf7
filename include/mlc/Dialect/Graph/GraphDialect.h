//===- GraphDialect.h - graph dialect ---------------------------*- C++ -*-===//
#ifndef MLC_DIALECT_GRAPH_GRAPHDIALECT_H
#define MLC_DIALECT_GRAPH_GRAPHDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlc/Dialect/Graph/GraphDialect.h.inc"

namespace mlc::graph::traits {
/// Marks ops computed element by element with numpy broadcasting (see
/// Graph_BroadcastingElementwise in GraphOps.td).
template <typename ConcreteType>
class BroadcastingElementwise
    : public mlir::OpTrait::TraitBase<ConcreteType, BroadcastingElementwise> {};
/// Results carry no gradient (see Graph_NonDifferentiable).
template <typename ConcreteType>
class NonDifferentiable
    : public mlir::OpTrait::TraitBase<ConcreteType, NonDifferentiable> {};
} // namespace mlc::graph::traits
#include "mlc/Dialect/Graph/GraphInterfaces.h.inc"
#include "mlc/Dialect/Graph/GraphEnums.h.inc"

#define GET_OP_CLASSES
#include "mlc/Dialect/Graph/GraphOps.h.inc"

namespace mlc::graph {

/// True for ops with the BroadcastingElementwise trait.
inline bool isBroadcastingElementwise(mlir::Operation *op) {
  return op->hasTrait<traits::BroadcastingElementwise>();
}

/// True for ops with the NonDifferentiable trait.
inline bool isNonDifferentiable(mlir::Operation *op) {
  return op->hasTrait<traits::NonDifferentiable>();
}

/// Ops that lower to views of their input (no loop nest, no kernel).
inline bool isView(mlir::Operation *op) {
  return llvm::isa<ReshapeOp, SliceOp>(op);
}

/// Floating-point operations of one op on its static shapes: 2 per
/// multiply-add of contractions (matmul, conv2d), one per output element of
/// elementwise ops, one per input element of reductions and per window
/// position of pooling, 5 and 7 per element for softmax and layer_norm, 0 for
/// data movement, views and constants. Used by the compile report and the
/// kernel table of profiled models.
int64_t estimateFlops(mlir::Operation *op);

/// Numpy broadcast of two static shapes; false if incompatible.
bool broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                     llvm::SmallVectorImpl<int64_t> &result);

/// Recomputes the result types of `op` through InferTypeOpInterface and sets
/// them. Errors are reported at the op's location. Used by importers, which
/// create ops before their result types are known.
mlir::LogicalResult inferAndSetResultTypes(mlir::Operation *op);

} // namespace mlc::graph

#endif // MLC_DIALECT_GRAPH_GRAPHDIALECT_H
