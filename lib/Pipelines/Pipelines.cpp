//===- Pipelines.cpp - mlc's named pass pipelines -------------------------===//
//
// The pipelines are written as textual pass pipelines: that keeps them
// readable, identical to what `mlc-opt` users can type, and printable in
// `--mlir-print-ir-after-all` output.
//
//===----------------------------------------------------------------------===//

#include "mlc/Pipelines/Pipelines.h"
#include "mlc/Conversion/Passes.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace mlc {

/// Graph-level optimization (issue 3). Passes are added here in the order
/// they run; -O0 keeps the graph exactly as imported.
static std::string graphPipeline(const CPUPipelineOptions &o) {
  if (o.optLevel == 0)
    return "";
  // Every entry ends with a comma.
  std::string p = "canonicalize,cse,";
  if (o.inference) {
    // Inference-only rewrites (never for a training step).
    // MLC-PIPELINE: inference rewrites
    p += "graph-fold-batch-norm,graph-fold-scale-into-matmul,"
         "graph-reorder-slices,";
  }
  // Losses and optimizer updates become primitive ops that fold and fuse.
  p += "graph-expand-training-ops,";
  // MLC-PIPELINE: constant folding
  p += "graph-fold-constants,";
  p += "canonicalize,cse,";
  // MLC-PIPELINE: fusion
  p += "func.func(graph-form-fusion-groups),";
  return p;
}

static std::string loopsPipeline(const CPUPipelineOptions &o) {
  return "graph-expand-training-ops,"
         "mlc-record-model-signature{entry=" + o.entry +
         "},"
         "convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{" +
         "vector-bits=" + std::to_string(o.vectorBits) +
         " vector-registers=" + std::to_string(o.vectorRegisters) +
         (o.parallel ? "" : " parallel-min-work=0") +
         "},mlc-pad-in-place,mlc-vectorize-kernels{vector-bits=" +
         std::to_string(o.vectorBits) + " reassociate-fp-reductions=" +
         (o.reassociateFPReductions ? "true" : "false") +
         (o.parallel ? "" : " parallel-min-work=0") + "}),"
         "canonicalize,cse,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         // A pad's interior written in place leaves a copy between two
         // equal subviews: CSE makes them one, canonicalize drops it.
         "cse,canonicalize,"
         // Tile buffers of fused kernels are loop invariant: allocate once.
         "func.func(buffer-loop-hoisting),"
         // Parallel tile loops: scf.forall -> scf.parallel -> OpenMP below.
         "func.func(scf-forall-to-parallel),"
         // Folds loop-carried buffers (scf.for results that are their init)
         // so results are plain allocs that buffer-results-to-out-params
         // replaces by the caller's buffers: no copy into the outputs.
         "canonicalize,func.func(mlc-distinct-result-buffers),"
         "buffer-results-to-out-params{hoist-static-allocs "
         "modify-public-functions},"
         "canonicalize,mlc-static-memory-plan{entry=" +
         o.entry +
         "},"
         "buffer-deallocation-pipeline,"
         "mlc-lower-strided-copies,"
         "func.func(convert-linalg-to-loops),canonicalize,cse";
}

static std::string llvmPipeline(const CPUPipelineOptions &o) {
  // Vector ops of mlc-vectorize-kernels: reductions to vector.reduction
  // (ordered for floats unless reassociating), n-D and strided transfers to
  // 1-D loads, the rest with the LLVM conversion below. scf.parallel
  // becomes omp.parallel + omp.wsloop, which LLVM IR translation outlines
  // into __kmpc_fork_call: the runtime implements that small part of
  // libomp's ABI with its own thread pool.
  std::string vectorLowering =
      "func.func(lower-vector-multi-reduction{lowering-strategy="
      "inner-reduction}),convert-vector-to-scf{full-unroll},";
  return vectorLowering +
         "expand-strided-metadata,lower-affine,convert-scf-to-openmp,"
         "mlc-inline-alloca-scopes,convert-scf-to-cf,"
         // f16/bf16 are storage types: math and arithmetic run in f32.
         "math-extend-to-supported-types{target-type=f32},"
         "arith-emulate-unsupported-floats{source-types=f16,bf16 "
         "target-type=f32},mlc-expand-bf16,mlc-approximate-math,"
         "convert-math-to-llvm,convert-math-to-libm,"
         "convert-vector-to-llvm{reassociate-fp-reductions=" +
         (o.reassociateFPReductions ? "true" : "false") +
         "},convert-ub-to-llvm,"
         "convert-arith-to-llvm,convert-index-to-llvm,"
         "finalize-memref-to-llvm,"
         "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
         "convert-cf-to-llvm,convert-openmp-to-llvm,"
         "reconcile-unrealized-casts,"
         "mlc-emit-model-abi{entry=" +
         o.entry + " prefix=" + o.abiPrefix + " cpu-features=" + (o.cpuFeatures.empty() ? "\"\"" : o.cpuFeatures) + "},"
         "canonicalize,mlc-pack-weight-globals";
}

