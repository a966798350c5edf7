// --mlc-static-memory-plan turns the entry function's static allocations
// into views of one workspace argument. Uses are "test.use" ops (or linalg
// ops where in-place reuse is tested) so lifetimes are explicit.
// RUN: mlc-opt %s --split-input-file --allow-unregistered-dialect --mlc-static-memory-plan -verify-diagnostics | FileCheck %s

// Overlapping buffers get distinct, 64-byte aligned offsets, the largest
// (b, 20 bytes) first; c lives after both and reuses b's place. The lower
// bound is the 32 bytes of a and b, the workspace ends at a's 64 + 12.
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 76 : i64, mlc.workspace_lower_bound_bytes = 32 : i64}
// CHECK: func.func @main(%[[OUT:.*]]: memref<4xf32>, %[[WS:.*]]: memref<76xi8>)
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[WS]][%[[C64]]][] : memref<76xi8> to memref<3xf32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<76xi8> to memref<5xf32>
// CHECK-NEXT: "test.use"(%[[A]], %[[B]])
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<76xi8> to memref<5xf32>
// CHECK-NEXT: "test.use"(%[[C]], %[[OUT]])
// CHECK-NEXT: return
func.func @main(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<3xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<5xf32>
  "test.use"(%a, %b) : (memref<3xf32>, memref<5xf32>) -> ()
  %c = memref.alloc() : memref<5xf32>
  "test.use"(%c, %out) : (memref<5xf32>, memref<4xf32>) -> ()
  return
}

// -----

// Best fit: when x (256 bytes) is born, a (at 0, 512 bytes) and c (at 768,
// 256 bytes) are dead; x takes c's exact-size gap, not a's larger one.
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 1280 : i64, mlc.workspace_lower_bound_bytes = 1280 : i64}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[A:.*]] = memref.view %{{.*}}[%[[C0]]][] : memref<1280xi8> to memref<128xf32>
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[B:.*]] = memref.view %{{.*}}[%[[C512]]][] : memref<1280xi8> to memref<64xf32>
// CHECK-DAG: %[[C768:.*]] = arith.constant 768 : index
// CHECK-DAG: %[[C:.*]] = memref.view %{{.*}}[%[[C768]]][] : memref<1280xi8> to memref<64xf32>
// CHECK-DAG: %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-DAG: %[[D:.*]] = memref.view %{{.*}}[%[[C1024]]][] : memref<1280xi8> to memref<64xf32>
// CHECK: "test.use"(%[[A]], %[[B]], %[[C]], %[[D]])
// CHECK: %[[X768:.*]] = arith.constant 768 : index
// CHECK-NEXT: %[[X:.*]] = memref.view %{{.*}}[%[[X768]]][] : memref<1280xi8> to memref<64xi32>
// CHECK-NEXT: "test.use"(%[[B]], %[[D]], %[[X]])
func.func @main() {
  %a = memref.alloc() : memref<128xf32>
  %b = memref.alloc() : memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  %d = memref.alloc() : memref<64xf32>
  "test.use"(%a, %b, %c, %d) : (memref<128xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
  %x = memref.alloc() : memref<64xi32>
  "test.use"(%b, %d, %x) : (memref<64xf32>, memref<64xf32>, memref<64xi32>) -> ()
  return
}

// -----

// Largest first: the later, larger buffer gets offset 0.
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 1040 : i64, mlc.workspace_lower_bound_bytes = 1040 : i64}
// CHECK: arith.constant 1024 : index
// CHECK-NEXT: memref.view {{.*}} to memref<4xf32>
// CHECK: arith.constant 0 : index
// CHECK-NEXT: memref.view {{.*}} to memref<256xf32>
func.func @main() {
  %small = memref.alloc() : memref<4xf32>
  %big = memref.alloc() : memref<256xf32>
  "test.use"(%small, %big) : (memref<4xf32>, memref<256xf32>) -> ()
  return
}

// -----

