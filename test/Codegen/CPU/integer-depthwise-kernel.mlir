// Blocked depthwise integer convolution groups with constant int8 filters
// become the kernel of IntegerDepthwiseKernel.cpp: the filter read as it is
// ([C/16, KH, KW, 16]), the zero point's correction (7 * 3 * 9 = 189) per
// channel, tiles of one output row's pixels (5) by one vector, a loop over
// kh carrying the accumulators, each of the 7 input columns of the padded
// row read once, zero-extended and multiplied into every pixel whose window
// reads it (column 1: pixels 1 and 0), the epilogue on the vectors.
// Without vnni or int16-pairs the generic stays.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 vnni=true parallel-min-work=0}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 parallel-min-work=0}),canonicalize,cse)' | FileCheck %s --check-prefix=GENERIC
// On AVX2 (8 lanes): each block's two vectors are tiles of their own.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 vector-registers=16 int16-pairs=true parallel-min-work=0}),canonicalize,cse)' | FileCheck %s --check-prefix=AVX2

// CHECK-LABEL: func.func @depthwise_kernel
// CHECK-DAG: %[[W:.*]] = arith.constant dense<3> : tensor<2x3x3x16xi8>
// CHECK-DAG: %[[CORR:.*]] = arith.constant dense<189> : tensor<32xi32>
// CHECK: %[[PAD:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1, 0] [1, 2, 5, 5, 16]
// CHECK: scf.for %[[OB:.*]] = %c0 to %c2 step %c1
// CHECK: scf.for %[[OH:.*]] = %c0 to %c5 step %c1
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args({{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK: %[[IH:.*]] = affine.apply #{{.*}}(%[[OH]], %[[KH]])
// CHECK: %[[W0:.*]] = vector.transfer_read %[[W]][%[[OB]], %[[KH]], %c0, %c0]{{.*}} : tensor<2x3x3x16xi8>, vector<16xi8>
// CHECK: %[[W0X:.*]] = arith.extsi %[[W0]] : vector<16xi8> to vector<16xi32>
// CHECK: %[[W1:.*]] = vector.transfer_read %[[W]][%[[OB]], %[[KH]], %c1, %c0]
// CHECK: %[[W1X:.*]] = arith.extsi %[[W1]]
// CHECK: vector.transfer_read %[[PAD]][%c0, %[[OB]], %[[IH]], %c0, %c0]{{.*}} : tensor<1x2x7x7x16xi8>, vector<16xi8>
// CHECK: vector.transfer_read %[[PAD]][%c0, %[[OB]], %[[IH]], %c1, %c0]
// CHECK: %[[X1:.*]] = arith.extui %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.muli %[[X1]], %[[W0X]] : vector<16xi32>
// CHECK: arith.muli %[[X1]], %[[W1X]] : vector<16xi32>
// CHECK: vector.transfer_read %[[PAD]][%c0, %[[OB]], %[[IH]], %c6, %c0]
// CHECK-NOT: vector.transfer_read %[[PAD]]
// CHECK: scf.yield
// CHECK: vector.transfer_read %[[CORR]]
// CHECK: arith.subi %{{.*}} : vector<16xi32>
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: vector.transfer_write %{{.*}}[%c0, %[[OB]], %[[OH]], %c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<1x2x5x5x16xf32>
// CHECK-COUNT-4: vector.transfer_write
// CHECK-NOT: linalg.generic
// AVX2-LABEL: func.func @depthwise_kernel
// AVX2: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// AVX2: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %c0, %c0]{{.*}} : tensor<2x3x3x16xi8>, vector<8xi8>
// AVX2: vector.transfer_write %{{.*}}[%c0, %{{.*}}, %{{.*}}, %c0, %c0] {in_bounds = [true]} : vector<8xf32>
// AVX2: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// AVX2: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %c0, %c8]{{.*}} : tensor<2x3x3x16xi8>, vector<8xi8>
// AVX2: vector.transfer_write %{{.*}}[%c0, %{{.*}}, %{{.*}}, %c0, %c8] {in_bounds = [true]} : vector<8xf32>
// GENERIC-LABEL: func.func @depthwise_kernel
// GENERIC-NOT: vector<16xi32>
// GENERIC: linalg.generic
func.func @depthwise_kernel(%x: tensor<1x2x5x5x16xui8>) -> tensor<1x2x5x5x16xf32> {
  %w = graph.constant dense<3> : tensor<2x3x3x16xi8>
  %z = graph.constant dense<7> : tensor<ui8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %iz = graph.constant dense<0> : tensor<i32>
  %0 = graph.fusion_group "contraction"(%x, %w, %z, %s, %iz) : (tensor<1x2x5x5x16xui8>, tensor<2x3x3x16xi8>, tensor<ui8>, tensor<f32>, tensor<i32>) -> tensor<1x2x5x5x16xf32> {
  ^bb0(%a: tensor<1x2x5x5x16xui8>, %b: tensor<2x3x3x16xi8>, %az: tensor<ui8>, %sc: tensor<f32>, %zz: tensor<i32>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x5x5x16xui8>, tensor<2x3x3x16xi8>, tensor<ui8>) -> tensor<1x2x5x5x16xi32>
    %f = graph.dequantize %acc, %sc, %zz : (tensor<1x2x5x5x16xi32>, tensor<f32>, tensor<i32>) -> tensor<1x2x5x5x16xf32>
    graph.yield %f : tensor<1x2x5x5x16xf32>
  }
  return %0 : tensor<1x2x5x5x16xf32>
}

// -----

// A signed input has its sign bit flipped before it is zero-extended, and
// the correction is (zx + 128) * sum(w) = 123 * -18; at stride 2 a row of
// 4 pixels reads the 9 columns 0..8.
// CHECK-LABEL: func.func @s8_strided
// CHECK-DAG: arith.constant dense<-2214> : tensor<16xi32>
// CHECK-DAG: %[[FLIP:.*]] = arith.constant dense<-128> : vector<16xi8>
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK: %[[X:.*]] = vector.transfer_read %arg0[%c0, %c0, %{{.*}}, %c0, %c0]
// CHECK: %[[F:.*]] = arith.xori %[[X]], %[[FLIP]] : vector<16xi8>
// CHECK: arith.extui %[[F]] : vector<16xi8> to vector<16xi32>
// CHECK: vector.transfer_read %arg0[%c0, %c0, %{{.*}}, %c8, %c0]
// CHECK-NOT: vector.transfer_read %arg0
// CHECK: scf.yield
func.func @s8_strided(%x: tensor<1x1x7x9x16xi8>) -> tensor<1x1x3x4x16xi32> {
  %w = graph.constant dense<-2> : tensor<1x3x3x16xi8>
  %z = graph.constant dense<-5> : tensor<i8>
  %0 = graph.fusion_group "contraction"(%x, %w, %z) : (tensor<1x1x7x9x16xi8>, tensor<1x3x3x16xi8>, tensor<i8>) -> tensor<1x1x3x4x16xi32> {
  ^bb0(%a: tensor<1x1x7x9x16xi8>, %b: tensor<1x3x3x16xi8>, %az: tensor<i8>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x7x9x16xi8>, tensor<1x3x3x16xi8>, tensor<i8>) -> tensor<1x1x3x4x16xi32>
    graph.yield %acc : tensor<1x1x3x4x16xi32>
  }
  return %0 : tensor<1x1x3x4x16xi32>
}
