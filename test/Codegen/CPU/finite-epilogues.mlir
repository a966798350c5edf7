// An integer kernel's epilogue computes from int32 sums and constants, so
// its float values are finite: its max, min and the quantize's NaN test get
// the nnan flag (FiniteEpilogues.cpp: bounds 2^32 * 0.5, clamped to 6,
// divided by at least 0.25). A float input that is not a constant (a
// residual) may be NaN: the max after it keeps NaN propagation.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 vnni=true parallel-min-work=0}),canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: func.func @fe
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.maximumf %{{.*}} fastmath<nnan> : vector<16xf32>
// CHECK: arith.minimumf %{{.*}} fastmath<nnan> : vector<16xf32>
// CHECK: arith.divf
// CHECK: arith.cmpf uno, %{{.*}} fastmath<nnan> : vector<16xf32>
// CHECK: arith.maximumf %{{.*}} fastmath<nnan> : vector<16xf32>
// CHECK: arith.minimumf %{{.*}} fastmath<nnan> : vector<16xf32>
func.func @fe(%x: tensor<1x1x4x4x16xui8>) -> tensor<1x1x4x4x16xui8> {
  %w = graph.constant dense<3> : tensor<1x1x1x1x16x16xi8>
  %z = graph.constant dense<7> : tensor<ui8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %iz = graph.constant dense<0> : tensor<i32>
  %c6 = graph.constant dense<6.0> : tensor<f32>
  %qs = graph.constant dense<0.25> : tensor<f32>
  %0 = graph.fusion_group "contraction"(%x, %w, %z, %s, %iz, %c6, %qs) : (tensor<1x1x4x4x16xui8>, tensor<1x1x1x1x16x16xi8>, tensor<ui8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4x16xui8> {
  ^bb0(%a: tensor<1x1x4x4x16xui8>, %b: tensor<1x1x1x1x16x16xi8>, %az: tensor<ui8>, %sc: tensor<f32>, %zz: tensor<i32>, %six: tensor<f32>, %q: tensor<f32>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4x16xui8>, tensor<1x1x1x1x16x16xi8>, tensor<ui8>) -> tensor<1x1x4x4x16xi32>
    %f = graph.dequantize %acc, %sc, %zz : (tensor<1x1x4x4x16xi32>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4x16xf32>
    %r = graph.relu %f : tensor<1x1x4x4x16xf32>
    %m = graph.min %r, %six : (tensor<1x1x4x4x16xf32>, tensor<f32>) -> tensor<1x1x4x4x16xf32>
    %o = graph.quantize %m, %q, %az : (tensor<1x1x4x4x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x1x4x4x16xui8>
    graph.yield %o : tensor<1x1x4x4x16xui8>
  }
  return %0 : tensor<1x1x4x4x16xui8>
}

// -----

// CHECK-LABEL: func.func @residual
// CHECK: arith.addf
// CHECK-NOT: fastmath<nnan>
// CHECK: arith.maximumf %{{.*}} : vector<16xf32>
// CHECK-NOT: fastmath<nnan>
func.func @residual(%x: tensor<1x1x4x4x16xui8>, %r: tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32> {
  %w = graph.constant dense<3> : tensor<1x1x1x1x16x16xi8>
  %z = graph.constant dense<7> : tensor<ui8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %iz = graph.constant dense<0> : tensor<i32>
  %0 = graph.fusion_group "contraction"(%x, %w, %z, %s, %iz, %r) : (tensor<1x1x4x4x16xui8>, tensor<1x1x1x1x16x16xi8>, tensor<ui8>, tensor<f32>, tensor<i32>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32> {
  ^bb0(%a: tensor<1x1x4x4x16xui8>, %b: tensor<1x1x1x1x16x16xi8>, %az: tensor<ui8>, %sc: tensor<f32>, %zz: tensor<i32>, %res: tensor<1x1x4x4x16xf32>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4x16xui8>, tensor<1x1x1x1x16x16xi8>, tensor<ui8>) -> tensor<1x1x4x4x16xi32>
    %f = graph.dequantize %acc, %sc, %zz : (tensor<1x1x4x4x16xi32>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4x16xf32>
    %a2 = graph.add %f, %res : (tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
    %y = graph.relu %a2 : tensor<1x1x4x4x16xf32>
    graph.yield %y : tensor<1x1x4x4x16xf32>
  }
  return %0 : tensor<1x1x4x4x16xf32>
}
