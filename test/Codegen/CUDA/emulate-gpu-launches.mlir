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

// -----

// Thread phases (block kernels): loops over the blocks only; each phase is a
// loop over the block's threads, run one after the other, which is what the
// barriers between them guarantee on a GPU. Shared and private buffers
// become plain ones, allocated once before the loops.
// CHECK-LABEL: func.func @phases
// CHECK-NOT: gpu.launch
// CHECK: %[[SH:.*]] = memref.alloca() : memref<64xf32>
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<64x2xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[BX:.*]] =
// CHECK-NOT: scf.for
// CHECK: memref.alloca_scope
// CHECK: scf.for %[[T1:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK: memref.store %{{.*}}, %[[SH]][%[[T1]]]
// CHECK: memref.store %{{.*}}, %[[ACC]][%[[T1]], %{{.*}}]
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK: memref.load %[[SH]]
// CHECK-NOT: gpu.
func.func @phases(%out: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %sh = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<64x2xf32, #gpu.address_space<private>>
    scf.forall (%t) in (64) {
      memref.store %f, %sh[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %acc[%t, %c0] : memref<64x2xf32, #gpu.address_space<private>>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    scf.forall (%t) in (64) {
      %r = arith.subi %c63, %t : index
      %v = memref.load %sh[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      %a = memref.load %acc[%t, %c0] : memref<64x2xf32, #gpu.address_space<private>>
      %s = arith.addf %v, %a : f32
      %b = arith.muli %bx, %c64 : index
      %i = arith.addi %b, %t : index
      memref.store %s, %out[%i] : memref<128xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    gpu.terminator
  }
  return
}

// -----

func.func @phases_and_thread_ids(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 2.0 : f32
  // expected-error @+1 {{cannot emulate thread phases in a launch that also reads thread ids}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    memref.store %f, %out[%tx] : memref<64xf32>
    scf.forall (%t) in (64) {
      memref.store %f, %out[%t] : memref<64xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    gpu.terminator
  }
  return
}
