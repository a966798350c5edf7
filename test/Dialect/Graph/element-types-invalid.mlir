// Errors for the element types beyond f32/i64/i32/i1.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @mixed_float_widths(%a: tensor<2xf64>, %b: tensor<2xf32>) -> tensor<2xf64> {
  // expected-error @+2 {{operands must have the same element type, got f64 and f32}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2xf64>, tensor<2xf32>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @exp_i16(%a: tensor<2xi16>) -> tensor<2xi16> {
  // expected-error @+1 {{'graph.exp' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi16>'}}
  %0 = graph.exp %a : tensor<2xi16>
  return %0 : tensor<2xi16>
}

// -----

func.func @pad_i8_out_of_range(%a: tensor<2xi8>) -> tensor<4xi8> {
  // expected-error @+2 {{pad value 128 is not representable in i8}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %a {pads = array<i64: 1, 1>, value = 128.0 : f64} : (tensor<2xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @cast_to_f8(%a: tensor<2xf16>) -> tensor<2xf16> {
  // expected-error @+2 {{cannot cast to f8E4M3FN: supported element types are f32, f64, f16, bf16, i64, i32, i16, i8, ui64, ui32, ui16, ui8, i1}}
  // expected-error @+1 {{'graph.cast' op failed to infer returned types}}
  %0 = graph.cast %a {to = f8E4M3FN} : (tensor<2xf16>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

func.func @gather_i8_indices(%a: tensor<4xf16>, %i: tensor<2xi8>) -> tensor<2xf16> {
  // expected-error @+1 {{'graph.gather' op operand #1 must be statically shaped tensor of 64-bit signless integer or 32-bit signless integer values, but got 'tensor<2xi8>'}}
  %0 = graph.gather %a, %i {axis = 0 : i64} : (tensor<4xf16>, tensor<2xi8>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}
