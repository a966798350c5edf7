// Integer matmul groups with constant int8 weights become vpdpbusd-shaped
// kernels with vnni=true (IntegerMatMulKernel.cpp): weights packed as
// [N/16 padded to 4 tiles, K/4, 64] bytes, 4 bytes of x broadcast, the
// byte products summed in groups of 4 (pure ops until mlc-x86-vnni-dot),
// the zero point's correction subtracted, the epilogue on the vectors.
// Without vnni the generic stays.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 vnni=true parallel-min-work=0}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 parallel-min-work=0}),canonicalize,cse)' | FileCheck %s --check-prefix=NOVNNI
// With threads (parallel-min-work=1): 9 rows are an scf.forall over the
// two blocks of 4 rows, then the last row (one tile of 4 vectors) on the
// calling thread, into the forall's result.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 vnni=true parallel-min-work=1}),canonicalize,cse)' | FileCheck %s --check-prefix=THREADS

// CHECK-LABEL: func.func @u8_matmul_dequantize
// CHECK-DAG: %[[PACKED:.*]] = arith.constant dense_resource<packed_int8_weight{{.*}}> : tensor<4x3x64xi8>
// CHECK-DAG: %[[CORR:.*]] = arith.constant dense<{{.*}}> : tensor<64xi32>
// CHECK: scf.for %[[K:arg[0-9]+]] = %c0 to %c3 step %c1 iter_args(
// CHECK: vector.transfer_read %{{.*}} : tensor<5x9xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.bitcast %{{.*}} : vector<16xi32> to vector<64xi8>
// CHECK: vector.transfer_read %[[PACKED]][%{{.*}}, %[[K]], %c0], %{{.*}} {in_bounds = [true]} : tensor<4x3x64xi8>, vector<64xi8>
// CHECK: arith.extsi %{{.*}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.extui %{{.*}} : vector<64xi8> to vector<64xi32>
// CHECK: arith.muli %{{.*}} : vector<64xi32>
// CHECK: vector.shape_cast %{{.*}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<16x4xi32> to vector<16xi32>
// CHECK: vector.transfer_read %[[CORR]]
// CHECK: arith.subi %{{.*}} : vector<16xi32>
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: vector.transfer_write %{{.*}} : vector<16xf32>, tensor<5x20xf32>
// NOVNNI-LABEL: func.func @u8_matmul_dequantize
// NOVNNI-NOT: vector.multi_reduction <add>, %{{.*}} : vector<16x4xi32>
// NOVNNI-NOT: packed_int8_weight
func.func @u8_matmul_dequantize(%x: tensor<5x9xui8>) -> tensor<5x20xf32> {
  %w = graph.constant dense<3> : tensor<9x20xi8>
  %xz = graph.constant dense<7> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<1x20xi8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i32>
  %0 = graph.fusion_group "contraction"(%x, %w, %xz, %wz, %s, %z) : (tensor<5x9xui8>, tensor<9x20xi8>, tensor<ui8>, tensor<1x20xi8>, tensor<f32>, tensor<i32>) -> tensor<5x20xf32> {
  ^bb0(%a: tensor<5x9xui8>, %b: tensor<9x20xi8>, %az: tensor<ui8>, %bz: tensor<1x20xi8>, %sc: tensor<f32>, %zz: tensor<i32>):
    %acc = graph.matmul_integer %a, %b, %az, %bz : (tensor<5x9xui8>, tensor<9x20xi8>, tensor<ui8>, tensor<1x20xi8>) -> tensor<5x20xi32>
    %f = graph.dequantize %acc, %sc, %zz : (tensor<5x20xi32>, tensor<f32>, tensor<i32>) -> tensor<5x20xf32>
    graph.yield %f : tensor<5x20xf32>
  }
  return %0 : tensor<5x20xf32>
}

// -----

// A signed x has its sign bit flipped (x + 128) before the product.
// CHECK-LABEL: func.func @s8_matmul
// CHECK: arith.constant dense<-128> : vector<4xi8>
// CHECK: arith.xori %{{.*}} : vector<4xi8>
// CHECK: vector.multi_reduction <add>
func.func @s8_matmul(%x: tensor<4x8xi8>) -> tensor<4x16xi32> {
  %w = graph.constant dense<-2> : tensor<8x16xi8>
  %z = graph.constant dense<0> : tensor<i8>
  %0 = graph.fusion_group "contraction"(%x, %w, %z) : (tensor<4x8xi8>, tensor<8x16xi8>, tensor<i8>) -> tensor<4x16xi32> {
  ^bb0(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %zz: tensor<i8>):
    %acc = graph.matmul_integer %a, %b, %zz, %zz : (tensor<4x8xi8>, tensor<8x16xi8>, tensor<i8>, tensor<i8>) -> tensor<4x16xi32>
    graph.yield %acc : tensor<4x16xi32>
  }
  return %0 : tensor<4x16xi32>
}

// -----

// Weights with a nonzero zero point, or computed at run time: the generic.
// CHECK-LABEL: func.func @not_symmetric
// CHECK-NOT: packed_int8_weight
// CHECK-NOT: vector<16x4xi32>
func.func @not_symmetric(%x: tensor<4x8xui8>, %w2: tensor<8x16xi8>) -> (tensor<4x16xi32>, tensor<4x16xi32>) {
  %w = graph.constant dense<-2> : tensor<8x16xi8>
  %z = graph.constant dense<0> : tensor<ui8>
  %wz = graph.constant dense<5> : tensor<i8>
  %wz0 = graph.constant dense<0> : tensor<i8>
  %0 = graph.fusion_group "contraction"(%x, %w, %z, %wz) : (tensor<4x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x16xi32> {
  ^bb0(%a: tensor<4x8xui8>, %b: tensor<8x16xi8>, %az: tensor<ui8>, %bz: tensor<i8>):
    %acc = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x16xi32>
    graph.yield %acc : tensor<4x16xi32>
  }
  %1 = graph.fusion_group "contraction"(%x, %w2, %z, %wz0) : (tensor<4x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x16xi32> {
  ^bb0(%a: tensor<4x8xui8>, %b: tensor<8x16xi8>, %az: tensor<ui8>, %bz: tensor<i8>):
    %acc = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x16xi32>
    graph.yield %acc : tensor<4x16xi32>
  }
  return %0, %1 : tensor<4x16xi32>, tensor<4x16xi32>
}

// -----

// CHECK-LABEL: func.func @rows_tail
// THREADS-LABEL: func.func @rows_tail
// THREADS: %[[F:.*]] = scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<9x16xi32>)
// THREADS: tensor.extract_slice {{.*}} [4, 16] [1, 1] : tensor<9x16xi32> to tensor<4x16xi32>
// THREADS: tensor.parallel_insert_slice
// THREADS: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// THREADS: vector.transfer_write %{{.*}}, %[[F]][%c8, %c0]
func.func @rows_tail(%x: tensor<9x8xui8>) -> tensor<9x16xi32> {
  %w = graph.constant dense<3> : tensor<8x16xi8>
  %xz = graph.constant dense<7> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %0 = graph.fusion_group "contraction"(%x, %w, %xz, %wz) : (tensor<9x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<9x16xi32> {
  ^bb0(%a: tensor<9x8xui8>, %b: tensor<8x16xi8>, %az: tensor<ui8>, %bz: tensor<i8>):
    %acc = graph.matmul_integer %a, %b, %az, %bz : (tensor<9x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<9x16xi32>
    graph.yield %acc : tensor<9x16xi32>
  }
  return %0 : tensor<9x16xi32>
}
