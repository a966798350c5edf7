// cast: float -> float casts the cotangent back; through an integer there
// is no gradient. f32 values: a large step keeps rounding out of the
// differences of these (at most quadratic) functions.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 2: unit
// fd-step: 1e-2
// fd-no-f32
// fd-tol: 1e-4 1e-5
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf64>, %z: tensor<4xf64>)
    -> (tensor<4xf64>, tensor<4xf32>, tensor<4xf64>) {
  %0 = graph.cast %x {to = f64} : (tensor<4xf32>) -> tensor<4xf64>
  %1 = graph.mul %0, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %2 = graph.cast %y {to = f32} : (tensor<4xf64>) -> tensor<4xf32>
  %3 = graph.mul %2, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.cast %z {to = i64} : (tensor<4xf64>) -> tensor<4xi64>
  %5 = graph.cast %4 {to = f64} : (tensor<4xi64>) -> tensor<4xf64>
  %6 = graph.add %5, %z : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %1, %3, %6 : tensor<4xf64>, tensor<4xf32>, tensor<4xf64>
}
