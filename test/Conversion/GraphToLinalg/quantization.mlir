// RUN: mlc-opt %s --split-input-file --convert-graph-to-linalg | FileCheck %s

// uint8: the signature and the generic are signless; the zero point is
// zero-extended, the sum clamped to [0, 255] after round-half-even.
// CHECK-LABEL: func.func @quantize_u8
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>) -> tensor<4xi8>
// CHECK: %[[Z:.*]] = arith.constant dense<-128> : tensor<i8>
// CHECK: linalg.generic {{.*}} ins(%[[X]], %{{.*}}, %[[Z]] : tensor<4xf32>, tensor<f32>, tensor<i8>) outs(%{{.*}} : tensor<4xi8>)
// CHECK: ^bb0(%[[V:.*]]: f32, %[[S:.*]]: f32, %[[ZP:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[D:.*]] = arith.divf %[[V]], %[[S]] : f32
// CHECK: %[[R:.*]] = math.roundeven %[[D]] : f32
// CHECK: arith.cmpf uno, %[[R]], %[[R]]
// CHECK: arith.extui %[[ZP]] : i8 to i32
// CHECK: arith.maximumf %{{.*}}, %{{.*}}
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minimumf
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK-NOT: unrealized_conversion_cast
// CHECK-NOT: ui8
func.func @quantize_u8(%x: tensor<4xf32>) -> tensor<4xui8> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<128> : tensor<ui8>
  %0 = graph.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// int8 with a per-axis zero point: sign extension, clamp to [-128, 127].
// CHECK-LABEL: func.func @quantize_i8_axis
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.constant -1.280000e+02 : f32
// CHECK: arith.constant 1.270000e+02 : f32
func.func @quantize_i8_axis(%x: tensor<2x3xf32>, %s: tensor<1x3xf32>, %z: tensor<1x3xi8>) -> tensor<2x3xi8> {
  %0 = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

// Dequantize a uint8 input: both zero-extended, subtracted in i32.
// CHECK-LABEL: func.func @dequantize_u8
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>, %[[S:.*]]: tensor<f32>, %[[Z:.*]]: tensor<i8>) -> tensor<4xf32>
// CHECK: ^bb0(%[[V:.*]]: i8, %[[SC:.*]]: f32, %[[ZP:.*]]: i8, %{{.*}}: f32):
// CHECK-DAG: %[[A:.*]] = arith.extui %[[V]] : i8 to i32
// CHECK-DAG: %[[B:.*]] = arith.extui %[[ZP]] : i8 to i32
// CHECK: %[[D:.*]] = arith.subi %[[A]], %[[B]] : i32
// CHECK: %[[F:.*]] = arith.sitofp %[[D]] : i32 to f32
// CHECK: arith.mulf %[[F]], %[[SC]] : f32
func.func @dequantize_u8(%x: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4xf32> {
  %0 = graph.dequantize %x, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An int32 input (a quantized bias) is used as is.
// CHECK-LABEL: func.func @dequantize_i32
// CHECK: ^bb0(%[[V:.*]]: i32, %[[SC:.*]]: f32, %[[ZP:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT: arith.subi %[[V]], %[[ZP]] : i32
func.func @dequantize_i32(%x: tensor<4xi32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<4xf32> {
  %0 = graph.dequantize %x, %s, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Casts: ui8 -> f32 zero-extends; f32 -> ui8 goes through i32; reshapes and
// transposes of ui8 values become i8 ones.
// CHECK-LABEL: func.func @u8_casts
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<2x3xi8>, tensor<3x2xi8>, tensor<6xi8>)
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3xi8>) outs(%{{.*}} : tensor<3x2xi8>)
// CHECK: tensor.collapse_shape %{{.*}} : tensor<2x3xi8> into tensor<6xi8>
// CHECK-NOT: ui8
func.func @u8_casts(%u: tensor<2x3xui8>, %x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xui8>, tensor<3x2xui8>, tensor<6xui8>) {
  %0 = graph.cast %u {to = f32} : (tensor<2x3xui8>) -> tensor<2x3xf32>
  %1 = graph.cast %x {to = ui8} : (tensor<2x3xf32>) -> tensor<2x3xui8>
  %2 = graph.transpose %u {perm = array<i64: 1, 0>} : (tensor<2x3xui8>) -> tensor<3x2xui8>
  %3 = graph.reshape %u {shape = array<i64: 6>} : (tensor<2x3xui8>) -> tensor<6xui8>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xui8>, tensor<3x2xui8>, tensor<6xui8>
}

// -----

// fake_quantize: quantize's rounding and clamp, then (v - zp) * s in float.
// CHECK-LABEL: func.func @fake_quantize_u8
// CHECK: linalg.generic
// CHECK: ^bb0(%[[V:.*]]: f32, %[[S:.*]]: f32, %[[ZP:.*]]: i8, %{{.*}}: f32):
// CHECK: %[[D:.*]] = arith.divf %[[V]], %[[S]] : f32
// CHECK: math.roundeven %[[D]] : f32
// CHECK: arith.extui %[[ZP]] : i8 to i32
// CHECK: %[[LO:.*]] = arith.maximumf
// CHECK: %[[HI:.*]] = arith.minimumf
// CHECK: %[[Z:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK: %[[C:.*]] = arith.subf %[[HI]], %[[Z]] : f32
// CHECK: %[[R:.*]] = arith.mulf %[[C]], %[[S]] : f32
// CHECK: linalg.yield %[[R]] : f32
func.func @fake_quantize_u8(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<128> : tensor<ui8>
  %0 = graph.fake_quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
