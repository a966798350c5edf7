// Pooling: overlapping max windows with pads, dilated max windows with
// asymmetric pads (distinct inputs: no ties), average pooling counting the
// pads or not, global average pooling.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 0: distinct
// fd-arg 1: distinct
func.func @f(%a: tensor<1x2x5x5xf64>, %b: tensor<1x1x5x4xf64>, %c: tensor<1x2x5x5xf64>,
             %d: tensor<1x1x5x4xf64>, %e: tensor<2x3x3x4xf64>)
    -> (tensor<1x2x3x3xf64>, tensor<1x1x4x4xf64>, tensor<1x2x3x3xf64>, tensor<1x1x3x5xf64>, tensor<2x3x1x1xf64>) {
  %0 = graph.maxpool2d %a {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64>
  %1 = graph.maxpool2d %b {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 1, 1, 0>, dilations = array<i64: 2, 1>} : (tensor<1x1x5x4xf64>) -> tensor<1x1x4x4xf64>
  %2 = graph.avgpool2d %c {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : (tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64>
  %3 = graph.avgpool2d %d {kernel = array<i64: 3, 2>, strides = array<i64: 2, 1>, pads = array<i64: 0, 1, 2, 1>, count_include_pad = false} : (tensor<1x1x5x4xf64>) -> tensor<1x1x3x5xf64>
  %4 = graph.global_avgpool %e : (tensor<2x3x3x4xf64>) -> tensor<2x3x1x1xf64>
  return %0, %1, %2, %3, %4 : tensor<1x2x3x3xf64>, tensor<1x1x4x4xf64>, tensor<1x2x3x3xf64>, tensor<1x1x3x5xf64>, tensor<2x3x1x1xf64>
}
