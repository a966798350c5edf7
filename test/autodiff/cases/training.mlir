// Training ops: the losses and batch_norm_train (its batch statistics are
// results too, so their cotangents are seeded), compiled through
// graph-expand-training-ops. stop_gradient is checked in
// test/Transforms/autodiff.mlir (differences see through it by design).
// REQUIRES: graph-expand-training-ops
// RUN: env PYTHONPATH=%mlc_python_dir %python %S/../fd_check.py %s --work %t | FileCheck %s
// CHECK: PASS
// UNSUPPORTED: sanitize
// fd-arg 1: int 0 4
// fd-passes: --graph-expand-training-ops
func.func @f(%logits: tensor<3x4xf64>, %labels: tensor<3xi64>, %p: tensor<2x3xf64>, %t: tensor<2x3xf64>,
             %x: tensor<2x3x2x2xf64>, %s: tensor<3xf64>, %b: tensor<3xf64>, %y: tensor<4x3xf64>, %s2: tensor<3xf64>, %b2: tensor<3xf64>)
    -> (tensor<f64>, tensor<f64>, tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<4x3xf64>) {
  %0 = graph.softmax_cross_entropy %logits, %labels : (tensor<3x4xf64>, tensor<3xi64>) -> tensor<f64>
  %1 = graph.mse_loss %p, %t : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>
  %2:3 = graph.batch_norm_train %x, %s, %b {epsilon = 1.0e-3 : f32} : (tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>)
  %3:3 = graph.batch_norm_train %y, %s2, %b2 {epsilon = 1.0e-5 : f32} : (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>)
  return %0, %1, %2#0, %2#1, %2#2, %3#0 : tensor<f64>, tensor<f64>, tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<4x3xf64>
}
