// Round trip of every graph op in the custom and the generic syntax. The
// verifier checks each written result type against shape inference, so the
// result types below are the inferred ones.
// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | FileCheck %s

// CHECK-LABEL: func.func @constant
func.func @constant() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<i32>, tensor<2xi1>, tensor<4xf32>) {
  // CHECK: graph.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %0 = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: graph.constant dense<[1, -2, 3]> : tensor<3xi64>
  %1 = graph.constant dense<[1, -2, 3]> : tensor<3xi64>
  // CHECK: graph.constant dense<7> : tensor<i32>
  %2 = graph.constant dense<7> : tensor<i32>
  // CHECK: graph.constant dense<[true, false]> : tensor<2xi1>
  %3 = graph.constant dense<[true, false]> : tensor<2xi1>
  // CHECK: graph.constant dense_resource<blob> : tensor<4xf32>
  %4 = graph.constant dense_resource<blob> : tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<3xi64>, tensor<i32>, tensor<2xi1>, tensor<4xf32>
}

// CHECK-LABEL: func.func @binary_broadcast
func.func @binary_broadcast(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>, %c: tensor<f32>) -> tensor<2x3x4xf32> {
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = graph.add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %1 = graph.sub %0, %c : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = graph.mul %b, %1 : (tensor<3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %3 = graph.div %2, %a : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: graph.pow %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %4 = graph.pow %3, %c : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  // CHECK: graph.max %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %5 = graph.max %4, %3 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: graph.min %{{.*}}, %{{.*}} : (tensor<f32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %6 = graph.min %c, %5 : (tensor<f32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %6 : tensor<2x3x4xf32>
}

// Both operands are broadcast: 4x1 and 1x5 meet at 4x5.
// CHECK-LABEL: func.func @binary_integer
func.func @binary_integer(%a: tensor<4x1xi64>, %b: tensor<1x5xi64>, %c: tensor<3xi32>) -> (tensor<4x5xi64>, tensor<3xi32>) {
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<4x1xi64>, tensor<1x5xi64>) -> tensor<4x5xi64>
  %0 = graph.add %a, %b : (tensor<4x1xi64>, tensor<1x5xi64>) -> tensor<4x5xi64>
  // CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<4x5xi64>, tensor<4x1xi64>) -> tensor<4x5xi64>
  %1 = graph.div %0, %a : (tensor<4x5xi64>, tensor<4x1xi64>) -> tensor<4x5xi64>
  // CHECK: graph.max %{{.*}}, %{{.*}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %2 = graph.max %c, %c : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: graph.min %{{.*}}, %{{.*}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %3 = graph.min %2, %c : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %4 = graph.sub %3, %c : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %5 = graph.mul %4, %c : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %1, %5 : tensor<4x5xi64>, tensor<3xi32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x3xf32>, %i: tensor<5xi64>, %j: tensor<5xi32>) -> (tensor<2x3xf32>, tensor<5xi64>, tensor<5xi32>) {
  // CHECK: %[[NEG:.*]] = graph.neg %{{.*}} : tensor<2x3xf32>
  %0 = graph.neg %x : tensor<2x3xf32>
  // CHECK: %[[ABS:.*]] = graph.abs %[[NEG]] : tensor<2x3xf32>
  %1 = graph.abs %0 : tensor<2x3xf32>
  // CHECK: %[[RELU:.*]] = graph.relu %[[ABS]] : tensor<2x3xf32>
  %2 = graph.relu %1 : tensor<2x3xf32>
  // CHECK: %[[EXP:.*]] = graph.exp %[[RELU]] : tensor<2x3xf32>
  %3 = graph.exp %2 : tensor<2x3xf32>
  // CHECK: %[[LOG:.*]] = graph.log %[[EXP]] : tensor<2x3xf32>
  %4 = graph.log %3 : tensor<2x3xf32>
  // CHECK: %[[SQRT:.*]] = graph.sqrt %[[LOG]] : tensor<2x3xf32>
  %5 = graph.sqrt %4 : tensor<2x3xf32>
  // CHECK: %[[RSQRT:.*]] = graph.rsqrt %[[SQRT]] : tensor<2x3xf32>
  %6 = graph.rsqrt %5 : tensor<2x3xf32>
  // CHECK: %[[TANH:.*]] = graph.tanh %[[RSQRT]] : tensor<2x3xf32>
  %7 = graph.tanh %6 : tensor<2x3xf32>
  // CHECK: %[[SIG:.*]] = graph.sigmoid %[[TANH]] : tensor<2x3xf32>
  %8 = graph.sigmoid %7 : tensor<2x3xf32>
  // CHECK: %[[ERF:.*]] = graph.erf %[[SIG]] : tensor<2x3xf32>
  %9 = graph.erf %8 : tensor<2x3xf32>
  // CHECK: %[[GELU:.*]] = graph.gelu %[[ERF]] : tensor<2x3xf32>
  %10 = graph.gelu %9 : tensor<2x3xf32>
  // CHECK: %[[GELUT:.*]] = graph.gelu %[[GELU]] {tanh_approximation} : tensor<2x3xf32>
  %11 = graph.gelu %10 {tanh_approximation} : tensor<2x3xf32>
  // CHECK: %[[INEG:.*]] = graph.neg %{{.*}} : tensor<5xi64>
  %12 = graph.neg %i : tensor<5xi64>
  // CHECK: %[[IABS:.*]] = graph.abs %[[INEG]] : tensor<5xi64>
  %13 = graph.abs %12 : tensor<5xi64>
  // CHECK: %[[IRELU:.*]] = graph.relu %{{.*}} : tensor<5xi32>
  %14 = graph.relu %j : tensor<5xi32>
  // CHECK: return %[[GELUT]], %[[IABS]], %[[IRELU]] : tensor<2x3xf32>, tensor<5xi64>, tensor<5xi32>
  return %11, %13, %14 : tensor<2x3xf32>, tensor<5xi64>, tensor<5xi32>
}

