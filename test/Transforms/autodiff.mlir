// --graph-autodiff: the gradient function's signature, the backward ops of
// a few rules, and the engine's handling of non-differentiable ops, symbolic
// zeros, stop_gradient, fan-out and names.
// RUN: mlc-opt %s --graph-autodiff="func=f" --split-input-file | FileCheck %s

// matmul + bias + relu: relu'(0) = 0 through compare/select, the bias
// cotangent summed over the broadcast rows, dW = X^T dY, dX = dY W^T.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[W:.*]]: tensor<3x5xf32>, %[[B:.*]]: tensor<5xf32>, %[[DY:.*]]: tensor<4x5xf32>)
// CHECK-SAME: -> (tensor<4x5xf32>, tensor<4x3xf32>, tensor<3x5xf32>, tensor<5xf32>)
// CHECK: %[[MM:.*]] = graph.matmul %[[X]], %[[W]]
// CHECK: %[[PRE:.*]] = graph.add %[[MM]], %[[B]]
// CHECK: %[[Y:.*]] = graph.relu %[[PRE]]
// CHECK: %[[POS:.*]] = graph.compare gt, %[[PRE]], %{{.*}} : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xi1>
// CHECK: %[[DPRE:.*]] = graph.select %[[POS]], %[[DY]], %{{.*}} : (tensor<4x5xi1>, tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
// CHECK: %[[DB1:.*]] = graph.reduce_sum %[[DPRE]] {axes = array<i64: 0>, keepdims = true} : (tensor<4x5xf32>) -> tensor<1x5xf32>
// CHECK: %[[DB:.*]] = graph.reshape %[[DB1]] {shape = array<i64: 5>} : (tensor<1x5xf32>) -> tensor<5xf32>
// CHECK: %[[WT:.*]] = graph.transpose %[[W]] {perm = array<i64: 1, 0>}
// CHECK: %[[DX:.*]] = graph.matmul %[[DPRE]], %[[WT]] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[XT:.*]] = graph.transpose %[[X]] {perm = array<i64: 1, 0>}
// CHECK: %[[DW:.*]] = graph.matmul %[[XT]], %[[DPRE]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK: return %[[Y]], %[[DX]], %[[DW]], %[[DB]]
func.func @f(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = graph.matmul %x, %w : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %1 = graph.add %0, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %2 = graph.relu %1 : tensor<4x5xf32>
  return %2 : tensor<4x5xf32>
}

// -----

// Broadcasting add: sumToShape reduces over the added leading dim and the
// size-1 dim (keepdims), then reshapes; the full-shape operand gets the
// cotangent itself.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4xf64>, %[[B:.*]]: tensor<3x1xf64>, %[[DZ:.*]]: tensor<2x3x4xf64>)
// CHECK: %[[S:.*]] = graph.reduce_sum %[[DZ]] {axes = array<i64: 0, 2>, keepdims = true} : (tensor<2x3x4xf64>) -> tensor<1x3x1xf64>
// CHECK: %[[DB:.*]] = graph.reshape %[[S]] {shape = array<i64: 3, 1>} : (tensor<1x3x1xf64>) -> tensor<3x1xf64>
// CHECK: return %{{.*}}, %[[DZ]], %[[DB]]
func.func @f(%a: tensor<2x3x4xf64>, %b: tensor<3x1xf64>) -> tensor<2x3x4xf64> {
  %0 = graph.add %a, %b : (tensor<2x3x4xf64>, tensor<3x1xf64>) -> tensor<2x3x4xf64>
  return %0 : tensor<2x3x4xf64>
}

// -----

// compare is not differentiated (its result only steers select), select
// sends the cotangent to each branch with zeros elsewhere, stop_gradient's
// result is a constant, the unused argument gets a zero tensor and the
// integer argument no gradient (not in the default wrt).
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[U:.*]]: tensor<2xf32>, %[[I:.*]]: tensor<4xi64>, %[[DM:.*]]: tensor<4xf32>)
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>)
// CHECK: %[[C:.*]] = graph.compare lt, %[[X]], %[[Y]]
// CHECK: %[[SEL:.*]] = graph.select %[[C]], %[[X]], %[[Y]]
// CHECK: %[[SG:.*]] = graph.stop_gradient %[[X]]
// CHECK: %[[M:.*]] = graph.mul %[[SEL]], %[[SG]]
// CHECK: %[[DSEL:.*]] = graph.mul %[[DM]], %[[SG]]
// CHECK-NOT: graph.mul %[[DM]], %[[SEL]]
// CHECK: %[[DX:.*]] = graph.select %[[C]], %[[DSEL]], %{{.*}} : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %[[DY:.*]] = graph.select %[[C]], %{{.*}}, %[[DSEL]] : (tensor<4xi1>, tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[DU:.*]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: return %[[M]], %[[DX]], %[[DY]], %[[DU]]
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  %c = graph.compare lt, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %s = graph.select %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sg = graph.stop_gradient %x : tensor<4xf32>
  %m = graph.mul %s, %sg : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// A value with several users accumulates its cotangents with add. Only
// float results get a cotangent argument; names carry over with a "d"
// prefix for cotangents.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32> {mlc.name = "x"}, %[[DY:.*]]: tensor<3xf32> {mlc.name = "dy"})
// CHECK-SAME: -> (tensor<3xf32> {mlc.name = "y"}, tensor<3xi1> {mlc.name = "mask"}, tensor<3xf32> {mlc.name = "dx"})
// CHECK: %[[E:.*]] = graph.exp %[[X]]
// CHECK: %[[G1:.*]] = graph.mul %[[DY]], %[[E]]
// CHECK: %[[G2:.*]] = graph.mul %[[DY]], %[[X]]
// CHECK: %[[G3:.*]] = graph.mul %[[DY]], %[[X]]
// CHECK: %[[S1:.*]] = graph.add %[[G1]], %[[G2]]
// CHECK: %[[S2:.*]] = graph.add %[[S1]], %[[G3]]
// CHECK: return %{{.*}}, %{{.*}}, %[[S2]]
func.func @f(%x: tensor<3xf32> {mlc.name = "x"}) -> (tensor<3xf32> {mlc.name = "y"}, tensor<3xi1> {mlc.name = "mask"}) {
  %0 = graph.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.exp %x : tensor<3xf32>
  %2 = graph.add %0, %1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = graph.compare gt, %x, %1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %2, %3 : tensor<3xf32>, tensor<3xi1>
}

// -----

// A differentiated argument that is returned directly: its cotangent is the
// seed.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.*]]: tensor<2xf64>, %[[DY:.*]]: tensor<2xf64>)
// CHECK-NEXT: return %[[X]], %[[DY]]
func.func @f(%x: tensor<2xf64>) -> tensor<2xf64> {
  return %x : tensor<2xf64>
}
