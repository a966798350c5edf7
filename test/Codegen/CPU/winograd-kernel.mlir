// Blocked Winograd transforms become loops over whole tiles with vectors
// along the channel lanes (WinogradKernel.cpp), computed separably with
// constant coefficients: no linalg.generic is left.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 parallel-min-work=0}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 parallel-min-work=1}),canonicalize,cse)' | FileCheck %s --check-prefix=THREADS
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 parallel-min-work=0}),canonicalize,cse)' | FileCheck %s --check-prefix=READS

// Input transform of 2x2 tiles of 2 channel blocks: loops over tile rows,
// tile columns and channel blocks; each tile's 36 input vectors are read
// once (4 * th + i, 4 * tw + j), B^T's coefficients other than +-1 are
// vector constants, and the 36 points are stored to their planes.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-LABEL: func.func @input
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x10x10x8xf32>)
// CHECK-NOT: linalg.generic
// CHECK-DAG: arith.constant dense<-5.000000e+00> : vector<8xf32>
// CHECK-DAG: arith.constant dense<4.000000e+00> : vector<8xf32>
// CHECK: scf.for %[[TH:.*]] = %c0 to %c2
// CHECK: scf.for %[[TW:.*]] = %c0 to %c2
// CHECK: scf.for %[[CB:.*]] = %c0 to %c2
// CHECK: %[[I0:.*]] = affine.apply #[[ROW]](%[[TH]])
// CHECK: %[[J0:.*]] = affine.apply #[[ROW]](%[[TW]])
// CHECK: vector.transfer_read %[[X]][%c0, %[[CB]], %[[I0]], %[[J0]], %c0], %{{.*}} {in_bounds = [true]} : tensor<1x2x10x10x8xf32>, vector<8xf32>
// CHECK: vector.transfer_write %{{.*}}[%c0, %c0, %[[TH]], %[[TW]], %[[CB]], %c0] {in_bounds = [true]} : vector<8xf32>, tensor<36x1x2x2x2x8xf32>
// CHECK: vector.transfer_write %{{.*}}[%c35, %c0, %[[TH]], %[[TW]], %[[CB]], %c0] {in_bounds = [true]}
// CHECK-NOT: linalg.generic
// READS-LABEL: func.func @input
// READS-COUNT-36: vector.transfer_read
// READS-NOT: vector.transfer_read
// READS: return
// With threads, the tile rows are split.
// THREADS-LABEL: func.func @input
// THREADS: scf.forall (%{{.*}}) in (2)
func.func @input(%x: tensor<1x2x10x10x8xf32>) -> tensor<36x1x2x2x2x8xf32> {
  %0 = graph.fusion_group "winograd"(%x) : (tensor<1x2x10x10x8xf32>) -> tensor<36x1x2x2x2x8xf32> {
  ^bb0(%a: tensor<1x2x10x10x8xf32>):
    %1 = graph.winograd_input %a : (tensor<1x2x10x10x8xf32>) -> tensor<36x1x2x2x2x8xf32>
    graph.yield %1 : tensor<36x1x2x2x2x8xf32>
  }
  return %0 : tensor<36x1x2x2x2x8xf32>
}

// -----

// Output transform to 6x7 with a bias, a residual add and a ReLU as the
// epilogue: per channel block, the whole tile (4x4 outputs), the tile cut
// to 3 columns, then the bottom row of tiles cut to 2 rows (4x2 tiles +
// 2x3). Every output is written once, after the epilogue.
// CHECK-LABEL: func.func @output
// CHECK-SAME: (%[[M:.*]]: tensor<36x1x2x2x3x8xf32>, %[[R:.*]]: tensor<1x3x6x7x8xf32>)
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[KB:.*]] = %c0 to %c3
// CHECK: vector.transfer_read %[[M]][%c0, %c0, %c0, %c0, %[[KB]], %c0]
// CHECK: %[[RES:.*]] = vector.transfer_read %[[R]][%c0, %[[KB]], %c0, %c0, %c0]
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[RES]]
// CHECK: %[[Y:.*]] = arith.maximumf %[[S]]
// CHECK: vector.transfer_write %[[Y]], %{{.*}}[%c0, %[[KB]], %c0, %c0, %c0] {in_bounds = [true]}
// CHECK: vector.transfer_write %{{.*}}[%c0, %[[KB]], %c3, %c3, %c0]
// CHECK: vector.transfer_write %{{.*}}[%c0, %[[KB]], %c0, %c6, %c0]
// CHECK-NOT: vector.transfer_write %{{.*}}[%c0, %[[KB]], %c{{[0-9]}}, %c7, %c0]
// CHECK: vector.transfer_write %{{.*}}[%c0, %[[KB]], %c5, %c6, %c0]
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield
// READS-LABEL: func.func @output
// READS-COUNT-42: vector.transfer_write
// READS-NOT: vector.transfer_write
// READS: return
// THREADS-LABEL: func.func @output
// THREADS: scf.forall (%{{.*}}) in (3)
func.func @output(%m: tensor<36x1x2x2x3x8xf32>, %r: tensor<1x3x6x7x8xf32>) -> tensor<1x3x6x7x8xf32> {
  %b = graph.constant dense<0.5> : tensor<1x3x1x1x8xf32>
  %0 = graph.fusion_group "winograd"(%m, %b, %r) : (tensor<36x1x2x2x3x8xf32>, tensor<1x3x1x1x8xf32>, tensor<1x3x6x7x8xf32>) -> tensor<1x3x6x7x8xf32> {
  ^bb0(%a: tensor<36x1x2x2x3x8xf32>, %c: tensor<1x3x1x1x8xf32>, %d: tensor<1x3x6x7x8xf32>):
    %1 = graph.winograd_output %a {output_size = array<i64: 6, 7>} : (tensor<36x1x2x2x3x8xf32>) -> tensor<1x3x6x7x8xf32>
    %2 = graph.add %1, %c : (tensor<1x3x6x7x8xf32>, tensor<1x3x1x1x8xf32>) -> tensor<1x3x6x7x8xf32>
    %3 = graph.add %2, %d : (tensor<1x3x6x7x8xf32>, tensor<1x3x6x7x8xf32>) -> tensor<1x3x6x7x8xf32>
    %4 = graph.relu %3 : tensor<1x3x6x7x8xf32>
    graph.yield %4 : tensor<1x3x6x7x8xf32>
  }
  return %0 : tensor<1x3x6x7x8xf32>
}
