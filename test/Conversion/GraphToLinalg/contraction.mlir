// Matmul, conv and pooling become linalg.generic ops with the parallel loops
// first and the reduction loops innermost. Broadcast batch dims are expressed
// in the indexing maps. A conv with one group works on the 4-D tensors
// directly; groups > 1 are an explicit dim added by expand_shape (and removed
// from the result by collapse_shape).
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// Loops: m, n | k.
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[LHS:.*]]: tensor<3x4xf32>, %[[RHS:.*]]: tensor<4x5xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<3x5xf32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[LHS]], %[[RHS]] : tensor<3x4xf32>, tensor<4x5xf32>) outs(%[[INIT]] : tensor<3x5xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// In a fusion group, a weight's transpose into the right-hand side becomes
// that operand's indexing map: the generic reads the stored [N, K] weight
// (the converted transpose is left unused, for the group's cleanups).
// Outside a group the matmul reads the transpose.
// CHECK-DAG: #[[$TB:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @matmul_transposed_weight
// CHECK: graph.fusion_group
// CHECK-NEXT: ^bb0(%[[W:.*]]: tensor<5x4xf32>, %[[X:.*]]: tensor<3x4xf32>):
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$TB]], #{{.*}}]
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<3x4xf32>, tensor<5x4xf32>)
// CHECK: graph.yield
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[T]] : tensor<3x4xf32>, tensor<4x5xf32>)
func.func @matmul_transposed_weight(%w: tensor<5x4xf32>, %x: tensor<3x4xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {
  %0 = graph.fusion_group "contraction"(%w, %x) : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<3x5xf32> {
  ^bb0(%a: tensor<5x4xf32>, %b: tensor<3x4xf32>):
    %t = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
    %m = graph.matmul %b, %t : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
    graph.yield %m : tensor<3x5xf32>
  }
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %1 = graph.matmul %x, %t : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<3x5xf32>
}

// -----

// Batch dims [2] and [7, 1] broadcast to [7, 2]; loops: b0, b1, m, n | k.
// The lhs has no dim for b0, the rhs reads index 0 of its size-1 dim.
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d4, d3)>
// CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_broadcast_batch
// CHECK: linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<7x2x3x5xf32>)
func.func @matmul_broadcast_batch(%a: tensor<2x3x4xf32>, %b: tensor<7x1x4x5xf32>) -> tensor<7x2x3x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<7x1x4x5xf32>) -> tensor<7x2x3x5xf32>
  return %0 : tensor<7x2x3x5xf32>
}

// -----

// A rank-2 rhs is shared by every batch; a size-1 lhs batch dim broadcasts.
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[$A2:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$B2:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-LABEL: func.func @matmul_broadcast_lhs
// CHECK: linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#[[$A2]], #[[$B2]], #[[$C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
func.func @matmul_broadcast_lhs(%a: tensor<1x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<5x6xf32>) -> tensor<2x3x6xf32> {
  %0 = graph.matmul %a, %b : (tensor<1x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = graph.matmul %0, %c : (tensor<2x3x5xf32>, tensor<5x6xf32>) -> tensor<2x3x6xf32>
  return %1 : tensor<2x3x6xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: linalg.fill ins(%[[ZERO]] : i64)
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: i64, %[[ACC:.*]]: i64):
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[X]], %[[Y]] : i64
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i64
// CHECK-NEXT: linalg.yield %[[S]] : i64
func.func @matmul_i64(%a: tensor<2x3xi64>, %b: tensor<3x2xi64>) -> tensor<2x2xi64> {
  %0 = graph.matmul %a, %b : (tensor<2x3xi64>, tensor<3x2xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// Padding is a zero-filled tensor with the input inserted at [top, left];
// groups > 1 split the channel dims: x [N, G, C/G, H, W], w [G, O/G, C/G, KH, KW],
// y [N, G, O/G, OH, OW]. The bias initializes the accumulator.
// Loops: n, g, o, oh, ow | c, kh, kw.
// CHECK-DAG: #[[$BIAS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>
// CHECK-DAG: #[[$ID5:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv2d_bias_pad_groups
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PE:.*]] = tensor.empty() : tensor<1x4x10x10xf32>
// CHECK: %[[PF:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[PE]] : tensor<1x4x10x10xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[X]] into %[[PF]][0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> into tensor<1x4x10x10xf32>
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[PADDED]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 10, 10] : tensor<1x4x10x10xf32> into tensor<1x2x2x10x10xf32>
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK: %[[BG:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK: %[[BE:.*]] = tensor.empty() : tensor<1x2x3x4x4xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[$BIAS]], #[[$ID5]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[BG]] : tensor<2x3xf32>) outs(%[[BE]] : tensor<1x2x3x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[BV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[BV]] : f32
// CHECK: %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[XG]], %[[WG]] : tensor<1x2x2x10x10xf32>, tensor<2x3x2x3x3xf32>) outs(%[[INIT]] : tensor<1x2x3x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.*]]: f32, %[[WV:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XV]], %[[WV]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[Y:.*]] = tensor.collapse_shape %[[CONV]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x3x4x4xf32> into tensor<1x6x4x4xf32>
// CHECK: return %[[Y]]
func.func @conv2d_bias_pad_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x4xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  return %0 : tensor<1x6x4x4xf32>
}

