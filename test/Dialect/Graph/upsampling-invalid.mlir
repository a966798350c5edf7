// Shape-inference errors of graph.resize and graph.conv_transpose2d
// (GraphOpsUpsampling.cpp).
// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @resize_no_axes(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{resize needs at least one axis}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [], [] {axes = array<i64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @resize_table_count(%x: tensor<4x4xf32>, %i: tensor<2x8xi64>, %w: tensor<2x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+2 {{resize has 2 axes but 2 tables (one index and one weight table per axis)}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0, 1>} : (tensor<4x4xf32>, tensor<2x8xi64>, tensor<2x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @resize_axis_range(%x: tensor<4x4xf32>, %i: tensor<2x8xi64>, %w: tensor<2x8xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{resize axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 2>} : (tensor<4x4xf32>, tensor<2x8xi64>, tensor<2x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @resize_axes_order(%x: tensor<4x4xf32>, %i: tensor<2x8xi64>, %w: tensor<2x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+2 {{resize axes must be sorted and distinct, got [1,0]}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [%i, %i], [%w, %w] {axes = array<i64: 1, 0>} : (tensor<4x4xf32>, tensor<2x8xi64>, tensor<2x8xi64>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @resize_weight_type(%x: tensor<4xf32>, %i: tensor<2x8xi64>, %w: tensor<2x8xf16>) -> tensor<8xf32> {
  // expected-error @+2 {{resize weight table 0 tensor<2x8xf16> must have the input's element type f32}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<4xf32>, tensor<2x8xi64>, tensor<2x8xf16>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @resize_table_shapes(%x: tensor<4xf32>, %i: tensor<2x8xi64>, %w: tensor<3x8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{resize tables of axis 0 must both be [taps, out], got tensor<2x8xi64> and tensor<3x8xf32>}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<4xf32>, tensor<2x8xi64>, tensor<3x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @resize_index_type(%x: tensor<4xf32>, %i: tensor<2x8xf32>, %w: tensor<2x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.resize' op operand #1 must be variadic of statically shaped tensor of 64-bit signless integer or 32-bit signless integer values, but got 'tensor<2x8xf32>'}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<4xf32>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @resize_no_taps(%x: tensor<4xf32>, %i: tensor<0x8xi64>, %w: tensor<0x8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{resize tables of axis 0 need at least one tap and one output, got tensor<0x8xi64>}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<4xf32>, tensor<0x8xi64>, tensor<0x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @resize_int_input(%x: tensor<4xi64>, %i: tensor<2x8xi64>, %w: tensor<2x8xf32>) -> tensor<8xi64> {
  // expected-error @+1 {{'graph.resize' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xi64>'}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<4xi64>, tensor<2x8xi64>, tensor<2x8xf32>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// -----

func.func @resize_wrong_result(%x: tensor<4xf32>, %i: tensor<2x8xi64>, %w: tensor<2x8xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'graph.resize' op inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<4xf32>, tensor<2x8xi64>, tensor<2x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @conv_transpose_stride(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x2x2xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+2 {{conv_transpose2d strides [1,1] must equal the kernel size [2,2]}}
  // expected-error @+1 {{'graph.conv_transpose2d' op failed to infer returned types}}
  %0 = graph.conv_transpose2d %x, %w {strides = array<i64: 1, 1>} : (tensor<1x4x3x3xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x3x3x3xf32>, %w: tensor<4x2x2x2xf32>) -> tensor<1x2x6x6xf32> {
  // expected-error @+2 {{conv_transpose2d filter tensor<4x2x2x2xf32> expects 4 input channels but the input tensor<1x3x3x3xf32> has 3}}
  // expected-error @+1 {{'graph.conv_transpose2d' op failed to infer returned types}}
  %0 = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x3x3x3xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x6x6xf32>
}

// -----

func.func @conv_transpose_bias(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x2x6x6xf32> {
  // expected-error @+2 {{bias must have shape [2], got tensor<4xf32>}}
  // expected-error @+1 {{'graph.conv_transpose2d' op failed to infer returned types}}
  %0 = graph.conv_transpose2d %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x2x2xf32>, tensor<4xf32>) -> tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x6x6xf32>
}

// -----

func.func @conv_transpose_rank(%x: tensor<4x3x3xf32>, %w: tensor<4x2x2x2xf32>) -> tensor<1x2x6x6xf32> {
  // expected-error @+2 {{conv_transpose2d input must have rank 4, got tensor<4x3x3xf32>}}
  // expected-error @+1 {{'graph.conv_transpose2d' op failed to infer returned types}}
  %0 = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>} : (tensor<4x3x3xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x6x6xf32>
}
