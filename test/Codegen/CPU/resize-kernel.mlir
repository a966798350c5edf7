// Resize groups with constant tables become row kernels (ResizeKernel.cpp):
// per output row, the taps of the outer axes are summed on contiguous input
// vectors, the last axis's taps picked from them with constant shuffles;
// tiles with the same shuffles share one loop; an elementwise epilogue is
// applied to the vectors before the store.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 parallel-min-work=0}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 parallel-min-work=1}),canonicalize,cse)' | FileCheck %s --check-prefix=THREADS

// Bilinear 16 -> 32 along H and W (LR-ASPP's upsampling): for each output
// row, the two input rows it reads are weighted and added on 8 input
// columns at a time; each 8-column output tile picks its two taps' columns
// with shuffles. The first tile (clamped at the left edge) and the last
// (clamped at the right edge) differ from the two in between, which share
// one loop reading 4 columns further per tile.
// CHECK-DAG: #[[OW:.*]] = affine_map<(d0) -> (d0 * 8 + 8)>
// CHECK-DAG: #[[BASE:.*]] = affine_map<(d0) -> (d0 * 4 + 3)>
// CHECK-LABEL: func.func @bilinear
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x16x16xf32>)
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[C:.*]] = %c0 to %c2
// CHECK: scf.for %[[OH:.*]] = %c0 to %c32
// CHECK: %[[IH0:.*]] = tensor.extract %[[IDX:.*]][%c0, %[[OH]]] : tensor<2x32xi64>
// CHECK: %[[R0:.*]] = arith.index_cast %[[IH0]]
// CHECK: %[[V0:.*]] = vector.transfer_read %[[X]][%c0, %[[C]], %[[R0]], %c0], %{{.*}} {in_bounds = [true]} : tensor<1x2x16x16xf32>, vector<8xf32>
// CHECK: %[[WH0:.*]] = vector.broadcast
// CHECK: arith.mulf %[[WH0]], %[[V0]]
// CHECK: vector.transfer_read %[[X]]
// CHECK: %[[COLS:.*]] = arith.addf
// CHECK: %[[T0:.*]] = vector.shuffle %[[COLS]], %[[COLS]] [0, 0, 0, 1, 1, 2, 2, 3]
// CHECK: %[[WW0:.*]] = vector.transfer_read %[[W:.*]][%c0, %c0], %{{.*}} {in_bounds = [true]} : tensor<2x32xf32>, vector<8xf32>
// CHECK: arith.mulf %[[WW0]], %[[T0]]
// CHECK: vector.shuffle %[[COLS]], %[[COLS]] [0, 1, 1, 2, 2, 3, 3, 4]
// CHECK: vector.transfer_write %{{.*}}[%c0, %[[C]], %[[OH]], %c0] {in_bounds = [true]}
// CHECK: scf.for %[[T:.*]] = %c0 to %c2 step %c1
// CHECK: %[[OW0:.*]] = affine.apply #[[OW]](%[[T]])
// CHECK: %[[B:.*]] = affine.apply #[[BASE]](%[[T]])
// CHECK: vector.transfer_read %[[X]][%c0, %[[C]], %[[R0]], %[[B]]]
// CHECK: vector.shuffle %{{.*}} [0, 1, 1, 2, 2, 3, 3, 4]
// CHECK: vector.transfer_read %[[W]][%c0, %[[OW0]]]
// CHECK: vector.shuffle %{{.*}} [1, 2, 2, 3, 3, 4, 4, 5]
// CHECK: vector.transfer_write %{{.*}}[%c0, %[[C]], %[[OH]], %[[OW0]]] {in_bounds = [true]}
// CHECK: scf.yield
// The last tile loads the last 8 columns (in bounds), its taps at lanes 3-7.
// CHECK: vector.transfer_read %[[X]][%c0, %[[C]], %[[R0]], %c8]
// CHECK: vector.shuffle %{{.*}} [3, 4, 4, 5, 5, 6, 6, 7]
// CHECK: vector.shuffle %{{.*}} [4, 5, 5, 6, 6, 7, 7, 7]
// CHECK: vector.transfer_write %{{.*}}[%c0, %[[C]], %[[OH]], %c24] {in_bounds = [true]}
// THREADS-LABEL: func.func @bilinear
// THREADS: scf.forall (%{{.*}}) in (2)
func.func @bilinear(%x: tensor<1x2x16x16xf32>) -> tensor<1x2x32x32xf32> {
  %i = graph.constant dense<[[0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15], [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 15]]> : tensor<2x32xi64>
  %w = graph.constant dense<[[1.0, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 1.0], [0.0, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.0]]> : tensor<2x32xf32>
  %0 = graph.fusion_group "resize"(%x, %i, %w) : (tensor<1x2x16x16xf32>, tensor<2x32xi64>, tensor<2x32xf32>) -> tensor<1x2x32x32xf32> {
  ^bb0(%a: tensor<1x2x16x16xf32>, %b: tensor<2x32xi64>, %c: tensor<2x32xf32>):
    %1 = graph.resize %a, [%b, %b], [%c, %c] {axes = array<i64: 2, 3>} : (tensor<1x2x16x16xf32>, tensor<2x32xi64>, tensor<2x32xi64>, tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<1x2x32x32xf32>
    graph.yield %1 : tensor<1x2x32x32xf32>
  }
  return %0 : tensor<1x2x32x32xf32>
}

// -----

// Nearest 5 -> 10 along the last axis: one tap of weight 1, so no
// multiply; a row of 5 is one masked load. The 2-column tail tile reads
// the same vector and writes a masked store.
// CHECK-LABEL: func.func @nearest
// CHECK-NOT: arith.mulf
// CHECK: scf.for %[[R:.*]] = %c0 to %c3
// CHECK: %[[V:.*]] = vector.transfer_read %{{.*}}[%[[R]], %c0], %{{.*}} : tensor<3x5xf32>, vector<8xf32>
// CHECK: %[[A:.*]] = vector.shuffle %[[V]], %[[V]] [0, 0, 1, 1, 2, 2, 3, 3]
// CHECK: vector.transfer_write %[[A]], %{{.*}}[%[[R]], %c0] {in_bounds = [true]}
// CHECK: %[[B:.*]] = vector.shuffle %[[V]], %[[V]] [4, 4, 0, 0, 0, 0, 0, 0]
// CHECK: vector.transfer_write %[[B]], %{{.*}}[%[[R]], %c8] : vector<8xf32>, tensor<3x10xf32>
func.func @nearest(%x: tensor<3x5xf32>) -> tensor<3x10xf32> {
  %i = graph.constant dense<[[0, 0, 1, 1, 2, 2, 3, 3, 4, 4]]> : tensor<1x10xi64>
  %w = graph.constant dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<1x10xf32>
  %0 = graph.fusion_group "resize"(%x, %i, %w) : (tensor<3x5xf32>, tensor<1x10xi64>, tensor<1x10xf32>) -> tensor<3x10xf32> {
  ^bb0(%a: tensor<3x5xf32>, %b: tensor<1x10xi64>, %c: tensor<1x10xf32>):
    %1 = graph.resize %a, [%b], [%c] {axes = array<i64: 1>} : (tensor<3x5xf32>, tensor<1x10xi64>, tensor<1x10xf32>) -> tensor<3x10xf32>
    graph.yield %1 : tensor<3x10xf32>
  }
  return %0 : tensor<3x10xf32>
}

// -----

// Only an outer axis: rows are contiguous vectors, no shuffles. The
// epilogue reads a row operand as vectors and a per-row operand as a
// broadcast scalar; the 3-column tail loads and stores masked.
// CHECK-LABEL: func.func @rows_epilogue
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x11xf32>, %[[Y:.*]]: tensor<2x1x11xf32>, %[[S:.*]]: tensor<2x6x1xf32>)
// CHECK-NOT: vector.shuffle
// CHECK: scf.for %[[N:.*]] = %c0 to %c2
// CHECK: scf.for %[[OH:.*]] = %c0 to %c6
// CHECK: vector.transfer_read %[[X]][%[[N]], %{{.*}}, %c0], %{{.*}} {in_bounds = [true]}
// CHECK: vector.transfer_read %[[X]][%[[N]], %{{.*}}, %c0], %{{.*}} {in_bounds = [true]}
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: %[[YV:.*]] = vector.transfer_read %[[Y]][%[[N]], %c0, %c0], %{{.*}} {in_bounds = [true]}
// CHECK: %[[SV:.*]] = tensor.extract %[[S]][%[[N]], %[[OH]], %c0]
// CHECK: %[[SB:.*]] = vector.broadcast %[[SV]]
// CHECK: %[[E:.*]] = arith.addf %[[SUM]], %[[YV]]
// CHECK: %[[M:.*]] = arith.mulf %[[E]], %[[SB]]
// CHECK: vector.transfer_write %[[M]], %{{.*}}[%[[N]], %[[OH]], %c0] {in_bounds = [true]}
// CHECK: vector.transfer_read %[[X]][%[[N]], %{{.*}}, %c8], %{{.*}} : tensor<2x3x11xf32>, vector<8xf32>
// CHECK: vector.transfer_write %{{.*}}[%[[N]], %[[OH]], %c8] : vector<8xf32>, tensor<2x6x11xf32>
func.func @rows_epilogue(%x: tensor<2x3x11xf32>, %y: tensor<2x1x11xf32>, %s: tensor<2x6x1xf32>) -> tensor<2x6x11xf32> {
  %i = graph.constant dense<[[0, 0, 0, 1, 1, 2], [0, 1, 1, 2, 2, 2]]> : tensor<2x6xi64>
  %w = graph.constant dense<[[1.0, 0.75, 0.25, 0.75, 0.25, 1.0], [0.0, 0.25, 0.75, 0.25, 0.75, 0.0]]> : tensor<2x6xf32>
  %0 = graph.fusion_group "resize"(%x, %i, %w, %y, %s) : (tensor<2x3x11xf32>, tensor<2x6xi64>, tensor<2x6xf32>, tensor<2x1x11xf32>, tensor<2x6x1xf32>) -> tensor<2x6x11xf32> {
  ^bb0(%a: tensor<2x3x11xf32>, %b: tensor<2x6xi64>, %c: tensor<2x6xf32>, %d: tensor<2x1x11xf32>, %e: tensor<2x6x1xf32>):
    %1 = graph.resize %a, [%b], [%c] {axes = array<i64: 1>} : (tensor<2x3x11xf32>, tensor<2x6xi64>, tensor<2x6xf32>) -> tensor<2x6x11xf32>
    %2 = graph.add %1, %d : (tensor<2x6x11xf32>, tensor<2x1x11xf32>) -> tensor<2x6x11xf32>
    %3 = graph.mul %2, %e : (tensor<2x6x11xf32>, tensor<2x6x1xf32>) -> tensor<2x6x11xf32>
    graph.yield %3 : tensor<2x6x11xf32>
  }
  return %0 : tensor<2x6x11xf32>
}

