//===- CompileReport.h - figures for mlc-compile --report -------*- C++ -*-===//
#ifndef MLC_TARGET_COMPILEREPORT_H
#define MLC_TARGET_COMPILEREPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace mlc::target {

/// Non-constant graph ops in the module (fusion_group/yield not counted).
int64_t countGraphOps(mlir::ModuleOp module);

/// Figures of a graph-dialect module after graph optimization:
/// `graph_ops_after`, `kernels` (fusion groups, or one per op that needs a
/// loop nest when there are none: everything but constants, reshapes and
/// slices, which are views),
/// `fused_ops` (per kernel: kind and op names), `weights_bytes` (all
/// constants) and `flops` (2 per multiply-add in contractions, one per
/// output element of elementwise ops, one per input element of reductions
/// and window positions of pooling; data movement counts 0).
llvm::json::Object graphStats(mlir::ModuleOp module);

} // namespace mlc::target

#endif
