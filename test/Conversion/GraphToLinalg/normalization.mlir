// Reductions are one linalg.generic with one parallel loop per result dim
// outermost and the reduced dims innermost. With keepdims the result keeps
// its size-1 dims, each with its own size-1 parallel loop that the input map
// ignores; the output map is the identity over the parallel loops, so the
// keepdims-shaped result is written directly, with no reshape. Softmax and
// the norms are composed of reductions and broadcasting elementwise generics.
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// Loops: d0 (dim 0), d1, d2 (the size-1 kept dims 1 and 2) | d3, d4 (the
// reduced dims 1 and 2).
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @reduce_sum_keepdims
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x1x1xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<2x1x1xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<2x1x1xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<2x1x1xf32>
// CHECK-NEXT: return %[[SUM]] : tensor<2x1x1xf32>
func.func @reduce_sum_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  %0 = graph.reduce_sum %x {axes = array<i64: 2, 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

// Reducing dims 0 and 2 of [2, 3, 4]: loop 0 is the kept dim 1.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @reduce_mean
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "reduction", "reduction"]} {{.*}} outs(%{{.*}} : tensor<3xf32>)
// CHECK: arith.addf %
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[N:.*]] = arith.constant 8.000000e+00 : f32
// CHECK: %[[MEAN:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[V]], %[[N]] : f32
// CHECK-NEXT: linalg.yield %[[D]] : f32
// CHECK: return %[[MEAN]]
func.func @reduce_mean(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = graph.reduce_mean %x {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// reduce_max starts from -inf (floats) or the smallest integer.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$ALL:.*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #[[$IN1:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$KEPT1:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[E]] : tensor<f32>)
// CHECK: %[[MAXF:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$ALL]]], iterator_types = ["reduction", "reduction", "reduction"]} {{.*}} outs(%[[INIT]] : tensor<f32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: %[[IMIN:.*]] = arith.constant -2147483648 : i32
// keepdims on a full reduction: one size-1 parallel loop the input ignores,
// then the reduced dim; no expand_shape.
// CHECK: %[[IE:.*]] = tensor.empty() : tensor<1xi32>
// CHECK: %[[IINIT:.*]] = linalg.fill ins(%[[IMIN]] : i32) outs(%[[IE]] : tensor<1xi32>)
// CHECK: %[[MAXI:.*]] = linalg.generic {indexing_maps = [#[[$IN1]], #[[$KEPT1]]], iterator_types = ["parallel", "reduction"]} {{.*}} outs(%[[IINIT]] : tensor<1xi32>)
// CHECK-NEXT: ^bb0(%[[IV:.*]]: i32, %[[IACC:.*]]: i32):
// CHECK-NEXT: %[[IM:.*]] = arith.maxsi %[[IACC]], %[[IV]] : i32
// CHECK-NEXT: linalg.yield %[[IM]] : i32
// CHECK-NEXT: } -> tensor<1xi32>
// CHECK-NEXT: return %[[MAXF]], %[[MAXI]]
func.func @reduce_max(%x: tensor<2x3x4xf32>, %j: tensor<5xi32>) -> (tensor<f32>, tensor<1xi32>) {
  %0 = graph.reduce_max %x {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = graph.reduce_max %j {axes = array<i64: 0>, keepdims = true} : (tensor<5xi32>) -> tensor<1xi32>
  return %0, %1 : tensor<f32>, tensor<1xi32>
}

// -----

// A kept dim after the reduced one: loops d0, d1 (size 1), d2 | d3.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @reduce_sum_i64
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x3xi64>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%{{.*}} : tensor<2x1x3xi64>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x4x3xi64>) outs(%[[INIT]] : tensor<2x1x3xi64>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: i64, %[[ACC:.*]]: i64):
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[ACC]], %[[V]] : i64
// CHECK-NEXT: linalg.yield %[[S]] : i64
// CHECK-NEXT: } -> tensor<2x1x3xi64>
// CHECK-NEXT: return %[[SUM]] : tensor<2x1x3xi64>
func.func @reduce_sum_i64(%x: tensor<2x4x3xi64>) -> tensor<2x1x3xi64> {
  %0 = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x4x3xi64>) -> tensor<2x1x3xi64>
  return %0 : tensor<2x1x3xi64>
}

