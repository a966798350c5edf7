// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @scale_enlarges(%x: tensor<3xf32>, %s: tensor<2x3xf32>, %z: tensor<i8>) -> tensor<3xi8> {
  // expected-error @+2 {{scale tensor<2x3xf32> and zero point tensor<i8> must broadcast to the input's shape tensor<3xf32>}}
  // expected-error @+1 {{'graph.quantize' op failed to infer returned types}}
  %0 = graph.quantize %x, %s, %z : (tensor<3xf32>, tensor<2x3xf32>, tensor<i8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// -----

func.func @axis_mismatch(%x: tensor<2x3xf32>, %s: tensor<1x4xf32>, %z: tensor<i8>) -> tensor<2x3xi8> {
  // expected-error @+2 {{operands are not broadcast-compatible}}
  // expected-error @+1 {{'graph.quantize' op failed to infer returned types}}
  %0 = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<1x4xf32>, tensor<i8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

func.func @scale_type(%x: tensor<3xf32>, %s: tensor<f64>, %z: tensor<i8>) -> tensor<3xi8> {
  // expected-error @+2 {{input and scale must have the same element type, got f32 and f64}}
  // expected-error @+1 {{'graph.quantize' op failed to infer returned types}}
  %0 = graph.quantize %x, %s, %z : (tensor<3xf32>, tensor<f64>, tensor<i8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// -----

func.func @quantize_to_i32(%x: tensor<3xf32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<3xi32> {
  // expected-error @+1 {{operand #2 must be statically shaped tensor of 8-bit signless integer or 8-bit unsigned integer values}}
  %0 = graph.quantize %x, %s, %z : (tensor<3xf32>, tensor<f32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @zero_point_type(%x: tensor<3xui8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<3xf32> {
  // expected-error @+2 {{input and zero point must have the same element type, got ui8 and i8}}
  // expected-error @+1 {{'graph.dequantize' op failed to infer returned types}}
  %0 = graph.dequantize %x, %s, %z : (tensor<3xui8>, tensor<f32>, tensor<i8>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @u8_neg(%x: tensor<3xui8>) -> tensor<3xui8> {
  // expected-error @+1 {{'graph.neg' op operand #0 must be statically shaped tensor of}}
  %0 = graph.neg %x : tensor<3xui8>
  return %0 : tensor<3xui8>
}

// -----

func.func @matmul_integer_zp_varies_along_k(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %az: tensor<3xui8>, %bz: tensor<i8>) -> tensor<4x2xi32> {
  // expected-error @+2 {{lhs zero point tensor<3xui8> must broadcast to tensor<4x3xui8> and be one value along the reduced dims}}
  // expected-error @+1 {{'graph.matmul_integer' op failed to infer returned types}}
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<3xui8>, tensor<i8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @matmul_integer_zp_type(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %az: tensor<i8>, %bz: tensor<i8>) -> tensor<4x2xi32> {
  // expected-error @+2 {{lhs zero point tensor<i8> must have the element type of its operand tensor<4x3xui8>}}
  // expected-error @+1 {{'graph.matmul_integer' op failed to infer returned types}}
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<i8>, tensor<i8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @matmul_integer_k_mismatch(%a: tensor<4x3xi8>, %b: tensor<4x2xi8>, %z: tensor<i8>) -> tensor<4x2xi32> {
  // expected-error @+2 {{matmul contraction dimensions differ}}
  // expected-error @+1 {{'graph.matmul_integer' op failed to infer returned types}}
  %0 = graph.matmul_integer %a, %b, %z, %z : (tensor<4x3xi8>, tensor<4x2xi8>, tensor<i8>, tensor<i8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @matmul_integer_float(%a: tensor<4x3xf32>, %b: tensor<3x2xi8>, %z: tensor<i8>) -> tensor<4x2xi32> {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 8-bit signless integer or 8-bit unsigned integer values}}
  %0 = graph.matmul_integer %a, %b, %z, %z : (tensor<4x3xf32>, tensor<3x2xi8>, tensor<i8>, tensor<i8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @conv_integer_input_zp_per_channel(%x: tensor<1x3x8x8xi8>, %w: tensor<6x3x3x3xi8>, %xz: tensor<1x3x1x1xi8>, %wz: tensor<i8>) -> tensor<1x6x6x6xi32> {
  // expected-error @+2 {{input zero point tensor<1x3x1x1xi8> must broadcast to tensor<1x3x8x8xi8> and be one value along the reduced dims}}
  // expected-error @+1 {{'graph.conv2d_integer' op failed to infer returned types}}
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x8x8xi8>, tensor<6x3x3x3xi8>, tensor<1x3x1x1xi8>, tensor<i8>) -> tensor<1x6x6x6xi32>
  return %0 : tensor<1x6x6x6xi32>
}

// -----

func.func @conv_integer_filter_zp_per_tap(%x: tensor<1x3x8x8xi8>, %w: tensor<6x3x3x3xi8>, %xz: tensor<i8>, %wz: tensor<6x3x1x1xi8>) -> tensor<1x6x6x6xi32> {
  // expected-error @+2 {{filter zero point tensor<6x3x1x1xi8> must broadcast to tensor<6x3x3x3xi8> and be one value along the reduced dims}}
  // expected-error @+1 {{'graph.conv2d_integer' op failed to infer returned types}}
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x8x8xi8>, tensor<6x3x3x3xi8>, tensor<i8>, tensor<6x3x1x1xi8>) -> tensor<1x6x6x6xi32>
  return %0 : tensor<1x6x6x6xi32>
}

// -----

func.func @conv_integer_groups(%x: tensor<1x3x8x8xi8>, %w: tensor<6x3x3x3xi8>, %z: tensor<i8>) -> tensor<1x6x6x6xi32> {
  // expected-error @+2 {{input channels (3) and output channels (6) must be divisible by groups (2)}}
  // expected-error @+1 {{'graph.conv2d_integer' op failed to infer returned types}}
  %0 = graph.conv2d_integer %x, %w, %z, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x3x8x8xi8>, tensor<6x3x3x3xi8>, tensor<i8>, tensor<i8>) -> tensor<1x6x6x6xi32>
  return %0 : tensor<1x6x6x6xi32>
}

// -----

func.func @fake_quantize_scale_type(%x: tensor<3xf32>, %s: tensor<f64>, %z: tensor<i8>) -> tensor<3xf32> {
  // expected-error @+2 {{input and scale must have the same element type, got f32 and f64}}
  // expected-error @+1 {{'graph.fake_quantize' op failed to infer returned types}}
  %0 = graph.fake_quantize %x, %s, %z : (tensor<3xf32>, tensor<f64>, tensor<i8>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @conv_integer_nchwc_rank(%x: tensor<1x32x8x8xui8>, %w: tensor<2x2x3x3x16x16xi8>, %z: tensor<ui8>) -> tensor<1x2x6x6x16xi32> {
  // expected-error @+2 {{conv2d_integer_nchwc takes a blocked input [N, C/B, H, W, B] and a filter [O/B, C/B, KH, KW, B, B] or [C/B, KH, KW, B] (depthwise), got tensor<1x32x8x8xui8> and tensor<2x2x3x3x16x16xi8>}}
  // expected-error @+1 {{'graph.conv2d_integer_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x32x8x8xui8>, tensor<2x2x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
  return %0 : tensor<1x2x6x6x16xi32>
}

// -----

func.func @conv_integer_nchwc_filter_type(%x: tensor<1x2x8x8x16xui8>, %w: tensor<2x2x3x3x16x16xui8>, %z: tensor<ui8>) -> tensor<1x2x6x6x16xi32> {
  // expected-error @+2 {{conv2d_integer_nchwc filter must be int8, got tensor<2x2x3x3x16x16xui8>}}
  // expected-error @+1 {{'graph.conv2d_integer_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x16xui8>, tensor<2x2x3x3x16x16xui8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
  return %0 : tensor<1x2x6x6x16xi32>
}

// -----

func.func @conv_integer_nchwc_zero_point(%x: tensor<1x2x8x8x16xui8>, %w: tensor<2x2x3x3x16x16xi8>, %z: tensor<2xui8>) -> tensor<1x2x6x6x16xi32> {
  // expected-error @+2 {{input zero point tensor<2xui8> must be one value of the input's element type tensor<1x2x8x8x16xui8>}}
  // expected-error @+1 {{'graph.conv2d_integer_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x16xui8>, tensor<2x2x3x3x16x16xi8>, tensor<2xui8>) -> tensor<1x2x6x6x16xi32>
  return %0 : tensor<1x2x6x6x16xi32>
}

// -----

func.func @conv_integer_nchwc_channels(%x: tensor<1x3x8x8x16xui8>, %w: tensor<2x2x3x3x16x16xi8>, %z: tensor<ui8>) -> tensor<1x2x6x6x16xi32> {
  // expected-error @+2 {{conv2d_integer_nchwc filter tensor<2x2x3x3x16x16xi8> does not match the input tensor<1x3x8x8x16xui8>}}
  // expected-error @+1 {{'graph.conv2d_integer_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8x16xui8>, tensor<2x2x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
  return %0 : tensor<1x2x6x6x16xi32>
}

// -----

func.func @conv_integer_nchwc_depthwise_channels(%x: tensor<1x3x8x8x16xui8>, %w: tensor<2x3x3x16xi8>, %z: tensor<ui8>) -> tensor<1x2x6x6x16xi32> {
  // expected-error @+2 {{conv2d_integer_nchwc filter tensor<2x3x3x16xi8> does not match the input tensor<1x3x8x8x16xui8>}}
  // expected-error @+1 {{'graph.conv2d_integer_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8x16xui8>, tensor<2x3x3x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
  return %0 : tensor<1x2x6x6x16xi32>
}

// -----

func.func @conv_integer_nchwc_groups_depthwise(%x: tensor<1x2x8x8x16xui8>, %w: tensor<2x3x3x16xi8>, %z: tensor<ui8>) -> tensor<1x2x6x6x16xi32> {
  // expected-error @+2 {{conv2d_integer_nchwc groups need the blocked form, got a filter tensor<2x3x3x16xi8>}}
  // expected-error @+1 {{'graph.conv2d_integer_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x8x8x16xui8>, tensor<2x3x3x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
  return %0 : tensor<1x2x6x6x16xi32>
}

// -----

func.func @conv_integer_nchwc_groups_channels(%x: tensor<1x3x8x8x16xui8>, %w: tensor<2x1x3x3x16x16xi8>, %z: tensor<ui8>) -> tensor<1x2x6x6x16xi32> {
  // expected-error @+2 {{conv2d_integer_nchwc filter tensor<2x1x3x3x16x16xi8> does not match the input tensor<1x3x8x8x16xui8>}}
  // expected-error @+1 {{'graph.conv2d_integer_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x3x8x8x16xui8>, tensor<2x1x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
  return %0 : tensor<1x2x6x6x16xi32>
}
