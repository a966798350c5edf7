// mlc-outline-kernels: each top-level loop nest of the entry function
// (without results, with at least min-ops ops inside) moves into a private
// noinline function; views, globals and constants are cloned into it, the
// buffers and run-time scalars become its arguments.
// RUN: mlc-opt %s --split-input-file --mlc-outline-kernels="min-ops=4" | FileCheck %s

// CHECK-LABEL: func.func private @main_kernel0
// CHECK-SAME: (%[[ARG:.*]]: memref<8x16xf32>, %[[S:.*]]: f32, %[[BUF:.*]]: memref<8x8xf32>)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG: %[[G:.*]] = memref.get_global @table : memref<8xf32>
// CHECK-DAG: %[[V:.*]] = memref.subview %[[ARG]][0, 8] [8, 8] [1, 1]
// CHECK: scf.for
// CHECK:   memref.load %[[G]]
// CHECK:   memref.load %[[V]]
// CHECK:   arith.mulf %{{.*}}, %[[S]]
// CHECK:   memref.store %{{.*}}, %[[BUF]]
// CHECK: return
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<8x16xf32>, %[[Y:.*]]: memref<8x8xf32>, %[[P:.*]]: memref<f32>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK: %[[L:.*]] = memref.load %[[P]][]
// CHECK: call @main_kernel0(%[[X]], %[[L]], %[[A]])
// The nest below min-ops stays where it is.
// CHECK: scf.for
// CHECK:   memref.copy
// CHECK-NOT: call
// CHECK: return
memref.global "private" constant @table : memref<8xf32> = dense<2.0>
func.func @main(%x: memref<8x16xf32>, %y: memref<8x8xf32>, %p: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8x8xf32>
  %s = memref.load %p[] : memref<f32>
  %v = memref.subview %x[0, 8] [8, 8] [1, 1] : memref<8x16xf32> to memref<8x8xf32, strided<[16, 1], offset: 8>>
  %g = memref.get_global @table : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %t = memref.load %g[%j] : memref<8xf32>
      %e = memref.load %v[%i, %j] : memref<8x8xf32, strided<[16, 1], offset: 8>>
      %m = arith.mulf %t, %e : f32
      %n = arith.mulf %m, %s : f32
      memref.store %n, %a[%i, %j] : memref<8x8xf32>
    }
  }
  scf.for %i = %c0 to %c1 step %c1 {
    memref.copy %a, %y : memref<8x8xf32> to memref<8x8xf32>
  }
  memref.dealloc %a : memref<8x8xf32>
  return
}

// -----

// A nest with results, and functions other than the entry, are left alone.
// CHECK-LABEL: func.func @main
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-LABEL: func.func @other
// CHECK-NOT: call
// CHECK: scf.for
func.func @main(%x: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z) -> f32 {
    %e = memref.load %x[%i] : memref<64xf32>
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %acc, %m : f32
    %t = arith.addf %s, %m : f32
    scf.yield %t : f32
  }
  return %r : f32
}
func.func @other(%x: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %e = memref.load %x[%i] : memref<64xf32>
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %m : f32
    %t = arith.addf %s, %m : f32
    memref.store %t, %x[%i] : memref<64xf32>
  }
  return
}
