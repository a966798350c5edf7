//===- Passes.td - graph-level passes ----------------------*- tablegen -*-===//
#ifndef MLC_TRANSFORMS_PASSES
#define MLC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def GraphInferShapes : Pass<"graph-infer-shapes", "mlir::ModuleOp"> {
  let summary = "Recompute every graph op's result type from its operands";
  let description = [{
    Walks functions in order and re-infers result types (through
    InferTypeOpInterface), then updates function signatures to match. Used
    after a function's argument types change (e.g. a different batch size),
    so that inference failures are reported at the op that causes them.
  }];
}

def GraphFormFusionGroups
    : Pass<"graph-form-fusion-groups", "mlir::func::FuncOp"> {
  let summary = "Wrap ops that one kernel computes into graph.fusion_group";
  let description = [{
    Kernel boundaries as visible IR. Roots are contractions (matmul, conv2d,
    conv_transpose2d), reductions (reduce_*, softmax, log_softmax,
    layer_norm), pooling, resize and the blocked Winograd transforms
    (winograd_input, winograd_output). Elementwise consumers of a root's result
    join its group while each is the only user of the previous result and
    keeps its shape (none join conv_transpose2d, whose result is a reshaped
    view of its contraction); elementwise producers whose only user is in a
    reduction, pooling or elementwise group join it (not contraction, resize
    or Winograd operands, which would be recomputed per tile or per tap).
    Remaining elementwise ops (broadcast_to among them) form chains the same
    way; data movement and scan-like ops (transpose, concat, gather,
    gather_elements, pad, cumsum, argmax, argmin) are single-op groups, but
    for the transpose of a constant whose only user is a matmul's right-hand
    side (a Gemm's transB, which graph-fold-constants leaves with
    keep-matmul-transposes): it joins the matmul's group, whose kernel reads
    the weight as stored. Reshapes and slices (views) and constants stay
    outside. A group never holds two roots, so never two contractions, and a
    reduction is never duplicated (every fused value has a single user). At
    most `max-inputs` distinct inputs.
  }];
  let options = [
    Option<"maxInputs", "max-inputs", "unsigned", "16",
           "Maximum number of distinct inputs of a group">
  ];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def GraphFoldConstants : Pass<"graph-fold-constants", "mlir::ModuleOp"> {
  let summary = "Replace graph ops on constants by their computed constant";
  let description = [{
    Evaluates every graph op whose operands are all constants (in program
    order, so chains of such ops collapse into one constant) and replaces it
    by a graph.constant with the op's location. Values are computed by the
    reference evaluator (mlc/Dialect/Graph/Evaluator.h), which matches the
    compiled kernels bit for bit, so folding never changes a model's outputs.
    Results with more than 16 elements become dense_resource blobs, like
    imported weights. Constants left without uses are erased.

    Size rule, so folding never blows up the binary: an op is folded when its
    result has at most `max-result-elements` elements, or when folding does
    not grow the constant data, i.e. the result takes no more bytes than the
    operand constants that die with the op (those used by this op only, each
    counted once). Transposing, reshaping, slicing or scaling a large weight
    therefore always folds, while broadcasting a scalar to a large tensor, or
    transposing a large weight that other ops still use, does not.

    With `release-weights`, a source weight of 1 MiB or more that a fold
    leaves unreferenced is freed at once, not by mlc-release-dead-weights
    after the pass, so the folded weights do not all coexist with their
    sources (VGG-11: 1081 MiB at the end of this pass without it, 1001 with
    it). Only when no other module shares the context's blobs.
  }];
  let options = [
    Option<"maxResultElements", "max-result-elements", "int64_t",
           /*default=*/"65536",
           "Largest result (in elements) that may be folded even when it "
           "grows the constant data">,
    Option<"releaseWeights", "release-weights", "bool", /*default=*/"false",
           "Free a large source weight as soon as a fold leaves no op "
           "naming its blob (mlc-compile's graph pipeline)">,
    Option<"keepMatmulTransposes", "keep-matmul-transposes", "bool",
           /*default=*/"false",
           "Leave the transpose of a constant that only feeds a matmul's "
           "right-hand side (a Gemm's transB): graph-form-fusion-groups "
           "puts it in the matmul's group, whose CPU kernel packs the weight "
           "from its stored layout instead of a transposed copy">
  ];
}

def GraphFoldBatchNorm : Pass<"graph-fold-batch-norm"> {
  let summary = "Fold inference batch_norm into a constant conv2d or matmul";
  let description = [{
    batch_norm(conv2d(x, w, b)) with constant filter, bias and batch_norm
    parameters becomes conv2d(x, w', b') with
    `w' = w * reshape(scale / sqrt(var + eps), [C, 1, 1, 1])` and
    `b' = (b - mean) * scale / sqrt(var + eps) + bias` (b = 0 without a
    bias); batch_norm of a 2-D matmul(x, W) [N, C] becomes
    `matmul(x, W * f) + b'`. Only when the conv/matmul result has no other
    user. The new weights are graph ops on constants, which
    graph-fold-constants evaluates. Inference only.
  }];
}

def GraphFoldScaleIntoMatMul : Pass<"graph-fold-scale-into-matmul"> {
  let summary = "Fold constant scales of a matmul into its constant weights";
  let description = [{
    `mul(matmul(x, W), c) -> matmul(x, W * c)` where W is constant, the
    matmul result has no other user and c is a constant that varies only
    along the last (N) dim without changing the result shape (a scalar,
    [N], [1, N], ...); `matmul(mul(x, s), W) -> matmul(x, W * s)` for a
    one-element constant s whose mul has no other user. `W * c` is left to
    graph-fold-constants. Inference only (rounding changes slightly).
  }];
}

def GraphFuseGelu : Pass<"graph-fuse-gelu"> {
  let summary = "Recognize GELU written out as elementwise ops";
  let description = [{
    `0.5 * x * (1 + erf(x / sqrt(2)))` becomes `graph.gelu x`, and
    `0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))` becomes
    `graph.gelu x {tanh_approximation}`: the three factors multiplied in
    any order, `x / sqrt(2)` as a division or a product, `x^3` as `pow` or
    products, constants within 1e-6 relative. The intermediate ops other
    than x must have no other user. Runs before
    graph-fold-scale-into-matmul (which would pull the 0.5 into the next
    weights). Inference only (rounding changes slightly).
  }];
}

def GraphQuantizedContractions : Pass<"graph-quantized-contractions"> {
  let summary = "Integer kernels for contractions of dequantized operands";
  let description = [{
    In a QDQ graph a convolution or matmul reads `graph.dequantize`d 8-bit
    values. `conv2d(dq(x), dq(w), b)` becomes
    `dequantize(conv2d_integer(x, w, x_zp, w_zp), x_scale * w_scale) + b`
    and `matmul(dq(a), dq(b))` likewise with graph.matmul_integer: the sums
    are exact in int32 and the scales are applied once per result, in an
    elementwise epilogue that fusion keeps in the contraction's kernel
    together with a following quantize (and anything between). Transposes
    and reshapes of a dequantize are moved before it, so that a Gemm's
    transposed weight matches too. Conditions: 8-bit operands, the input's
    (conv) zero point and scale one value, the filter's one value or one per
    output channel; a matmul's parameters must not vary along K. Anything
    else stays in float, and so do depthwise convolutions unless `depthwise`
    is set (their integer kernel is exact but no faster than the float one:
    without cross-channel sums there is nothing for vpdpbusd to do), and
    grouped ones unless `groups` is set and their groups are whole channel
    blocks of `block` or fit in one, the forms graph-block-channels gives
    the integer kernel (others would be generic loops). Runs before
    graph-fold-constants, which would
    fold the dequantized constant weights to float. Inference only.
  }];
  let options = [
    Option<"groups", "groups", "bool", /*default=*/"true",
           "Grouped convolutions (not depthwise) whose groups block">,
    Option<"block", "block", "int64_t", /*default=*/"16",
           "graph-block-channels' channel block">,
    Option<"depthwise", "depthwise", "bool", /*default=*/"false",
           "Also depthwise convolutions">,
  ];
}

def GraphFuseFakeQuant : Pass<"graph-fuse-fake-quant"> {
  let summary = "Quantize/dequantize pairs as one float op";
  let description = [{
    `dequantize(quantize(x, s, z), s, z)`, the same scale and zero point
    (the same values or equal constants), becomes `graph.fake_quantize x, s,
    z`: float to float, so it fuses into the producer's kernel as an
    epilogue and keeps the blocked channel layout, where the pair would be
    two kernels with an 8-bit tensor between them and layout changes
    around. Runs after graph-quantized-contractions, which needs the pairs.
    The quantize stays for its other users. Inference only.
  }];
}

def GraphWinogradConvs : Pass<"graph-winograd-convs"> {
  let summary = "Stride-1 3x3 convolutions as Winograd F(4x4, 3x3)";
  let description = [{
    A float32 conv2d with a constant 3x3 filter, stride 1, dilation 1 and
    one group becomes: the input transform B^T d B of every 6x6 input tile
    as a stride-4 conv2d of each channel with 36 constant filters; 36 matrix
    products of the transformed filters U = G g G^T [36, K, C] (computed
    here in double precision) with the transformed tiles [36, C, tiles];
    the output transform A^T m A as a stride-4 conv_transpose2d; then a
    slice to the output size and the bias. 36 multiplies per 4x4 output tile
    and channel pair instead of 144. Only with at least `min-in-channels`
    input and `min-out-channels` output channels and `min-tiles` output tiles
    (N * ceil(OH / 4) * ceil(OW / 4)): the input transform's cost grows with
    the input channels and the product's with both, so with few output
    channels the transforms cost more than the product saves, and with few
    tiles the 4x larger filter is read for too little work (the defaults
    are measured: docs/compiler.md). Inference only.

    A conv2d_nchwc in the blocked layout (after graph-block-channels, one
    group, blocked input) becomes graph.winograd_input on the input padded
    to whole tiles, 36 products [36, tiles, C] x [36, C, K] (the output
    channels as columns: every operand keeps its channels contiguous, no
    transposes), graph.winograd_output cut to the output size, and the
    bias. Its transforms are vector kernels over whole tiles, so they cost
    less than the NCHW form's and the thresholds are lower
    (`min-in-channels-blocked`, `min-out-channels-blocked`, padded counts).
  }];
  let options = [
    Option<"minInChannels", "min-in-channels", "int64_t", /*default=*/"32",
           "Fewest input channels">,
    Option<"minOutChannels", "min-out-channels", "int64_t", /*default=*/"64",
           "Fewest output channels">,
    Option<"minTiles", "min-tiles", "int64_t", /*default=*/"16",
           "Fewest 4x4 output tiles (over the batch)">,
    Option<"minInChannelsBlocked", "min-in-channels-blocked", "int64_t",
           /*default=*/"16",
           "Fewest input channels of a blocked conv2d_nchwc (padded)">,
    Option<"minOutChannelsBlocked", "min-out-channels-blocked", "int64_t",
           /*default=*/"32",
           "Fewest output channels of a blocked conv2d_nchwc (padded)">
  ];
}

def GraphBlockChannels : Pass<"graph-block-channels", "mlir::ModuleOp"> {
  let summary = "Convolution regions in the blocked channel layout (NCHWc)";
  let description = [{
    Float32 conv2d ops with a constant filter (one group, or depthwise)
    become graph.conv2d_nchwc on [N, C / B, H, W, B] values, their filters
    and biases repacked here with the channels padded to a multiple of B by
    zeros. Pooling, channel concats (every input a multiple of B channels)
    and elementwise ops that keep finite values finite join the region when
    an operand is blocked; the layout changes (pad, reshape, transpose and
    back) only at the region's edges. A convolution with fewer than 8 input
    channels reads its NCHW input directly. Inference only, after folding.
  }];
  let options = [
    Option<"block", "block", "int64_t", /*default=*/"16",
           "Channels per block (a multiple of the vector width)">
  ];
}

def GraphReorderSlices : Pass<"graph-reorder-slices"> {
  let summary = "Slice the operands of an elementwise op instead of its result";
  let description = [{
    `slice(f(a, b, ...)) -> f(slice(a), slice(b), ...)` for elementwise f
    (unary and binary arithmetic, compare, select, cast) when the slice keeps
    fewer elements than f produces and f has no other user. Operands are
    sliced only along dims where they are not broadcast; size-1 broadcast
    dims keep their full range. Inference only.
  }];
}

def GraphAutodiff : Pass<"graph-autodiff", "mlir::ModuleOp"> {
  let summary = "Build the reverse-mode gradient (VJP) function of a function";
  let description = [{
    For `func` this adds
    `@<grad-name>(args..., one cotangent per float result)
       -> (results..., cotangents of the `wrt` arguments)`
    (default name `<func>_grad`, default `wrt` every float argument).
    Activity analysis keeps only ops that depend on a `wrt` argument and
    that a result depends on; each such op's VJPOpInterface rule builds its
    operands' cotangents, which are summed where a value has several users.
    Zero cotangents stay symbolic (no zero tensors are built), except for a
    `wrt` argument that no result depends on. Results of NonDifferentiable
    ops (comparisons, argmax, floor, stop_gradient, ...) carry no gradient;
    an active value reaching an op without a rule is an error naming the
    op. The backward ops are ordinary graph ops, so folding, CSE, fusion
    and memory planning treat them like the forward ones.
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"main\"",
           "Function to differentiate">,
    ListOption<"wrt", "wrt", "unsigned",
               "Indices of the arguments to differentiate with respect to "
               "(default: every float argument)">,
    Option<"gradName", "grad-name", "std::string", /*default=*/"\"\"",
           "Name of the gradient function (default: <func>_grad)">
  ];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def GraphExpandTrainingOps : Pass<"graph-expand-training-ops"> {
  let summary = "Rewrite losses, optimizer updates and training batch_norm "
                "into elementwise and reduction ops";
  let description = [{
    After autodiff, `softmax_cross_entropy`, `mse_loss`, `sgd_update`,
    `adam_update` and `batch_norm_train` become the graph ops they are made
    of (log_softmax, gather_elements, reduce_mean, mul, sub, sqrt, ...),
    which fusion then groups like any others; `stop_gradient` is replaced by
    its input.
  }];
}

def ReleaseDeadWeights : Pass<"mlc-release-dead-weights", "mlir::ModuleOp"> {
  let summary = "Free the weight blobs that no op of the module references";
  let description = [{
    MLIR keeps every dense_resource blob for as long as the context lives,
    so a weight that a pass replaced by a transformed copy (folded, packed)
    would stay in memory. This pass frees the data of every builtin
    dense_resource blob that no attribute in the module refers to.

    Only correct where this module is the only IR of its context that holds
    dense_resource attributes: the compiler runs it on the module it compiles
    while no copy of it exists (not on the per-family copies of a trainable
    model, which share blobs).
  }];
}

#endif // MLC_TRANSFORMS_PASSES
