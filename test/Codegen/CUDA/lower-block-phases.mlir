// Thread phases of block kernels on a GPU: each thread runs each phase at
// its thread id; a barrier follows every phase that touches memory other
// threads see (none after a phase on the thread's own registers, none at the
// kernel's end); workgroup buffers become the launch's shared memory and
// private ones, indexed by the thread, per-thread arrays.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-lower-block-phases))' | FileCheck %s

// CHECK-LABEL: func.func @phases
// CHECK: gpu.launch blocks({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) workgroup(%[[SH:.*]] : memref<64xf32, #gpu.address_space<workgroup>>) {
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<2xf32>
// CHECK-NOT: scf.forall
// Phase 1 (registers only): no barrier after it.
// CHECK: memref.store %{{.*}}, %[[ACC]][%c0]
// CHECK-NOT: gpu.barrier
// Phase 2 (shared memory), on 32 of the 64 threads.
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[TX]], %c32
// CHECK: scf.if %[[ACTIVE]] {
// CHECK: memref.store %{{.*}}, %[[SH]][%[[TX]]]
// CHECK: }
// CHECK-NEXT: gpu.barrier
// Phase 3 reads another thread's element, ends the kernel: no barrier.
// CHECK: memref.load %[[SH]]
// CHECK: memref.load %[[ACC]][%c0]
// CHECK: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @phases(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %sh = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<64x2xf32, #gpu.address_space<private>>
    scf.forall (%t) in (64) {
      memref.store %f, %acc[%t, %c0] : memref<64x2xf32, #gpu.address_space<private>>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    scf.forall (%t) in (32) {
      memref.store %f, %sh[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    scf.forall (%t) in (64) {
      %r = arith.subi %c63, %t : index
      %v = memref.load %sh[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      %a = memref.load %acc[%t, %c0] : memref<64x2xf32, #gpu.address_space<private>>
      %s = arith.addf %v, %a : f32
      memref.store %s, %out[%t] : memref<64xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    gpu.terminator
  }
  return
}

// -----

// Phases in a loop: the barrier after the loop body's last phase keeps the
// next iteration's writes from racing this one's reads.
// CHECK-LABEL: func.func @phases_in_loop
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load
// CHECK: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: }
func.func @phases_in_loop(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %sh = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c4 step %c1 {
      scf.forall (%t) in (64) {
        memref.store %f, %sh[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      } {mapping = [#gpu.thread<linear_dim_0>]}
      scf.forall (%t) in (64) {
        %v = memref.load %sh[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%t] : memref<64xf32>
      } {mapping = [#gpu.thread<linear_dim_0>]}
    }
    gpu.terminator
  }
  return
}

// -----

func.func @private_other_thread() {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %acc = memref.alloca() : memref<64xf32, #gpu.address_space<private>>
    scf.forall (%t) in (64) {
      // expected-error @+1 {{a private buffer may only be loaded and stored at its thread's index}}
      memref.store %f, %acc[%c0] : memref<64xf32, #gpu.address_space<private>>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    gpu.terminator
  }
  return
}

// -----

func.func @too_many_threads() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %sh = memref.alloca() : memref<128xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{a thread phase needs one iteration per thread of the block, at most 64}}
    scf.forall (%t) in (128) {
      memref.store %f, %sh[%t] : memref<128xf32, #gpu.address_space<workgroup>>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    gpu.terminator
  }
  return
}

// -----

func.func @dynamic_block(%n: index) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  // expected-error @+1 {{a launch of thread phases needs a static one-dimensional block}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %sh = memref.alloca() : memref<128xf32, #gpu.address_space<workgroup>>
    scf.forall (%t) in (128) {
      memref.store %f, %sh[%t] : memref<128xf32, #gpu.address_space<workgroup>>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    gpu.terminator
  }
  return
}
