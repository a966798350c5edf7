//===- KernelSchedules.h - per-kernel-kind codegen schedules ----*- C++ -*-===//
//
// Schedules that mlc-lower-fusion-groups applies to a fusion group before its
// generic tile-and-fuse fallback. Each returns true when it emitted the
// group's result, false when the group does not have its shape (nothing is
// changed then), and failure on an internal error. Also the helpers the CPU
// vector kernels share (VectorEpilogues.cpp); what the CUDA schedule shares
// with them is in mlc/Codegen/Common/KernelUtils.h.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_CPU_KERNELSCHEDULES_H
#define MLC_LIB_CODEGEN_CPU_KERNELSCHEDULES_H

#include "mlc/Codegen/Common/KernelUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

#include <functional>

namespace mlc::graph {
class ScratchBuffers;
} // namespace mlc::graph

namespace mlc::codegen {

struct KernelOptions {
  /// Width of the target's vector registers in bits (512: AVX-512).
  unsigned vectorBits = 256;
  /// Number of vector registers of that width.
  unsigned vectorRegisters = 16;
  /// Kernels with at least this many multiply-adds run their outermost
  /// parallel tile loop on several threads (0: never).
  int64_t parallelMinWork = 1 << 18;
  /// The target has AVX-512 VNNI (vpdpbusd): integer matmul and
  /// convolution kernels.
  bool vnni = false;
  /// Without vnni: the integer kernels on 16-bit pairs (vpmaddwd).
  bool int16Pairs = false;
  /// Whether the lowering of the group being lowered may take the blob of
  /// this weight constant and rewrite it in place (it is the weight's only
  /// reader); unset: never.
  std::function<bool(mlir::Operation *constant)> ownsWeight;
  /// Buffers the lowering threads share for the copy of a weight that is
  /// rewritten in place (with ownsWeight); unset: a fresh one each time.
  graph::ScratchBuffers *scratch = nullptr;
};

/// An all-parallel elementwise generic (identity result map, projected
/// permutations with broadcast zeros, arith/math body not reading its
/// output) whose body replayOnVectors can clone.
bool isVectorizableEpilogue(mlir::linalg::GenericOp op);

/// A group's result split into the op a kernel computes and the elementwise
/// epilogue applied to it (null when the result is the op itself).
struct KernelRoot {
  mlir::linalg::GenericOp op, epilogue;
};

/// `root` itself when `isKernel` accepts it, else `root` as the vectorizable
/// epilogue of the one accepted producer it reads (single use, identity
/// map); nullopt otherwise.
std::optional<KernelRoot>
matchKernelRoot(mlir::linalg::GenericOp root,
                llvm::function_ref<bool(mlir::linalg::GenericOp)> isKernel);

/// matchKernelRoot on the group's one result, if it is a linalg.generic.
std::optional<KernelRoot>
matchKernelRoot(graph::FusionGroupOp group,
                llvm::function_ref<bool(mlir::linalg::GenericOp)> isKernel);

/// Replaces the kernel's root (its epilogue, else the op) by what `emit`
/// builds in front of it from the destination: the epilogue's init, else a
/// new f32 tensor of `shape`.
void replaceKernelRoot(mlir::RewriterBase &rewriter, const KernelRoot &root,
                       llvm::ArrayRef<int64_t> shape,
                       llvm::function_ref<mlir::Value(mlir::Value)> emit);

/// Clones the arith/math ops of an elementwise body with `lanes`-wide vector
/// types, its block arguments bound to `args` (vectors), and returns the
/// yielded value: the epilogue of a vector kernel.
mlir::Value replayOnVectors(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Block &body, llvm::ArrayRef<mlir::Value> args,
                            int64_t lanes);

/// An operand of a vector kernel's elementwise epilogue, read at the output
/// position: `tensor` null stands for the kernel's own result.
struct EpilogueInput {
  mlir::Value tensor;
  mlir::AffineMap map;
};

/// The epilogue's operands in order (`result`: the kernel's), or nullopt
/// when one reads the output's last dim (the vector lanes) other than as
/// its last index: lanes are read contiguously or not at all (broadcast).
std::optional<llvm::SmallVector<EpilogueInput>>
epilogueInputs(mlir::linalg::GenericOp epilogue, mlir::Value result);

/// `in` read at the output indices `at` (`at.back()` the first lane) as a
/// `lanes`-wide vector: contiguous along the lanes, or a broadcast scalar.
mlir::Value readEpilogueInput(mlir::OpBuilder &b, mlir::Location loc,
                              const EpilogueInput &in, mlir::ValueRange at,
                              int64_t lanes, bool inBounds);

/// Contraction (matmul, convolution, depthwise convolution) followed by an
/// optional elementwise epilogue: register-blocked vector FMAs with the
/// accumulators in registers over the whole reduction, the epilogue applied
/// to the accumulators, constant right-hand sides packed at compile time.
mlir::FailureOr<bool> emitContractionKernel(mlir::RewriterBase &rewriter,
                                            graph::FusionGroupOp group,
                                            const KernelOptions &options);

/// Resize (graph.resize's generic, constant tables, f32) followed by an
/// optional elementwise epilogue: per output row, vectors along the last
/// dim; the taps of the other axes summed on contiguous input vectors, the
/// last axis's taps picked from them by constant shuffles.
mlir::FailureOr<bool> emitResizeKernel(mlir::RewriterBase &rewriter,
                                       graph::FusionGroupOp group,
                                       const KernelOptions &options);

/// Integer matmul (graph.matmul_integer's generic: an 8-bit lhs with a
/// constant zero point, constant int8 weights with zero point 0) with an
/// optional elementwise epilogue, on AVX-512 VNNI: weights packed for
/// vpdpbusd at compile time (IntegerMatMulKernel.cpp).
mlir::FailureOr<bool> emitIntegerMatMulKernel(mlir::RewriterBase &rewriter,
                                              graph::FusionGroupOp group,
                                              const KernelOptions &options);

/// Integer convolution in the blocked layout (graph.conv2d_integer_nchwc's
/// generic: an 8-bit input with a constant zero point, constant int8
/// weights with zero point 0) with an optional elementwise epilogue, on
/// AVX-512 VNNI: 16 output channels of a block per vector, 4 input channels
/// per lane (IntegerConvKernel.cpp).
mlir::FailureOr<bool> emitIntegerConvKernel(mlir::RewriterBase &rewriter,
                                            graph::FusionGroupOp group,
                                            const KernelOptions &options);

/// Depthwise integer convolution in the blocked layout (the depthwise form
/// of graph.conv2d_integer_nchwc's generic, same operands) with an optional
/// elementwise epilogue: a vector of L channels per pixel, products of the
/// widened bytes (IntegerDepthwiseKernel.cpp).
mlir::FailureOr<bool> emitIntegerDepthwiseKernel(mlir::RewriterBase &rewriter,
                                                 graph::FusionGroupOp group,
                                                 const KernelOptions &options);

/// Winograd transform (a marked generic of graph.winograd_input/_output,
/// f32) with, for the output transform, an optional elementwise epilogue:
/// whole tiles computed separably on vectors of channel lanes.
mlir::FailureOr<bool> emitWinogradKernel(mlir::RewriterBase &rewriter,
                                         graph::FusionGroupOp group,
                                         const KernelOptions &options);

/// What mlc-vectorize-kernels does, over the ops nested in `scope` (a
/// function, or a fusion group before it is inlined). Building every
/// dialect's canonicalization patterns costs more than vectorizing a small
/// kernel, so the pattern sets are built once and shared (also across
/// threads: frozen sets are immutable).
struct VectorizePatterns {
  explicit VectorizePatterns(mlir::MLIRContext *ctx);
  mlir::FrozenRewritePatternSet canonical, cleanup, folding;
};
struct VectorizeOptions {
  unsigned vectorBits = 256;
  bool reassociateFPReductions = false;
  int64_t parallelMinWork = 1 << 18;
  /// Only ops directly in `scope`'s body (not inside loops) are tiled.
  bool topLevelOnly = false;
  /// Fills that are the destination of an insert_slice (a pad) are left
  /// for mlc-pad-in-place, which shrinks them to the border.
  bool leavePadFills = false;
};
void vectorizeKernels(mlir::Operation *scope, const VectorizeOptions &options,
                      const VectorizePatterns &patterns);

} // namespace mlc::codegen

#endif // MLC_LIB_CODEGEN_CPU_KERNELSCHEDULES_H
