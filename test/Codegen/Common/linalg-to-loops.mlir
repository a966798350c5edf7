// The linalg ops left after bufferization become scf.for nests, each op
// on its own; what they compute is the same (a matmul accumulates into its
// output, a generic with linalg.index reads its indices). Canonicalize
// folds the index maps, as in the pipeline.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-linalg-to-loops),canonicalize)' | FileCheck %s
// With register-accumulators (CUDA), reductions carry their output element
// through the reduction loops: one load before, one store after, and the
// multiply-add may contract; ops without reductions are as before. An op
// with at most 16 static outputs (a GPU thread's block) is unrolled into
// one reduction nest carrying them all, each input element loaded once.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-linalg-to-loops{register-accumulators}),canonicalize,cse)' | FileCheck %s --check-prefix=ACC

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x4xf32>, %[[C:.*]]: memref<2x4xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:     scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:       %[[X:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK:       %[[Y:.*]] = memref.load %[[B]][%[[K]], %[[J]]]
// CHECK:       %[[Z:.*]] = memref.load %[[C]][%[[I]], %[[J]]]
// CHECK:       %[[P:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK:       %[[S:.*]] = arith.addf %[[Z]], %[[P]]
// CHECK:       memref.store %[[S]], %[[C]][%[[I]], %[[J]]]
// CHECK-NOT: linalg.
// 8 outputs: unrolled, one k loop carrying all 8; A's 2 and B's 4
// elements of each step are loaded once.
// ACC-LABEL: func.func @matmul
// ACC-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x4xf32>, %[[C:.*]]: memref<2x4xf32>)
// ACC-COUNT-8: memref.load %[[C]]
// ACC: %[[R:.*]]:8 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// ACC: memref.load %[[A]]
// ACC-COUNT-4: memref.load %[[B]]
// ACC: arith.addf {{.*}} fastmath<contract>
// ACC: memref.load %[[A]]
// ACC-NOT: memref.load
// ACC-NOT: memref.store
// ACC: scf.yield
// ACC-COUNT-8: memref.store %[[R]]#{{[0-7]}}, %[[C]]
// ACC-NOT: linalg.
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// -----

// ACC-LABEL: func.func @matmul_wide
// ACC-SAME: (%[[A:.*]]: memref<4x3xf32>, %[[B:.*]]: memref<3x8xf32>, %[[C:.*]]: memref<4x8xf32>)
// ACC: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// ACC:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// ACC:     %[[Z:.*]] = memref.load %[[C]][%[[I]], %[[J]]]
// ACC:     %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (f32)
// ACC:       %[[X:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// ACC:       %[[Y:.*]] = memref.load %[[B]][%[[K]], %[[J]]]
// ACC:       %[[P:.*]] = arith.mulf %[[X]], %[[Y]] fastmath<contract>
// ACC:       %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<contract>
// ACC-NOT:   memref.store
// ACC:       scf.yield %[[S]]
// ACC:     memref.store %[[R]], %[[C]][%[[I]], %[[J]]]
// ACC-NOT: linalg.
func.func @matmul_wide(%a: memref<4x3xf32>, %b: memref<3x8xf32>, %c: memref<4x8xf32>) {
  linalg.matmul ins(%a, %b : memref<4x3xf32>, memref<3x8xf32>) outs(%c : memref<4x8xf32>)
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @iota
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   memref.store %[[C]], %{{.*}}[%[[I]]]
// CHECK-NOT: linalg.
// ACC-LABEL: func.func @iota
// ACC: scf.for %[[I:.*]] =
// ACC-NOT: iter_args
// ACC:   memref.store
func.func @iota(%out: memref<5xi32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%out : memref<5xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  }
  return
}

// -----

func.func @tensors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a linalg op on tensors after bufferization}}
  %0 = linalg.copy ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Two outputs (a sum and a maximum over rows, with linalg.index) in one
// reduction: each has its own carried scalar. The column loop is parallel
// although it comes last: parallel loops go outside.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
// ACC-LABEL: func.func @two_outputs
// ACC-SAME: (%[[X:.*]]: memref<3x20xf32>, %[[S:.*]]: memref<20xf32>, %[[M:.*]]: memref<20xf32>)
// ACC: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// ACC:   %[[S0:.*]] = memref.load %[[S]][%[[J]]]
// ACC:   %[[M0:.*]] = memref.load %[[M]][%[[J]]]
// ACC:   %[[R:.*]]:2 = scf.for %[[I:.*]] = {{.*}} iter_args(%[[AS:.*]] = %[[S0]], %[[AM:.*]] = %[[M0]]) -> (f32, f32)
// ACC:     %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// ACC:     arith.index_cast %[[I]]
// ACC:     %[[SUM:.*]] = arith.addf %[[AS]], %{{.*}} fastmath<contract>
// ACC:     %[[MAX:.*]] = arith.maximumf %[[AM]], %[[V]]
// ACC:     scf.yield %[[SUM]], %[[MAX]]
// ACC:   memref.store %[[R]]#0, %[[S]][%[[J]]]
// ACC:   memref.store %[[R]]#1, %[[M]][%[[J]]]
func.func @two_outputs(%x: memref<3x20xf32>, %s: memref<20xf32>, %m: memref<20xf32>) {
  linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<3x20xf32>) outs(%s, %m : memref<20xf32>, memref<20xf32>) {
  ^bb0(%v: f32, %a: f32, %b: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %w = arith.mulf %v, %f : f32
    %sum = arith.addf %a, %w : f32
    %max = arith.maximumf %b, %v : f32
    linalg.yield %sum, %max : f32, f32
  }
  return
}

// -----

// An output that is also an input is not carried in a scalar: the loads
// must see the stores.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// ACC-LABEL: func.func @output_is_input
// ACC-NOT: iter_args
// ACC: memref.store
func.func @output_is_input(%x: memref<4x4xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : memref<4x4xf32>, memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%v: f32, %old: f32, %a: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  }
  return
}
