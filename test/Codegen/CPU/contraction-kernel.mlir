// Contraction groups become register-blocked vector kernels: accumulators
// carried in registers by the reduction loops, vector FMAs, the epilogue on
// the accumulators, static tails (masked last vector, fewer rows).
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 vector-registers=16 parallel-min-work=0}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=512 vector-registers=32 parallel-min-work=1}),canonicalize,cse)' | FileCheck %s --check-prefix=AVX512

// matmul 13x20 . 20x24 with bias + relu on 8-float vectors: nr = 2 vectors
// (16 columns) then an 8-column tail; mr = 5 rows (10 accumulators of the
// 16 registers) then a 3-row tail; the one-vector column tail takes 10
// rows (the same 10 accumulators) and a 3-row tail. B is a graph input
// used by 3 row tiles: read in place, no packing.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-NOT: linalg.generic
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK: scf.for %[[K:.*]] = %c0 to %c20 step %c1 iter_args(%{{.*}} = %[[Z:[a-z_0-9]*]], %{{.*}} = %[[Z]],
// CHECK-COUNT-5: vector.broadcast
// CHECK: vector.transfer_read %{{.*}}[%[[K]], %c0], %{{.*}} {in_bounds = [true]} : tensor<20x24xf32>, vector<8xf32>
// CHECK: vector.transfer_read %{{.*}}[%[[K]], %c8], %{{.*}} {in_bounds = [true]} : tensor<20x24xf32>, vector<8xf32>
// CHECK-COUNT-10: vector.fma
// CHECK: scf.yield
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<8xf32>, tensor<13x24xf32>
// The 3-row tail of the first 16 columns:
// CHECK: scf.for %{{.*}} = %c0 to %c20 step %c1 iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-6: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// then the 8-column tail, 10 rows and 3 rows.
// CHECK: scf.for %{{.*}} = %c0 to %c20 step %c1 iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]]) -> (
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %c16], %{{.*}} {in_bounds = [true]} : tensor<20x24xf32>, vector<8xf32>
// CHECK-COUNT-10: vector.fma
// CHECK-NOT: vector.fma
// CHECK: vector.transfer_write %{{.*}}[%c9, %c16] {in_bounds = [true]} : vector<8xf32>, tensor<13x24xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c20 step %c1 iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: return
// With AVX-512 and a forall allowed for any size: the row tiles run in
// parallel, vectors are 16 floats.
// AVX512-LABEL: func.func @matmul_bias_relu
// AVX512: scf.forall
// AVX512: vector<16xf32>
func.func @matmul_bias_relu(%x: tensor<13x20xf32>, %w: tensor<20x24xf32>, %b: tensor<24xf32>) -> tensor<13x24xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<13x20xf32>, tensor<20x24xf32>, tensor<24xf32>) -> tensor<13x24xf32> {
  ^bb0(%a: tensor<13x20xf32>, %c: tensor<20x24xf32>, %d: tensor<24xf32>):
    %1 = graph.matmul %a, %c : (tensor<13x20xf32>, tensor<20x24xf32>) -> tensor<13x24xf32>
    %2 = graph.add %1, %d : (tensor<13x24xf32>, tensor<24xf32>) -> tensor<13x24xf32>
    %3 = graph.relu %2 : tensor<13x24xf32>
    graph.yield %3 : tensor<13x24xf32>
  }
  return %0 : tensor<13x24xf32>
}

// -----

// A constant right-hand side is packed at compile time into
// [N/nr, K, nr] = [2, 5, 16] (zero-padded from 20 columns): every load is a
// full contiguous vector, the last tile's writes are masked.
// CHECK-LABEL: func.func @matmul_packed_weights
// CHECK: %[[P:.*]] = arith.constant dense_resource<packed_weight> : tensor<2x5x16xf32>
// CHECK: vector.transfer_read %[[P]][%c0, %{{.*}}, %c0], %{{.*}} {in_bounds = [true]}
// CHECK: vector.transfer_read %[[P]][%c0, %{{.*}}, %c8], %{{.*}} {in_bounds = [true]}
// CHECK: vector.transfer_read %[[P]][%c1, %{{.*}}, %c0], %{{.*}} {in_bounds = [true]}
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c16] : vector<8xf32>, tensor<3x20xf32>
func.func @matmul_packed_weights(%x: tensor<3x5xf32>) -> tensor<3x20xf32> {
  %w = graph.constant dense<0.5> : tensor<5x20xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<3x5xf32>, tensor<5x20xf32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<3x5xf32>, %c: tensor<5x20xf32>):
    %1 = graph.matmul %a, %c : (tensor<3x5xf32>, tensor<5x20xf32>) -> tensor<3x20xf32>
    graph.yield %1 : tensor<3x20xf32>
  }
  return %0 : tensor<3x20xf32>
}

// -----

