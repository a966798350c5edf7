// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-form-fusion-groups))' | FileCheck %s

// The MLP: each matmul takes its bias add and ReLU: two kernels.
// CHECK-LABEL: func.func @mlp
// CHECK: %[[G1:.*]] = graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
// CHECK: %[[G2:.*]] = graph.fusion_group "contraction"(%[[G1]]
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.yield
// CHECK: return %[[G2]]
// CHECK-NOT: graph.fusion_group
func.func @mlp(%x: tensor<1x784xf32>) -> tensor<1x10xf32> {
  %w1 = graph.constant dense<0.5> : tensor<784x200xf32>
  %b1 = graph.constant dense<0.1> : tensor<200xf32>
  %w2 = graph.constant dense<0.5> : tensor<200x10xf32>
  %b2 = graph.constant dense<0.1> : tensor<10xf32>
  %0 = graph.matmul %x, %w1 : (tensor<1x784xf32>, tensor<784x200xf32>) -> tensor<1x200xf32>
  %1 = graph.add %0, %b1 : (tensor<1x200xf32>, tensor<200xf32>) -> tensor<1x200xf32>
  %2 = graph.relu %1 : tensor<1x200xf32>
  %3 = graph.matmul %2, %w2 : (tensor<1x200xf32>, tensor<200x10xf32>) -> tensor<1x10xf32>
  %4 = graph.add %3, %b2 : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return %4 : tensor<1x10xf32>
}

// -----

// conv + bias-free add + relu, then a residual add + relu after the conv.
// CHECK-LABEL: func.func @conv_residual
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
// CHECK-NOT: graph.fusion_group
func.func @conv_residual(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.add %0, %x : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %2 = graph.relu %1 : tensor<1x4x8x8xf32>
  return %2 : tensor<1x4x8x8xf32>
}

// -----