static LogicalResult addPipeline(OpPassManager &pm, const std::string &text) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(text, pm, os))) {
    llvm::errs() << "mlc: internal error: bad pipeline '" << text
                 << "': " << errors << "\n";
    return failure();
  }
  return success();
}

LogicalResult buildGraphOptimizationPipeline(OpPassManager &pm,
                                             const CPUPipelineOptions &o) {
  std::string p = graphPipeline(o);
  if (p.empty())
    return success();
  p.pop_back(); // trailing comma
  return addPipeline(pm, p);
}

LogicalResult buildLowerToLoopsPipeline(OpPassManager &pm,
                                        const CPUPipelineOptions &o) {
  return addPipeline(pm, loopsPipeline(o));
}

LogicalResult buildLowerToLLVMPipeline(OpPassManager &pm,
                                       const CPUPipelineOptions &o) {
  return addPipeline(pm, llvmPipeline(o));
}

LogicalResult buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &o) {
  return addPipeline(pm,
                     graphPipeline(o) + loopsPipeline(o) + "," + llvmPipeline(o));
}

namespace {
struct PipelineCLOptions : public PassPipelineOptions<PipelineCLOptions> {
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("Model entry function"),
                            llvm::cl::init("main")};
  Option<std::string> abiPrefix{
      *this, "abi-prefix",
      llvm::cl::desc("Prefix of the exported ABI symbols"),
      llvm::cl::init("mlc_model")};
  Option<std::string> cpuFeatures{
      *this, "cpu-features",
      llvm::cl::desc("CPU features recorded in the model"),
      llvm::cl::init("")};
  Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Graph optimization level (0 keeps the graph)"),
      llvm::cl::init(2)};
  Option<unsigned> vectorBits{*this, "vector-bits",
                              llvm::cl::desc("Vector register width in bits"),
                              llvm::cl::init(256)};
  Option<unsigned> vectorRegisters{
      *this, "vector-registers",
      llvm::cl::desc("Number of vector registers"), llvm::cl::init(16)};
  Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run large kernels' outer loops on several threads"),
      llvm::cl::init(true)};
  Option<bool> training{
      *this, "training",
      llvm::cl::desc("Compiling a training step: no inference-only rewrites"),
      llvm::cl::init(false)};
  Option<bool> reassociateFPReductions{
      *this, "reassociate-fp-reductions",
      llvm::cl::desc("Float sums/products of vector kernels in one "
                     "accumulator per lane (not bit-identical)"),
      llvm::cl::init(false)};
  CPUPipelineOptions get() const {
    CPUPipelineOptions o;
    o.entry = entry;
    o.abiPrefix = abiPrefix;
    o.cpuFeatures = cpuFeatures;
    o.optLevel = optLevel;
    o.inference = !training;
    o.vectorBits = vectorBits;
    o.vectorRegisters = vectorRegisters;
    o.parallel = parallel;
    o.reassociateFPReductions = reassociateFPReductions;
    return o;
  }
};
} // namespace

void registerPassesAndPipelines() {
  registerAllPasses();
  graph::registerGraphPasses();
  registerMLCConversionPasses();
  PassPipelineRegistration<PipelineCLOptions>(
      "mlc-graph-optimize",
      "Graph-level optimizations of mlc-compile's -O level (opt-level=N)",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        (void)buildGraphOptimizationPipeline(pm, o.get());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "mlc-lower-to-loops",
      "Lower graph ops to loops over buffers (outputs as out params)",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        (void)buildLowerToLoopsPipeline(pm, o.get());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "mlc-lower-to-llvm",
      "Lower loops over buffers to LLVM dialect with the model C ABI",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        (void)buildLowerToLLVMPipeline(pm, o.get());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "mlc-cpu-pipeline", "Lower graph ops all the way to LLVM dialect",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        (void)buildCPUPipeline(pm, o.get());
      });
}

void registerDialects(DialectRegistry &registry) {
  registry.insert<graph::GraphDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
}

} // namespace mlc
