// Every top-level kernel of a bufferized CUDA function becomes one
// gpu.launch with one thread per parallel iteration, in blocks of 256
// threads (or fewer) along x, with a bounds check.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-map-kernels-to-gpu),canonicalize)' | FileCheck %s

// An scf.forall of 16x32 iterations: 2 blocks of 256 threads; the linear
// thread id is split row-major into the two loop indices.
// CHECK-LABEL: func.func @forall
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK: %[[B:.*]] = arith.muli %[[BX]], %[[C256]]
// CHECK: %[[ID:.*]] = arith.addi %[[B]], %[[TX]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[C512]]
// CHECK: scf.if %[[IN]]
// CHECK: %[[IJ:.*]]:2 = affine.delinearize_index %[[ID]] into (16, 32)
// CHECK: memref.load %{{.*}}[%[[IJ]]#0, %[[IJ]]#1]
// CHECK: memref.store
// CHECK: gpu.terminator
func.func @forall(%a: memref<16x32xf32>, %b: memref<16x32xf32>) {
  scf.forall (%i, %j) in (16, 32) {
    %v = memref.load %a[%i, %j] : memref<16x32xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %b[%i, %j] : memref<16x32xf32>
  }
  return
}

// -----

// A linalg op left outside any kernel (here a copy into a strided view, as
// a concat makes) becomes parallel loops, then a launch of 8x4 threads.
// CHECK-LABEL: func.func @copy_into_view
// CHECK: %[[V:.*]] = memref.subview
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c32
// CHECK: affine.delinearize_index %{{.*}} into (8, 4)
// CHECK: memref.load
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK-NOT: memref.copy
func.func @copy_into_view(%a: memref<8x4xf32>, %b: memref<8x8xf32>) {
  %v = memref.subview %b[0, 4] [8, 4] [1, 1] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 1], offset: 4>>
  memref.copy %a, %v : memref<8x4xf32> to memref<8x4xf32, strided<[8, 1], offset: 4>>
  return
}

// -----

// A full reduction has no parallel loop: it runs in one thread; a weight's
// address is taken on the host, outside the kernel.
// CHECK-LABEL: func.func @sum_all
// CHECK: %[[W:.*]] = memref.get_global @w
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c1
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[W]]
memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @sum_all(%out: memref<f32>) {
  %w = memref.get_global @w : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%w : memref<4xf32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A fused producer's one-element tile is a per-thread temporary: it lives on
// the thread's stack.
// CHECK-LABEL: func.func @thread_temporary
// CHECK: gpu.launch
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// CHECK-NOT: memref.alloc(
func.func @thread_temporary(%a: memref<64xf32>, %b: memref<64xf32>) {
  scf.forall (%i) in (64) {
    %t = memref.alloc() {alignment = 64 : i64} : memref<1xf32>
    %v = memref.load %a[%i] : memref<64xf32>
    %c0 = arith.constant 0 : index
    memref.store %v, %t[%c0] : memref<1xf32>
    %w = memref.load %t[%c0] : memref<1xf32>
    memref.store %w, %b[%i] : memref<64xf32>
  }
  return
}

// -----

func.func @host_store(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{cannot run on the host of a CUDA model}}
  memref.store %f, %a[%c0] : memref<4xf32>
  return
}

// -----

func.func @big_temporary(%a: memref<64xf32>) {
  scf.forall (%i) in (64) {
    // expected-error @+1 {{a GPU thread cannot allocate this buffer (at most 1024 bytes of static shape)}}
    %t = memref.alloc() : memref<4096xf32>
    %c0 = arith.constant 0 : index
    %v = memref.load %t[%c0] : memref<4096xf32>
    memref.store %v, %a[%i] : memref<64xf32>
  }
  return
}
