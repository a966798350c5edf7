//===- Passes.h - model ABI, memory plan and weights passes -----*- C++ -*-===//
#ifndef MLC_BACKEND_PASSES_H
#define MLC_BACKEND_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc {
#define GEN_PASS_DECL
#include "mlc/Backend/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

#endif // MLC_BACKEND_PASSES_H
