// The entry option names the function to instrument (default: main); only
// that function gets brackets (a trainable model lowers each of its entries
// in a module of its own, each with its own table).
// RUN: mlc-opt %s --mlc-instrument-kernels=entry=predict | FileCheck %s
// RUN: mlc-opt %s --mlc-instrument-kernels | FileCheck %s --check-prefix=DEFAULT

// CHECK: module attributes {mlc.kernels = "3 relu predict.relu\0A"}
// CHECK:      func.func @main
// CHECK-NEXT: graph.neg
// CHECK:      func.func @predict
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: call @mlc_profile_begin
// CHECK-NEXT: graph.relu
// DEFAULT: module attributes {mlc.kernels = "9 neg main.neg\0A"}
// DEFAULT:      func.func @predict
// DEFAULT-NEXT: graph.relu
func.func @main(%a: tensor<9xf32>) -> tensor<9xf32> {
  %0 = graph.neg %a : tensor<9xf32> loc("main.neg")
  return %0 : tensor<9xf32>
}
func.func @predict(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.relu %a : tensor<3xf32> loc("predict.relu")
  return %0 : tensor<3xf32>
}
