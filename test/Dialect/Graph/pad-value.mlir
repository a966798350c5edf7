// Integer and bool pad values must be exactly representable: a value that
// would be rounded or wrapped is a model bug, reported by inference.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @pad_bool_two(%b: tensor<3xi1>) -> tensor<5xi1> {
  // expected-error @+2 {{pad value 2 is not representable in i1}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %b {pads = array<i64: 1, 1>, value = 2.0 : f64} : (tensor<3xi1>) -> tensor<5xi1>
  return %0 : tensor<5xi1>
}

// -----

func.func @pad_i32_fraction(%x: tensor<3xi32>) -> tensor<5xi32> {
  // expected-error @+2 {{pad value 0.5 is not representable in i32}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %x {pads = array<i64: 1, 1>, value = 0.5 : f64} : (tensor<3xi32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

func.func @pad_i32_overflow(%x: tensor<3xi32>) -> tensor<5xi32> {
  // expected-error @+2 {{pad value 2147483648 is not representable in i32}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %x {pads = array<i64: 1, 1>, value = 2147483648.0 : f64} : (tensor<3xi32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

// The extremes that fit are accepted.
func.func @pad_ok(%x: tensor<3xi32>, %b: tensor<3xi1>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi1>) {
  %0 = graph.pad %x {pads = array<i64: 1, 1>, value = -2147483648.0 : f64} : (tensor<3xi32>) -> tensor<5xi32>
  %1 = graph.pad %x {pads = array<i64: 1, 1>, value = 2147483647.0 : f64} : (tensor<3xi32>) -> tensor<5xi32>
  %2 = graph.pad %b {pads = array<i64: 1, 1>, value = 1.0 : f64} : (tensor<3xi1>) -> tensor<5xi1>
  return %0, %1, %2 : tensor<5xi32>, tensor<5xi32>, tensor<5xi1>
}
