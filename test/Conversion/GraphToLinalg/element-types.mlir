// Lowering of f64, f16, bf16, i16 and i8 graph ops. The linalg bodies are
// type generic; f16/bf16 math is moved to f32 later, in the LLVM pipeline
// (LLVM prefix): math and arithmetic extend to f32, compute and round back,
// bf16 conversions become integer ops, and f64 math calls the double libm
// functions.
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @main
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: math.exp %[[X]] : f64
// CHECK: ^bb0(%[[Y:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: math.erf %[[Y]] : f64
// CHECK: arith.constant 0xFFF0000000000000 : f64
// CHECK: ^bb0(%[[IN:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK-NEXT: arith.maximumf %[[ACC]], %[[IN]] : f64
// LLVM-LABEL: llvm.func internal @main
// LLVM: llvm.intr.exp(%{{.*}}) : (f64) -> f64
// LLVM: llvm.call @erf(%{{.*}}) : (f64) -> f64
// LLVM-NOT: expf
// LLVM-NOT: erff
func.func @main(%d: tensor<4xf64> {mlc.name = "d"}) -> (tensor<4xf64>, tensor<4xf64>, tensor<f64>) {
  %0 = graph.exp %d : tensor<4xf64>
  %1 = graph.erf %d : tensor<4xf64>
  %2 = graph.reduce_max %d {axes = array<i64: 0>, keepdims = false} : (tensor<4xf64>) -> tensor<f64>
  return %0, %1, %2 : tensor<4xf64>, tensor<4xf64>, tensor<f64>
}

// -----

// CHECK-LABEL: func.func @main
// CHECK: ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: math.exp %[[X]] : f16
// CHECK: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: arith.addf %[[A]], %[[B]] : f16
// LLVM-LABEL: llvm.func internal @main
// exp runs in f32, as mlc-approximate-math's inline polynomial (no call).
// LLVM: %[[E:.*]] = llvm.fpext %{{.*}} : f16 to f32
// LLVM-NOT: llvm.intr.exp
// LLVM-NOT: llvm.call
// LLVM: llvm.fptrunc %{{.*}} : f32 to f16
// LLVM: llvm.fpext %{{.*}} : f16 to f32
// LLVM: llvm.fadd %{{.*}} : f32
// LLVM: llvm.fptrunc %{{.*}} : f32 to f16
// LLVM-NOT: llvm.fadd {{.*}} : f16
func.func @main(%h: tensor<4xf16> {mlc.name = "h"}) -> (tensor<4xf16>, tensor<4xf16>) {
  %0 = graph.exp %h : tensor<4xf16>
  %1 = graph.add %0, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0, %1 : tensor<4xf16>, tensor<4xf16>
}

// -----

// f64 -> bf16 rounds to odd in f32, then to nearest even in bf16: one
// correct rounding, and no __truncsfbf2/__truncdfbf2 helper calls.
// CHECK-LABEL: func.func @main
// CHECK: ^bb0(%[[X:.*]]: f64, %{{.*}}: bf16):
// CHECK: %[[T:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK: arith.bitcast %[[T]] : f32 to i32
// CHECK: arith.ori
// CHECK: %[[ODD:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.truncf %[[ODD]] : f32 to bf16
// CHECK: ^bb0(%[[I:.*]]: i8, %{{.*}}: f16):
// CHECK: %[[W:.*]] = arith.sitofp %[[I]] : i8 to f64
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: ^bb0(%[[B:.*]]: bf16, %{{.*}}: i16):
// CHECK: %[[E:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK: %[[I32:.*]] = arith.fptosi %[[E]] : f32 to i32
// CHECK-NEXT: arith.trunci %[[I32]] : i32 to i16
// LLVM-LABEL: llvm.func internal @main
// LLVM-NOT: llvm.fptrunc {{.*}} to bf16
// LLVM-NOT: llvm.fpext {{.*}} : bf16
// LLVM-NOT: trunc{{.*}}bf2
func.func @main(%d: tensor<4xf64> {mlc.name = "d"}, %i: tensor<4xi8> {mlc.name = "i"}) -> (tensor<4xbf16>, tensor<4xf16>, tensor<4xi16>) {
  %0 = graph.cast %d {to = bf16} : (tensor<4xf64>) -> tensor<4xbf16>
  %1 = graph.cast %i {to = f16} : (tensor<4xi8>) -> tensor<4xf16>
  %2 = graph.cast %0 {to = i16} : (tensor<4xbf16>) -> tensor<4xi16>
  return %0, %1, %2 : tensor<4xbf16>, tensor<4xf16>, tensor<4xi16>
}

// -----

