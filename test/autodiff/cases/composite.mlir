// A small CNN through the engine: values with several users, an op that is
// not differentiated (compare), an argument that does not reach the result
// (zero gradient), and a constant weight.
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 4: positive
func.func @f(%x: tensor<2x2x4x4xf64>, %w: tensor<3x2x3x3xf64>, %s: tensor<3xf64>, %b: tensor<3xf64>, %v: tensor<3xf64>,
             %fc: tensor<12x5xf64>, %unused: tensor<2xf64>) -> tensor<2x5xf64> {
  %mean = graph.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf64>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x2x4x4xf64>, tensor<3x2x3x3xf64>) -> tensor<2x3x4x4xf64>
  %1 = graph.batch_norm %0, %s, %b, %mean, %v {epsilon = 1.0e-5 : f32} : (tensor<2x3x4x4xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3x4x4xf64>
  %2 = graph.tanh %1 : tensor<2x3x4x4xf64>
  %3 = graph.mul %2, %1 : (tensor<2x3x4x4xf64>, tensor<2x3x4x4xf64>) -> tensor<2x3x4x4xf64>
  %4 = graph.avgpool2d %3 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, count_include_pad = true} : (tensor<2x3x4x4xf64>) -> tensor<2x3x2x2xf64>
  %5 = graph.reshape %4 {shape = array<i64: 2, 12>} : (tensor<2x3x2x2xf64>) -> tensor<2x12xf64>
  %6 = graph.matmul %5, %fc : (tensor<2x12xf64>, tensor<12x5xf64>) -> tensor<2x5xf64>
  %zero = graph.constant dense<0.0> : tensor<f64>
  %c = graph.compare gt, %6, %zero : (tensor<2x5xf64>, tensor<f64>) -> tensor<2x5xi1>
  %7 = graph.neg %6 : tensor<2x5xf64>
  %8 = graph.select %c, %6, %7 : (tensor<2x5xi1>, tensor<2x5xf64>, tensor<2x5xf64>) -> tensor<2x5xf64>
  %9 = graph.log_softmax %8 {axis = 1 : i64} : tensor<2x5xf64>
  return %9 : tensor<2x5xf64>
}
