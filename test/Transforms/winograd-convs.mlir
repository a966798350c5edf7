// --graph-winograd-convs: a stride-1 3x3 conv2d with a constant filter
// becomes the input transform (a stride-4 conv2d with 36 6x6 filters per
// channel), 36 matrix products with the transformed filter, the output
// transform (a [16, 36] matrix product), the tiles put back, a slice to the
// output size and the bias.
// RUN: mlc-opt %s --split-input-file --graph-winograd-convs="min-in-channels=1 min-out-channels=1 min-tiles=1 min-in-channels-blocked=1 min-out-channels-blocked=1" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --graph-winograd-convs | FileCheck %s --check-prefix=DEFAULTS

// A 6x7 output: 2x2 tiles of 4x4, so the input is padded to 10x10 (1 row
// and column as given, then 3 rows and 2 columns more) and the result
// sliced from 8x8.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x6x7xf32>)
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>
// CHECK: %[[XR:.*]] = graph.reshape %[[X]] {shape = array<i64: 2, 1, 6, 7>}
// CHECK: %[[BT:.*]] = graph.constant dense_resource<winograd_in{{.*}}> : tensor<36x1x6x6xf32>
// CHECK: %[[V:.*]] = graph.conv2d %[[XR]], %[[BT]] {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 3, 2>, strides = array<i64: 4, 4>} : (tensor<2x1x6x7xf32>, tensor<36x1x6x6xf32>) -> tensor<2x36x2x2xf32>
// CHECK: %[[V1:.*]] = graph.reshape %[[V]] {shape = array<i64: 1, 2, 36, 4>}
// CHECK: %[[V2:.*]] = graph.transpose %[[V1]] {perm = array<i64: 2, 1, 0, 3>} : (tensor<1x2x36x4xf32>) -> tensor<36x2x1x4xf32>
// CHECK: %[[V3:.*]] = graph.reshape %[[V2]] {shape = array<i64: 36, 2, 4>}
// CHECK: %[[U:.*]] = graph.constant dense_resource<winograd_filter{{.*}}> : tensor<36x3x2xf32>
// CHECK: %[[M:.*]] = graph.matmul %[[U]], %[[V3]] : (tensor<36x3x2xf32>, tensor<36x2x4xf32>) -> tensor<36x3x4xf32>
// CHECK: %[[M1:.*]] = graph.reshape %[[M]] {shape = array<i64: 36, 12>}
// CHECK: %[[AT:.*]] = graph.constant dense_resource<winograd_out{{.*}}> : tensor<16x36xf32>
// CHECK: %[[Y:.*]] = graph.matmul %[[AT]], %[[M1]] : (tensor<16x36xf32>, tensor<36x12xf32>) -> tensor<16x12xf32>
// CHECK: %[[Y1:.*]] = graph.reshape %[[Y]] {shape = array<i64: 4, 4, 3, 1, 2, 2>}
// CHECK: %[[Y2:.*]] = graph.transpose %[[Y1]] {perm = array<i64: 3, 2, 4, 0, 5, 1>} : (tensor<4x4x3x1x2x2xf32>) -> tensor<1x3x2x4x2x4xf32>
// CHECK: %[[Y3:.*]] = graph.reshape %[[Y2]] {shape = array<i64: 1, 3, 8, 8>}
// CHECK: %[[S:.*]] = graph.slice %[[Y3]] {ends = array<i64: 1, 3, 6, 7>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>}
// CHECK: %[[BR:.*]] = graph.reshape %[[B]] {shape = array<i64: 1, 3, 1, 1>}
// CHECK: %[[R:.*]] = graph.add %[[S]], %[[BR]]
// CHECK: return %[[R]]
// CHECK-NOT: graph.conv2d {{.*}}strides = array<i64: 1, 1>
// Below 32 input and 64 output channels and 16 tiles by default: left alone.
// DEFAULTS-LABEL: func.func @conv
// DEFAULTS: graph.conv2d {{.*}}strides = array<i64: 1, 1>
// DEFAULTS-NOT: graph.matmul
func.func @conv(%x: tensor<1x2x6x7xf32>) -> tensor<1x3x6x7xf32> {
  %w = graph.constant dense<0.5> : tensor<3x2x3x3xf32>
  %b = graph.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %y = graph.conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x6x7xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x6x7xf32>
  return %y : tensor<1x3x6x7xf32>
}

// -----

// Batch 2, no padding, no bias, whole tiles: no slice, no add; the tiles of
// both images are the columns of one product per point.
// CHECK-LABEL: func.func @batch_no_pad
// CHECK: graph.conv2d {{.*}}pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 4, 4>} : (tensor<6x1x10x10xf32>, tensor<36x1x6x6xf32>) -> tensor<6x36x2x2xf32>
// CHECK: graph.transpose {{.*}} : (tensor<2x3x36x4xf32>) -> tensor<36x3x2x4xf32>
// CHECK: graph.matmul {{.*}} : (tensor<36x4x3xf32>, tensor<36x3x8xf32>) -> tensor<36x4x8xf32>
// CHECK: graph.matmul {{.*}} : (tensor<16x36xf32>, tensor<36x32xf32>) -> tensor<16x32xf32>
// CHECK: graph.transpose {{.*}} -> tensor<2x4x2x4x2x4xf32>
// CHECK: %[[R:.*]] = graph.reshape {{.*}} -> tensor<2x4x8x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @batch_no_pad(%x: tensor<2x3x10x10xf32>) -> tensor<2x4x8x8xf32> {
  %w = graph.constant dense<1.0> : tensor<4x3x3x3xf32>
  %y = graph.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  return %y : tensor<2x4x8x8xf32>
}

