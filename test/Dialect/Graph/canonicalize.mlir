// Canonicalization patterns of the graph dialect (GraphCanonicalize.cpp):
// rewrites that are exact for every input, and the look-alikes that are not
// and must stay.
// RUN: mlc-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<3xi64>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[I]] :
func.func @add_zero(%x: tensor<4x8xf32>, %i: tensor<3xi64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<3xi64>) {
  %z = graph.constant dense<0.0> : tensor<4x8xf32>
  %s = graph.constant dense<0.0> : tensor<f32>
  %n = graph.constant dense<-0.0> : tensor<1x8xf32>
  %iz = graph.constant dense<0> : tensor<3xi64>
  %0 = graph.add %x, %z : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.add %s, %x : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.add %x, %n : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %3 = graph.add %iz, %i : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<3xi64>
}

// -----

// Adding zeros that broadcast x to a larger shape is not x: the add stays.
// The zeros cannot shrink either, they give the result its leading dim.
// CHECK-LABEL: func.func @add_zero_broadcasts
// CHECK: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<4x8xf32>
// CHECK: %[[R:.*]] = graph.add %{{.*}}, %[[Z]] : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: return %[[R]]
func.func @add_zero_broadcasts(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %z = graph.constant dense<0.0> : tensor<4x8xf32>
  %0 = graph.add %x, %z : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// x - 0 -> x; 0 - x is a negation (and -(+0) is -0), not rewritten.
// CHECK-LABEL: func.func @sub_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK: %[[R:.*]] = graph.sub %[[Z]], %[[X]]
// CHECK: return %[[X]], %[[R]]
func.func @sub_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = graph.constant dense<0.0> : tensor<4xf32>
  %0 = graph.sub %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.sub %z, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mul_div_one
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<5xi32>)
// CHECK: %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<1x1xf32>
// CHECK: %[[R:.*]] = graph.div %[[ONE]], %[[X]]
// CHECK: return %[[X]], %[[X]], %[[X]], %[[I]], %[[I]], %[[R]]
func.func @mul_div_one(%x: tensor<2x3xf32>, %i: tensor<5xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<5xi32>, tensor<5xi32>, tensor<2x3xf32>) {
  %one = graph.constant dense<1.0> : tensor<2x3xf32>
  %s = graph.constant dense<1.0> : tensor<1xf32>
  %ione = graph.constant dense<1> : tensor<5xi32>
  %0 = graph.mul %x, %one : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.mul %s, %x : (tensor<1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.div %x, %s : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %3 = graph.mul %ione, %i : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %4 = graph.div %i, %ione : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %5 = graph.div %one, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<5xi32>, tensor<5xi32>, tensor<2x3xf32>
}

// -----

// x * 0 is NOT 0 (inf * 0 and NaN * 0 are NaN): the mul stays, only its
// splat operand shrinks.
// CHECK-LABEL: func.func @mul_zero_kept
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<1x1xf32>
// CHECK: %[[R:.*]] = graph.mul %[[X]], %[[Z]] : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
// CHECK: return %[[R]]
func.func @mul_zero_kept(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %z = graph.constant dense<0.0> : tensor<4x8xf32>
  %0 = graph.mul %x, %z : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Only an all-ones/all-zeros splat is neutral.
// CHECK-LABEL: func.func @not_neutral
// CHECK: graph.add
// CHECK: graph.mul
// CHECK: return
func.func @not_neutral(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %d = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %0 = graph.add %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.mul %x, %d : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Broadcast of scalars: a splat operand becomes a one-element constant of
// the same rank ([4, 8] -> [1, 1], [8] -> [1]) when the other operands alone
// give the result shape.
// CHECK-LABEL: func.func @shrink_splat
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<4x8xi1>, %[[Y:.*]]: tensor<1x8xf32>)
// CHECK-DAG: %[[TWO:.*]] = graph.constant dense<2.000000e+00> : tensor<1x1xf32>
// CHECK-DAG: %[[THREE:.*]] = graph.constant dense<3.000000e+00> : tensor<1xf32>
// CHECK-DAG: %[[TRUE:.*]] = graph.constant dense<true> : tensor<1x1xi1>
// CHECK-DAG: %[[BIG:.*]] = graph.constant dense<5.000000e+00> : tensor<4x8xf32>
// CHECK: %[[A:.*]] = graph.add %[[X]], %[[TWO]] : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
// CHECK: %[[P:.*]] = graph.pow %[[THREE]], %[[A]] : (tensor<1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %[[CMP:.*]] = graph.compare lt, %[[P]], %[[THREE]] : (tensor<4x8xf32>, tensor<1xf32>) -> tensor<4x8xi1>
// CHECK: %[[S:.*]] = graph.select %[[TRUE]], %[[P]], %[[X]] : (tensor<1x1xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// The result shape [4, 8] comes from the splat: it stays.
// CHECK: %[[M:.*]] = graph.max %[[Y]], %[[BIG]] : (tensor<1x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: return %[[CMP]], %[[S]], %[[M]]
func.func @shrink_splat(%x: tensor<4x8xf32>, %c: tensor<4x8xi1>, %y: tensor<1x8xf32>) -> (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %two = graph.constant dense<2.0> : tensor<4x8xf32>
  %three = graph.constant dense<3.0> : tensor<8xf32>
  %true = graph.constant dense<true> : tensor<4x8xi1>
  %big = graph.constant dense<5.0> : tensor<4x8xf32>
  %0 = graph.add %x, %two : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.pow %three, %0 : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.compare lt, %1, %three : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  %3 = graph.select %true, %1, %x : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = graph.max %y, %big : (tensor<1x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2, %3, %4 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[X]] {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[X]], %[[T]]
func.func @transpose_transpose(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = graph.transpose %0 {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %2 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %3 = graph.transpose %2 {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  return %1, %3 : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

// A transpose that only moves size-1 dims is a reshape (a view, not a
// copy); with the identity perm it is x. Swapping two equal dims keeps the
// type but moves data: it stays.
// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4x1x8xf32>, %[[S:.*]]: tensor<3x3xf32>)
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[X]] {shape = array<i64: 1, 4, 8>} : (tensor<4x1x8xf32>) -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[S]] {perm = array<i64: 1, 0>}
// CHECK-NEXT: return %[[X]], %[[R]], %[[T]]
func.func @transpose_identity(%x: tensor<4x1x8xf32>, %s: tensor<3x3xf32>) -> (tensor<4x1x8xf32>, tensor<1x4x8xf32>, tensor<3x3xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
  %1 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<4x1x8xf32>) -> tensor<1x4x8xf32>
  %2 = graph.transpose %s {perm = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0, %1, %2 : tensor<4x1x8xf32>, tensor<1x4x8xf32>, tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[X]] {shape = array<i64: 4, 6>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]], %[[X]], %[[X]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %0 = graph.reshape %x {shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = graph.reshape %0 {shape = array<i64: 4, -1>} : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %3 = graph.reshape %2 {shape = array<i64: 2, 3, 4>} : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  %4 = graph.reshape %x {shape = array<i64: 2, -1, 4>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %3, %4 : tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// -----

// Exact cast chains (the first cast loses nothing): i32 -> i64 -> i32,
// bool -> i32 -> bool, bool -> f32 -> bool, i32 -> i64 -> f32 (== i32 -> f32),
// bool -> i32 -> f32 (== bool -> f32); and a cast to the same type.
// CHECK-LABEL: func.func @cast_exact
// CHECK-SAME: (%[[I:.*]]: tensor<4xi32>, %[[B:.*]]: tensor<4xi1>)
// CHECK-NEXT: %[[IF:.*]] = graph.cast %[[I]] {to = f32} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: %[[BF:.*]] = graph.cast %[[B]] {to = f32} : (tensor<4xi1>) -> tensor<4xf32>
// CHECK-NEXT: return %[[I]], %[[B]], %[[B]], %[[IF]], %[[BF]], %[[I]]
func.func @cast_exact(%i: tensor<4xi32>, %b: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %0 = graph.cast %i {to = i64} : (tensor<4xi32>) -> tensor<4xi64>
  %1 = graph.cast %0 {to = i32} : (tensor<4xi64>) -> tensor<4xi32>
  %2 = graph.cast %b {to = i32} : (tensor<4xi1>) -> tensor<4xi32>
  %3 = graph.cast %2 {to = i1} : (tensor<4xi32>) -> tensor<4xi1>
  %4 = graph.cast %b {to = f32} : (tensor<4xi1>) -> tensor<4xf32>
  %5 = graph.cast %4 {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %6 = graph.cast %0 {to = f32} : (tensor<4xi64>) -> tensor<4xf32>
  %7 = graph.cast %2 {to = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %8 = graph.cast %i {to = i32} : (tensor<4xi32>) -> tensor<4xi32>
  return %1, %3, %5, %6, %7, %8 : tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// Inexact chains stay: f32 -> i32 -> f32 truncates, i64 -> i32 -> i64 wraps,
// i32 -> f32 -> i32 rounds above 2^24, f32 -> i1 -> f32 maps to 0/1.
// CHECK-LABEL: func.func @cast_inexact
// CHECK-COUNT-8: graph.cast
// CHECK: return
func.func @cast_inexact(%f: tensor<4xf32>, %l: tensor<4xi64>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi64>, tensor<4xi32>, tensor<4xf32>) {
  %0 = graph.cast %f {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %1 = graph.cast %0 {to = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %2 = graph.cast %l {to = i32} : (tensor<4xi64>) -> tensor<4xi32>
  %3 = graph.cast %2 {to = i64} : (tensor<4xi32>) -> tensor<4xi64>
  %4 = graph.cast %i {to = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %5 = graph.cast %4 {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %6 = graph.cast %f {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %7 = graph.cast %6 {to = f32} : (tensor<4xi1>) -> tensor<4xf32>
  return %1, %3, %5, %7 : tensor<4xf32>, tensor<4xi64>, tensor<4xi32>, tensor<4xf32>
}

// -----

// A slice of everything is its input (any step takes a size-1 dim's single
// element); a real slice stays.
// CHECK-LABEL: func.func @slices
// CHECK-SAME: (%[[X:.*]]: tensor<4x1xf32>)
// CHECK-NEXT: %[[S:.*]] = graph.slice %[[X]] {ends = array<i64: 4, 1>, starts = array<i64: 0, 0>, steps = array<i64: 2, 1>}
// CHECK-NEXT: return %[[X]], %[[X]], %[[S]]
func.func @slices(%x: tensor<4x1xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<2x1xf32>) {
  %0 = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 1>, steps = array<i64: 1, 1>} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %1 = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 1>, steps = array<i64: 1, 3>} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %2 = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 1>, steps = array<i64: 2, 1>} : (tensor<4x1xf32>) -> tensor<2x1xf32>
  return %0, %1, %2 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<2x1xf32>
}

// -----

// broadcast_to that keeps the shape folds away; one that grows it stays.
// CHECK-LABEL: func.func @broadcast_to_same
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[B:.*]] = graph.broadcast_to %[[Y]] {shape = array<i64: 3, 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[X]], %[[B]]
func.func @broadcast_to_same(%x: tensor<3x4xf32>, %y: tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %0 = graph.broadcast_to %x {shape = array<i64: 1, 4>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = graph.broadcast_to %y {shape = array<i64: 3, 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<3x4xf32>
}
