// gather along the first and a middle axis with negative and repeated
// indices; gather_elements whose indices cover less than the data (no
// gradient to the indices).
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 1: int -4 4
// fd-arg 3: int -5 5
// fd-arg 5: int -3 3
// fd-arg 7: int 0 4
func.func @f(%d0: tensor<4x3xf64>, %i0: tensor<2x2xi64>, %d1: tensor<2x5x3xf64>, %i1: tensor<4xi32>,
             %d2: tensor<3x4xf64>, %i2: tensor<2x4xi64>, %d3: tensor<3x4xf64>, %i3: tensor<2x5xi64>)
    -> (tensor<2x2x3xf64>, tensor<2x4x3xf64>, tensor<2x4xf64>, tensor<2x5xf64>) {
  %0 = graph.gather %d0, %i0 {axis = 0 : i64} : (tensor<4x3xf64>, tensor<2x2xi64>) -> tensor<2x2x3xf64>
  %1 = graph.gather %d1, %i1 {axis = 1 : i64} : (tensor<2x5x3xf64>, tensor<4xi32>) -> tensor<2x4x3xf64>
  %2 = graph.gather_elements %d2, %i2 {axis = 0 : i64} : (tensor<3x4xf64>, tensor<2x4xi64>) -> tensor<2x4xf64>
  %3 = graph.gather_elements %d3, %i3 {axis = 1 : i64} : (tensor<3x4xf64>, tensor<2x5xi64>) -> tensor<2x5xf64>
  return %0, %1, %2, %3 : tensor<2x2x3xf64>, tensor<2x4x3xf64>, tensor<2x4xf64>, tensor<2x5xf64>
}
