//===- Passes.td - CPU codegen passes ----------------------*- tablegen -*-===//
#ifndef MLC_CODEGEN_CPU_PASSES
#define MLC_CODEGEN_CPU_PASSES

include "mlir/Pass/PassBase.td"

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
    Option<"vnni", "vnni", "bool", /*default=*/"false",
           "The target has AVX-512 VNNI: integer matmuls and convolutions "
           "with constant weights as vpdpbusd kernels "
           "(IntegerMatMulKernel.cpp, IntegerConvKernel.cpp)">,
    Option<"int16Pairs", "int16-pairs", "bool", /*default=*/"false",
           "Without vnni: those kernels on 16-bit pairs (vpmaddwd: AVX2, or "
           "AVX-512BW with 512-bit vectors)">,
    Option<"reassociateFPReductions", "reassociate-fp-reductions", "bool",
           "false",
           "With vectorize: as mlc-vectorize-kernels' option">,
    Option<"releaseWeights", "release-weights", "bool", "false",
           "Free a weight's blob as soon as the last group that read it "
           "was lowered without it (a packed copy replaced it), so the "
           "originals and their packed copies are not all alive at once. "
           "Only when no other module shares the context's blobs "
           "(mlc-compile's inference pipeline)">,
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

def LowerStridedCopies : Pass<"mlc-lower-strided-copies", "mlir::ModuleOp"> {
  let summary = "Turn memref.copy between non-contiguous memrefs into loops";
  let description = [{
    memref.copy between strided memrefs lowers to a call into MLIR's runner
    library, which compiled models must not depend on; rewrite such copies
    as linalg.copy (loops). Contiguous copies stay (they become memcpy),
    subviews contiguous at an offset included.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
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

def X86IntDot : Pass<"mlc-x86-int-dot", "mlir::func::FuncOp"> {
  let summary = "Dot products of the integer kernels as vpdpbusd or vpmaddwd";
  let description = [{
    The integer matmul and convolution kernels write `acc + sum over groups
    of 4 of zext(x: vector<64xi8>) * sext(w: vector<64xi8>)` (VNNI), or of
    groups of 2 of `sext(x: vector<2Lxi16>) * sext(w: vector<2Lxi16>)`, as
    pure vector ops (ext, muli, shape_cast to vector<Lx4xi32> or
    vector<Lx2xi32>, multi_reduction add into vector<Lxi32>), which
    bufferization can analyse. After bufferization this pass turns the first
    into one call of `llvm.x86.avx512.vpdpbusd.512` (AVX-512 VNNI) and the
    second into `acc + vpmaddwd(x, w)` (`llvm.x86.avx2.pmadd.wd` for L = 8,
    `llvm.x86.avx512.pmaddw.d.512` for L = 16): the same int32 sums,
    wrapping. Only in pipelines for targets with those instructions;
    elsewhere the pure ops compute the same result.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def GroupTileWrites : Pass<"mlc-group-tile-writes", "mlir::func::FuncOp"> {
  let summary = "A kernel's chains of vector writes into a tile as a few "
                "2-D writes";
  let description = [{
    Runs just before one-shot-bufferize. A vectorized kernel writes its tile
    as a chain of 1-D `vector.transfer_write`s on tensors, each into the
    previous one's result (36 for a Winograd input transform, 32 for a
    16 x 32 matmul tile). A partial write also reads its destination, so
    one-shot's conflict analysis of such a chain grows with the cube of its
    length: 25 ms for one Winograd input kernel, 1.7 of DenseNet-121's 2.1 s
    of bufferization. Writes of the chain that differ only in one constant
    index (rows, Winograd points) are gathered, at most `max-group` at a
    time and in consecutive positions, into a `vector<G x V>` with
    vector.insert and written once by a 2-D transfer_write with that dim
    and the vector's: the chain becomes a few writes. Only chains of
    in-bounds, unmasked 1-D writes to the minor dim with disjoint targets
    (constant indices, or the same value in every write) are rewritten; the
    stores after vector lowering are the same.
  }];
  let options = [
    Option<"maxGroup", "max-group", "int64_t", /*default=*/"4",
           "Most 1-D writes in one 2-D write (its vectors stay live until "
           "it)">,
    Option<"minChain", "min-chain", "int64_t", /*default=*/"4",
           "Shortest chain worth rewriting">
  ];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // MLC_CODEGEN_CPU_PASSES