// CHECK-LABEL: func.func @unary_math
func.func @unary_math(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %j: tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<i64>) {
  // CHECK: %[[SIN:.*]] = graph.sin %{{.*}} : tensor<2x3xf32>
  %0 = graph.sin %x : tensor<2x3xf32>
  // CHECK: %[[COS:.*]] = graph.cos %[[SIN]] : tensor<2x3xf32>
  %1 = graph.cos %0 : tensor<2x3xf32>
  // CHECK: %[[TAN:.*]] = graph.tan %[[COS]] : tensor<2x3xf32>
  %2 = graph.tan %1 : tensor<2x3xf32>
  // CHECK: %[[ASIN:.*]] = graph.asin %[[TAN]] : tensor<2x3xf32>
  %3 = graph.asin %2 : tensor<2x3xf32>
  // CHECK: %[[ACOS:.*]] = graph.acos %[[ASIN]] : tensor<2x3xf32>
  %4 = graph.acos %3 : tensor<2x3xf32>
  // CHECK: %[[ATAN:.*]] = graph.atan %[[ACOS]] : tensor<2x3xf32>
  %5 = graph.atan %4 : tensor<2x3xf32>
  // CHECK: %[[SINH:.*]] = graph.sinh %[[ATAN]] : tensor<2x3xf32>
  %6 = graph.sinh %5 : tensor<2x3xf32>
  // CHECK: %[[COSH:.*]] = graph.cosh %[[SINH]] : tensor<2x3xf32>
  %7 = graph.cosh %6 : tensor<2x3xf32>
  // CHECK: %[[ASINH:.*]] = graph.asinh %[[COSH]] : tensor<2x3xf32>
  %8 = graph.asinh %7 : tensor<2x3xf32>
  // CHECK: %[[ACOSH:.*]] = graph.acosh %[[ASINH]] : tensor<2x3xf32>
  %9 = graph.acosh %8 : tensor<2x3xf32>
  // CHECK: %[[ATANH:.*]] = graph.atanh %[[ACOSH]] : tensor<2x3xf32>
  %10 = graph.atanh %9 : tensor<2x3xf32>
  // CHECK: %[[FLOOR:.*]] = graph.floor %[[ATANH]] : tensor<2x3xf32>
  %11 = graph.floor %10 : tensor<2x3xf32>
  // CHECK: %[[CEIL:.*]] = graph.ceil %[[FLOOR]] : tensor<2x3xf32>
  %12 = graph.ceil %11 : tensor<2x3xf32>
  // CHECK: %[[ROUND:.*]] = graph.round %[[CEIL]] : tensor<2x3xf32>
  %13 = graph.round %12 : tensor<2x3xf32>
  // CHECK: %[[SIGN:.*]] = graph.sign %[[ROUND]] : tensor<2x3xf32>
  %14 = graph.sign %13 : tensor<2x3xf32>
  // CHECK: %[[ISIGN:.*]] = graph.sign %{{.*}} : tensor<4xi32>
  %15 = graph.sign %i : tensor<4xi32>
  // CHECK: %[[JSIGN:.*]] = graph.sign %{{.*}} : tensor<i64>
  %16 = graph.sign %j : tensor<i64>
  // CHECK: return %[[ROUND]], %[[SIGN]], %[[ISIGN]], %[[JSIGN]]
  return %13, %14, %15, %16 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<i64>
}

