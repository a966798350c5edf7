// Graph ops are side-effect free, so the graph pipeline's canonicalize and
// cse remove dead computations and unused weights and merge duplicates;
// inputs stay in the signature even when nothing uses them.
// RUN: mlc-opt %s --mlc-graph-optimize | FileCheck %s
// RUN: mlc-opt %s --mlc-graph-optimize="opt-level=0" | FileCheck %s --check-prefix=O0

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[UNUSED:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// The duplicated exp is computed once and feeds both outputs.
// CHECK: %[[G:.*]] = graph.fusion_group "elementwise"(%[[X]])
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[G]], %[[G]]
// No trace of the dead weight or the dead computations.
// CHECK-NOT: graph.constant
// CHECK-NOT: graph.tanh
// CHECK-NOT: graph.log

// -O0 keeps the graph as imported.
// O0-LABEL: func.func @main
// O0: graph.constant
// O0: graph.exp
// O0: graph.exp
// O0: graph.tanh
// O0: graph.log
func.func @main(%x: tensor<4xf32>, %unused: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %w = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = graph.exp %x : tensor<4xf32>
  %1 = graph.exp %x : tensor<4xf32>
  %dead = graph.tanh %x : tensor<4xf32>
  %dead2 = graph.mul %dead, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %dead3 = graph.log %unused : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
