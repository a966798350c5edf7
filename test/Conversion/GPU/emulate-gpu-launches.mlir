// Testing without a GPU: a launch becomes loops over its blocks and
// threads, each thread's body in an alloca scope.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-emulate-gpu-launches))' | FileCheck %s

// CHECK-LABEL: func.func @launch
// CHECK-NOT: gpu.launch
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[GZ:.*]] step
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[GY:.*]] step
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to %[[GX:.*]] step
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to %[[NT:.*]] step
// CHECK: memref.alloca_scope {
// CHECK: %[[M:.*]] = arith.muli %[[BX]], %[[NT]]
// CHECK: arith.addi %[[M]], %[[TX]]
// CHECK: memref.store
func.func @launch(%a: memref<512xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %sx : index
    %i = arith.addi %b, %tx : index
    memref.store %f, %a[%i] : memref<512xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @barrier(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{cannot emulate a launch whose threads synchronize}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}