// NCHW convolution with bias: rows are output channels (the filter is the
// broadcast operand), vectors run along the output row; the bias seeds the
// accumulators; the reduction loops are c, kh, kw. Stride 2 reads a wide
// masked vector and keeps every other lane.
// CHECK-LABEL: func.func @conv_stride2
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args
// CHECK-COUNT-8: tensor.extract %{{.*}} : tensor<8xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args
// CHECK: vector.transfer_read {{.*}} : tensor<1x4x9x9xf32>, vector<16xf32>
// CHECK: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK-COUNT-8: vector.fma
// The 4-wide output rows: masked stores (no in_bounds).
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0, %{{.*}}, %c0] : vector<8xf32>, tensor<1x8x4x4xf32>
func.func @conv_stride2(%x: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  ^bb0(%a: tensor<1x4x9x9xf32>, %c: tensor<8x4x3x3xf32>, %d: tensor<8xf32>):
    %1 = graph.conv2d %a, %c, %d {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
    graph.yield %1 : tensor<1x8x4x4xf32>
  }
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// The same stride-2 read with 48 output channels (5 row tiles of 10): the
// input is deinterleaved once before the loops into [..., row, phase,
// column], t[.., ph, c] = x[.., 2c + ph], its 9 columns zero-padded to
// 2 * 9 = 18 so that every vector of the 4-wide rows, kw = 2 included
// (column 1 + 8 lanes), is an unmasked read. In the loops kw picks the
// phase kw mod 2 and the column offset kw floordiv 2.
// CHECK-LABEL: func.func @conv_stride2_deinterleaved
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 0, 9]
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[PAD]] : tensor<1x4x9x18xf32>) outs(%{{.*}} : tensor<1x4x9x2x9xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args
// CHECK-DAG: %[[PH:.*]] = affine.apply #{{.*}}(%[[KW]])
// CHECK-DAG: %[[COL:.*]] = affine.apply #{{.*}}(%[[KW]])
// CHECK: vector.transfer_read %[[T]][%c0, %{{.*}}, %{{.*}}, %[[PH]], %[[COL]]], %{{.*}} {in_bounds = [true]} : tensor<1x4x9x2x9xf32>, vector<8xf32>
// CHECK-NOT: vector.shuffle
// CHECK-COUNT-10: vector.fma
func.func @conv_stride2_deinterleaved(%x: tensor<1x4x9x9xf32>, %w: tensor<48x4x3x3xf32>) -> tensor<1x48x4x4xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x4x9x9xf32>, tensor<48x4x3x3xf32>) -> tensor<1x48x4x4xf32> {
  ^bb0(%a: tensor<1x4x9x9xf32>, %c: tensor<48x4x3x3xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x9x9xf32>, tensor<48x4x3x3xf32>) -> tensor<1x48x4x4xf32>
    graph.yield %1 : tensor<1x48x4x4xf32>
  }
  return %0 : tensor<1x48x4x4xf32>
}

// -----

// A 1x1 convolution: its kh and kw (extent 1) drop out of the input's
// indices, so x[c, oh, ow] is read by plain dims and, being used by 5 row
// tiles and large, is packed as [oh, n tiles, c, 8] (7-wide rows padded to
// a whole vector). One vector column against 10 broadcast rows: the
// c loop (400 long) asks LLVM not to unroll it.
// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[HINT:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @conv1x1_packed_no_unroll
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x1x400x8xf32>)
// CHECK: scf.for %[[C:.*]] = %c0 to %c400 step %c1 iter_args
// CHECK: vector.transfer_read %[[P]][%{{.*}}, %c0, %[[C]], %c0], %{{.*}} {in_bounds = [true]} : tensor<6x1x400x8xf32>, vector<8xf32>
// CHECK-COUNT-10: vector.fma
// CHECK: } {llvm.loop_annotation = #[[HINT]]}
func.func @conv1x1_packed_no_unroll(%x: tensor<1x400x6x7xf32>, %w: tensor<48x400x1x1xf32>) -> tensor<1x48x6x7xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x400x6x7xf32>, tensor<48x400x1x1xf32>) -> tensor<1x48x6x7xf32> {
  ^bb0(%a: tensor<1x400x6x7xf32>, %c: tensor<48x400x1x1xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x400x6x7xf32>, tensor<48x400x1x1xf32>) -> tensor<1x48x6x7xf32>
    graph.yield %1 : tensor<1x48x6x7xf32>
  }
  return %0 : tensor<1x48x6x7xf32>
}

// -----

// A 1x1 stride-2 convolution reads x[c, 2 oh, 2 ow]: packing copies only
// what is read, x[c, 2 oh, 2 (8 t + l)] into [oh, t, c, l], from a source
// zero-padded to 2 * 7 + 1 = 15 columns; the kernel's loads are then plain.
// CHECK-LABEL: func.func @conv1x1_stride2_packed
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 0, 2]
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[SRC:.*]], #{{.*}}]{{.*}} ins(%[[PAD]] : tensor<1x400x12x15xf32>) outs(%{{.*}} : tensor<6x1x400x8xf32>)
// CHECK: vector.transfer_read %[[P]][%{{.*}}, %c0, %{{.*}}, %c0], %{{.*}} {in_bounds = [true]} : tensor<6x1x400x8xf32>, vector<8xf32>
// CHECK-NOT: vector.shuffle
func.func @conv1x1_stride2_packed(%x: tensor<1x400x12x13xf32>, %w: tensor<48x400x1x1xf32>) -> tensor<1x48x6x7xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x400x12x13xf32>, tensor<48x400x1x1xf32>) -> tensor<1x48x6x7xf32> {
  ^bb0(%a: tensor<1x400x12x13xf32>, %c: tensor<48x400x1x1xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x400x12x13xf32>, tensor<48x400x1x1xf32>) -> tensor<1x48x6x7xf32>
    graph.yield %1 : tensor<1x48x6x7xf32>
  }
  return %0 : tensor<1x48x6x7xf32>
}

// -----

