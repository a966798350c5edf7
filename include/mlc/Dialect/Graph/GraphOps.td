//===- GraphOps.td - graph dialect operations --------------*- tablegen -*-===//
#ifndef MLC_GRAPH_OPS
#define MLC_GRAPH_OPS

include "GraphDialect.td"
include "GraphInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// Integers are signless with signed semantics. f16 and bf16 are storage
// types: every arithmetic op and math function on them is computed in f32
// (extend, compute, round to nearest even), one op at a time, so reductions
// and contractions accumulate in the element type.
def Graph_Tensor
    : StaticShapeTensorOf<[F32, F64, F16, BF16, I64, I32, I16, I8, I1]>;
def Graph_FloatTensor : StaticShapeTensorOf<[F32, F64, F16, BF16]>;
def Graph_NumericTensor
    : StaticShapeTensorOf<[F32, F64, F16, BF16, I64, I32, I16, I8]>;
def Graph_BoolTensor : StaticShapeTensorOf<[I1]>;
// Quantized values: int8 or uint8 (builtin ui8). convert-graph-to-linalg
// makes unsigned types signless once each op has chosen its unsigned
// arithmetic.
def Graph_QuantTensor : StaticShapeTensorOf<[I8, UI8]>;
// Numbers with unsigned integers too (builtin ui8 to ui64): the ops that
// take them have unsigned semantics for them (compare, div, mod, max, min,
// shifts).
def Graph_ArithTensor : StaticShapeTensorOf<[F32, F64, F16, BF16, I64, I32,
                                             I16, I8, UI64, UI32, UI16, UI8]>;
def Graph_IntegerTensor
    : StaticShapeTensorOf<[I64, I32, I16, I8, UI64, UI32, UI16, UI8]>;
// Anything a graph value may be: constants, fusion groups.
def Graph_AnyTensor
    : StaticShapeTensorOf<[F32, F64, F16, BF16, I64, I32, I16, I8, I1, UI64,
                           UI32, UI16, UI8]>;
def Graph_IndexTensor : StaticShapeTensorOf<[I64, I32]>;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

// All graph ops are pure (so CSE/DCE apply) and infer their result type.
class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic,
         !listconcat(traits, [Pure, InferTypeOpAdaptor])>;

// Result element i depends only on the operands' (numpy-broadcast) elements
// at i. Fusion and slice reordering key on this instead of op lists.
def Graph_BroadcastingElementwise : NativeOpTrait<"BroadcastingElementwise"> {
  let cppNamespace = "::mlc::graph::traits";
}

