// mlc-merge-kernels: kernels that differ only in the weights they read and
// in where their workspace views are share one function; each call passes
// its own global and view. A kernel that differs in anything else keeps
// its function.
// RUN: mlc-opt %s --split-input-file --mlc-merge-kernels | FileCheck %s

// CHECK-LABEL: func.func private @main_kernel0
// CHECK-SAME: (%[[WS:.*]]: memref<256xi8>, %[[W:.*]]: memref<4xf32>, %[[V:.*]]: memref<4xf32>)
// CHECK-NOT: memref.get_global
// CHECK-NOT: memref.view
// CHECK: memref.load %[[W]]
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK-NOT: func.func private @main_kernel1(
// The kernel that scales by 3 instead of 2 is not a twin.
// CHECK-LABEL: func.func private @main_kernel2
// CHECK-DAG: memref.get_global @w2
// CHECK-DAG: arith.constant 3.0
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[MWS:.*]]: memref<256xi8>)
// CHECK: %[[G0:.*]] = memref.get_global @w0
// CHECK: %[[V0:.*]] = memref.view %[[MWS]][%{{.*}}][] : memref<256xi8> to memref<4xf32>
// CHECK: call @main_kernel0(%[[MWS]], %[[G0]], %[[V0]])
// CHECK: %[[G1:.*]] = memref.get_global @w1
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[V1:.*]] = memref.view %[[MWS]][%[[C64]]][] : memref<256xi8> to memref<4xf32>
// CHECK: call @main_kernel0(%[[MWS]], %[[G1]], %[[V1]])
// CHECK: call @main_kernel2(%[[MWS]])
memref.global "private" constant @w0 : memref<4xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<4xf32> = dense<2.0>
memref.global "private" constant @w2 : memref<4xf32> = dense<3.0>
func.func private @main_kernel0(%ws: memref<256xi8>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %w = memref.get_global @w0 : memref<4xf32>
  %v = memref.view %ws[%c0][] : memref<256xi8> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %w[%i] : memref<4xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %v[%i] : memref<4xf32>
  }
  return
}
// The same kernel on other data, its constants created in another order.
func.func private @main_kernel1(%ws: memref<256xi8>) attributes {passthrough = ["noinline"]} {
  %two = arith.constant 2.0 : f32
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %w = memref.get_global @w1 : memref<4xf32>
  %v = memref.view %ws[%c64][] : memref<256xi8> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %w[%i] : memref<4xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %v[%i] : memref<4xf32>
  }
  return
}
func.func private @main_kernel2(%ws: memref<256xi8>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %three = arith.constant 3.0 : f32
  %w = memref.get_global @w2 : memref<4xf32>
  %v = memref.view %ws[%c128][] : memref<256xi8> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %w[%i] : memref<4xf32>
    %y = arith.mulf %x, %three : f32
    memref.store %y, %v[%i] : memref<4xf32>
  }
  return
}
func.func @main(%ws: memref<256xi8>) {
  call @main_kernel0(%ws) : (memref<256xi8>) -> ()
  call @main_kernel1(%ws) : (memref<256xi8>) -> ()
  call @main_kernel2(%ws) : (memref<256xi8>) -> ()
  return
}

// -----

