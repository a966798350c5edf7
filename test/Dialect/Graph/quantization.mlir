// RUN: mlc-opt %s --split-input-file | mlc-opt | FileCheck %s

// Per-tensor and per-axis parameters; int8, uint8 and an int32 bias.
// CHECK-LABEL: func.func @quant_ops
// CHECK: graph.quantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
// CHECK: graph.quantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xi8>) -> tensor<2x3xi8>
// CHECK: graph.dequantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
// CHECK: graph.dequantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3xi32>, tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
func.func @quant_ops(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<ui8>,
                     %sa: tensor<1x3xf32>, %za: tensor<1x3xi8>,
                     %b: tensor<3xi32>, %sb: tensor<3xf32>, %zb: tensor<i32>)
    -> (tensor<2x3xui8>, tensor<2x3xi8>, tensor<2x3xf32>, tensor<3xf32>) {
  %0 = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  %1 = graph.quantize %x, %sa, %za : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xi8>) -> tensor<2x3xi8>
  %2 = graph.dequantize %0, %s, %z : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %3 = graph.dequantize %b, %sb, %zb : (tensor<3xi32>, tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x3xui8>, tensor<2x3xi8>, tensor<2x3xf32>, tensor<3xf32>
}

// -----

// ui8 passes through reshapes, transposes and casts.
// CHECK-LABEL: func.func @u8_data
// CHECK: graph.reshape %{{.*}} {shape = array<i64: 6>} : (tensor<2x3xui8>) -> tensor<6xui8>
// CHECK: graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<2x3xui8>) -> tensor<3x2xui8>
// CHECK: graph.cast %{{.*}} {to = f32} : (tensor<2x3xui8>) -> tensor<2x3xf32>
func.func @u8_data(%x: tensor<2x3xui8>) -> (tensor<6xui8>, tensor<3x2xui8>, tensor<2x3xf32>) {
  %0 = graph.reshape %x {shape = array<i64: 6>} : (tensor<2x3xui8>) -> tensor<6xui8>
  %1 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xui8>) -> tensor<3x2xui8>
  %2 = graph.cast %x {to = f32} : (tensor<2x3xui8>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<6xui8>, tensor<3x2xui8>, tensor<2x3xf32>
}

// -----

// Integer contractions: mixed signedness, broadcast batch dims, per-row,
// per-column and per-channel zero points; the result is always i32.
// CHECK-LABEL: func.func @integer_contractions
// CHECK: graph.matmul_integer %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<4x1xui8>, tensor<1x5xi8>) -> tensor<2x4x5xi32>
// CHECK: graph.conv2d_integer %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xi8>, tensor<6x3x3x3xi8>, tensor<i8>, tensor<6x1x1x1xi8>) -> tensor<1x6x4x4xi32>
func.func @integer_contractions(%a: tensor<2x4x3xui8>, %b: tensor<3x5xi8>,
                                %az: tensor<4x1xui8>, %bz: tensor<1x5xi8>,
                                %x: tensor<1x3x8x8xi8>, %w: tensor<6x3x3x3xi8>,
                                %xz: tensor<i8>, %wz: tensor<6x1x1x1xi8>)
    -> (tensor<2x4x5xi32>, tensor<1x6x4x4xi32>) {
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<4x1xui8>, tensor<1x5xi8>) -> tensor<2x4x5xi32>
  %1 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x8x8xi8>, tensor<6x3x3x3xi8>, tensor<i8>, tensor<6x1x1x1xi8>) -> tensor<1x6x4x4xi32>
  return %0, %1 : tensor<2x4x5xi32>, tensor<1x6x4x4xi32>
}

// -----

// CHECK-LABEL: func.func @fake_quantize
// CHECK: graph.fake_quantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i8>) -> tensor<2x3xf32>
func.func @fake_quantize(%x: tensor<2x3xf32>, %s: tensor<1x3xf32>, %z: tensor<i8>) -> tensor<2x3xf32> {
  %0 = graph.fake_quantize %x, %s, %z : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i8>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// The blocked integer convolution: [N, C/B, H, W, B] 8-bit input, [O/B,
// C/B, KH, KW, B, B] int8 filter, one-value input zero point, int32 result.
// CHECK-LABEL: func.func @conv_integer_nchwc
// CHECK: graph.conv2d_integer_nchwc %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x9x9x16xui8>, tensor<3x2x3x3x16x16xi8>, tensor<1x1x1x1x1xui8>) -> tensor<1x3x5x5x16xi32>
func.func @conv_integer_nchwc(%x: tensor<1x2x9x9x16xui8>, %w: tensor<3x2x3x3x16x16xi8>, %z: tensor<1x1x1x1x1xui8>) -> tensor<1x3x5x5x16xi32> {
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x9x9x16xui8>, tensor<3x2x3x3x16x16xi8>, tensor<1x1x1x1x1xui8>) -> tensor<1x3x5x5x16xi32>
  return %0 : tensor<1x3x5x5x16xi32>
}

// The depthwise form: filter [C/B, KH, KW, B], as many output blocks as
// input ones.
// CHECK-LABEL: func.func @conv_integer_nchwc_depthwise
// CHECK: graph.conv2d_integer_nchwc %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}} : (tensor<1x2x9x9x16xi8>, tensor<2x3x3x16xi8>, tensor<i8>) -> tensor<1x2x5x5x16xi32>
func.func @conv_integer_nchwc_depthwise(%x: tensor<1x2x9x9x16xi8>, %w: tensor<2x3x3x16xi8>, %z: tensor<i8>) -> tensor<1x2x5x5x16xi32> {
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x9x9x16xi8>, tensor<2x3x3x16xi8>, tensor<i8>) -> tensor<1x2x5x5x16xi32>
  return %0 : tensor<1x2x5x5x16xi32>
}

// Grouped: 2 groups of one output and two input blocks.
// CHECK-LABEL: func.func @conv_integer_nchwc_grouped
// CHECK: graph.conv2d_integer_nchwc {{.*}}groups = 2 : i64{{.*}} : (tensor<1x4x9x9x16xui8>, tensor<2x2x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x2x7x7x16xi32>
func.func @conv_integer_nchwc_grouped(%x: tensor<1x4x9x9x16xui8>, %w: tensor<2x2x3x3x16x16xi8>, %z: tensor<ui8>) -> tensor<1x2x7x7x16xi32> {
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x9x9x16xui8>, tensor<2x2x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x2x7x7x16xi32>
  return %0 : tensor<1x2x7x7x16xi32>
}
