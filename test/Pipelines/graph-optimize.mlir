// The graph optimization stage of -O1 and up (mlc-graph-optimize): the
// inference rewrites fold batch_norm into the conv, the scale into the
// matmul weights and move the slice before the add; a training step
// (training=1) keeps all three as written.
// RUN: mlc-opt %s --mlc-graph-optimize | FileCheck %s
// RUN: mlc-opt %s --mlc-graph-optimize="training=1" | FileCheck %s --check-prefix=TRAIN
// RUN: mlc-opt %s --mlc-graph-optimize="opt-level=0" | FileCheck %s --check-prefix=TRAIN

// CHECK-LABEL: func.func @main
// CHECK-NOT: graph.batch_norm
// CHECK: graph.conv2d
// CHECK-NOT: graph.batch_norm
// CHECK: graph.matmul
// CHECK-NOT: graph.batch_norm
// CHECK: graph.slice
// CHECK: graph.add
// CHECK-NOT: graph.batch_norm
// CHECK: return

// TRAIN-LABEL: func.func @main
// TRAIN: graph.conv2d
// TRAIN: graph.batch_norm
// TRAIN: graph.matmul
// TRAIN: graph.mul
// TRAIN: graph.add
// TRAIN: graph.slice
func.func @main(%x: tensor<1x2x4x4xf32>, %y: tensor<3x8xf32>, %a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<1x2x4x4xf32>, tensor<3x2xf32>, tensor<2x6xf32>) {
  %w = graph.constant dense<0.5> : tensor<2x2x3x3xf32>
  %p = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.batch_norm %0, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %m = graph.constant dense<0.25> : tensor<8x2xf32>
  %2 = graph.matmul %y, %m : (tensor<3x8xf32>, tensor<8x2xf32>) -> tensor<3x2xf32>
  %3 = graph.mul %2, %p : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %4 = graph.add %a, %b : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %5 = graph.slice %4 {starts = array<i64: 1, 0>, ends = array<i64: 3, 6>, steps = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  return %1, %3, %5 : tensor<1x2x4x4xf32>, tensor<3x2xf32>, tensor<2x6xf32>
}
