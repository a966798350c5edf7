// graph.resize becomes one all-parallel generic over the result that reads
// the input at the clamped table indices (one tensor.extract per
// combination of taps) and sums the weighted taps, the first axis
// innermost; graph.conv_transpose2d one contraction over the input channels
// into [N, Co, H, KH, W, KW], viewed as NCHW.
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// CHECK-DAG: #[[H0:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d2)>
// CHECK-DAG: #[[H1:.*]] = affine_map<(d0, d1, d2, d3) -> (1, d2)>
// CHECK-DAG: #[[W0:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d3)>
// CHECK-DAG: #[[W1:.*]] = affine_map<(d0, d1, d2, d3) -> (1, d3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @resize_bilinear
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4x5xf32>, %[[IH:.*]]: tensor<2x7xi64>, %[[IW:.*]]: tensor<2x9xi64>, %[[WH:.*]]: tensor<2x7xf32>, %[[WW:.*]]: tensor<2x9xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x3x7x9xf32>
// CHECK: linalg.generic {indexing_maps = [#[[H0]], #[[H0]], #[[H1]], #[[H1]], #[[W0]], #[[W0]], #[[W1]], #[[W1]], #[[ID]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%[[IH]], %[[WH]], %[[IH]], %[[WH]], %[[IW]], %[[WW]], %[[IW]], %[[WW]] : {{.*}}) outs(%[[E]] : tensor<1x3x7x9xf32>)
// CHECK-SAME: mlc.resize_axes = array<i64: 2, 3>
// CHECK: ^bb0(%[[IH0:.*]]: i64, %[[WH0:.*]]: f32, %[[IH1:.*]]: i64, %[[WH1:.*]]: f32, %[[IW0:.*]]: i64, %[[WW0:.*]]: f32, %[[IW1:.*]]: i64, %[[WW1:.*]]: f32, %{{.*}}: f32):
// CHECK-DAG: %[[N:.*]] = linalg.index 0
// CHECK-DAG: %[[C:.*]] = linalg.index 1
// Outermost sum: the last axis (W), tap 0.
// CHECK: %[[A:.*]] = arith.index_cast %[[IW0]] : i64 to index
// CHECK: %[[A1:.*]] = arith.maxsi %[[A]], %c0
// CHECK: %[[COL0:.*]] = arith.minsi %[[A1]], %c4
// Inner sum over H's taps at column 0.
// CHECK: %[[B:.*]] = arith.index_cast %[[IH0]] : i64 to index
// CHECK: %[[B1:.*]] = arith.maxsi %[[B]], %c0
// CHECK: %[[ROW0:.*]] = arith.minsi %[[B1]], %c3
// CHECK: %[[V00:.*]] = tensor.extract %[[X]][%[[N]], %[[C]], %[[ROW0]], %[[COL0]]]
// CHECK: %[[T00:.*]] = arith.mulf %[[WH0]], %[[V00]]
// CHECK: %[[V10:.*]] = tensor.extract %[[X]][%[[N]], %[[C]], %{{.*}}, %[[COL0]]]
// CHECK: %[[T10:.*]] = arith.mulf %[[WH1]], %[[V10]]
// CHECK: %[[S0:.*]] = arith.addf %[[T00]], %[[T10]]
// CHECK: %[[U0:.*]] = arith.mulf %[[WW0]], %[[S0]]
// CHECK: tensor.extract %[[X]]
// CHECK: tensor.extract %[[X]]
// CHECK: %[[U1:.*]] = arith.mulf %[[WW1]], %{{.*}}
// CHECK: %[[Y:.*]] = arith.addf %[[U0]], %[[U1]]
// CHECK: linalg.yield %[[Y]]
func.func @resize_bilinear(%x: tensor<1x3x4x5xf32>, %ih: tensor<2x7xi64>, %iw: tensor<2x9xi64>, %wh: tensor<2x7xf32>, %ww: tensor<2x9xf32>) -> tensor<1x3x7x9xf32> {
  %0 = graph.resize %x, [%ih, %iw], [%wh, %ww] {axes = array<i64: 2, 3>} : (tensor<1x3x4x5xf32>, tensor<2x7xi64>, tensor<2x9xi64>, tensor<2x7xf32>, tensor<2x9xf32>) -> tensor<1x3x7x9xf32>
  return %0 : tensor<1x3x7x9xf32>
}

// -----

// Nearest along one axis: one tap, one extract; an i32 table; the
// unresized dim is the loop index.
// CHECK-LABEL: func.func @resize_nearest_rows
// CHECK: linalg.generic
// CHECK-SAME: mlc.resize_axes = array<i64: 0>
// CHECK: ^bb0(%[[I:.*]]: i32, %[[W:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[R:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[R1:.*]] = arith.maxsi %[[R]], %c0
// CHECK: %[[R2:.*]] = arith.minsi %[[R1]], %c0
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[%[[R2]], %[[J]]] : tensor<1x6xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[W]], %[[V]]
// CHECK-NEXT: linalg.yield %[[P]]
// CHECK-NOT: tensor.extract
func.func @resize_nearest_rows(%x: tensor<1x6xf32>, %i: tensor<1x3xi32>, %w: tensor<1x3xf32>) -> tensor<3x6xf32> {
  %0 = graph.resize %x, [%i], [%w] {axes = array<i64: 0>} : (tensor<1x6xf32>, tensor<1x3xi32>, tensor<1x3xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// CHECK-DAG: #[[BIAS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1)>
// CHECK-DAG: #[[ID6:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d6, d2, d4)>
// CHECK-DAG: #[[F:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6, d1, d3, d5)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @conv_transpose2d
// CHECK-SAME: (%[[IN:.*]]: tensor<2x5x3x7xf32>, %[[W:.*]]: tensor<5x3x2x3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[BIAS]], #[[ID6]]], {{.*}}} ins(%[[B]] : tensor<3xf32>) outs(%{{.*}} : tensor<2x3x3x2x7x3xf32>)
// CHECK: %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[F]], #[[Y]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[IN]], %[[W]] : tensor<2x5x3x7xf32>, tensor<5x3x2x3xf32>) outs(%[[INIT]] : tensor<2x3x3x2x7x3xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[ACC]] {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<2x3x3x2x7x3xf32> into tensor<2x3x6x21xf32>
// CHECK: return %[[R]]
func.func @conv_transpose2d(%x: tensor<2x5x3x7xf32>, %w: tensor<5x3x2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3x6x21xf32> {
  %0 = graph.conv_transpose2d %x, %w, %b {strides = array<i64: 2, 3>} : (tensor<2x5x3x7xf32>, tensor<5x3x2x3xf32>, tensor<3xf32>) -> tensor<2x3x6x21xf32>
  return %0 : tensor<2x3x6x21xf32>
}

// -----

// Without a bias the accumulator starts from a zero fill.
// CHECK-LABEL: func.func @conv_transpose2d_no_bias
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x1x3x1x3xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[Z]] : tensor<1x1x1x3x1x3xf32>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x1x3x3xf32>
func.func @conv_transpose2d_no_bias(%x: tensor<1x2x1x1xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %0 = graph.conv_transpose2d %x, %w {strides = array<i64: 3, 3>} : (tensor<1x2x1x1xf32>, tensor<2x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}
