// Each fusion group becomes one loop nest: after this pass a group is a
// single scf.for whose body holds every op of the group (producers fused
// into the tile loop), and no fusion_group remains.
// Contraction groups are covered by contraction-kernel.mlir; here they take
// the generic tile-and-fuse path.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{contraction-kernels=false}),canonicalize,cse)' | FileCheck %s

// matmul + bias + relu: the tile loop runs over the 200 output columns; the
// matmul's fill, the dot product and the bias/relu are all inside it.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-NOT: graph.fusion_group
// CHECK: %[[R:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x200xf32>)
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: tensor.insert_slice {{.*}} into %[[ACC]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @matmul_bias_relu(%x: tensor<1x784xf32>, %w: tensor<784x200xf32>, %b: tensor<200xf32>) -> tensor<1x200xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<1x784xf32>, tensor<784x200xf32>, tensor<200xf32>) -> tensor<1x200xf32> {
  ^bb0(%a: tensor<1x784xf32>, %c: tensor<784x200xf32>, %d: tensor<200xf32>):
    %1 = graph.matmul %a, %c : (tensor<1x784xf32>, tensor<784x200xf32>) -> tensor<1x200xf32>
    %2 = graph.add %1, %d : (tensor<1x200xf32>, tensor<200xf32>) -> tensor<1x200xf32>
    %3 = graph.relu %2 : tensor<1x200xf32>
    graph.yield %3 : tensor<1x200xf32>
  }
  return %0 : tensor<1x200xf32>
}

// -----

// Softmax as one row-wise kernel: per row, the max and the sum are computed
// once (no reduction outside the loop, none duplicated) and the division
// writes the row.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-NOT: linalg.generic
// CHECK: scf.for
// CHECK-COUNT-2: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.divf
// CHECK: scf.yield
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @softmax_rows(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = graph.fusion_group "reduction"(%x) : (tensor<16x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%a: tensor<16x32xf32>):
    %1 = graph.softmax %a {axis = 1 : i64} : tensor<16x32xf32>
    graph.yield %1 : tensor<16x32xf32>
  }
  return %0 : tensor<16x32xf32>
}

// -----

// Residual add + layer_norm as one kernel: mean and variance per row.
// CHECK-LABEL: func.func @add_layer_norm
// CHECK-NOT: linalg.generic
// CHECK: scf.for {{.*}} -> (tensor<1x16x64xf32>)
// CHECK-COUNT-2: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: math.rsqrt
// CHECK: scf.yield
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @add_layer_norm(%x: tensor<1x16x64xf32>, %r: tensor<1x16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<1x16x64xf32> {
  %0 = graph.fusion_group "reduction"(%x, %r, %g, %b) : (tensor<1x16x64xf32>, tensor<1x16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x16x64xf32> {
  ^bb0(%a: tensor<1x16x64xf32>, %c: tensor<1x16x64xf32>, %gg: tensor<64xf32>, %bb: tensor<64xf32>):
    %1 = graph.add %a, %c : (tensor<1x16x64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
    %2 = graph.layer_norm %1, %gg, %bb {axis = 2 : i64, epsilon = 1.0e-05 : f32} : (tensor<1x16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x16x64xf32>
    graph.yield %2 : tensor<1x16x64xf32>
  }
  return %0 : tensor<1x16x64xf32>
}

// -----

// conv + bias + relu (no padding): one loop over output channels holding
// the convolution with its bias initialization and the relu.
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-NOT: linalg.generic
// CHECK: scf.for {{.*}} -> (tensor<1x8x6x6xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: arith.maximumf
// CHECK: scf.yield
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @conv_bias_relu(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  ^bb0(%a: tensor<1x4x8x8xf32>, %c: tensor<8x4x3x3xf32>, %d: tensor<8xf32>):
    %1 = graph.conv2d %a, %c, %d {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
    %2 = graph.relu %1 : tensor<1x8x6x6xf32>
    graph.yield %2 : tensor<1x8x6x6xf32>
  }
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// A reduction over the dimension the consumer is tiled on would be computed
// whole in every iteration: it is not fused and stays its own loop nest
// before the loop (never duplicated).
// CHECK-LABEL: func.func @column_sum_then_scale
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: scf.for
// CHECK-NOT: "reduction"
// CHECK: scf.yield
func.func @column_sum_then_scale(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = graph.fusion_group "reduction"(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%a: tensor<8x4xf32>):
    %1 = graph.reduce_sum %a {axes = array<i64: 0>, keepdims = true} : (tensor<8x4xf32>) -> tensor<1x4xf32>
    %2 = graph.div %a, %1 : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
    graph.yield %2 : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

// Squeeze-excitation's gate: a mean over a 256x128 map feeding a sigmoid
// of 8 elements. The tile loop over channels is parallel because the
// group's largest op (the mean, 262144 iterations) reaches
// parallel-min-work, though its result op (the sigmoid) is 8 iterations.
// CHECK-LABEL: func.func @mean_then_sigmoid
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK:   linalg.generic
// CHECK:   linalg.generic
// CHECK:   math.exp
func.func @mean_then_sigmoid(%x: tensor<1x8x256x128xf32>) -> tensor<1x8x1x1xf32> {
  %0 = graph.fusion_group "gate"(%x) : (tensor<1x8x256x128xf32>) -> tensor<1x8x1x1xf32> {
  ^bb0(%a: tensor<1x8x256x128xf32>):
    %1 = graph.global_avgpool %a : (tensor<1x8x256x128xf32>) -> tensor<1x8x1x1xf32>
    %2 = graph.sigmoid %1 : tensor<1x8x1x1xf32>
    graph.yield %2 : tensor<1x8x1x1xf32>
  }
  return %0 : tensor<1x8x1x1xf32>
}
