// Blocked integer convolution groups with constant int8 filters become
// vpdpbusd-shaped kernels with vnni=true (IntegerConvKernel.cpp): the filter
// packed as [O/16, CB*KH*KW*4, 64] bytes, the zero point's correction
// (7 * 100 * 2*3*3*16 = 201600) per output channel, tiles of 6 output pixels
// (flattened over rows: 25 = 4 tiles of 6 and one of 1) by 4 output blocks
// (5 = 4 + 1), loops over cb, kh, kw, each step 4 groups of 4 input
// channels broadcast from the padded input, the epilogue on the vectors.
// Without vnni the generic stays.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 vnni=true parallel-min-work=0}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 parallel-min-work=0}),canonicalize,cse)' | FileCheck %s --check-prefix=NOVNNI
// With int16-pairs on AVX2 (8 lanes, 16 registers): the filter (100 is
// outside [-64, 64]) packed as int16 pairs [80/8, 2*3*3*16/2, 16], 2
// channels widened to int16 and broadcast, tiles of 4 pixels by 2 vectors;
// weights within [-64, 64] as bytes, clamped for vpmaddubsw.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 vector-registers=16 int16-pairs=true parallel-min-work=0}),canonicalize,cse)' | FileCheck %s --check-prefix=PAIRS

// CHECK-LABEL: func.func @conv_kernel
// CHECK-DAG: %[[CORR:.*]] = arith.constant dense<201600> : tensor<80xi32>
// CHECK-DAG: %[[PACKED:.*]] = arith.constant dense_resource<packed_int8_filter{{.*}}> : tensor<5x72x64xi8>
// CHECK: %[[PAD:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1, 0] [1, 2, 5, 5, 16]
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c6
// CHECK: scf.for %[[CB:.*]] = %c0 to %c2 step %c1 iter_args(
// CHECK-SAME: -> (vector<16xi32>, vector<16xi32>,
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: vector.transfer_read %[[PAD]][%c0, %[[CB]], %{{.*}}, %{{.*}}, %c0], %{{.*}} : tensor<1x2x7x7x16xi8>, vector<4xi8>
// CHECK: vector.broadcast %{{.*}} : i32 to vector<16xi32>
// CHECK: vector.transfer_read %[[PACKED]][%c0, %{{.*}}, %c0], %{{.*}} {in_bounds = [true]} : tensor<5x72x64xi8>, vector<64xi8>
// CHECK: arith.extsi %{{.*}} : vector<64xi8> to vector<64xi32>
// CHECK: vector.transfer_read %[[PACKED]][%c3, %{{.*}}, %c0]
// CHECK: arith.extui %{{.*}} : vector<64xi8> to vector<64xi32>
// CHECK: vector.shape_cast %{{.*}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.transfer_read %[[PAD]][%c0, %[[CB]], %{{.*}}, %{{.*}}, %c12]
// CHECK: scf.yield
// CHECK: vector.transfer_read %[[CORR]]
// CHECK: arith.subi %{{.*}} : vector<16xi32>
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<1x5x5x5x16xf32>
// The tile of the fifth output block: one vector per row.
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args({{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// The tail of one pixel: 4 and 1 output blocks.
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args({{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args({{[^,]*}}) -> (vector<16xi32>)
// PAIRS-LABEL: func.func @conv_kernel
// PAIRS-DAG: arith.constant dense<201600> : tensor<80xi32>
// PAIRS-DAG: %[[PACKED:.*]] = arith.constant dense_resource<packed_int8_filter{{.*}}> : tensor<10x144x16xi16>
// PAIRS: scf.for %{{.*}} = %c0 to %c24 step %c4
// PAIRS: vector.transfer_read %{{.*}} : tensor<1x2x7x7x16xi8>, vector<2xi8>
// PAIRS: arith.extui %{{.*}} : vector<2xi8> to vector<2xi16>
// PAIRS: vector.broadcast %{{.*}} : i32 to vector<8xi32>
// PAIRS: vector.bitcast %{{.*}} : vector<8xi32> to vector<16xi16>
// PAIRS: vector.transfer_read %[[PACKED]]{{.*}} : tensor<10x144x16xi16>, vector<16xi16>
// PAIRS: arith.extsi %{{.*}} : vector<16xi16> to vector<16xi32>
// PAIRS: vector.shape_cast %{{.*}} : vector<16xi32> to vector<8x2xi32>
// PAIRS: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<8x2xi32> to vector<8xi32>
// PAIRS: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<8xf32>, tensor<1x5x5x5x16xf32>
// NOVNNI-LABEL: func.func @conv_kernel
// NOVNNI-NOT: packed_int8_filter
// NOVNNI-NOT: vector<16x4xi32>
func.func @conv_kernel(%x: tensor<1x2x5x5x16xui8>) -> tensor<1x5x5x5x16xf32> {
  %w = graph.constant dense<100> : tensor<5x2x3x3x16x16xi8>
  %z = graph.constant dense<7> : tensor<ui8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %iz = graph.constant dense<0> : tensor<i32>
  %0 = graph.fusion_group "contraction"(%x, %w, %z, %s, %iz) : (tensor<1x2x5x5x16xui8>, tensor<5x2x3x3x16x16xi8>, tensor<ui8>, tensor<f32>, tensor<i32>) -> tensor<1x5x5x5x16xf32> {
  ^bb0(%a: tensor<1x2x5x5x16xui8>, %b: tensor<5x2x3x3x16x16xi8>, %az: tensor<ui8>, %sc: tensor<f32>, %zz: tensor<i32>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x5x5x16xui8>, tensor<5x2x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x5x5x5x16xi32>
    %f = graph.dequantize %acc, %sc, %zz : (tensor<1x5x5x5x16xi32>, tensor<f32>, tensor<i32>) -> tensor<1x5x5x5x16xf32>
    graph.yield %f : tensor<1x5x5x5x16xf32>
  }
  return %0 : tensor<1x5x5x5x16xf32>
}

// -----

// A signed input has its sign bit flipped before the product; a filter
// computed at run time is not packed: the generic stays. On AVX2 the -2
// weights are within [-64, 64]: packed as bytes, clamped (vpmaddubsw).
// PAIRS-LABEL: func.func @s8_and_runtime_filter
// PAIRS: arith.constant dense_resource<packed_int8_filter{{.*}}> : tensor<2x4x32xi8>
// PAIRS: arith.extsi %{{.*}} : vector<32xi8> to vector<32xi32>
// PAIRS: arith.maxsi %{{.*}} : vector<32xi32>
// PAIRS: arith.minsi %{{.*}} : vector<32xi32>
// PAIRS: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<8x4xi32> to vector<8xi32>
// CHECK-LABEL: func.func @s8_and_runtime_filter
// CHECK: arith.constant dense<-128> : vector<4xi8>
// CHECK: arith.xori %{{.*}} : vector<4xi8>
// CHECK: vector.multi_reduction <add>
// CHECK: linalg.generic
// CHECK-NOT: vector<16x4xi32>
func.func @s8_and_runtime_filter(%x: tensor<1x1x4x4x16xi8>, %wr: tensor<1x1x1x1x16x16xi8>) -> (tensor<1x1x4x4x16xi32>, tensor<1x1x4x4x16xi32>) {
  %w = graph.constant dense<-2> : tensor<1x1x1x1x16x16xi8>
  %z = graph.constant dense<0> : tensor<i8>
  %0 = graph.fusion_group "contraction"(%x, %w, %z) : (tensor<1x1x4x4x16xi8>, tensor<1x1x1x1x16x16xi8>, tensor<i8>) -> tensor<1x1x4x4x16xi32> {
  ^bb0(%a: tensor<1x1x4x4x16xi8>, %b: tensor<1x1x1x1x16x16xi8>, %az: tensor<i8>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4x16xi8>, tensor<1x1x1x1x16x16xi8>, tensor<i8>) -> tensor<1x1x4x4x16xi32>
    graph.yield %acc : tensor<1x1x4x4x16xi32>
  }
  %1 = graph.fusion_group "contraction"(%x, %wr, %z) : (tensor<1x1x4x4x16xi8>, tensor<1x1x1x1x16x16xi8>, tensor<i8>) -> tensor<1x1x4x4x16xi32> {
  ^bb0(%a: tensor<1x1x4x4x16xi8>, %b: tensor<1x1x1x1x16x16xi8>, %az: tensor<i8>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4x16xi8>, tensor<1x1x1x1x16x16xi8>, tensor<i8>) -> tensor<1x1x4x4x16xi32>
    graph.yield %acc : tensor<1x1x4x4x16xi32>
  }
  return %0, %1 : tensor<1x1x4x4x16xi32>, tensor<1x1x4x4x16xi32>
}

// -----

// Groups of two output blocks reading two input blocks each (groups = 2):
// tiles of 2 vectors (within one group) by 8 pixels; the input block of a
// tile is its group's: cb + (first vector floordiv 2) * 2.
// CHECK-DAG: #[[INBLOCK:.*]] = affine_map<(d0, d1) -> (d1 + (d0 floordiv 2) * 2)>
// CHECK-LABEL: func.func @grouped_kernel
// CHECK-DAG: arith.constant dense<480> : tensor<64xi32>
// CHECK-DAG: arith.constant dense_resource<packed_int8_filter{{.*}}> : tensor<4x8x64xi8>
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c8
// CHECK: scf.for %[[V0:.*]] = %c0 to %c4 step %c2
// CHECK: scf.for %[[CB:.*]] = %c0 to %c2 step %c1 iter_args({{.*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK: %[[B:.*]] = affine.apply #[[INBLOCK]](%[[V0]], %[[CB]])
// CHECK: vector.transfer_read %arg0[%c0, %[[B]], %{{.*}}, %{{.*}}, %c0]{{.*}} : tensor<1x4x5x5x16xi8>, vector<4xi8>
// CHECK-NOT: linalg.generic
func.func @grouped_kernel(%x: tensor<1x4x5x5x16xui8>) -> tensor<1x4x5x5x16xi32> {
  %w = graph.constant dense<5> : tensor<4x2x1x1x16x16xi8>
  %z = graph.constant dense<3> : tensor<ui8>
  %0 = graph.fusion_group "contraction"(%x, %w, %z) : (tensor<1x4x5x5x16xui8>, tensor<4x2x1x1x16x16xi8>, tensor<ui8>) -> tensor<1x4x5x5x16xi32> {
  ^bb0(%a: tensor<1x4x5x5x16xui8>, %b: tensor<4x2x1x1x16x16xi8>, %az: tensor<ui8>):
    %acc = graph.conv2d_integer_nchwc %a, %b, %az {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x5x5x16xui8>, tensor<4x2x1x1x16x16xi8>, tensor<ui8>) -> tensor<1x4x5x5x16xi32>
    graph.yield %acc : tensor<1x4x5x5x16xi32>
  }
  return %0 : tensor<1x4x5x5x16xi32>
}
