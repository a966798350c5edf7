//===- Passes.h - CUDA codegen passes ---------------------------*- C++ -*-===//
#ifndef MLC_CODEGEN_CUDA_PASSES_H
#define MLC_CODEGEN_CUDA_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlc {
#define GEN_PASS_DECL
#include "mlc/Codegen/CUDA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

#endif // MLC_CODEGEN_CUDA_PASSES_H