// Two contractions never share a group, even back to back.
// CHECK-LABEL: func.func @two_matmuls
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.yield
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.yield
func.func @two_matmuls(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = graph.matmul %0, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// A reduction's result with two users is not pulled into either consumer
// (that would compute the reduction twice); an elementwise producer with a
// single user joins the reduction's group.
// CHECK-LABEL: func.func @shared_reduction
// CHECK: graph.fusion_group "reduction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.reduce_sum
// CHECK-NEXT: graph.yield
// CHECK: graph.fusion_group "elementwise"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.yield
// CHECK: graph.fusion_group "elementwise"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.sub
// CHECK-NEXT: graph.yield
func.func @shared_reduction(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>) {
  %e = graph.exp %x : tensor<4x8xf32>
  %s = graph.reduce_sum %e {axes = array<i64: 1>, keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %a = graph.mul %s, %s : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %b = graph.sub %s, %s : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %a, %b : tensor<4x1xf32>, tensor<4x1xf32>
}

// -----

// Softmax and layer_norm are row-wise roots; the residual add feeding the
// layer_norm joins it as a producer.
// CHECK-LABEL: func.func @rowwise
// CHECK: graph.fusion_group "reduction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.layer_norm
// CHECK-NEXT: graph.yield
// CHECK: graph.fusion_group "reduction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.softmax
// CHECK-NEXT: graph.yield
func.func @rowwise(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = graph.add %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.layer_norm %0, %g, %b {axis = 1 : i64, epsilon = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = graph.softmax %1 {axis = 1 : i64} : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Elementwise chains without a root become one group; a broadcasting
// consumer (bigger result) starts a new one. Reshapes and constants stay
// outside; data movement ops are groups of their own.
// CHECK-LABEL: func.func @chains
// CHECK: graph.fusion_group "elementwise"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.neg
// CHECK-NEXT: graph.yield
// CHECK: graph.fusion_group "elementwise"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.yield
// CHECK: graph.reshape
// CHECK: graph.fusion_group "data"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.yield
func.func @chains(%x: tensor<4xf32>, %y: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %0 = graph.exp %x : tensor<4xf32>
  %1 = graph.neg %0 : tensor<4xf32>
  %2 = graph.add %1, %y : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %3 = graph.reshape %2 {shape = array<i64: 3, 4>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %4 = graph.transpose %3 {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %4 : tensor<4x3xf32>
}

// -----

// The input cap: with max-inputs=2 the three-input add chain splits.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-form-fusion-groups{max-inputs=2}))' | FileCheck %s --check-prefix=CAP
// CAP-LABEL: func.func @cap
// CAP: graph.fusion_group "elementwise"
// CAP-NEXT: ^bb0(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>):
// CAP-NEXT: graph.add
// CAP-NEXT: graph.yield
// CAP: graph.fusion_group "elementwise"
// CAP-NEXT: ^bb0(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>):
// CAP-NEXT: graph.add
// CAP-NEXT: graph.yield
func.func @cap(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.add %0, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// matmul + bias + gelu (a transformer MLP's first layer) is one group.
// CHECK-LABEL: func.func @matmul_bias_gelu
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.gelu
// CHECK-NEXT: graph.yield
// CHECK-NOT: graph.fusion_group
func.func @matmul_bias_gelu(%x: tensor<16x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<16x256xf32> {
  %0 = graph.matmul %x, %w : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %1 = graph.add %0, %b : (tensor<16x256xf32>, tensor<256xf32>) -> tensor<16x256xf32>
  %2 = graph.gelu %1 : tensor<16x256xf32>
  return %2 : tensor<16x256xf32>
}

// -----

// An integer contraction's epilogue may change the element type (the
// dequantize of its int32 sums, a quantize back to 8 bits): one group. A
// float contraction's may quantize (the 8-bit input of the next integer
// kernel), but other consumers of another type start their own group.
// CHECK-LABEL: func.func @integer_epilogue
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.matmul_integer
// CHECK-NEXT: graph.dequantize
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.quantize
// CHECK-NEXT: graph.yield %{{.*}} : tensor<4x8xui8>
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.quantize
// CHECK-NEXT: graph.yield %{{.*}} : tensor<4x8xui8>
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.yield %{{.*}} : tensor<4x8xf32>
// CHECK: graph.fusion_group "elementwise"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.cast
func.func @integer_epilogue(%x: tensor<4x6xui8>, %w: tensor<6x8xi8>, %xf: tensor<4x6xf32>, %wf: tensor<6x8xf32>) -> (tensor<4x8xui8>, tensor<4x8xui8>, tensor<4x8xi32>) {
  %z = graph.constant dense<0> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %iz = graph.constant dense<0> : tensor<i32>
  %s = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.matmul_integer %x, %w, %z, %wz : (tensor<4x6xui8>, tensor<6x8xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x8xi32>
  %1 = graph.dequantize %0, %s, %iz : (tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> tensor<4x8xf32>
  %2 = graph.relu %1 : tensor<4x8xf32>
  %3 = graph.quantize %2, %s, %z : (tensor<4x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x8xui8>
  %4 = graph.matmul %xf, %wf : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %5 = graph.quantize %4, %s, %z : (tensor<4x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x8xui8>
  %6 = graph.matmul %xf, %wf : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %7 = graph.cast %6 {to = i32} : (tensor<4x8xf32>) -> tensor<4x8xi32>
  return %3, %5, %7 : tensor<4x8xui8>, tensor<4x8xui8>, tensor<4x8xi32>
}

// -----

// A grouped float convolution takes a relu but not a quantize: its
// contraction is a view of a [N, G, O/G, ...] one, and the contraction
// kernel takes no element-type change through that view. A depthwise one
// takes both.
// CHECK-LABEL: func.func @grouped_quantize
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.conv2d_nchwc
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield %{{.*}} : tensor<1x2x4x4x16xf32>
// CHECK: graph.fusion_group "elementwise"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.quantize
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.conv2d_nchwc
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.quantize
// CHECK-NEXT: graph.yield %{{.*}} : tensor<1x2x4x4x16xui8>
func.func @grouped_quantize(%x: tensor<1x2x4x4x16xf32>, %w: tensor<2x1x1x1x16x16xf32>, %d: tensor<2x3x3x16xf32>) -> (tensor<1x2x4x4x16xui8>, tensor<1x2x4x4x16xui8>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<ui8>
  %0 = graph.conv2d_nchwc %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x4x4x16xf32>, tensor<2x1x1x1x16x16xf32>) -> tensor<1x2x4x4x16xf32>
  %1 = graph.relu %0 : tensor<1x2x4x4x16xf32>
  %2 = graph.quantize %1, %s, %z : (tensor<1x2x4x4x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4x16xui8>
  %3 = graph.conv2d_nchwc %x, %d {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4x16xf32>, tensor<2x3x3x16xf32>) -> tensor<1x2x4x4x16xf32>
  %4 = graph.relu %3 : tensor<1x2x4x4x16xf32>
  %5 = graph.quantize %4, %s, %z : (tensor<1x2x4x4x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4x16xui8>
  return %2, %5 : tensor<1x2x4x4x16xui8>, tensor<1x2x4x4x16xui8>
}

// -----

// A weight's transpose into a matmul's right-hand side (a Gemm's transB,
// left by graph-fold-constants{keep-matmul-transposes}) joins the matmul's
// group, which reads the weight itself; an activation's transpose stays a
// data kernel of its own.
// CHECK-LABEL: func.func @transposed_weight
// CHECK: %[[W:.*]] = graph.constant
// CHECK: graph.fusion_group "contraction"(%[[W]], %{{.*}}, %{{.*}})
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.yield
// CHECK: graph.fusion_group "data"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.yield
// CHECK: graph.fusion_group "contraction"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.yield
func.func @transposed_weight(%x: tensor<2x3xf32>, %b: tensor<4xf32>, %y: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %w = graph.constant dense<1.0> : tensor<4x3xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %0 = graph.matmul %x, %t : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.add %0, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %u = graph.transpose %y {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = graph.matmul %1, %u : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>
}