// CHECK-LABEL: func.func @mod
func.func @mod(%a: tensor<2x3xi64>, %b: tensor<3xi64>, %x: tensor<4xf32>, %y: tensor<f32>) -> (tensor<2x3xi64>, tensor<2x3xi64>, tensor<4xf32>) {
  // CHECK: graph.mod %{{.*}}, %{{.*}} {fmod = false} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %0 = graph.mod %a, %b {fmod = false} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  // CHECK: graph.mod %{{.*}}, %{{.*}} {fmod = true} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %1 = graph.mod %a, %b {fmod = true} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  // CHECK: graph.mod %{{.*}}, %{{.*}} {fmod = true} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = graph.mod %x, %y {fmod = true} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<2x3xi64>, tensor<2x3xi64>, tensor<4xf32>
}

// CHECK-LABEL: func.func @logical
func.func @logical(%a: tensor<2x3xi1>, %b: tensor<3xi1>, %c: tensor<i1>) -> tensor<2x3xi1> {
  // CHECK: %[[AND:.*]] = graph.and %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %0 = graph.and %a, %b : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: %[[OR:.*]] = graph.or %{{.*}}, %[[AND]] : (tensor<i1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %1 = graph.or %c, %0 : (tensor<i1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: %[[XOR:.*]] = graph.xor %[[OR]], %{{.*}} : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = graph.xor %1, %a : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: %[[NOT:.*]] = graph.not %[[XOR]] : tensor<2x3xi1>
  %3 = graph.not %2 : tensor<2x3xi1>
  // CHECK: return %[[NOT]]
  return %3 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<2x1xi64>, %j: tensor<i64>, %c: tensor<3xi1>, %t: tensor<2x1xi32>, %f: tensor<i32>) -> (tensor<2x3xi1>, tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi1>) {
  // CHECK: graph.compare lt, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %0 = graph.compare lt, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: graph.compare eq, %{{.*}}, %{{.*}} : (tensor<2x1xi64>, tensor<i64>) -> tensor<2x1xi1>
  %1 = graph.compare eq, %i, %j : (tensor<2x1xi64>, tensor<i64>) -> tensor<2x1xi1>
  // CHECK: graph.compare ne, {{.*}} -> tensor<2x3xi1>
  %2 = graph.compare ne, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: graph.compare le, {{.*}} -> tensor<2x3xi1>
  %3 = graph.compare le, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: graph.compare gt, {{.*}} -> tensor<2x3xi1>
  %4 = graph.compare gt, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: graph.compare ge, {{.*}} -> tensor<2x3xi1>
  %5 = graph.compare ge, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = graph.select %0, %a, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // All three operands broadcast against each other.
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3xi1>, tensor<2x1xi32>, tensor<i32>) -> tensor<2x3xi32>
  %7 = graph.select %c, %t, %f : (tensor<3xi1>, tensor<2x1xi32>, tensor<i32>) -> tensor<2x3xi32>
  // Selecting between bool tensors.
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3xi1>, tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %8 = graph.select %c, %2, %c : (tensor<3xi1>, tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0, %1, %6, %7, %8 : tensor<2x3xi1>, tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi1>
}

