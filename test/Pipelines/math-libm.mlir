// Float functions reach LLVM as intrinsics (which the backend turns into
// libm calls: sinf, tanf, ...) or, where LLVM has no intrinsic, as direct
// calls to libm (asinhf, acoshf, atanhf). model.so links -lm.
// RUN: mlc-opt %s --mlc-cpu-pipeline | FileCheck %s --implicit-check-not=math.

// CHECK-DAG: llvm.func @asinhf(f32) -> f32
// CHECK-DAG: llvm.func @acoshf(f32) -> f32
// CHECK-DAG: llvm.func @atanhf(f32) -> f32
// CHECK-LABEL: llvm.func internal @main
// CHECK: llvm.intr.sin
// CHECK: llvm.intr.cos
// CHECK: llvm.intr.tan
// CHECK: llvm.intr.asin
// CHECK: llvm.intr.acos
// CHECK: llvm.intr.atan
// CHECK: llvm.intr.sinh
// CHECK: llvm.intr.cosh
// CHECK: llvm.call @asinhf
// CHECK: llvm.call @acoshf
// CHECK: llvm.call @atanhf
// CHECK: llvm.intr.floor
// CHECK: llvm.intr.ceil
// CHECK: llvm.intr.roundeven
func.func @main(%x: tensor<4xf32> {mlc.name = "x"}) -> (tensor<4xf32> {mlc.name = "y"}) {
  %0 = graph.sin %x : tensor<4xf32>
  %1 = graph.cos %0 : tensor<4xf32>
  %2 = graph.tan %1 : tensor<4xf32>
  %3 = graph.asin %2 : tensor<4xf32>
  %4 = graph.acos %3 : tensor<4xf32>
  %5 = graph.atan %4 : tensor<4xf32>
  %6 = graph.sinh %5 : tensor<4xf32>
  %7 = graph.cosh %6 : tensor<4xf32>
  %8 = graph.asinh %7 : tensor<4xf32>
  %9 = graph.acosh %8 : tensor<4xf32>
  %10 = graph.atanh %9 : tensor<4xf32>
  %11 = graph.floor %10 : tensor<4xf32>
  %12 = graph.ceil %11 : tensor<4xf32>
  %13 = graph.round %12 : tensor<4xf32>
  return %13 : tensor<4xf32>
}
