// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-untie-empty-tensors))' | FileCheck %s

// Two kernels that CSE left writing into one tensor.empty: the second gets
// its own, made just before it.
// CHECK-LABEL: func.func @kernels
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %[[E0]])
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %[[E1]])
func.func @kernels(%a: f32, %b: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = scf.forall (%i) in (4) shared_outs(%o = %e) -> tensor<4xf32> {
    %t = tensor.from_elements %a : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  %1 = scf.forall (%i) in (4) shared_outs(%o = %e) -> tensor<4xf32> {
    %t = tensor.from_elements %b : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Dynamic sizes go with the clone. A linalg op before the kernel keeps the
// original; so does the linalg op after it, which writes in place of it.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[N:.*]]: index
// CHECK: %[[E0:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]]
// CHECK-NEXT: %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-NEXT: scf.forall (%{{.*}}) in (%[[N]]) shared_outs(%{{.*}} = %[[E1]])
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E0]]
// CHECK-NOT: tensor.empty
func.func @mixed(%n: index, %x: f32) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %1 = scf.forall (%i) in (%n) shared_outs(%o = %e) -> tensor<?xf32> {
    %t = tensor.from_elements %x : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
    }
  }
  %2 = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// -----

// Only linalg ops, or a single kernel: nothing changes.
// CHECK-LABEL: func.func @untouched
// CHECK-COUNT-2: tensor.empty
// CHECK-NOT: tensor.empty
func.func @untouched(%x: f32) -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %k = tensor.empty() : tensor<2xf32>
  %2 = scf.forall (%i) in (2) shared_outs(%o = %k) -> tensor<2xf32> {
    %t = tensor.from_elements %x : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<2xf32>
    }
  }
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>
}

// -----

// A kernel nested in a loop: its clone goes before the loop, in the block
// of the original.
// CHECK-LABEL: func.func @nested
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: scf.forall {{.*}} shared_outs(%{{.*}} = %[[E0]])
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: scf.for
// CHECK: scf.forall {{.*}} shared_outs(%{{.*}} = %[[E1]])
func.func @nested(%x: f32, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %0 = scf.forall (%i) in (4) shared_outs(%o = %e) -> tensor<4xf32> {
    %t = tensor.from_elements %x : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  %1 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %0) -> tensor<4xf32> {
    %2 = scf.forall (%i) in (4) shared_outs(%o = %e) -> tensor<4xf32> {
      %t = tensor.from_elements %x : tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
      }
    }
    scf.yield %2 : tensor<4xf32>
  }
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
