// --graph-fold-scale-into-matmul: a constant scale of a matmul with constant
// weights moves into the weights (W * c, evaluated by graph-fold-constants).
// RUN: mlc-opt %s --graph-fold-scale-into-matmul --split-input-file | FileCheck %s

// Per-column scale [N], on either side of the mul.
// CHECK-LABEL: func.func @column_scale
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<2.500000e-01> : tensor<8x3xf32>
// CHECK-DAG: %[[C:.*]] = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK: %[[NW:.*]] = graph.mul %[[W]], %[[C]] : (tensor<8x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[R:.*]] = graph.matmul %[[X]], %[[NW]] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[NW2:.*]] = graph.mul %[[W]], %[[C]]
// CHECK-NEXT: %[[R2:.*]] = graph.matmul %[[X]], %[[NW2]]
// CHECK-NEXT: return %[[R]], %[[R2]]
func.func @column_scale(%x: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x3xf32>
  %c = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = graph.mul %0, %c : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %2 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %3 = graph.mul %c, %2 : (tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %1, %3 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// A scalar, and a [1, 1, N] scale of a batched matmul (reshaped to [N]).
// CHECK-LABEL: func.func @scalar_and_batched
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<2x4x8xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<2.500000e-01> : tensor<8x3xf32>
// CHECK-DAG: %[[S:.*]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[C:.*]] = graph.constant dense<{{.*}}> : tensor<1x1x3xf32>
// CHECK: %[[NW:.*]] = graph.mul %[[W]], %[[S]] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[R:.*]] = graph.matmul %[[X]], %[[NW]] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[CV:.*]] = graph.reshape %[[C]] {shape = array<i64: 3>} : (tensor<1x1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[NW2:.*]] = graph.mul %[[W]], %[[CV]] : (tensor<8x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[R2:.*]] = graph.matmul %[[B]], %[[NW2]] : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT: return %[[R]], %[[R2]]
func.func @scalar_and_batched(%x: tensor<4x8xf32>, %b: tensor<2x4x8xf32>) -> (tensor<4x3xf32>, tensor<2x4x3xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x3xf32>
  %s = graph.constant dense<0.5> : tensor<f32>
  %c = graph.constant dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf32>
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = graph.mul %0, %s : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %2 = graph.matmul %b, %w : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
  %3 = graph.mul %2, %c : (tensor<2x4x3xf32>, tensor<1x1x3xf32>) -> tensor<2x4x3xf32>
  return %1, %3 : tensor<4x3xf32>, tensor<2x4x3xf32>
}

// -----

// matmul(x * s, W) with a scalar s: matmul(x, W * s), whichever side s is on.
// CHECK-LABEL: func.func @scale_before
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<2.500000e-01> : tensor<8x3xf32>
// CHECK-DAG: %[[S:.*]] = graph.constant dense<5.000000e-01> : tensor<1x1xf32>
// CHECK: %[[SS:.*]] = graph.reshape %[[S]] {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[NW:.*]] = graph.mul %[[W]], %[[SS]] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[R:.*]] = graph.matmul %[[X]], %[[NW]] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK: graph.mul %[[W]], %{{.*}} : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[R2:.*]] = graph.matmul %[[X]],
// CHECK-NEXT: return %[[R]], %[[R2]]
func.func @scale_before(%x: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x3xf32>
  %s = graph.constant dense<0.5> : tensor<1x1xf32>
  %0 = graph.mul %x, %s : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %1 = graph.matmul %0, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %2 = graph.mul %s, %x : (tensor<1x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = graph.matmul %2, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %1, %3 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Integer matmuls too: wrapping arithmetic distributes exactly.
// CHECK-LABEL: func.func @integer
// CHECK: %[[NW:.*]] = graph.mul %{{.*}}, %{{.*}} : (tensor<8x3xi32>, tensor<3xi32>) -> tensor<8x3xi32>
// CHECK-NEXT: graph.matmul %{{.*}}, %[[NW]]
func.func @integer(%x: tensor<4x8xi32>) -> tensor<4x3xi32> {
  %w = graph.constant dense<3> : tensor<8x3xi32>
  %c = graph.constant dense<[1, 2, 3]> : tensor<3xi32>
  %0 = graph.matmul %x, %w : (tensor<4x8xi32>, tensor<8x3xi32>) -> tensor<4x3xi32>
  %1 = graph.mul %0, %c : (tensor<4x3xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  return %1 : tensor<4x3xi32>
}

// -----

// NEGATIVE: a scale varying along M ([M, 1] or [M, N]) is not a column
// scale of W.
// CHECK-LABEL: func.func @varies_along_m
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: %[[MM:.*]] = graph.matmul
// CHECK-NEXT: %[[A:.*]] = graph.mul %[[MM]],
// CHECK-NEXT: %[[MM2:.*]] = graph.matmul
// CHECK-NEXT: %[[B:.*]] = graph.mul %[[MM2]],
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @varies_along_m(%x: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x3xf32>
  %m = graph.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  %mn = graph.constant dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<4x3xf32>
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = graph.mul %0, %m : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %2 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %3 = graph.mul %2, %mn : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %1, %3 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// NEGATIVE: W is not a constant; the scale is not a constant; the matmul
// result has another user; the scale broadcasts the product to a larger
// shape.
// CHECK-LABEL: func.func @not_foldable
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: %[[M0:.*]] = graph.matmul %{{.*}}, %arg1
// CHECK-NEXT: graph.mul %[[M0]],
// CHECK-NEXT: %[[M1:.*]] = graph.matmul
// CHECK-NEXT: graph.mul %[[M1]], %arg2
// CHECK-NEXT: %[[M2:.*]] = graph.matmul
// CHECK-NEXT: graph.mul %[[M2]],
// CHECK-NEXT: %[[M3:.*]] = graph.matmul
// CHECK-NEXT: graph.mul %[[M3]], %{{.*}} : (tensor<4x3xf32>, tensor<2x1x3xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT: return
func.func @not_foldable(%x: tensor<4x8xf32>, %wv: tensor<8x3xf32>, %cv: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x4x3xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x3xf32>
  %c = graph.constant dense<[[[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0]]]> : tensor<2x1x3xf32>
  %0 = graph.matmul %x, %wv : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = graph.mul %0, %cv : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %2 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %3 = graph.mul %2, %cv : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %4 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %5 = graph.mul %4, %4 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %6 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %7 = graph.mul %6, %c : (tensor<4x3xf32>, tensor<2x1x3xf32>) -> tensor<2x4x3xf32>
  return %1, %3, %5, %4, %7 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x4x3xf32>
}

// -----

// NEGATIVE (scale before): s is not a single element (a per-K scale would
// be valid too, but is not handled), the mul has another user, or W is not
// constant.
// CHECK-LABEL: func.func @not_foldable_before
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: %[[A:.*]] = graph.mul
// CHECK-NEXT: graph.matmul %[[A]], %{{.*}}
// CHECK-NEXT: %[[B:.*]] = graph.mul
// CHECK-NEXT: graph.matmul %[[B]], %{{.*}}
// CHECK-NEXT: %[[C:.*]] = graph.mul
// CHECK-NEXT: graph.matmul %[[C]], %arg1
// CHECK-NEXT: return
func.func @not_foldable_before(%x: tensor<4x8xf32>, %wv: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x8xf32>, tensor<4x3xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x3xf32>
  %k = graph.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %s = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.mul %x, %k : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = graph.matmul %0, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %2 = graph.mul %x, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = graph.matmul %2, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %4 = graph.mul %x, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %5 = graph.matmul %4, %wv : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %1, %3, %2, %5 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x8xf32>, tensor<4x3xf32>
}