class Graph_UnaryOp<string mnemonic, Type operandType, string desc,
                    list<Trait> traits = [Graph_HasVJP]>
    : Graph_Op<mnemonic, !listconcat([Graph_BroadcastingElementwise], traits)> {
  let summary = desc;
  let arguments = (ins operandType:$input);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

class Graph_BinaryOp<string mnemonic, Type operandType, string desc,
                     list<Trait> traits = [Graph_HasVJP]>
    : Graph_Op<mnemonic, !listconcat([Graph_BroadcastingElementwise], traits)> {
  let summary = desc # " with numpy broadcasting";
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

def Graph_ConstantOp : Graph_Op<"constant", [ConstantLike]> {
  let summary = "constant tensor (weights are dense_resource blobs)";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

// Identity operands and splat constants: GraphCanonicalize.cpp.
let hasCanonicalizer = 1 in {
def Graph_AddOp : Graph_BinaryOp<"add", Graph_ArithTensor, "addition">;
def Graph_SubOp : Graph_BinaryOp<"sub", Graph_ArithTensor, "subtraction">;
def Graph_MulOp : Graph_BinaryOp<"mul", Graph_ArithTensor, "multiplication">;
def Graph_DivOp : Graph_BinaryOp<"div", Graph_ArithTensor,
                                 "division (integers truncate toward zero)">;
def Graph_PowOp : Graph_BinaryOp<"pow", Graph_NumericTensor, "power"> {
  let description = [{
    f32: libm's `powf`. Integers (both operands of the same type): exact
    power with wrapping multiplication, as numpy's `power` (`0^0 = 1`). A
    negative exponent gives 0, except for bases 1 (1) and -1 (1 or -1 by
    the exponent's parity); numpy rejects negative integer exponents.
  }];
}
def Graph_MaxOp : Graph_BinaryOp<"max", Graph_ArithTensor,
                                 "maximum (NaN propagates)">;
def Graph_MinOp : Graph_BinaryOp<"min", Graph_ArithTensor,
                                 "minimum (NaN propagates)">;
} // hasCanonicalizer

def Graph_NegOp : Graph_UnaryOp<"neg", Graph_NumericTensor, "negation">;
def Graph_AbsOp : Graph_UnaryOp<"abs", Graph_NumericTensor, "absolute value">;
def Graph_ReluOp : Graph_UnaryOp<"relu", Graph_NumericTensor, "max(x, 0)">;
def Graph_ExpOp : Graph_UnaryOp<"exp", Graph_FloatTensor, "e^x">;
def Graph_LogOp : Graph_UnaryOp<"log", Graph_FloatTensor, "natural log">;
def Graph_SqrtOp : Graph_UnaryOp<"sqrt", Graph_FloatTensor, "square root">;
def Graph_RsqrtOp : Graph_UnaryOp<"rsqrt", Graph_FloatTensor,
                                  "reciprocal square root">;
def Graph_TanhOp : Graph_UnaryOp<"tanh", Graph_FloatTensor, "tanh">;
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid", Graph_FloatTensor,
                                    "1 / (1 + e^-x)">;
def Graph_ErfOp : Graph_UnaryOp<"erf", Graph_FloatTensor, "error function">;

// A float function computed by libm: the kernel's math op becomes an LLVM
// intrinsic or a libm call to `libm`, and the constant folder calls `libm`.
class Graph_LibmUnaryOp<string mnemonic, string desc, string libm,
                        list<Trait> traits = [Graph_HasVJP]>
    : Graph_UnaryOp<mnemonic, Graph_FloatTensor, desc, traits> {
  let description = "`result[i] = " # libm # "(input[i])` (C's `" # libm #
                    "`, with its IEEE special values: NaN propagates; "
                    "arguments outside the domain give NaN).";
}
def Graph_SinOp : Graph_LibmUnaryOp<"sin", "sine (radians)", "sinf">;
def Graph_CosOp : Graph_LibmUnaryOp<"cos", "cosine (radians)", "cosf">;
def Graph_TanOp : Graph_LibmUnaryOp<"tan", "tangent (radians)", "tanf">;
def Graph_AsinOp : Graph_LibmUnaryOp<"asin", "arcsine", "asinf">;
def Graph_AcosOp : Graph_LibmUnaryOp<"acos", "arccosine", "acosf">;
def Graph_AtanOp : Graph_LibmUnaryOp<"atan", "arctangent", "atanf">;
def Graph_SinhOp : Graph_LibmUnaryOp<"sinh", "hyperbolic sine", "sinhf">;
def Graph_CoshOp : Graph_LibmUnaryOp<"cosh", "hyperbolic cosine", "coshf">;
def Graph_AsinhOp : Graph_LibmUnaryOp<"asinh", "inverse hyperbolic sine",
                                      "asinhf">;
def Graph_AcoshOp : Graph_LibmUnaryOp<"acosh", "inverse hyperbolic cosine",
                                      "acoshf">;
def Graph_AtanhOp : Graph_LibmUnaryOp<"atanh", "inverse hyperbolic tangent",
                                      "atanhf">;
def Graph_FloorOp : Graph_LibmUnaryOp<"floor", "round down to an integer",
                                      "floorf", [Graph_NonDifferentiable]>;
def Graph_CeilOp : Graph_LibmUnaryOp<"ceil", "round up to an integer",
                                     "ceilf", [Graph_NonDifferentiable]>;
def Graph_RoundOp : Graph_LibmUnaryOp<"round",
                                      "round to nearest, ties to even",
                                      "roundevenf", [Graph_NonDifferentiable]>;

def Graph_SignOp : Graph_UnaryOp<"sign", Graph_NumericTensor,
                                 "sign: -1, 0 or 1",
                                 [Graph_NonDifferentiable]> {
  let description = [{
    -1 for negative elements, 1 for positive ones, 0 for zeros (float -0.0
    gives +0.0) and NaN for NaN, as numpy's `sign`. Integers give -1, 0, 1.
  }];
}

def Graph_ModOp : Graph_Op<"mod", [Graph_BroadcastingElementwise]> {
  let summary = "remainder with numpy broadcasting";
  let description = [{
    `fmod = false` (integers only): the remainder of floor division, which
    has the sign of the divisor, as numpy's `mod` and Python's `%`:
    `mod(-7, 2) = 1`, `mod(7, -2) = -1`.
    `fmod = true`: the remainder of truncated division, which has the sign
    of the dividend, as C's `fmod`: `fmod(-7, 2) = -1`; on f32 it is libm's
    `fmodf` (exact; NaN for a zero divisor or an infinite dividend).
    Unsigned integers: the remainder, in both modes.
    Integer `x mod 0` is 0 in both modes (as integer `div` defines
    `x / 0 = 0`) and `x mod -1` is 0, so bad data cannot trap.
  }];
  let arguments = (ins Graph_ArithTensor:$lhs, Graph_ArithTensor:$rhs,
                       BoolAttr:$fmod);
  let results = (outs Graph_ArithTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

// Bit shifts of integers: `y` counts bits (read as unsigned). Unsigned
// values shift in zeros; signed ones shift right arithmetically. Amounts of
// the bit width or more give 0 (-1 for negative signed values shifted
// right), where LLVM's shifts would be poison.
def Graph_ShiftLeftOp : Graph_BinaryOp<"shift_left", Graph_IntegerTensor,
                                       "x << y", [Graph_NonDifferentiable]>;
def Graph_ShiftRightOp : Graph_BinaryOp<"shift_right", Graph_IntegerTensor,
                                        "x >> y", [Graph_NonDifferentiable]>;

// Logical ops on bool (i1) tensors.
def Graph_AndOp : Graph_BinaryOp<"and", Graph_BoolTensor, "logical and",
                                 [Graph_NonDifferentiable]>;
def Graph_OrOp : Graph_BinaryOp<"or", Graph_BoolTensor, "logical or",
                                [Graph_NonDifferentiable]>;
def Graph_XorOp : Graph_BinaryOp<"xor", Graph_BoolTensor,
                                 "logical exclusive or",
                                 [Graph_NonDifferentiable]>;
def Graph_NotOp : Graph_UnaryOp<"not", Graph_BoolTensor, "logical negation",
                                [Graph_NonDifferentiable]>;

def Graph_GeluOp : Graph_Op<"gelu", [Graph_BroadcastingElementwise, Graph_HasVJP]> {
  let summary = "GELU: x * Phi(x), exact (erf) or tanh approximation";
  let arguments = (ins Graph_FloatTensor:$input, UnitAttr:$tanh_approximation);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Graph_CompareOp : Graph_Op<"compare", [Graph_BroadcastingElementwise, Graph_NonDifferentiable]> {
  let summary = "elementwise comparison with broadcasting, bool result";
  let arguments = (ins Graph_ComparePredicate:$predicate,
                       Graph_ArithTensor:$lhs, Graph_ArithTensor:$rhs);
  let results = (outs Graph_BoolTensor:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` "
                       "functional-type(operands, results)";
  let hasCanonicalizer = 1;
}

def Graph_SelectOp : Graph_Op<"select", [Graph_BroadcastingElementwise, Graph_HasVJP]> {
  let summary = "cond ? a : b, elementwise with broadcasting of all three";
  let arguments = (ins Graph_BoolTensor:$condition, Graph_Tensor:$true_value,
                       Graph_Tensor:$false_value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$condition `,` $true_value `,` $false_value attr-dict "
                       "`:` functional-type(operands, results)";
  let hasCanonicalizer = 1;
}

def Graph_CastOp : Graph_Op<"cast", [Graph_BroadcastingElementwise, Graph_HasVJP]> {
  let summary = "element type conversion";
  let description = [{
    Between any two of f32, f64, f16, bf16, i64, i32, i16, i8, ui64, ui32,
    ui16, ui8, i1. float -> int truncates toward zero (NaN and out-of-range
    values are undefined); float -> float and int -> float round to nearest
    even (f64 -> f16/bf16 rounds once, correctly); int -> int sign-extends
    (unsigned types zero-extend) or wraps; float -> 8- and 16-bit integers
    goes through i32 and wraps, float -> ui32/ui64 through i64 and ui64;
    anything -> i1 is `x != 0`; i1 -> number gives 0 or 1.
  }];
  let arguments = (ins Graph_AnyTensor:$input, TypeAttr:$to);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasCanonicalizer = 1;
}

// Quantization and integer contractions.
include "GraphOpsQuant.td"

//===----------------------------------------------------------------------===//
// Contractions and windows
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_Op<"matmul", [Graph_HasVJP]> {
  let summary = "batched matrix product, batch dims broadcast";
  let description = [{
    `[..., M, K] x [..., K, N] -> [..., M, N]`; both operands have rank >= 2
    and their leading (batch) dimensions broadcast like numpy.
  }];
  let arguments = (ins Graph_NumericTensor:$lhs, Graph_NumericTensor:$rhs);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Graph_Conv2DOp : Graph_Op<"conv2d", [Graph_HasVJP]> {
  let summary = "2-D convolution, NCHW input, OIHW filter, optional bias";
  let description = [{
    `pads` are [top, left, bottom, right]. The filter is
    `[O, C / groups, KH, KW]`; the optional bias is `[O]`.
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$filter,
                       Optional<Graph_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations, I64Attr:$groups);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` $filter (`,` $bias^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_Conv2DNchwcOp : Graph_Op<"conv2d_nchwc"> {
  let summary = "2-D convolution in the blocked channel layout (inference)";
  let description = [{
    The result is `[N, O / B, OH, OW, B]`: channel `o` of the NCHW result
    at `[n, o / B, oh, ow, o % B]`, B the block (the target's vector width or
    a multiple of it). Three forms, told apart by the filter's rank:
    - blocked input `[N, C / B, H, W, B]`, filter `[O / B, C / B, KH, KW, B,
      B]` (input lane, then output lane);
    - plain NCHW input `[N, C, H, W]` (a stem with 3 channels), filter
      `[O / B, C, KH, KW, B]`;
    - depthwise: blocked input with O = C, filter `[C / B, KH, KW, B]`.
    With `groups` G > 1 (blocked form only) every group has C / G input and
    O / G output channels, whole blocks of them, and the filter is
    `[O / B, C / B / G, KH, KW, B, B]`; output block `ob` reads the input
    blocks of group `ob / (O / B / G)`.
    The optional bias is `[O / B, B]`. `pads` are [top, left, bottom, right].
    Made by graph-block-channels from conv2d ops whose channels it padded to
    a multiple of B with zero filters; there is no VJP.
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$filter,
                       Optional<Graph_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` $filter (`,` $bias^)? attr-dict `:` "
                       "functional-type(operands, results)";
  let extraClassDeclaration = [{
    bool isDepthwise() { return getFilter().getType().getRank() == 4; }
    bool hasPlainInput() { return getInput().getType().getRank() == 4; }
  }];
}

def Graph_WinogradInputOp : Graph_Op<"winograd_input"> {
  let summary = "Winograd F(4x4, 3x3) input transform, blocked layout";
  let description = [{
    The input `[N, C / B, 4 * TH + 2, 4 * TW + 2, B]` (blocked channels,
    already padded so that every 6x6 tile is whole) gives
    `[36, N, TH, TW, C / B, B]`: entry `xi * 6 + nu` of tile `(th, tw)` is
    `(B^T d B)[xi][nu]` of the tile `d` whose top left corner is
    `(4 * th, 4 * tw)`, channel by channel (mlc/Dialect/Graph/Winograd.h).
    As `[36, N * TH * TW, C]` it is the left operand of the 36 matrix
    products of a Winograd convolution. Made by graph-winograd-convs from
    conv2d_nchwc; there is no VJP.
  }];
  let arguments = (ins Graph_FloatTensor:$input);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_WinogradOutputOp : Graph_Op<"winograd_output"> {
  let summary = "Winograd F(4x4, 3x3) output transform, blocked layout";
  let description = [{
    The products `[36, N, TH, TW, K / B, B]` give the blocked result
    `[N, K / B, OH, OW, B]` with `output_size` = `[OH, OW]`: the 4x4 block
    at `(4 * th, 4 * tw)` is `A^T m A` of tile `(th, tw)`, cut at the map's
    edge (`4 * TH - 3 <= OH <= 4 * TH`, the same for the width). Made by
    graph-winograd-convs; there is no VJP.
  }];
  let arguments = (ins Graph_FloatTensor:$input,
                       DenseI64ArrayAttr:$output_size);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ConvTranspose2DOp : Graph_Op<"conv_transpose2d", [Graph_HasVJP]> {
  let summary = "transposed 2-D convolution with stride equal to the kernel";
  let description = [{
    `y[n, co, h * KH + i, w * KW + j] = bias[co] + sum_ci x[n, ci, h, w] *
    filter[ci, co, i, j]`: the input `[N, Ci, H, W]`, the filter
    `[Ci, Co, KH, KW]` (ONNX/PyTorch ConvTranspose layout), the optional bias
    `[Co]`, the result `[N, Co, H * KH, W * KW]`. `strides` must equal the
    kernel size: the windows tile the output without overlap, so this is a
    contraction over `Ci` with no zero-dilated input (UNet's up-convolutions,
    and the data gradient of a patchifying conv2d). No padding, dilation or
    groups; other transposed convolutions are built as a conv2d of a
    zero-dilated input (buildConvTranspose2D).
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$filter,
                       Optional<Graph_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` $filter (`,` $bias^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

class Graph_Pool2DOp<string mnemonic, string desc>
    : Graph_Op<mnemonic, [Graph_HasVJP]> {
  let summary = desc # " over NCHW windows";
  // Also over the blocked layout [N, C / B, H, W, B] (rank 5): the windows
  // are on dims 2 and 3 in both.
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_MaxPool2DOp : Graph_Pool2DOp<"maxpool2d", "max pooling"> {
  let arguments = (ins Graph_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations);
}

def Graph_AvgPool2DOp : Graph_Pool2DOp<"avgpool2d", "average pooling"> {
  let arguments = (ins Graph_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       BoolAttr:$count_include_pad);
}

def Graph_GlobalAvgPoolOp : Graph_Pool2DOp<"global_avgpool",
                                           "mean over H and W"> {
  let arguments = (ins Graph_FloatTensor:$input);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def Graph_BatchNormOp : Graph_Op<"batch_norm", [Graph_HasVJP]> {
  let summary = "inference batch normalization over channel axis 1";
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Graph_FloatTensor:$bias, Graph_FloatTensor:$mean,
                       Graph_FloatTensor:$variance, F32Attr:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $bias `,` $mean `,` $variance "
                       "attr-dict `:` functional-type(operands, results)";
}

def Graph_LayerNormOp : Graph_Op<"layer_norm", [Graph_HasVJP]> {
  let summary = "layer normalization over dims [axis, rank)";
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Graph_FloatTensor:$bias, I64Attr:$axis,
                       F32Attr:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $bias attr-dict `:` "
                       "functional-type(operands, results)";
}

class Graph_SoftmaxBase<string mnemonic, string desc>
    : Graph_Op<mnemonic, [Graph_HasVJP]> {
  let summary = desc;
  let arguments = (ins Graph_FloatTensor:$input, I64Attr:$axis);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}
def Graph_SoftmaxOp : Graph_SoftmaxBase<"softmax", "softmax along axis">;
def Graph_LogSoftmaxOp : Graph_SoftmaxBase<"log_softmax",
                                           "log of softmax along axis">;

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Graph_ReduceOp<string mnemonic, Type operandType, string desc>
    : Graph_Op<mnemonic, [Graph_HasVJP]> {
  let summary = desc # " over the given axes";
  let arguments = (ins operandType:$input, DenseI64ArrayAttr:$axes,
                       BoolAttr:$keepdims);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum", Graph_NumericTensor, "sum">;
def Graph_ReduceMeanOp : Graph_ReduceOp<"reduce_mean", Graph_FloatTensor, "mean">;
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max", Graph_NumericTensor, "max">;
def Graph_ReduceMinOp : Graph_ReduceOp<"reduce_min", Graph_NumericTensor, "min"> {
  let description = [{
    Minimum over `axes` (sorted, distinct, in range); `keepdims` keeps the
    reduced dims as size 1. NaN propagates. Starts from +inf (integers: the
    type's maximum), which is the result of an empty reduction.
  }];
}
def Graph_ReduceProdOp : Graph_ReduceOp<"reduce_prod", Graph_NumericTensor,
                                        "product"> {
  let description = [{
    Product over `axes` (sorted, distinct, in range) in row-major order of
    the reduced elements, starting from 1 (the result of an empty
    reduction); `keepdims` keeps the reduced dims as size 1. Integer
    products wrap.
  }];
}

def Graph_CumSumOp : Graph_Op<"cumsum", [Graph_HasVJP]> {
  let summary = "cumulative sum along `axis`";
  let description = [{
    `result[..., i, ...]` is the sum of `input[..., j, ...]` over j <= i
    (`exclusive`: j < i; `reverse`: j >= i; both: j > i), an empty sum
    being 0. The sum starts from 0 and adds the selected elements in
    increasing j (integers wrap). Same shape and type as the input. The
    kernel visits all j for every i (O(n^2) along the axis).
  }];
  let arguments = (ins Graph_NumericTensor:$input, I64Attr:$axis,
                       BoolAttr:$exclusive, BoolAttr:$reverse);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

class Graph_ArgReduceOp<string mnemonic, string extreme, string order>
    : Graph_Op<mnemonic, [Graph_NonDifferentiable]> {
  let summary = "index of the " # extreme # " along `axis` (i64)";
  let description = "For each position of the other dims, the index along "
    "`axis` (in [0, size)) of the " # extreme # " element. Ties give the "
    "first such index, or the last one when `select_last_index`. NaN counts "
    "as " # order # " every number (as in numpy), so the first (last) NaN "
    "wins. `keepdims` keeps `axis` as a size-1 dim, else it is dropped. The "
    "axis must not be empty.";
  let arguments = (ins Graph_NumericTensor:$input, I64Attr:$axis,
                       BoolAttr:$keepdims, BoolAttr:$select_last_index);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def Graph_ArgMaxOp : Graph_ArgReduceOp<"argmax", "maximum", "greater than">;
def Graph_ArgMinOp : Graph_ArgReduceOp<"argmin", "minimum", "less than">;

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Graph_ReshapeOp : Graph_Op<"reshape", [Graph_HasVJP]> {
  let summary = "reshape to `shape` (same element count, row-major order)";
  let arguments = (ins Graph_AnyTensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasCanonicalizer = 1;
}

def Graph_TransposeOp : Graph_Op<"transpose", [Graph_HasVJP]> {
  let summary = "permute dimensions: result dim i is input dim perm[i]";
  let arguments = (ins Graph_AnyTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasCanonicalizer = 1;
}

def Graph_ConcatOp : Graph_Op<"concat", [Graph_HasVJP]> {
  let summary = "concatenation along axis";
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type(operands, results)";
}

def Graph_SliceOp : Graph_Op<"slice", [Graph_HasVJP]> {
  let summary = "strided slice with normalized, full-rank bounds";
  let description = [{
    For each dim d: elements starts[d], starts[d] + steps[d], ... below
    ends[d], with 0 <= starts[d] <= ends[d] <= size[d] and steps[d] > 0.
    Frontends normalize negative and out-of-range indices before this.
  }];
  let arguments = (ins Graph_AnyTensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasCanonicalizer = 1;
}

def Graph_GatherOp : Graph_Op<"gather", [Graph_HasVJP]> {
  let summary = "take entries of `data` along axis at `indices`";
  let description = [{
    Result shape is `data[:axis] + indices + data[axis+1:]`. Negative indices
    count from the end; indices still out of range are clamped.
  }];
  let arguments = (ins Graph_Tensor:$data, Graph_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_BroadcastToOp : Graph_Op<"broadcast_to", [Graph_HasVJP]> {
  let summary = "numpy broadcast of the input with `shape`";
  let description = [{
    The result shape is the numpy broadcast of the input's shape and
    `shape` (as ONNX Expand: `shape` may have a lower rank or size-1 dims,
    so the result can be larger than `shape`); each result element is the
    input element it broadcasts from. Incompatible shapes are an error.
    Folds to the input when the shape does not change. Lowers to one
    elementwise generic reading the input through a broadcasting map.
  }];
  let arguments = (ins Graph_AnyTensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_GatherElementsOp : Graph_Op<"gather_elements", [Graph_HasVJP]> {
  let summary = "take elements of `data` at `indices` along axis";
  let description = [{
    `indices` has the rank of `data` and every dim other than `axis` no
    larger than data's; the result has the shape of `indices` and
    `result[i][j][k] = data[indices[i][j][k]][j][k]` for axis 0 (likewise
    for other axes). Negative indices count from the end (size is added
    once); indices still out of range are clamped, as in `gather`.
  }];
  let arguments = (ins Graph_Tensor:$data, Graph_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_PadOp : Graph_Op<"pad", [Graph_HasVJP]> {
  let summary = "constant padding";
  let description = [{
    `pads` has 2 * rank non-negative entries: all leading pads, then all
    trailing pads. New elements are `value` (converted to the element type).
  }];
  let arguments = (ins Graph_AnyTensor:$input, DenseI64ArrayAttr:$pads,
                       F64Attr:$value);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ResizeOp : Graph_Op<"resize", [Graph_HasVJP, SameVariadicOperandSize]> {
  let summary = "separable interpolation from per-axis tap tables";
  let description = [{
    Resamples the input along the sorted, distinct `axes`. Axis `axes[k]`
    has an index table `indices[k]` and a weight table `weights[k]`, both
    `[taps_k, out_k]`: result position `o` along that axis reads the input
    at `indices[k][t][o]` (clamped into `[0, size)`) with weight
    `weights[k][t][o]`, for each tap `t`. The result has `out_k` elements
    along `axes[k]` and the input's size elsewhere. The axes are applied
    one after another, the first axis innermost:

      y[o] = sum_{t_last} w_last[t_last][o_last] * ( ...
               sum_{t_0} w_0[t_0][o_0] * x[i_0, ..., i_last] ... )

    each sum starting from its first tap's product and adding the others
    in tap order (separate multiply and add). So for an NCHW image resized
    along H and W, `y[n,c,oh,ow] = sum_j ww[j,ow] * (sum_i wh[i,oh] *
    x[n,c,ih[i,oh],iw[j,ow]])`. Nearest-neighbour resizing has one tap of
    weight 1 (a gather); linear two, cubic four. The ONNX importer computes
    the tables (every coordinate transformation and mode of Resize).
  }];
  let arguments = (ins Graph_FloatTensor:$input,
                       Variadic<Graph_IndexTensor>:$indices,
                       Variadic<Graph_FloatTensor>:$weights,
                       DenseI64ArrayAttr:$axes);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` `[` $indices `]` `,` `[` $weights `]` "
                       "attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Training: gradients, losses, optimizers
//===----------------------------------------------------------------------===//
// Losses and optimizer updates stay single ops through autodiff (short rules,
// readable train steps); graph-expand-training-ops rewrites them into the
// elementwise and reduction ops above before fusion.

def Graph_StopGradientOp : Graph_Op<"stop_gradient", [Graph_NonDifferentiable]> {
  let summary = "identity whose result carries no gradient";
  let description = [{
    Returns its input unchanged; `graph-autodiff` treats the result as a
    constant. It is kept (never folded) until lowering, so passes that run
    before autodiff cannot remove it.
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Graph_BatchNormTrainOp : Graph_Op<"batch_norm_train", [Graph_HasVJP]> {
  let summary = "training-mode batch normalization over channel axis 1";
  let description = [{
    Normalizes with the statistics of this batch: for each channel c,
    `mean[c]` and the biased `variance[c]` over all axes but 1, and
    `result = (input - mean) / sqrt(variance + epsilon) * scale + bias`.
    Returns the statistics too (for running averages); its gradient rule
    reuses them instead of recomputing.
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Graph_FloatTensor:$bias, F32Attr:$epsilon);
  let results = (outs Graph_FloatTensor:$result, Graph_FloatTensor:$mean,
                      Graph_FloatTensor:$variance);
  let assemblyFormat = "$input `,` $scale `,` $bias attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_SoftmaxCrossEntropyOp
    : Graph_Op<"softmax_cross_entropy", [Graph_HasVJP]> {
  let summary = "mean softmax cross-entropy of logits [N, C] and labels [N]";
  let description = [{
    `-mean_n log_softmax(logits)[n, labels[n]]`, a scalar. Labels are class
    indices in [0, C) (out-of-range labels are clamped, as in gather).
  }];
  let arguments = (ins Graph_FloatTensor:$logits, Graph_IndexTensor:$labels);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$logits `,` $labels attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_MSELossOp : Graph_Op<"mse_loss", [Graph_HasVJP]> {
  let summary = "mean squared error of two tensors of the same shape";
  let description = [{ `mean((prediction - target)^2)` over all elements,
    a scalar. }];
  let arguments = (ins Graph_FloatTensor:$prediction,
                       Graph_FloatTensor:$target);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$prediction `,` $target attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_SGDUpdateOp : Graph_Op<"sgd_update", [Graph_NonDifferentiable]> {
  let summary = "one SGD step with optional momentum and weight decay";
  let description = [{
    With `g = grad + weight_decay * param`:
    momentum = 0 (no `velocity`): `param - lr * g`;
    otherwise `v' = momentum * velocity + g`, and the new param is
    `param - lr * v'` (or `param - lr * (g + momentum * v')` when
    `nesterov`), as torch.optim.SGD. Returns the new param, then the new
    velocity when there is one.
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$grad,
                       Optional<Graph_FloatTensor>:$velocity, F64Attr:$lr,
                       F64Attr:$momentum, F64Attr:$weight_decay,
                       BoolAttr:$nesterov);
  let results = (outs Variadic<Graph_FloatTensor>:$results);
  let assemblyFormat = "$param `,` $grad (`,` $velocity^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_AdamUpdateOp : Graph_Op<"adam_update", [Graph_NonDifferentiable]> {
  let summary = "one Adam step with bias correction";
  let description = [{
    `step` is the 1-based number of this step (a scalar of the param's
    type). With `g = grad + weight_decay * param` (L2, as torch.optim.Adam):
    `m' = beta1 m + (1 - beta1) g`, `v' = beta2 v + (1 - beta2) g^2`,
    `param' = param - lr * (m' / (1 - beta1^step)) /
    (sqrt(v' / (1 - beta2^step)) + epsilon)`. Returns param', m', v'.
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$grad,
                       Graph_FloatTensor:$m, Graph_FloatTensor:$v,
                       Graph_FloatTensor:$step, F64Attr:$lr, F64Attr:$beta1,
                       F64Attr:$beta2, F64Attr:$epsilon,
                       F64Attr:$weight_decay);
  let results = (outs Graph_FloatTensor:$new_param, Graph_FloatTensor:$new_m,
                      Graph_FloatTensor:$new_v);
  let assemblyFormat = "$param `,` $grad `,` $m `,` $v `,` $step attr-dict `:` "
                       "functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Fusion groups (kernel boundaries)
//===----------------------------------------------------------------------===//

def Graph_FusionGroupOp : Op<Graph_Dialect, "fusion_group", [
    IsolatedFromAbove, Pure,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "ops that codegen emits as one kernel (one loop nest)";
  let description = [{
    Formed by `graph-form-fusion-groups`. The region is isolated: its block
    arguments are the group's inputs, in operand order, and `graph.yield`
    returns its results. `kind` names the group's root: "contraction",
    "reduction", "pool", "elementwise" or "data" (a data movement op).
    convert-graph-to-linalg lowers the ops inside in place, and
    mlc-lower-fusion-groups turns the group into one loop nest. Groups do
    not nest.
  }];
  let arguments = (ins Variadic<Graph_AnyTensor>:$inputs, StrAttr:$kind);
  let results = (outs Variadic<Graph_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs, "::llvm::StringRef":$kind)>
  ];
}

def Graph_YieldOp : Op<Graph_Dialect, "yield", [
    Pure, Terminator, HasParent<"FusionGroupOp">]> {
  let summary = "results of a fusion group";
  let arguments = (ins Variadic<Graph_AnyTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  // No values: the implicit terminator of an empty group.
  let builders = [OpBuilder<(ins), [{ (void)$_state; }]>];
}

#endif // MLC_GRAPH_OPS
