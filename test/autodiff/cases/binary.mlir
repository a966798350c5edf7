// Broadcasting binary ops (rank-extending, size-1 and rank-0 operands), and
// a value with several users (cotangents accumulate).
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 1: positive
// fd-arg 4: positive
func.func @f(%a: tensor<2x3x4xf64>, %b: tensor<3x1xf64>, %s: tensor<f64>,
             %c: tensor<1x4xf64>, %p: tensor<2x1x4xf64>, %q: tensor<3x4xf64>,
             %m: tensor<2x3x4xf64>, %n: tensor<4xf64>)
    -> (tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>,
        tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>,
        tensor<2x3x4xf64>, tensor<1x4xf64>) {
  %0 = graph.add %a, %b : (tensor<2x3x4xf64>, tensor<3x1xf64>) -> tensor<2x3x4xf64>
  %1 = graph.sub %c, %a : (tensor<1x4xf64>, tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %2 = graph.mul %a, %s : (tensor<2x3x4xf64>, tensor<f64>) -> tensor<2x3x4xf64>
  %3 = graph.div %a, %b : (tensor<2x3x4xf64>, tensor<3x1xf64>) -> tensor<2x3x4xf64>
  %4 = graph.pow %p, %q : (tensor<2x1x4xf64>, tensor<3x4xf64>) -> tensor<2x3x4xf64>
  %5 = graph.max %m, %n : (tensor<2x3x4xf64>, tensor<4xf64>) -> tensor<2x3x4xf64>
  %6 = graph.min %m, %n : (tensor<2x3x4xf64>, tensor<4xf64>) -> tensor<2x3x4xf64>
  %7 = graph.mul %c, %c : (tensor<1x4xf64>, tensor<1x4xf64>) -> tensor<1x4xf64>
  %8 = graph.sin %c : tensor<1x4xf64>
  %9 = graph.add %7, %8 : (tensor<1x4xf64>, tensor<1x4xf64>) -> tensor<1x4xf64>
  return %0, %1, %2, %3, %4, %5, %6, %9 : tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<1x4xf64>
}
