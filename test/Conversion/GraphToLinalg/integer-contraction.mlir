// RUN: mlc-opt %s --split-input-file --convert-graph-to-linalg | FileCheck %s

// u8 x s8 with tensor zero points: the lhs one per row, the rhs one per
// column, read through broadcast maps; extensions follow the graph types.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2) -> (d0, 0)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @matmul_u8_s8
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xi8>, %[[B:.*]]: tensor<3x2xi8>, %[[AZ:.*]]: tensor<4x1xi8>, %[[BZ:.*]]: tensor<2xi8>) -> tensor<4x2xi32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : i32)
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[ROW]], #[[COL]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[A]], %[[B]], %[[AZ]], %[[BZ]] : {{.*}}) outs(%[[INIT]] : tensor<4x2xi32>)
// CHECK: ^bb0(%[[X:.*]]: i8, %[[W:.*]]: i8, %[[XZ:.*]]: i8, %[[WZ:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK: %[[X32:.*]] = arith.extui %[[X]] : i8 to i32
// CHECK: %[[XZ32:.*]] = arith.extui %[[XZ]] : i8 to i32
// CHECK: %[[XC:.*]] = arith.subi %[[X32]], %[[XZ32]] : i32
// CHECK: %[[W32:.*]] = arith.extsi %[[W]] : i8 to i32
// CHECK: %[[WZ32:.*]] = arith.extsi %[[WZ]] : i8 to i32
// CHECK: %[[WC:.*]] = arith.subi %[[W32]], %[[WZ32]] : i32
// CHECK: %[[P:.*]] = arith.muli %[[XC]], %[[WC]] : i32
// CHECK: %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK: linalg.yield %[[S]] : i32
func.func @matmul_u8_s8(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %az: tensor<4x1xui8>, %bz: tensor<2xi8>) -> tensor<4x2xi32> {
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<4x1xui8>, tensor<2xi8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// Constant zero points fold into the body: 255 (as ui8) is subtracted as
// an i32 constant, a zero one disappears; batch dims broadcast.
// CHECK-LABEL: func.func @matmul_const_zp
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x4x3xi8>, tensor<3x5xi8>)
// CHECK: ^bb0(%[[X:.*]]: i8, %[[W:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK: %[[X32:.*]] = arith.extui %[[X]] : i8 to i32
// CHECK: %[[C:.*]] = arith.constant 255 : i32
// CHECK: %[[XC:.*]] = arith.subi %[[X32]], %[[C]] : i32
// CHECK: %[[W32:.*]] = arith.extsi %[[W]] : i8 to i32
// CHECK: arith.muli %[[XC]], %[[W32]] : i32
func.func @matmul_const_zp(%a: tensor<2x4x3xui8>, %b: tensor<3x5xi8>) -> tensor<2x4x5xi32> {
  %az = graph.constant dense<255> : tensor<ui8>
  %bz = graph.constant dense<0> : tensor<i8>
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<ui8>, tensor<i8>) -> tensor<2x4x5xi32>
  return %0 : tensor<2x4x5xi32>
}

// -----

// Padding holds the input's zero point (read from its tensor), so padded
// taps contribute (zp - zp) * w = 0; a grouped conv splits the filter and
// its per-channel zero point alike.
// The fill reads the zero point's tensor itself (no scalar extracted
// outside a kernel, which a GPU model's host code could not read).
// CHECK-DAG: #[[PADMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (0)>
// CHECK-DAG: #[[XZMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (0)>
// CHECK-DAG: #[[WZMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, 0, 0, 0)>
// CHECK-LABEL: func.func @conv_grouped
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x5x5xi8>, %[[W:.*]]: tensor<4x2x3x3xi8>, %[[XZ:.*]]: tensor<1xi8>, %[[WZ:.*]]: tensor<4x1x1x1xi8>)
// CHECK-NOT: tensor.extract
// CHECK: %[[FILL:.*]] = linalg.generic {indexing_maps = [#[[PADMAP]], #{{.*}}], {{.*}}} ins(%[[XZ]] : tensor<1xi8>) outs(%{{.*}} : tensor<1x4x7x7xi8>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[X]] into %[[FILL]][0, 0, 1, 1] [1, 4, 5, 5]
// CHECK: %[[WZG:.*]] = tensor.expand_shape %[[WZ]] {{.*}} into tensor<2x2x1x1x1xi8>
// CHECK: %[[ACC:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[XZMAP]], #[[WZMAP]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %[[XZ]], %[[WZG]] : tensor<1x2x2x7x7xi8>, tensor<2x2x2x3x3xi8>, tensor<1xi8>, tensor<2x2x1x1x1xi8>)
// CHECK: arith.extui
// CHECK: arith.extsi
// CHECK: tensor.collapse_shape %[[ACC]] {{.*}} into tensor<1x4x5x5xi32>
func.func @conv_grouped(%x: tensor<1x4x5x5xui8>, %w: tensor<4x2x3x3xi8>, %xz: tensor<1xui8>, %wz: tensor<4x1x1x1xi8>) -> tensor<1x4x5x5xi32> {
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x5x5xui8>, tensor<4x2x3x3xi8>, tensor<1xui8>, tensor<4x1x1x1xi8>) -> tensor<1x4x5x5xi32>
  return %0 : tensor<1x4x5x5xi32>
}

// -----

