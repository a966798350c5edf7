// --graph-reorder-slices: slice(f(a, b)) -> f(slice(a), slice(b)) for
// elementwise f, so f computes only what the slice keeps.
// RUN: mlc-opt %s --graph-reorder-slices --split-input-file | FileCheck %s

// Binary op with a broadcast operand: %b [1, 8] keeps its single row, and
// is sliced along the columns only; %a is sliced in both dims.
// CHECK-LABEL: func.func @binary_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<1x8xf32>)
// CHECK-NEXT: %[[SA:.*]] = graph.slice %[[A]] {ends = array<i64: 3, 8>, starts = array<i64: 1, 2>, steps = array<i64: 1, 2>} : (tensor<4x8xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[SB:.*]] = graph.slice %[[B]] {ends = array<i64: 1, 8>, starts = array<i64: 0, 2>, steps = array<i64: 1, 2>} : (tensor<1x8xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[R:.*]] = graph.add %[[SA]], %[[SB]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @binary_broadcast(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %1 = graph.slice %0 {starts = array<i64: 1, 2>, ends = array<i64: 3, 8>, steps = array<i64: 1, 2>} : (tensor<4x8xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Lower-rank operands align at the trailing dims; an operand the slice does
// not cut (a scalar, or [3] when only dim 0 is sliced) is used as is.
// CHECK-LABEL: func.func @rank_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x5x3xf32>, %[[V:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<f32>)
// CHECK-NEXT: %[[SA:.*]] = graph.slice %[[A]] {ends = array<i64: 2, 5, 3>, starts = array<i64: 1, 0, 0>, steps = array<i64: 1, 1, 1>}
// CHECK-NEXT: %[[M:.*]] = graph.mul %[[SA]], %[[V]] : (tensor<1x5x3xf32>, tensor<3xf32>) -> tensor<1x5x3xf32>
// CHECK-NEXT: %[[SA2:.*]] = graph.slice %[[A]] {ends = array<i64: 2, 5, 2>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>}
// CHECK-NEXT: %[[SV:.*]] = graph.slice %[[V]] {ends = array<i64: 2>, starts = array<i64: 0>, steps = array<i64: 1>} : (tensor<3xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[D:.*]] = graph.sub %[[SA2]], %[[SV]] : (tensor<2x5x2xf32>, tensor<2xf32>) -> tensor<2x5x2xf32>
// CHECK-NEXT: %[[P:.*]] = graph.pow %[[D]], %[[S]]
// CHECK-NEXT: return %[[M]], %[[P]]
func.func @rank_broadcast(%a: tensor<2x5x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>) -> (tensor<1x5x3xf32>, tensor<2x5x2xf32>) {
  %0 = graph.mul %a, %v : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  %1 = graph.slice %0 {starts = array<i64: 1, 0, 0>, ends = array<i64: 2, 5, 3>, steps = array<i64: 1, 1, 1>} : (tensor<2x5x3xf32>) -> tensor<1x5x3xf32>
  %2 = graph.sub %a, %v : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  %3 = graph.pow %2, %s : (tensor<2x5x3xf32>, tensor<f32>) -> tensor<2x5x3xf32>
  %4 = graph.slice %3 {starts = array<i64: 0, 0, 0>, ends = array<i64: 2, 5, 2>, steps = array<i64: 1, 1, 1>} : (tensor<2x5x3xf32>) -> tensor<2x5x2xf32>
  return %1, %4 : tensor<1x5x3xf32>, tensor<2x5x2xf32>
}

// -----

