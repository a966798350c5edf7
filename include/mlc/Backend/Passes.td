//===- Passes.td - model ABI, memory plan and weights ------*- tablegen -*-===//
#ifndef MLC_BACKEND_PASSES
#define MLC_BACKEND_PASSES

include "mlir/Pass/PassBase.td"

def RecordModelSignature : Pass<"mlc-record-model-signature", "mlir::ModuleOp"> {
  let summary = "Record the entry function's tensor signature on the module";
  let description = [{
    Reads the entry function's argument and result types and `mlc.name`
    attributes (defaults: input0.., output0..), and `mlc.kind` attributes
    (param, buffer, state on arguments, update on results; default in/out)
    of trainable models, and stores the runtime
    signature text (see runtime/include/mlc/model_abi.h) as the module
    attribute `mlc.signature`, before bufferization rewrites the signature.
    Also marks the inputs `bufferization.writable = false`: they are the
    caller's buffers and must never be written in place. Zero-size inputs
    and outputs become `tensor<0xT>` (a read of such an input a
    `tensor.empty` of its type): the runtime never touches their pointers,
    and the bare-pointer calling convention refuses memrefs with a zero dim
    after the first.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">
  ];
}

def InstrumentKernels : Pass<"mlc-instrument-kernels", "mlir::ModuleOp"> {
  let summary = "Bracket every kernel with profiling calls into the runtime";
  let description = [{
    Runs on the graph dialect, after graph optimization and right before
    convert-graph-to-linalg (which lowers each op in place, so the brackets
    stay around what the op becomes). Kernel k of the entry function is
    each top-level `graph.fusion_group`, in program order, and each graph
    op outside a group that needs a loop nest (every op but constants,
    reshapes and slices: at -O0 nothing is grouped). Each is bracketed as

      func.call @mlc_profile_begin(k) : (i32) -> ()
      <the kernel>
      func.call @mlc_profile_end(k) : (i32) -> ()

    (external functions of the runtime, runtime/lib/Profile.cpp), and the
    module attribute `mlc.kernels` records the kernel table that
    mlc-emit-model-abi exports as `<prefix>_kernels`: one line per kernel,
    "<flops> <ops> <name>", where ops are the graph ops it computes joined
    with '+' ("conv2d+add+relu"), name the source nodes they come from (the
    node names in their locations: model.json / ONNX node names, joined with
    '+'; "kernel<k>" when none is known), both shortened to about 60
    characters, and flops the sum of graph::estimateFlops over its ops.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect"];
}

def UntieEmptyTensors
    : Pass<"mlc-untie-empty-tensors", "mlir::func::FuncOp"> {
  let summary = "Give every kernel its own tensor.empty";
  let description = [{
    Runs just before one-shot-bufferize. CSE merges equal tensor.empty ops,
    so the kernels of one shape (the scf.forall nests of lowered fusion
    groups) all write into one SSA value. Bufferization then makes them one
    buffer, live from the first of those kernels to the last (DenseNet-121's
    workspace: 13.5 MB instead of 8.1), and its conflict analysis walks
    every read and write of that alias set. Each scf.forall among the uses,
    but the first use, gets its own tensor.empty, made just before it. Other
    uses keep sharing: an unfused elementwise chain of linalg ops writes in
    place of itself and ends in the out-param.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

def HoistLoopBuffers : Pass<"mlc-hoist-loop-buffers", "mlir::func::FuncOp"> {
  let summary = "Allocate the buffers of sequential loop bodies once, before the loop";
  let description = [{
    Runs after bufferization. A fused kernel's tile buffers are allocated in
    the body of its scf.for loops: each memref.alloc and memref.alloca moves
    out of every enclosing scf.for whose body it does not escape (no alias of
    it is used or defined outside the body) and whose body does not define
    its dynamic sizes, to just before the outermost loop it leaves. It never
    leaves an scf.forall, scf.parallel or scf.if: a parallel loop's threads
    each need their own buffer. Allocations move in the order of MLIR's
    buffer-loop-hoisting (allocs, then allocas, each in program order), to
    the same places, without its liveness analysis of the whole function:
    0.15 s and 19 MB on DenseNet-121's entry function.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def DistinctResultBuffers
    : Pass<"mlc-distinct-result-buffers", "mlir::func::FuncOp"> {
  let summary = "Give every memref a function returns its own buffer";
  let description = [{
    Runs after bufferization, before buffer-results-to-out-params. Every
    model output is written into its own caller buffer, so a buffer returned
    more than once (two outputs that CSE merged, or an output listed twice)
    is copied into a fresh allocation for each repeat. Without this,
    promoting results to out params would have to alias two caller buffers.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def StaticMemoryPlan : Pass<"mlc-static-memory-plan", "mlir::ModuleOp"> {
  let summary = "Place the entry function's intermediate buffers in one workspace";
  let description = [{
    Runs on buffers, after buffer-results-to-out-params and before the
    deallocation pipeline. Every statically shaped memref.alloc at the top
    level of the entry function becomes a memref.view into a workspace
    buffer (memref<Nxi8>) appended as the entry's last argument.

    Lifetimes run from the first to the last use of a buffer or any alias
    of it (views, reshapes, casts, and ops in nested regions count at their
    top-level op). Buffers are placed greedily, largest first, each in the
    best-fitting free gap among already placed buffers whose lifetimes
    overlap, at 64-byte aligned offsets. An all-parallel linalg.generic
    whose output is born there and which reads, through an identity map,
    an equally sized buffer that dies there writes in place of that input.

    Records `mlc.workspace_bytes` and `mlc.workspace_lower_bound_bytes` (the
    largest total size of simultaneously live buffers) on the module. Allocs
    inside loops, dynamically shaped, or whose address escapes stay heap
    allocations.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect"
  ];
}

def DeallocateBuffers : Pass<"mlc-deallocate-buffers", "mlir::ModuleOp"> {
  let summary = "Free the heap buffers left after the static memory plan";
  let description = [{
    Runs after mlc-static-memory-plan, which leaves few heap allocations: a
    per-thread tile buffer inside a parallel loop, or none. A memref.alloc
    whose every use (through views) is inside its own block, and that no
    terminator, call or memref-producing op (other than a view) passes on,
    is freed by a memref.dealloc just before the block's terminator.

    If any allocation is not of that kind, or the module holds a
    memref.realloc or a memref.dealloc already, the pass runs MLIR's
    deallocation pipeline instead (expand-realloc,
    ownership-based-buffer-deallocation, buffer-deallocation-simplification,
    bufferization-lower-deallocations) on the whole module, as before. That
    pipeline walks the whole entry function whatever it finds: 0.3 s of
    DenseNet-121's compile, for its one tile buffer.
  }];
  let dependentDialects = [
    "mlir::memref::MemRefDialect", "mlir::bufferization::BufferizationDialect",
    "mlir::scf::SCFDialect", "mlir::arith::ArithDialect",
    "mlir::func::FuncDialect"
  ];
}

def EmitModelABI : Pass<"mlc-emit-model-abi", "mlir::ModuleOp"> {
  let summary = "Emit the mlc_model_* C ABI functions around the entry";
  let description = [{
    Runs on LLVM dialect after lowering with the bare-pointer memref calling
    convention. Generates mlc_model_entry(void **buffers, void *workspace)
    calling the entry function, and the metadata functions the runtime
    reads: mlc_model_abi_version, mlc_model_signature (from the
    `mlc.signature` module attribute), mlc_model_cpu_features and
    mlc_model_workspace_bytes (the module's `mlc.workspace_bytes`, whose
    presence means the entry takes the workspace pointer as its last
    argument; 0 without it), and mlc_model_kernels when the module has the
    `mlc.kernels` table of mlc-instrument-kernels. The entry function
    becomes internal. With `prefix`, the symbols are <prefix>_entry etc. (the other function
    families of trainable models, see model_abi.h).
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">,
    Option<"prefix", "prefix", "std::string", "\"mlc_model\"",
           "Prefix of the exported symbols">,
    Option<"cpuFeatures", "cpu-features", "std::string", "\"\"",
           "Comma-separated CPU features the code requires">,
    Option<"device", "device", "std::string", "\"cpu\"",
           "Where the entry's buffers live: cpu, or cuda (device pointers; "
           "also emits mlc_model_device_kind)">
  ];
}

def PackWeightGlobals : Pass<"mlc-pack-weight-globals", "mlir::ModuleOp"> {
  let summary = "Give large constant globals a flat byte-array type";
  let description = [{
    Runs on LLVM dialect. A constant llvm.mlir.global of at least
    `min-bytes` bytes whose value is a dense_resource blob (or non-splat
    dense data) of an array type gets the type
    !llvm.array<N x i8> and the same bytes as a tensor<N x i8> value (the
    blob is shared, not copied), and is placed in `section`.

    Translated as nested arrays, a 512x512x3x3 weight becomes a quarter of a
    million 3-element LLVM constants plus the aggregates above them, which
    LLVM uniques, walks in the optimizer, emits one element at a time and
    frees one by one: that dominated compiling ResNet-18. A byte array is
    one constant, emitted as one block of bytes. Users only take the
    global's address (opaque pointers), so no access changes.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", "1024",
           "Smallest global (in bytes) to pack">,
    Option<"section", "section", "std::string", "\".rodata.mlc_weights\"",
           "Object-file section of the packed globals (\"\" keeps the "
           "default)">
  ];
}

#endif // MLC_BACKEND_PASSES
