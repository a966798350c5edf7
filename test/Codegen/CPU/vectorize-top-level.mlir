// mlc-vectorize-kernels{top-level-only}: what mlc-lower-fusion-groups left
// nested in other ops (kernels it vectorized already) is not touched again;
// ops directly in the function (pad borders) are vectorized.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-vectorize-kernels{vector-bits=256 top-level-only=true}))' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-vectorize-kernels{vector-bits=256}))' | FileCheck %s --check-prefix=ALL

// CHECK-LABEL: func.func @nested_left_alone
// CHECK: scf.if
// CHECK:   linalg.generic
// CHECK:     arith.negf %{{.*}} : f32
// CHECK: else
// CHECK-NOT: linalg.fill
// CHECK: vector.transfer_write %{{.*}} : vector<8xf32>, tensor<16xf32>
// CHECK-NOT: linalg.fill
// ALL-LABEL: func.func @nested_left_alone
// ALL-NOT: linalg.
// ALL: arith.negf %{{.*}} : vector<8xf32>
// ALL-NOT: linalg.
func.func @nested_left_alone(%x: tensor<16xf32>, %c: i1) -> (tensor<16xf32>, tensor<16xf32>) {
  %r = scf.if %c -> tensor<16xf32> {
    %e = tensor.empty() : tensor<16xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<16xf32>
    scf.yield %g : tensor<16xf32>
  } else {
    scf.yield %x : tensor<16xf32>
  }
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %r, %f : tensor<16xf32>, tensor<16xf32>
}

// -----

// A column sum outside any group: its accumulators are still carried in
// registers (the constants the rewrites fold to are merged and moved out
// of the loops first).
// CHECK-LABEL: func.func @column_sum
// CHECK: scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<8xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>)
#sum_in = affine_map<(d0, d1) -> (d1, d0)>
#sum_out = affine_map<(d0, d1) -> (d0)>
func.func @column_sum(%x: tensor<37x20xf32>) -> tensor<20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  %r = linalg.generic {indexing_maps = [#sum_in, #sum_out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<37x20xf32>) outs(%init : tensor<20xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<20xf32>
  return %r : tensor<20xf32>
}

// -----

// In mlc-compile's order, a pad group is lowered and vectorized with its
// fill left alone, so mlc-pad-in-place still shrinks the fill to the
// border (vectorized afterwards) and the producer writes the interior.
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vectorize=true vector-bits=256},mlc-pad-in-place,mlc-vectorize-kernels{vector-bits=256 top-level-only=true}))' | FileCheck %s --check-prefix=PAD
// PAD-LABEL: func.func @pad_group
// PAD-NOT: outs(%{{.*}} : tensor<1x6x10xf32>)
// PAD: bufferization.alloc_tensor() : tensor<1x6x10xf32>
// PAD: vector.transfer_write %{{.*}} : vector<8xf32>, tensor<1x1x8xf32>
// PAD: %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, 1, 1] [1, 4, 8] [1, 1, 1]
// PAD: scf.for {{.*}} iter_args(%{{.*}} = %[[IN]])
// PAD: arith.maximumf %{{.*}} : vector<8xf32>
// PAD-NOT: outs(%{{.*}} : tensor<1x6x10xf32>)
// PAD: return
func.func @pad_group(%x: tensor<1x4x8xf32>) -> tensor<1x6x10xf32> {
  %0 = graph.fusion_group "elementwise"(%x) : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  ^bb0(%a: tensor<1x4x8xf32>):
    %r = graph.relu %a : tensor<1x4x8xf32>
    graph.yield %r : tensor<1x4x8xf32>
  }
  %1 = graph.fusion_group "data"(%0) : (tensor<1x4x8xf32>) -> tensor<1x6x10xf32> {
  ^bb0(%a: tensor<1x4x8xf32>):
    %p = graph.pad %a {pads = array<i64: 0, 1, 1, 0, 1, 1>, value = 0.000000e+00 : f64} : (tensor<1x4x8xf32>) -> tensor<1x6x10xf32>
    graph.yield %p : tensor<1x6x10xf32>
  }
  return %1 : tensor<1x6x10xf32>
}
