// Unary math ops; inputs drawn inside each function's domain and away from
// the kinks of abs and relu.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 1: away0
// fd-arg 2: away0
// fd-arg 4: positive
// fd-arg 5: positive
// fd-arg 6: positive
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>, %c: tensor<2x3xf64>,
             %d: tensor<2x3xf64>, %e: tensor<2x3xf64>, %f: tensor<2x3xf64>,
             %g: tensor<2x3xf64>, %h: tensor<2x3xf64>, %i: tensor<2x3xf64>,
             %j: tensor<2x3xf64>, %k: tensor<2x3xf64>, %l: tensor<2x3xf64>)
    -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>,
        tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>,
        tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %0 = graph.neg %a : tensor<2x3xf64>
  %1 = graph.abs %b : tensor<2x3xf64>
  %2 = graph.relu %c : tensor<2x3xf64>
  %3 = graph.exp %d : tensor<2x3xf64>
  %4 = graph.log %e : tensor<2x3xf64>
  %5 = graph.sqrt %f : tensor<2x3xf64>
  %6 = graph.rsqrt %g : tensor<2x3xf64>
  %7 = graph.tanh %h : tensor<2x3xf64>
  %8 = graph.sigmoid %i : tensor<2x3xf64>
  %9 = graph.erf %j : tensor<2x3xf64>
  %10 = graph.gelu %k : tensor<2x3xf64>
  %11 = graph.gelu %l {tanh_approximation} : tensor<2x3xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}
