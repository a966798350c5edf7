//===- VJPUtils.h - building blocks of the graph VJP rules ------*- C++ -*-===//
//
// Shared by the gradient rules (lib/Dialect/Graph/GraphVJP*.cpp) and the
// reverse-mode engine (AutodiffEngine.cpp): the one helper that undoes numpy
// broadcasting (sumToShape) and VJPBuilder, GraphBuilder with the adjoints
// of broadcasting and reduction. General graph builders are in
// GraphBuilders.h.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_DIALECT_GRAPH_VJPUTILS_H
#define MLC_DIALECT_GRAPH_VJPUTILS_H

#include "mlc/Dialect/Graph/GraphBuilders.h"

namespace mlc::graph {

/// True for values of a float tensor type (the only ones with gradients).
bool isFloatTensor(mlir::Value v);

/// Reduces `grad` (of a numpy-broadcast shape) to `target`'s shape: sums
/// over the leading axes that broadcasting added and over the axes where
/// `target` has size 1 (keepdims), then reshapes. Returns `grad` itself when
/// the shapes already agree.
mlir::Value sumToShape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value grad,
                       mlir::RankedTensorType target);

/// GraphBuilder plus the adjoints of broadcasting and reduction.
class VJPBuilder : public GraphBuilder {
public:
  using GraphBuilder::GraphBuilder;

  mlir::Value sumToShape(mlir::Value g, mlir::Type target);
  /// Undoes a reduction over `axes`: reinserts them as size-1 dims (unless
  /// `keepdims`) and broadcasts to `shape`.
  mlir::Value expandReduced(mlir::Value g, llvm::ArrayRef<int64_t> axes,
                            bool keepdims, llvm::ArrayRef<int64_t> shape);
};

} // namespace mlc::graph

#endif // MLC_DIALECT_GRAPH_VJPUTILS_H
