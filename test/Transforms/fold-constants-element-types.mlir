// The reference evaluator implements f32, i64, i32, i8, ui8 and i1 only:
// graph ops on f64, f16, bf16 or i16 constants are left alone (never folded
// wrongly, never a crash); casts into or out of those types too. A cast to
// i8 folds to the low bits, as the kernel computes it.
// RUN: mlc-opt %s --graph-fold-constants --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @f64_add
// CHECK: graph.add
func.func @f64_add() -> tensor<2xf64> {
  %a = graph.constant dense<[1.5, 2.0]> : tensor<2xf64>
  %0 = graph.add %a, %a : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: graph.cast %{{.*}} {to = f16}
// CHECK: graph.cast %{{.*}} {to = f32}
// CHECK: graph.constant dense<[44, -1]> : tensor<2xi8>
func.func @casts() -> (tensor<2xf16>, tensor<2xf32>, tensor<2xi8>) {
  %a = graph.constant dense<[1.5, 2.0]> : tensor<2xf32>
  %0 = graph.cast %a {to = f16} : (tensor<2xf32>) -> tensor<2xf16>
  %b = graph.constant dense<[1.5, 2.0]> : tensor<2xbf16>
  %1 = graph.cast %b {to = f32} : (tensor<2xbf16>) -> tensor<2xf32>
  %c = graph.constant dense<[300, -1]> : tensor<2xi32>
  %2 = graph.cast %c {to = i8} : (tensor<2xi32>) -> tensor<2xi8>
  return %0, %1, %2 : tensor<2xf16>, tensor<2xf32>, tensor<2xi8>
}

// -----

// CHECK-LABEL: func.func @i16_reduce
// CHECK: graph.reduce_max
func.func @i16_reduce() -> tensor<i16> {
  %a = graph.constant dense<[-7, 9, 3]> : tensor<3xi16>
  %0 = graph.reduce_max %a {axes = array<i64: 0>, keepdims = false} : (tensor<3xi16>) -> tensor<i16>
  return %0 : tensor<i16>
}

// -----

// Unsigned arithmetic is left to the kernels: ui8 (the evaluator's only
// unsigned kind) does not fold through add, div, max or compare, and wider
// unsigned constants are not decoded at all.
// CHECK-LABEL: func.func @unsigned
// CHECK: graph.add
// CHECK: graph.div
// CHECK: graph.max
// CHECK: graph.compare
// CHECK: graph.shift_right
func.func @unsigned() -> (tensor<2xui8>, tensor<2xui8>, tensor<2xui8>, tensor<2xi1>, tensor<2xui32>) {
  %a = graph.constant dense<[200, 7]> : tensor<2xui8>
  %b = graph.constant dense<[100, 2]> : tensor<2xui8>
  %0 = graph.add %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %1 = graph.div %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %2 = graph.max %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %3 = graph.compare lt, %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %c = graph.constant dense<[4000000000, 8]> : tensor<2xui32>
  %d = graph.constant dense<[1, 2]> : tensor<2xui32>
  %4 = graph.shift_right %c, %d : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  return %0, %1, %2, %3, %4 : tensor<2xui8>, tensor<2xui8>, tensor<2xui8>, tensor<2xi1>, tensor<2xui32>
}
