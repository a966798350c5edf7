// RUN: mlc-opt %s --split-input-file --graph-expand-training-ops | FileCheck %s

// Mean softmax cross-entropy: -mean(log_softmax(logits)[n, label[n]]).
// CHECK-LABEL: func.func @sce
// CHECK-SAME: (%[[L:.*]]: tensor<4x10xf32>, %[[Y:.*]]: tensor<4xi64>)
// CHECK: %[[LS:.*]] = graph.log_softmax %[[L]] {axis = 1 : i64}
// CHECK: %[[IDX:.*]] = graph.reshape %[[Y]] {shape = array<i64: 4, 1>}
// CHECK: %[[P:.*]] = graph.gather_elements %[[LS]], %[[IDX]] {axis = 1 : i64}
// CHECK: %[[M:.*]] = graph.reduce_mean %[[P]] {axes = array<i64: 0, 1>, keepdims = false} : (tensor<4x1xf32>) -> tensor<f32>
// CHECK: %[[N:.*]] = graph.neg %[[M]]
// CHECK: return %[[N]]
// CHECK-NOT: softmax_cross_entropy
func.func @sce(%l: tensor<4x10xf32>, %y: tensor<4xi64>) -> tensor<f32> {
  %0 = graph.softmax_cross_entropy %l, %y : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @mse
// CHECK: %[[D:.*]] = graph.sub %arg0, %arg1
// CHECK: %[[SQ:.*]] = graph.mul %[[D]], %[[D]]
// CHECK: graph.reduce_mean %[[SQ]] {axes = array<i64: 0, 1>, keepdims = false}
func.func @mse(%p: tensor<2x3xf32>, %t: tensor<2x3xf32>) -> tensor<f32> {
  %0 = graph.mse_loss %p, %t : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Plain SGD with weight decay: p - lr * (g + wd * p).
// CHECK-LABEL: func.func @sgd
// CHECK: %[[WD:.*]] = graph.constant dense<0.00999999977> : tensor<f32>
// CHECK: %[[PW:.*]] = graph.mul %arg0, %[[WD]]
// CHECK: %[[G:.*]] = graph.add %arg1, %[[PW]]
// CHECK: %[[LR:.*]] = graph.constant dense<1.000000e-01> : tensor<f32>
// CHECK: %[[S:.*]] = graph.mul %[[G]], %[[LR]]
// CHECK: %[[NEW:.*]] = graph.sub %arg0, %[[S]]
// CHECK: return %[[NEW]]
func.func @sgd(%p: tensor<3xf32>, %g: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.sgd_update %p, %g {lr = 0.1 : f64, momentum = 0.0 : f64, weight_decay = 0.01 : f64, nesterov = false} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Momentum: v' = mu v + g; p' = p - lr v' (nesterov: p - lr (g + mu v')).
// CHECK-LABEL: func.func @momentum
// CHECK: %[[MV:.*]] = graph.mul %arg2, %{{.*}}
// CHECK: %[[V:.*]] = graph.add %[[MV]], %arg1
// CHECK: %[[MU:.*]] = graph.mul %[[V]], %{{.*}}
// CHECK: %[[STEP:.*]] = graph.add %arg1, %[[MU]]
// CHECK: %[[S:.*]] = graph.mul %[[STEP]], %{{.*}}
// CHECK: %[[P:.*]] = graph.sub %arg0, %[[S]]
// CHECK: return %[[P]], %[[V]]
func.func @momentum(%p: tensor<3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0:2 = graph.sgd_update %p, %g, %v {lr = 0.1 : f64, momentum = 0.9 : f64, weight_decay = 0.0 : f64, nesterov = true} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Adam: bias corrections 1 - beta^step on the scalar step.
// CHECK-LABEL: func.func @adam
// CHECK: %[[M:.*]] = graph.add
// CHECK: %[[V:.*]] = graph.add
// CHECK: %[[B1T:.*]] = graph.pow %{{.*}}, %arg4 : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[C1:.*]] = graph.sub %{{.*}}, %[[B1T]]
// CHECK: %[[B2T:.*]] = graph.pow %{{.*}}, %arg4
// CHECK: %[[C2:.*]] = graph.sub %{{.*}}, %[[B2T]]
// CHECK: %[[MH:.*]] = graph.div %[[M]], %[[C1]]
// CHECK: %[[VH:.*]] = graph.div %[[V]], %[[C2]]
// CHECK: %[[SQ:.*]] = graph.sqrt %[[VH]]
// CHECK: %[[DEN:.*]] = graph.add %[[SQ]], %{{.*}}
// CHECK: %[[R:.*]] = graph.div %[[MH]], %[[DEN]]
// CHECK: %[[U:.*]] = graph.mul %[[R]], %{{.*}}
// CHECK: %[[P:.*]] = graph.sub %arg0, %[[U]]
// CHECK: return %[[P]], %[[M]], %[[V]]
func.func @adam(%p: tensor<3xf32>, %g: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %t: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = graph.adam_update %p, %g, %m, %v, %t {lr = 0.001 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.0 : f64} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Batch statistics over every axis but 1; mean and biased variance out.
// CHECK-LABEL: func.func @bn
// CHECK: %[[MEAN:.*]] = graph.reduce_mean %arg0 {axes = array<i64: 0, 2, 3>, keepdims = true} : (tensor<2x3x4x4xf32>) -> tensor<1x3x1x1xf32>
// CHECK: %[[C:.*]] = graph.sub %arg0, %[[MEAN]]
// CHECK: %[[SQ:.*]] = graph.mul %[[C]], %[[C]]
// CHECK: %[[VAR:.*]] = graph.reduce_mean %[[SQ]] {axes = array<i64: 0, 2, 3>, keepdims = true}
// CHECK: graph.rsqrt
// CHECK-DAG: %[[M:.*]] = graph.reshape %[[MEAN]] {shape = array<i64: 3>}
// CHECK-DAG: %[[V:.*]] = graph.reshape %[[VAR]] {shape = array<i64: 3>}
// CHECK: return %{{.*}}, %[[M]], %[[V]]
func.func @bn(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = graph.batch_norm_train %x, %s, %b {epsilon = 1.0e-5 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @stop
// CHECK-NEXT: return %arg0
func.func @stop(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.stop_gradient %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
