// CUDA kernels from fusion groups: one scf.forall iteration (one GPU thread)
// per output element (per block of outputs for a reduction that ends its
// kernel), one-to-one producers fused into the iteration, the rest kernels
// of their own.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-form-gpu-kernels),canonicalize,cse)' | FileCheck %s

// matmul + bias + relu: one kernel of 200 threads; each fills its
// accumulator, runs the whole 784-long dot product, then adds the bias and
// applies the relu.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-NOT: graph.fusion_group
// CHECK: %[[R:.*]] = scf.forall (%{{.*}}) in (200) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<1x200xf32>)
// CHECK: linalg.fill {{.*}} -> tensor<1x1xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins({{.*}} : tensor<1x784xf32>, tensor<784x1xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: tensor.parallel_insert_slice {{.*}} into %[[OUT]][{{.*}}] [1, 1] [1, 1]
// CHECK-NOT: scf.forall (
// CHECK: return %[[R]]
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

// Softmax: the row max and the row sum are read by every element of their
// row, so each is a kernel of its own with one thread per row (16 threads),
// computed once; so is the exponential, which both the sum and the division
// read. The division runs one thread per element.
// CHECK-LABEL: func.func @softmax_rows
// CHECK: scf.forall (%{{.*}}) in (16)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (16, 32)
// CHECK: math.exp
// CHECK: scf.forall (%{{.*}}) in (16)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.addf
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (16, 32)
// CHECK-NOT: math.exp
// CHECK: arith.divf
// CHECK-NOT: scf.forall (
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

// A full reduction has no parallel loop to spread: it stays one op, which
// mlc-map-kernels-to-gpu runs in a single thread.
// CHECK-LABEL: func.func @sum_all
// CHECK-NOT: scf.forall (
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK-NOT: scf.forall (
func.func @sum_all(%x: tensor<4x8xf32>) -> tensor<f32> {
  %0 = graph.fusion_group "reduction"(%x) : (tensor<4x8xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<4x8xf32>):
    %1 = graph.reduce_sum %a {axes = array<i64: 0, 1>, keepdims = false} : (tensor<4x8xf32>) -> tensor<f32>
    graph.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// A matmul of at least 16 x 16 outputs is block-tiled: an scf.forall over
// output tiles mapped to GPU blocks, its zero fill fused into the tile, the
// contraction marked with its schedule. This one would have only 12 tiles
// of 64 x 64, so it takes 32 x 32 x 8 tiles, 2 x 2 outputs per thread. The
// epilogue is a one-thread-per-element kernel of its own: a block's threads
// do not own single output elements.
// CHECK-LABEL: func.func @tiled_matmul_bias_relu
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (200, 150) step (32, 32) shared_outs({{.*}}) -> (tensor<200x150xf32>)
// CHECK: linalg.fill {{.*}} -> tensor<?x?xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins({{.*}} : tensor<?x300xf32>, tensor<300x?xf32>){{.*}}mlc.gpu.block_tile = array<i64: 32, 32, 8, 2, 2>
// CHECK: mapping = [#gpu.block<linear_dim_0>, #gpu.block<linear_dim_1>]
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (200, 150)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: mapping = [#gpu.block
func.func @tiled_matmul_bias_relu(%x: tensor<200x300xf32>, %w: tensor<300x150xf32>, %b: tensor<150xf32>) -> tensor<200x150xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<200x300xf32>, tensor<300x150xf32>, tensor<150xf32>) -> tensor<200x150xf32> {
  ^bb0(%a: tensor<200x300xf32>, %c: tensor<300x150xf32>, %d: tensor<150xf32>):
    %1 = graph.matmul %a, %c : (tensor<200x300xf32>, tensor<300x150xf32>) -> tensor<200x150xf32>
    %2 = graph.add %1, %d : (tensor<200x150xf32>, tensor<150xf32>) -> tensor<200x150xf32>
    %3 = graph.relu %2 : tensor<200x150xf32>
    graph.yield %3 : tensor<200x150xf32>
  }
  return %0 : tensor<200x150xf32>
}

// -----

// Enough 128 x 128 tiles to fill a GPU (here 8 x 2 x 8 = 128): those, with
// 8 x 8 outputs per thread; one batch element per block.
// CHECK-LABEL: func.func @tiled_batch_matmul
// CHECK: scf.forall ({{.*}}) = (0, 0, 0) to (8, 1024, 256) step (1, 128, 128)
// CHECK: mlc.gpu.block_tile = array<i64: 128, 128, 8, 8, 8>
// CHECK: mapping = [#gpu.block<linear_dim_0>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_2>]
func.func @tiled_batch_matmul(%x: tensor<8x1024x16xf32>, %w: tensor<8x16x256xf32>) -> tensor<8x1024x256xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<8x1024x16xf32>, tensor<8x16x256xf32>) -> tensor<8x1024x256xf32> {
  ^bb0(%a: tensor<8x1024x16xf32>, %c: tensor<8x16x256xf32>):
    %1 = graph.matmul %a, %c : (tensor<8x1024x16xf32>, tensor<8x16x256xf32>) -> tensor<8x1024x256xf32>
    graph.yield %1 : tensor<8x1024x256xf32>
  }
  return %0 : tensor<8x1024x256xf32>
}

