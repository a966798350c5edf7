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

#include "Graph/GraphDialect.h.inc"
#include "Graph/GraphEnums.h.inc"

#define GET_OP_CLASSES
#include "Graph/GraphOps.h.inc"

namespace mlc::graph {

/// Numpy broadcast of two static shapes; false if incompatible.
bool broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                     llvm::SmallVectorImpl<int64_t> &result);

/// Recomputes the result types of `op` through InferTypeOpInterface and sets
/// them. Errors are reported at the op's location. Used by importers, which
/// create ops before their result types are known.
mlir::LogicalResult inferAndSetResultTypes(mlir::Operation *op);

} // namespace mlc::graph

#endif // MLC_DIALECT_GRAPH_GRAPHDIALECT_H
