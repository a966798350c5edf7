// conv2d: bias, strides, asymmetric pads, dilations, groups, depthwise,
// stride remainders (input rows no window reaches) and pads wider than the
// kernel (the data gradient crops).
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
func.func @f(%x0: tensor<2x3x5x5xf64>, %w0: tensor<4x3x3x3xf64>, %b0: tensor<4xf64>,
             %x1: tensor<1x2x7x6xf64>, %w1: tensor<3x2x2x3xf64>,
             %x2: tensor<1x4x7x6xf64>, %w2: tensor<6x2x3x3xf64>,
             %x3: tensor<1x3x6x6xf64>, %w3: tensor<3x1x3x3xf64>, %b3: tensor<3xf64>,
             %x4: tensor<1x2x5x5xf64>, %w4: tensor<3x2x1x1xf64>,
             %x5: tensor<1x1x4x4xf64>, %w5: tensor<2x1x2x2xf64>)
    -> (tensor<2x4x5x5xf64>, tensor<1x3x4x6xf64>, tensor<1x6x3x3xf64>, tensor<1x3x3x3xf64>, tensor<1x3x3x3xf64>, tensor<1x2x7x7xf64>) {
  %0 = graph.conv2d %x0, %w0, %b0 {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x5x5xf64>, tensor<4x3x3x3xf64>, tensor<4xf64>) -> tensor<2x4x5x5xf64>
  %1 = graph.conv2d %x1, %w1 {strides = array<i64: 2, 1>, pads = array<i64: 0, 1, 2, 1>, dilations = array<i64: 2, 1>, groups = 1 : i64} : (tensor<1x2x7x6xf64>, tensor<3x2x2x3xf64>) -> tensor<1x3x4x6xf64>
  %2 = graph.conv2d %x2, %w2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x7x6xf64>, tensor<6x2x3x3xf64>) -> tensor<1x6x3x3xf64>
  %3 = graph.conv2d %x3, %w3, %b3 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 3 : i64} : (tensor<1x3x6x6xf64>, tensor<3x1x3x3xf64>, tensor<3xf64>) -> tensor<1x3x3x3xf64>
  %4 = graph.conv2d %x4, %w4 {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x5x5xf64>, tensor<3x2x1x1xf64>) -> tensor<1x3x3x3xf64>
  %5 = graph.conv2d %x5, %w5 {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x4x4xf64>, tensor<2x1x2x2xf64>) -> tensor<1x2x7x7xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<2x4x5x5xf64>, tensor<1x3x4x6xf64>, tensor<1x6x3x3xf64>, tensor<1x3x3x3xf64>, tensor<1x3x3x3xf64>, tensor<1x2x7x7xf64>
}
