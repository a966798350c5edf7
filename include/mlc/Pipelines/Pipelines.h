//===- Pipelines.h - mlc's named pass pipelines -----------------*- C++ -*-===//
#ifndef MLC_PIPELINES_PIPELINES_H
#define MLC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlc {

struct CPUPipelineOptions {
  std::string entry = "main";
  /// Comma-separated CPU features recorded in the model (mlc_model_abi.h).
  std::string cpuFeatures;
};

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
/// named pipelines --mlc-lower-to-loops, --mlc-lower-to-llvm and
/// --mlc-cpu-pipeline.
void registerPassesAndPipelines();

/// Registers every dialect mlc's pipelines touch (and their interfaces).
void registerDialects(mlir::DialectRegistry &registry);

} // namespace mlc

#endif
