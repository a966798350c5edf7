// Non-contraction kernels become vector code: one vector of
// vector-bits / element bits lanes along the innermost contiguous dim, a
// peeled smaller vector for the rest of a row, and scalar code only where
// no vector applies.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups,mlc-vectorize-kernels{vector-bits=256}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups,mlc-vectorize-kernels{vector-bits=512}),canonicalize,cse)' | FileCheck %s --check-prefix=V16
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups,mlc-vectorize-kernels{vector-bits=0}),canonicalize,cse)' | FileCheck %s --check-prefix=SCALAR
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups,mlc-vectorize-kernels{vector-bits=256 reassociate-fp-reductions}),canonicalize,cse)' | FileCheck %s --check-prefix=FAST
// mlc-compile's pipeline vectorizes each group before inlining it (in
// parallel) and leaves mlc-vectorize-kernels the ops outside groups: the
// same code.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vectorize=true vector-bits=256},mlc-vectorize-kernels{vector-bits=256 top-level-only=true}),canonicalize,cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vectorize=true vector-bits=512},mlc-vectorize-kernels{vector-bits=512 top-level-only=true}),canonicalize,cse)' | FileCheck %s --check-prefix=V16
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vectorize=true vector-bits=256 reassociate-fp-reductions=true},mlc-vectorize-kernels{vector-bits=256 top-level-only=true reassociate-fp-reductions=true}),canonicalize,cse)' | FileCheck %s --check-prefix=FAST
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vectorize=true vector-bits=256 parallel-min-work=300},mlc-vectorize-kernels{vector-bits=256 top-level-only=true parallel-min-work=300}),canonicalize,cse)' | FileCheck %s --check-prefix=PAR
// Ops with at least parallel-min-work iterations get an scf.forall over
// their outermost parallel dim (not the vector dim) first.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{parallel-min-work=300},mlc-vectorize-kernels{vector-bits=256 parallel-min-work=300}),canonicalize,cse)' | FileCheck %s --check-prefix=PAR

// SCALAR-NOT: vector.

// Elementwise on rows of 37: four vectors of 8 in a loop, then a peeled
// vector of 5 (no masks). The broadcast bias row is read the same way.
// CHECK-LABEL: func.func @elementwise_17x37
// CHECK-NOT: scf.forall
// 629 iterations: one forall iteration per row, the vector loop inside.
// PAR-LABEL: func.func @elementwise_17x37
// PAR: scf.forall (%[[I:.*]]) in (17)
// PAR:   scf.for %{{.*}} = %c0 to %c32 step %c8
// PAR:     math.sqrt %{{.*}} : vector<8xf32>
// PAR:   math.sqrt %{{.*}} : vector<5xf32>
// PAR: scf.forall.in_parallel
// CHECK: scf.for %{{.*}} = %c0 to %c17 step %c1
// CHECK:   scf.for %[[J:.*]] = %c0 to %c32 step %c8
// CHECK:     %[[X:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %[[J]]]{{.*}} : tensor<17x37xf32>, vector<8xf32>
// CHECK:     %[[B:.*]] = vector.transfer_read %{{.*}}[%[[J]]]{{.*}} : tensor<37xf32>, vector<8xf32>
// CHECK:     %[[S:.*]] = arith.addf %[[X]], %[[B]] : vector<8xf32>
// CHECK:     math.sqrt %[[S]] : vector<8xf32>
// CHECK:     vector.transfer_write {{.*}} : vector<8xf32>, tensor<1x8xf32>
// CHECK:   vector.transfer_read %{{.*}}[%{{.*}}, %c32]{{.*}} : tensor<17x37xf32>, vector<5xf32>
// CHECK:   math.sqrt %{{.*}} : vector<5xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
// 16 lanes: two vectors of 16, then 5.
// V16-LABEL: func.func @elementwise_17x37
// V16: scf.for %{{.*}} = %c0 to %c32 step %c16
// V16:   math.sqrt %{{.*}} : vector<16xf32>
// V16: math.sqrt %{{.*}} : vector<5xf32>
func.func @elementwise_17x37(%x: tensor<17x37xf32>, %b: tensor<37xf32>) -> tensor<17x37xf32> {
  %0 = graph.fusion_group "elementwise"(%x, %b) : (tensor<17x37xf32>, tensor<37xf32>) -> tensor<17x37xf32> {
  ^bb0(%a: tensor<17x37xf32>, %c: tensor<37xf32>):
    %1 = graph.add %a, %c : (tensor<17x37xf32>, tensor<37xf32>) -> tensor<17x37xf32>
    %2 = graph.sqrt %1 : tensor<17x37xf32>
    graph.yield %2 : tensor<17x37xf32>
  }
  return %0 : tensor<17x37xf32>
}

