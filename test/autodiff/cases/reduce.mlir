// Reductions with and without keepdims, over one and several axes
// (distinct inputs for max/min, nonzero ones for prod) and cumsum in its
// four directions.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 1: distinct
// fd-arg 2: away0
func.func @f(%x: tensor<2x3x4xf64>, %d: tensor<2x3x4xf64>, %p: tensor<2x3x4xf64>, %c: tensor<2x4xf64>)
    -> (tensor<3xf64>, tensor<2x1x4xf64>, tensor<2xf64>, tensor<2x4xf64>, tensor<1x3x1xf64>, tensor<2x4xf64>,
        tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>) {
  %0 = graph.reduce_sum %x {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf64>) -> tensor<3xf64>
  %1 = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf64>) -> tensor<2x1x4xf64>
  %2 = graph.reduce_mean %x {axes = array<i64: 1, 2>, keepdims = false} : (tensor<2x3x4xf64>) -> tensor<2xf64>
  %3 = graph.reduce_max %d {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf64>) -> tensor<2x4xf64>
  %4 = graph.reduce_min %d {axes = array<i64: 0, 2>, keepdims = true} : (tensor<2x3x4xf64>) -> tensor<1x3x1xf64>
  %5 = graph.reduce_prod %p {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf64>) -> tensor<2x4xf64>
  %6 = graph.cumsum %c {axis = 1 : i64, exclusive = false, reverse = false} : (tensor<2x4xf64>) -> tensor<2x4xf64>
  %7 = graph.cumsum %c {axis = 1 : i64, exclusive = true, reverse = false} : (tensor<2x4xf64>) -> tensor<2x4xf64>
  %8 = graph.cumsum %c {axis = 1 : i64, exclusive = false, reverse = true} : (tensor<2x4xf64>) -> tensor<2x4xf64>
  %9 = graph.cumsum %c {axis = 0 : i64, exclusive = true, reverse = true} : (tensor<2x4xf64>) -> tensor<2x4xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<3xf64>, tensor<2x1x4xf64>, tensor<2xf64>, tensor<2x4xf64>, tensor<1x3x1xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64>
}
