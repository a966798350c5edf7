// Constant pads fill only their border, and the kernel producing the padded
// value writes the interior in place.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-pad-in-place))' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-pad-in-place),one-shot-bufferize{bufferize-function-boundaries},cse,canonicalize)' | FileCheck %s --check-prefix=BUF

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// The relu writes into the interior of the padded tensor: its init is a
// slice of a border-filled alloc_tensor; the four border slabs of H and W
// (rows 0 and 5 over the full width, columns 0 and 5 over rows 1..4) are
// filled, nothing else.
// CHECK-LABEL: func.func @producer_in_place
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x4xf32>)
// CHECK-NOT: tensor.empty
// CHECK: %[[A:.*]] = bufferization.alloc_tensor() : tensor<2x6x6xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[A]][0, 0, 0] [2, 1, 6] [1, 1, 1]
// CHECK: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S0]] : tensor<2x1x6xf32>)
// CHECK: %[[B0:.*]] = tensor.insert_slice %[[F0]] into %[[A]][0, 0, 0] [2, 1, 6]
// CHECK: tensor.extract_slice %[[B0]][0, 5, 0] [2, 1, 6]
// CHECK: %[[B1:.*]] = tensor.insert_slice %{{.*}}[0, 5, 0] [2, 1, 6]
// CHECK: tensor.extract_slice %[[B1]][0, 1, 0] [2, 4, 1]
// CHECK: %[[B2:.*]] = tensor.insert_slice %{{.*}}[0, 1, 0] [2, 4, 1]
// CHECK: tensor.extract_slice %[[B2]][0, 1, 5] [2, 4, 1]
// CHECK: %[[B3:.*]] = tensor.insert_slice %{{.*}}[0, 1, 5] [2, 4, 1]
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[B3]][0, 1, 1] [2, 4, 4] [1, 1, 1]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x4x4xf32>) outs(%[[IN]] : tensor<2x4x4xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %[[R]] into %[[B3]][0, 1, 1] [2, 4, 4] [1, 1, 1]
// CHECK-NOT: linalg.fill
// CHECK: return %[[P]]
// Bufferized, the relu stores into the padded buffer and no copy is left.
// BUF-LABEL: func.func @producer_in_place
// BUF: %[[A:.*]] = memref.alloc() {{.*}} : memref<2x6x6xf32>
// BUF: %[[IN:.*]] = memref.subview %[[A]][0, 1, 1] [2, 4, 4] [1, 1, 1]
// BUF: linalg.generic {{.*}} outs(%[[IN]] :
// BUF-NOT: memref.copy
// BUF: return %[[A]]
func.func @producer_in_place(%x: tensor<2x4x4xf32>) -> tensor<2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x4xf32>
  %pe = tensor.empty() : tensor<2x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%pe : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %p = tensor.insert_slice %r into %f[0, 1, 1] [2, 4, 4] [1, 1, 1] : tensor<2x4x4xf32> into tensor<2x6x6xf32>
  return %p : tensor<2x6x6xf32>
}

// -----

// A function argument cannot be written in place: it is still copied in,
// but only the border is filled. An asymmetric pad (none before, two after
// along dim 0; -inf, as max pooling pads) has one slab per padded side.
// CHECK-LABEL: func.func @argument_border_only
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[A:.*]] = bufferization.alloc_tensor() : tensor<5x4xf32>
// CHECK: tensor.extract_slice %[[A]][3, 0] [2, 4] [1, 1]
// CHECK: linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[B0:.*]] = tensor.insert_slice %{{.*}} into %[[A]][3, 0] [2, 4]
// CHECK: tensor.extract_slice %[[B0]][0, 3] [3, 1] [1, 1]
// CHECK: %[[B1:.*]] = tensor.insert_slice %{{.*}} into %[[B0]][0, 3] [3, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[B1]][0, 0] [3, 3] [1, 1]
// CHECK-NOT: linalg.fill
// CHECK: return
// BUF-LABEL: func.func @argument_border_only
// BUF: memref.copy %arg0, %{{.*}} : memref<3x3xf32{{.*}}> to memref<3x3xf32, strided<[4, 1]>>
func.func @argument_border_only(%x: tensor<3x3xf32>) -> tensor<5x4xf32> {
  %neg = arith.constant 0xFF800000 : f32
  %pe = tensor.empty() : tensor<5x4xf32>
  %f = linalg.fill ins(%neg : f32) outs(%pe : tensor<5x4xf32>) -> tensor<5x4xf32>
  %p = tensor.insert_slice %x into %f[0, 0] [3, 3] [1, 1] : tensor<3x3xf32> into tensor<5x4xf32>
  return %p : tensor<5x4xf32>
}