// CHECK-LABEL: func.func @cast
func.func @cast(%x: tensor<2x3xf32>, %b: tensor<4xi1>) -> (tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<4xf32>, tensor<2x3xf32>) {
  // CHECK: graph.cast %{{.*}} {to = i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  %0 = graph.cast %x {to = i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  // CHECK: graph.cast %{{.*}} {to = i32} : (tensor<2x3xi64>) -> tensor<2x3xi32>
  %1 = graph.cast %0 {to = i32} : (tensor<2x3xi64>) -> tensor<2x3xi32>
  // CHECK: graph.cast %{{.*}} {to = i1} : (tensor<2x3xi32>) -> tensor<2x3xi1>
  %2 = graph.cast %1 {to = i1} : (tensor<2x3xi32>) -> tensor<2x3xi1>
  // CHECK: graph.cast %{{.*}} {to = f32} : (tensor<4xi1>) -> tensor<4xf32>
  %3 = graph.cast %b {to = f32} : (tensor<4xi1>) -> tensor<4xf32>
  // CHECK: graph.cast %{{.*}} {to = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = graph.cast %x {to = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<4xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<2x3x4xf32>, %d: tensor<7x1x4x5xf32>, %e: tensor<1x4x5xf32>, %i: tensor<2x3xi64>, %j: tensor<3x2xi64>) -> (tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<7x2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x2xi64>) {
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  // A rank-2 rhs broadcasts over the batch of the lhs.
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %1 = graph.matmul %c, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  // Batch dims [2] and [7, 1] broadcast to [7, 2].
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<7x1x4x5xf32>) -> tensor<7x2x3x5xf32>
  %2 = graph.matmul %c, %d : (tensor<2x3x4xf32>, tensor<7x1x4x5xf32>) -> tensor<7x2x3x5xf32>
  // A size-1 batch dim broadcasts.
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  %3 = graph.matmul %c, %e : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3xi64>, tensor<3x2xi64>) -> tensor<2x2xi64>
  %4 = graph.matmul %i, %j : (tensor<2x3xi64>, tensor<3x2xi64>) -> tensor<2x2xi64>
  return %0, %1, %2, %3, %4 : tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<7x2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x2xi64>
}

// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %bias: tensor<6xf32>, %wg: tensor<6x2x3x3xf32>, %wd: tensor<4x1x3x3xf32>) -> (tensor<1x6x6x6xf32>, tensor<1x6x4x4xf32>, tensor<1x6x8x8xf32>, tensor<1x4x3x2xf32>) {
  // No padding, no bias: 8 - 3 + 1 = 6.
  // CHECK: graph.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  // Bias, padding 1 and stride 2: (8 + 2 - 3) / 2 + 1 = 4.
  // CHECK: graph.conv2d %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  %1 = graph.conv2d %x, %w, %bias {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  // Two groups of 2 input channels, "same" padding.
  // CHECK: graph.conv2d %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x8x8xf32>
  %2 = graph.conv2d %x, %wg, %bias {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x8x8xf32>
  // Depthwise, dilation 2 (effective window 5), stride 2, asymmetric pads
  // [top 1, left 0, bottom 0, right 0]: height (8 + 1 - 5) / 2 + 1 = 3,
  // width (8 - 5) / 2 + 1 = 2.
  // CHECK: graph.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, groups = 4 : i64, pads = array<i64: 1, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x2xf32>
  %3 = graph.conv2d %x, %wd {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 0>, dilations = array<i64: 2, 2>, groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x2xf32>
  return %0, %1, %2, %3 : tensor<1x6x6x6xf32>, tensor<1x6x4x4xf32>, tensor<1x6x8x8xf32>, tensor<1x4x3x2xf32>
}

// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<2x3x7x7xf32>) -> (tensor<2x3x3x3xf32>, tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x7x7xf32>, tensor<2x3x1x1xf32>) {
  // (7 - 3) / 2 + 1 = 3.
  // CHECK: graph.maxpool2d %{{.*}} {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  %0 = graph.maxpool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  // Dilation 2 makes the window 5: (7 - 5) / 1 + 1 = 3.
  // CHECK: graph.maxpool2d %{{.*}} {dilations = array<i64: 2, 2>, kernel = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  %1 = graph.maxpool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  // (7 + 1 + 1 - 3) / 2 + 1 = 4.
  // CHECK: graph.avgpool2d %{{.*}} {count_include_pad = false, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %2 = graph.avgpool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = false} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  // Asymmetric kernel and pads: height (7 + 0 + 0 - 1) + 1 = 7, width
  // (7 + 1 + 1 - 3) + 1 = 7.
  // CHECK: graph.avgpool2d %{{.*}} {count_include_pad = true, kernel = array<i64: 1, 3>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 1, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  %3 = graph.avgpool2d %x {kernel = array<i64: 1, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 1, 0, 1>, count_include_pad = true} : (tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  // CHECK: graph.global_avgpool %{{.*}} : (tensor<2x3x7x7xf32>) -> tensor<2x3x1x1xf32>
  %4 = graph.global_avgpool %x : (tensor<2x3x7x7xf32>) -> tensor<2x3x1x1xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3x3x3xf32>, tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x7x7xf32>, tensor<2x3x1x1xf32>
}

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<2x3x4x5xf32>, %c: tensor<3xf32>, %s: tensor<4x5xf32>, %y: tensor<8x3xf32>, %t: tensor<5xf32>) -> (tensor<2x3x4x5xf32>, tensor<8x3xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) {
  // CHECK: graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %0 = graph.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-5 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  // Rank-2 input [N, C].
  // CHECK: graph.batch_norm {{.*}} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  %1 = graph.batch_norm %y, %c, %c, %c, %c {epsilon = 1.0e-3 : f32} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  // Normalizes over the last two dims, so scale and bias are [4, 5].
  // CHECK: graph.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = graph.layer_norm %x, %s, %s {axis = 2 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: graph.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 3 : i64, epsilon = 1.000000e-01 : f32} : (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
  %3 = graph.layer_norm %x, %t, %t {axis = 3 : i64, epsilon = 0.1 : f32} : (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 3 : i64} : tensor<2x3x4x5xf32>
  %4 = graph.softmax %x {axis = 3 : i64} : tensor<2x3x4x5xf32>
  // CHECK: graph.log_softmax %{{.*}} {axis = 0 : i64} : tensor<2x3x4x5xf32>
  %5 = graph.log_softmax %x {axis = 0 : i64} : tensor<2x3x4x5xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x4x5xf32>, tensor<8x3xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<2x3xi64>, %j: tensor<5xi32>) -> (tensor<2x1x1xf32>, tensor<3xf32>, tensor<f32>, tensor<2xi64>, tensor<1xi32>, tensor<2x3x4xf32>) {
  // Axes may come in any order.
  // CHECK: graph.reduce_sum %{{.*}} {axes = array<i64: 2, 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %0 = graph.reduce_sum %x {axes = array<i64: 2, 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // CHECK: graph.reduce_mean %{{.*}} {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %1 = graph.reduce_mean %x {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // Reducing every axis without keepdims gives a 0-d tensor.
  // CHECK: graph.reduce_max %{{.*}} {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = graph.reduce_max %x {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: graph.reduce_sum %{{.*}} {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xi64>) -> tensor<2xi64>
  %3 = graph.reduce_sum %i {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xi64>) -> tensor<2xi64>
  // CHECK: graph.reduce_max %{{.*}} {axes = array<i64: 0>, keepdims = true} : (tensor<5xi32>) -> tensor<1xi32>
  %4 = graph.reduce_max %j {axes = array<i64: 0>, keepdims = true} : (tensor<5xi32>) -> tensor<1xi32>
  // No axes: nothing is reduced.
  // CHECK: graph.reduce_sum %{{.*}} {axes = array<i64>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %5 = graph.reduce_sum %x {axes = array<i64>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x1x1xf32>, tensor<3xf32>, tensor<f32>, tensor<2xi64>, tensor<1xi32>, tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @reduce_min_prod
func.func @reduce_min_prod(%x: tensor<2x3x4xf32>, %i: tensor<5x2xi64>) -> (tensor<2x1x1xf32>, tensor<3xf32>, tensor<i64>, tensor<5x1xi64>) {
  // CHECK: graph.reduce_min %{{.*}} {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %0 = graph.reduce_min %x {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // CHECK: graph.reduce_prod %{{.*}} {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %1 = graph.reduce_prod %x {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // CHECK: graph.reduce_min %{{.*}} {axes = array<i64: 0, 1>, keepdims = false} : (tensor<5x2xi64>) -> tensor<i64>
  %2 = graph.reduce_min %i {axes = array<i64: 0, 1>, keepdims = false} : (tensor<5x2xi64>) -> tensor<i64>
  // CHECK: graph.reduce_prod %{{.*}} {axes = array<i64: 1>, keepdims = true} : (tensor<5x2xi64>) -> tensor<5x1xi64>
  %3 = graph.reduce_prod %i {axes = array<i64: 1>, keepdims = true} : (tensor<5x2xi64>) -> tensor<5x1xi64>
  return %0, %1, %2, %3 : tensor<2x1x1xf32>, tensor<3xf32>, tensor<i64>, tensor<5x1xi64>
}

// CHECK-LABEL: func.func @argmax_argmin
func.func @argmax_argmin(%x: tensor<3x4xf32>, %i: tensor<2x3x5xi32>) -> (tensor<3xi64>, tensor<1x4xi64>, tensor<2x1x5xi64>, tensor<2x3xi64>) {
  // CHECK: graph.argmax %{{.*}} {axis = 1 : i64, keepdims = false, select_last_index = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  %0 = graph.argmax %x {axis = 1 : i64, keepdims = false, select_last_index = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  // CHECK: graph.argmin %{{.*}} {axis = 0 : i64, keepdims = true, select_last_index = true} : (tensor<3x4xf32>) -> tensor<1x4xi64>
  %1 = graph.argmin %x {axis = 0 : i64, keepdims = true, select_last_index = true} : (tensor<3x4xf32>) -> tensor<1x4xi64>
  // CHECK: graph.argmax %{{.*}} {axis = 1 : i64, keepdims = true, select_last_index = true} : (tensor<2x3x5xi32>) -> tensor<2x1x5xi64>
  %2 = graph.argmax %i {axis = 1 : i64, keepdims = true, select_last_index = true} : (tensor<2x3x5xi32>) -> tensor<2x1x5xi64>
  // CHECK: graph.argmin %{{.*}} {axis = 2 : i64, keepdims = false, select_last_index = false} : (tensor<2x3x5xi32>) -> tensor<2x3xi64>
  %3 = graph.argmin %i {axis = 2 : i64, keepdims = false, select_last_index = false} : (tensor<2x3x5xi32>) -> tensor<2x3xi64>
  return %0, %1, %2, %3 : tensor<3xi64>, tensor<1x4xi64>, tensor<2x1x5xi64>, tensor<2x3xi64>
}

// CHECK-LABEL: func.func @cumsum
func.func @cumsum(%x: tensor<3x4xf32>, %i: tensor<5xi64>) -> (tensor<3x4xf32>, tensor<5xi64>) {
  // CHECK: graph.cumsum %{{.*}} {axis = 1 : i64, exclusive = false, reverse = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %0 = graph.cumsum %x {axis = 1 : i64, exclusive = false, reverse = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: graph.cumsum %{{.*}} {axis = 0 : i64, exclusive = true, reverse = false} : (tensor<5xi64>) -> tensor<5xi64>
  %1 = graph.cumsum %i {axis = 0 : i64, exclusive = true, reverse = false} : (tensor<5xi64>) -> tensor<5xi64>
  return %0, %1 : tensor<3x4xf32>, tensor<5xi64>
}

// CHECK-LABEL: func.func @pow_integer
func.func @pow_integer(%a: tensor<2x3xi64>, %b: tensor<3xi64>, %c: tensor<4xi32>) -> (tensor<2x3xi64>, tensor<4xi32>) {
  // CHECK: graph.pow %{{.*}}, %{{.*}} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %0 = graph.pow %a, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  // CHECK: graph.pow %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = graph.pow %c, %c : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<2x3xi64>, tensor<4xi32>
}

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %s: tensor<f32>, %b: tensor<6xi1>) -> (tensor<6x4xf32>, tensor<4x6xf32>, tensor<1x1xf32>, tensor<f32>, tensor<2x3xi1>) {
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // -1 is inferred from the element count.
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 4, -1>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  %1 = graph.reshape %x {shape = array<i64: 4, -1>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  // To and from 0-d.
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
  %2 = graph.reshape %s {shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
  // CHECK: graph.reshape %{{.*}} {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
  %3 = graph.reshape %2 {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 2, 3>} : (tensor<6xi1>) -> tensor<2x3xi1>
  %4 = graph.reshape %b {shape = array<i64: 2, 3>} : (tensor<6xi1>) -> tensor<2x3xi1>
  return %0, %1, %2, %3, %4 : tensor<6x4xf32>, tensor<4x6xf32>, tensor<1x1xf32>, tensor<f32>, tensor<2x3xi1>
}

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3x4xf32>, %i: tensor<5x7xi64>) -> (tensor<4x2x3xf32>, tensor<7x5xi64>) {
  // Result dim i is input dim perm[i].
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<5x7xi64>) -> tensor<7x5xi64>
  %1 = graph.transpose %i {perm = array<i64: 1, 0>} : (tensor<5x7xi64>) -> tensor<7x5xi64>
  return %0, %1 : tensor<4x2x3xf32>, tensor<7x5xi64>
}