// -----

// Not 3x3 stride 1, dilated, grouped, or a filter that is not a constant:
// left alone.
// CHECK-LABEL: func.func @not_winograd
// CHECK-NOT: graph.matmul
// CHECK-COUNT-5: graph.conv2d {{.*}}strides = array<i64: {{1|2}}, {{1|2}}>
// CHECK-NOT: graph.matmul
func.func @not_winograd(%x: tensor<1x4x12x12xf32>, %wv: tensor<4x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>) {
  %w = graph.constant dense<1.0> : tensor<4x4x3x3xf32>
  %wg = graph.constant dense<1.0> : tensor<4x2x3x3xf32>
  %w5 = graph.constant dense<1.0> : tensor<4x4x5x5xf32>
  %s2 = graph.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x12x12xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %d2 = graph.conv2d %x, %w {dilations = array<i64: 2, 2>, groups = 1 : i64, pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 1, 1>} : (tensor<1x4x12x12xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x12x12xf32>
  %g2 = graph.conv2d %x, %wg {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x12x12xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x12x12xf32>
  %k5 = graph.conv2d %x, %w5 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 1, 1>} : (tensor<1x4x12x12xf32>, tensor<4x4x5x5xf32>) -> tensor<1x4x12x12xf32>
  %v = graph.conv2d %x, %wv {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x12x12xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x12x12xf32>
  return %s2, %d2, %g2, %k5, %v : tensor<1x4x6x6xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>
}

// -----

// The default thresholds: 32 input channels, 64 output channels and 16
// tiles are enough; one fewer of any is not.
// With the thresholds at 1 every one of them is transformed.
// CHECK-LABEL: func.func @thresholds
// CHECK-COUNT-8: graph.matmul
// DEFAULTS-LABEL: func.func @thresholds
// DEFAULTS: graph.conv2d {{.*}}strides = array<i64: 4, 4>} : (tensor<32x1x16x16xf32>, tensor<36x1x6x6xf32>) -> tensor<32x36x4x4xf32>
// DEFAULTS: graph.matmul {{.*}} : (tensor<36x64x32xf32>, tensor<36x32x16xf32>) -> tensor<36x64x16xf32>
// DEFAULTS-COUNT-3: graph.conv2d {{.*}}strides = array<i64: 1, 1>
func.func @thresholds(%x: tensor<1x32x16x16xf32>, %x31: tensor<1x31x16x16xf32>, %x12: tensor<1x32x12x16xf32>) -> (tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>, tensor<1x63x16x16xf32>, tensor<1x64x12x16xf32>) {
  %w = graph.constant dense<1.0> : tensor<64x32x3x3xf32>
  %w31 = graph.constant dense<1.0> : tensor<64x31x3x3xf32>
  %w63 = graph.constant dense<1.0> : tensor<63x32x3x3xf32>
  %a = graph.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xf32>, tensor<64x32x3x3xf32>) -> tensor<1x64x16x16xf32>
  %b = graph.conv2d %x31, %w31 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x31x16x16xf32>, tensor<64x31x3x3xf32>) -> tensor<1x64x16x16xf32>
  %c = graph.conv2d %x, %w63 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xf32>, tensor<63x32x3x3xf32>) -> tensor<1x63x16x16xf32>
  %d = graph.conv2d %x12, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x12x16xf32>, tensor<64x32x3x3xf32>) -> tensor<1x64x12x16xf32>
  return %a, %b, %c, %d : tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>, tensor<1x63x16x16xf32>, tensor<1x64x12x16xf32>
}

// -----

