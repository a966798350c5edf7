//===- Passes.td - CUDA codegen passes ---------------------*- tablegen -*-===//
#ifndef MLC_CODEGEN_CUDA_PASSES
#define MLC_CODEGEN_CUDA_PASSES

include "mlir/Pass/PassBase.td"

def FormGPUKernels : Pass<"mlc-form-gpu-kernels", "mlir::func::FuncOp"> {
  let summary = "Turn fusion groups into scf.forall kernels: one thread per "
                "element, or block-tiled matmuls (CUDA target)";
  let description = [{
    The GPU counterpart of mlc-lower-fusion-groups, on tensors. Inside each
    group, elementwise linalg ops are fused into their consumers. Then,
    consumers first, every linalg op with more than one parallel iteration
    is tiled into an scf.forall with one iteration per element of its
    parallel loops (tile size 1; reductions stay whole in the iteration),
    which mlc-map-kernels-to-gpu makes one GPU thread. A linalg producer is
    fused into the iteration when the iteration reads exactly one element of
    it, it has as many elements as the loop has iterations, and nothing else
    uses it: so a matmul or convolution and its elementwise epilogue are one
    kernel, each thread computing its element's reduction and applying the
    epilogue. Producers read by broadcast or through a window (a softmax's
    row sums, a convolution's padded input) would be recomputed by many
    threads; they become kernels of their own.

    A kernel that ends with a reduction of two or more inputs (or with an
    elementwise op applied to one, such as a convolution's ReLU) gives each
    thread a block of T outputs instead (8, 6, 4, 3 or 2) along a parallel
    dimension that the coalesced input (the one indexed by the output's last
    dimension) does not use, while at least 65536 threads remain: each
    element of that input a thread loads then serves T multiply-adds
    (mlc-linalg-to-loops{register-accumulators} keeps the T sums in
    registers). Producers with exactly the block's elements fuse as above.

    Large f32 matmuls (one M, one N and one K loop, static, M and N >= 16;
    several adjacent M loops that are contiguous in every operand, such as
    [B, M, K] x [K, N], are first collapsed into one with reshapes) are the
    exception: they are marked `mlc.gpu.block_tile = array<i64: bm,
    bn, bk, tm, tn>` and tiled into an scf.forall mapped to #gpu.block, one
    iteration per bm x bn output tile, which mlc-map-kernels-to-gpu turns
    into a shared-memory tiled block kernel. Only the producer of their init
    (the fill, a broadcast bias) is fused into the tile; their epilogue is a
    one-thread-per-element kernel of its own. The group is then inlined.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::gpu::GPUDialect"];
}

def MapKernelsToGPU : Pass<"mlc-map-kernels-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Make every top-level loop nest and memory op a gpu.launch";
  let description = [{
    Runs on buffers after the static memory plan. Every memref.copy becomes
    a linalg.copy. Each op at the top of the function that touches memory
    becomes one gpu.launch with one thread per iteration of its parallel
    loops: scf.forall (from mlc-form-gpu-kernels) and scf.parallel loops
    directly, other linalg ops after lowering to parallel loops, and ops
    with no parallel loop (full reductions) in a single thread. Iterations
    are numbered row-major (the innermost loop fastest, so neighbouring
    threads touch neighbouring elements) and run in blocks of `block-size`
    threads along x, with a bounds check in the last block.

    What stays on the host must not touch memory: views, constants' addresses
    (memref.get_global is moved out of kernels; the runtime gives kernels
    device copies, see mlc-device-constants) and index arithmetic. Anything
    else is an error, as is a buffer allocated inside a kernel that is not a
    small static per-thread temporary (those become memref.alloca).

    An scf.forall mapped to #gpu.block (a contraction that
    mlc-form-gpu-kernels tiled for a block of threads) becomes a launch with
    one block per iteration, whose body is a program of thread phases (see
    mlc-lower-block-phases): the tiled contraction is the shared-memory
    tiled schedule, the other ops of the iteration (the init of its output
    tile) are spread over the block's threads round-robin.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
    Option<"maxThreadBytes", "max-thread-bytes", "int64_t",
           /*default=*/"1024",
           "Largest temporary buffer a thread may allocate on its stack">
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::memref::MemRefDialect"];
}

def LowerBlockPhases : Pass<"mlc-lower-block-phases", "mlir::func::FuncOp"> {
  let summary = "Thread phases of block kernels -> thread ids, barriers, "
                "shared memory and registers";
  let description = [{
    Block kernels of mlc-map-kernels-to-gpu are written as a sequence of
    thread phases: scf.forall loops mapped to #gpu.thread<linear_dim_0>,
    one iteration per thread, at the top of the launch body or inside loops
    that every thread runs alike. Each phase becomes its body run by thread
    `gpu.thread_id x` (under a bounds check if it has fewer iterations than
    the block has threads), followed by a gpu.barrier unless it ends the
    kernel or touches no memory but the thread's own private buffers (so it
    passes nothing to other threads). A memref.alloca in #gpu.address_space<workgroup> becomes a
    workgroup attribution of the launch (shared memory); one in
    #gpu.address_space<private>, indexed first by the phase's thread, becomes
    a per-thread alloca without that index (registers, once LLVM promotes
    it). Launches without phases are left alone.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def MergeGPUModules : Pass<"mlc-merge-gpu-modules", "mlir::ModuleOp"> {
  let summary = "Move every kernel into the first gpu.module";
  let description = [{
    Runs after gpu-kernel-outlining, which makes one gpu.module per kernel.
    The kernels (and any other symbols) of the other modules move into the
    first one, renamed on a clash, and gpu.launch_func ops are updated; the
    emptied modules are erased. The model then has one binary to assemble
    (one ptxas run per chip) and to load.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def EmulateGPULaunches : Pass<"mlc-emulate-gpu-launches",
                                "mlir::func::FuncOp"> {
  let summary = "Run gpu.launch bodies as CPU loops (tests kernels without "
                "a GPU)";
  let description = [{
    Each gpu.launch becomes six nested scf.for loops over its blocks (z, y,
    x) and threads (z, y, x) with the body, in a memref.alloca_scope, as the
    innermost loop's body: one thread at a time. That computes what the GPU
    would for kernels whose threads neither synchronize nor share memory,
    one-thread-per-element kernels of mlc-map-kernels-to-gpu; launches with
    gpu.barrier are refused. A launch written as thread phases (see
    mlc-lower-block-phases) instead becomes three loops over its blocks,
    each running the phases one after the other, every phase a loop over
    the threads: what the barriers between phases guarantee on a GPU.
    Shared and private buffers become ordinary stack buffers of the block. mlc-compile --target=cuda-emulated compiles a model this way,
    so the GPU schedule is checked against reference outputs on any CPU.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def DeviceConstants : Pass<"mlc-device-constants", "mlir::ModuleOp"> {
  let summary = "Pass kernels the device copies of host globals";
  let description = [{
    Runs on LLVM dialect, on the host side of a CUDA model. Every
    llvm.mlir.addressof of a global in a host function is followed by a call
    `mlc_cuda_device_constant(host address, size in bytes)`, whose result
    replaces it. The runtime (runtime/lib/Cuda.cpp) uploads each global once
    per loaded model and returns the device address of its copy.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def CheckKernelLaunches : Pass<"mlc-check-kernel-launches",
                                "mlir::ModuleOp"> {
  let summary = "Check that every gpu.launch_func matches its kernel";
  let description = [{
    Runs before gpu-module-to-binary, on LLVM dialect or earlier. Each
    gpu.launch_func must pass exactly the kernel's parameter types (the CUDA
    driver reads as many arguments as the kernel's image declares: a
    mismatch reads past the launch's argument array on the GPU), and a
    constant block size must be within every CUDA GPU's limits (1024 threads;
    x and y up to 1024, z up to 64). A violation is a compile error naming
    the kernel.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def AssembleFatbin : Pass<"mlc-assemble-fatbin", "mlir::ModuleOp"> {
  let summary = "Assemble each gpu.binary's PTX objects into one fatbin";
  let description = [{
    Runs after gpu-module-to-binary{format=isa}. For each gpu.binary, the PTX
    of every NVVM target is assembled by the toolkit's ptxas for its chip
    (at the target's O level), and the cubins plus the PTX of the newest
    chip (which the driver JIT-compiles on newer GPUs) are packed by
    fatbinary into one fatbin, which replaces the objects. The CUDA driver
    picks the matching image when it loads the module. What ptxas reports
    per kernel and chip (registers, stack frame, spills, shared memory) is
    recorded as the module's `mlc.cuda_kernels` array of dictionaries.
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", "\"/usr/local/cuda\"",
           "CUDA toolkit root (ptxas and fatbinary in its bin/)">
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::NVVM::NVVMDialect"];
}

#endif // MLC_CODEGEN_CUDA_PASSES