// -----

// Rows shorter than a vector: one vector of 5 per row, no inner loop.
// CHECK-LABEL: func.func @elementwise_3x5
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK-NOT: scf.for
// CHECK:   vector.transfer_read {{.*}} : tensor<3x5xf32>, vector<5xf32>
// CHECK:   arith.maximumf %{{.*}}, %{{.*}} : vector<5xf32>
// V16-LABEL: func.func @elementwise_3x5
// V16: arith.maximumf %{{.*}}, %{{.*}} : vector<5xf32>
func.func @elementwise_3x5(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = graph.fusion_group "elementwise"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32> {
  ^bb0(%a: tensor<3x5xf32>):
    %1 = graph.relu %a : tensor<3x5xf32>
    graph.yield %1 : tensor<3x5xf32>
  }
  return %0 : tensor<3x5xf32>
}

// -----

// A single element stays scalar.
// CHECK-LABEL: func.func @elementwise_1x1
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
func.func @elementwise_1x1(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %0 = graph.fusion_group "elementwise"(%x) : (tensor<1x1xf32>) -> tensor<1x1xf32> {
  ^bb0(%a: tensor<1x1xf32>):
    %1 = graph.relu %a : tensor<1x1xf32>
    graph.yield %1 : tensor<1x1xf32>
  }
  return %0 : tensor<1x1xf32>
}

// -----

// i64 lanes are twice as wide: 4 per 256 bits; the ninth element of each
// row is a scalar tile.
// CHECK-LABEL: func.func @elementwise_i64
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK:   arith.muli %{{.*}}, %{{.*}} : vector<4xi64>
// CHECK: linalg.generic
// CHECK:   arith.muli %{{.*}}, %{{.*}} : i64
// V16-LABEL: func.func @elementwise_i64
// V16-NOT: scf.for %{{.*}} = %c0 to %c8
// V16: arith.muli %{{.*}}, %{{.*}} : vector<8xi64>
func.func @elementwise_i64(%x: tensor<4x9xi64>) -> tensor<4x9xi64> {
  %0 = graph.fusion_group "elementwise"(%x) : (tensor<4x9xi64>) -> tensor<4x9xi64> {
  ^bb0(%a: tensor<4x9xi64>):
    %1 = graph.mul %a, %a : (tensor<4x9xi64>, tensor<4x9xi64>) -> tensor<4x9xi64>
    graph.yield %1 : tensor<4x9xi64>
  }
  return %0 : tensor<4x9xi64>
}

// -----

// A float sum along the row: each vector is reduced into the running
// scalar (inner reduction), which keeps the scalar loop's order of adds;
// the accumulator lives in a register across the loop.
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:   %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c32 step %c8 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<1xf32>)
// CHECK:     vector.transfer_read {{.*}} : tensor<4x37xf32>, vector<8xf32>
// CHECK:     vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<1x1x8xf32> to vector<1x1xf32>
// CHECK:   vector.transfer_read {{.*}}[%{{.*}}, %c32]{{.*}} : tensor<4x37xf32>, vector<5xf32>
// CHECK:   vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<1x1x5xf32> to vector<1x1xf32>
// CHECK-NOT: linalg.generic
// Reassociating: one accumulator per lane, combined once per row.
// FAST-LABEL: func.func @row_sum
// FAST: scf.for %{{.*}} = %c0 to %c32 step %c8 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>)
// FAST:   arith.addf %[[ACC]], %{{.*}} : vector<8xf32>
// FAST: arith.addf %{{.*}}, %{{.*}} : vector<5xf32>
// FAST: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<1x1x8xf32> to vector<1x1xf32>
func.func @row_sum(%x: tensor<4x37xf32>) -> tensor<4x1xf32> {
  %0 = graph.fusion_group "reduction"(%x) : (tensor<4x37xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x37xf32>):
    %1 = graph.reduce_sum %a {axes = array<i64: 1>, keepdims = true} : (tensor<4x37xf32>) -> tensor<4x1xf32>
    graph.yield %1 : tensor<4x1xf32>
  }
  return %0 : tensor<4x1xf32>
}

// -----

