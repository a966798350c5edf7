// The linalg ops left after bufferization become scf.for nests, each op
// on its own; what they compute is the same (a matmul accumulates into its
// output, a generic with linalg.index reads its indices). Canonicalize
// folds the index maps, as in the pipeline.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-linalg-to-loops),canonicalize)' | FileCheck %s

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
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @iota
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   memref.store %[[C]], %{{.*}}[%[[I]]]
// CHECK-NOT: linalg.
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