// Unary ops, cast, compare (keeps its predicate) and select (three
// operands, the condition broadcast); chains move all the way up.
// CHECK-LABEL: func.func @ops
// CHECK-SAME: (%[[X:.*]]: tensor<6xf32>, %[[Y:.*]]: tensor<6xf32>, %[[C:.*]]: tensor<1xi1>)
// CHECK-NEXT: %[[SX:.*]] = graph.slice %[[X]] {ends = array<i64: 6>, starts = array<i64: 3>, steps = array<i64: 1>}
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[SX]] : tensor<3xf32>
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[E]] : tensor<3xf32>
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[T]] {tanh_approximation} : tensor<3xf32>
// CHECK-NEXT: %[[CI:.*]] = graph.cast %[[G]] {to = i32} : (tensor<3xf32>) -> tensor<3xi32>
// CHECK: %[[SX2:.*]] = graph.slice %[[X]] {ends = array<i64: 2>, starts = array<i64: 0>, steps = array<i64: 1>}
// CHECK-NEXT: %[[SY2:.*]] = graph.slice %[[Y]] {ends = array<i64: 2>, starts = array<i64: 0>, steps = array<i64: 1>}
// CHECK-NEXT: %[[CMP:.*]] = graph.compare ge, %[[SX2]], %[[SY2]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
// CHECK: %[[SX3:.*]] = graph.slice %[[X]] {ends = array<i64: 6>, starts = array<i64: 0>, steps = array<i64: 3>}
// CHECK-NEXT: %[[SY3:.*]] = graph.slice %[[Y]] {ends = array<i64: 6>, starts = array<i64: 0>, steps = array<i64: 3>}
// CHECK-NEXT: %[[SEL:.*]] = graph.select %[[C]], %[[SX3]], %[[SY3]] : (tensor<1xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[CI]], %[[CMP]], %[[SEL]]
func.func @ops(%x: tensor<6xf32>, %y: tensor<6xf32>, %c: tensor<1xi1>) -> (tensor<3xi32>, tensor<2xi1>, tensor<2xf32>) {
  %0 = graph.exp %x : tensor<6xf32>
  %1 = graph.tanh %0 : tensor<6xf32>
  %2 = graph.gelu %1 {tanh_approximation} : tensor<6xf32>
  %3 = graph.cast %2 {to = i32} : (tensor<6xf32>) -> tensor<6xi32>
  %4 = graph.slice %3 {starts = array<i64: 3>, ends = array<i64: 6>, steps = array<i64: 1>} : (tensor<6xi32>) -> tensor<3xi32>
  %5 = graph.compare ge, %x, %y : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %6 = graph.slice %5 {starts = array<i64: 0>, ends = array<i64: 2>, steps = array<i64: 1>} : (tensor<6xi1>) -> tensor<2xi1>
  %7 = graph.select %c, %x, %y : (tensor<1xi1>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %8 = graph.slice %7 {starts = array<i64: 0>, ends = array<i64: 6>, steps = array<i64: 3>} : (tensor<6xf32>) -> tensor<2xf32>
  return %4, %6, %8 : tensor<3xi32>, tensor<2xi1>, tensor<2xf32>
}

// -----

// NEGATIVE: the elementwise result has another user (it is computed in
// full anyway); the slice keeps every element; the producer is not
// elementwise.
// CHECK-LABEL: func.func @not_reordered
// CHECK-NEXT: %[[A:.*]] = graph.add %arg0, %arg1
// CHECK-NEXT: graph.slice %[[A]]
// CHECK-NEXT: %[[N:.*]] = graph.neg %arg0
// CHECK-NEXT: graph.slice %[[N]]
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0
// CHECK-NEXT: graph.slice %[[T]]
// CHECK-NEXT: return
func.func @not_reordered(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x2xf32>) {
  %0 = graph.add %x, %y : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = graph.slice %0 {starts = array<i64: 0, 0>, ends = array<i64: 2, 4>, steps = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %2 = graph.neg %x : tensor<4x4xf32>
  %3 = graph.slice %2 {starts = array<i64: 0, 0>, ends = array<i64: 4, 4>, steps = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %5 = graph.slice %4 {starts = array<i64: 0, 0>, ends = array<i64: 4, 2>, steps = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<4x2xf32>
  return %1, %0, %3, %5 : tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x2xf32>
}