// Depthwise convolution: no outer product exists (input and filter both
// vary with the channel), so rows are output rows of the vector operand and
// the filter tap is one broadcast shared by all rows.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: tensor.expand_shape
// CHECK: scf.for %[[C:.*]] = %c0 to %c6 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args
// CHECK-COUNT-4: vector.transfer_read {{.*}} : tensor<1x6x10x10xf32>, vector<8xf32>
// CHECK: tensor.extract %{{.*}}[%[[C]], %c0, %[[KH]], %[[KW]]] : tensor<6x1x3x3xf32>
// CHECK: vector.broadcast
// CHECK-COUNT-4: vector.fma
func.func @depthwise(%x: tensor<1x6x10x10xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x8x8xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x6x10x10xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x8x8xf32> {
  ^bb0(%a: tensor<1x6x10x10xf32>, %c: tensor<6x1x3x3xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 6 : i64} : (tensor<1x6x10x10xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x8x8xf32>
    graph.yield %1 : tensor<1x6x8x8xf32>
  }
  return %0 : tensor<1x6x8x8xf32>
}

// -----

// Not a contraction group: left to the generic tile-and-fuse path.
// CHECK-LABEL: func.func @not_a_contraction
// CHECK-NOT: vector.fma
// CHECK: linalg.generic
func.func @not_a_contraction(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = graph.fusion_group "elementwise"(%x) : (tensor<4x5xf32>) -> tensor<4x5xf32> {
  ^bb0(%a: tensor<4x5xf32>):
    %1 = graph.relu %a : tensor<4x5xf32>
    graph.yield %1 : tensor<4x5xf32>
  }
  return %0 : tensor<4x5xf32>
}

// -----

// A 5-wide output row fills 5 of 8 lanes, so the vectors run along the 16
// output channels of the constant filter instead, packed at compile time
// as [1, 4, 3, 3, 16]; the channel tile loop is outermost (its panel stays
// in cache), rows are output columns, and each [5 columns x 16 channels]
// tile is written to a small tensor, transposed and inserted as one slice.
// CHECK-LABEL: func.func @conv_channel_vectors
// CHECK: %[[P:.*]] = arith.constant dense_resource<packed_weight> : tensor<1x4x3x3x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c5 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args
// CHECK: vector.transfer_read %[[P]][%c0, %{{.*}}, %{{.*}}, %{{.*}}, %c0]
// CHECK: vector.transfer_read %[[P]][%c0, %{{.*}}, %{{.*}}, %{{.*}}, %c8]
// CHECK-COUNT-10: vector.fma
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<5x16xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<5x16xf32>) outs(%{{.*}} : tensor<16x5xf32>) permutation = [1, 0]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, %{{.*}}, 0] [1, 16, 1, 5] [1, 1, 1, 1] : tensor<16x5xf32> into tensor<1x16x5x5xf32>
func.func @conv_channel_vectors(%x: tensor<1x4x5x5xf32>) -> tensor<1x16x5x5xf32> {
  %w = graph.constant dense<0.25> : tensor<16x4x3x3xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x4x5x5xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x5x5xf32> {
  ^bb0(%a: tensor<1x4x5x5xf32>, %c: tensor<16x4x3x3xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x5x5xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x5x5xf32>
    graph.yield %1 : tensor<1x16x5x5xf32>
  }
  return %0 : tensor<1x16x5x5xf32>
}

// -----

// A grouped convolution (3 groups of 2 -> 3 channels) is one kernel over
// all groups: the group is an outer loop, the rows are the group's output
// channels (an outer product), the relu runs on the accumulators and the
// [N, G, O/G, OH, OW] result is collapsed to NCHW after the kernel.
// CHECK-LABEL: func.func @grouped_relu
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[G:.*]] = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK: vector.transfer_read %{{.*}}[%c0, %[[G]], {{.*}} {in_bounds = [true]} : tensor<1x3x2x10x10xf32>, vector<8xf32>
// CHECK-COUNT-3: vector.fma
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8xf32>, tensor<1x3x3x8x8xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] : tensor<1x3x3x8x8xf32> into tensor<1x9x8x8xf32>
func.func @grouped_relu(%x: tensor<1x6x10x10xf32>, %w: tensor<9x2x3x3xf32>, %b: tensor<9xf32>) -> tensor<1x9x8x8xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<1x6x10x10xf32>, tensor<9x2x3x3xf32>, tensor<9xf32>) -> tensor<1x9x8x8xf32> {
  ^bb0(%a: tensor<1x6x10x10xf32>, %c: tensor<9x2x3x3xf32>, %d: tensor<9xf32>):
    %1 = graph.conv2d %a, %c, %d {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 3 : i64} : (tensor<1x6x10x10xf32>, tensor<9x2x3x3xf32>, tensor<9xf32>) -> tensor<1x9x8x8xf32>
    %2 = graph.relu %1 : tensor<1x9x8x8xf32>
    graph.yield %2 : tensor<1x9x8x8xf32>
  }
  return %0 : tensor<1x9x8x8xf32>
}

// -----

