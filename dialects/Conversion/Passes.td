//===- Passes.td - mlc conversion passes -------------------*- tablegen -*-===//
#ifndef MLC_CONVERSION_PASSES
#define MLC_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalg : Pass<"convert-graph-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower graph ops to linalg/tensor/arith/math on tensors";
  let description = [{
    Each graph op becomes linalg ops on tensors (mostly one linalg.generic
    per op, parallel loops outermost) plus tensor ops for reshapes, slices,
    padding and concatenation. Weights stay dense_resource constants.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect"
  ];
}

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
    caller's buffers and must never be written in place.
  }];
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

def LowerStridedCopies : Pass<"mlc-lower-strided-copies", "mlir::ModuleOp"> {
  let summary = "Turn memref.copy between non-contiguous memrefs into loops";
  let description = [{
    memref.copy between strided memrefs lowers to a call into MLIR's runner
    library, which compiled models must not depend on; rewrite such copies
    as linalg.copy (loops). Contiguous copies stay (they become memcpy).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def ExpandBF16 : Pass<"mlc-expand-bf16"> {
  let summary = "Expand bf16 <-> f32 conversions into integer ops";
  let description = [{
    After arith-emulate-unsupported-floats, bf16 values only move and are
    converted to and from f32. LLVM lowers an f32 -> bf16 fptrunc to a call
    to __truncsfbf2, which libgcc only has from GCC 13 on; this pass rewrites
    arith.extf bf16 -> f32 and arith.truncf f32 -> bf16 (round to nearest
    even, NaN stays NaN) as bit operations, so models need no such helper.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
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

def LowerFusionGroups : Pass<"mlc-lower-fusion-groups", "mlir::func::FuncOp"> {
  let summary = "Emit each graph.fusion_group as one loop nest and inline it";
  let description = [{
    Runs after convert-graph-to-linalg, on tensors. Inside each group,
    elementwise linalg ops are fused into their consumers; then the op
    producing the group's result is tiled along its outermost parallel
    dimension with more than one iteration (tile size 1) and its producers
    in the group are fused into that loop, so the group becomes one scf.for
    nest. A producer is not fused when it would be recomputed whole in every
    iteration and contains a reduction (never duplicate a reduction); it then
    stays a loop nest of its own before the loop. The group's body is then
    inlined into the function.

    Groups whose result is a contraction or an elementwise epilogue of one
    are emitted first as register-blocked vector kernels (see
    ContractionKernel.cpp): vector FMAs over accumulators kept in
    registers across the whole reduction, the epilogue applied to them,
    constant right-hand sides packed at compile time, and, for kernels with
    at least `parallel-min-work` multiply-adds, the outermost tile loop
    with two or more iterations as an scf.forall. Groups whose result is a
    resize with constant tables (or an elementwise epilogue of one) become
    row loops with vectors along the last dim (ResizeKernel.cpp). Groups
    whose result is a blocked Winograd transform (or an elementwise epilogue
    of the output transform) become loops over whole tiles with vectors
    along the channel lanes, computed separably (WinogradKernel.cpp).

    The groups are isolated, so they are lowered in parallel (MLIR's thread
    pool, as nested passes run); with `vectorize`, each group's remaining
    linalg ops are also vectorized there, as mlc-vectorize-kernels would
    after inlining. Inlining is serial, in the groups' order.
  }];
  let options = [
    Option<"contractionKernels", "contraction-kernels", "bool",
           /*default=*/"true",
           "Emit matmul/convolution groups as register-blocked vector "
           "kernels (ContractionKernel.cpp), resize groups as row kernels "
           "(ResizeKernel.cpp), Winograd transforms as tile kernels "
           "(WinogradKernel.cpp)">,
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"256",
           "Width of the target's vector registers in bits">,
    Option<"vectorRegisters", "vector-registers", "unsigned",
           /*default=*/"16", "Number of vector registers">,
    Option<"parallelMinWork", "parallel-min-work", "int64_t",
           /*default=*/"262144",
           "Kernels with at least this many multiply-adds get an scf.forall "
           "(0: never)">,
    Option<"vectorize", "vectorize", "bool", /*default=*/"false",
           "Also do what mlc-vectorize-kernels does, inside each group "
           "before it is inlined (mlc-compile's pipeline)">,
    Option<"reassociateFPReductions", "reassociate-fp-reductions", "bool",
           "false",
           "With vectorize: as mlc-vectorize-kernels' option">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::memref::MemRefDialect",
                           // Threads must not load dialects: everything
                           // vectorization creates is loaded up front.
                           "mlir::math::MathDialect",
                           "mlir::ub::UBDialect"];
}

def OutlineKernels : Pass<"mlc-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Move each kernel's loop nest out of the entry function";
  let description = [{
    After bufferization, every top-level op of the entry function that has
    regions, no results and at least `min-ops` nested ops (a kernel's loop
    nest) moves into its own private, noinline function
    `<entry>_kernel<i>`, called where it was. Values it uses from the entry
    function become arguments, except side-effect-free ops without regions
    (constants, memref.get_global, views, index arithmetic), which are
    cloned into the kernel: the arguments are buffers (function arguments,
    allocations) and values computed at run time. LLVM's loop passes are
    superlinear in a function's size, and separate functions can be
    compiled in parallel.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">,
    Option<"minOps", "min-ops", "int64_t", /*default=*/"8",
           "Smallest nest (ops inside it) worth a function of its own">
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def MergeKernels : Pass<"mlc-merge-kernels", "mlir::ModuleOp"> {
  let summary = "Kernels identical but for their weights and buffers share "
                "one function";
  let description = [{
    Runs after mlc-outline-kernels. In each kernel, the weights it reads
    (memref.get_global) and the views of its buffer arguments at constant
    byte shifts (memref.view: the workspace slots of the static memory
    plan) stand for arguments: a kernel's canonical form has them appended
    to its arguments, the dead constants dropped and the top-level
    constants in one order. Kernels called once from the entry function
    whose forms print the same become one function, named after the first
    of them, and every call site passes its own globals and views. A kernel
    with no twin is left as it is.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The model's entry function (its kernels are <entry>_kernel<N>)">,
  ];
  let statistics = [
    Statistic<"merged", "shared-functions",
              "Functions now shared by several kernels">,
    Statistic<"removed", "removed-functions",
              "Kernel functions replaced by a shared one">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def InlineAllocaScopes : Pass<"mlc-inline-alloca-scopes"> {
  let summary = "Inline memref.alloca_scope ops that allocate nothing";
  let description = [{
    convert-scf-to-openmp wraps each parallel loop body in an alloca scope.
    The scope's region must stay one block, so the loops inside could not
    be lowered to cf; a scope without a memref.alloca of its own (nested
    scopes keep theirs) releases nothing and is replaced by its body.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def ApplyLoopAnnotations : Pass<"mlc-apply-loop-annotations"> {
  let summary = "Turn scf.for loop hints into LLVM loop metadata";
  let description = [{
    Kernels mark some scf.for loops with a discardable
    `llvm.loop_annotation` attribute (#llvm.loop_annotation, e.g. unroll
    disabled where LLVM's unrolling makes a register-blocked loop spill its
    accumulators). convert-scf-to-cf carries it to the loop's latch branch
    and convert-cf-to-llvm keeps it there as a discardable attribute; this
    pass, after them, makes it the llvm.br / llvm.cond_br's own
    `loop_annotation`, which becomes `!llvm.loop` metadata. The attribute is
    removed from every other op.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ApproximateMath : Pass<"mlc-approximate-math"> {
  let summary = "Inline polynomial approximations of f32 tanh, exp, erf";
  let description = [{
    Rewrites math.tanh, exp and expm1 on f32 (scalars and vectors) into
    MLIR's polynomial approximations, and math.erf into mlc's rational
    function of x^2 (one division; ErfApproximation.cpp), so they vectorize
    and need no libm call. Functions whose approximations lose accuracy on part of the
    range (log flushes denormal inputs; sin, cos, atan, ...) keep libm.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def PadInPlace : Pass<"mlc-pad-in-place", "mlir::func::FuncOp"> {
  let summary = "Write padded tensors' interiors in place and fill only "
                "their borders";
  let description = [{
    A constant pad lowers to `tensor.insert_slice %src into
    linalg.fill(%c, tensor.empty)`: bufferized, that fills the whole padded
    buffer and then copies the source into its interior (for a 3x3
    convolution, the whole activation is written twice more). This pass
    rewrites each such pad (unit strides, static shapes) so that

    - the fill covers only the border: one fill per padded side and
      dimension, on slices that together cover the frame exactly once;
    - the kernel computing `%src` writes straight into the interior: the
      tensor.empty at the end of `%src`'s destination chain (through
      destination-style ops, scf.forall shared outputs and scf.for
      iter_args, each value used once) becomes a slice of the padded
      tensor, so bufferization makes the insert_slice a self-copy that
      folds away.

    A source with other users, a block argument or a chain that ends
    elsewhere keeps its copy; its border-only fill still applies.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def ConcatInPlace : Pass<"mlc-concat-in-place", "mlir::func::FuncOp"> {
  let summary = "Let the kernels computing a concatenation's inputs write "
                "into their slices of it";
  let description = [{
    A concatenation lowers to a chain of `tensor.insert_slice`s into a
    `tensor.empty`: bufferized as is, each input is computed into a buffer
    of its own and then copied into the result. For every such chain (two
    or more inserts with static offsets and sizes, unit strides, each
    insert's result used only by the next), the chain's empty tensor
    becomes a `bufferization.alloc_tensor`, and for each input whose kernel
    writes a fresh tensor of this block (the tensor.empty at the end of its
    destination chain, as mlc-pad-in-place traces it) that tensor becomes
    the input's slice of the concatenation, so that bufferization makes
    the insert a self-copy that folds away. An input with other users (a
    DenseNet feature map that several concatenations read), a block
    argument or a constant keeps its copy. Runs before mlc-pad-in-place so
    that a padded concatenation is written inside the padded tensor.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::tensor::TensorDialect"];
}

def VectorizeKernels : Pass<"mlc-vectorize-kernels", "mlir::func::FuncOp"> {
  let summary = "Tile the remaining linalg ops into vector-width tiles and "
                "vectorize them";
  let description = [{
    Runs after mlc-lower-fusion-groups, on tensors. Every statically shaped
    linalg op on f32, f64 or integer tensors that is not a contraction (two
    inputs read along a reduction dimension: matmul and conv are scheduled
    elsewhere) gets one vector dimension:

    - a reduction whose reduced input is contiguous along a reduction
      dimension (softmax, layer_norm, reduce_* over the last axes, global
      average pooling): that reduction dimension; each tile is reduced into
      the scalar accumulator by vector.multi_reduction (inner reduction);
    - otherwise the innermost dimension of the result (elementwise ops,
      fills, reductions over outer axes, pooling windows): one lane per
      result element, accumulated in the reduction's own order.

    The op is tiled with scf::tileUsingSCF by `vector-bits` / (widest
    element bits) along that dimension and by 1 along every other one; a
    loop whose trip does not divide evenly is peeled, so the last tile is a
    smaller static vector rather than a masked one. Each tile is then
    vectorized with linalg::vectorize; pooling windows (strided or dilated
    input maps) read a strided slice of their input first. An op with at
    least `parallel-min-work` iterations (max pooling over a large map)
    first gets an scf.forall over its outermost parallel dimension that
    is not the vector one, for the runtime's threads. Accumulators
    are hoisted out of the reduction loops.

    Reductions keep the scalar loops' order: a lane accumulates its element
    in loop order, and an inner vector reduction of floats is lowered as an
    ordered (non-reassociated) reduction, so results are bit-identical to
    the scalar kernels and to the reference evaluator. Order-independent
    reductions (float max/min, integer ops) accumulate a register of lanes
    per row instead. A transpose (an input read across the result's
    innermost dim) is tiled by lanes x lanes: rows of the input are read as
    vectors and transposed in registers. Left as they are: ops the vectorizer rejects (argmax,
    cumsum), gathers and linalg.index users, columns read across the
    vector, i1 and f16/bf16 tensors, and ops calling libm (log, pow,
    sin, ...: one call per lane would be slower than the scalar loop; f32
    exp, expm1, tanh and erf are polynomials by then, see
    mlc-approximate-math). `vector-bits=0` disables the pass.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits (0: leave every op scalar)">,
    Option<"reassociateFPReductions", "reassociate-fp-reductions", "bool",
           "false",
           "Sum and multiply floats in one accumulator per lane (faster, "
           "but no longer bit-identical to the scalar order)">,
    Option<"parallelMinWork", "parallel-min-work", "int64_t",
           /*default=*/"262144",
           "Ops with at least this many loop iterations run their outermost "
           "parallel dim as an scf.forall (0: never)">,
    Option<"topLevelOnly", "top-level-only", "bool", "false",
           "Only ops directly in the function's body (mlc-compile: the "
           "fusion groups' ops were vectorized by "
           "mlc-lower-fusion-groups{vectorize}; what is left is the borders "
           "of mlc-pad-in-place)">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::affine::AffineDialect"];
}

//===----------------------------------------------------------------------===//
// CUDA target (mlc-compile --target=cuda)
//===----------------------------------------------------------------------===//

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

    Large f32 matmuls (one M, one N and one K loop, static, M and N >= 16)
    are the exception: they are marked `mlc.gpu.block_tile = array<i64: bm,
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

#endif // MLC_CONVERSION_PASSES