// A max is exact in any order: one accumulator per lane across the row
// (the tail of 5 goes into the first 5 lanes), one horizontal reduction
// per row.
// CHECK-LABEL: func.func @row_max
// CHECK: %[[NEG_INF:.*]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %c32 step %c8 iter_args(%[[ACC:.*]] = %[[NEG_INF]]) -> (vector<8xf32>)
// CHECK:     %[[V:.*]] = vector.transfer_read {{.*}} : tensor<4x37xf32>, vector<8xf32>
// CHECK:     arith.maximumf %[[ACC]], %[[V]] : vector<8xf32>
// CHECK:   arith.maximumf %{{.*}}, %{{.*}} : vector<5xf32>
// CHECK:   vector.multi_reduction <maximumf>, %{{.*}}, %{{.*}} [2] : vector<1x1x8xf32> to vector<1x1xf32>
func.func @row_max(%x: tensor<4x37xf32>) -> tensor<4x1xf32> {
  %0 = graph.fusion_group "reduction"(%x) : (tensor<4x37xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x37xf32>):
    %1 = graph.reduce_max %a {axes = array<i64: 1>, keepdims = true} : (tensor<4x37xf32>) -> tensor<4x1xf32>
    graph.yield %1 : tensor<4x1xf32>
  }
  return %0 : tensor<4x1xf32>
}

// -----

// Softmax, one row per iteration of the kernel's loop: the max (lanes),
// the sum (inner reduction), one reciprocal of the sum per row and the
// product over vectors of 8 and a tail of 5. exp is vector code too: mlc-approximate-math later makes it a
// polynomial (a vector libm call would be one call per lane).
// CHECK-LABEL: func.func @softmax_rows
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK:   arith.maximumf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:   vector.multi_reduction <maximumf>
// CHECK:   scf.for
// CHECK:     math.exp %{{.*}} : vector<8xf32>
// CHECK:   math.exp %{{.*}} : vector<5xf32>
// CHECK:   scf.for
// CHECK:     vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<1x1x8xf32> to vector<1x1xf32>
// CHECK:   vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<1x1x5xf32> to vector<1x1xf32>
// CHECK:   arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:   scf.for
// CHECK-NOT: arith.divf
// CHECK:     arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:   arith.divf %{{.*}}, %{{.*}} : vector<5xf32>
// CHECK:   arith.mulf %{{.*}}, %{{.*}} : vector<5xf32>
// CHECK: return
// FAST-LABEL: func.func @softmax_rows
// FAST-NOT: linalg.generic
// FAST: math.exp %{{.*}} : vector<8xf32>
// FAST: return
func.func @softmax_rows(%x: tensor<16x37xf32>) -> tensor<16x37xf32> {
  %0 = graph.fusion_group "reduction"(%x) : (tensor<16x37xf32>) -> tensor<16x37xf32> {
  ^bb0(%a: tensor<16x37xf32>):
    %1 = graph.softmax %a {axis = 1 : i64} : tensor<16x37xf32>
    graph.yield %1 : tensor<16x37xf32>
  }
  return %0 : tensor<16x37xf32>
}

// -----