// -----

// With one group there is no group dim and no reshape: loops
// n, o, oh, ow | c, kh, kw on the 4-D tensors, the bias broadcast along o
// initializes the accumulator.
// CHECK-DAG: #[[$BIAS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[$ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv2d_bias_pad
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>, %[[W:.*]]: tensor<6x4x3x3xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> into tensor<1x4x10x10xf32>
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[BE:.*]] = tensor.empty() : tensor<1x6x4x4xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[$BIAS]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[B]] : tensor<6xf32>) outs(%[[BE]] : tensor<1x6x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[BV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[BV]] : f32
// CHECK: %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PADDED]], %[[W]] : tensor<1x4x10x10xf32>, tensor<6x4x3x3xf32>) outs(%[[INIT]] : tensor<1x6x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.*]]: f32, %[[WV:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XV]], %[[WV]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<1x6x4x4xf32>
// CHECK-NEXT: return %[[CONV]] : tensor<1x6x4x4xf32>
func.func @conv2d_bias_pad(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x4xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  return %0 : tensor<1x6x4x4xf32>
}

// -----

// Without padding there is no insert_slice, without bias the accumulator is
// zero-filled; one group means no group dim and no reshape. Dilations scale
// the window loops. Loops: n, o, oh, ow | c, kh, kw.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5 * 2, d3 + d6 * 3)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv2d_dilated
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>, %[[W:.*]]: tensor<6x4x3x3xf32>)
// CHECK-NOT: tensor.insert_slice
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<1x6x4x2xf32>
// CHECK-DAG: %[[INIT:.*]] = linalg.fill ins(%[[ZERO:.*]] : f32) outs(%[[E]] : tensor<1x6x4x2xf32>)
// CHECK-DAG: %[[ZERO]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) outs(%[[INIT]] : tensor<1x6x4x2xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.*]]: f32, %[[WV:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XV]], %[[WV]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<1x6x4x2xf32>
// CHECK-NEXT: return %[[CONV]] : tensor<1x6x4x2xf32>
func.func @conv2d_dilated(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x4x2xf32> {
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 3>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x4x2xf32>
  return %0 : tensor<1x6x4x2xf32>
}

// -----

// Max pooling pads with -inf and starts from -inf. The second operand is a
// shape-only tensor.empty giving the window loop bounds.
// Loops: n, c, oh, ow | kh, kw.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[$WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @maxpool
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x7x7xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PE:.*]] = tensor.empty() : tensor<2x3x8x8xf32>
// CHECK: %[[PF:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[PE]] : tensor<2x3x8x8xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[X]] into %[[PF]][0, 0, 1, 1] [2, 3, 7, 7] [1, 1, 1, 1]
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[NINF2:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[OE:.*]] = tensor.empty() : tensor<2x3x3x3xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF2]] : f32) outs(%[[OE]] : tensor<2x3x3x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$WIN]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PADDED]], %[[WIN]] : tensor<2x3x8x8xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<2x3x3x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
func.func @maxpool(%x: tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32> {
  %0 = graph.maxpool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  return %0 : tensor<2x3x3x3xf32>
}

// -----

// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4 * 2, d3 + d5 * 2)>
// CHECK-LABEL: func.func @maxpool_dilated
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {indexing_maps = [#[[$IN]]
// CHECK: arith.maximumf %
func.func @maxpool_dilated(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = graph.maxpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// count_include_pad = false divides each window sum by the number of real
// elements under it: per dim, min(o * s - pad + k, size) - max(o * s - pad, 0).
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @avgpool_exclude_pad
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PE:.*]] = tensor.empty() : tensor<2x3x9x10xf32>
// CHECK: %[[PF:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[PE]] : tensor<2x3x9x10xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %{{.*}} into %[[PF]][0, 0, 1, 2] [2, 3, 7, 7] [1, 1, 1, 1]
// CHECK: %[[SUMS:.*]] = linalg.generic {indexing_maps = [#[[$IN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PADDED]], {{.*}}) outs(%{{.*}} : tensor<2x3x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[SUMS]] : tensor<2x3x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[SUM:.*]]: f32, %{{.*}}: f32):
// Height: stride 2, top pad 1, kernel 3, size 7.
// CHECK-NEXT: %[[OH:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[PH:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SH:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[T0:.*]] = arith.muli %[[OH]], %[[SH]] : index
// CHECK-NEXT: %[[H0:.*]] = arith.subi %[[T0]], %[[PH]] : index
// CHECK-NEXT: %[[KH:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[H1:.*]] = arith.addi %[[H0]], %[[KH]] : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[HLO:.*]] = arith.maxsi %[[H0]], %[[C0]] : index
// CHECK-NEXT: %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT: %[[HHI:.*]] = arith.minsi %[[H1]], %[[C7]] : index
// CHECK-NEXT: %[[NH:.*]] = arith.subi %[[HHI]], %[[HLO]] : index
// Width: stride 2, left pad 2, kernel 3, size 7.
// CHECK-NEXT: %[[OW:.*]] = linalg.index 3 : index
// CHECK-NEXT: %[[PW:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[SW:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[T1:.*]] = arith.muli %[[OW]], %[[SW]] : index
// CHECK-NEXT: %[[W0:.*]] = arith.subi %[[T1]], %[[PW]] : index
// CHECK-NEXT: %[[KW:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[W1:.*]] = arith.addi %[[W0]], %[[KW]] : index
// CHECK-NEXT: %[[C0W:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[WLO:.*]] = arith.maxsi %[[W0]], %[[C0W]] : index
// CHECK-NEXT: %[[C7W:.*]] = arith.constant 7 : index
// CHECK-NEXT: %[[WHI:.*]] = arith.minsi %[[W1]], %[[C7W]] : index
// CHECK-NEXT: %[[NW:.*]] = arith.subi %[[WHI]], %[[WLO]] : index
// CHECK-NEXT: %[[N:.*]] = arith.muli %[[NH]], %[[NW]] : index
// CHECK-NEXT: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT: %[[NF:.*]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK-NEXT: %[[AVG:.*]] = arith.divf %[[SUM]], %[[NF]] : f32
// CHECK-NEXT: linalg.yield %[[AVG]] : f32
func.func @avgpool_exclude_pad(%x: tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32> {
  %0 = graph.avgpool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 2, 1, 1>, count_include_pad = false} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

// count_include_pad = true divides by the kernel size, 1 * 3.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-LABEL: func.func @avgpool_include_pad
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 1] [2, 3, 7, 7] [1, 1, 1, 1] : tensor<2x3x7x7xf32> into tensor<2x3x7x9xf32>
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<1x3xf32>
// CHECK: %[[SUMS:.*]] = linalg.generic {indexing_maps = [#[[$IN]], {{.*}}ins(%{{.*}}, %[[WIN]] : tensor<2x3x7x9xf32>, tensor<1x3xf32>)
// CHECK: arith.addf %
// CHECK: %[[K:.*]] = arith.constant 3.000000e+00 : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUMS]] : tensor<2x3x7x7xf32>)
// CHECK-NEXT: ^bb0(%[[SUM:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[AVG:.*]] = arith.divf %[[SUM]], %[[K]] : f32
// CHECK-NEXT: linalg.yield %[[AVG]] : f32
// CHECK-NOT: linalg.index
func.func @avgpool_include_pad(%x: tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32> {
  %0 = graph.avgpool2d %x {kernel = array<i64: 1, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 1, 0, 1>, count_include_pad = true} : (tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  return %0 : tensor<2x3x7x7xf32>
}

// -----

// Sum over H and W straight into [N, C, 1, 1]: loops n, c, and two size-1
// loops for the kept H and W | kh, kw (the reduced H and W); no reshape.
// Then divide by H * W = 49.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[$RED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @global_avgpool
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x7x7xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x1x1xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<2x3x1x1xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$RED]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<2x3x7x7xf32>) outs(%[[INIT]] : tensor<2x3x1x1xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[N:.*]] = arith.constant 4.900000e+01 : f32
// CHECK: %[[AVG:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], {{.*}} ins(%[[SUM]] : tensor<2x3x1x1xf32>)
// CHECK-NEXT: ^bb0(%[[T:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[T]], %[[N]] : f32
// CHECK-NEXT: linalg.yield %[[D]] : f32
// CHECK: return %[[AVG]]
func.func @global_avgpool(%x: tensor<2x3x7x7xf32>) -> tensor<2x3x1x1xf32> {
  %0 = graph.global_avgpool %x : (tensor<2x3x7x7xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// -----

// conv2d_nchwc, blocked input: loops n, ob, oh, ow, o | cb, kh, kw, c with
// the output lane o innermost among the parallel loops; spatial padding
// only (dims 2 and 3); the [Ob, B] bias initializes the accumulator.
// CHECK-DAG: #[[$BIAS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, d2 * 2 + d6, d3 * 2 + d7, d8)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8, d4)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv2d_nchwc_blocked
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x7x7x8xf32>, %[[W:.*]]: tensor<3x2x3x3x8x8xf32>, %[[B:.*]]: tensor<3x8xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, 0, 1, 1, 0] [1, 2, 7, 7, 8] [1, 1, 1, 1, 1] : tensor<1x2x7x7x8xf32> into tensor<1x2x9x9x8xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[$BIAS]], #{{.*}}]{{.*}} ins(%[[B]] : tensor<3x8xf32>) outs(%{{.*}} : tensor<1x3x4x4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PADDED]], %[[W]] : tensor<1x2x9x9x8xf32>, tensor<3x2x3x3x8x8xf32>) outs(%[[INIT]] : tensor<1x3x4x4x8xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.*]]: f32, %[[WV:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XV]], %[[WV]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : f32
func.func @conv2d_nchwc_blocked(%x: tensor<1x2x7x7x8xf32>, %w: tensor<3x2x3x3x8x8xf32>, %b: tensor<3x8xf32>) -> tensor<1x3x4x4x8xf32> {
  %0 = graph.conv2d_nchwc %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x7x7x8xf32>, tensor<3x2x3x3x8x8xf32>, tensor<3x8xf32>) -> tensor<1x3x4x4x8xf32>
  return %0 : tensor<1x3x4x4x8xf32>
}

// -----

// Plain NCHW input (a stem): loops n, ob, oh, ow, o | c, kh, kw.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d5, d2 + d6, d3 + d7 * 2)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d6, d7, d4)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv2d_nchwc_plain_input
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x3x6x6xf32>, tensor<2x3x3x3x8xf32>) outs(%{{.*}} : tensor<2x2x4x2x8xf32>)
func.func @conv2d_nchwc_plain_input(%x: tensor<2x3x6x6xf32>, %w: tensor<2x3x3x3x8xf32>) -> tensor<2x2x4x2x8xf32> {
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 2>} : (tensor<2x3x6x6xf32>, tensor<2x3x3x3x8xf32>) -> tensor<2x2x4x2x8xf32>
  return %0 : tensor<2x2x4x2x8xf32>
}