// CHECK-LABEL: func.func @concat
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<4xi32>, %d: tensor<1xi32>) -> (tensor<2x11xf32>, tensor<5xi32>, tensor<2x3xf32>) {
  // CHECK: graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  %0 = graph.concat %a, %b, %a {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  // CHECK: graph.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<4xi32>, tensor<1xi32>) -> tensor<5xi32>
  %1 = graph.concat %c, %d {axis = 0 : i64} : (tensor<4xi32>, tensor<1xi32>) -> tensor<5xi32>
  // A single input.
  // CHECK: graph.concat %{{.*}} {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.concat %a {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x11xf32>, tensor<5xi32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @slice
func.func @slice(%x: tensor<10x8xf32>, %i: tensor<7xi64>) -> (tensor<3x8xf32>, tensor<4x2xf32>, tensor<0x8xf32>, tensor<2xi64>) {
  // CHECK: graph.slice %{{.*}} {ends = array<i64: 5, 8>, starts = array<i64: 2, 0>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<3x8xf32>
  %0 = graph.slice %x {starts = array<i64: 2, 0>, ends = array<i64: 5, 8>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<3x8xf32>
  // Steps round the count up: [0, 10) by 3 is 0, 3, 6, 9; [1, 7) by 4 is 1, 5.
  // CHECK: graph.slice %{{.*}} {ends = array<i64: 10, 7>, starts = array<i64: 0, 1>, steps = array<i64: 3, 4>} : (tensor<10x8xf32>) -> tensor<4x2xf32>
  %1 = graph.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 10, 7>, steps = array<i64: 3, 4>} : (tensor<10x8xf32>) -> tensor<4x2xf32>
  // An empty slice.
  // CHECK: graph.slice %{{.*}} {ends = array<i64: 4, 8>, starts = array<i64: 4, 0>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<0x8xf32>
  %2 = graph.slice %x {starts = array<i64: 4, 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<0x8xf32>
  // CHECK: graph.slice %{{.*}} {ends = array<i64: 7>, starts = array<i64: 5>, steps = array<i64: 1>} : (tensor<7xi64>) -> tensor<2xi64>
  %3 = graph.slice %i {starts = array<i64: 5>, ends = array<i64: 7>, steps = array<i64: 1>} : (tensor<7xi64>) -> tensor<2xi64>
  return %0, %1, %2, %3 : tensor<3x8xf32>, tensor<4x2xf32>, tensor<0x8xf32>, tensor<2xi64>
}

// CHECK-LABEL: func.func @gather
func.func @gather(%data: tensor<5x4x3xf32>, %idx: tensor<2x6xi64>, %idx32: tensor<7xi32>, %scalar: tensor<i64>, %b: tensor<9xi1>) -> (tensor<5x2x6x3xf32>, tensor<7x4x3xf32>, tensor<5x4xf32>, tensor<7xi1>) {
  // Result shape is data[:axis] + indices + data[axis+1:].
  // CHECK: graph.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<5x4x3xf32>, tensor<2x6xi64>) -> tensor<5x2x6x3xf32>
  %0 = graph.gather %data, %idx {axis = 1 : i64} : (tensor<5x4x3xf32>, tensor<2x6xi64>) -> tensor<5x2x6x3xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<5x4x3xf32>, tensor<7xi32>) -> tensor<7x4x3xf32>
  %1 = graph.gather %data, %idx32 {axis = 0 : i64} : (tensor<5x4x3xf32>, tensor<7xi32>) -> tensor<7x4x3xf32>
  // A 0-d index removes the axis.
  // CHECK: graph.gather %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<5x4x3xf32>, tensor<i64>) -> tensor<5x4xf32>
  %2 = graph.gather %data, %scalar {axis = 2 : i64} : (tensor<5x4x3xf32>, tensor<i64>) -> tensor<5x4xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<9xi1>, tensor<7xi32>) -> tensor<7xi1>
  %3 = graph.gather %b, %idx32 {axis = 0 : i64} : (tensor<9xi1>, tensor<7xi32>) -> tensor<7xi1>
  return %0, %1, %2, %3 : tensor<5x2x6x3xf32>, tensor<7x4x3xf32>, tensor<5x4xf32>, tensor<7xi1>
}