// The blocked form (after graph-block-channels): a 6x7 output on blocks of
// 8 lanes. The input is padded to whole 6x6 tiles (10x10), transformed into
// [36, N, TH, TW, C/B, B], the products take the output channels as columns
// ([36, tiles, C] x [36, C, K]), and the output transform cuts the 8x8
// tiles to 6x7 itself: no transposes and no slice. The bias is a blocked
// add.
// CHECK-LABEL: func.func @blocked
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x6x7x8xf32>)
// CHECK: %[[P:.*]] = graph.pad %[[X]] {pads = array<i64: 0, 0, 1, 1, 0, 0, 0, 3, 2, 0>, value = 0.000000e+00 : f64} : (tensor<1x2x6x7x8xf32>) -> tensor<1x2x10x10x8xf32>
// CHECK: %[[V:.*]] = graph.winograd_input %[[P]] : (tensor<1x2x10x10x8xf32>) -> tensor<36x1x2x2x2x8xf32>
// CHECK: %[[V1:.*]] = graph.reshape %[[V]] {shape = array<i64: 36, 4, 16>}
// CHECK: %[[U:.*]] = graph.constant dense_resource<winograd_filter{{.*}}> : tensor<36x16x24xf32>
// CHECK: %[[M:.*]] = graph.matmul %[[V1]], %[[U]] : (tensor<36x4x16xf32>, tensor<36x16x24xf32>) -> tensor<36x4x24xf32>
// CHECK: %[[M1:.*]] = graph.reshape %[[M]] {shape = array<i64: 36, 1, 2, 2, 3, 8>}
// CHECK: %[[Y:.*]] = graph.winograd_output %[[M1]] {output_size = array<i64: 6, 7>} : (tensor<36x1x2x2x3x8xf32>) -> tensor<1x3x6x7x8xf32>
// CHECK: %[[BR:.*]] = graph.reshape %{{.*}} {shape = array<i64: 1, 3, 1, 1, 8>}
// CHECK: %[[R:.*]] = graph.add %[[Y]], %[[BR]]
// CHECK: return %[[R]]
// DEFAULTS-LABEL: func.func @blocked
// DEFAULTS: graph.conv2d_nchwc
// DEFAULTS-NOT: graph.winograd_input
func.func @blocked(%x: tensor<1x2x6x7x8xf32>) -> tensor<1x3x6x7x8xf32> {
  %w = graph.constant dense<0.5> : tensor<3x2x3x3x8x8xf32>
  %b = graph.constant dense<0.1> : tensor<3x8xf32>
  %y = graph.conv2d_nchwc %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x6x7x8xf32>, tensor<3x2x3x3x8x8xf32>, tensor<3x8xf32>) -> tensor<1x3x6x7x8xf32>
  return %y : tensor<1x3x6x7x8xf32>
}

// -----

// Blocked convolutions that are not dense 3x3 stride 1 with a constant
// filter (depthwise, grouped, strided, a filter argument) are left alone.
// CHECK-LABEL: func.func @blocked_not_winograd
// CHECK-NOT: graph.winograd_input
// CHECK-COUNT-4: graph.conv2d_nchwc
// CHECK-NOT: graph.winograd_input
func.func @blocked_not_winograd(%x: tensor<1x2x8x8x8xf32>, %wv: tensor<2x2x3x3x8x8xf32>) -> (tensor<1x2x8x8x8xf32>, tensor<1x2x8x8x8xf32>, tensor<1x2x4x4x8xf32>, tensor<1x2x8x8x8xf32>) {
  %wd = graph.constant dense<1.0> : tensor<2x3x3x8xf32>
  %wg = graph.constant dense<1.0> : tensor<2x1x3x3x8x8xf32>
  %w = graph.constant dense<1.0> : tensor<2x2x3x3x8x8xf32>
  %d = graph.conv2d_nchwc %x, %wd {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x3x3x8xf32>) -> tensor<1x2x8x8x8xf32>
  %g = graph.conv2d_nchwc %x, %wg {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x1x3x3x8x8xf32>) -> tensor<1x2x8x8x8xf32>
  %s = graph.conv2d_nchwc %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x4x4x8xf32>
  %v = graph.conv2d_nchwc %x, %wv {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x8x8x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x8x8xf32>
  return %d, %g, %s, %v : tensor<1x2x8x8x8xf32>, tensor<1x2x8x8x8xf32>, tensor<1x2x4x4x8xf32>, tensor<1x2x8x8x8xf32>
}

// -----

// The blocked form's own thresholds: 16 input and 32 output channels
// (padded counts) are enough; 16 -> 16 is not.
// CHECK-LABEL: func.func @blocked_thresholds
// CHECK-COUNT-2: graph.winograd_input
// DEFAULTS-LABEL: func.func @blocked_thresholds
// DEFAULTS: graph.winograd_input {{.*}} -> tensor<36x1x4x4x1x16xf32>
// DEFAULTS: graph.winograd_output {{.*}} -> tensor<1x2x16x16x16xf32>
// DEFAULTS: graph.conv2d_nchwc
// DEFAULTS-NOT: graph.winograd_input
func.func @blocked_thresholds(%x: tensor<1x1x16x16x16xf32>) -> (tensor<1x2x16x16x16xf32>, tensor<1x1x16x16x16xf32>) {
  %w = graph.constant dense<0.5> : tensor<2x1x3x3x16x16xf32>
  %w1 = graph.constant dense<0.5> : tensor<1x1x3x3x16x16xf32>
  %a = graph.conv2d_nchwc %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x1x16x16x16xf32>, tensor<2x1x3x3x16x16xf32>) -> tensor<1x2x16x16x16xf32>
  %b = graph.conv2d_nchwc %x, %w1 {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x1x16x16x16xf32>, tensor<1x1x3x3x16x16xf32>) -> tensor<1x1x16x16x16xf32>
  return %a, %b : tensor<1x2x16x16x16xf32>, tensor<1x1x16x16x16xf32>
}
