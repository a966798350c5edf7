// RUN: mlc-opt %s --split-input-file -mlc-deallocate-buffers | FileCheck %s

// A per-thread tile buffer, used through a view inside its parallel loop
// body: freed just before the body's terminator, nothing else added.
// CHECK-LABEL: func.func @tile_buffer
// CHECK: scf.parallel
// CHECK: %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// CHECK: %[[R:.*]] = memref.subview %[[T]]
// CHECK: linalg.fill {{.*}} outs(%[[R]]
// CHECK: memref.store
// CHECK-NEXT: memref.dealloc %[[T]] : memref<4x16xf32>
// CHECK-NEXT: scf.reduce
// CHECK-NOT: bufferization
// CHECK-NOT: scf.if
func.func @tile_buffer(%out: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %tile = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
    %row = memref.subview %tile[1, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: 16>>
    linalg.fill ins(%cst : f32) outs(%row : memref<16xf32, strided<[1], offset: 16>>)
    %v = memref.load %row[%c0] : memref<16xf32, strided<[1], offset: 16>>
    memref.store %v, %out[%i, %c0] : memref<8x16xf32>
    scf.reduce
  }
  return
}

// -----

// A buffer that is returned is not local: the module goes through MLIR's
// ownership-based deallocation instead, which frees the local one (under
// its ownership condition) and leaves the returned one to the caller.
// CHECK-LABEL: func.func @escapes
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK: scf.if
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK: return %[[A]]
func.func @escapes() -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.store %cst, %b[%c0] : memref<4xf32>
  %v = memref.load %b[%c0] : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  return %a : memref<4xf32>
}

// -----

// A buffer passed to a call may outlive its block as far as this pass can
// tell: the general pipeline again, whose lowering frees it under an
// ownership condition (constant true here) rather than directly.
// CHECK-LABEL: func.func @passed_on
// CHECK: scf.for
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK: call @use(%[[A]])
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: memref.dealloc %[[A]]
func.func private @use(memref<4xf32>)
func.func @passed_on(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<4xf32>
    func.call @use(%a) : (memref<4xf32>) -> ()
  }
  return
}
