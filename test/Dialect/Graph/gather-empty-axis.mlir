// Gathering along an empty axis has no element to take: inference rejects it
// (numpy raises IndexError), instead of the lowering clamping to index -1.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @gather_from_empty_axis(%d: tensor<0x4xf32>, %i: tensor<2xi64>) -> tensor<2x4xf32> {
  // expected-error @+2 {{cannot gather from dimension 0 of tensor<0x4xf32>: it is empty}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %d, %i {axis = 0 : i64} : (tensor<0x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// No indices: nothing is read, so an empty axis is fine.
func.func @gather_nothing_from_empty_axis(%d: tensor<0x4xf32>, %i: tensor<0xi64>) -> tensor<0x4xf32> {
  %0 = graph.gather %d, %i {axis = 0 : i64} : (tensor<0x4xf32>, tensor<0xi64>) -> tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}
