// Alloca scopes that allocate nothing are replaced by their body; a scope
// with a memref.alloca of its own stays, also inside an inlined one.
// RUN: mlc-opt %s --split-input-file --mlc-inline-alloca-scopes | FileCheck %s

// CHECK-LABEL: func.func @empty_scope
// CHECK-NOT: memref.alloca_scope
// CHECK: %[[S:.*]] = arith.addf %arg0, %arg0 : f32
// CHECK: return %[[S]]
func.func @empty_scope(%x: f32) -> f32 {
  %r = memref.alloca_scope -> (f32) {
    %s = arith.addf %x, %x : f32
    memref.alloca_scope.return %s : f32
  }
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @nested
// CHECK: memref.alloca_scope {
// CHECK-NEXT: memref.alloca() : memref<4xf32>
// CHECK: }
// CHECK-NOT: memref.alloca_scope
// CHECK: return
func.func @nested(%v: f32) {
  memref.alloca_scope {
    memref.alloca_scope {
      %a = memref.alloca() : memref<4xf32>
      %c0 = arith.constant 0 : index
      memref.store %v, %a[%c0] : memref<4xf32>
    }
  }
  return
}
