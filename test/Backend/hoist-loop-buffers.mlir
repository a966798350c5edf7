// RUN: mlc-opt %s --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(mlc-hoist-loop-buffers))' | FileCheck %s

// A tile buffer used only in the body: out of both loops, before the outer.
// CHECK-LABEL: func.func @nested
// CHECK: "test.before"
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[C:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: %[[S:.*]] = memref.alloca() : memref<2xf32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: "test.use"(%[[B]], %[[S]], %[[C]])
func.func @nested(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "test.before"() : () -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %b = memref.alloc() : memref<4xf32>
      %s = memref.alloca() : memref<2xf32>
      %c = memref.alloc() : memref<8xf32>
      "test.use"(%b, %s, %c) : (memref<4xf32>, memref<2xf32>, memref<8xf32>) -> ()
    }
  }
  return
}

// -----

// Yielded from the body: the next iteration reads it, it stays.
// CHECK-LABEL: func.func @yielded
// CHECK: scf.for
// CHECK-NEXT: memref.alloc()
func.func @yielded(%init: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> memref<4xf32> {
    %b = memref.alloc() : memref<4xf32>
    "test.use"(%acc, %b) : (memref<4xf32>, memref<4xf32>) -> ()
    scf.yield %b : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// -----

// Yielded by the inner loop, whose result the outer body reads: the inner
// loop carries it from one iteration to the next, so it stays in its body.
// CHECK-LABEL: func.func @inner_yield
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.alloc()
func.func @inner_yield(%init: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %init) -> memref<4xf32> {
      %b = memref.alloc() : memref<4xf32>
      "test.use"(%acc, %b) : (memref<4xf32>, memref<4xf32>) -> ()
      scf.yield %b : memref<4xf32>
    }
    "test.use"(%r) : (memref<4xf32>) -> ()
  }
  return
}

// -----

// Dynamic sizes: out of the loops that do not define them.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[A:.*]] = memref.alloc(%arg0)
// CHECK-NEXT: scf.for %[[I:.*]] =
// CHECK-NEXT: %[[M:.*]] = arith.addi %[[I]]
// CHECK-NEXT: memref.alloc(%[[M]])
// CHECK-NEXT: scf.for %[[J:.*]] =
// CHECK-NEXT: memref.alloc(%[[J]])
func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %m = arith.addi %i, %n : index
    scf.for %j = %c0 to %c4 step %c1 {
      %a = memref.alloc(%n) : memref<?xf32>
      %b = memref.alloc(%m) : memref<?xf32>
      %c = memref.alloc(%j) : memref<?xf32>
      "test.use"(%a, %b, %c) : (memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
    }
  }
  return
}

// -----

// Never out of a parallel loop or a conditional; out of a loop inside them.
// CHECK-LABEL: func.func @parallel
// CHECK: scf.forall
// CHECK-NEXT: memref.alloc() : memref<16xf32>
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.if
// CHECK-NEXT: memref.alloc() : memref<4xf32>
func.func @parallel(%p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.forall (%t) in (8) {
    %a = memref.alloc() : memref<16xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      scf.if %p {
        %b = memref.alloc() : memref<4xf32>
        "test.use"(%b) : (memref<4xf32>) -> ()
      }
      %c = memref.alloc() : memref<4xf32>
      "test.use"(%a, %c) : (memref<16xf32>, memref<4xf32>) -> ()
    }
  }
  return
}

// -----

// A view of the buffer used after the loop: it stays.
// CHECK-LABEL: func.func @view_escapes
// CHECK: scf.for
// CHECK-NEXT: memref.alloc()
// CHECK-NEXT: memref.subview
func.func @view_escapes(%out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %o = memref.cast %out : memref<2xf32> to memref<2xf32, strided<[1], offset: ?>>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %o) -> memref<2xf32, strided<[1], offset: ?>> {
    %b = memref.alloc() : memref<4xf32>
    %s = memref.subview %b[%i] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: ?>>
    scf.yield %s : memref<2xf32, strided<[1], offset: ?>>
  }
  "test.use"(%r) : (memref<2xf32, strided<[1], offset: ?>>) -> ()
  return
}

// -----

// A view used only in the body: the buffer leaves the loop.
// CHECK-LABEL: func.func @view_inside
// CHECK: memref.alloc()
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.subview
func.func @view_inside() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %b = memref.alloc() : memref<4xf32>
    %s = memref.subview %b[%i] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: ?>>
    "test.use"(%s) : (memref<2xf32, strided<[1], offset: ?>>) -> ()
  }
  return
}
