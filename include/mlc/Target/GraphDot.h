//===- GraphDot.h - Graphviz picture of a graph-dialect module --*- C++ -*-===//
#ifndef MLC_TARGET_GRAPHDOT_H
#define MLC_TARGET_GRAPHDOT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlc::target {

/// Writes the entry function of a graph-dialect module as Graphviz DOT: one
/// node per op (name and result type), edges for the values, inputs and
/// outputs as ellipses, weights as boxes, and each graph.fusion_group as a
/// cluster labelled with its kernel number and kind.
mlir::LogicalResult printGraphDot(mlir::ModuleOp module,
                                  llvm::StringRef entry,
                                  llvm::raw_ostream &os);

} // namespace mlc::target

#endif