// -----

// align_corners 4 -> 7: one tile, emitted on its own; a dimension of size
// 1 is no loop.
// CHECK-LABEL: func.func @align_corners
// CHECK-NOT: scf.for
// CHECK: vector.shuffle
// CHECK: return
func.func @align_corners(%x: tensor<1x4xf32>) -> tensor<1x7xf32> {
  %i = graph.constant dense<[[0, 0, 1, 1, 2, 2, 3], [0, 1, 1, 2, 2, 3, 3]]> : tensor<2x7xi64>
  %w = graph.constant dense<[[1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0], [0.0, 0.5, 0.0, 0.5, 0.0, 0.5, 0.0]]> : tensor<2x7xf32>
  %0 = graph.fusion_group "resize"(%x, %i, %w) : (tensor<1x4xf32>, tensor<2x7xi64>, tensor<2x7xf32>) -> tensor<1x7xf32> {
  ^bb0(%a: tensor<1x4xf32>, %b: tensor<2x7xi64>, %c: tensor<2x7xf32>):
    %1 = graph.resize %a, [%b], [%c] {axes = array<i64: 1>} : (tensor<1x4xf32>, tensor<2x7xi64>, tensor<2x7xf32>) -> tensor<1x7xf32>
    graph.yield %1 : tensor<1x7xf32>
  }
  return %0 : tensor<1x7xf32>
}

// -----

// Tables that are not constants: the generic (tiled, one element at a
// time) stays.
// CHECK-LABEL: func.func @runtime_tables
// CHECK: linalg.generic
// CHECK-SAME: mlc.resize_axes = array<i64: 1>
// CHECK: tensor.extract
func.func @runtime_tables(%x: tensor<3x5xf32>, %i: tensor<1x10xi64>, %w: tensor<1x10xf32>) -> tensor<3x10xf32> {
  %0 = graph.fusion_group "resize"(%x, %i, %w) : (tensor<3x5xf32>, tensor<1x10xi64>, tensor<1x10xf32>) -> tensor<3x10xf32> {
  ^bb0(%a: tensor<3x5xf32>, %b: tensor<1x10xi64>, %c: tensor<1x10xf32>):
    %1 = graph.resize %a, [%b], [%c] {axes = array<i64: 1>} : (tensor<3x5xf32>, tensor<1x10xi64>, tensor<1x10xf32>) -> tensor<3x10xf32>
    graph.yield %1 : tensor<3x10xf32>
  }
  return %0 : tensor<3x10xf32>
}