// A kernel called twice, or from another function, is left alone: the
// pass only rewrites the one call mlc-outline-kernels made. Here every
// kernel is a twin of another, and none is merged.
// CHECK-LABEL: func.func private @main_kernel0
// CHECK: memref.get_global @w0
// CHECK-LABEL: func.func private @main_kernel1
// CHECK: memref.get_global @w1
// CHECK-LABEL: func.func private @main_kernel2
// CHECK: memref.get_global @w2
// CHECK-LABEL: func.func private @main_kernel3
// CHECK: memref.get_global @w3
// CHECK-LABEL: func.func @main
// CHECK: call @main_kernel0(%{{.*}})
// CHECK: call @main_kernel0(%{{.*}})
// CHECK: call @main_kernel1(%{{.*}})
// CHECK: call @main_kernel2(%{{.*}})
// CHECK: call @main_kernel3(%{{.*}})
// CHECK-LABEL: func.func @other
// CHECK: call @main_kernel3(%{{.*}})
memref.global "private" constant @w0 : memref<4xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<4xf32> = dense<2.0>
memref.global "private" constant @w2 : memref<4xf32> = dense<3.0>
memref.global "private" constant @w3 : memref<4xf32> = dense<4.0>
func.func private @main_kernel0(%ws: memref<256xi8>) {
  %c0 = arith.constant 0 : index
  %w = memref.get_global @w0 : memref<4xf32>
  %v = memref.view %ws[%c0][] : memref<256xi8> to memref<4xf32>
  memref.copy %w, %v : memref<4xf32> to memref<4xf32>
  return
}
func.func private @main_kernel1(%ws: memref<256xi8>) {
  %c0 = arith.constant 0 : index
  %w = memref.get_global @w1 : memref<4xf32>
  %v = memref.view %ws[%c0][] : memref<256xi8> to memref<4xf32>
  memref.copy %w, %v : memref<4xf32> to memref<4xf32>
  return
}
// Twin of kernel3, which another function calls too.
func.func private @main_kernel2(%ws: memref<256xi8>) {
  %c0 = arith.constant 0 : index
  %w = memref.get_global @w2 : memref<4xf32>
  %v = memref.view %ws[%c0][] : memref<256xi8> to memref<8xf16>
  %h = memref.view %ws[%c0][] : memref<256xi8> to memref<4xf32>
  memref.copy %w, %h : memref<4xf32> to memref<4xf32>
  return
}
func.func private @main_kernel3(%ws: memref<256xi8>) {
  %c0 = arith.constant 0 : index
  %w = memref.get_global @w3 : memref<4xf32>
  %v = memref.view %ws[%c0][] : memref<256xi8> to memref<8xf16>
  %h = memref.view %ws[%c0][] : memref<256xi8> to memref<4xf32>
  memref.copy %w, %h : memref<4xf32> to memref<4xf32>
  return
}
func.func @main(%ws: memref<256xi8>) {
  call @main_kernel0(%ws) : (memref<256xi8>) -> ()
  call @main_kernel0(%ws) : (memref<256xi8>) -> ()
  call @main_kernel1(%ws) : (memref<256xi8>) -> ()
  call @main_kernel2(%ws) : (memref<256xi8>) -> ()
  call @main_kernel3(%ws) : (memref<256xi8>) -> ()
  return
}
func.func @other(%ws: memref<256xi8>) {
  call @main_kernel3(%ws) : (memref<256xi8>) -> ()
  return
}

// -----

// Twins whose views the memory plan created in other orders: the arguments
// follow the order of first use, so they still share one function, and each
// call passes its own source view first.
// CHECK-LABEL: func.func private @main_kernel0
// CHECK-SAME: (%[[WS:.*]]: memref<256xi8>, %[[SRC:.*]]: memref<4xf32>, %[[DST:.*]]: memref<4xf32>)
// CHECK: memref.load %[[SRC]]
// CHECK: memref.store %{{.*}}, %[[DST]]
// CHECK-NOT: func.func private @main_kernel1(
// CHECK-LABEL: func.func @main
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[S0:.*]] = memref.view %{{.*}}[%[[C0]]][]
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[D0:.*]] = memref.view %{{.*}}[%[[C64]]][]
// CHECK: call @main_kernel0(%{{.*}}, %[[S0]], %[[D0]])
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[S1:.*]] = memref.view %{{.*}}[%[[C128]]][]
// CHECK: %[[C192:.*]] = arith.constant 192 : index
// CHECK: %[[D1:.*]] = memref.view %{{.*}}[%[[C192]]][]
// CHECK: call @main_kernel0(%{{.*}}, %[[S1]], %[[D1]])
func.func private @main_kernel0(%ws: memref<256xi8>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %src = memref.view %ws[%c0][] : memref<256xi8> to memref<4xf32>
  %dst = memref.view %ws[%c64][] : memref<256xi8> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %src[%i] : memref<4xf32>
    memref.store %x, %dst[%i] : memref<4xf32>
  }
  return
}
func.func private @main_kernel1(%ws: memref<256xi8>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %dst = memref.view %ws[%c192][] : memref<256xi8> to memref<4xf32>
  %src = memref.view %ws[%c128][] : memref<256xi8> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %src[%i] : memref<4xf32>
    memref.store %x, %dst[%i] : memref<4xf32>
  }
  return
}
func.func @main(%ws: memref<256xi8>) {
  call @main_kernel0(%ws) : (memref<256xi8>) -> ()
  call @main_kernel1(%ws) : (memref<256xi8>) -> ()
  return
}
