//===- KernelUtils.h - fusion-group codegen helpers -------------*- C++ -*-===//
//
// Target-independent pieces of kernel codegen on tensors, shared by the CPU
// (mlc-lower-fusion-groups, lib/Codegen/CPU) and CUDA (mlc-form-gpu-kernels,
// lib/Codegen/CUDA) schedules of a graph.fusion_group: elementwise fusion,
// tile-and-fuse, inlining the group, constants of a group, index helpers.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CODEGEN_COMMON_KERNELUTILS_H
#define MLC_CODEGEN_COMMON_KERNELUTILS_H

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace mlc::codegen {

/// `e` as the coefficients of dims 0..numDims-1 followed by its constant
/// term, or nullopt when it is not linear in the dims (symbols, mod, div).
std::optional<llvm::SmallVector<int64_t>> linearForm(mlir::AffineExpr e,
                                                     unsigned numDims);

/// True if a loop nest with these static trip counts is worth running on
/// the runtime's threads: at least `minWork` iterations (minWork <= 0:
/// never).
bool worthThreads(llvm::ArrayRef<int64_t> tripCounts, int64_t minWork);

/// Linalg's elementwise fusion, of single-use producers only: fusing one
/// with several consumers would compute it once per consumer. Resize
/// generics are not fused into their consumers.
mlir::FrozenRewritePatternSet
singleUseElementwiseFusion(mlir::MLIRContext *ctx);

/// Tiles `op` and fuses producers as `options` say, then replaces `op`'s
/// results by the loop's; `error` is reported on `op` if tiling fails.
mlir::LogicalResult
tileAndFuseInPlace(mlir::RewriterBase &rewriter, mlir::TilingInterface op,
                   const mlir::scf::SCFTileAndFuseOptions &options,
                   llvm::StringRef error);

/// The tensor.empty that `v`'s buffer comes from when every value on the
/// way is used once: through destination-style ops (linalg, insert_slice,
/// ...), scf.forall shared outputs and scf.for iter_args. Replacing it by a
/// slice of a larger tensor makes the kernel computing `v` write there.
mlir::tensor::EmptyOp findDestinationRoot(mlir::Value v);

/// An scf.forall over [0, extent / block) whose iteration i computes the
/// slice of `dest` at [i * block, (i + 1) * block) along `dim` with
/// `body(i * block, slice)`; `block` divides `extent`.
mlir::Value
forallOverSlices(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dest,
                 unsigned dim, int64_t extent,
                 llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> body,
                 int64_t block = 1);

/// e applied to `operands` (its dims), folded to a constant when it can be.
mlir::Value applyFolded(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::AffineExpr e, mlir::ValueRange operands);

/// The constant a group's block argument (or a value) stands for, if any.
mlir::arith::ConstantOp groupConstant(graph::FusionGroupOp group,
                                      mlir::Value v);

/// The value of that constant, dense or resource-backed, if it decodes.
std::optional<graph::HostTensor> groupConstantTensor(graph::FusionGroupOp group,
                                                     mlir::Value v);

/// Moves the group's body in front of it and forwards its results.
void inlineGroup(mlir::RewriterBase &rewriter, graph::FusionGroupOp group);

} // namespace mlc::codegen

#endif // MLC_CODEGEN_COMMON_KERNELUTILS_H