// A stride-2 depthwise convolution whose input rows leave room for the wide
// read's stride - 1 elements past the last lane (8 outputs of a 3-tap
// window read up to index 16; the rows are 18 wide): full vectors are plain
// in-bounds reads, not masked ones (@conv_stride2's 9-wide rows are not).
// CHECK-LABEL: func.func @depthwise_stride2_in_bounds
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<1x2x18x18xf32>, vector<16xf32>
// CHECK: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14]
func.func @depthwise_stride2_in_bounds(%x: tensor<1x2x18x18xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x8x8xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x2x18x18xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x8x8xf32> {
  ^bb0(%a: tensor<1x2x18x18xf32>, %c: tensor<2x1x3x3xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x18x18xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x8x8xf32>
    graph.yield %1 : tensor<1x2x8x8xf32>
  }
  return %0 : tensor<1x2x8x8xf32>
}

// -----

// conv_transpose2d (stride = kernel = 2): the contraction over Ci writes
// [N, Co, H, KH, W, KW], viewed as NCHW after the kernel. Vectors run along
// the 16 output channels of the filter, packed at compile time as
// [KH, KW, Co/16, Ci, 16]; rows are 5 input columns (then a 2-column
// tail), each a broadcast input element; the bias initializes the
// accumulators and each tile is stored transposed.
// CHECK-LABEL: func.func @conv_transpose2d
// CHECK-SAME: (%[[X:.*]]: tensor<1x5x3x7xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK: %[[P:.*]] = arith.constant dense_resource<packed_weight{{.*}}> : tensor<2x2x1x5x16xf32>
// CHECK: scf.for %[[H:.*]] = %c0 to %c3
// CHECK: scf.for %[[I:.*]] = %c0 to %c2
// CHECK: scf.for %[[J:.*]] = %c0 to %c2
// CHECK: %[[B0:.*]] = vector.transfer_read %[[B]][%c0]
// CHECK: scf.for %[[K:.*]] = %c0 to %c5 step %c1 iter_args(%{{.*}} = %[[B0]],
// CHECK: tensor.extract %[[X]][%c0, %[[K]], %[[H]], %c0]
// CHECK: vector.transfer_read %[[P]][%[[I]], %[[J]], %c0, %[[K]], %c0]
// CHECK-COUNT-10: vector.fma
// CHECK: linalg.transpose
// CHECK: tensor.insert_slice %{{.*}}[0, 0, %[[H]], %[[I]], 0, %[[J]]] [1, 16, 1, 1, 5, 1]
// CHECK-COUNT-4: vector.fma
// CHECK: tensor.insert_slice %{{.*}}[0, 0, %[[H]], %[[I]], 5, %[[J]]] [1, 16, 1, 1, 2, 1]
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x16x3x2x7x2xf32> into tensor<1x16x6x14xf32>
func.func @conv_transpose2d(%x: tensor<1x5x3x7xf32>, %b: tensor<16xf32>) -> tensor<1x16x6x14xf32> {
  %w = graph.constant dense<0.5> : tensor<5x16x2x2xf32>
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<1x5x3x7xf32>, tensor<5x16x2x2xf32>, tensor<16xf32>) -> tensor<1x16x6x14xf32> {
  ^bb0(%a: tensor<1x5x3x7xf32>, %c: tensor<5x16x2x2xf32>, %d: tensor<16xf32>):
    %1 = graph.conv_transpose2d %a, %c, %d {strides = array<i64: 2, 2>} : (tensor<1x5x3x7xf32>, tensor<5x16x2x2xf32>, tensor<16xf32>) -> tensor<1x16x6x14xf32>
    graph.yield %1 : tensor<1x16x6x14xf32>
  }
  return %0 : tensor<1x16x6x14xf32>
}

// -----

// A broadcast epilogue operand ([1, C, 1, 1], LR-ASPP's attention scale)
// is read once per vector as a scalar: the group stays a kernel.
// CHECK-LABEL: func.func @conv_scale_epilogue
// CHECK-NOT: linalg.generic
// CHECK: vector.fma
// CHECK: %[[S:.*]] = tensor.extract %{{.*}}[%c0, %{{.*}}, %c0, %c0] : tensor<1x4x1x1xf32>
// CHECK: %[[SV:.*]] = vector.broadcast %[[S]]
// CHECK: arith.mulf %{{.*}}, %[[SV]] : vector<8xf32>
func.func @conv_scale_epilogue(%x: tensor<1x6x2x8xf32>, %s: tensor<1x4x1x1xf32>) -> tensor<1x4x2x8xf32> {
  %w = graph.constant dense<0.5> : tensor<4x6x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w, %s) : (tensor<1x6x2x8xf32>, tensor<4x6x1x1xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x2x8xf32> {
  ^bb0(%a: tensor<1x6x2x8xf32>, %c: tensor<4x6x1x1xf32>, %d: tensor<1x4x1x1xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x6x2x8xf32>, tensor<4x6x1x1xf32>) -> tensor<1x4x2x8xf32>
    %2 = graph.relu %1 : tensor<1x4x2x8xf32>
    %3 = graph.mul %2, %d : (tensor<1x4x2x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x2x8xf32>
    graph.yield %3 : tensor<1x4x2x8xf32>
  }
  return %0 : tensor<1x4x2x8xf32>
}

// -----

// A 3x3 convolution on a 6x7 map with a 1152-long reduction: vectors run
// along the 32 output channels (weights packed), rows over all 42 pixels
// instead of 7-wide map rows (5 + 2): 8 tiles of 5 rows and a 2-row tail
// (not 7 x 6: the innermost loop, over the kernel's 3 columns, is short).
// Row p is pixel (p floordiv 7, p mod 7); each row's 16 lanes are stored
// as a column of their own.
// CHECK-LABEL: func.func @conv_small_map_flat_rows
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c6 step
// CHECK: scf.for %[[P:.*]] = %c0 to %c8 step %c1 iter_args
// CHECK: affine.apply #{{.*}}(%{{.*}}, %[[P]])
// CHECK-COUNT-10: vector.fma
// CHECK: linalg.transpose
// CHECK-COUNT-5: tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, %{{.*}}, %{{.*}}] [1, 16, 1, 1] [1, 1, 1, 1] : tensor<16xf32> into tensor<1x32x6x7xf32>
// The 2-row tail, pixels (5, 5) and (5, 6):
// CHECK-COUNT-4: vector.fma
// CHECK-NOT: vector.fma
// CHECK: linalg.transpose
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, 5, 5] [1, 16, 1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, 5, 6] [1, 16, 1, 1]
func.func @conv_small_map_flat_rows(%x: tensor<1x128x6x7xf32>) -> tensor<1x32x6x7xf32> {
  %w = arith.constant dense<0.5> : tensor<32x128x3x3xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x128x6x7xf32>, tensor<32x128x3x3xf32>) -> tensor<1x32x6x7xf32> {
  ^bb0(%a: tensor<1x128x6x7xf32>, %c: tensor<32x128x3x3xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x128x6x7xf32>, tensor<32x128x3x3xf32>) -> tensor<1x32x6x7xf32>
    graph.yield %1 : tensor<1x32x6x7xf32>
  }
  return %0 : tensor<1x32x6x7xf32>
}

