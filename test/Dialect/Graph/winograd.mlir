// graph.winograd_input and graph.winograd_output (the blocked Winograd
// transforms): results are inferred from the tiles; inputs that are not
// whole tiles and output sizes the tiles do not cover are errors.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @forms
// CHECK: graph.winograd_input {{.*}} -> tensor<36x2x2x3x3x8xf32>
// CHECK: graph.winograd_output {{.*}} -> tensor<2x3x5x12x8xf32>
// CHECK: graph.winograd_output {{.*}} -> tensor<2x3x8x9x8xf32>
func.func @forms(%x: tensor<2x3x10x14x8xf32>, %m: tensor<36x2x2x3x3x8xf32>) -> (tensor<36x2x2x3x3x8xf32>, tensor<2x3x5x12x8xf32>, tensor<2x3x8x9x8xf32>) {
  %0 = graph.winograd_input %x : (tensor<2x3x10x14x8xf32>) -> tensor<36x2x2x3x3x8xf32>
  %1 = graph.winograd_output %m {output_size = array<i64: 5, 12>} : (tensor<36x2x2x3x3x8xf32>) -> tensor<2x3x5x12x8xf32>
  %2 = graph.winograd_output %m {output_size = array<i64: 8, 9>} : (tensor<36x2x2x3x3x8xf32>) -> tensor<2x3x8x9x8xf32>
  return %0, %1, %2 : tensor<36x2x2x3x3x8xf32>, tensor<2x3x5x12x8xf32>, tensor<2x3x8x9x8xf32>
}

// -----

func.func @partial_tile(%x: tensor<1x2x9x10x8xf32>) -> tensor<36x1x2x2x2x8xf32> {
  // expected-error @+2 {{winograd_input takes a blocked input [N, C/B, 4*TH+2, 4*TW+2, B] of whole 6x6 tiles, got tensor<1x2x9x10x8xf32>}}
  // expected-error @+1 {{'graph.winograd_input' op failed to infer returned types}}
  %0 = graph.winograd_input %x : (tensor<1x2x9x10x8xf32>) -> tensor<36x1x2x2x2x8xf32>
  return %0 : tensor<36x1x2x2x2x8xf32>
}

// -----

func.func @not_blocked(%x: tensor<2x10x10x8xf32>) -> tensor<36x2x2x2x8xf32> {
  // expected-error @+2 {{winograd_input takes a blocked input}}
  // expected-error @+1 {{'graph.winograd_input' op failed to infer returned types}}
  %0 = graph.winograd_input %x : (tensor<2x10x10x8xf32>) -> tensor<36x2x2x2x8xf32>
  return %0 : tensor<36x2x2x2x8xf32>
}

// -----

func.func @not_36_points(%m: tensor<16x1x2x2x3x8xf32>) -> tensor<1x3x8x8x8xf32> {
  // expected-error @+2 {{winograd_output takes products [36, N, TH, TW, K/B, B], got tensor<16x1x2x2x3x8xf32>}}
  // expected-error @+1 {{'graph.winograd_output' op failed to infer returned types}}
  %0 = graph.winograd_output %m {output_size = array<i64: 8, 8>} : (tensor<16x1x2x2x3x8xf32>) -> tensor<1x3x8x8x8xf32>
  return %0 : tensor<1x3x8x8x8xf32>
}

// -----

// 2 tiles cover 5 to 8 rows: 4 would leave a tile unused.
func.func @size_off_tiles(%m: tensor<36x1x2x2x3x8xf32>) -> tensor<1x3x4x8x8xf32> {
  // expected-error @+2 {{winograd_output output_size [4,8] does not fit 2x2 tiles of 4x4}}
  // expected-error @+1 {{'graph.winograd_output' op failed to infer returned types}}
  %0 = graph.winograd_output %m {output_size = array<i64: 4, 8>} : (tensor<36x1x2x2x3x8xf32>) -> tensor<1x3x4x8x8xf32>
  return %0 : tensor<1x3x4x8x8xf32>
}