// -----

// Too few rows for a tile (M = 8), or not f32: one thread per output.
// CHECK-LABEL: func.func @untiled_matmuls
// CHECK-NOT: block_tile
// CHECK-NOT: #gpu.block
// CHECK: return
func.func @untiled_matmuls(%x: tensor<8x64xf32>, %w: tensor<64x64xf32>, %i: tensor<64x64xi32>, %j: tensor<64x64xi32>) -> (tensor<8x64xf32>, tensor<64x64xi32>) {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%a: tensor<8x64xf32>, %c: tensor<64x64xf32>):
    %1 = graph.matmul %a, %c : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    graph.yield %1 : tensor<8x64xf32>
  }
  %2 = graph.fusion_group "contraction"(%i, %j) : (tensor<64x64xi32>, tensor<64x64xi32>) -> tensor<64x64xi32> {
  ^bb0(%a: tensor<64x64xi32>, %c: tensor<64x64xi32>):
    %3 = graph.matmul %a, %c : (tensor<64x64xi32>, tensor<64x64xi32>) -> tensor<64x64xi32>
    graph.yield %3 : tensor<64x64xi32>
  }
  return %0, %2 : tensor<8x64xf32>, tensor<64x64xi32>
}

// -----

// A convolution that ends its kernel: each thread computes a block of 8
// output channels (its first input, x, does not depend on them), so each x
// element it loads serves 8 multiply-adds; the bias init, one element per
// output, is fused into the same thread. (65536 threads remain; the
// matrix-vector product above, 200 outputs, keeps one per thread.)
// CHECK-LABEL: func.func @conv_bias_block
// CHECK: scf.forall (%[[N:.*]], %[[O:.*]], %[[H:.*]], %[[W:.*]]) = (0, 0, 0, 0) to (8, 16, 64, 64) step (1, 8, 1, 1) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK: tensor.extract_slice %{{.*}}[%[[N]], 0, %[[H]], %[[W]]] [1, 4, 3, 3]
// CHECK: tensor.extract_slice %{{.*}}[%[[O]], 0, 0, 0] [8, 4, 3, 3]
// CHECK: linalg.generic {{.*}}ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<1x8x1x1xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]{{.*}} outs(%{{.*}} : tensor<1x8x1x1xf32>)
// CHECK: tensor.parallel_insert_slice {{.*}} into %[[OUT]][%[[N]], %[[O]], %[[H]], %[[W]]] [1, 8, 1, 1]
// CHECK-NOT: scf.forall (
func.func @conv_bias_block(%x: tensor<8x4x66x66xf32>, %w: tensor<16x4x3x3xf32>, %b: tensor<16xf32>) -> tensor<8x16x64x64xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<8x4x66x66xf32>, tensor<16x4x3x3xf32>, tensor<16xf32>) -> tensor<8x16x64x64xf32> {
  ^bb0(%a: tensor<8x4x66x66xf32>, %c: tensor<16x4x3x3xf32>, %d: tensor<16xf32>):
    %1 = graph.conv2d %a, %c, %d {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<8x4x66x66xf32>, tensor<16x4x3x3xf32>, tensor<16xf32>) -> tensor<8x16x64x64xf32>
    graph.yield %1 : tensor<8x16x64x64xf32>
  }
  return %0 : tensor<8x16x64x64xf32>
}

// -----

// 36 output channels (Winograd's input transform as a convolution): blocks
// of 6, the first of 8, 6, 4, 3, 2 that divides 36.
// CHECK-LABEL: func.func @conv_block_of_6
// CHECK: scf.forall ({{.*}}) = (0, 0, 0, 0) to (64, 36, 16, 16) step (1, 6, 1, 1)
func.func @conv_block_of_6(%x: tensor<64x1x66x66xf32>, %w: tensor<36x1x6x6xf32>) -> tensor<64x36x16x16xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<64x1x66x66xf32>, tensor<36x1x6x6xf32>) -> tensor<64x36x16x16xf32> {
  ^bb0(%a: tensor<64x1x66x66xf32>, %c: tensor<36x1x6x6xf32>):
    %1 = graph.conv2d %a, %c {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 4, 4>} : (tensor<64x1x66x66xf32>, tensor<36x1x6x6xf32>) -> tensor<64x36x16x16xf32>
    graph.yield %1 : tensor<64x36x16x16xf32>
  }
  return %0 : tensor<64x36x16x16xf32>
}

// -----