// -----

// A 1x1 convolution on a 7x7 map with 160 input channels (MobileNetV2's
// expansions): a row of the map fills 7 of 8 lanes, which is worth leaving
// for the 48 output channels of the constant filter from a 128-long
// reduction on. On AVX-512 (7 of 16 lanes) any reduction switches.
// CHECK-LABEL: func.func @conv1x1_narrow_map_channel_vectors
// CHECK: %[[P:.*]] = arith.constant dense_resource<{{.*}}> : tensor<3x160x16xf32>
// CHECK: vector.transfer_read %[[P]]
// CHECK-COUNT-10: vector.fma
// CHECK: linalg.transpose
// AVX512-LABEL: func.func @conv1x1_narrow_map_channel_vectors
// AVX512: linalg.transpose
func.func @conv1x1_narrow_map_channel_vectors(%x: tensor<1x160x7x7xf32>) -> tensor<1x48x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<48x160x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x160x7x7xf32>, tensor<48x160x1x1xf32>) -> tensor<1x48x7x7xf32> {
  ^bb0(%a: tensor<1x160x7x7xf32>, %c: tensor<48x160x1x1xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x160x7x7xf32>, tensor<48x160x1x1xf32>) -> tensor<1x48x7x7xf32>
    graph.yield %1 : tensor<1x48x7x7xf32>
  }
  return %0 : tensor<1x48x7x7xf32>
}

// -----

// The same with 64 input channels: the transposed stores would cost more
// than the eighth lane gains, so the vectors stay along the map's rows
// (7 lanes, the last masked) with output channels as the rows.
// CHECK-LABEL: func.func @conv1x1_narrow_map_short_reduction
// CHECK-NOT: linalg.transpose
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args
// CHECK: vector.transfer_read %{{.*}} : tensor<1x64x7x7xf32>, vector<8xf32>
// CHECK-COUNT-10: vector.fma
// CHECK-NOT: linalg.transpose
// CHECK: return
// AVX512-LABEL: func.func @conv1x1_narrow_map_short_reduction
// AVX512: linalg.transpose
func.func @conv1x1_narrow_map_short_reduction(%x: tensor<1x64x7x7xf32>) -> tensor<1x48x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<48x64x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x64x7x7xf32>, tensor<48x64x1x1xf32>) -> tensor<1x48x7x7xf32> {
  ^bb0(%a: tensor<1x64x7x7xf32>, %c: tensor<48x64x1x1xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x64x7x7xf32>, tensor<48x64x1x1xf32>) -> tensor<1x48x7x7xf32>
    graph.yield %1 : tensor<1x48x7x7xf32>
  }
  return %0 : tensor<1x48x7x7xf32>
}

// -----

// A 1x1 convolution whose 392 KB input would be re-read for each of the 33
// panels of output channels: its 2001 input channels are summed in 4
// blocks of 501 (the last 498), each block over every panel and pixel
// before the next, so the input's slice stays in L2. Block 1 starts from
// the bias, blocks 2-3 (a loop) and 4 from the partial sums in the
// destination; only block 4 applies the ReLU.
// CHECK-LABEL: func.func @conv1x1_reduction_blocks
// CHECK: scf.for %{{.*}} = %c0 to %c501 step %c1 iter_args
// CHECK-NOT: arith.maximumf
// CHECK: scf.for %{{.*}} = %c1 to %c3 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c501 step %c1 iter_args
// CHECK-NOT: arith.maximumf
// CHECK: scf.for %{{.*}} = %c0 to %c498 step %c1 iter_args
// CHECK: arith.maximumf
func.func @conv1x1_reduction_blocks(%x: tensor<1x2001x7x7xf32>, %b: tensor<520xf32>) -> tensor<1x520x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<520x2001x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<1x2001x7x7xf32>, tensor<520x2001x1x1xf32>, tensor<520xf32>) -> tensor<1x520x7x7xf32> {
  ^bb0(%a: tensor<1x2001x7x7xf32>, %c: tensor<520x2001x1x1xf32>, %d: tensor<520xf32>):
    %1 = graph.conv2d %a, %c, %d {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2001x7x7xf32>, tensor<520x2001x1x1xf32>, tensor<520xf32>) -> tensor<1x520x7x7xf32>
    %2 = graph.relu %1 : tensor<1x520x7x7xf32>
    graph.yield %2 : tensor<1x520x7x7xf32>
  }
  return %0 : tensor<1x520x7x7xf32>
}

// -----

