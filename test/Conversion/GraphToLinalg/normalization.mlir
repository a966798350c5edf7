// Reductions are one linalg.generic with the kept dims as the outer
// parallel loops and the reduced dims innermost; kept dims of size 1 come
// back through collapse/expand_shape. Softmax and the norms are composed of
// reductions and broadcasting elementwise generics.
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @reduce_sum_keepdims
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<2xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[KEPT:.*]] = tensor.expand_shape %[[SUM]] {{\[}}[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
// CHECK: return %[[KEPT]]
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
// CHECK-DAG: #[[$IN1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$ALL1:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[E]] : tensor<f32>)
// CHECK: %[[MAXF:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$ALL]]], iterator_types = ["reduction", "reduction", "reduction"]} {{.*}} outs(%[[INIT]] : tensor<f32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: %[[IMIN:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[IE:.*]] = tensor.empty() : tensor<i32>
// CHECK: %[[IINIT:.*]] = linalg.fill ins(%[[IMIN]] : i32) outs(%[[IE]] : tensor<i32>)
// CHECK: %[[MAXI:.*]] = linalg.generic {indexing_maps = [#[[$IN1]], #[[$ALL1]]], iterator_types = ["reduction"]} {{.*}} outs(%[[IINIT]] : tensor<i32>)
// CHECK-NEXT: ^bb0(%[[IV:.*]]: i32, %[[IACC:.*]]: i32):
// CHECK-NEXT: %[[IM:.*]] = arith.maxsi %[[IACC]], %[[IV]] : i32
// CHECK-NEXT: linalg.yield %[[IM]] : i32
// keepdims on a 0-d result: expand_shape with no reassociation.
// CHECK: %[[KEPT:.*]] = tensor.expand_shape %[[MAXI]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
// CHECK: return %[[MAXF]], %[[KEPT]]
func.func @reduce_max(%x: tensor<2x3x4xf32>, %j: tensor<5xi32>) -> (tensor<f32>, tensor<1xi32>) {
  %0 = graph.reduce_max %x {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = graph.reduce_max %j {axes = array<i64: 0>, keepdims = true} : (tensor<5xi32>) -> tensor<1xi32>
  return %0, %1 : tensor<f32>, tensor<1xi32>
}

// -----

// CHECK-LABEL: func.func @reduce_sum_i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: linalg.fill ins(%[[ZERO]] : i64)
// CHECK: linalg.generic
// CHECK: arith.addi %
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<2x3xi64> into tensor<6xi64>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [2, 1, 3] : tensor<6xi64> into tensor<2x1x3xi64>
func.func @reduce_sum_i64(%x: tensor<2x4x3xi64>) -> tensor<2x1x3xi64> {
  %0 = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x4x3xi64>) -> tensor<2x1x3xi64>
  return %0 : tensor<2x1x3xi64>
}

// -----

// softmax = exp(x - max) / sum(exp(x - max)), along axis 1.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$BCAST:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x3xf32>)
// CHECK: arith.maximumf %
// CHECK: %[[MAXK:.*]] = tensor.expand_shape %[[MAX]] {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
// CHECK: %[[SHIFTED:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAXK]] : tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK: arith.subf %
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[SHIFTED]] : tensor<2x3xf32>)
// CHECK: math.exp %
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<2x3xf32>)
// CHECK: arith.addf %
// CHECK: %[[SUMK:.*]] = tensor.expand_shape %[[SUM]]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[EXP]], %[[SUMK]] : tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK-NEXT: ^bb0(%[[E:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[E]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[D]] : f32
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// log_softmax = (x - max) - log(sum(exp(x - max))), here along axis 0.
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$RED:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$BCAST:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[$COL]], #[[$RED]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf %
// CHECK: tensor.expand_shape %[[MAX]] {{\[}}[0, 1]] output_shape [1, 3] : tensor<3xf32> into tensor<1x3xf32>
// CHECK: %[[SHIFTED:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]]
// CHECK: arith.subf %
// CHECK: math.exp %
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$COL]], #[[$RED]]], iterator_types = ["parallel", "reduction"]}
// CHECK: %[[SUMK:.*]] = tensor.expand_shape %[[SUM]]
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[SHIFTED]], %[[SUMK]] : tensor<2x3xf32>, tensor<1x3xf32>)
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
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$RED:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$STAT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG: #[[$PARAM:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[SCALE:.*]]: tensor<4xf32>, %[[BIAS:.*]]: tensor<4xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$RED]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x3x4xf32>)
// CHECK: arith.addf %
// CHECK: tensor.collapse_shape %[[SUM]]
// CHECK: %[[SUMK:.*]] = tensor.expand_shape {{.*}} output_shape [2, 3, 1]
// CHECK: %[[N:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUMK]] : tensor<2x3x1xf32>)
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK: %[[CENTERED:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$STAT]], #[[$ID]]], {{.*}} ins(%[[X]], %[[MEAN]] : tensor<2x3x4xf32>, tensor<2x3x1xf32>)
// CHECK: arith.subf %
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} ins(%[[CENTERED]] : tensor<2x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.mulf %[[C]], %[[C]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$RED]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[SQ]] : tensor<2x3x4xf32>)
// CHECK: %[[VAR:.*]] = linalg.generic
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

// Normalizing over the last two dims divides by 3 * 4.
// CHECK-DAG: #[[$RED:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG: #[[$PARAM:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @layer_norm_two_dims
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$RED]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK: arith.constant 1.200000e+01 : f32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[$PARAM]], #[[$PARAM]], #{{.*}}]
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
