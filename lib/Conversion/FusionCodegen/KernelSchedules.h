//===- KernelSchedules.h - per-kernel-kind codegen schedules ----*- C++ -*-===//
//
// Schedules that mlc-lower-fusion-groups applies to a fusion group before its
// generic tile-and-fuse fallback. Each returns true when it emitted the
// group's result, false when the group does not have its shape (nothing is
// changed then), and failure on an internal error.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CONVERSION_FUSIONCODEGEN_KERNELSCHEDULES_H
#define MLC_LIB_CONVERSION_FUSIONCODEGEN_KERNELSCHEDULES_H

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace mlc::codegen {

struct KernelOptions {
  /// Width of the target's vector registers in bits (512: AVX-512).
  unsigned vectorBits = 256;
  /// Number of vector registers of that width.
  unsigned vectorRegisters = 16;
  /// Kernels with at least this many multiply-adds run their outermost
  /// parallel tile loop on several threads (0: never).
  int64_t parallelMinWork = 1 << 18;
};

/// `e` as the coefficients of dims 0..numDims-1 followed by its constant
/// term, or nullopt when it is not linear in the dims (symbols, mod, div).
std::optional<llvm::SmallVector<int64_t>> linearForm(mlir::AffineExpr e,
                                                     unsigned numDims);

/// True if a loop nest with these static trip counts is worth running on
/// the runtime's threads: at least `minWork` iterations (minWork <= 0:
/// never).
bool worthThreads(llvm::ArrayRef<int64_t> tripCounts, int64_t minWork);

/// Linalg's elementwise fusion, of single-use producers only: fusing one
/// with several consumers would compute it once per consumer.
mlir::FrozenRewritePatternSet singleUseElementwiseFusion(mlir::MLIRContext *ctx);

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

/// Moves the group's body in front of it and forwards its results.
void inlineGroup(mlir::RewriterBase &rewriter, graph::FusionGroupOp group);

/// Contraction (matmul, convolution, depthwise convolution) followed by an
/// optional elementwise epilogue: register-blocked vector FMAs with the
/// accumulators in registers over the whole reduction, the epilogue applied
/// to the accumulators, constant right-hand sides packed at compile time.
mlir::FailureOr<bool> emitContractionKernel(mlir::RewriterBase &rewriter,
                                            graph::FusionGroupOp group,
                                            const KernelOptions &options);

} // namespace mlc::codegen

#endif
