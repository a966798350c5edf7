// RUN: mlc-opt %s --split-input-file --graph-fuse-fake-quant | FileCheck %s

// A pair with the same parameters (equal constants count) becomes one op.
// CHECK-LABEL: func.func @pair
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[S:.*]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[Z:.*]] = graph.constant dense<7> : tensor<ui8>
// CHECK: %[[F:.*]] = graph.fake_quantize %[[X]], %[[S]], %[[Z]] : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
// CHECK-NOT: graph.quantize
// CHECK-NOT: graph.dequantize
// CHECK: return %[[F]]
func.func @pair(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<7> : tensor<ui8>
  %s2 = graph.constant dense<0.5> : tensor<f32>
  %z2 = graph.constant dense<7> : tensor<ui8>
  %q = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  %d = graph.dequantize %q, %s2, %z2 : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// The quantize stays for its other user; different parameters, or a
// dequantize of something else, stay as they are.
// CHECK-LABEL: func.func @partial
// CHECK: %[[Q:.*]] = graph.quantize
// CHECK: %[[F:.*]] = graph.fake_quantize
// CHECK: %[[D:.*]] = graph.dequantize %[[Q]], %{{.*}}, %{{.*}} : (tensor<4xi8>, tensor<f32>, tensor<i8>)
// CHECK: graph.dequantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi8>, tensor<f32>, tensor<i8>)
// CHECK: return %[[Q]], %[[F]], %[[D]]
func.func @partial(%x: tensor<4xf32>, %y: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %s2 = graph.constant dense<0.25> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %q = graph.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  %d = graph.dequantize %q, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  %e = graph.dequantize %q, %s2, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  %f = graph.dequantize %y, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %q, %d, %e, %f : tensor<4xi8>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
