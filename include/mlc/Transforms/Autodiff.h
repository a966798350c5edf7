//===- Autodiff.h - reverse-mode differentiation of graph functions -*- C++ -*-===//
//
// Reverse-mode automatic differentiation on the graph dialect. Each op's
// rule is its VJPOpInterface implementation (lib/Dialect/Graph/GraphVJP*.cpp);
// this engine does activity analysis, walks the active ops last to first,
// accumulates cotangents (symbolic zeros are never materialized) and reports
// active values that reach an op without a rule.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_TRANSFORMS_AUTODIFF_H
#define MLC_TRANSFORMS_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlc::graph {

/// A value of the forward computation and the cotangent it is seeded with.
struct GradientSeed {
  mlir::Value value;
  mlir::Value cotangent;
};

/// Emits the reverse pass at the builder's insertion point, which must be in
/// `body` after every forward op that the seeds depend on. The forward ops
/// are the graph ops of `body` before the insertion point. On success,
/// `grads[i]` is the cotangent of `wrt[i]` (a zero constant when `wrt[i]`
/// does not influence any seed). Errors are emitted at the offending op;
/// on failure no ops are left behind.
///
/// Seeds on values that do not depend on `wrt` are ignored; the reverse pass
/// contains only ops that some `grads[i]` uses (cotangents of operands that
/// do not depend on `wrt` are erased again).
mlir::LogicalResult differentiate(mlir::OpBuilder &builder, mlir::Block &body,
                                  mlir::ArrayRef<mlir::Value> wrt,
                                  mlir::ArrayRef<GradientSeed> seeds,
                                  llvm::SmallVectorImpl<mlir::Value> &grads);

/// Builds the vector-Jacobian product function of `func` next to it:
///   @gradName(args..., one cotangent per float result)
///       -> (results..., cotangents of args[wrt[0]], args[wrt[1]], ...)
/// Argument and result attributes `mlc.name` are carried over ("d<name>"
/// for the gradients). An empty `wrt` means every float argument.
mlir::FailureOr<mlir::func::FuncOp>
buildGradientFunction(mlir::func::FuncOp func, llvm::ArrayRef<unsigned> wrt,
                      llvm::StringRef gradName);

} // namespace mlc::graph

#endif // MLC_TRANSFORMS_AUTODIFF_H