// Aliases extend a lifetime: a's last use is through its expand_shape, b's
// through a subview, c's inside a loop body; none of them can share with a
// buffer born before those uses: all four are live at d's use (176 bytes;
// c's 32 are padded to 64 for d's alignment).
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 208 : i64, mlc.workspace_lower_bound_bytes = 176 : i64}
// CHECK: arith.constant 0 : index
// CHECK-NEXT: memref.view %{{.*}}[%{{.*}}][] : memref<208xi8> to memref<16xf32>
// CHECK: arith.constant 64 : index
// CHECK-NEXT: memref.view %{{.*}}[%{{.*}}][] : memref<208xi8> to memref<16xi32>
// CHECK: arith.constant 128 : index
// CHECK-NEXT: memref.view %{{.*}}[%{{.*}}][] : memref<208xi8> to memref<16xi16>
// CHECK: arith.constant 192 : index
// CHECK-NEXT: memref.view %{{.*}}[%{{.*}}][] : memref<208xi8> to memref<16xi8>
func.func @main(%n: index) {
  %a = memref.alloc() : memref<16xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  "test.use"(%a) : (memref<16xf32>) -> ()
  %b = memref.alloc() : memref<16xi32>
  %s = memref.subview %b[0] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1]>>
  "test.use"(%b) : (memref<16xi32>) -> ()
  %c = memref.alloc() : memref<16xi16>
  "test.use"(%c) : (memref<16xi16>) -> ()
  %d = memref.alloc() : memref<16xi8>
  "test.use"(%d) : (memref<16xi8>) -> ()
  "test.use"(%e, %s) : (memref<4x4xf32>, memref<8xi32, strided<[1]>>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %c[%c0] : memref<16xi16>
    memref.store %v, %c[%c0] : memref<16xi16>
  }
  return
}

// -----

// In place: an all-parallel generic whose output is born where an equally
// sized identity-mapped input dies writes over that input (a -> b -> c all
// at offset 0, read through a reshape for the last step). d is read with a
// reversed map, e is a reduction, f outlives g's op: no reuse for them.
// (Greedy is not optimal here: e overlaps d and f at different offsets.)
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 132 : i64, mlc.workspace_lower_bound_bytes = 128 : i64}
// CHECK: func.func @main(%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>, %[[WS:.*]]: memref<132xi8>)
// CHECK: %[[Z0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[WS]][%[[Z0]]][] {{.*}} to memref<16xf32>
// CHECK: %[[Z1:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[WS]][%[[Z1]]][] {{.*}} to memref<16xf32>
// CHECK: ins(%[[A]], %[[IN]] : memref<16xf32>, memref<16xf32>) outs(%[[B]] : memref<16xf32>)
// CHECK: %[[Z2:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[WS]][%[[Z2]]][] {{.*}} to memref<4x4xf32>
// CHECK: %[[O3:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[D:.*]] = memref.view %[[WS]][%[[O3]]][] {{.*}} to memref<16xf32>
// CHECK: ins(%{{.*}} : memref<16xf32>) outs(%[[D]] : memref<16xf32>)
// CHECK: %[[O4:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[E:.*]] = memref.view %[[WS]][%[[O4]]][] {{.*}} to memref<f32>
// CHECK: %[[O5:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[F:.*]] = memref.view %[[WS]][%[[O5]]][] {{.*}} to memref<16xf32>
// CHECK: %[[O6:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[G:.*]] = memref.view %[[WS]][%[[O6]]][] {{.*}} to memref<16xf32>
// CHECK: "test.use"(%[[F]], %[[G]])
#id = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (15 - d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0) -> ()>
func.func @main(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%in : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %in : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %x2: f32, %y: f32):
    %r = arith.addf %x, %x2 : f32
    linalg.yield %r : f32
  }
  %be = memref.expand_shape %b [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %c = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%be : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  }
  %cc = memref.collapse_shape %c [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel"]} ins(%cc : memref<16xf32>) outs(%d : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %e = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]} ins(%d : memref<16xf32>) outs(%e : memref<f32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }
  %f = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#all, #id], iterator_types = ["parallel"]} ins(%e : memref<f32>) outs(%f : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %g = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%f : memref<16xf32>) outs(%g : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  "test.use"(%f, %g) : (memref<16xf32>, memref<16xf32>) -> ()
  return
}

// -----

