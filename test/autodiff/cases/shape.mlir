// Data movement: reshape, transpose, concat, slices with steps 1 and > 1,
// pad, broadcast_to.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
func.func @f(%x: tensor<2x3x4xf64>, %a: tensor<2x3xf64>, %b: tensor<2x1xf64>, %c: tensor<2x2xf64>,
             %s: tensor<5x7xf64>, %p: tensor<2x3xf64>, %r: tensor<3x1xf64>)
    -> (tensor<4x6xf64>, tensor<4x2x3xf64>, tensor<2x6xf64>, tensor<2x3xf64>, tensor<3x3xf64>, tensor<3x5xf64>, tensor<2x3x4xf64>) {
  %0 = graph.reshape %x {shape = array<i64: 4, 6>} : (tensor<2x3x4xf64>) -> tensor<4x6xf64>
  %1 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf64>) -> tensor<4x2x3xf64>
  %2 = graph.concat %a, %b, %c {axis = 1 : i64} : (tensor<2x3xf64>, tensor<2x1xf64>, tensor<2x2xf64>) -> tensor<2x6xf64>
  %3 = graph.slice %s {starts = array<i64: 1, 0>, ends = array<i64: 5, 7>, steps = array<i64: 2, 3>} : (tensor<5x7xf64>) -> tensor<2x3xf64>
  %4 = graph.slice %s {starts = array<i64: 1, 2>, ends = array<i64: 4, 5>, steps = array<i64: 1, 1>} : (tensor<5x7xf64>) -> tensor<3x3xf64>
  %5 = graph.pad %p {pads = array<i64: 1, 0, 0, 2>, value = 0.5 : f64} : (tensor<2x3xf64>) -> tensor<3x5xf64>
  %6 = graph.broadcast_to %r {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf64>) -> tensor<2x3x4xf64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4x6xf64>, tensor<4x2x3xf64>, tensor<2x6xf64>, tensor<2x3xf64>, tensor<3x3xf64>, tensor<3x5xf64>, tensor<2x3x4xf64>
}