// A residual add in the epilogue of a 1x1 convolution: each row tile (5
// output channels, planes 16 KB apart) first prefetches the lines of the
// residual that the next row tile's epilogue reads, clamped to the last
// channel, through the residual's buffer (read only).
// CHECK-LABEL: func.func @conv1x1_residual_prefetch
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[R:.*]] read_only : tensor<1x64x64x64xf32> to memref<1x64x64x64xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: scf.for %[[OH:.*]] = %c0 to %c64 step %c1 iter_args
// CHECK: scf.for %[[N:.*]] = %c0 to %c4 step %c1 iter_args
// CHECK: scf.for %[[M:.*]] = %c0 to %c12 step %c1 iter_args
// CHECK: %[[ROW:.*]] = affine.min #{{.*}}(%[[M]])
// CHECK: memref.prefetch %[[BUF]][%c0, %[[ROW]], %[[OH]], %{{.*}}], read, locality<3>, data
// CHECK-COUNT-4: memref.prefetch %[[BUF]]
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK-COUNT-10: vector.fma
// CHECK: arith.addf
// A residual this small stays in cache: no prefetch.
// CHECK-LABEL: func.func @conv1x1_small_residual
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @conv1x1_residual_prefetch(%x: tensor<1x16x64x64xf32>, %r: tensor<1x64x64x64xf32>) -> tensor<1x64x64x64xf32> {
  %w = arith.constant dense<0.5> : tensor<64x16x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w, %r) : (tensor<1x16x64x64xf32>, tensor<64x16x1x1xf32>, tensor<1x64x64x64xf32>) -> tensor<1x64x64x64xf32> {
  ^bb0(%a: tensor<1x16x64x64xf32>, %c: tensor<64x16x1x1xf32>, %d: tensor<1x64x64x64xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x64x64xf32>, tensor<64x16x1x1xf32>) -> tensor<1x64x64x64xf32>
    %2 = graph.add %1, %d : (tensor<1x64x64x64xf32>, tensor<1x64x64x64xf32>) -> tensor<1x64x64x64xf32>
    graph.yield %2 : tensor<1x64x64x64xf32>
  }
  return %0 : tensor<1x64x64x64xf32>
}

func.func @conv1x1_small_residual(%x: tensor<1x16x16x16xf32>, %r: tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32> {
  %w = arith.constant dense<0.5> : tensor<64x16x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w, %r) : (tensor<1x16x16x16xf32>, tensor<64x16x1x1xf32>, tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32> {
  ^bb0(%a: tensor<1x16x16x16xf32>, %c: tensor<64x16x1x1xf32>, %d: tensor<1x64x16x16xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x16x16xf32>, tensor<64x16x1x1xf32>) -> tensor<1x64x16x16xf32>
    %2 = graph.add %1, %d : (tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    graph.yield %2 : tensor<1x64x16x16xf32>
  }
  return %0 : tensor<1x64x16x16xf32>
}

// -----

// A stride-2 1x1 convolution on a 14-wide map (a downsample): vectors move
// to the 64 output channels of the constant filter, unless a full-size
// residual joins the epilogue, which would then be read lane by lane.
// CHECK-LABEL: func.func @downsample_channel_vectors
// CHECK: linalg.transpose
// CHECK-LABEL: func.func @downsample_residual_row_vectors
// CHECK-NOT: linalg.transpose
// CHECK: vector.transfer_read %{{.*}} : tensor<1x64x14x14xf32>, vector<8xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @downsample_channel_vectors(%x: tensor<1x256x28x28xf32>) -> tensor<1x64x14x14xf32> {
  %w = arith.constant dense<0.5> : tensor<64x256x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x256x28x28xf32>, tensor<64x256x1x1xf32>) -> tensor<1x64x14x14xf32> {
  ^bb0(%a: tensor<1x256x28x28xf32>, %c: tensor<64x256x1x1xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x256x28x28xf32>, tensor<64x256x1x1xf32>) -> tensor<1x64x14x14xf32>
    graph.yield %1 : tensor<1x64x14x14xf32>
  }
  return %0 : tensor<1x64x14x14xf32>
}

func.func @downsample_residual_row_vectors(%x: tensor<1x256x28x28xf32>, %r: tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32> {
  %w = arith.constant dense<0.5> : tensor<64x256x1x1xf32>
  %0 = graph.fusion_group "contraction"(%x, %w, %r) : (tensor<1x256x28x28xf32>, tensor<64x256x1x1xf32>, tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32> {
  ^bb0(%a: tensor<1x256x28x28xf32>, %c: tensor<64x256x1x1xf32>, %d: tensor<1x64x14x14xf32>):
    %1 = graph.conv2d %a, %c {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x256x28x28xf32>, tensor<64x256x1x1xf32>) -> tensor<1x64x14x14xf32>
    %2 = graph.add %1, %d : (tensor<1x64x14x14xf32>, tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
    graph.yield %2 : tensor<1x64x14x14xf32>
  }
  return %0 : tensor<1x64x14x14xf32>
}

// -----

// The blocked layout [N, C / 16, H, W, 16]: vectors along the 16 lanes of
// an output channel block, stored whole. On a 7x7 map the rows run over
// all 49 pixels (9 tiles of 5 and a 4-row tail), row p at (p floordiv 7,
// p mod 7); no transposed stores.
// CHECK-LABEL: func.func @nchwc_narrow_map_flat_rows
// CHECK-NOT: linalg.transpose
// CHECK: scf.for %[[OB:.*]] = %c0 to %c4 step %c1 iter_args
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c7 step
// CHECK: scf.for %[[P:.*]] = %c0 to %c9 step %c1 iter_args
// CHECK-COUNT-10: vector.fma
// CHECK: %[[H:.*]] = affine.apply #{{.*}}(%[[P]])
// CHECK: %[[W:.*]] = affine.apply #{{.*}}(%[[P]])
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %[[OB]], %[[H]], %[[W]], %c0] {in_bounds = [true]} : vector<8xf32>, tensor<1x4x7x7x16xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %[[OB]], %[[H]], %[[W]], %c8] {in_bounds = [true]} : vector<8xf32>, tensor<1x4x7x7x16xf32>
// CHECK-COUNT-8: vector.transfer_write
// The 4-row tail, pixels (6, 3) to (6, 6):
// CHECK-COUNT-8: vector.fma
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %[[OB]], %c6, %c3, %c0]
// CHECK-NOT: linalg.transpose

