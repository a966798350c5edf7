//===- Pipelines.cpp - mlc's named pass pipelines -------------------------===//
//
// The pipelines are written as textual pass pipelines: that keeps them
// readable, identical to what `mlc-opt` users can type, and printable in
// `--mlir-print-ir-after-all` output.
//
//===----------------------------------------------------------------------===//

#include "mlc/Compiler/Pipelines.h"
#include "mlc/Backend/Passes.h"
#include "mlc/Codegen/CPU/Passes.h"
#include "mlc/Codegen/CUDA/Passes.h"
#include "mlc/Codegen/Common/Passes.h"
#include "mlc/Codegen/Common/SubsetModels.h"
#include "mlc/Conversion/GraphToLinalg/Passes.h"
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
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;

namespace mlc {

/// Graph-level optimization (issue 3). Passes are added here in the order
/// they run; -O0 keeps the graph exactly as imported.
static std::string graphPipeline(const PipelineOptions &o) {
  if (o.optLevel == 0)
    return "";
  // Every entry ends with a comma.
  std::string p = "canonicalize,cse,";
  // Blocks of whole vectors, at least two on AVX2 (16 accumulators leave
  // room for 2 vectors of 5 rows).
  bool blocked = o.inference && o.nchwc && o.target == Target::CPU;
  std::string block = std::to_string(std::max(16u, o.vectorBits / 32));
  if (o.inference) {
    // Inference-only rewrites (never for a training step).
    // MLC-PIPELINE: inference rewrites
    // First: folding would turn dequantized 8-bit weights into floats.
    // Grouped convolutions only where blocking gives them the kernel.
    if (o.integerKernels)
      p += blocked ? "graph-quantized-contractions{block=" + block + "},"
                   : "graph-quantized-contractions{groups=false},";
    p += "graph-fuse-fake-quant,";
    p += "graph-fold-batch-norm,graph-fuse-gelu,graph-fold-scale-into-matmul,"
         "graph-reorder-slices,";
  }
  // Losses and optimizer updates become primitive ops that fold and fuse.
  p += "graph-expand-training-ops,";
  // MLC-PIPELINE: constant folding
  // Weights that folding replaced (transposed, rescaled) are freed: the
  // graph pipeline runs on the only copy of the module.
  // A weight's transpose into a matmul stays for the CPU kernel to pack
  // from the stored layout (one copy of the weight less).
  p += o.inference && o.target == Target::CPU
           ? "graph-fold-constants{release-weights keep-matmul-transposes},"
           : "graph-fold-constants{release-weights},";
  p += "mlc-release-dead-weights,";
  // After folding: the filters (batch norm folded in) are constants.
  if (blocked)
    p += "graph-block-channels{block=" + block + "},";
  // After blocking, so that blocked 3x3 convolutions take the blocked
  // Winograd form (no layout change around them).
  if (o.inference && o.winograd)
    p += "graph-winograd-convs,";
  p += "canonicalize,cse,mlc-release-dead-weights,";
  // MLC-PIPELINE: fusion
  p += "func.func(graph-form-fusion-groups),";
  return p;
}

/// Canonicalization of the lowered entry function, whose kernels are still
/// inlined in it: structured control flow only (no blocks to merge), so
/// region simplification has nothing to do there but costs a walk over
/// every region. Without it DenseNet-121's four such passes took 0.5 s
/// less, and the LLVM IR of the zoo, the trainable, int8, AVX2 and CUDA
/// models came out byte-identical.
static const char kCanonicalizeLoops[] =
    "canonicalize{region-simplify=disabled}";
/// The same, one sweep (its worklist run to empty) without the second sweep
/// that only confirms nothing changes: where that was so on every model of
/// the set above (after bufferization and after mlc-linalg-to-loops; not
/// after mlc-lower-fusion-groups, where an int8 ResNet-50 needed a second),
/// DenseNet-121's three took 0.38 -> 0.24 s.
static const char kCanonicalizeOnce[] =
    "canonicalize{region-simplify=disabled max-iterations=1}";

/// Bufferization from tensors to out-params and a workspace, shared by both
/// devices. Every entry ends with a comma.
static std::string bufferizePipeline(const PipelineOptions &o) {
  // Kernels must not share a tensor.empty that CSE merged: one-shot's
  // conflict analysis is quadratic in an alias set.
  // Vectorized kernels write their tiles as chains of 1-D writes, whose
  // analysis is cubic in their length: a few 2-D writes instead.
  return std::string(o.target == Target::CPU
                         ? "func.func(mlc-group-tile-writes),"
                         : "") +
         "func.func(mlc-untie-empty-tensors),"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         // A pad's interior written in place leaves a copy between two
         // equal subviews: CSE makes them one, canonicalize drops it.
         "cse," +
         std::string(kCanonicalizeOnce) +
         ","
         // Tile buffers of fused kernels are loop invariant: allocate once.
         // (Not on a GPU, where they are per-thread temporaries.)
         + std::string(o.target == Target::CUDA
                           ? ""
                           : "func.func(mlc-hoist-loop-buffers),") +
         // Parallel tile loops: scf.forall -> scf.parallel -> OpenMP below.
         // (On a GPU mlc-map-kernels-to-gpu reads the forall's mapping.)
         std::string(o.target == Target::CPU
                         ? "func.func(scf-forall-to-parallel),"
                         : "") +
         // Folds loop-carried buffers (scf.for results that are their init)
         // so results are plain allocs that buffer-results-to-out-params
         // replaces by the caller's buffers: no copy into the outputs.
         kCanonicalizeOnce +
         ",func.func(mlc-distinct-result-buffers),"
         "buffer-results-to-out-params{hoist-static-allocs "
         "modify-public-functions}," +
         // (On the CPU this canonicalization changed nothing: each one over
         // the whole entry function costs 0.1-0.25 s on DenseNet-121.)
         std::string(o.target == Target::CPU
                         ? ""
                         : std::string(kCanonicalizeLoops) + ",") +
         "mlc-static-memory-plan{entry=" + o.entry + "},";
}

/// CUDA: kernels as one-thread-per-element loops, then one gpu.launch per
/// kernel on buffers (docs/cuda.md).
static std::string cudaLoopsPipeline(const PipelineOptions &o) {
  return "graph-expand-training-ops,"
         "mlc-record-model-signature{entry=" +
         o.entry +
         "},"
         "convert-graph-to-linalg,func.func(mlc-form-gpu-kernels)," +
         kCanonicalizeLoops + ",cse," + bufferizePipeline(o) +
         "func.func(mlc-map-kernels-to-gpu),"
         // Block kernels: barriers and shared memory on a GPU; the
         // emulation below runs their phases in order instead.
         + std::string(o.target == Target::CUDA
                           ? "func.func(mlc-lower-block-phases),"
                           : "") +
         "func.func(mlc-linalg-to-loops{register-accumulators})," +
         kCanonicalizeLoops + ",cse" +
         // Testing without a GPU: the launches become CPU loops and the
         // CPU pipeline takes over.
         (o.target == Target::CUDAEmulated
              ? ",func.func(mlc-emulate-gpu-launches),canonicalize"
              : "");
}

static bool hasFeature(const PipelineOptions &o, StringRef feature) {
  return llvm::is_contained(llvm::split(o.cpuFeatures, ','), feature);
}

bool hasVNNI(const PipelineOptions &o) {
  return o.vectorBits == 512 && hasFeature(o, "avx512vnni");
}

bool hasInt16Pairs(const PipelineOptions &o) {
  return !hasVNNI(o) && ((o.vectorBits == 256 && hasFeature(o, "avx2")) ||
                         (o.vectorBits == 512 && hasFeature(o, "avx512bw")));
}

static std::string loopsPipeline(const PipelineOptions &o) {
  if (o.target != Target::CPU)
    return cudaLoopsPipeline(o);
  // Profiling brackets go around each kernel while its ops are still graph
  // ops; the lowering below replaces them in place.
  std::string instrument =
      o.profile ? "mlc-instrument-kernels{entry=" + o.entry + "}," : "";
  std::string reassociate = o.reassociateFPReductions ? "true" : "false";
  return "graph-expand-training-ops,"
         "mlc-record-model-signature{entry=" +
         o.entry + "}," + instrument +
         "convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{" +
         "vector-bits=" + std::to_string(o.vectorBits) +
         " vector-registers=" + std::to_string(o.vectorRegisters) +
         (o.parallel ? "" : " parallel-min-work=0") +
         // The groups are vectorized where they are lowered, in parallel;
         // mlc-vectorize-kernels is left the pads' borders.
         " vectorize=true reassociate-fp-reductions=" + reassociate +
         (hasVNNI(o) ? " vnni=true" : "") +
         (hasInt16Pairs(o) ? " int16-pairs=true" : "") +
         (o.inference ? " release-weights=true" : "") +
         "},mlc-pad-in-place,mlc-concat-in-place,mlc-vectorize-kernels{vector-"
         "bits=" +
         std::to_string(o.vectorBits) +
         " reassociate-fp-reductions=" + reassociate + " top-level-only=true" +
         (o.parallel ? "" : " parallel-min-work=0") + "})," +
         kCanonicalizeLoops + ",cse," +
         // Weights replaced by packed copies are freed. Inference lowers the
         // compiled module itself; a trainable model's families are copies
         // that share blobs (Compile.cpp lowerToLLVM).
         std::string(o.inference ? "mlc-release-dead-weights," : "") +
         bufferizePipeline(o) +
         // After the static memory plan only a few per-thread buffers are
         // left to free; MLIR's deallocation pipeline (without its
         // canonicalizations) runs only if something else is.
         "mlc-deallocate-buffers,"
         "mlc-lower-strided-copies,"
         "func.func(mlc-linalg-to-loops)," +
         kCanonicalizeOnce + ",cse";
}

/// The ABI wrapper and packed weights, for both devices.
static std::string abiPipeline(const PipelineOptions &o) {
  return "mlc-emit-model-abi{entry=" + o.entry + " prefix=" + o.abiPrefix +
         " cpu-features=" + (o.cpuFeatures.empty() ? "\"\"" : o.cpuFeatures) +
         " device=" + (o.target == Target::CUDA ? "cuda" : "cpu") + "}," +
         // On the CPU every kernel is an llvm.func by now: canonicalized in
         // parallel (the module's other ops are globals and declarations).
         (o.target == Target::CUDA ? "canonicalize,"
                                   : "llvm.func(canonicalize),") +
         "mlc-pack-weight-globals";
}

/// CUDA: kernels -> NVVM -> PTX per chip -> one fatbin; host -> LLVM with
/// calls into the runtime's CUDA shim (runtime/lib/Cuda.cpp).
static std::string cudaLLVMPipeline(const PipelineOptions &o) {
  std::string targets;
  for (StringRef chip : llvm::split(o.cuda.chips, ','))
    targets += "nvvm-attach-target{chip=" + chip.trim().str() +
               " features=+ptx80 O=3},";
  // Constants and index arithmetic move into the kernels first: captured
  // as kernel parameters, every shape and stride would be a runtime value
  // (slow division, and per-thread arrays indexed by them stay in local
  // memory instead of registers).
  return "func.func(gpu-launch-sink-index-computations),"
         "gpu-kernel-outlining,mlc-merge-gpu-modules," +
         targets +
         "gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         // f16/bf16 are storage types here too: math runs in f32.
         "math-extend-to-supported-types{target-type=f32},"
         "arith-emulate-unsupported-floats{source-types=f16,bf16 "
         "target-type=f32},"
         // Bare pointers, as gpu-to-llvm passes them with
         // use-bare-pointers-for-host: the kernel parameters must match the
         // launch's arguments one for one.
         "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},canonicalize,"
         "cse,reconcile-unrealized-casts),"
         "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         "gpu-to-llvm{use-bare-pointers-for-host},convert-arith-to-llvm,"
         "convert-index-to-llvm,"
         "finalize-memref-to-llvm,"
         "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
         "convert-cf-to-llvm,reconcile-unrealized-casts,"
         "mlc-device-constants,mlc-check-kernel-launches,"
         // The toolkit's libdevice implements math functions (__nv_expf).
         "gpu-module-to-binary{format=isa toolkit=" +
         o.cuda.toolkit +
         "},"
         "mlc-assemble-fatbin{toolkit=" +
         o.cuda.toolkit + "}," + abiPipeline(o);
}

static std::string llvmPipeline(const PipelineOptions &o) {
  if (o.target == Target::CUDA)
    return cudaLLVMPipeline(o);
  // Vector ops of mlc-vectorize-kernels: reductions to vector.reduction
  // (ordered for floats unless reassociating), n-D and strided transfers to
  // 1-D loads, the rest with the LLVM conversion below. scf.parallel
  // becomes omp.parallel + omp.wsloop, which LLVM IR translation outlines
  // into __kmpc_fork_call: the runtime implements that small part of
  // libomp's ABI with its own thread pool.
  //
  // Every pass that works function by function is nested under func.func
  // (then llvm.func): MLIR runs those on the kernels in parallel, one
  // function per kernel after mlc-outline-kernels.
  return "mlc-outline-kernels{entry=" + o.entry +
         "},mlc-merge-kernels{entry=" + o.entry +
         "},"
         "func.func(" +
         (hasVNNI(o) || hasInt16Pairs(o) ? "mlc-x86-int-dot," : "") +
         "lower-vector-multi-reduction{lowering-strategy="
         "inner-reduction},convert-vector-to-scf{full-unroll},"
         "expand-strided-metadata,lower-affine),convert-scf-to-openmp,"
         "func.func(mlc-inline-alloca-scopes,convert-scf-to-cf,"
         // f16/bf16 are storage types: math and arithmetic run in f32.
         "math-extend-to-supported-types{target-type=f32},"
         "arith-emulate-unsupported-floats{source-types=f16,bf16 "
         "target-type=f32},mlc-expand-bf16,mlc-approximate-math,"
         "convert-math-to-llvm),convert-math-to-libm,"
         "func.func(convert-vector-to-llvm{reassociate-fp-reductions=" +
         (o.reassociateFPReductions ? "true" : "false") +
         "},convert-ub-to-llvm,convert-arith-to-llvm,convert-index-to-llvm),"
         "finalize-memref-to-llvm,"
         "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
         "convert-cf-to-llvm,convert-openmp-to-llvm,"
         "reconcile-unrealized-casts,mlc-apply-loop-annotations," +
         abiPipeline(o);
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
                                             const PipelineOptions &o) {
  std::string p = graphPipeline(o);
  if (p.empty())
    return success();
  p.pop_back(); // trailing comma
  return addPipeline(pm, p);
}

LogicalResult buildLowerToLoopsPipeline(OpPassManager &pm,
                                        const PipelineOptions &o) {
  return addPipeline(pm, loopsPipeline(o));
}

LogicalResult buildLowerToLLVMPipeline(OpPassManager &pm,
                                       const PipelineOptions &o) {
  return addPipeline(pm, llvmPipeline(o));
}

LogicalResult buildCPUPipeline(OpPassManager &pm, const PipelineOptions &o) {
  return addPipeline(pm, graphPipeline(o) + loopsPipeline(o) + "," +
                             llvmPipeline(o));
}

namespace {
struct PipelineCLOptions : public PassPipelineOptions<PipelineCLOptions> {
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("Model entry function"),
                            llvm::cl::init("main")};
  Option<std::string> abiPrefix{
      *this, "abi-prefix", llvm::cl::desc("Prefix of the exported ABI symbols"),
      llvm::cl::init("mlc_model")};
  Option<std::string> cpuFeatures{
      *this, "cpu-features",
      llvm::cl::desc("CPU features recorded in the model"), llvm::cl::init("")};
  Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Graph optimization level (0 keeps the graph)"),
      llvm::cl::init(2)};
  Option<unsigned> vectorBits{*this, "vector-bits",
                              llvm::cl::desc("Vector register width in bits"),
                              llvm::cl::init(256)};
  Option<unsigned> vectorRegisters{*this, "vector-registers",
                                   llvm::cl::desc("Number of vector registers"),
                                   llvm::cl::init(16)};
  Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run large kernels' outer loops on several threads"),
      llvm::cl::init(true)};
  Option<bool> training{
      *this, "training",
      llvm::cl::desc("Compiling a training step: no inference-only rewrites"),
      llvm::cl::init(false)};
  Option<Target> device{
      *this, "device", llvm::cl::desc("Where the model runs"),
      llvm::cl::init(Target::CPU),
      llvm::cl::values(
          clEnumValN(Target::CPU, "cpu", "the CPU"),
          clEnumValN(Target::CUDA, "cuda", "kernels for NVIDIA GPUs"),
          clEnumValN(Target::CUDAEmulated, "cuda-emulated",
                     "the CUDA kernels as CPU loops, for testing"))};
  Option<std::string> cudaChips{
      *this, "cuda-chips",
      llvm::cl::desc("CUDA: GPUs to build for (comma-separated sm_XY)"),
      llvm::cl::init("sm_80,sm_90")};
  Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc("CUDA: toolkit root with bin/ptxas and bin/fatbinary"),
      llvm::cl::init("/usr/local/cuda")};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("CPU: bracket every kernel with profiling calls and "
                     "record the kernel table (mlc-instrument-kernels)"),
      llvm::cl::init(true)};
  Option<bool> reassociateFPReductions{
      *this, "reassociate-fp-reductions",
      llvm::cl::desc("Float sums/products of vector kernels in one "
                     "accumulator per lane (not bit-identical; default on)"),
      llvm::cl::init(true)};
  Option<bool> winograd{
      *this, "winograd",
      llvm::cl::desc("Inference: stride-1 3x3 convolutions as Winograd "
                     "F(4x4, 3x3)"),
      llvm::cl::init(true)};
  Option<bool> nchwc{
      *this, "nchwc",
      llvm::cl::desc("Inference on the CPU: convolution regions in the "
                     "blocked channel layout (graph-block-channels)"),
      llvm::cl::init(true)};
  Option<bool> integerKernels{
      *this, "integer-kernels",
      llvm::cl::desc("Inference: contractions of dequantized 8-bit values "
                     "as integer kernels (graph-quantized-contractions)"),
      llvm::cl::init(false)};
  PipelineOptions get() const {
    PipelineOptions o;
    o.entry = entry;
    o.abiPrefix = abiPrefix;
    o.cpuFeatures = cpuFeatures;
    o.optLevel = optLevel;
    o.inference = !training;
    o.vectorBits = vectorBits;
    o.vectorRegisters = vectorRegisters;
    o.parallel = parallel;
    o.reassociateFPReductions = reassociateFPReductions;
    o.winograd = winograd;
    o.nchwc = nchwc;
    o.integerKernels = integerKernels;
    o.profile = profile;
    o.target = device;
    o.cuda.chips = cudaChips;
    o.cuda.toolkit = cudaToolkit;
    return o;
  }
};
} // namespace

void registerPassesAndPipelines() {
  registerAllPasses();
  graph::registerGraphPasses();
  registerGraphToLinalgPasses();
  registerCodegenCommonPasses();
  registerCodegenCPUPasses();
  registerCodegenCUDAPasses();
  registerBackendPasses();
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
  // Before MLIR's own models of the same interface, which would win.
  registerSubsetModels(registry);
  registerAllDialects(registry);
  registerAllExtensions(registry);
  // CUDA: gpu-module-to-binary translates kernels to LLVM IR and emits PTX
  // with LLVM's NVPTX backend; mlc-compile translates the host side, whose
  // gpu.binary and launches need the GPU translation.
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  static bool nvptx = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    return true;
  }();
  (void)nvptx;
}

} // namespace mlc