// A reduction over the outer dim: one lane per column, each column summed
// in row order (the scalar order), 8 columns at a time.
// CHECK-LABEL: func.func @column_sum
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:   scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>)
// CHECK:     %[[ROW:.*]] = vector.transfer_read {{.*}} : tensor<37x20xf32>, vector<8xf32>
// CHECK:     arith.addf %[[ACC]], %[[ROW]] : vector<8xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>)
// CHECK:   arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
#sum_in = affine_map<(d0, d1) -> (d1, d0)>
#sum_out = affine_map<(d0, d1) -> (d0)>
func.func @column_sum(%x: tensor<37x20xf32>) -> tensor<20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  %r = linalg.generic {indexing_maps = [#sum_in, #sum_out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<37x20xf32>) outs(%init : tensor<20xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<20xf32>
  return %r : tensor<20xf32>
}

// -----

// Max pooling with stride 2: per output row, each (kh, kw) reads a
// stride-2 slice of the input row as one vector of the 5 outputs; the
// maximum stays in a register across the window loops.
// CHECK-LABEL: func.func @maxpool_s2
// CHECK-NOT: scf.forall
// 360 iterations: a forall over the 2 channels (batch 1 is skipped).
// PAR-LABEL: func.func @maxpool_s2
// PAR: scf.forall (%{{.*}}) in (2)
// PAR:   scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<5xf32>)
// PAR: scf.forall.in_parallel
// CHECK: %[[ROW:.*]] = scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<5xf32>)
// CHECK:   scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<5xf32>)
// CHECK:     %[[WIN:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 1, 5] [1, 1, 1, 2]
// CHECK:     %[[V:.*]] = vector.transfer_read %[[WIN]]{{.*}} : tensor<1x1x1x5xf32>, vector<5xf32>
// CHECK:     arith.maximumf %[[ACC]], %[[V]] : vector<5xf32>
// CHECK: vector.transfer_write %[[ROW]]
// CHECK-NOT: linalg.generic
func.func @maxpool_s2(%x: tensor<1x2x9x11xf32>) -> tensor<1x2x4x5xf32> {
  %0 = graph.fusion_group "pool"(%x) : (tensor<1x2x9x11xf32>) -> tensor<1x2x4x5xf32> {
  ^bb0(%a: tensor<1x2x9x11xf32>):
    %1 = graph.maxpool2d %a {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x9x11xf32>) -> tensor<1x2x4x5xf32>
    graph.yield %1 : tensor<1x2x4x5xf32>
  }
  return %0 : tensor<1x2x4x5xf32>
}

// -----

// Global average pooling reduces rows of 7 (one vector each) over 5 rows.
// 210 iterations, but of a reduction (a chain of dependent adds, weighed 4
// each): 840, above parallel-min-work, so one thread per channel.
// PAR-LABEL: func.func @global_avgpool
// PAR: scf.forall (%{{.*}}) in (3)
// PAR: vector.multi_reduction <add>
// CHECK-LABEL: func.func @global_avgpool
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %c5 step %c1
// CHECK:     vector.transfer_read {{.*}} : tensor<2x3x5x7xf32>, vector<7xf32>
// CHECK:     vector.multi_reduction <add>
func.func @global_avgpool(%x: tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32> {
  %0 = graph.fusion_group "pool"(%x) : (tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32> {
  ^bb0(%a: tensor<2x3x5x7xf32>):
    %1 = graph.global_avgpool %a : (tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32>
    graph.yield %1 : tensor<2x3x1x1xf32>
  }
  return %0 : tensor<2x3x1x1xf32>
}

// -----

// Left scalar: a transpose whose input rows are too short for transposed
// tiles (3 < 8 / 2), a gather, argmax (no vector combiner) and f16
// arithmetic (emulated per element later); exp is vectorized (a polynomial
// after mlc-approximate-math).
// CHECK-LABEL: func.func @left_scalar
// CHECK-NOT: vector.
// CHECK: linalg.transpose
// CHECK: tensor.extract
// CHECK: arith.cmpf
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
// CHECK: math.exp %{{.*}} : vector<8xf32>
// CHECK: return
// FAST-LABEL: func.func @left_scalar
// FAST: math.exp %{{.*}} : vector<8xf32>
func.func @left_scalar(%t: tensor<8x16xf32>, %d: tensor<5x16xf32>, %i: tensor<3xi64>, %h: tensor<4x16xf16>, %e: tensor<4x16xf32>, %n: tensor<16x3xf32>) -> (tensor<3x16xf32>, tensor<3x16xf32>, tensor<8xi64>, tensor<4x16xf16>, tensor<4x16xf32>) {
  %0 = graph.fusion_group "data"(%n) : (tensor<16x3xf32>) -> tensor<3x16xf32> {
  ^bb0(%a: tensor<16x3xf32>):
    %1 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<16x3xf32>) -> tensor<3x16xf32>
    graph.yield %1 : tensor<3x16xf32>
  }
  %2 = graph.fusion_group "data"(%d, %i) : (tensor<5x16xf32>, tensor<3xi64>) -> tensor<3x16xf32> {
  ^bb0(%a: tensor<5x16xf32>, %b: tensor<3xi64>):
    %3 = graph.gather %a, %b {axis = 0 : i64} : (tensor<5x16xf32>, tensor<3xi64>) -> tensor<3x16xf32>
    graph.yield %3 : tensor<3x16xf32>
  }
  %4 = graph.fusion_group "data"(%t) : (tensor<8x16xf32>) -> tensor<8xi64> {
  ^bb0(%a: tensor<8x16xf32>):
    %5 = graph.argmax %a {axis = 1 : i64, keepdims = false, select_last_index = false} : (tensor<8x16xf32>) -> tensor<8xi64>
    graph.yield %5 : tensor<8xi64>
  }
  %6 = graph.fusion_group "elementwise"(%h) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
  ^bb0(%a: tensor<4x16xf16>):
    %7 = graph.add %a, %a : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
    graph.yield %7 : tensor<4x16xf16>
  }
  %8 = graph.fusion_group "elementwise"(%e) : (tensor<4x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%a: tensor<4x16xf32>):
    %9 = graph.exp %a : tensor<4x16xf32>
    graph.yield %9 : tensor<4x16xf32>
  }
  return %0, %2, %4, %6, %8 : tensor<3x16xf32>, tensor<3x16xf32>, tensor<8xi64>, tensor<4x16xf16>, tensor<4x16xf32>
}

// -----

// A transpose [13, 20] -> [20, 13]: tiles of 8x8 read as 8 rows of the
// input and transposed in registers; the partial tiles (a last block of 5
// input rows, of 4 input columns) are peeled into static smaller tiles
// (the loop over input rows has one full iteration and folds away).
// CHECK-LABEL: func.func @transpose_tiles
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:   %[[R:.*]] = vector.transfer_read {{.*}} : tensor<13x20xf32>, vector<8x8xf32>
// CHECK:   vector.transpose %[[R]], [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK:   vector.transfer_read {{.*}} : tensor<13x20xf32>, vector<5x8xf32>
// CHECK:   vector.transpose %{{.*}}, [1, 0] : vector<5x8xf32> to vector<8x5xf32>
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<5x4xf32> to vector<4x5xf32>
// CHECK-NOT: linalg.
// CHECK: return
func.func @transpose_tiles(%x: tensor<13x20xf32>) -> tensor<20x13xf32> {
  %0 = graph.fusion_group "data"(%x) : (tensor<13x20xf32>) -> tensor<20x13xf32> {
  ^bb0(%a: tensor<13x20xf32>):
    %1 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<13x20xf32>) -> tensor<20x13xf32>
    graph.yield %1 : tensor<20x13xf32>
  }
  return %0 : tensor<20x13xf32>
}

