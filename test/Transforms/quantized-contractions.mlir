// RUN: mlc-opt %s --split-input-file --graph-quantized-contractions | FileCheck %s
// RUN: mlc-opt %s --split-input-file --graph-quantized-contractions='groups=false depthwise=true' | FileCheck %s --check-prefix=OPTS

// A conv of a dequantized u8 input and per-channel i8 filter: an integer
// conv, its sums scaled by x_scale * w_scale per channel, then the bias.
// CHECK-LABEL: func.func @conv_per_channel
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xui8>, %[[B:.*]]: tensor<4xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{.*}}> : tensor<4x3x3x3xi8>
// CHECK-DAG: %[[XZ:.*]] = graph.constant dense<128> : tensor<ui8>
// CHECK-DAG: %[[WZ:.*]] = graph.constant dense<0> : tensor<4x1x1x1xi8>
// CHECK: %[[ACC:.*]] = graph.conv2d_integer %[[X]], %[[W]], %[[XZ]], %[[WZ]] {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
// CHECK-SAME: -> tensor<1x4x8x8xi32>
// CHECK: %[[WS:.*]] = graph.reshape %{{.*}} {shape = array<i64: 4, 1, 1>} : (tensor<4x1x1x1xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[S:.*]] = graph.mul %{{.*}}, %[[WS]] : (tensor<f32>, tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[F:.*]] = graph.dequantize %[[ACC]], %[[S]], %{{.*}} : (tensor<1x4x8x8xi32>, tensor<4x1x1xf32>, tensor<i32>) -> tensor<1x4x8x8xf32>
// CHECK: %[[B3:.*]] = graph.reshape %[[B]] {shape = array<i64: 4, 1, 1>} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[Y:.*]] = graph.add %[[F]], %[[B3]]
// CHECK: return %[[Y]]
func.func @conv_per_channel(%x: tensor<1x3x8x8xui8>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %xs = graph.constant dense<0.02> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<3> : tensor<4x3x3x3xi8>
  %ws = graph.constant dense<[[[[0.1]]], [[[0.2]]], [[[0.3]]], [[[0.4]]]]> : tensor<4x1x1x1xf32>
  %wz = graph.constant dense<0> : tensor<4x1x1x1xi8>
  %xf = graph.dequantize %x, %xs, %xz : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  %wf = graph.dequantize %w, %ws, %wz : (tensor<4x3x3x3xi8>, tensor<4x1x1x1xf32>, tensor<4x1x1x1xi8>) -> tensor<4x3x3x3xf32>
  %y = graph.conv2d %xf, %wf, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

// A Gemm's transposed weight: the transpose moves before the dequantize,
// then the matmul becomes an integer one scaled by a_scale * b_scale.
// CHECK-LABEL: func.func @matmul_transposed_weight
// CHECK: %[[WT:.*]] = graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<5x6xi8>) -> tensor<6x5xi8>
// CHECK: %[[ACC:.*]] = graph.matmul_integer %{{.*}}, %[[WT]], %{{.*}}, %{{.*}} : (tensor<2x6xi8>, tensor<6x5xi8>, tensor<i8>, tensor<i8>) -> tensor<2x5xi32>
// CHECK: %[[S:.*]] = graph.mul
// CHECK: graph.dequantize %[[ACC]], %[[S]], %{{.*}} : (tensor<2x5xi32>, tensor<f32>, tensor<i32>) -> tensor<2x5xf32>
// CHECK-NOT: graph.matmul %
func.func @matmul_transposed_weight(%a: tensor<2x6xi8>) -> tensor<2x5xf32> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %w = graph.constant dense<1> : tensor<5x6xi8>
  %af = graph.dequantize %a, %s, %z : (tensor<2x6xi8>, tensor<f32>, tensor<i8>) -> tensor<2x6xf32>
  %wf = graph.dequantize %w, %s, %z : (tensor<5x6xi8>, tensor<f32>, tensor<i8>) -> tensor<5x6xf32>
  %wt = graph.transpose %wf {perm = array<i64: 1, 0>} : (tensor<5x6xf32>) -> tensor<6x5xf32>
  %y = graph.matmul %af, %wt : (tensor<2x6xf32>, tensor<6x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// -----

// A per-axis transpose moves its parameters along: [5, 1] becomes [1, 5],
// per column of the transposed weight.
// CHECK-LABEL: func.func @transpose_per_axis
// CHECK: %[[Q:.*]] = graph.transpose %{{.*}} : (tensor<5x6xi8>) -> tensor<6x5xi8>
// CHECK-DAG: %[[S:.*]] = graph.transpose %{{.*}} : (tensor<5x1xf32>) -> tensor<1x5xf32>
// CHECK-DAG: %[[Z:.*]] = graph.transpose %{{.*}} : (tensor<5x1xi8>) -> tensor<1x5xi8>
// CHECK: graph.dequantize %[[Q]], %[[S]], %[[Z]]
func.func @transpose_per_axis(%w: tensor<5x6xi8>, %s: tensor<5x1xf32>, %z: tensor<5x1xi8>) -> tensor<6x5xf32> {
  %wf = graph.dequantize %w, %s, %z : (tensor<5x6xi8>, tensor<5x1xf32>, tensor<5x1xi8>) -> tensor<5x6xf32>
  %wt = graph.transpose %wf {perm = array<i64: 1, 0>} : (tensor<5x6xf32>) -> tensor<6x5xf32>
  return %wt : tensor<6x5xf32>
}

// -----

// Left in float: a per-channel input scale (padding and the scale would
// vary along the reduction), and a matmul lhs scale that varies along K.
// CHECK-LABEL: func.func @not_integer
// CHECK-NOT: _integer
// CHECK: graph.conv2d %
// CHECK: graph.matmul %
func.func @not_integer(%x: tensor<1x2x4x4xi8>, %xs: tensor<1x2x1x1xf32>, %w: tensor<3x2x1x1xi8>,
                       %a: tensor<2x6xi8>, %as: tensor<6xf32>, %b: tensor<6x3xi8>) -> (tensor<1x3x4x4xf32>, tensor<2x3xf32>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %xf = graph.dequantize %x, %xs, %z : (tensor<1x2x4x4xi8>, tensor<1x2x1x1xf32>, tensor<i8>) -> tensor<1x2x4x4xf32>
  %wf = graph.dequantize %w, %s, %z : (tensor<3x2x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2x1x1xf32>
  %y = graph.conv2d %xf, %wf {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %af = graph.dequantize %a, %as, %z : (tensor<2x6xi8>, tensor<6xf32>, tensor<i8>) -> tensor<2x6xf32>
  %bf = graph.dequantize %b, %s, %z : (tensor<6x3xi8>, tensor<f32>, tensor<i8>) -> tensor<6x3xf32>
  %m = graph.matmul %af, %bf : (tensor<2x6xf32>, tensor<6x3xf32>) -> tensor<2x3xf32>
  return %y, %m : tensor<1x3x4x4xf32>, tensor<2x3xf32>
}

// -----

// Depthwise convolutions stay float unless depthwise=true (their integer
// kernel is no faster than the float one).
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: conv2d_integer
// CHECK: graph.conv2d %{{.*}} groups = 4 : i64
// OPTS-LABEL: func.func @depthwise
// OPTS: graph.conv2d_integer %{{.*}} groups = 4 : i64
// OPTS-NOT: graph.conv2d %
func.func @depthwise(%x: tensor<1x4x8x8xui8>) -> tensor<1x4x8x8xf32> {
  %xs = graph.constant dense<0.02> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<3> : tensor<4x1x3x3xi8>
  %ws = graph.constant dense<0.1> : tensor<f32>
  %wz = graph.constant dense<0> : tensor<i8>
  %xf = graph.dequantize %x, %xs, %xz : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %wf = graph.dequantize %w, %ws, %wz : (tensor<4x1x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<4x1x3x3xf32>
  %y = graph.conv2d %xf, %wf {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

// Grouped convolutions become integer when their groups are whole blocks
// (block=16) or fit in one with equal widths (here 4 groups of 8), unless
// groups=false; groups of 2 inputs and 3 outputs stay float.
// CHECK-LABEL: func.func @grouped
// CHECK: graph.conv2d_integer %{{.*}} groups = 4 : i64
// CHECK-NOT: graph.conv2d %
// OPTS-LABEL: func.func @grouped
// OPTS-NOT: conv2d_integer
// OPTS: graph.conv2d %{{.*}} groups = 4 : i64
func.func @grouped(%x: tensor<1x32x8x8xui8>) -> tensor<1x32x8x8xf32> {
  %xs = graph.constant dense<0.02> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<3> : tensor<32x8x3x3xi8>
  %ws = graph.constant dense<0.1> : tensor<f32>
  %wz = graph.constant dense<0> : tensor<i8>
  %xf = graph.dequantize %x, %xs, %xz : (tensor<1x32x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x32x8x8xf32>
  %wf = graph.dequantize %w, %ws, %wz : (tensor<32x8x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<32x8x3x3xf32>
  %y = graph.conv2d %xf, %wf {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<1x32x8x8xf32>, tensor<32x8x3x3xf32>) -> tensor<1x32x8x8xf32>
  return %y : tensor<1x32x8x8xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_unblocked
// CHECK-NOT: conv2d_integer
// CHECK: graph.conv2d %{{.*}} groups = 2 : i64
func.func @grouped_unblocked(%x: tensor<1x4x8x8xui8>) -> tensor<1x6x8x8xf32> {
  %xs = graph.constant dense<0.02> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<3> : tensor<6x2x3x3xi8>
  %ws = graph.constant dense<0.1> : tensor<f32>
  %wz = graph.constant dense<0> : tensor<i8>
  %xf = graph.dequantize %x, %xs, %xz : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %wf = graph.dequantize %w, %ws, %wz : (tensor<6x2x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<6x2x3x3xf32>
  %y = graph.conv2d %xf, %wf {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x8x8xf32>
  return %y : tensor<1x6x8x8xf32>
}
