//===- Passes.h - graph to linalg lowering pass -----------------*- C++ -*-===//
#ifndef MLC_CONVERSION_GRAPHTOLINALG_PASSES_H
#define MLC_CONVERSION_GRAPHTOLINALG_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc {
#define GEN_PASS_DECL
#include "mlc/Conversion/GraphToLinalg/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Conversion/GraphToLinalg/Passes.h.inc"
} // namespace mlc

#endif // MLC_CONVERSION_GRAPHTOLINALG_PASSES_H
