// --graph-fold-constants replaces graph ops on constants by the constant they
// compute (values from the reference evaluator, checked here by hand), keeps
// ops with a non-constant operand, and erases constants left unused. The
// LIMIT run sets a tiny size limit: results above it fold only when they take
// no more bytes than the constants that die with the op.
// RUN: mlc-opt %s --graph-fold-constants --split-input-file | FileCheck %s
// RUN: mlc-opt %s --graph-fold-constants=max-result-elements=4 --split-input-file | FileCheck %s --check-prefix=LIMIT
// RUN: mlc-opt %s --graph-fold-constants --split-input-file --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// The KEEP run: keep-matmul-transposes leaves a weight's transpose that only feeds a
// matmul's right-hand side (the CPU kernel packs from the stored layout).
// RUN: mlc-opt %s --graph-fold-constants=keep-matmul-transposes --split-input-file | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @add_broadcast
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<{{\[\[}}1.100000e+01, 2.200000e+01, 3.300000e+01], [1.400000e+01, 2.500000e+01, 3.600000e+01]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]] : tensor<2x3xf32>
func.func @add_broadcast() -> tensor<2x3xf32> {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = graph.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// NaN propagates through max/min; max(-0, -4) is -0; relu(-0) and neg(-0)
// are +0.
// CHECK-LABEL: func.func @float_elementwise
// CHECK-DAG: dense<[-3.000000e+00, -2.500000e+00, 4.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: dense<[-1.000000e+00, 1.500000e+00, -4.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: dense<[-2.000000e+00, -1.000000e+00, 0.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: dense<[1.000000e+00, 2.000000e+00, -0.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: dense<[-2.000000e+00, -5.000000e-01, -4.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 3.000000e+00]> : tensor<4xf32>
// CHECK-DAG: dense<[2.000000e+00, 5.000000e-01, 0.000000e+00, -3.000000e+00]> : tensor<4xf32>
// CHECK-DAG: dense<[2.000000e+00, 5.000000e-01, 0.000000e+00, 3.000000e+00]> : tensor<4xf32>
// CHECK-DAG: dense<[1.000000e+00, 4.000000e+00, 2.500000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK-NOT: graph.{{(add|sub|mul|div|max|min|relu|neg|abs|sqrt|rsqrt)}}
// CHECK: return
func.func @float_elementwise() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %x = graph.constant dense<[-2.0, -0.5, -0.0, 3.0]> : tensor<4xf32>
  %y = graph.constant dense<[1.0, 2.0, -4.0, 0x7FC00000]> : tensor<4xf32>
  %sq = graph.constant dense<[1.0, 16.0, 6.25, 4.0]> : tensor<4xf32>
  %0 = graph.sub %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.mul %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.max %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.min %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.relu %x : tensor<4xf32>
  %6 = graph.neg %x : tensor<4xf32>
  %7 = graph.abs %x : tensor<4xf32>
  %8 = graph.sqrt %sq : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Integer division truncates, x / 0 = 0 and INT_MIN / -1 = INT_MIN; integer
// arithmetic wraps.
// CHECK-LABEL: func.func @int_elementwise
// CHECK-DAG: dense<[3, -3, 0, -2147483648]> : tensor<4xi32>
// CHECK-DAG: dense<[-9223372036854775808, 6]> : tensor<2xi64>
// CHECK-DAG: dense<[2147483647, 7, 5, -2147483648]> : tensor<4xi32>
// CHECK-NOT: graph.{{(div|add|abs)}}
// CHECK: return
func.func @int_elementwise() -> (tensor<4xi32>, tensor<2xi64>, tensor<4xi32>) {
  %a = graph.constant dense<[7, -7, 5, -2147483648]> : tensor<4xi32>
  %b = graph.constant dense<[2, 2, 0, -1]> : tensor<4xi32>
  %c = graph.constant dense<[9223372036854775807, 5]> : tensor<2xi64>
  %d = graph.constant dense<1> : tensor<2xi64>
  %e = graph.constant dense<[-2147483647, 7, -5, -2147483648]> : tensor<4xi32>
  %0 = graph.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = graph.add %c, %d : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %2 = graph.abs %e : tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<2xi64>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<{{\[\[}}4.000000e+00, 5.000000e+00], [1.000000e+01, 1.100000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @matmul() -> tensor<2x2xf32> {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = graph.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Batched matmul with a broadcast batch dim, on integers.
// CHECK-LABEL: func.func @matmul_batch_int
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<{{\[\[\[}}1, 2]], {{\[\[}}3, 4]]]> : tensor<2x1x2xi64>
// CHECK-NEXT: return %[[C]]
func.func @matmul_batch_int() -> tensor<2x1x2xi64> {
  %a = graph.constant dense<[[[1, 0]], [[0, 1]]]> : tensor<2x1x2xi64>
  %b = graph.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %0 = graph.matmul %a, %b : (tensor<2x1x2xi64>, tensor<2x2xi64>) -> tensor<2x1x2xi64>
  return %0 : tensor<2x1x2xi64>
}

// -----

// Transposing a dense_resource weight gives a new blob with exact values; the
// input blob is no longer referenced.
// KEEP-LABEL: func.func @transpose_weight
// KEEP-NEXT: %[[W:.*]] = graph.constant dense_resource<weight> : tensor<4x5xf32>
// KEEP-NEXT: %[[T:.*]] = graph.transpose %[[W]]
// KEEP-NEXT: graph.matmul %arg0, %[[T]]
// CHECK-LABEL: func.func @transpose_weight
// CHECK-NEXT: %[[C:.*]] = graph.constant dense_resource<[[BLOB:folded[_0-9]*]]> : tensor<5x4xf32>
// CHECK-NEXT: %[[M:.*]] = graph.matmul %arg0, %[[C]]
// CHECK-NEXT: return %[[M]]
// CHECK-NOT: weight:
// CHECK: [[BLOB]]: "0x04000000000000000000A04000002041000070410000803F0000C0400000304100008041000000400000E04000004041000088410000404000000041000050410000904100008040000010410000604100009841"
func.func @transpose_weight(%x: tensor<1x5xf32>) -> tensor<1x4xf32> {
  %w = graph.constant dense_resource<weight> : tensor<4x5xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %0 = graph.matmul %x, %t : (tensor<1x5xf32>, tensor<5x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E040000000410000104100002041000030410000404100005041000060410000704100008041000088410000904100009841"
    }
  }
#-}

// -----

// A chain of data movement collapses into one constant.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<{{\[\[}}2.000000e+00, 3.000000e+00], [8.000000e+00, 9.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @chain() -> tensor<2x2xf32> {
  %a = graph.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %b = graph.constant dense<[[7.0, 8.0, 9.0]]> : tensor<1x3xf32>
  %0 = graph.reshape %a {shape = array<i64: 2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
  %1 = graph.concat %0, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  %2 = graph.slice %1 {starts = array<i64: 0, 1>, ends = array<i64: 3, 3>, steps = array<i64: 2, 1>} : (tensor<3x3xf32>) -> tensor<2x2xf32>
  return %2 : tensor<2x2xf32>
}

// -----

// Negative indices wrap once, the rest is clamped: -1 -> 3, 5 -> 3, -7 -> 0.
// CHECK-LABEL: func.func @gather
// CHECK-DAG: dense<[40, 40, 10, 20]> : tensor<4xi64>
// CHECK-DAG: dense<{{\[\[}}3.000000e+00, 1.000000e+00], [6.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: graph.gather
// CHECK: return
func.func @gather() -> (tensor<4xi64>, tensor<2x2xf32>) {
  %data = graph.constant dense<[10, 20, 30, 40]> : tensor<4xi64>
  %idx = graph.constant dense<[-1, 5, -7, 1]> : tensor<4xi32>
  %0 = graph.gather %data, %idx {axis = 0 : i64} : (tensor<4xi64>, tensor<4xi32>) -> tensor<4xi64>
  %m = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i2 = graph.constant dense<[2, 0]> : tensor<2xi64>
  %1 = graph.gather %m, %i2 {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  return %0, %1 : tensor<4xi64>, tensor<2x2xf32>
}

// -----

// float -> int truncates toward zero (NaN and out of range give INT_MIN, as
// x86 does); anything -> i1 is x != 0 (NaN too); i64 -> i32 keeps the low bits.
// CHECK-LABEL: func.func @cast
// CHECK-DAG: dense<[-1, 2, 0, -2147483648, -2147483648]> : tensor<5xi32>
// CHECK-DAG: dense<[true, true, false, true, true]> : tensor<5xi1>
// CHECK-DAG: dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-DAG: dense<[1, -1]> : tensor<2xi32>
// CHECK-NOT: graph.cast
// CHECK: return
func.func @cast() -> (tensor<5xi32>, tensor<5xi1>, tensor<2xf32>, tensor<2xi32>) {
  %f = graph.constant dense<[-1.7, 2.9, -0.0, 0x7FC00000, 3.0e9]> : tensor<5xf32>
  %b = graph.constant dense<[true, false]> : tensor<2xi1>
  %l = graph.constant dense<[4294967297, -1]> : tensor<2xi64>
  %0 = graph.cast %f {to = i32} : (tensor<5xf32>) -> tensor<5xi32>
  %1 = graph.cast %f {to = i1} : (tensor<5xf32>) -> tensor<5xi1>
  %2 = graph.cast %b {to = f32} : (tensor<2xi1>) -> tensor<2xf32>
  %3 = graph.cast %l {to = i32} : (tensor<2xi64>) -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<5xi32>, tensor<5xi1>, tensor<2xf32>, tensor<2xi32>
}

// -----

// Comparisons are false on NaN except ne; select broadcasts all three.
// CHECK-LABEL: func.func @compare_select
// CHECK-DAG: dense<[true, false, false, false]> : tensor<4xi1>
// CHECK-DAG: dense<[false, false, false, true]> : tensor<4xi1>
// CHECK-DAG: dense<[0.000000e+00, 5.000000e+00, 3.000000e+00, 0.000000e+00]> : tensor<4xf32>
// CHECK-NOT: graph.{{(compare|select)}}
// CHECK: return
func.func @compare_select() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %a = graph.constant dense<[1.0, 5.0, 3.0, 0x7FC00000]> : tensor<4xf32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %zero = graph.constant dense<0.0> : tensor<1xf32>
  %0 = graph.compare gt, %a, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %1 = graph.compare ne, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = graph.compare le, %a, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %3 = graph.select %0, %a, %zero : (tensor<4xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %2, %1, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @reductions
// CHECK-DAG: dense<[6.000000e+00, 1.500000e+01]> : tensor<2xf32>
// CHECK-DAG: dense<{{\[\[}}4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<1x3xf32>
// CHECK-DAG: dense<3.500000e+00> : tensor<f32>
// CHECK-DAG: dense<[5, 7, 9]> : tensor<3xi64>
// CHECK-NOT: graph.reduce
// CHECK: return
func.func @reductions() -> (tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<3xi64>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %0 = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  %1 = graph.reduce_max %x {axes = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %2 = graph.reduce_mean %x {axes = array<i64: 0, 1>, keepdims = false} : (tensor<2x3xf32>) -> tensor<f32>
  %3 = graph.reduce_sum %i {axes = array<i64: 0>, keepdims = false} : (tensor<2x3xi64>) -> tensor<3xi64>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<3xi64>
}

// -----

// softmax([1, 2, 3]) = [0.0900305733, 0.244728476, 0.665240943] (f32).
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[0.0900305733, 0.244728476, 0.665240943]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]]
func.func @softmax() -> tensor<3xf32> {
  %x = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.softmax %x {axis = 0 : i64} : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// 3x3 input, 2x2 filter picking the main diagonal, bias 0.5, padding on the
// bottom/right only (pads are top, left, bottom, right).
// CHECK-LABEL: func.func @conv2d
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<{{\[\[\[\[}}6.500000e+00, 8.500000e+00, 3.500000e+00], [1.250000e+01, 1.450000e+01, 6.500000e+00], [7.500000e+00, 8.500000e+00, 9.500000e+00]]]]> : tensor<1x1x3x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @conv2d() -> tensor<1x1x3x3xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = graph.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
  %b = graph.constant dense<0.5> : tensor<1xf32>
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// Pad (integer value), pooling (padding never counts for max, and counts or
// not for avg), layer_norm.
// CHECK-LABEL: func.func @pad_pool_norm
// CHECK-DAG: dense<{{\[\[}}7, 1, 2], [7, 7, 7]]> : tensor<2x3xi32>
// CHECK-DAG: dense<{{\[\[\[\[}}1.000000e+00, 1.500000e+00], [2.000000e+00, 2.500000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK-DAG: dense<{{\[\[\[\[}}2.500000e-01, 7.500000e-01], [1.000000e+00, 2.500000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK-DAG: dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK-DAG: dense<{{\[\[}}-1.34164071, -0.44721359, 0.44721359, 1.34164071]]> : tensor<1x4xf32>
// CHECK-NOT: graph.{{(pad|avgpool2d|maxpool2d|layer_norm)}}
// CHECK: return
func.func @pad_pool_norm() -> (tensor<2x3xi32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x4xf32>) {
  %i = graph.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %0 = graph.pad %i {pads = array<i64: 0, 1, 1, 0>, value = 7.0 : f64} : (tensor<1x2xi32>) -> tensor<2x3xi32>
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %1 = graph.avgpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 0, 0>, count_include_pad = false} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %2 = graph.avgpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 0, 0>, count_include_pad = true} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %3 = graph.maxpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %r = graph.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %s = graph.constant dense<1.0> : tensor<4xf32>
  %b = graph.constant dense<0.0> : tensor<4xf32>
  %4 = graph.layer_norm %r, %s, %b {axis = 1 : i64, epsilon = 0.0 : f32} : (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3xi32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x4xf32>
}

// -----

// The new constant keeps the folded op's location.
// LOC-LABEL: func.func @location
// LOC-NEXT: graph.constant dense<[2.000000e+00, 4.000000e+00]> : tensor<2xf32> loc(#[[LOC:loc[0-9]*]])
// LOC: #[[LOC]] = loc("scale_node")
func.func @location() -> tensor<2xf32> {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = graph.add %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("scale_node")
  return %0 : tensor<2xf32>
}

// -----

// Only the constant part of an expression folds.
// CHECK-LABEL: func.func @partly_constant
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[3.000000e+00, 8.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[A:.*]] = graph.add %arg0, %[[C]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[A]]
// CHECK-NEXT: return %[[R]]
func.func @partly_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %0 = graph.mul %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.add %x, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.relu %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

// A constant with no data (an elided blob) is left alone.
// CHECK-LABEL: func.func @elided_blob
// CHECK: graph.constant dense_resource<__elided__>
// CHECK-NEXT: graph.relu
func.func @elided_blob() -> tensor<20xf32> {
  %w = graph.constant dense_resource<__elided__> : tensor<20xf32>
  %0 = graph.relu %w : tensor<20xf32>
  return %0 : tensor<20xf32>
}

// -----

// A uniform result stays a compact splat even when large.
// CHECK-LABEL: func.func @splat_result
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<1.500000e+00> : tensor<4x8xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_result() -> tensor<4x8xf32> {
  %a = graph.constant dense<1.0> : tensor<4x1xf32>
  %b = graph.constant dense<0.5> : tensor<1x8xf32>
  %0 = graph.add %a, %b : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Size limit. By default everything here folds; with a limit of 4 elements a
// result that grows the constant data stays an op.

// Broadcast [1,4] + [2,1] -> [2,4]: 8 elements from 6.
// CHECK-LABEL: func.func @limit_broadcast
// CHECK-NOT: graph.add
// LIMIT-LABEL: func.func @limit_broadcast
// LIMIT: graph.add
func.func @limit_broadcast() -> tensor<2x4xf32> {
  %a = graph.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %b = graph.constant dense<[[10.0], [20.0]]> : tensor<2x1xf32>
  %0 = graph.add %a, %b : (tensor<1x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Transposing a weight used only here does not grow anything: it folds.
// CHECK-LABEL: func.func @limit_transpose
// CHECK-NOT: graph.transpose
// LIMIT-LABEL: func.func @limit_transpose
// LIMIT-NEXT: graph.constant dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// LIMIT-NOT: graph.transpose
func.func @limit_transpose(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = graph.matmul %x, %t : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

// ... but a weight that other ops still use would then be stored twice.
// CHECK-LABEL: func.func @limit_shared_weight
// CHECK-NOT: graph.transpose
// LIMIT-LABEL: func.func @limit_shared_weight
// LIMIT: graph.transpose
func.func @limit_shared_weight(%x: tensor<1x3xf32>, %y: tensor<3x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = graph.matmul %x, %t : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  %1 = graph.matmul %w, %y : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0, %1 : tensor<1x2xf32>, tensor<2x2xf32>
}

// -----

// bool -> f32 quadruples the bytes; f32 -> bool shrinks them.
// CHECK-LABEL: func.func @limit_cast
// CHECK-NOT: graph.cast
// LIMIT-LABEL: func.func @limit_cast
// LIMIT-DAG: dense<[true, false, true, false, true, false, true, true]> : tensor<8xi1>
// LIMIT-DAG: graph.cast %{{.*}} {to = f32} : (tensor<8xi1>) -> tensor<8xf32>
// LIMIT-NOT: graph.cast
func.func @limit_cast() -> (tensor<8xf32>, tensor<8xi1>) {
  %b = graph.constant dense<[true, false, true, false, true, false, true, true]> : tensor<8xi1>
  %f = graph.constant dense<[1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 4.0, 5.0]> : tensor<8xf32>
  %0 = graph.cast %b {to = f32} : (tensor<8xi1>) -> tensor<8xf32>
  %1 = graph.cast %f {to = i1} : (tensor<8xf32>) -> tensor<8xi1>
  return %0, %1 : tensor<8xf32>, tensor<8xi1>
}

// -----

// The transpose feeds the matmul's left-hand side, and another one feeds an
// add: both fold, even with keep-matmul-transposes.
// KEEP-LABEL: func.func @transpose_other_uses
// KEEP-NOT: graph.transpose
// KEEP: return
func.func @transpose_other_uses(%x: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3x2xf32>) {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %u = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = graph.matmul %t, %w : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %1 = graph.add %u, %x : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x3xf32>, tensor<3x2xf32>
}

// -----

// With a constant left-hand side the whole product folds, transpose and all.
// KEEP-LABEL: func.func @transpose_constant_product
// KEEP-NEXT: %[[C:.*]] = graph.constant dense<{{\[\[}}1.400000e+01, 3.200000e+01]]> : tensor<1x2xf32>
// KEEP-NEXT: return %[[C]]
func.func @transpose_constant_product() -> tensor<1x2xf32> {
  %x = graph.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = graph.matmul %x, %t : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
