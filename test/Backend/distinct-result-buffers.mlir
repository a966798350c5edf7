// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-distinct-result-buffers))' | FileCheck %s

// A buffer returned twice: the repeat gets a copy, the first stays.
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[ARG:.*]]: memref<4xf32>)
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.copy %[[BUF]], %[[COPY]] : memref<4xf32> to memref<4xf32>
// CHECK: return %[[BUF]], %[[COPY]], %[[ARG]] : memref<4xf32>, memref<4xf32>, memref<4xf32>
func.func @twice(%arg0: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %0 = memref.alloc() : memref<4xf32>
  return %0, %0, %arg0 : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Three times: two copies, each its own allocation.
// CHECK-LABEL: func.func @thrice
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK: %[[C1:.*]] = memref.alloc()
// CHECK: memref.copy %[[B]], %[[C1]]
// CHECK: %[[C2:.*]] = memref.alloc()
// CHECK: memref.copy %[[B]], %[[C2]]
// CHECK: return %[[B]], %[[C1]], %[[C2]] :
func.func @thrice() -> (memref<2xi64>, memref<2xi64>, memref<2xi64>) {
  %0 = memref.alloc() : memref<2xi64>
  return %0, %0, %0 : memref<2xi64>, memref<2xi64>, memref<2xi64>
}

// -----

// Distinct results are left alone.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT: memref.copy
// CHECK: return
func.func @distinct(%arg0: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %0 = memref.alloc() : memref<4xf32>
  return %0, %arg0 : memref<4xf32>, memref<4xf32>
}
