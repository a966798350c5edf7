//===- Passes.h - graph-level passes ----------------------------*- C++ -*-===//
#ifndef MLC_TRANSFORMS_PASSES_H
#define MLC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc::graph {
#define GEN_PASS_DECL
#include "mlc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

#endif // MLC_TRANSFORMS_PASSES_H
