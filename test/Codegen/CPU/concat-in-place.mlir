// The kernels computing a concatenation's inputs write into their slices of
// it; bufferized, no copy is left.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-concat-in-place))' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-pad-in-place,mlc-concat-in-place),one-shot-bufferize{bufferize-function-boundaries},cse,canonicalize)' | FileCheck %s --check-prefix=BUF

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Two relus concatenated along dim 1 (3 + 5 channels): each relu's init is
// its slice of the concatenation so far, and its insert follows it.
// CHECK-LABEL: func.func @two_producers
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[Y:.*]]: tensor<2x5x4xf32>)
// CHECK-NOT: tensor.empty
// CHECK: %[[W:.*]] = bufferization.alloc_tensor() : tensor<2x8x4xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[W]][0, 0, 0] [2, 3, 4] [1, 1, 1]
// CHECK: %[[R0:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[S0]] : tensor<2x3x4xf32>)
// CHECK: %[[C0:.*]] = tensor.insert_slice %[[R0]] into %[[W]][0, 0, 0] [2, 3, 4]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[C0]][0, 3, 0] [2, 5, 4] [1, 1, 1]
// CHECK: %[[R1:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<2x5x4xf32>) outs(%[[S1]] : tensor<2x5x4xf32>)
// CHECK: %[[C1:.*]] = tensor.insert_slice %[[R1]] into %[[C0]][0, 3, 0] [2, 5, 4]
// CHECK: return %[[C1]]
// BUF-LABEL: func.func @two_producers
// BUF: %[[A:.*]] = memref.alloc() {{.*}} : memref<2x8x4xf32>
// BUF: %[[V0:.*]] = memref.subview %[[A]][0, 0, 0] [2, 3, 4] [1, 1, 1]
// BUF: linalg.generic {{.*}} outs(%[[V0]] :
// BUF: %[[V1:.*]] = memref.subview %[[A]][0, 3, 0] [2, 5, 4] [1, 1, 1]
// BUF: linalg.generic {{.*}} outs(%[[V1]] :
// BUF-NOT: memref.copy
// BUF: return %[[A]]
func.func @two_producers(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x3x4xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%e0 : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4xf32>
  %e1 = tensor.empty() : tensor<2x5x4xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x5x4xf32>) outs(%e1 : tensor<2x5x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x5x4xf32>
  %c = tensor.empty() : tensor<2x8x4xf32>
  %c0 = tensor.insert_slice %r0 into %c[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> into tensor<2x8x4xf32>
  %c1 = tensor.insert_slice %r1 into %c0[0, 3, 0] [2, 5, 4] [1, 1, 1] : tensor<2x5x4xf32> into tensor<2x8x4xf32>
  return %c1 : tensor<2x8x4xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The first input is a function argument (copied), the second one is also
// returned (two uses: copied); only the third is written in place. The
// shared tensor is created before that producer, the copies come last.
// CHECK-LABEL: func.func @some_in_place
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x4xf32>
// CHECK: %[[R1:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<3x4xf32>)
// CHECK: %[[W:.*]] = bufferization.alloc_tensor() : tensor<6x4xf32>
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[W]][5, 0] [1, 4] [1, 1]
// CHECK: %[[R2:.*]] = linalg.generic {{.*}} outs(%[[S2]] : tensor<1x4xf32>)
// CHECK: %[[C0:.*]] = tensor.insert_slice %[[R2]] into %[[W]][5, 0] [1, 4]
// CHECK: %[[C1:.*]] = tensor.insert_slice %[[X]] into %[[C0]][0, 0] [2, 4]
// CHECK: %[[C2:.*]] = tensor.insert_slice %[[R1]] into %[[C1]][2, 0] [3, 4]
// CHECK: return %[[C2]], %[[R1]]
// BUF-LABEL: func.func @some_in_place
// BUF-COUNT-2: memref.copy
// BUF-NOT: memref.copy
// BUF: return
func.func @some_in_place(%x: tensor<2x4xf32>, %y: tensor<3x4xf32>, %z: tensor<1x4xf32>) -> (tensor<6x4xf32>, tensor<3x4xf32>) {
  %e1 = tensor.empty() : tensor<3x4xf32>
  %r1 = linalg.generic {indexing_maps = [#id2, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<3x4xf32>) outs(%e1 : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %e2 = tensor.empty() : tensor<1x4xf32>
  %r2 = linalg.generic {indexing_maps = [#id2, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<1x4xf32>) outs(%e2 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4xf32>
  %c = tensor.empty() : tensor<6x4xf32>
  %c0 = tensor.insert_slice %x into %c[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  %c1 = tensor.insert_slice %r1 into %c0[2, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<6x4xf32>
  %c2 = tensor.insert_slice %r2 into %c1[5, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<6x4xf32>
  return %c2, %r1 : tensor<6x4xf32>, tensor<3x4xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A padded concatenation: mlc-pad-in-place makes the concatenation's tensor
// the interior of the padded one (and moves it before the producers), and
// the producers write into their slices of that interior, so the only
// writes are the producers' and the border fills.
// BUF-LABEL: func.func @padded_concat
// BUF: %[[A:.*]] = memref.alloc() {{.*}} : memref<4x6xf32>
// BUF: %[[I:.*]] = memref.subview %[[A]][1, 1] [2, 4] [1, 1]
// BUF: %[[V0:.*]] = memref.subview %[[I]][0, 0] [2, 1] [1, 1]
// BUF: linalg.generic {{.*}} outs(%[[V0]] :
// BUF: %[[V1:.*]] = memref.subview %[[I]][0, 1] [2, 3] [1, 1]
// BUF: linalg.generic {{.*}} outs(%[[V1]] :
// BUF-NOT: memref.copy
// BUF: return %[[A]]
func.func @padded_concat(%x: tensor<2x1xf32>, %y: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x1xf32>
  %r0 = linalg.generic {indexing_maps = [#id2, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x1xf32>) outs(%e0 : tensor<2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %r1 = linalg.generic {indexing_maps = [#id2, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<2x3xf32>) outs(%e1 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2x3xf32>
  %c = tensor.empty() : tensor<2x4xf32>
  %c0 = tensor.insert_slice %r0 into %c[0, 0] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x4xf32>
  %c1 = tensor.insert_slice %r1 into %c0[0, 1] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x4xf32>
  %pe = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%pe : tensor<4x6xf32>) -> tensor<4x6xf32>
  %p = tensor.insert_slice %c1 into %f[1, 1] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x6xf32>
  return %p : tensor<4x6xf32>
}

// -----

// One insert into an empty tensor is not a concatenation: left alone.
// CHECK-LABEL: func.func @single_insert
// CHECK-NOT: alloc_tensor
// CHECK: tensor.empty
// CHECK: return
func.func @single_insert(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %c = tensor.empty() : tensor<4x3xf32>
  %c0 = tensor.insert_slice %x into %c[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x3xf32>
  return %c0 : tensor<4x3xf32>
}
