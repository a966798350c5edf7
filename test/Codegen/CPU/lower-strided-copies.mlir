// memref.copy with a non-contiguous memref on either side becomes
// linalg.copy (plain loops later); copies between contiguous memrefs
// (identity layouts, or row-major strides at any offset: a range of channel
// blocks of a concatenation) stay, since they lower to memcpy.
// RUN: mlc-opt %s --mlc-lower-strided-copies --split-input-file | FileCheck %s
// RUN: mlc-opt %s --mlc-lower-strided-copies --finalize-memref-to-llvm --split-input-file | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @strided_source
// CHECK-SAME: (%[[SRC:.*]]: memref<4x6xf32>, %[[DST:.*]]: memref<2x3xf32>)
// CHECK: %[[VIEW:.*]] = memref.subview %[[SRC]][0, 0] [2, 3] [2, 2]
// CHECK-NEXT: linalg.copy ins(%[[VIEW]] : memref<2x3xf32, strided<[12, 2]>>) outs(%[[DST]] : memref<2x3xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @strided_source(%src: memref<4x6xf32>, %dst: memref<2x3xf32>) {
  %view = memref.subview %src[0, 0] [2, 3] [2, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[12, 2]>>
  memref.copy %view, %dst : memref<2x3xf32, strided<[12, 2]>> to memref<2x3xf32>
  return
}

// -----

// CHECK-LABEL: func.func @strided_target
// CHECK-SAME: (%[[SRC:.*]]: memref<2x2xf32>, %[[DST:.*]]: memref<4x4xf32>)
// CHECK: %[[VIEW:.*]] = memref.subview %[[DST]][1, 1] [2, 2] [1, 1]
// CHECK-NEXT: linalg.copy ins(%[[SRC]] : memref<2x2xf32>) outs(%[[VIEW]] : memref<2x2xf32, strided<[4, 1], offset: 5>>)
// CHECK-NOT: memref.copy
func.func @strided_target(%src: memref<2x2xf32>, %dst: memref<4x4xf32>) {
  %view = memref.subview %dst[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  memref.copy %src, %view : memref<2x2xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  return
}

// -----

// Row-major strides at an offset (static or not) are contiguous: memcpy.
// CHECK-LABEL: func.func @explicit_layout
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<2x3xi64, strided<[3, 1], offset: ?>> to memref<2x3xi64>
// CHECK-NOT: linalg.copy
// LLVM-LABEL: func.func @explicit_layout
// LLVM: "llvm.intr.memcpy"
// LLVM-NOT: memrefCopy
func.func @explicit_layout(%src: memref<2x3xi64, strided<[3, 1], offset: ?>>, %dst: memref<2x3xi64>) {
  memref.copy %src, %dst : memref<2x3xi64, strided<[3, 1], offset: ?>> to memref<2x3xi64>
  return
}

// -----

// Channel blocks 2-3 of a blocked [1, 4, 2, 2, 16] tensor are one
// contiguous range: memcpy.
// CHECK-LABEL: func.func @channel_blocks
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<1x2x2x2x16xf32> to memref<1x2x2x2x16xf32, strided<[256, 64, 32, 16, 1], offset: 128>>
// CHECK-NOT: linalg.copy
// LLVM-LABEL: func.func @channel_blocks
// LLVM: "llvm.intr.memcpy"
// LLVM-NOT: memrefCopy
func.func @channel_blocks(%src: memref<1x2x2x2x16xf32>, %dst: memref<1x4x2x2x16xf32>) {
  %view = memref.subview %dst[0, 2, 0, 0, 0] [1, 2, 2, 2, 16] [1, 1, 1, 1, 1] : memref<1x4x2x2x16xf32> to memref<1x2x2x2x16xf32, strided<[256, 64, 32, 16, 1], offset: 128>>
  memref.copy %src, %view : memref<1x2x2x2x16xf32> to memref<1x2x2x2x16xf32, strided<[256, 64, 32, 16, 1], offset: 128>>
  return
}

// -----

// Contiguous copies, including 0-d and inside loops, are left alone.
// CHECK-LABEL: func.func @contiguous
// CHECK-SAME: (%[[A:.*]]: memref<4x6xf32>, %[[B:.*]]: memref<4x6xf32>, %[[S:.*]]: memref<f32>, %[[T:.*]]: memref<f32>)
// CHECK-NEXT: memref.copy %[[A]], %[[B]] : memref<4x6xf32> to memref<4x6xf32>
// CHECK: scf.for
// CHECK-NEXT: memref.copy %[[S]], %[[T]] : memref<f32> to memref<f32>
// CHECK-NOT: linalg.copy
func.func @contiguous(%a: memref<4x6xf32>, %b: memref<4x6xf32>, %s: memref<f32>, %t: memref<f32>) {
  memref.copy %a, %b : memref<4x6xf32> to memref<4x6xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.copy %s, %t : memref<f32> to memref<f32>
  }
  return
}

// -----

// Strided copies nested in regions are found too; a contiguous row there
// stays a copy.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK: %[[VIEW:.*]] = memref.subview %{{.*}}[0, %{{.*}}] [4, 1] [1, 1]
// CHECK-NEXT: linalg.copy ins(%[[VIEW]] : memref<4xf32, strided<[4], offset: ?>>) outs(%{{.*}} : memref<4xf32>)
// CHECK: %[[ROW:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [1, 4] [1, 1]
// CHECK-NEXT: memref.copy %[[ROW]], %{{.*}} : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
func.func @nested(%src: memref<4x4xf32>, %dst: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %col = memref.subview %src[0, %i] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4], offset: ?>>
    memref.copy %col, %dst : memref<4xf32, strided<[4], offset: ?>> to memref<4xf32>
    %row = memref.subview %src[%i, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %row, %dst : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
  }
  return
}