func.func @nchwc_narrow_map_flat_rows(%x: tensor<1x4x7x7x16xf32>) -> tensor<1x4x7x7x16xf32> {
  %w = arith.constant dense<0.5> : tensor<4x4x1x1x16x16xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x4x7x7x16xf32>, tensor<4x4x1x1x16x16xf32>) -> tensor<1x4x7x7x16xf32> {
  ^bb0(%a: tensor<1x4x7x7x16xf32>, %c: tensor<4x4x1x1x16x16xf32>):
    %1 = graph.conv2d_nchwc %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x7x7x16xf32>, tensor<4x4x1x1x16x16xf32>) -> tensor<1x4x7x7x16xf32>
    graph.yield %1 : tensor<1x4x7x7x16xf32>
  }
  return %0 : tensor<1x4x7x7x16xf32>
}

// -----

// The blocked layout with rows over a 7x7 map and a 392 KB input that each
// of the 32 output channel blocks would read again: its 128 input channel
// blocks are summed 16 at a time (16 KB of each weight panel, in L1). The
// first 16 start from zero, blocks 2-7 (a loop) and 8 from the partial
// sums, read back as whole vectors; only the last applies the ReLU.
// CHECK-LABEL: func.func @nchwc_pointwise_reduction_blocks
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK-NOT: arith.maximumf
// CHECK: scf.for %{{.*}} = %c1 to %c7 step %c1 iter_args
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x32x7x7x16xf32>, vector<8xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK-NOT: arith.maximumf
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK: arith.maximumf
// A 3x3 convolution on the same input keeps its whole reduction.
// CHECK-LABEL: func.func @nchwc_3x3_not_blocked
// CHECK-NOT: scf.for %{{.*}} = %c1 to %c{{[0-9]+}} step %c1 iter_args
// CHECK: return

func.func @nchwc_pointwise_reduction_blocks(%x: tensor<1x128x7x7x16xf32>) -> tensor<1x32x7x7x16xf32> {
  %w = arith.constant dense<0.5> : tensor<32x128x1x1x16x16xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x128x7x7x16xf32>, tensor<32x128x1x1x16x16xf32>) -> tensor<1x32x7x7x16xf32> {
  ^bb0(%a: tensor<1x128x7x7x16xf32>, %c: tensor<32x128x1x1x16x16xf32>):
    %1 = graph.conv2d_nchwc %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x128x7x7x16xf32>, tensor<32x128x1x1x16x16xf32>) -> tensor<1x32x7x7x16xf32>
    %2 = graph.relu %1 : tensor<1x32x7x7x16xf32>
    graph.yield %2 : tensor<1x32x7x7x16xf32>
  }
  return %0 : tensor<1x32x7x7x16xf32>
}

func.func @nchwc_3x3_not_blocked(%x: tensor<1x128x9x9x16xf32>) -> tensor<1x32x7x7x16xf32> {
  %w = arith.constant dense<0.5> : tensor<32x128x3x3x16x16xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x128x9x9x16xf32>, tensor<32x128x3x3x16x16xf32>) -> tensor<1x32x7x7x16xf32> {
  ^bb0(%a: tensor<1x128x9x9x16xf32>, %c: tensor<32x128x3x3x16x16xf32>):
    %1 = graph.conv2d_nchwc %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x128x9x9x16xf32>, tensor<32x128x3x3x16x16xf32>) -> tensor<1x32x7x7x16xf32>
    graph.yield %1 : tensor<1x32x7x7x16xf32>
  }
  return %0 : tensor<1x32x7x7x16xf32>
}

// -----

// On a 14x14 map (784 KB of input) rows over the map's 196 pixels and
// blocks of 16 input channel blocks win over panel groups with 14-wide
// rows, although 14 = 5 + 5 + 4 fills the row tiles nearly as well: no
// loop over the map's rows, 32 tiles of 6 pixels (12 accumulators: 196 =
// 32 x 6 + 4 tiles better than 39 x 5 + 1) and a 4-pixel tail.
// CHECK-LABEL: func.func @nchwc_pointwise_14x14_flat_blocks
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c14 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK-SAME: -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: scf.for %{{.*}} = %c1 to %c3 step %c1 iter_args

func.func @nchwc_pointwise_14x14_flat_blocks(%x: tensor<1x64x14x14x16xf32>) -> tensor<1x32x14x14x16xf32> {
  %w = arith.constant dense<0.5> : tensor<32x64x1x1x16x16xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x64x14x14x16xf32>, tensor<32x64x1x1x16x16xf32>) -> tensor<1x32x14x14x16xf32> {
  ^bb0(%a: tensor<1x64x14x14x16xf32>, %c: tensor<32x64x1x1x16x16xf32>):
    %1 = graph.conv2d_nchwc %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x64x14x14x16xf32>, tensor<32x64x1x1x16x16xf32>) -> tensor<1x32x14x14x16xf32>
    graph.yield %1 : tensor<1x32x14x14x16xf32>
  }
  return %0 : tensor<1x32x14x14x16xf32>
}

