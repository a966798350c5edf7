//===- GraphOpsQuant.td - quantization ops of the graph dialect -*- tablegen -*-===//
//
// Included by GraphOps.td (after its base classes and type constraints):
// quantize, dequantize, fake_quantize and the integer contractions. Their
// type inference is in lib/Dialect/Graph/GraphOpsQuant.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_GRAPH_GRAPHOPSQUANT_TD
#define MLC_DIALECT_GRAPH_GRAPHOPSQUANT_TD

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

def Graph_QuantizeOp : Graph_Op<"quantize", [Graph_BroadcastingElementwise]> {
  let summary = "float to int8/uint8: saturate(round(x / scale) + zero_point)";
  let description = [{
    Elementwise with numpy broadcasting of all three operands: a per-axis
    scale is a tensor whose only non-1 dim is that axis. The division
    rounds to nearest, ties to even, then the zero point is added and the
    sum saturated to the result type's range ([-128, 127] or [0, 255]).
    The result has the zero point's element type. NaN gives the zero point.
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Graph_QuantTensor:$zero_point);
  let results = (outs Graph_QuantTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $zero_point attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_DequantizeOp : Graph_Op<"dequantize", [Graph_BroadcastingElementwise]> {
  let summary = "int8/uint8/int32 to float: (x - zero_point) * scale";
  let description = [{
    Elementwise with numpy broadcasting of all three operands (a per-axis
    scale and zero point have a single non-1 dim). The input and zero point
    have one element type: i8, ui8 or i32 (a bias quantized with the
    product of the scales); the difference is exact in i32 and converted
    to the scale's type once, then multiplied.
  }];
  let arguments = (ins AnyTypeOf<[Graph_QuantTensor,
                                  StaticShapeTensorOf<[I32]>]>:$input,
                       Graph_FloatTensor:$scale,
                       AnyTypeOf<[Graph_QuantTensor,
                                  StaticShapeTensorOf<[I32]>]>:$zero_point);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $zero_point attr-dict `:` "
                       "functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Integer contractions
//===----------------------------------------------------------------------===//

def Graph_FakeQuantizeOp : Graph_Op<"fake_quantize",
                                     [Graph_BroadcastingElementwise]> {
  let summary = "dequantize(quantize(x, scale, zp), scale, zp) in one op";
  let description = [{
    The value x has after quantization to the zero point's 8-bit type and
    back, float to float: `(saturate(round(x / scale) + zp) - zp) * scale`,
    rounding and saturation as graph.quantize (NaN gives 0). Made by
    graph-fuse-fake-quant from a quantize/dequantize pair with the same
    parameters, so that it is one float elementwise op that fusion and the
    blocked layout treat like any other.
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Graph_QuantTensor:$zero_point);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $zero_point attr-dict `:` "
                       "functional-type(operands, results)";
}

// Integer contractions: 8-bit operands, exact int32 accumulation of the
// products of their differences from the zero points. Scales are applied by
// a graph.dequantize of the result (the requantizing epilogue that fusion
// puts into the same kernel).
def Graph_I32Tensor : StaticShapeTensorOf<[I32]>;

def Graph_MatMulIntegerOp : Graph_Op<"matmul_integer"> {
  let summary = "8-bit batched matrix product accumulated in int32";
  let description = [{
    `sum_k (lhs[..., m, k] - lhs_zp) * (rhs[..., k, n] - rhs_zp)`, shapes
    and batch broadcasting as graph.matmul. Each operand is i8 or ui8 (they
    may differ); its zero point has its element type and broadcasts to its
    shape without varying along K: the lhs zero point is a scalar or per
    row (`[..., M, 1]`), the rhs one a scalar or per column (`[..., 1, N]`
    or `[N]`). The sums wrap in int32, as ONNX's MatMulInteger.
  }];
  let arguments = (ins Graph_QuantTensor:$lhs, Graph_QuantTensor:$rhs,
                       Graph_QuantTensor:$lhs_zero_point,
                       Graph_QuantTensor:$rhs_zero_point);
  let results = (outs Graph_I32Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs `,` $lhs_zero_point `,` $rhs_zero_point "
                       "attr-dict `:` functional-type(operands, results)";
}

def Graph_Conv2DIntegerOp : Graph_Op<"conv2d_integer"> {
  let summary = "8-bit 2-D convolution accumulated in int32";
  let description = [{
    graph.conv2d (NCHW input, OIHW filter, same attributes and shapes, no
    bias) of `input - input_zp` and `filter - filter_zp`, summed in int32.
    Padding reads `input_zp`, so padded elements contribute zero. The input
    zero point is one value (every dim 1); the filter one is a scalar or per
    output channel (`[O, 1, 1, 1]`). Each has its operand's element type.
  }];
  let arguments = (ins Graph_QuantTensor:$input, Graph_QuantTensor:$filter,
                       Graph_QuantTensor:$input_zero_point,
                       Graph_QuantTensor:$filter_zero_point,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations, I64Attr:$groups);
  let results = (outs Graph_I32Tensor:$result);
  let assemblyFormat = "$input `,` $filter `,` $input_zero_point `,` "
                       "$filter_zero_point attr-dict `:` "
                       "functional-type(operands, results)";
}


def Graph_Conv2DIntegerNchwcOp : Graph_Op<"conv2d_integer_nchwc"> {
  let summary = "8-bit 2-D convolution in the blocked channel layout";
  let description = [{
    graph.conv2d_integer in the layout of graph.conv2d_nchwc's blocked
    forms: input `[N, C / B, H, W, B]` (int8 or uint8), result
    `[N, O / B, OH, OW, B]` in int32 (channel `o` of the NCHW result at
    `[n, o / B, oh, ow, o % B]`), and an int8 filter with zero point 0,
    told apart by its rank:
    - one group: `[O / B, C / B, KH, KW, B, B]` (input lane, then output
      lane);
    - depthwise (O = C, one group per channel): `[C / B, KH, KW, B]`;
    - `groups` G > 1: `[O / B, C / B / G, KH, KW, B, B]`, every group whole
      blocks of C / G input and O / G output channels; output block `ob`
      reads the input blocks of group `ob / (O / B / G)`.
    The input zero point is one value of the input's element type; padding
    reads it, so padded elements contribute zero. Made by
    graph-block-channels from conv2d_integer ops with a constant filter and
    a zero filter zero point, channels padded to a multiple of B with zero
    filters.
  }];
  let arguments = (ins Graph_QuantTensor:$input, Graph_QuantTensor:$filter,
                       Graph_QuantTensor:$input_zero_point,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Graph_I32Tensor:$result);
  let assemblyFormat = "$input `,` $filter `,` $input_zero_point attr-dict "
                       "`:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    bool isDepthwise() { return getFilter().getType().getRank() == 4; }
  }];
}

#endif // MLC_DIALECT_GRAPH_GRAPHOPSQUANT_TD
