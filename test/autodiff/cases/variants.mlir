// Attribute and shape variants: grouped conv with batch > 1, dilations and
// a stride remainder; pooling with gaps between windows and pads excluded
// from the count; reductions to a scalar and keepdims; layer_norm from axis
// 0; strided 3-D slices; gathers with a scalar index and on the last axis;
// batch dims broadcasting both ways; 3-D pads; broadcast_to of a lower-rank
// shape.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 3: distinct
// fd-arg 8: distinct
// fd-arg 9: away0
// fd-arg 14: int -4 4
// fd-arg 16: int -5 5
// fd-arg 26: positive
func.func @f(%x: tensor<2x4x7x5xf64>, %w: tensor<4x2x2x3xf64>, %wb: tensor<4xf64>,
             %mp: tensor<2x2x7x7xf64>, %ap: tensor<1x2x4x4xf64>, %aq: tensor<1x1x7x7xf64>,
             %r: tensor<2x3xf64>, %rm: tensor<2x3xf64>, %rx: tensor<2x3xf64>, %rp: tensor<2x2xf64>,
             %ln: tensor<2x3xf64>, %ls: tensor<2x3xf64>, %lb: tensor<2x3xf64>, %sm: tensor<5xf64>,
             %gi: tensor<i64>, %gd: tensor<4x3xf64>, %gj: tensor<3xi32>, %ge: tensor<2x5xf64>,
             %sl: tensor<4x5x6xf64>, %ma: tensor<1x3x2x4xf64>, %mb: tensor<2x1x4x3xf64>,
             %pd: tensor<2x2x3xf64>, %c0: tensor<1x3xf64>, %c1: tensor<2x3xf64>, %tr: tensor<2x3x1x2xf64>,
             %bt: tensor<2x3x1xf64>, %dv: tensor<3x1xf64>, %mx: tensor<3x1xf64>, %my: tensor<1x4xf64>)
    -> (tensor<2x4x3x3xf64>, tensor<2x2x2x2xf64>, tensor<1x2x4x4xf64>, tensor<1x1x2x2xf64>, tensor<f64>, tensor<1x3xf64>,
        tensor<1x1xf64>, tensor<f64>, tensor<2x3xf64>, tensor<5xf64>, tensor<3xf64>, tensor<2x3xf64>, tensor<2x3x3xf64>,
        tensor<2x3x2x3xf64>, tensor<3x3x6xf64>, tensor<3x3xf64>, tensor<2x3x2x1xf64>, tensor<2x3x4xf64>,
        tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) {
  %0 = graph.conv2d %x, %w, %wb {strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 0, 2>, dilations = array<i64: 2, 2>, groups = 2 : i64} : (tensor<2x4x7x5xf64>, tensor<4x2x2x3xf64>, tensor<4xf64>) -> tensor<2x4x3x3xf64>
  %1 = graph.maxpool2d %mp {kernel = array<i64: 2, 2>, strides = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<2x2x7x7xf64>) -> tensor<2x2x2x2xf64>
  %2 = graph.avgpool2d %ap {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = false} : (tensor<1x2x4x4xf64>) -> tensor<1x2x4x4xf64>
  %3 = graph.avgpool2d %aq {kernel = array<i64: 2, 2>, strides = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, count_include_pad = true} : (tensor<1x1x7x7xf64>) -> tensor<1x1x2x2xf64>
  %4 = graph.reduce_sum %r {axes = array<i64: 0, 1>, keepdims = false} : (tensor<2x3xf64>) -> tensor<f64>
  %5 = graph.reduce_mean %rm {axes = array<i64: 0>, keepdims = true} : (tensor<2x3xf64>) -> tensor<1x3xf64>
  %6 = graph.reduce_max %rx {axes = array<i64: 0, 1>, keepdims = true} : (tensor<2x3xf64>) -> tensor<1x1xf64>
  %7 = graph.reduce_prod %rp {axes = array<i64: 0, 1>, keepdims = false} : (tensor<2x2xf64>) -> tensor<f64>
  %8 = graph.layer_norm %ln, %ls, %lb {axis = 0 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %9 = graph.softmax %sm {axis = 0 : i64} : tensor<5xf64>
  %10 = graph.gather %gd, %gi {axis = 0 : i64} : (tensor<4x3xf64>, tensor<i64>) -> tensor<3xf64>
  %11 = graph.gather %ge, %gj {axis = 1 : i64} : (tensor<2x5xf64>, tensor<3xi32>) -> tensor<2x3xf64>
  %12 = graph.slice %sl {starts = array<i64: 1, 0, 2>, ends = array<i64: 4, 5, 5>, steps = array<i64: 2, 2, 1>} : (tensor<4x5x6xf64>) -> tensor<2x3x3xf64>
  %13 = graph.matmul %ma, %mb : (tensor<1x3x2x4xf64>, tensor<2x1x4x3xf64>) -> tensor<2x3x2x3xf64>
  %14 = graph.pad %pd {pads = array<i64: 1, 0, 2, 0, 1, 1>, value = 0.0 : f64} : (tensor<2x2x3xf64>) -> tensor<3x3x6xf64>
  %15 = graph.concat %c0, %c1 {axis = 0 : i64} : (tensor<1x3xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
  %16 = graph.transpose %tr {perm = array<i64: 3, 1, 0, 2>} : (tensor<2x3x1x2xf64>) -> tensor<2x3x2x1xf64>
  %17 = graph.broadcast_to %bt {shape = array<i64: 4>} : (tensor<2x3x1xf64>) -> tensor<2x3x4xf64>
  %18 = graph.div %my, %dv : (tensor<1x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  %19 = graph.max %mx, %my : (tensor<3x1xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  %20 = graph.min %mx, %my : (tensor<3x1xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20 : tensor<2x4x3x3xf64>, tensor<2x2x2x2xf64>, tensor<1x2x4x4xf64>, tensor<1x1x2x2xf64>, tensor<f64>, tensor<1x3xf64>, tensor<1x1xf64>, tensor<f64>, tensor<2x3xf64>, tensor<5xf64>, tensor<3xf64>, tensor<2x3xf64>, tensor<2x3x3xf64>, tensor<2x3x2x3xf64>, tensor<3x3x6xf64>, tensor<3x3xf64>, tensor<2x3x2x1xf64>, tensor<2x3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>
}
