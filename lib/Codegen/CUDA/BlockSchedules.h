//===- BlockSchedules.h - kernels run by a block of GPU threads -*- C++ -*-===//
//
// Block-cooperative CUDA kernels. mlc-form-gpu-kernels picks the schedule
// on tensors and marks the op; mlc-map-kernels-to-gpu emits the block's
// program on buffers as a sequence of *thread phases*: scf.forall loops
// mapped to #gpu.thread<linear_dim_0>, one iteration per thread, with a
// barrier after each phase whose writes another thread may read. Block-shared
// buffers are memref.alloca in #gpu.address_space<workgroup>; per-thread state
// that outlives a phase is a memref.alloca in #gpu.address_space<private> whose
// first index is the thread. mlc-lower-block-phases turns that into thread
// ids, gpu.barrier and registers; mlc-emulate-gpu-launches runs the phases
// one after the other on the CPU, which is exactly what the barriers
// guarantee on a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_CUDA_BLOCKSCHEDULES_H
#define MLC_LIB_CODEGEN_CUDA_BLOCKSCHEDULES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlc::gpu {

/// Attribute on a contraction that runs as a block-tiled kernel: its value
/// is the BlockTile, as array<i64: bm, bn, bk, tm, tn>.
constexpr llvm::StringLiteral kBlockTileAttr = "mlc.gpu.block_tile";

/// A shared-memory tiled contraction: each block computes a bm x bn tile of
/// the output, stepping through the reduction bk at a time with both input
/// tiles in shared memory; each thread accumulates tm x tn outputs in
/// registers (rows tid/(bn/tn) + i*(bm/tm), columns tid%(bn/tn) + j*(bn/tn),
/// so that a warp reads shared memory without bank conflicts and writes
/// the output coalesced).
struct BlockTile {
  int64_t bm, bn, bk, tm, tn;
  int64_t threads() const { return (bm / tm) * (bn / tn); }
};

/// Whether every operand of `op` is f32 (or a tensor/memref of f32), as
/// block tiles need.
bool isF32Throughout(mlir::linalg::LinalgOp op);

/// Whether an m x n output is large enough for block tiles.
bool fillsBlockTile(int64_t m, int64_t n);

/// The block tile for `op` if it is a float multiply-add contraction with
/// one M, one N and one K loop (matmul, batched and transposed forms), of
/// static shape and large enough to fill a tile; nullopt otherwise.
std::optional<BlockTile> chooseBlockTile(mlir::linalg::LinalgOp op);

/// The tile recorded on `op` by mlc-form-gpu-kernels, if any.
std::optional<BlockTile> getBlockTile(mlir::Operation *op);
void setBlockTile(mlir::Operation *op, const BlockTile &tile);

/// A thread phase: `body` runs once per thread t in [0, threads).
void buildThreadPhase(
    mlir::OpBuilder &b, mlir::Location loc, int64_t threads,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Location, mlir::Value)>
        body);

/// True for scf.forall loops built by buildThreadPhase.
bool isThreadPhase(mlir::Operation *op);

/// Replaces `op` (on buffers, inside a block's program) by the phases of
/// the shared-memory tiled contraction `tile`. The accumulators start from
/// `initValue` if given (the output's fill, folded in), else from the
/// output.
mlir::LogicalResult emitBlockTiledContraction(mlir::RewriterBase &rewriter,
                                              mlir::linalg::LinalgOp op,
                                              const BlockTile &tile,
                                              mlir::Value initValue = {});

} // namespace mlc::gpu

#endif
