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