// A constant input zero point is the padding value itself (-128 as i8);
// depthwise: no channel reduction, the filter's channel read at index 0.
// CHECK-LABEL: func.func @conv_depthwise_const
// CHECK: %[[PADV:.*]] = arith.constant -128 : i8
// CHECK: linalg.fill ins(%[[PADV]] : i8)
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x3x6x6xi8>, tensor<3x1x3x3xi8>)
// CHECK: %[[C:.*]] = arith.constant -128 : i32
// CHECK: arith.subi %{{.*}}, %[[C]] : i32
func.func @conv_depthwise_const(%x: tensor<1x3x4x4xi8>, %w: tensor<3x1x3x3xi8>) -> tensor<1x3x4x4xi32> {
  %xz = graph.constant dense<-128> : tensor<i8>
  %wz = graph.constant dense<0> : tensor<i8>
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 3 : i64} : (tensor<1x3x4x4xi8>, tensor<3x1x3x3xi8>, tensor<i8>, tensor<i8>) -> tensor<1x3x4x4xi32>
  return %0 : tensor<1x3x4x4xi32>
}

// -----

// The blocked form: padded with the input's zero point, loops [n, ob, oh,
// ow, o | cb, kh, kw, c] with the strides in the input's map, the filter
// read [ob, cb, kh, kw, c, o], the int8 filter's zero point 0 (no subi).
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, d2 * 2 + d6, d3 * 2 + d7, d8)>
// CHECK-DAG: #[[WMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8, d4)>
// CHECK-DAG: #[[YMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv_nchwc
// CHECK: %[[ZP:.*]] = arith.constant -3 : i8
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZP]] : i8) outs(%{{.*}} : tensor<1x2x6x6x16xi8>)
// CHECK: %[[PAD:.*]] = tensor.insert_slice %arg0 into %[[FILL]][0, 0, 1, 1, 0] [1, 2, 5, 5, 16]
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], #[[WMAP]], #[[YMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%[[PAD]], %arg1 : tensor<1x2x6x6x16xi8>, tensor<3x2x3x3x16x16xi8>)
// CHECK: %[[X:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[XC:.*]] = arith.subi %[[X]], %{{.*}} : i32
// CHECK: %[[W:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[P:.*]] = arith.muli %[[XC]], %[[W]] : i32
// CHECK: arith.addi %{{.*}}, %[[P]] : i32
func.func @conv_nchwc(%x: tensor<1x2x5x5x16xi8>, %w: tensor<3x2x3x3x16x16xi8>) -> tensor<1x3x2x2x16xi32> {
  %z = graph.constant dense<-3> : tensor<i8>
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x5x5x16xi8>, tensor<3x2x3x3x16x16xi8>, tensor<i8>) -> tensor<1x3x2x2x16xi32>
  return %0 : tensor<1x3x2x2x16xi32>
}

// -----

// The depthwise blocked form: loops [n, ob, oh, ow, o | kh, kw], the input
// read in the output's block and lane, the filter [ob, kh, kw, o].
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 + d5 * 2, d3 * 2 + d6, d4)>
// CHECK-DAG: #[[WMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d6, d4)>
// CHECK-DAG: #[[YMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv_nchwc_depthwise
// CHECK: %[[ZP:.*]] = arith.constant -128 : i8
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZP]] : i8) outs(%{{.*}} : tensor<1x2x9x8x16xi8>)
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %[[FILL]][0, 0, 2, 1, 0] [1, 2, 5, 5, 16]
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], #[[WMAP]], #[[YMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PAD]], %arg1 : tensor<1x2x9x8x16xi8>, tensor<2x3x3x16xi8>)
// CHECK: %[[X:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[XC:.*]] = arith.subi %[[X]], %{{.*}} : i32
// CHECK: %[[W:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[P:.*]] = arith.muli %[[XC]], %[[W]] : i32
// CHECK: arith.addi %{{.*}}, %[[P]] : i32
func.func @conv_nchwc_depthwise(%x: tensor<1x2x5x5x16xui8>, %w: tensor<2x3x3x16xi8>) -> tensor<1x2x5x3x16xi32> {
  %z = graph.constant dense<128> : tensor<ui8>
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 2>, pads = array<i64: 2, 1, 2, 2>, dilations = array<i64: 2, 1>} : (tensor<1x2x5x5x16xui8>, tensor<2x3x3x16xi8>, tensor<ui8>) -> tensor<1x2x5x3x16xi32>
  return %0 : tensor<1x2x5x3x16xi32>
}

// -----

// The grouped blocked form: output block ob reads input block
// (ob floordiv 2) * 3 + cb (2 groups of 2 output and 3 input blocks).
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, (d1 floordiv 2) * 3 + d5, d2 + d6, d3 + d7, d8)>
// CHECK-DAG: #[[WMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8, d4)>
// CHECK-LABEL: func.func @conv_nchwc_grouped
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], #[[WMAP]], #{{.*}}], {{.*}} ins(%arg0, %arg1 : tensor<1x6x4x4x16xi8>, tensor<4x3x1x1x16x16xi8>)
func.func @conv_nchwc_grouped(%x: tensor<1x6x4x4x16xui8>, %w: tensor<4x3x1x1x16x16xi8>) -> tensor<1x4x4x4x16xi32> {
  %z = graph.constant dense<0> : tensor<ui8>
  %0 = graph.conv2d_integer_nchwc %x, %w, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x6x4x4x16xui8>, tensor<4x3x1x1x16x16xi8>, tensor<ui8>) -> tensor<1x4x4x4x16xi32>
  return %0 : tensor<1x4x4x4x16xi32>
}
