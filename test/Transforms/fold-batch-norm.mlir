// --graph-fold-batch-norm: batch_norm of a conv2d / 2-D matmul with constant
// weights and statistics becomes that conv2d / matmul with rescaled weights,
// built as graph ops on constants (graph-fold-constants evaluates them).
// RUN: mlc-opt %s --graph-fold-batch-norm --split-input-file | FileCheck %s

// f = scale / sqrt(var + eps); w' = w * reshape(f, [O,1,1,1]);
// b' = (b - mean) * f + bias.
// CHECK-LABEL: func.func @conv_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x5xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{.*}}> : tensor<3x2x3x3xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>
// CHECK-DAG: %[[SCALE:.*]] = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[BIAS:.*]] = graph.constant dense<[5.000000e-01, 6.000000e-01, 0.69999{{.*}}]> : tensor<3xf32>
// CHECK-DAG: %[[MEAN:.*]] = graph.constant dense<[-1.000000e+00, 0.000000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[VAR:.*]] = graph.constant dense<[4.000000e+00, 9.000000e+00, 1.600000e+01]> : tensor<3xf32>
// CHECK: %[[EPS:.*]] = graph.constant dense<1.000000e-03> : tensor<f32>
// CHECK: %[[VE:.*]] = graph.add %[[VAR]], %[[EPS]] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK: %[[SD:.*]] = graph.sqrt %[[VE]] : tensor<3xf32>
// CHECK: %[[F:.*]] = graph.div %[[SCALE]], %[[SD]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[SHIFT:.*]] = graph.sub %[[B]], %[[MEAN]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[SF:.*]] = graph.mul %[[SHIFT]], %[[F]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[NB:.*]] = graph.add %[[SF]], %[[BIAS]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[FR:.*]] = graph.reshape %[[F]] {shape = array<i64: 3, 1, 1, 1>} : (tensor<3xf32>) -> tensor<3x1x1x1xf32>
// CHECK: %[[NW:.*]] = graph.mul %[[W]], %[[FR]] : (tensor<3x2x3x3xf32>, tensor<3x1x1x1xf32>) -> tensor<3x2x3x3xf32>
// CHECK: %[[C:.*]] = graph.conv2d %[[X]], %[[NW]], %[[NB]] {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT: return %[[C]]
// CHECK-NOT: graph.batch_norm
func.func @conv_bias(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x3x3xf32> {
  %w = graph.constant dense<0.5> : tensor<3x2x3x3xf32>
  %b = graph.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %scale = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %bias = graph.constant dense<[0.5, 0.6, 0.7]> : tensor<3xf32>
  %mean = graph.constant dense<[-1.0, 0.0, 1.0]> : tensor<3xf32>
  %var = graph.constant dense<[4.0, 9.0, 16.0]> : tensor<3xf32>
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
  %1 = graph.batch_norm %0, %scale, %bias, %mean, %var {epsilon = 1.0e-3 : f32} : (tensor<1x3x3x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
  return %1 : tensor<1x3x3x3xf32>
}

// -----

// Without a conv bias the shift is -mean; grouped (depthwise) filters are
// [O, C/groups, KH, KW] and scale per output channel the same way.
// CHECK-LABEL: func.func @conv_no_bias_depthwise
// CHECK: %[[MEAN:.*]] = graph.constant dense<[5.000000e-01, 2.500000e-01, {{.*}}]> : tensor<4xf32>
// CHECK: %[[F:.*]] = graph.div
// CHECK: %[[NEG:.*]] = graph.neg %[[MEAN]] : tensor<4xf32>
// CHECK: %[[SF:.*]] = graph.mul %[[NEG]], %[[F]]
// CHECK: %[[NB:.*]] = graph.add %[[SF]],
// CHECK: %[[FR:.*]] = graph.reshape %[[F]] {shape = array<i64: 4, 1, 1, 1>}
// CHECK: %[[NW:.*]] = graph.mul %{{.*}}, %[[FR]] : (tensor<4x1x3x3xf32>, tensor<4x1x1x1xf32>) -> tensor<4x1x3x3xf32>
// CHECK: graph.conv2d %{{.*}}, %[[NW]], %[[NB]] {{{.*}}groups = 4 : i64{{.*}}} : (tensor<2x4x6x6xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
// CHECK-NOT: graph.batch_norm
func.func @conv_no_bias_depthwise(%x: tensor<2x4x6x6xf32>) -> tensor<2x4x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<4x1x3x3xf32>
  %p = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %mean = graph.constant dense<[0.5, 0.25, 0.0, -0.5]> : tensor<4xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<2x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x4x4xf32>
  %1 = graph.batch_norm %0, %p, %p, %mean, %p {epsilon = 1.0e-5 : f32} : (tensor<2x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
  return %1 : tensor<2x4x4x4xf32>
}

// -----

// matmul [N, K] x [K, C] then batch_norm over C: matmul(x, W * f) + b'.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[X:.*]]: tensor<8x5xf32>)
// CHECK: %[[W:.*]] = graph.constant {{.*}} : tensor<5x3xf32>
// CHECK: %[[F:.*]] = graph.div
// CHECK: %[[NB:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[NW:.*]] = graph.mul %[[W]], %[[F]] : (tensor<5x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
// CHECK: %[[MM:.*]] = graph.matmul %[[X]], %[[NW]] : (tensor<8x5xf32>, tensor<5x3xf32>) -> tensor<8x3xf32>
// CHECK: %[[R:.*]] = graph.add %[[MM]], %[[NB]] : (tensor<8x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: graph.batch_norm
func.func @matmul(%x: tensor<8x5xf32>) -> tensor<8x3xf32> {
  %w = graph.constant dense<0.25> : tensor<5x3xf32>
  %p = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.matmul %x, %w : (tensor<8x5xf32>, tensor<5x3xf32>) -> tensor<8x3xf32>
  %1 = graph.batch_norm %0, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  return %1 : tensor<8x3xf32>
}

// -----

// NEGATIVE: the conv result has a second user, which needs the unscaled
// values: nothing changes.
// CHECK-LABEL: func.func @conv_two_users
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: %[[C:.*]] = graph.conv2d
// CHECK-NEXT: %[[BN:.*]] = graph.batch_norm %[[C]],
// CHECK-NEXT: return %[[BN]], %[[C]]
func.func @conv_two_users(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = graph.constant dense<0.5> : tensor<2x2x1x1xf32>
  %p = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.batch_norm %0, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1, %0 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// NEGATIVE: statistics that are not constants (here a function argument),
// a filter or conv bias that is not constant, a producer that is not a
// conv/matmul: nothing changes.
// CHECK-LABEL: func.func @not_constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.batch_norm
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.batch_norm
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.batch_norm
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.batch_norm
// CHECK-NEXT: return
func.func @not_constant(%x: tensor<1x2x4x4xf32>, %mean: tensor<2xf32>, %w: tensor<2x2x1x1xf32>, %b: tensor<2xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %wc = graph.constant dense<0.5> : tensor<2x2x1x1xf32>
  %p = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = graph.conv2d %x, %wc {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.batch_norm %0, %p, %p, %mean, %p {epsilon = 1.0e-5 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %3 = graph.batch_norm %2, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %4 = graph.conv2d %x, %wc, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %5 = graph.batch_norm %4, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %6 = graph.relu %x : tensor<1x2x4x4xf32>
  %7 = graph.batch_norm %6, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1, %3, %5, %7 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// NEGATIVE: a batched matmul [B, M, N]: batch_norm's channel axis 1 is M,
// not the weight's N axis.
// CHECK-LABEL: func.func @matmul_3d
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.batch_norm
// CHECK-NEXT: return
func.func @matmul_3d(%x: tensor<2x3x5xf32>) -> tensor<2x3x4xf32> {
  %w = graph.constant dense<0.25> : tensor<5x4xf32>
  %p = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.matmul %x, %w : (tensor<2x3x5xf32>, tensor<5x4xf32>) -> tensor<2x3x4xf32>
  %1 = graph.batch_norm %0, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}