// -----

// An input larger than half of L2 (401 KB) with all 4 weight panels in
// 32 KB: the output rows go outside the channel blocks, so each input row
// is read by every panel while it is in L1. The 56-wide rows are tiled
// 9 x 6 + 2 (12 accumulators; the long innermost loop over a block's 16
// channels keeps LLVM from hoisting its broadcasts).
// CHECK-LABEL: func.func @nchwc_rows_outside_panels
// CHECK: scf.for %{{.*}} = %c0 to %c56 step %c1 iter_args
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c9 step %c1 iter_args

func.func @nchwc_rows_outside_panels(%x: tensor<1x2x56x56x16xf32>) -> tensor<1x4x56x56x16xf32> {
  %w = arith.constant dense<0.5> : tensor<4x2x1x1x16x16xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x2x56x56x16xf32>, tensor<4x2x1x1x16x16xf32>) -> tensor<1x4x56x56x16xf32> {
  ^bb0(%a: tensor<1x2x56x56x16xf32>, %c: tensor<4x2x1x1x16x16xf32>):
    %1 = graph.conv2d_nchwc %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x56x56x16xf32>, tensor<4x2x1x1x16x16xf32>) -> tensor<1x4x56x56x16xf32>
    graph.yield %1 : tensor<1x4x56x56x16xf32>
  }
  return %0 : tensor<1x4x56x56x16xf32>
}

// -----

// 20 panels of 32 KB do not fit in half of L2 together: groups of 8
// panels (two, then a group of 4), each over all output rows.
// CHECK-LABEL: func.func @nchwc_panel_groups
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 iter_args
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c28 step %c1 iter_args
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c28 step %c1 iter_args
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args

func.func @nchwc_panel_groups(%x: tensor<1x32x28x28x16xf32>) -> tensor<1x20x28x28x16xf32> {
  %w = arith.constant dense<0.5> : tensor<20x32x1x1x16x16xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x32x28x28x16xf32>, tensor<20x32x1x1x16x16xf32>) -> tensor<1x20x28x28x16xf32> {
  ^bb0(%a: tensor<1x32x28x28x16xf32>, %c: tensor<20x32x1x1x16x16xf32>):
    %1 = graph.conv2d_nchwc %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x32x28x28x16xf32>, tensor<20x32x1x1x16x16xf32>) -> tensor<1x20x28x28x16xf32>
    graph.yield %1 : tensor<1x20x28x28x16xf32>
  }
  return %0 : tensor<1x20x28x28x16xf32>
}

// -----

// A batched matmul [1, 3, 7, 16] x [1, 3, 16, 16] has the blocked layout's
// shape of loops, but its B varies along the batch dim 3: rows are not
// flattened over (3, 7), where one tile would span two batches sharing one
// B vector; the batch stays a loop of its own.
// CHECK-LABEL: func.func @batched_matmul_rows_not_flattened
// CHECK: scf.for %[[H:.*]] = %c0 to %c3 step %c1 iter_args
// CHECK-NOT: affine.apply
// CHECK: vector.transfer_read %{{.*}}[%c0, %[[H]], %{{.*}}, %c0]{{.*}} : tensor<1x3x16x16xf32>, vector<8xf32>
func.func @batched_matmul_rows_not_flattened(%a: tensor<1x3x7x16xf32>, %b: tensor<1x3x16x16xf32>) -> tensor<1x3x7x16xf32> {
  %0 = graph.fusion_group "contraction"(%a, %b) : (tensor<1x3x7x16xf32>, tensor<1x3x16x16xf32>) -> tensor<1x3x7x16xf32> {
  ^bb0(%x: tensor<1x3x7x16xf32>, %y: tensor<1x3x16x16xf32>):
    %1 = graph.matmul %x, %y : (tensor<1x3x7x16xf32>, tensor<1x3x16x16xf32>) -> tensor<1x3x7x16xf32>
    graph.yield %1 : tensor<1x3x7x16xf32>
  }
  return %0 : tensor<1x3x7x16xf32>
}

// -----

// A 346 KB input on a 13x13 map: rows of 13 pixels fill tiles of 5 at 87%,
// the whole map's 169 at 99%, and the input fits in L2, so the rows run
// over the map (33 tiles of 5 and a 4-row tail) instead of going outside
// panel groups.
// CHECK-LABEL: func.func @nchwc_flat_rows_over_panel_groups
// CHECK: scf.for %{{.*}} = %c0 to %c20 step %c1 iter_args
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c13 step
// CHECK: scf.for %{{.*}} = %c0 to %c33 step %c1 iter_args
func.func @nchwc_flat_rows_over_panel_groups(%x: tensor<1x32x13x13x16xf32>) -> tensor<1x20x13x13x16xf32> {
  %w = arith.constant dense<0.5> : tensor<20x32x1x1x16x16xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<1x32x13x13x16xf32>, tensor<20x32x1x1x16x16xf32>) -> tensor<1x20x13x13x16xf32> {
  ^bb0(%a: tensor<1x32x13x13x16xf32>, %c: tensor<20x32x1x1x16x16xf32>):
    %1 = graph.conv2d_nchwc %a, %c {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x32x13x13x16xf32>, tensor<20x32x1x1x16x16xf32>) -> tensor<1x20x13x13x16xf32>
    graph.yield %1 : tensor<1x20x13x13x16xf32>
  }
  return %0 : tensor<1x20x13x13x16xf32>
}
