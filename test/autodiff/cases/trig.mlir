// libm unary ops; asin/acos/atanh on (-0.8, 0.8), acosh on (1.2, 3).
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 2: unit
// fd-arg 3: unit
// fd-arg 4: unit
// fd-arg 9: gt1
// fd-arg 10: unit
func.func @f(%a: tensor<5xf64>, %b: tensor<5xf64>, %c: tensor<5xf64>,
             %d: tensor<5xf64>, %e: tensor<5xf64>, %f: tensor<5xf64>,
             %g: tensor<5xf64>, %h: tensor<5xf64>, %i: tensor<5xf64>,
             %j: tensor<5xf64>, %k: tensor<5xf64>)
    -> (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>,
        tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>,
        tensor<5xf64>, tensor<5xf64>, tensor<5xf64>) {
  %0 = graph.sin %a : tensor<5xf64>
  %1 = graph.cos %b : tensor<5xf64>
  %2 = graph.tan %c : tensor<5xf64>
  %3 = graph.asin %d : tensor<5xf64>
  %4 = graph.acos %e : tensor<5xf64>
  %5 = graph.atan %f : tensor<5xf64>
  %6 = graph.sinh %g : tensor<5xf64>
  %7 = graph.cosh %h : tensor<5xf64>
  %8 = graph.asinh %i : tensor<5xf64>
  %9 = graph.acosh %j : tensor<5xf64>
  %10 = graph.atanh %k : tensor<5xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>
}
