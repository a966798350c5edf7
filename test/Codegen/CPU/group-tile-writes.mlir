// A chain of 1-D tile writes becomes a few 2-D writes along the dim whose
// constant index alone differs (at most max-group = 4 rows each), so that
// one-shot bufferization analyses a short chain.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-group-tile-writes))' | FileCheck %s
// Bufferized and lowered, the 2-D writes are the 1-D stores again.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-group-tile-writes),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(convert-vector-to-scf{full-unroll}),canonicalize)' | FileCheck %s --check-prefix=LOWERED

// Six rows of one vector: rows 0-3 and 4-5, each row at its place.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[T:.*]]: tensor<6x16xf32>, %[[V0:.*]]: vector<16xf32>, %[[V1:.*]]: vector<16xf32>, %[[V2:.*]]: vector<16xf32>, %[[V3:.*]]: vector<16xf32>, %[[V4:.*]]: vector<16xf32>, %[[V5:.*]]: vector<16xf32>)
// CHECK: %[[A0:.*]] = vector.insert %[[V0]], %{{.*}} [0] : vector<16xf32> into vector<4x16xf32>
// CHECK: %[[A1:.*]] = vector.insert %[[V1]], %[[A0]] [1]
// CHECK: %[[A2:.*]] = vector.insert %[[V2]], %[[A1]] [2]
// CHECK: %[[A3:.*]] = vector.insert %[[V3]], %[[A2]] [3]
// CHECK: %[[W0:.*]] = vector.transfer_write %[[A3]], %[[T]][%{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<4x16xf32>, tensor<6x16xf32>
// CHECK: %[[B0:.*]] = vector.insert %[[V4]], %{{.*}} [0] : vector<16xf32> into vector<2x16xf32>
// CHECK: %[[B1:.*]] = vector.insert %[[V5]], %[[B0]] [1]
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[W1:.*]] = vector.transfer_write %[[B1]], %[[W0]][%[[C4]], %{{.*}}] {in_bounds = [true, true]} : vector<2x16xf32>, tensor<6x16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: return %[[W1]]
// LOWERED-LABEL: func.func @rows
// LOWERED-COUNT-6: vector.transfer_write %{{.*}} : vector<16xf32>, memref<6x16xf32>
// LOWERED-NEXT: return
func.func @rows(%t: tensor<6x16xf32>, %v0: vector<16xf32>, %v1: vector<16xf32>,
                %v2: vector<16xf32>, %v3: vector<16xf32>, %v4: vector<16xf32>,
                %v5: vector<16xf32>) -> tensor<6x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %0 = vector.transfer_write %v0, %t[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<6x16xf32>
  %1 = vector.transfer_write %v1, %0[%c1, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<6x16xf32>
  %2 = vector.transfer_write %v2, %1[%c2, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<6x16xf32>
  %3 = vector.transfer_write %v3, %2[%c3, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<6x16xf32>
  %4 = vector.transfer_write %v4, %3[%c4, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<6x16xf32>
  %5 = vector.transfer_write %v5, %4[%c5, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<6x16xf32>
  return %5 : tensor<6x16xf32>
}

// -----

// A matmul tile: rows x two vectors, interleaved, under a shared dynamic
// index. The rows of each column offset are grouped; the writes keep the
// dynamic index.
// CHECK-LABEL: func.func @tile
// CHECK-SAME: %[[I:[a-z0-9]+]]: index
// CHECK-COUNT-2: vector.transfer_write %{{.*}}, %{{.*}}[%[[I]], %{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<4x16xf32>, tensor<8x4x32xf32>
// CHECK-NOT: vector.transfer_write
func.func @tile(%t: tensor<8x4x32xf32>, %i: index, %v0: vector<16xf32>,
                %v1: vector<16xf32>, %v2: vector<16xf32>, %v3: vector<16xf32>)
    -> tensor<8x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %0 = vector.transfer_write %v0, %t[%i, %c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  %1 = vector.transfer_write %v1, %0[%i, %c0, %c16] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  %2 = vector.transfer_write %v2, %1[%i, %c1, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  %3 = vector.transfer_write %v3, %2[%i, %c1, %c16] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  %4 = vector.transfer_write %v0, %3[%i, %c2, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  %5 = vector.transfer_write %v1, %4[%i, %c2, %c16] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  %6 = vector.transfer_write %v2, %5[%i, %c3, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  %7 = vector.transfer_write %v3, %6[%i, %c3, %c16] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x32xf32>
  return %7 : tensor<8x4x32xf32>
}

// -----

// Two writes to the same row: reordering them would change the result.
// CHECK-LABEL: func.func @overlap
// CHECK-COUNT-4: vector.transfer_write %{{.*}} : vector<16xf32>, tensor<4x32xf32>
// CHECK-NOT: vector.insert
func.func @overlap(%t: tensor<4x32xf32>, %v: vector<16xf32>) -> tensor<4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %0 = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<4x32xf32>
  %1 = vector.transfer_write %v, %0[%c1, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<4x32xf32>
  %2 = vector.transfer_write %v, %1[%c2, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<4x32xf32>
  %3 = vector.transfer_write %v, %2[%c0, %c8] {in_bounds = [true]} : vector<16xf32>, tensor<4x32xf32>
  return %3 : tensor<4x32xf32>
}

// -----

// Indices that differ at run time, an intermediate result read elsewhere,
// and chains shorter than min-chain (4) stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-8: vector.transfer_write %{{.*}} : vector<16xf32>, tensor<8x16xf32>
// CHECK-NOT: vector.insert
func.func @unchanged(%t: tensor<8x16xf32>, %v: vector<16xf32>, %i: index,
                     %j: index) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = vector.transfer_write %v, %t[%i, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x16xf32>
  %1 = vector.transfer_write %v, %0[%j, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x16xf32>
  %2 = vector.transfer_write %v, %1[%c1, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x16xf32>
  %3 = vector.transfer_write %v, %2[%c2, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x16xf32>
  %4 = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x16xf32>
  %5 = vector.transfer_write %v, %4[%c1, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x16xf32>
  %6 = vector.transfer_write %v, %5[%c2, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x16xf32>
  %7 = vector.transfer_write %v, %6[%c0, %c0] {in_bounds = [false]} : vector<16xf32>, tensor<8x16xf32>
  return %3, %5, %7 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
