// Constants become arith.constant (keeping dense_resource blobs), reshape /
// slice / concat / pad become tensor ops, transpose becomes linalg.transpose
// and gather a linalg.generic that extracts from the data tensor.
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @constant
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense_resource<blob> : tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-NEXT: %[[D:.*]] = arith.constant dense<-3> : tensor<i64>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %[[D]]
// The blob itself is kept.
// CHECK: dialect_resources
// CHECK: blob: "0x040000000000803F000000400000404000008040"
func.func @constant() -> (tensor<2xf32>, tensor<4xf32>, tensor<3xi1>, tensor<i64>) {
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = graph.constant dense_resource<blob> : tensor<4xf32>
  %2 = graph.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = graph.constant dense<-3> : tensor<i64>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<4xf32>, tensor<3xi1>, tensor<i64>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Reshape collapses to 1-d, then expands to the target shape; 0-d tensors
// use empty reassociations, and a no-op reshape disappears.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[S:.*]]: tensor<f32>, %[[O:.*]]: tensor<1x1xf32>, %[[B:.*]]: tensor<6xi1>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT: %[[R0:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
// CHECK-NEXT: %[[S1:.*]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.expand_shape %[[S1]] {{\[}}[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
// CHECK-NEXT: %[[O1:.*]] = tensor.collapse_shape %[[O]] {{\[}}[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
// CHECK-NEXT: %[[R2:.*]] = tensor.collapse_shape %[[O1]] [] : tensor<1xf32> into tensor<f32>
// CHECK-NEXT: %[[R3:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xi1> into tensor<2x3xi1>
// CHECK-NEXT: %[[R4:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT: %[[R6:.*]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[X]], %[[R6]]
func.func @reshape(%x: tensor<2x3x4xf32>, %s: tensor<f32>, %o: tensor<1x1xf32>, %b: tensor<6xi1>) -> (tensor<6x4xf32>, tensor<1x1xf32>, tensor<f32>, tensor<2x3xi1>, tensor<24xf32>, tensor<2x3x4xf32>, tensor<1xf32>) {
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = graph.reshape %s {shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
  %2 = graph.reshape %o {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
  %3 = graph.reshape %b {shape = array<i64: 2, 3>} : (tensor<6xi1>) -> tensor<2x3xi1>
  %4 = graph.reshape %x {shape = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %5 = graph.reshape %x {shape = array<i64: 2, 3, 4>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %6 = graph.reshape %s {shape = array<i64: 1>} : (tensor<f32>) -> tensor<1xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<6x4xf32>, tensor<1x1xf32>, tensor<f32>, tensor<2x3xi1>, tensor<24xf32>, tensor<2x3x4xf32>, tensor<1xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<5x7xi64>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<7x5xi64>
// CHECK-NEXT: %[[T2:.*]] = linalg.transpose ins(%[[I]] : tensor<5x7xi64>) outs(%[[E2]] : tensor<7x5xi64>) permutation = [1, 0]
// CHECK: return %[[T]], %[[T2]]
func.func @transpose(%x: tensor<2x3x4xf32>, %i: tensor<5x7xi64>) -> (tensor<4x2x3xf32>, tensor<7x5xi64>) {
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = graph.transpose %i {perm = array<i64: 1, 0>} : (tensor<5x7xi64>) -> tensor<7x5xi64>
  return %0, %1 : tensor<4x2x3xf32>, tensor<7x5xi64>
}

// -----

// Each input is inserted at its running offset along the axis.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x11xf32>
// CHECK-NEXT: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x11xf32>
// CHECK-NEXT: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][0, 3] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x11xf32>
// CHECK-NEXT: %[[I2:.*]] = tensor.insert_slice %[[A]] into %[[I1]][0, 8] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x11xf32>
// CHECK-NEXT: return %[[I2]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x11xf32> {
  %0 = graph.concat %a, %b, %a {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  return %0 : tensor<2x11xf32>
}

// -----

// CHECK-LABEL: func.func @concat_axis0_i32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<5xi32>
// CHECK-NEXT: %[[I0:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0] [4] [1] : tensor<4xi32> into tensor<5xi32>
// CHECK-NEXT: tensor.insert_slice %{{.*}} into %[[I0]][4] [1] [1] : tensor<1xi32> into tensor<5xi32>
func.func @concat_axis0_i32(%a: tensor<4xi32>, %b: tensor<1xi32>) -> tensor<5xi32> {
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<4xi32>, tensor<1xi32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

// Slice offsets are the starts, sizes the result shape, strides the steps.
// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<10x8xf32>)
// CHECK-NEXT: %[[S0:.*]] = tensor.extract_slice %[[X]][2, 0] [3, 8] [1, 1] : tensor<10x8xf32> to tensor<3x8xf32>
// CHECK-NEXT: %[[S1:.*]] = tensor.extract_slice %[[X]][0, 1] [4, 2] [3, 4] : tensor<10x8xf32> to tensor<4x2xf32>
// CHECK-NEXT: return %[[S0]], %[[S1]]
func.func @slice(%x: tensor<10x8xf32>) -> (tensor<3x8xf32>, tensor<4x2xf32>) {
  %0 = graph.slice %x {starts = array<i64: 2, 0>, ends = array<i64: 5, 8>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<3x8xf32>
  %1 = graph.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 10, 7>, steps = array<i64: 3, 4>} : (tensor<10x8xf32>) -> tensor<4x2xf32>
  return %0, %1 : tensor<3x8xf32>, tensor<4x2xf32>
}

// -----

// out[i, j, k, l] = data[i, clamp(wrap(indices[j, k])), l]: loops over the
// result, the indices are read through the map, the data with tensor.extract.
// CHECK-DAG: #[[$IDX:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[DATA:.*]]: tensor<5x4x3xf32>, %[[IDX:.*]]: tensor<2x6xi64>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<5x2x6x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$IDX]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[IDX]] : tensor<2x6xi64>) outs(%[[E]] : tensor<5x2x6x3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %[[C0]] : index
// CHECK-NEXT: %[[SIZE:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[PLUS:.*]] = arith.addi %[[I]], %[[SIZE]] : index
// CHECK-NEXT: %[[WRAPPED:.*]] = arith.select %[[NEG]], %[[PLUS]], %[[I]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[WRAPPED]], %[[C0B]] : index
// CHECK-NEXT: %[[CL:.*]] = arith.minsi %[[LO]], %[[LAST]] : index
// CHECK-NEXT: %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[D3:.*]] = linalg.index 3 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[DATA]][%[[D0]], %[[CL]], %[[D3]]] : tensor<5x4x3xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: return %[[R]]
func.func @gather(%data: tensor<5x4x3xf32>, %idx: tensor<2x6xi64>) -> tensor<5x2x6x3xf32> {
  %0 = graph.gather %data, %idx {axis = 1 : i64} : (tensor<5x4x3xf32>, tensor<2x6xi64>) -> tensor<5x2x6x3xf32>
  return %0 : tensor<5x2x6x3xf32>
}

// -----

// A 0-d i32 index along axis 0 removes that axis.
// CHECK-DAG: #[[$IDX:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @gather_scalar_index
// CHECK-SAME: (%[[DATA:.*]]: tensor<5x4xi1>, %[[IDX:.*]]: tensor<i32>)
// CHECK: linalg.generic {indexing_maps = [#[[$IDX]], #[[$ID]]], iterator_types = ["parallel"]} ins(%[[IDX]] : tensor<i32>) outs(%{{.*}} : tensor<4xi1>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %{{.*}}: i1):
// CHECK-NEXT: arith.index_cast %[[IN]] : i32 to index
// CHECK: arith.constant 5 : index
// CHECK: arith.constant 4 : index
// CHECK: %[[CL:.*]] = arith.minsi
// CHECK-NEXT: %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[DATA]][%[[CL]], %[[D0]]] : tensor<5x4xi1>
// CHECK-NEXT: linalg.yield %[[V]] : i1
func.func @gather_scalar_index(%data: tensor<5x4xi1>, %idx: tensor<i32>) -> tensor<4xi1> {
  %0 = graph.gather %data, %idx {axis = 0 : i64} : (tensor<5x4xi1>, tensor<i32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// pads = [leading..., trailing...]; the padded tensor is a fill of the value
// (converted to the element type) with the input inserted at the leading
// pads. Zero pads are a no-op.
// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi64>, %[[B:.*]]: tensor<3xi1>)
// CHECK: %[[V:.*]] = arith.constant -1.500000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<5x4xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<5x4xf32>) -> tensor<5x4xf32>
// CHECK-NEXT: %[[P0:.*]] = tensor.insert_slice %[[X]] into %[[F]][1, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<5x4xf32>
// CHECK: %[[IV:.*]] = arith.constant 7 : i64
// CHECK-NEXT: %[[IE:.*]] = tensor.empty() : tensor<7xi64>
// CHECK-NEXT: %[[IF:.*]] = linalg.fill ins(%[[IV]] : i64) outs(%[[IE]] : tensor<7xi64>)
// CHECK-NEXT: %[[P1:.*]] = tensor.insert_slice %[[I]] into %[[IF]][3] [4] [1] : tensor<4xi64> into tensor<7xi64>
// CHECK: %[[BV:.*]] = arith.constant true
// CHECK-NEXT: %[[BE:.*]] = tensor.empty() : tensor<5xi1>
// CHECK-NEXT: %[[BF:.*]] = linalg.fill ins(%[[BV]] : i1) outs(%[[BE]] : tensor<5xi1>)
// CHECK-NEXT: %[[P3:.*]] = tensor.insert_slice %[[B]] into %[[BF]][1] [3] [1] : tensor<3xi1> into tensor<5xi1>
// CHECK: return %[[P0]], %[[P1]], %[[I]], %[[P3]]
func.func @pad(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %b: tensor<3xi1>) -> (tensor<5x4xf32>, tensor<7xi64>, tensor<4xi64>, tensor<5xi1>) {
  %0 = graph.pad %x {pads = array<i64: 1, 0, 2, 1>, value = -1.5 : f64} : (tensor<2x3xf32>) -> tensor<5x4xf32>
  %1 = graph.pad %i {pads = array<i64: 3, 0>, value = 7.0 : f64} : (tensor<4xi64>) -> tensor<7xi64>
  %2 = graph.pad %i {pads = array<i64: 0, 0>, value = 0.0 : f64} : (tensor<4xi64>) -> tensor<4xi64>
  %3 = graph.pad %b {pads = array<i64: 1, 1>, value = 1.0 : f64} : (tensor<3xi1>) -> tensor<5xi1>
  return %0, %1, %2, %3 : tensor<5x4xf32>, tensor<7xi64>, tensor<4xi64>, tensor<5xi1>
}

// -----

// gather_elements: a generic over the indices' shape; the axis coordinate
// is the wrapped and clamped index, the others are the loop indices.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[DATA:.*]]: tensor<3x4xf32>, %[[IDX:.*]]: tensor<2x4xi32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[IDX]] : tensor<2x4xi32>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK: %[[SIZE:.*]] = arith.constant 3 : index
// CHECK: %[[LAST:.*]] = arith.constant 2 : index
// CHECK: %[[CL:.*]] = arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[DATA]][%[[CL]], %[[J]]] : tensor<3x4xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: return %[[R]]
func.func @gather_elements(%d: tensor<3x4xf32>, %i: tensor<2x4xi32>) -> tensor<2x4xf32> {
  %0 = graph.gather_elements %d, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2x4xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// broadcast_to: a copy through a broadcasting map (no data is duplicated
// before the consumer reads it).
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_to
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<3x1xi64>) outs(%{{.*}} : tensor<2x3x5xi64>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: linalg.yield %[[X]] : i64
func.func @broadcast_to(%x: tensor<3x1xi64>) -> tensor<2x3x5xi64> {
  %0 = graph.broadcast_to %x {shape = array<i64: 2, 1, 5>} : (tensor<3x1xi64>) -> tensor<2x3x5xi64>
  return %0 : tensor<2x3x5xi64>
}