// -----

// The producer's result has a second user: it keeps its own buffer (its
// init stays tensor.empty) and is copied; the border fill still applies.
// CHECK-LABEL: func.func @shared_source
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<4xf32>)
// CHECK: bufferization.alloc_tensor() : tensor<6xf32>
// CHECK: tensor.insert_slice %[[R]] into %{{.*}}[1] [4] [1]
// CHECK: return
func.func @shared_source(%x: tensor<4xf32>) -> (tensor<6xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %pe = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%pe : tensor<6xf32>) -> tensor<6xf32>
  %p = tensor.insert_slice %r into %f[1] [4] [1] : tensor<4xf32> into tensor<6xf32>
  return %p, %r : tensor<6xf32>, tensor<4xf32>
}

// -----

// A parallel kernel (scf.forall) whose shared output comes from a
// destination-style op (a bias broadcast) that starts from tensor.empty:
// the chain is followed to the empty, which becomes the interior slice.
// Two pads of one shape stay two tensors (alloc_tensor is not CSE'd).
// CHECK-LABEL: func.func @forall_chain
// CHECK: %[[A:.*]] = bufferization.alloc_tensor() : tensor<8x10xf32>
// CHECK: %[[IN:.*]] = tensor.extract_slice %{{.*}}[1, 1] [6, 8] [1, 1]
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[IN]] : tensor<6x8xf32>)
// CHECK: scf.forall {{.*}} shared_outs(%{{.*}} = %[[BIAS]])
// CHECK: bufferization.alloc_tensor() : tensor<8x10xf32>
// CHECK-NOT: tensor.empty
// CHECK: return
// BUF-LABEL: func.func @forall_chain
// BUF: memref.alloc() {{.*}} : memref<8x10xf32>
// BUF-NOT: memref.copy
// BUF: scf.forall
// BUF-NOT: memref.copy
// BUF: memref.alloc() {{.*}} : memref<8x10xf32>
// BUF: memref.copy %arg0
// BUF: return
func.func @forall_chain(%x: tensor<6x8xf32>, %b: tensor<8xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8xf32>) outs(%e : tensor<6x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<6x8xf32>
  %r = scf.forall (%i) in (6) shared_outs(%o = %bias) -> (tensor<6x8xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 8] [1, 1] : tensor<6x8xf32> to tensor<1x8xf32>
    %acc = tensor.extract_slice %o[%i, 0] [1, 8] [1, 1] : tensor<6x8xf32> to tensor<1x8xf32>
    %s = linalg.add ins(%row, %acc : tensor<1x8xf32>, tensor<1x8xf32>) outs(%acc : tensor<1x8xf32>) -> tensor<1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<6x8xf32>
    }
  }
  %pe = tensor.empty() : tensor<8x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x10xf32>) -> tensor<8x10xf32>
  %p = tensor.insert_slice %r into %f[1, 1] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x10xf32>
  %pe2 = tensor.empty() : tensor<8x10xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%pe2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %p2 = tensor.insert_slice %x into %f2[1, 1] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<8x10xf32>
  return %p, %p2 : tensor<8x10xf32>, tensor<8x10xf32>
}

// -----

// Not pads this pass rewrites: a strided insert and a fill of a
// non-constant value stay as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: alloc_tensor
// CHECK: linalg.fill
// CHECK: tensor.insert_slice %{{.*}}[0] [3] [2]
// CHECK: linalg.fill ins(%{{.*}} : f32)
// CHECK: tensor.insert_slice %{{.*}}[1] [3] [1]
func.func @left_alone(%x: tensor<3xf32>, %v: f32) -> (tensor<6xf32>, tensor<5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %p = tensor.insert_slice %x into %f[0] [3] [2] : tensor<3xf32> into tensor<6xf32>
  %e2 = tensor.empty() : tensor<5xf32>
  %f2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<5xf32>) -> tensor<5xf32>
  %p2 = tensor.insert_slice %x into %f2[1] [3] [1] : tensor<3xf32> into tensor<5xf32>
  return %p, %p2 : tensor<6xf32>, tensor<5xf32>
}
