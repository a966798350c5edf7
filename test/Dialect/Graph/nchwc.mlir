// graph.conv2d_nchwc and the blocked forms of the pooling ops: the three
// filter forms parse and infer their result; mismatched shapes are errors.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @forms
// CHECK: graph.conv2d_nchwc {{.*}} -> tensor<1x2x4x4x8xf32>
// CHECK: graph.conv2d_nchwc {{.*}} -> tensor<1x2x8x8x8xf32>
// CHECK: graph.conv2d_nchwc {{.*}} -> tensor<1x2x3x3x8xf32>
// CHECK: graph.maxpool2d {{.*}} -> tensor<1x2x2x2x8xf32>
// CHECK: graph.global_avgpool {{.*}} -> tensor<1x2x1x1x8xf32>
func.func @forms(%x: tensor<1x2x8x8x8xf32>, %w: tensor<2x2x3x3x8x8xf32>, %b: tensor<2x8xf32>, %img: tensor<1x3x8x8xf32>, %ws: tensor<2x3x3x3x8xf32>, %wd: tensor<2x3x3x8xf32>) -> (tensor<1x2x4x4x8xf32>, tensor<1x2x8x8x8xf32>, tensor<1x2x3x3x8xf32>, tensor<1x2x2x2x8xf32>, tensor<1x2x1x1x8xf32>) {
  %0 = graph.conv2d_nchwc %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x2x3x3x8x8xf32>, tensor<2x8xf32>) -> tensor<1x2x4x4x8xf32>
  %1 = graph.conv2d_nchwc %img, %ws {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3x8xf32>) -> tensor<1x2x8x8x8xf32>
  %2 = graph.conv2d_nchwc %x, %wd {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x3x3x8xf32>) -> tensor<1x2x3x3x8xf32>
  %3 = graph.maxpool2d %0 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4x8xf32>) -> tensor<1x2x2x2x8xf32>
  %4 = graph.global_avgpool %0 : (tensor<1x2x4x4x8xf32>) -> tensor<1x2x1x1x8xf32>
  return %0, %1, %2, %3, %4 : tensor<1x2x4x4x8xf32>, tensor<1x2x8x8x8xf32>, tensor<1x2x3x3x8xf32>, tensor<1x2x2x2x8xf32>, tensor<1x2x1x1x8xf32>
}

// -----

func.func @wrong_rank_pair(%x: tensor<1x2x8x8x8xf32>, %w: tensor<2x2x3x3x8xf32>) -> tensor<1x2x6x6x8xf32> {
  // expected-error @+2 {{conv2d_nchwc takes an input [N, C/B, H, W, B] with a filter [O/B, C/B, KH, KW, B, B] or [C/B, KH, KW, B], or an input [N, C, H, W] with a filter [O/B, C, KH, KW, B]; got tensor<1x2x8x8x8xf32> and tensor<2x2x3x3x8xf32>}}
  // expected-error @+1 {{'graph.conv2d_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x2x3x3x8xf32>) -> tensor<1x2x6x6x8xf32>
  return %0 : tensor<1x2x6x6x8xf32>
}

// -----

func.func @block_mismatch(%x: tensor<1x2x8x8x8xf32>, %w: tensor<2x2x3x3x16x16xf32>) -> tensor<1x2x6x6x16xf32> {
  // expected-error @+2 {{conv2d_nchwc filter tensor<2x2x3x3x16x16xf32> does not match the input tensor<1x2x8x8x8xf32>}}
  // expected-error @+1 {{'graph.conv2d_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x2x3x3x16x16xf32>) -> tensor<1x2x6x6x16xf32>
  return %0 : tensor<1x2x6x6x16xf32>
}

// -----

func.func @depthwise_blocks(%x: tensor<1x2x8x8x8xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x3x6x6x8xf32> {
  // expected-error @+2 {{conv2d_nchwc filter tensor<3x3x3x8xf32> does not match the input tensor<1x2x8x8x8xf32>}}
  // expected-error @+1 {{'graph.conv2d_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<3x3x3x8xf32>) -> tensor<1x3x6x6x8xf32>
  return %0 : tensor<1x3x6x6x8xf32>
}

// -----

func.func @bias_shape(%x: tensor<1x2x8x8x8xf32>, %w: tensor<2x2x1x1x8x8xf32>, %b: tensor<16xf32>) -> tensor<1x2x8x8x8xf32> {
  // expected-error @+2 {{bias must have shape [2,8], got tensor<16xf32>}}
  // expected-error @+1 {{'graph.conv2d_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_nchwc %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x2x1x1x8x8xf32>, tensor<16xf32>) -> tensor<1x2x8x8x8xf32>
  return %0 : tensor<1x2x8x8x8xf32>
}

// -----

func.func @window_too_large(%x: tensor<1x2x2x2x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x1x1x8xf32> {
  // expected-error @+2 {{window of effective size 3 does not fit in padded height size 2}}
  // expected-error @+1 {{'graph.conv2d_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x2x2x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x1x1x8xf32>
  return %0 : tensor<1x2x1x1x8xf32>
}

// -----

func.func @pool_rank(%x: tensor<2x8x8xf32>) -> tensor<2x4x4xf32> {
  // expected-error @+2 {{pooling input must have rank 4, got tensor<2x8x8xf32>}}
  // expected-error @+1 {{'graph.maxpool2d' op failed to infer returned types}}
  %0 = graph.maxpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<2x8x8xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @grouped
// CHECK: graph.conv2d_nchwc {{.*}}groups = 2 : i64{{.*}} -> tensor<1x4x6x6x8xf32>
func.func @grouped(%x: tensor<1x4x8x8x8xf32>, %w: tensor<4x2x3x3x8x8xf32>) -> tensor<1x4x6x6x8xf32> {
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8x8xf32>, tensor<4x2x3x3x8x8xf32>) -> tensor<1x4x6x6x8xf32>
  return %0 : tensor<1x4x6x6x8xf32>
}

// -----

func.func @groups_not_dividing(%x: tensor<1x4x8x8x8xf32>, %w: tensor<3x2x3x3x8x8xf32>) -> tensor<1x3x6x6x8xf32> {
  // expected-error @+2 {{conv2d_nchwc filter tensor<3x2x3x3x8x8xf32> does not match the input tensor<1x4x8x8x8xf32>}}
  // expected-error @+1 {{'graph.conv2d_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8x8xf32>, tensor<3x2x3x3x8x8xf32>) -> tensor<1x3x6x6x8xf32>
  return %0 : tensor<1x3x6x6x8xf32>
}

// -----

func.func @groups_depthwise_form(%x: tensor<1x2x8x8x8xf32>, %w: tensor<2x3x3x8xf32>) -> tensor<1x2x6x6x8xf32> {
  // expected-error @+2 {{conv2d_nchwc groups need the blocked form, got a filter tensor<2x3x3x8xf32>}}
  // expected-error @+1 {{'graph.conv2d_nchwc' op failed to infer returned types}}
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x8x8x8xf32>, tensor<2x3x3x8xf32>) -> tensor<1x2x6x6x8xf32>
  return %0 : tensor<1x2x6x6x8xf32>
}
