// --mlc-instrument-kernels brackets each kernel of the entry function (each
// top-level fusion group, and each graph op outside a group that needs a
// loop nest) with calls to mlc_profile_begin/end(k), and records the kernel
// table "<flops> <ops> <name>\n" per kernel as the module's mlc.kernels.
// RUN: mlc-opt %s --split-input-file --mlc-instrument-kernels -verify-diagnostics | FileCheck %s

// Names come from the importers' locations: model.json ("nodes[0] (matmul
// 'fc1')" -> fc1; an unnamed node, "nodes[2] (relu)", only names a kernel
// without named nodes) and ONNX ("node '/fc2/Gemm' (Gemm)" -> /fc2/Gemm,
// once for its matmul and add). FLOPs: 2*784*200 +
// 200 + 200, 2*200*10 + 10, 0 for a transpose, 5*10 for a softmax.
// Constants and reshapes (views) are not kernels.
// CHECK-LABEL: module attributes {mlc.kernels = "314000 matmul+add+relu fc1+fc1.bias\0A4010 matmul+add /fc2/Gemm\0A0 transpose t\0A50 softmax kernel3\0A"}
// CHECK:      func.func @main
// CHECK-NEXT: graph.constant
// CHECK-NEXT: %[[B0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: call @mlc_profile_begin(%[[B0]]) : (i32) -> ()
// CHECK-NEXT: %[[G0:.*]] = graph.fusion_group "contraction"
// CHECK:      graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[E0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: call @mlc_profile_end(%[[E0]]) : (i32) -> ()
// CHECK-NEXT: %[[B1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: call @mlc_profile_begin(%[[B1]]) : (i32) -> ()
// CHECK-NEXT: graph.fusion_group "contraction"(%[[G0]]
// CHECK:      graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[E1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: call @mlc_profile_end(%[[E1]]) : (i32) -> ()
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: %[[B2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: call @mlc_profile_begin(%[[B2]]) : (i32) -> ()
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: %[[E2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: call @mlc_profile_end(%[[E2]]) : (i32) -> ()
// CHECK-NEXT: %[[B3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: call @mlc_profile_begin(%[[B3]]) : (i32) -> ()
// CHECK-NEXT: graph.fusion_group "reduction"
// CHECK:      graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[E3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: call @mlc_profile_end(%[[E3]]) : (i32) -> ()
// CHECK-NEXT: return
// CHECK:      func.func private @mlc_profile_begin(i32)
// CHECK:      func.func private @mlc_profile_end(i32)
func.func @main(%x: tensor<1x784xf32>) -> (tensor<10x1xf32>, tensor<1x10xf32>) {
  %w1 = graph.constant dense<0.5> : tensor<784x200xf32>
  %0 = graph.fusion_group "contraction"(%x, %w1) : (tensor<1x784xf32>, tensor<784x200xf32>) -> tensor<1x200xf32> {
  ^bb0(%a: tensor<1x784xf32>, %w: tensor<784x200xf32>):
    %b = graph.constant dense<0.1> : tensor<200xf32>
    %1 = graph.matmul %a, %w : (tensor<1x784xf32>, tensor<784x200xf32>) -> tensor<1x200xf32> loc("nodes[0] (matmul 'fc1')"("model.json":0:0))
    %2 = graph.add %1, %b : (tensor<1x200xf32>, tensor<200xf32>) -> tensor<1x200xf32> loc("nodes[1] (add 'fc1.bias')"("model.json":0:0))
    %3 = graph.relu %2 : tensor<1x200xf32> loc("nodes[2] (relu)"("model.json":0:0))
    graph.yield %3 : tensor<1x200xf32>
  }
  %4 = graph.fusion_group "contraction"(%0) : (tensor<1x200xf32>) -> tensor<1x10xf32> {
  ^bb0(%a: tensor<1x200xf32>):
    %w = graph.constant dense<0.5> : tensor<200x10xf32>
    %b = graph.constant dense<0.1> : tensor<10xf32>
    %5 = graph.matmul %a, %w : (tensor<1x200xf32>, tensor<200x10xf32>) -> tensor<1x10xf32> loc("node '/fc2/Gemm' (Gemm)"("m.onnx":0:0))
    %6 = graph.add %5, %b : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32> loc("node '/fc2/Gemm' (Gemm)"("m.onnx":0:0))
    graph.yield %6 : tensor<1x10xf32>
  }
  %7 = graph.reshape %4 {shape = array<i64: 1, 10>} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  // A node name wins over a file location in a fused location.
  %8 = graph.transpose %7 {perm = array<i64: 1, 0>} : (tensor<1x10xf32>) -> tensor<10x1xf32> loc(fused["a.mlir":3:4, "nodes[5] (transpose 't')"])
  // Nothing to name the kernel after: its index.
  %9 = graph.fusion_group "reduction"(%4) : (tensor<1x10xf32>) -> tensor<1x10xf32> {
  ^bb0(%a: tensor<1x10xf32> loc(unknown)):
    %10 = graph.softmax %a {axis = 1 : i64} : tensor<1x10xf32> loc(unknown)
    graph.yield %10 : tensor<1x10xf32> loc(unknown)
  } loc(unknown)
  return %8, %9 : tensor<10x1xf32>, tensor<1x10xf32>
}

// -----

// Only the entry is instrumented. A plain .mlir location names the kernel
// by file and line; long name lists keep the leading names that fit in
// about 60 characters and count the rest.
// CHECK-LABEL: module attributes {mlc.kernels = "2 neg instrument-kernels.mlir:{{[0-9]+}}\0A16 mul+add+sub+mul+add+sub+mul+add layer1/block0/conv_a_long_name+7 more\0A"}
// CHECK:      func.func @helper
// CHECK-NOT:  call
// CHECK:      func.func @main
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: call @mlc_profile_begin
// CHECK-NEXT: graph.neg
func.func @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.neg %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.neg %x : tensor<2xf32>
  %1 = graph.fusion_group "elementwise"(%0) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %2 = graph.mul %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_a_long_name")
    %3 = graph.add %2, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_b_long_name")
    %4 = graph.sub %3, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_c_long_name")
    %5 = graph.mul %4, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_d_long_name")
    %6 = graph.add %5, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_e_long_name")
    %7 = graph.sub %6, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_f_long_name")
    %8 = graph.mul %7, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_g_long_name")
    %9 = graph.add %8, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("layer1/block0/conv_h_long_name")
    graph.yield %9 : tensor<2xf32>
  }
  return %1 : tensor<2xf32>
}

// -----

// An unnamed model.json node names a kernel by its path when no node of
// the kernel has a name.
// CHECK-LABEL: module attributes {mlc.kernels = "6 relu nodes[7]\0A"}
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.relu %x : tensor<2x3xf32> loc("nodes[7] (relu)"("model.json":0:0))
  return %0 : tensor<2x3xf32>
}

// -----

// A model without kernels has an empty table.
// CHECK-LABEL: module attributes {mlc.kernels = ""}
// CHECK-NOT:  call
func.func @main(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = graph.reshape %x {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// expected-error @+1 {{model entry function 'main' not found}}
module {
  func.func @predict(%a: tensor<2xf32>) -> tensor<2xf32> {
    return %a : tensor<2xf32>
  }
}

// -----

// expected-error @+1 {{the module is already instrumented (mlc.kernels is set)}}
module attributes {mlc.kernels = ""} {
  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
    return %a : tensor<2xf32>
  }
}

// -----

// expected-error @+1 {{symbol 'mlc_profile_begin' exists with another type}}
module {
  func.func private @mlc_profile_begin(i64)
  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
    return %a : tensor<2xf32>
  }
}

