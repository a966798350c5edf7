// --graph-infer-shapes re-runs every graph op's type inference in program
// order and rewrites function signatures to match. Valid IR is unchanged.
// Stale result types (e.g. after a batch-size change of the arguments) are
// not accepted by the verifier, so those cases are parsed with it disabled;
// the pass must leave IR that verifies again.
// RUN: mlc-opt %s --split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --graph-infer-shapes -verify-diagnostics | FileCheck %s

// Already consistent: nothing changes, including non-graph ops.
// CHECK-LABEL: func.func @unchanged
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[W:.*]]: tensor<3x5xf32>) -> (tensor<2x5xf32>, tensor<2xi64>)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[X]] : tensor<2x3xf32>
// CHECK-NEXT: %[[M:.*]] = graph.matmul %[[R]], %[[W]] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: return %[[M]], %[[C]] : tensor<2x5xf32>, tensor<2xi64>
func.func @unchanged(%x: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> (tensor<2x5xf32>, tensor<2xi64>) {
  %c = arith.constant dense<[1, 2]> : tensor<2xi64>
  %0 = graph.relu %x : tensor<2x3xf32>
  %1 = graph.matmul %0, %w : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %1, %c : tensor<2x5xf32>, tensor<2xi64>
}

// -----

// The batch dim of %x changed from 2 to 4: the new shape flows through the
// matmul, the broadcasting add, the reduction and the reshape's -1, and the
// function's result types follow.
// CHECK-LABEL: func.func @batch_changed
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32>, %{{.*}}: tensor<3x5xf32>, %{{.*}}: tensor<5xf32>) -> (tensor<4x5xf32>, tensor<4x1xf32>, tensor<20xf32>)
// CHECK: graph.relu %{{.*}} : tensor<4x3xf32>
// CHECK: graph.matmul {{.*}} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK: graph.add {{.*}} : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
// CHECK: graph.reduce_sum {{.*}} : (tensor<4x5xf32>) -> tensor<4x1xf32>
// CHECK: graph.reshape {{.*}} : (tensor<4x5xf32>) -> tensor<20xf32>
// CHECK: return {{.*}} : tensor<4x5xf32>, tensor<4x1xf32>, tensor<20xf32>
func.func @batch_changed(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> (tensor<2x5xf32>, tensor<2x1xf32>, tensor<10xf32>) {
  %0 = graph.relu %x : tensor<4x3xf32>
  %1 = graph.matmul %0, %w : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %2 = graph.add %1, %b : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %3 = graph.reduce_sum %2 {axes = array<i64: 1>, keepdims = true} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %4 = graph.reshape %2 {shape = array<i64: -1>} : (tensor<2x5xf32>) -> tensor<10xf32>
  return %2, %3, %4 : tensor<2x5xf32>, tensor<2x1xf32>, tensor<10xf32>
}

// -----

// Every function of the module is updated.
// CHECK-LABEL: func.func @first
// CHECK-SAME: -> tensor<8x8xf32>
// CHECK-LABEL: func.func @second
// CHECK-SAME: -> tensor<3x2xi64>
func.func @first(%x: tensor<8x8xf32>) -> tensor<1x1xf32> {
  %0 = "graph.exp"(%x) : (tensor<8x8xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
func.func @second(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// The first op that cannot take its (new) operands reports the problem.
func.func @k_mismatch(%x: tensor<4x6xf32>, %w: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = graph.relu %x : tensor<4x6xf32>
  // expected-error @+1 {{matmul contraction dimensions differ: lhs tensor<4x6xf32> has K = 6 but rhs tensor<3x5xf32> has K = 3}}
  %1 = graph.matmul %0, %w : (tensor<4x6xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  // Not reached: the pass stops at the first failure.
  %2 = graph.add %1, %x : (tensor<4x5xf32>, tensor<4x6xf32>) -> tensor<4x5xf32>
  return %2 : tensor<4x5xf32>
}

// -----

// Inference's own operand checks, which the verifier's ODS type constraints
// otherwise report first.
func.func @select_condition(%c: tensor<2xf32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{condition must be a bool (i1) tensor, got tensor<2xf32>}}
  %0 = graph.select %c, %a, %a : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_indices(%d: tensor<5xf32>, %i: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{gather indices must be i32 or i64, got tensor<3xf32>}}
  %0 = graph.gather %d, %i {axis = 0 : i64} : (tensor<5xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dynamic_operand(%x: tensor<?x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{operand #0 must be a statically shaped ranked tensor, got tensor<?x3xf32>}}
  %0 = graph.add %x, %x : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