// A ReLU after the convolution ends the kernel: it takes the convolution's
// block (8 output channels per thread), so that the convolution, its bias
// init and the ReLU are one kernel with 8 outputs per thread.
// CHECK-LABEL: func.func @conv_relu_block
// CHECK: scf.forall (%[[N:.*]], %[[O:.*]], %[[H:.*]], %[[W:.*]]) = (0, 0, 0, 0) to (8, 16, 64, 64) step (1, 8, 1, 1) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK: linalg.generic {{.*}}ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<1x8x1x1xf32>)
// CHECK: %[[C:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]{{.*}} outs(%{{.*}} : tensor<1x8x1x1xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}}ins(%[[C]] : tensor<1x8x1x1xf32>)
// CHECK: arith.maximumf
// CHECK: tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[N]], %[[O]], %[[H]], %[[W]]] [1, 8, 1, 1]
// CHECK-NOT: scf.forall (
func.func @conv_relu_block(%x: tensor<8x4x66x66xf32>, %w: tensor<16x4x3x3xf32>, %b: tensor<16xf32>) -> tensor<8x16x64x64xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w, %b) : (tensor<8x4x66x66xf32>, tensor<16x4x3x3xf32>, tensor<16xf32>) -> tensor<8x16x64x64xf32> {
  ^bb0(%a: tensor<8x4x66x66xf32>, %c: tensor<16x4x3x3xf32>, %d: tensor<16xf32>):
    %1 = graph.conv2d %a, %c, %d {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<8x4x66x66xf32>, tensor<16x4x3x3xf32>, tensor<16xf32>) -> tensor<8x16x64x64xf32>
    %2 = graph.relu %1 : tensor<8x16x64x64xf32>
    graph.yield %2 : tensor<8x16x64x64xf32>
  }
  return %0 : tensor<8x16x64x64xf32>
}

// -----

// A matmul whose rows span two loops ([B, M, K] x [K, N], a transformer's
// linear layer) has them collapsed into one (reshapes of contiguous
// buffers), so that it runs block-tiled like a 2-D matmul (256 tiles of
// 64 x 64); its fill goes into the tiles.
// CHECK-LABEL: func.func @matmul_collapsed_rows
// CHECK-DAG: %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<8x128x256xf32> into tensor<1024x256xf32>
// CHECK-DAG: %[[E:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<8x128x1024xf32> into tensor<1024x1024xf32>
// CHECK: %[[T:.*]] = scf.forall ({{.*}}) = (0, 0) to (1024, 1024) step (64, 64) shared_outs(%{{.*}} = %[[E]])
// CHECK: tensor.extract_slice %[[X]]
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}mlc.gpu.block_tile = array<i64: 64, 64, 8, 4, 4>
// CHECK: mapping = [#gpu.block<linear_dim_0>, #gpu.block<linear_dim_1>]
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[T]] {{\[\[}}0, 1], [2]] output_shape [8, 128, 1024]
// CHECK: return %[[Y]]
func.func @matmul_collapsed_rows(%x: tensor<8x128x256xf32>, %w: tensor<256x1024xf32>) -> tensor<8x128x1024xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<8x128x256xf32>, tensor<256x1024xf32>) -> tensor<8x128x1024xf32> {
  ^bb0(%a: tensor<8x128x256xf32>, %b: tensor<256x1024xf32>):
    %1 = graph.matmul %a, %b : (tensor<8x128x256xf32>, tensor<256x1024xf32>) -> tensor<8x128x1024xf32>
    graph.yield %1 : tensor<8x128x1024xf32>
  }
  return %0 : tensor<8x128x1024xf32>
}

// -----

// A matmul too narrow for a block tile (15 columns) is not collapsed: it
// stays a reduction per thread with its two row loops. Neighbouring threads
// take neighbouring columns, whose loads of the right operand are
// coalesced, so the thread's block is along the rows (the left operand's
// loads are the warp's broadcasts) and each loaded right element serves
// several rows; never along the columns. 2 rows per thread: the most that
// leaves 65536 threads of its 245760 outputs.
// CHECK-LABEL: func.func @matmul_rows_block
// CHECK-NOT: collapse_shape
// CHECK: scf.forall ({{.*}}) = (0, 0, 0) to (16, 1024, 15) step (1, 2, 1)
// CHECK-NOT: block_tile
func.func @matmul_rows_block(%x: tensor<16x1024x64xf32>, %w: tensor<64x15xf32>) -> tensor<16x1024x15xf32> {
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<16x1024x64xf32>, tensor<64x15xf32>) -> tensor<16x1024x15xf32> {
  ^bb0(%a: tensor<16x1024x64xf32>, %b: tensor<64x15xf32>):
    %1 = graph.matmul %a, %b : (tensor<16x1024x64xf32>, tensor<64x15xf32>) -> tensor<16x1024x15xf32>
    graph.yield %1 : tensor<16x1024x15xf32>
  }
  return %0 : tensor<16x1024x15xf32>
}