// -----

// Thread weights: exp (a polynomial once approximated) weighs 9 plain ops,
// so 48 elements of it (432) are split over threads and 48 of an add (48)
// are not; neither would be at 300 plain iterations.
// PAR-LABEL: func.func @exp_threads
// PAR: scf.forall
// PAR: math.exp
// PAR-LABEL: func.func @add_no_threads
// PAR-NOT: scf.forall
// PAR: arith.addf
func.func @exp_threads(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %0 = graph.fusion_group "exp"(%x) : (tensor<6x8xf32>) -> tensor<6x8xf32> {
  ^bb0(%a: tensor<6x8xf32>):
    %1 = graph.exp %a : tensor<6x8xf32>
    graph.yield %1 : tensor<6x8xf32>
  }
  return %0 : tensor<6x8xf32>
}
func.func @add_no_threads(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %0 = graph.fusion_group "add"(%x) : (tensor<6x8xf32>) -> tensor<6x8xf32> {
  ^bb0(%a: tensor<6x8xf32>):
    %1 = graph.add %a, %a : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
    graph.yield %1 : tensor<6x8xf32>
  }
  return %0 : tensor<6x8xf32>
}

// -----

// A transpose whose innermost result dim gathers across the input's rows
// stays scalar; with at least parallel-min-work iterations its outermost
// dim is still an scf.forall for the runtime's threads (the blocked
// layout's reorders), and below it stays one loop nest.
// CHECK-LABEL: func.func @scalar_transpose_threads
// CHECK-NOT: scf.forall
// CHECK: linalg.transpose
// PAR-LABEL: func.func @scalar_transpose_threads
// PAR: scf.forall (%{{.*}}) in (4)
// PAR: linalg.transpose {{.*}} permutation = [0, 2, 1]
// PAR: scf.forall.in_parallel
func.func @scalar_transpose_threads(%x: tensor<4x16x9xf32>) -> tensor<4x9x16xf32> {
  %0 = graph.fusion_group "data"(%x) : (tensor<4x16x9xf32>) -> tensor<4x9x16xf32> {
  ^bb0(%a: tensor<4x16x9xf32>):
    %1 = graph.transpose %a {perm = array<i64: 0, 2, 1>} : (tensor<4x16x9xf32>) -> tensor<4x9x16xf32>
    graph.yield %1 : tensor<4x9x16xf32>
  }
  return %0 : tensor<4x9x16xf32>
}
