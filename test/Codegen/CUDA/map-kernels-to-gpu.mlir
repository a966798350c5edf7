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

// -----

// Block-tiled contraction (mlc-form-gpu-kernels' schedule, bufferized): one
// launch of one block per 64 x 64 output tile, 256 threads, whose body is
// thread phases: the accumulators start from the folded zero fill, the
// reduction steps 8 at a time staging both operands in shared memory, then
// each thread stores its 4 x 4 outputs.
// CHECK-LABEL: func.func @block_tiled
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %[[C256]],
// CHECK: affine.delinearize_index %[[BX]] into (2, 2)
// CHECK-NOT: linalg.fill
// CHECK: %[[LHS:.*]] = memref.alloca() : memref<8x68xf32, #gpu.address_space<workgroup>>
// CHECK: %[[RHS:.*]] = memref.alloca() : memref<8x68xf32, #gpu.address_space<workgroup>>
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<256x4x4xf32, #gpu.address_space<private>>
// CHECK: scf.forall (%[[T:.*]]) in (256)
// CHECK-NOT: memref.load
// CHECK: memref.store %[[ZERO]], %[[ACC]][%[[T]], %c0, %c0]
// CHECK: mapping = [#gpu.thread<linear_dim_0>]
// CHECK: scf.for %{{.*}} = %c0 to %c40 step %c8
// CHECK: scf.forall
// CHECK: memref.store {{.*}}, %[[LHS]]
// CHECK: memref.store {{.*}}, %[[RHS]]
// CHECK: scf.forall
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK: math.fma
// CHECK: scf.forall
// CHECK: scf.if
// CHECK: memref.load %[[ACC]]
// CHECK: memref.store
// CHECK: gpu.terminator
func.func @block_tiled(%a: memref<100x40xf32>, %b: memref<40x70xf32>, %c: memref<100x70xf32>) {
  %cst = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (100, 70) step (64, 64) {
    %m = affine.min affine_map<(d0) -> (-d0 + 100, 64)>(%i)
    %n = affine.min affine_map<(d0) -> (-d0 + 70, 64)>(%j)
    %sa = memref.subview %a[%i, 0] [%m, 40] [1, 1] : memref<100x40xf32> to memref<?x40xf32, strided<[40, 1], offset: ?>>
    %sb = memref.subview %b[0, %j] [40, %n] [1, 1] : memref<40x70xf32> to memref<40x?xf32, strided<[70, 1], offset: ?>>
    %sc = memref.subview %c[%i, %j] [%m, %n] [1, 1] : memref<100x70xf32> to memref<?x?xf32, strided<[70, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%sc : memref<?x?xf32, strided<[70, 1], offset: ?>>)
    linalg.matmul {mlc.gpu.block_tile = array<i64: 64, 64, 8, 4, 4>} ins(%sa, %sb : memref<?x40xf32, strided<[40, 1], offset: ?>>, memref<40x?xf32, strided<[70, 1], offset: ?>>) outs(%sc : memref<?x?xf32, strided<[70, 1], offset: ?>>)
  } {mapping = [#gpu.block<linear_dim_0>, #gpu.block<linear_dim_1>]}
  return
}

// -----

// No fill before it: the accumulators start from the output (here a bias
// already written), loaded where the tile is in bounds.
// CHECK-LABEL: func.func @block_tiled_accumulate
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<256x4x4xf32, #gpu.address_space<private>>
// CHECK: scf.forall (%[[T:.*]]) in (256)
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (f32)
// CHECK: memref.load %{{.*}} : memref<?x?xf32, strided<[70, 1], offset: ?>>
// CHECK: memref.store %[[V]], %[[ACC]][%[[T]], %c0, %c0]
func.func @block_tiled_accumulate(%a: memref<100x40xf32>, %b: memref<40x70xf32>, %c: memref<100x70xf32>) {
  scf.forall (%i, %j) = (0, 0) to (100, 70) step (64, 64) {
    %m = affine.min affine_map<(d0) -> (-d0 + 100, 64)>(%i)
    %n = affine.min affine_map<(d0) -> (-d0 + 70, 64)>(%j)
    %sa = memref.subview %a[%i, 0] [%m, 40] [1, 1] : memref<100x40xf32> to memref<?x40xf32, strided<[40, 1], offset: ?>>
    %sb = memref.subview %b[0, %j] [40, %n] [1, 1] : memref<40x70xf32> to memref<40x?xf32, strided<[70, 1], offset: ?>>
    %sc = memref.subview %c[%i, %j] [%m, %n] [1, 1] : memref<100x70xf32> to memref<?x?xf32, strided<[70, 1], offset: ?>>
    linalg.matmul {mlc.gpu.block_tile = array<i64: 64, 64, 8, 4, 4>} ins(%sa, %sb : memref<?x40xf32, strided<[40, 1], offset: ?>>, memref<40x?xf32, strided<[70, 1], offset: ?>>) outs(%sc : memref<?x?xf32, strided<[70, 1], offset: ?>>)
  } {mapping = [#gpu.block<linear_dim_0>, #gpu.block<linear_dim_1>]}
  return
}

// -----

func.func private @host_only()

func.func @block_tiled_call(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (64, 64) {
    // expected-error @+1 {{cannot run in a block-cooperative GPU kernel}}
    func.call @host_only() : () -> ()
    linalg.matmul {mlc.gpu.block_tile = array<i64: 64, 64, 8, 4, 4>} ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  } {mapping = [#gpu.block<linear_dim_0>, #gpu.block<linear_dim_1>]}
  return
}
