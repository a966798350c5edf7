// matmul: plain, batched with broadcast batch dims, batched x matrix.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
func.func @f(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>, %c: tensor<2x1x3x4xf64>,
             %d: tensor<5x4x2xf64>, %e: tensor<3x2x3xf64>, %g: tensor<3x2xf64>)
    -> (tensor<2x4xf64>, tensor<2x5x3x2xf64>, tensor<3x2x2xf64>) {
  %0 = graph.matmul %a, %b : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  %1 = graph.matmul %c, %d : (tensor<2x1x3x4xf64>, tensor<5x4x2xf64>) -> tensor<2x5x3x2xf64>
  %2 = graph.matmul %e, %g : (tensor<3x2x3xf64>, tensor<3x2xf64>) -> tensor<3x2x2xf64>
  return %0, %1, %2 : tensor<2x4xf64>, tensor<2x5x3x2xf64>, tensor<3x2x2xf64>
}