// One input is given to one output only: b takes a's place, c does not.
// Different element sizes (f32 -> f16) never share.
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 160 : i64, mlc.workspace_lower_bound_bytes = 160 : i64}
// CHECK: %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %{{.*}}[%[[O0]]][] {{.*}} to memref<16xf32>
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %{{.*}}[%[[O1]]][] {{.*}} to memref<16xf32>
// CHECK: %[[O2:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %{{.*}}[%[[O2]]][] {{.*}} to memref<16xf32>
// CHECK: outs(%[[B]], %[[C]] : memref<16xf32>, memref<16xf32>)
// CHECK: %[[O3:.*]] = arith.constant 128 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[O3]]][] {{.*}} to memref<16xf16>
#id = affine_map<(d0) -> (d0)>
func.func @main(%in: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b, %c : memref<16xf32>, memref<16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %x, %x : f32, f32
  }
  %h = memref.alloc() : memref<16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c : memref<16xf32>) outs(%h : memref<16xf16>) {
  ^bb0(%x: f32, %y: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  }
  "test.use"(%b, %h) : (memref<16xf32>, memref<16xf16>) -> ()
  return
}

// -----

// Not planned: outputs (arguments), constants, allocations in loops, with
// dynamic shapes, over-aligned ones and returned ones stay as they are; an
// unused allocation is dropped and a planned buffer loses its dealloc.
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 64 : i64, mlc.workspace_lower_bound_bytes = 64 : i64}
// CHECK: func.func @main(%[[OUT:.*]]: memref<16xf32>, %[[N:.*]]: index, %[[WS:.*]]: memref<64xi8>) -> memref<8xf32>
// CHECK-NEXT: %[[G:.*]] = memref.get_global @weights : memref<16xf32>
// CHECK-NEXT: %[[DYN:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: %[[WIDE:.*]] = memref.alloc() {alignment = 128 : i64} : memref<16xf32>
// CHECK-NEXT: %[[RET:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[P:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<64xi8> to memref<16xf32>
// CHECK-NEXT: memref.copy %[[G]], %[[P]]
// CHECK-NEXT: "test.use"(%[[P]], %[[DYN]], %[[WIDE]], %[[RET]], %[[OUT]])
// CHECK: scf.for
// CHECK-NEXT: %[[LOOP:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: "test.use"(%[[LOOP]])
// CHECK-NEXT: memref.dealloc %[[LOOP]]
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[DYN]]
// CHECK-NEXT: return %[[RET]]
memref.global "private" constant @weights : memref<16xf32> = dense<1.0>
func.func @main(%out: memref<16xf32>, %n: index) -> memref<8xf32> {
  %g = memref.get_global @weights : memref<16xf32>
  %dyn = memref.alloc(%n) : memref<?xf32>
  %wide = memref.alloc() {alignment = 128 : i64} : memref<16xf32>
  %ret = memref.alloc() : memref<8xf32>
  %unused = memref.alloc() : memref<1024xf32>
  %p = memref.alloc() : memref<16xf32>
  memref.copy %g, %p : memref<16xf32> to memref<16xf32>
  "test.use"(%p, %dyn, %wide, %ret, %out) : (memref<16xf32>, memref<?xf32>, memref<16xf32>, memref<8xf32>, memref<16xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %loop = memref.alloc() : memref<4xf32>
    "test.use"(%loop) : (memref<4xf32>) -> ()
    memref.dealloc %loop : memref<4xf32>
  }
  memref.dealloc %p : memref<16xf32>
  memref.dealloc %dyn : memref<?xf32>
  return %ret : memref<8xf32>
}

// -----

// Nothing to plan: the entry still gets an (empty) workspace argument, so
// the attributes always mean "the entry takes a workspace last". Other
// functions are left alone.
// CHECK-LABEL: module attributes {mlc.workspace_bytes = 0 : i64, mlc.workspace_lower_bound_bytes = 0 : i64}
// CHECK: func.func @helper()
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK: func.func @main(%{{.*}}: memref<4xf32>, %{{.*}}: memref<0xi8>)
func.func @helper() {
  %a = memref.alloc() : memref<4xf32>
  "test.use"(%a) : (memref<4xf32>) -> ()
  return
}
func.func @main(%out: memref<4xf32>) {
  "test.use"(%out) : (memref<4xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{entry function 'main' not found}}
module {
  func.func @predict() {
    return
  }
}

// -----

// expected-error @+1 {{the module already has a memory plan}}
module attributes {mlc.workspace_bytes = 0 : i64} {
  func.func @main() {
    return
  }
}