// Integer identities and pad values take the element type's width.
// CHECK-LABEL: func.func @main
// CHECK: arith.constant -128 : i8
// CHECK: arith.maxsi
// CHECK: arith.constant -5 : i16
// CHECK: linalg.fill
// CHECK: tensor.insert_slice
func.func @main(%a: tensor<2x3xi8> {mlc.name = "a"}, %b: tensor<3xi16> {mlc.name = "b"}) -> (tensor<2xi8>, tensor<5xi16>) {
  %0 = graph.reduce_max %a {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xi8>) -> tensor<2xi8>
  %1 = graph.pad %b {pads = array<i64: 1, 1>, value = -5.0 : f64} : (tensor<3xi16>) -> tensor<5xi16>
  return %0, %1 : tensor<2xi8>, tensor<5xi16>
}

// -----

// Unsigned integers: the bodies compute on the signless view with unsigned
// arithmetic (division and remainder by 0 give 0; shifts by the bit width
// or more give 0), and the function's types become signless.
// CHECK-LABEL: func.func @main
// CHECK-SAME: tensor<4xi32> {mlc.name = "a"}
// CHECK: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[B]]
// CHECK: %[[D:.*]] = arith.select %[[Z]], %{{.*}}, %[[B]]
// CHECK: %[[Q:.*]] = arith.divui %[[A]], %[[D]] : i32
// CHECK: arith.select %[[Z]], %{{.*}}, %[[Q]]
// CHECK: arith.remui
// CHECK: arith.maxui
// CHECK: arith.minui
// CHECK: arith.cmpi ult
// CHECK: %[[SHL:.*]] = arith.shli
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c32_i32
// CHECK: arith.select %[[IN]], %[[SHL]], %c0_i32
// CHECK: arith.shrui
// CHECK: arith.uitofp %{{.*}} : i32 to f32
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK-NEXT: arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.fptoui %{{.*}} : f32 to i64
// CHECK: arith.extui %{{.*}} : i16 to i64
// CHECK: arith.uitofp %{{.*}} : i64 to f64
// CHECK-NOT: ui32
// LLVM-LABEL: llvm.func internal @main({{.*}}mlc.name = "l"
// LLVM: llvm.udiv
// LLVM: llvm.urem
func.func @main(%a: tensor<4xui32> {mlc.name = "a"}, %b: tensor<4xui32> {mlc.name = "b"}, %f: tensor<4xf32> {mlc.name = "f"}, %h: tensor<4xui16> {mlc.name = "h"}, %l: tensor<4xui64> {mlc.name = "l"}) -> (tensor<4xui32>, tensor<4xui32>, tensor<4xui32>, tensor<4xui32>, tensor<4xi1>, tensor<4xui32>, tensor<4xui32>, tensor<4xf32>, tensor<4xui32>, tensor<4xui64>, tensor<4xui64>, tensor<4xf64>) {
  %0 = graph.div %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %1 = graph.mod %a, %b {fmod = false} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %2 = graph.max %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %3 = graph.min %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %4 = graph.compare lt, %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %5 = graph.shift_left %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %6 = graph.shift_right %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %7 = graph.cast %a {to = f32} : (tensor<4xui32>) -> tensor<4xf32>
  %8 = graph.cast %f {to = ui32} : (tensor<4xf32>) -> tensor<4xui32>
  %9 = graph.cast %f {to = ui64} : (tensor<4xf32>) -> tensor<4xui64>
  %10 = graph.cast %h {to = ui64} : (tensor<4xui16>) -> tensor<4xui64>
  %11 = graph.cast %l {to = f64} : (tensor<4xui64>) -> tensor<4xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<4xui32>, tensor<4xui32>, tensor<4xui32>, tensor<4xui32>, tensor<4xi1>, tensor<4xui32>, tensor<4xui32>, tensor<4xf32>, tensor<4xui32>, tensor<4xui64>, tensor<4xui64>, tensor<4xf64>
}

// -----

// Signed right shifts are arithmetic; amounts of the bit width or more
// shift by width - 1 (the sign fills the result).
// CHECK-LABEL: func.func @main
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[Y:.*]], %c8_i8
// CHECK: %[[AMT:.*]] = arith.select %[[IN]], %[[Y]], %c7_i8
// CHECK: arith.shrsi %{{.*}}, %[[AMT]] : i8
// LLVM-LABEL: llvm.func internal @main({{.*}}mlc.name = "shifted"
// LLVM: llvm.ashr
func.func @main(%a: tensor<4xi8> {mlc.name = "shifted"}, %b: tensor<4xi8> {mlc.name = "amount"}) -> tensor<4xi8> {
  %0 = graph.shift_right %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
