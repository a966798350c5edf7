// Graph tensors of f64, f16, bf16, i16 and i8 (besides f32, i64, i32, i1):
// float ops take every float type, numeric ops every number type, cast goes
// between any two.
// RUN: mlc-opt %s | mlc-opt | FileCheck %s

// CHECK-LABEL: func.func @floats
func.func @floats(%d: tensor<2x3xf64>, %h: tensor<3xf16>, %b: tensor<2x3xbf16>)
    -> (tensor<2x3xf64>, tensor<3xf16>, tensor<2x3xbf16>, tensor<2xf64>, tensor<2x2xf64>, tensor<2x3xi1>) {
  // CHECK: graph.exp %{{.*}} : tensor<2x3xf64>
  %0 = graph.exp %d : tensor<2x3xf64>
  // CHECK: graph.pow %{{.*}}, %{{.*}} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = graph.pow %0, %d : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  // CHECK: graph.tanh %{{.*}} : tensor<3xf16>
  %2 = graph.tanh %h : tensor<3xf16>
  // CHECK: graph.gelu %{{.*}} : tensor<2x3xbf16>
  %3 = graph.gelu %b : tensor<2x3xbf16>
  // CHECK: graph.reduce_mean %{{.*}} {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf64>) -> tensor<2xf64>
  %4 = graph.reduce_mean %1 {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf64>) -> tensor<2xf64>
  %t = graph.transpose %d {perm = array<i64: 1, 0>} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  %5 = graph.matmul %d, %t : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  // CHECK: graph.compare lt, %{{.*}}, %{{.*}} : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  %6 = graph.compare lt, %b, %3 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  return %1, %2, %3, %4, %5, %6 : tensor<2x3xf64>, tensor<3xf16>, tensor<2x3xbf16>, tensor<2xf64>, tensor<2x2xf64>, tensor<2x3xi1>
}

// CHECK-LABEL: func.func @integers
func.func @integers(%a: tensor<4xi8>, %b: tensor<2x4xi16>) -> (tensor<4xi8>, tensor<2x4xi16>, tensor<2xi16>, tensor<6xi8>) {
  // CHECK: graph.constant dense<[-128, 127, 0, 1]> : tensor<4xi8>
  %c = graph.constant dense<[-128, 127, 0, 1]> : tensor<4xi8>
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %0 = graph.add %a, %c : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  // CHECK: graph.max %{{.*}}, %{{.*}} : (tensor<2x4xi16>, tensor<4xi16>) -> tensor<2x4xi16>
  %w = graph.cast %a {to = i16} : (tensor<4xi8>) -> tensor<4xi16>
  %1 = graph.max %b, %w : (tensor<2x4xi16>, tensor<4xi16>) -> tensor<2x4xi16>
  // CHECK: graph.reduce_max %{{.*}} {axes = array<i64: 1>, keepdims = false} : (tensor<2x4xi16>) -> tensor<2xi16>
  %2 = graph.reduce_max %1 {axes = array<i64: 1>, keepdims = false} : (tensor<2x4xi16>) -> tensor<2xi16>
  // CHECK: graph.pad %{{.*}} {pads = array<i64: 1, 1>, value = -1.280000e+02 : f64} : (tensor<4xi8>) -> tensor<6xi8>
  %3 = graph.pad %0 {pads = array<i64: 1, 1>, value = -128.0 : f64} : (tensor<4xi8>) -> tensor<6xi8>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<2x4xi16>, tensor<2xi16>, tensor<6xi8>
}

// CHECK-LABEL: func.func @casts
func.func @casts(%x: tensor<2xf64>) -> (tensor<2xbf16>, tensor<2xi8>, tensor<2xf16>, tensor<2xi1>) {
  // CHECK: graph.cast %{{.*}} {to = bf16} : (tensor<2xf64>) -> tensor<2xbf16>
  %0 = graph.cast %x {to = bf16} : (tensor<2xf64>) -> tensor<2xbf16>
  // CHECK: graph.cast %{{.*}} {to = i8} : (tensor<2xbf16>) -> tensor<2xi8>
  %1 = graph.cast %0 {to = i8} : (tensor<2xbf16>) -> tensor<2xi8>
  // CHECK: graph.cast %{{.*}} {to = f16} : (tensor<2xi8>) -> tensor<2xf16>
  %2 = graph.cast %1 {to = f16} : (tensor<2xi8>) -> tensor<2xf16>
  // CHECK: graph.cast %{{.*}} {to = i1} : (tensor<2xf16>) -> tensor<2xi1>
  %3 = graph.cast %2 {to = i1} : (tensor<2xf16>) -> tensor<2xi1>
  return %0, %1, %2, %3 : tensor<2xbf16>, tensor<2xi8>, tensor<2xf16>, tensor<2xi1>
}
