//===- Pipelines.h - mlc's named pass pipelines -----------------*- C++ -*-===//
#ifndef MLC_COMPILER_PIPELINES_H
#define MLC_COMPILER_PIPELINES_H

#include "mlc/Compiler/CompileOptions.h"

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlc {

/// CUDA only: the GPUs the fatbin has code for (comma-separated sm_XY, at
/// least sm_75 for CUDA 13's ptxas) and the toolkit with ptxas and
/// fatbinary.
struct CUDAPipelineOptions {
  std::string chips = "sm_80,sm_90";
  std::string toolkit = "/usr/local/cuda";
};

/// The options of one function family's pipelines (mlc::compile fills them
/// from CompileOptions and the resolved CPU target).
struct PipelineOptions {
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
  /// Inference: integer kernels for contractions of dequantized 8-bit
  /// values (graph-quantized-contractions).
  bool integerKernels = false;
  /// CPU: every kernel is bracketed with calls into the runtime's profiler
  /// and the model exports its kernel table (mlc-instrument-kernels).
  bool profile = true;
  Target target = Target::CPU;
  CUDAPipelineOptions cuda;
};

/// The CPU target has AVX-512 VNNI with 512-bit vectors: the integer
/// matmul and convolution kernels are vpdpbusd loops.
bool hasVNNI(const PipelineOptions &opts);
/// Without VNNI, AVX2 with 256-bit vectors or AVX-512BW with 512-bit ones:
/// the integer kernels multiply 16-bit pairs (vpmaddwd).
bool hasInt16Pairs(const PipelineOptions &opts);

/// Graph-level optimizations for `opts.optLevel` (empty at -O0).
mlir::LogicalResult buildGraphOptimizationPipeline(mlir::OpPassManager &pm,
                                                   const PipelineOptions &opts);

/// graph -> linalg on tensors -> buffers (outputs as out params) -> loops.
mlir::LogicalResult buildLowerToLoopsPipeline(mlir::OpPassManager &pm,
                                              const PipelineOptions &opts);
/// loops/memref -> LLVM dialect with the model C ABI.
mlir::LogicalResult buildLowerToLLVMPipeline(mlir::OpPassManager &pm,
                                             const PipelineOptions &opts);
/// Both of the above. The pipelines are text in mlc-opt's syntax, parsed
/// here; the unit tests build every combination of options, so a typo in a
/// pass or option name fails the test suite, never a user's compile.
mlir::LogicalResult buildCPUPipeline(mlir::OpPassManager &pm,
                                     const PipelineOptions &opts);

/// Registers mlc's passes, the upstream passes the pipelines use, and the
/// named pipelines --mlc-graph-optimize, --mlc-lower-to-loops,
/// --mlc-lower-to-llvm and --mlc-cpu-pipeline.
void registerPassesAndPipelines();

/// Registers every dialect mlc's pipelines touch (and their interfaces).
void registerDialects(mlir::DialectRegistry &registry);

} // namespace mlc

#endif
