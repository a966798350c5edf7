// Round trip and shape inference of graph.resize and graph.conv_transpose2d
// (GraphOpsUpsampling.cpp), in the custom and the generic syntax.
// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | FileCheck %s

// Two axes of an NCHW image: the resized sizes come from the tables.
// CHECK-LABEL: func.func @resize_hw
// CHECK: graph.resize %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {axes = array<i64: 2, 3>} : (tensor<2x3x4x5xf32>, tensor<2x7xi64>, tensor<2x11xi64>, tensor<2x7xf32>, tensor<2x11xf32>) -> tensor<2x3x7x11xf32>
func.func @resize_hw(%x: tensor<2x3x4x5xf32>, %ih: tensor<2x7xi64>, %iw: tensor<2x11xi64>, %wh: tensor<2x7xf32>, %ww: tensor<2x11xf32>) -> tensor<2x3x7x11xf32> {
  %0 = graph.resize %x, [%ih, %iw], [%wh, %ww] {axes = array<i64: 2, 3>} : (tensor<2x3x4x5xf32>, tensor<2x7xi64>, tensor<2x11xi64>, tensor<2x7xf32>, tensor<2x11xf32>) -> tensor<2x3x7x11xf32>
  return %0 : tensor<2x3x7x11xf32>
}

// One axis, one tap (nearest), i32 indices, a 1-element result and f16.
// CHECK-LABEL: func.func @resize_one_axis
// CHECK: graph.resize %{{.*}}, [%{{.*}}], [%{{.*}}] {axes = array<i64: 0>} : (tensor<3x2xf32>, tensor<1x1xi32>, tensor<1x1xf32>) -> tensor<1x2xf32>
// CHECK: graph.resize %{{.*}}, [%{{.*}}], [%{{.*}}] {axes = array<i64: 1>} : (tensor<3x2xf16>, tensor<4x9xi64>, tensor<4x9xf16>) -> tensor<3x9xf16>
func.func @resize_one_axis(%x: tensor<3x2xf32>, %i: tensor<1x1xi32>, %w: tensor<1x1xf32>, %h: tensor<3x2xf16>, %ic: tensor<4x9xi64>, %wc: tensor<4x9xf16>) -> (tensor<1x2xf32>, tensor<3x9xf16>) {
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<3x2xf32>, tensor<1x1xi32>, tensor<1x1xf32>) -> tensor<1x2xf32>
  %1 = graph.resize %h, [%ic], [%wc] {axes = array<i64: 1>} : (tensor<3x2xf16>, tensor<4x9xi64>, tensor<4x9xf16>) -> tensor<3x9xf16>
  return %0, %1 : tensor<1x2xf32>, tensor<3x9xf16>
}

// The output is the input's spatial size times the kernel.
// CHECK-LABEL: func.func @conv_transpose2d
// CHECK: graph.conv_transpose2d %{{.*}}, %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<2x5x3x7xf32>, tensor<5x3x2x2xf32>, tensor<3xf32>) -> tensor<2x3x6x14xf32>
// CHECK: graph.conv_transpose2d %{{.*}}, %{{.*}} {strides = array<i64: 3, 1>} : (tensor<1x4x1x1xf32>, tensor<4x1x3x1xf32>) -> tensor<1x1x3x1xf32>
func.func @conv_transpose2d(%x: tensor<2x5x3x7xf32>, %w: tensor<5x3x2x2xf32>, %b: tensor<3xf32>, %y: tensor<1x4x1x1xf32>, %v: tensor<4x1x3x1xf32>) -> (tensor<2x3x6x14xf32>, tensor<1x1x3x1xf32>) {
  %0 = graph.conv_transpose2d %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<2x5x3x7xf32>, tensor<5x3x2x2xf32>, tensor<3xf32>) -> tensor<2x3x6x14xf32>
  %1 = graph.conv_transpose2d %y, %v {strides = array<i64: 3, 1>} : (tensor<1x4x1x1xf32>, tensor<4x1x3x1xf32>) -> tensor<1x1x3x1xf32>
  return %0, %1 : tensor<2x3x6x14xf32>, tensor<1x1x3x1xf32>
}
