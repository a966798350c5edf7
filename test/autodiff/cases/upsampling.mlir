// resize along two axes (two taps on rows, three on columns, an index out
// of range that the op clamps) and along one axis with one tap: gradients
// of the input and of both weight tables; conv_transpose2d with and without
// a bias; a conv2d whose stride equals its kernel, whose data gradient is a
// conv_transpose2d.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 1: int -1 5
// fd-arg 2: int 0 3
// fd-arg 6: int 0 5
func.func @f(%x0: tensor<2x4x3xf64>, %ih: tensor<2x5xi64>, %iw: tensor<3x4xi64>,
             %wh: tensor<2x5xf64>, %ww: tensor<3x4xf64>,
             %x1: tensor<5x2xf64>, %i1: tensor<1x3xi32>, %w1: tensor<1x3xf64>,
             %x2: tensor<2x3x2x3xf64>, %f2: tensor<3x2x2x2xf64>, %b2: tensor<2xf64>,
             %x3: tensor<1x2x1x2xf64>, %f3: tensor<2x3x3x1xf64>,
             %x4: tensor<1x2x6x4xf64>, %f4: tensor<3x2x2x2xf64>)
    -> (tensor<2x5x4xf64>, tensor<3x2xf64>, tensor<2x2x4x6xf64>, tensor<1x3x3x2xf64>, tensor<1x3x3x2xf64>) {
  %0 = graph.resize %x0, [%ih, %iw], [%wh, %ww] {axes = array<i64: 1, 2>} : (tensor<2x4x3xf64>, tensor<2x5xi64>, tensor<3x4xi64>, tensor<2x5xf64>, tensor<3x4xf64>) -> tensor<2x5x4xf64>
  %1 = graph.resize %x1, [%i1], [%w1] {axes = array<i64: 0>} : (tensor<5x2xf64>, tensor<1x3xi32>, tensor<1x3xf64>) -> tensor<3x2xf64>
  %2 = graph.conv_transpose2d %x2, %f2, %b2 {strides = array<i64: 2, 2>} : (tensor<2x3x2x3xf64>, tensor<3x2x2x2xf64>, tensor<2xf64>) -> tensor<2x2x4x6xf64>
  %3 = graph.conv_transpose2d %x3, %f3 {strides = array<i64: 3, 1>} : (tensor<1x2x1x2xf64>, tensor<2x3x3x1xf64>) -> tensor<1x3x3x2xf64>
  %4 = graph.conv2d %x4, %f4 {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x6x4xf64>, tensor<3x2x2x2xf64>) -> tensor<1x3x3x2xf64>
  return %0, %1, %2, %3, %4 : tensor<2x5x4xf64>, tensor<3x2xf64>, tensor<2x2x4x6xf64>, tensor<1x3x3x2xf64>, tensor<1x3x3x2xf64>
}
