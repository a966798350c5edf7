//===- Passes.h - codegen passes shared by CPU and CUDA ---------*- C++ -*-===//
#ifndef MLC_CODEGEN_COMMON_PASSES_H
#define MLC_CODEGEN_COMMON_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc {
#define GEN_PASS_DECL
#include "mlc/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Codegen/Common/Passes.h.inc"
} // namespace mlc

#endif // MLC_CODEGEN_COMMON_PASSES_H