// CHECK-LABEL: func.func @gather_elements
func.func @gather_elements(%d: tensor<3x4xf32>, %i: tensor<2x4xi64>, %b: tensor<2x5xi1>, %j: tensor<2x7xi32>) -> (tensor<2x4xf32>, tensor<2x7xi1>) {
  // CHECK: graph.gather_elements %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  %0 = graph.gather_elements %d, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  // CHECK: graph.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x5xi1>, tensor<2x7xi32>) -> tensor<2x7xi1>
  %1 = graph.gather_elements %b, %j {axis = 1 : i64} : (tensor<2x5xi1>, tensor<2x7xi32>) -> tensor<2x7xi1>
  return %0, %1 : tensor<2x4xf32>, tensor<2x7xi1>
}

// CHECK-LABEL: func.func @broadcast_to
func.func @broadcast_to(%x: tensor<3x1xf32>, %i: tensor<i64>, %b: tensor<1x4xi1>) -> (tensor<2x3x5xf32>, tensor<3x4xf32>, tensor<2x2xi64>, tensor<3x4xi1>) {
  // CHECK: graph.broadcast_to %{{.*}} {shape = array<i64: 2, 3, 5>} : (tensor<3x1xf32>) -> tensor<2x3x5xf32>
  %0 = graph.broadcast_to %x {shape = array<i64: 2, 3, 5>} : (tensor<3x1xf32>) -> tensor<2x3x5xf32>
  // The shape may be smaller than the result (numpy broadcast of both).
  // CHECK: graph.broadcast_to %{{.*}} {shape = array<i64: 4>} : (tensor<3x1xf32>) -> tensor<3x4xf32>
  %1 = graph.broadcast_to %x {shape = array<i64: 4>} : (tensor<3x1xf32>) -> tensor<3x4xf32>
  // CHECK: graph.broadcast_to %{{.*}} {shape = array<i64: 2, 2>} : (tensor<i64>) -> tensor<2x2xi64>
  %2 = graph.broadcast_to %i {shape = array<i64: 2, 2>} : (tensor<i64>) -> tensor<2x2xi64>
  // CHECK: graph.broadcast_to %{{.*}} {shape = array<i64: 3, 1>} : (tensor<1x4xi1>) -> tensor<3x4xi1>
  %3 = graph.broadcast_to %b {shape = array<i64: 3, 1>} : (tensor<1x4xi1>) -> tensor<3x4xi1>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<3x4xf32>, tensor<2x2xi64>, tensor<3x4xi1>
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>, %i: tensor<4xi64>) -> (tensor<5x4xf32>, tensor<4xi64>, tensor<7xi64>) {
  // pads are all leading pads, then all trailing pads: [1, 0, 2, 1].
  // CHECK: graph.pad %{{.*}} {pads = array<i64: 1, 0, 2, 1>, value = -1.500000e+00 : f64} : (tensor<2x3xf32>) -> tensor<5x4xf32>
  %0 = graph.pad %x {pads = array<i64: 1, 0, 2, 1>, value = -1.5 : f64} : (tensor<2x3xf32>) -> tensor<5x4xf32>
  // CHECK: graph.pad %{{.*}} {pads = array<i64: 0, 0>, value = 0.000000e+00 : f64} : (tensor<4xi64>) -> tensor<4xi64>
  %1 = graph.pad %i {pads = array<i64: 0, 0>, value = 0.0 : f64} : (tensor<4xi64>) -> tensor<4xi64>
  // CHECK: graph.pad %{{.*}} {pads = array<i64: 3, 0>, value = 7.000000e+00 : f64} : (tensor<4xi64>) -> tensor<7xi64>
  %2 = graph.pad %i {pads = array<i64: 3, 0>, value = 7.0 : f64} : (tensor<4xi64>) -> tensor<7xi64>
  return %0, %1, %2 : tensor<5x4xf32>, tensor<4xi64>, tensor<7xi64>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
