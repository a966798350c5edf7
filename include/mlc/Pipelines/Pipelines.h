//===- Pipelines.h - mlc's named pass pipelines -----------------*- C++ -*-===//
#ifndef MLC_PIPELINES_PIPELINES_H
#define MLC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlc {

struct CPUPipelineOptions {
  std::string entry = "main";
  /// Prefix of the exported ABI symbols (model_abi.h): mlc_model for the
  /// inference entry, mlc_train / mlc_init for trainable models.
  std::string abiPrefix = "mlc_model";
  /// Comma-separated CPU features recorded in the model (mlc_model_abi.h).
  std::string cpuFeatures;
  /// 0 keeps the graph as imported; >= 1 runs the graph optimizations.
  unsigned optLevel = 2;
  /// Inference-only rewrites (batch-norm folding, ...) are allowed; false
  /// when compiling a training step.
  bool inference = true;
  /// Width and number of the target's vector registers (from its CPU
  /// features: 512/32 with AVX-512, 256/16 with AVX).
  unsigned vectorBits = 256;
  unsigned vectorRegisters = 16;
  /// Large kernels run their outer tile loop on the runtime's threads
  /// (OpenMP lowering); false keeps every kernel single-threaded.
  bool parallel = true;
  /// Float sums and products of vector kernels accumulate one value per
  /// lane, as every peer does (up to 10x faster on layer norm, softmax and
  /// means; no longer bit-identical to the scalar loops and the reference
  /// evaluator, which add in order).
  bool reassociateFPReductions = true;
  /// Inference: stride-1 3x3 convolutions with enough channels and
  /// tiles as Winograd F(4x4, 3x3) (graph-winograd-convs).
  bool winograd = true;
  /// Inference on the CPU: convolution regions in the blocked channel
  /// layout [N, C / B, H, W, B] (graph-block-channels).
  bool nchwc = true;
  /// CPU: every kernel is bracketed with calls into the runtime's profiler
  /// and the model exports its kernel table (mlc-instrument-kernels).
  bool profile = true;
  /// "cpu"; "cuda": kernels for NVIDIA GPUs in a fatbin, host code that
  /// launches them through the runtime (docs/cuda.md); "cuda-emulated": the
  /// same kernels run as loops on the CPU, to test them without a GPU.
  std::string device = "cpu";
  /// CUDA only: the GPUs the fatbin has code for (comma-separated sm_XY,
  /// at least sm_75 for CUDA 13's ptxas) and the toolkit with ptxas and
  /// fatbinary.
  std::string cudaChips = "sm_80,sm_90";
  std::string cudaToolkit = "/usr/local/cuda";
};

/// Graph-level optimizations for `opts.optLevel` (empty at -O0).
mlir::LogicalResult buildGraphOptimizationPipeline(
    mlir::OpPassManager &pm, const CPUPipelineOptions &opts);

/// graph -> linalg on tensors -> buffers (outputs as out params) -> loops.
mlir::LogicalResult buildLowerToLoopsPipeline(mlir::OpPassManager &pm,
                                              const CPUPipelineOptions &opts);
/// loops/memref -> LLVM dialect with the model C ABI.
mlir::LogicalResult buildLowerToLLVMPipeline(mlir::OpPassManager &pm,
                                             const CPUPipelineOptions &opts);
/// Both of the above.
mlir::LogicalResult buildCPUPipeline(mlir::OpPassManager &pm,
                                     const CPUPipelineOptions &opts);

/// Registers mlc's passes, the upstream passes the pipelines use, and the
/// named pipelines --mlc-graph-optimize, --mlc-lower-to-loops,
/// --mlc-lower-to-llvm and --mlc-cpu-pipeline.
void registerPassesAndPipelines();

/// Registers every dialect mlc's pipelines touch (and their interfaces).
void registerDialects(mlir::DialectRegistry &registry);

} // namespace mlc

#endif