// -----

// Depthwise: loops n, cb, oh, ow, c | kh, kw; input and filter both follow
// the lane c.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 + d5, d3 + d6, d4)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d6, d4)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv2d_nchwc_depthwise
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x2x7x7x8xf32>, tensor<2x3x3x8xf32>) outs(%{{.*}} : tensor<1x2x5x5x8xf32>)
func.func @conv2d_nchwc_depthwise(%x: tensor<1x2x7x7x8xf32>, %w: tensor<2x3x3x8xf32>) -> tensor<1x2x5x5x8xf32> {
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x7x7x8xf32>, tensor<2x3x3x8xf32>) -> tensor<1x2x5x5x8xf32>
  return %0 : tensor<1x2x5x5x8xf32>
}

// -----

// Pooling on the blocked layout: the windows on dims 2 and 3, the lane
// dim a parallel loop after them.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4)>
// CHECK-DAG: #[[$WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @maxpool_blocked
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1, 0] [1, 2, 6, 6, 8] [1, 1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$WIN]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
func.func @maxpool_blocked(%x: tensor<1x2x6x6x8xf32>) -> tensor<1x2x3x3x8xf32> {
  %0 = graph.maxpool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x6x6x8xf32>) -> tensor<1x2x3x3x8xf32>
  return %0 : tensor<1x2x3x3x8xf32>
}

// -----

// Grouped conv2d_nchwc: the group an explicit dim, as for conv2d; loops
// n, g, ob, oh, ow, o | cb, kh, kw, c; the result collapsed back.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d6, d3 + d7, d4 + d8, d9)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d1, d2, d6, d7, d8, d9, d5)>
// CHECK-LABEL: func.func @conv2d_nchwc_grouped
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4], [5]] output_shape [1, 2, 1, 6, 6, 8] : tensor<1x2x6x6x8xf32> into tensor<1x2x1x6x6x8xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4], [5], [6]] output_shape [2, 1, 1, 3, 3, 8, 8] : tensor<2x1x3x3x8x8xf32> into tensor<2x1x1x3x3x8x8xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$W]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2], [3], [4], [5]] : tensor<1x2x1x4x4x8xf32> into tensor<1x2x4x4x8xf32>
func.func @conv2d_nchwc_grouped(%x: tensor<1x2x6x6x8xf32>, %w: tensor<2x1x3x3x8x8xf32>) -> tensor<1x2x4x4x8xf32> {
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x6x6x8xf32>, tensor<2x1x3x3x8x8xf32>) -> tensor<1x2x4x4x8xf32>
  return %0 : tensor<1x2x4x4x8xf32>
}
