// Normalizations (inference batch_norm with every operand differentiated,
// layer_norm over one and two dims) and softmax / log_softmax.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 4: positive
// fd-arg 9: positive
func.func @f(%x: tensor<2x3x2x2xf64>, %s: tensor<3xf64>, %b: tensor<3xf64>, %m: tensor<3xf64>, %v: tensor<3xf64>,
             %y: tensor<4x3xf64>, %s2: tensor<3xf64>, %b2: tensor<3xf64>, %m2: tensor<3xf64>, %v2: tensor<3xf64>,
             %z: tensor<2x3x4xf64>, %ls: tensor<3x4xf64>, %lb: tensor<3x4xf64>, %ls2: tensor<4xf64>, %lb2: tensor<4xf64>,
             %p: tensor<2x3x4xf64>, %q: tensor<3x4xf64>)
    -> (tensor<2x3x2x2xf64>, tensor<4x3xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<3x4xf64>) {
  %0 = graph.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f32} : (tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3x2x2xf64>
  %1 = graph.batch_norm %y, %s2, %b2, %m2, %v2 {epsilon = 1.0e-5 : f32} : (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<4x3xf64>
  %2 = graph.layer_norm %z, %ls, %lb {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<2x3x4xf64>
  %3 = graph.layer_norm %z, %ls2, %lb2 {axis = 2 : i64, epsilon = 1.0e-2 : f32} : (tensor<2x3x4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<2x3x4xf64>
  %4 = graph.softmax %p {axis = 1 : i64} : tensor<2x3x4xf64>
  %5 = graph.log_softmax %q {axis = 0 : i64} : tensor<3x4xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x2x2xf64>, tensor<4x3xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<3x4xf64>
}