// -----

// softmax = exp(x - max) * (1 / sum(exp(x - max))), along axis 1: one
// division per row. The reductions (loops d0, d1 (size 1) | d2) write
// [2, 1] directly, which the elementwise generics broadcast.
// CHECK-DAG: #[[$RIN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$ROUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$BCAST:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x1xf32>)
// CHECK: arith.maximumf %
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[SHIFTED:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK: arith.subf %
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[SHIFTED]] : tensor<2x3xf32>)
// CHECK: math.exp %
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[EXP]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x1xf32>)
// CHECK: arith.addf %
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[INV:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x1xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[D]] : f32
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[EXP]], %[[INV]] : tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK-NEXT: ^bb0(%[[E:.*]]: f32, %[[I:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[E]], %[[I]] : f32
// CHECK-NEXT: linalg.yield %[[P]] : f32
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// log_softmax = (x - max) - log(sum(exp(x - max))), here along axis 0.
// The reductions' loops are d0 (size 1), d1 | d2, with the input read as
// [d2, d1].
// CHECK-DAG: #[[$RIN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$ROUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$BCAST:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: arith.maximumf %
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[SHIFTED:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<2x3xf32>, tensor<1x3xf32>)
// CHECK: arith.subf %
// CHECK: math.exp %
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "reduction"]} {{.*}} outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: arith.addf %
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[SHIFTED]], %[[SUM]] : tensor<2x3xf32>, tensor<1x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[L:.*]] = math.log %[[S]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[V]], %[[L]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @log_softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.log_softmax %x {axis = 0 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// layer_norm over the last dim: mean, centered, squared, variance, then
// centered * rsqrt(var + eps) * scale + bias with scale and bias broadcast.
// The reductions' loops are d0, d1, d2 (size 1) | d3 and write the
// [2, 3, 1] statistics directly.
// CHECK-DAG: #[[$RIN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$ROUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$STAT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG: #[[$PARAM:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[SCALE:.*]]: tensor<4xf32>, %[[BIAS:.*]]: tensor<4xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<2x3x1xf32>)
// CHECK: arith.addf %
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[N:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: %[[MEAN:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[SUM]] : tensor<2x3x1xf32>)
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK: %[[CENTERED:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$STAT]], #[[$ID]]], {{.*}} ins(%[[X]], %[[MEAN]] : tensor<2x3x4xf32>, tensor<2x3x1xf32>)
// CHECK: arith.subf %
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} ins(%[[CENTERED]] : tensor<2x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.mulf %[[C]], %[[C]] : f32
// CHECK: %[[SQSUM:.*]] = linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[SQ]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<2x3x1xf32>)
// CHECK: arith.addf %
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[VAR:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[SQSUM]] : tensor<2x3x1xf32>)
// CHECK: arith.divf %
// CHECK: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$STAT]], #[[$PARAM]], #[[$PARAM]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[CENTERED]], %[[VAR]], %[[SCALE]], %[[BIAS]] : tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[XC:.*]]: f32, %[[V:.*]]: f32, %[[G:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[VE:.*]] = arith.addf %[[V]], %[[EPS]] : f32
// CHECK-NEXT: %[[INV:.*]] = math.rsqrt %[[VE]] : f32
// CHECK-NEXT: %[[NORM:.*]] = arith.mulf %[[XC]], %[[INV]] : f32
// CHECK-NEXT: %[[SC:.*]] = arith.mulf %[[NORM]], %[[G]] : f32
// CHECK-NEXT: %[[OUT:.*]] = arith.addf %[[SC]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[OUT]] : f32
// CHECK: return %[[R]]
func.func @layer_norm(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.layer_norm %x, %s, %b {axis = 2 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Normalizing over the last two dims divides by 3 * 4; the statistics are
// [2, 1, 1].
// CHECK-DAG: #[[$RIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>
// CHECK-DAG: #[[$ROUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-DAG: #[[$STAT:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, 0)>
// CHECK-DAG: #[[$PARAM:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @layer_norm_two_dims
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} {{.*}} outs(%{{.*}} : tensor<2x1x1xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: arith.constant 1.200000e+01 : f32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$STAT]], #{{.*}}]
// CHECK: linalg.generic {indexing_maps = [#[[$RIN]], #[[$ROUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} {{.*}} outs(%{{.*}} : tensor<2x1x1xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$STAT]], #[[$PARAM]], #[[$PARAM]], #{{.*}}]
func.func @layer_norm_two_dims(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.layer_norm %x, %s, %s {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// batch_norm reshapes the [C] parameters to [C, 1, 1] so they broadcast
// along axis 1 of [N, C, H, W]: (x - mean) * rsqrt(var + eps) * scale + bias.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf32>, %[[SCALE:.*]]: tensor<3xf32>, %[[BIAS:.*]]: tensor<3xf32>, %[[MEAN:.*]]: tensor<3xf32>, %[[VAR:.*]]: tensor<3xf32>)
// CHECK: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK: %[[S:.*]] = tensor.expand_shape %[[SCALE]] {{\[}}[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
// CHECK: %[[B:.*]] = tensor.expand_shape %[[BIAS]] {{\[}}[0, 1, 2]] output_shape [3, 1, 1]
// CHECK: %[[M:.*]] = tensor.expand_shape %[[MEAN]] {{\[}}[0, 1, 2]] output_shape [3, 1, 1]
// CHECK: %[[V:.*]] = tensor.expand_shape %[[VAR]] {{\[}}[0, 1, 2]] output_shape [3, 1, 1]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$CH]], #[[$CH]], #[[$CH]], #[[$CH]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[S]], %[[B]], %[[M]], %[[V]] :
// CHECK-NEXT: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: f32, %[[BV:.*]]: f32, %[[MV:.*]]: f32, %[[VV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[VE:.*]] = arith.addf %[[VV]], %[[EPS]] : f32
// CHECK-NEXT: %[[INV:.*]] = math.rsqrt %[[VE]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[XV]], %[[MV]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[C]], %[[INV]] : f32
// CHECK-NEXT: %[[SC:.*]] = arith.mulf %[[N]], %[[SV]] : f32
// CHECK-NEXT: %[[OUT:.*]] = arith.addf %[[SC]], %[[BV]] : f32
// CHECK-NEXT: linalg.yield %[[OUT]] : f32
// CHECK: return %[[R]]
func.func @batch_norm(%x: tensor<2x3x4x5xf32>, %scale: tensor<3xf32>, %bias: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.0e-3 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// For [N, C] inputs the parameters broadcast as they are.
// CHECK-DAG: #[[$CH:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @batch_norm_2d
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$CH]], #[[$CH]], #[[$CH]], #[[$CH]], #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK: math.rsqrt %
func.func @batch_norm_2d(%x: tensor<8x3xf32>, %c: tensor<3xf32>) -> tensor<8x3xf32> {
  %0 = graph.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-5 : f32} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

// reduce_min starts from +inf (floats) or the largest integer and uses the
// NaN-propagating minimum; reduce_prod starts from 1.
// CHECK-LABEL: func.func @reduce_min_prod
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[INF]] : f32) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} {{.*}} outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.minimumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: %[[IMAX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: linalg.fill ins(%[[IMAX]] : i64)
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i64
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ONE]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-NEXT: ^bb0(%[[PV:.*]]: f32, %[[PACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[PACC]], %[[PV]] : f32
// CHECK-NEXT: linalg.yield %[[P]] : f32
// CHECK: %[[IONE:.*]] = arith.constant 1 : i32
// CHECK: linalg.fill ins(%[[IONE]] : i32)
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
func.func @reduce_min_prod(%x: tensor<2x3x4xf32>, %i: tensor<5x2xi64>, %j: tensor<3x2xi32>) -> (tensor<2x1xf32>, tensor<i64>, tensor<3xf32>, tensor<3xi32>) {
  %0 = graph.reduce_min %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %1 = graph.reduce_min %0 {axes = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %2 = graph.reduce_min %i {axes = array<i64: 0, 1>, keepdims = false} : (tensor<5x2xi64>) -> tensor<i64>
  %3 = graph.reduce_prod %x {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %4 = graph.reduce_prod %j {axes = array<i64: 1>, keepdims = false} : (tensor<3x2xi32>) -> tensor<3xi32>
  return %1, %2, %3, %4 : tensor<2x1xf32>, tensor<i64>, tensor<3xf32>, tensor<3xi32>
}

// -----

// argmax: one reduction generic over the axis (innermost loop) carrying the
// best value (from -inf) and its index (from 0). Floats: a strictly greater
// element, or a NaN replacing a number, takes over (first index wins).
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[VINIT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[IINIT:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%{{.*}} : tensor<3xi64>)
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]], #[[$OUT]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<3x4xf32>) outs(%[[VINIT]], %[[IINIT]] : tensor<3xf32>, tensor<3xi64>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32, %[[IDX:.*]]: i64):
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[ACC]] : f32
// CHECK-NEXT: %[[VNAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK-NEXT: %[[ANUM:.*]] = arith.cmpf ord, %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT: %[[NANW:.*]] = arith.andi %[[VNAN]], %[[ANUM]] : i1
// CHECK-NEXT: %[[TAKE:.*]] = arith.ori %[[NANW]], %[[GT]] : i1
// CHECK-NEXT: %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[NV:.*]] = arith.select %[[TAKE]], %[[V]], %[[ACC]] : f32
// CHECK-NEXT: %[[NI:.*]] = arith.select %[[TAKE]], %[[I64]], %[[IDX]] : i64
// CHECK-NEXT: linalg.yield %[[NV]], %[[NI]] : f32, i64
// CHECK: return %[[R]]#1
func.func @argmax(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  %0 = graph.argmax %x {axis = 1 : i64, keepdims = false, select_last_index = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// argmin with select_last_index on integers: from the largest value, an
// element at most the accumulator takes over; keepdims keeps a size-1 loop.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @argmin_last
// CHECK: %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK: linalg.fill ins(%[[MAX]] : i32) outs(%{{.*}} : tensor<1x4xi32>)
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT: ^bb0(%[[V:.*]]: i32, %[[ACC:.*]]: i32, %{{.*}}: i64):
// CHECK-NEXT: %[[LE:.*]] = arith.cmpi sle, %[[V]], %[[ACC]] : i32
// CHECK-NEXT: linalg.index 2 : index
func.func @argmin_last(%x: tensor<3x4xi32>) -> tensor<1x4xi64> {
  %0 = graph.argmin %x {axis = 0 : i64, keepdims = true, select_last_index = true} : (tensor<3x4xi32>) -> tensor<1x4xi64>
  return %0 : tensor<1x4xi64>
}

// -----

// cumsum: the result's loops, then j along the axis as a reduction loop;
// in[.., j] is added when j <= i (reverse exclusive: j > i).
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<3x4xf32>) outs(%[[INIT]] : tensor<3x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[SEL:.*]] = arith.cmpi sle, %[[J]], %[[I]] : index
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[SEL]], %[[SUM]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
func.func @cumsum(%x: tensor<3x4xf32>, %i: tensor<5xi64>) -> (tensor<3x4xf32>, tensor<5xi64>) {
  %0 = graph.cumsum %x {axis = 1 : i64, exclusive = false, reverse = false} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = graph.cumsum %i {axis = 0 : i64, exclusive = true, reverse = true} : (tensor<5xi64>) -> tensor<5xi64>
  return %0, %1 : tensor<3x4xf32>, tensor<5xi64>
}
