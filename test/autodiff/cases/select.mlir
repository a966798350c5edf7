// select routes the cotangent to the chosen branch (broadcasting all three
// operands); the condition comes from a non-differentiable compare of
// differentiated values.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
func.func @f(%a: tensor<2x3xf64>, %b: tensor<3xf64>, %t: tensor<2x1xf64>,
             %e: tensor<f64>) -> tensor<2x3xf64> {
  %c = graph.compare lt, %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xi1>
  %0 = graph.select %c, %t, %e : (tensor<2x3xi1>, tensor<2x1xf64>, tensor<f64>) -> tensor<2x3xf64>
  %1 = graph.mul %0, %a : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}
