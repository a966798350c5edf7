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

func.func @u8_arith(%x: tensor<3xui8>) -> tensor<3xui8> {
  // expected-error @+1 {{'graph.add' op operand #0 must be statically shaped tensor of}}
  %0 = graph.add %x, %x : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %0 : tensor<3xui8>
}
