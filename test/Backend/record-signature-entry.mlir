// The entry option names the model's entry function (default: main).
// RUN: mlc-opt %s --mlc-record-model-signature=entry=predict | FileCheck %s
// RUN: mlc-opt %s --mlc-record-model-signature | FileCheck %s --check-prefix=DEFAULT
// RUN: not mlc-opt %s --mlc-record-model-signature=entry=missing 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: module attributes {mlc.signature = "in i32 [3] tokens\0Aout f32 [3,2] output0\0A"}
// CHECK: func.func @main(%{{.*}}: tensor<9xf32>) -> tensor<9xf32>
// CHECK: func.func @predict(%{{.*}}: tensor<3xi32> {bufferization.writable = false, mlc.name = "tokens"})
// DEFAULT: module attributes {mlc.signature = "in f32 [9] input0\0Aout f32 [9] output0\0A"}
// DEFAULT: func.func @main(%{{.*}}: tensor<9xf32> {bufferization.writable = false}) -> tensor<9xf32>
// DEFAULT: func.func @predict(%{{.*}}: tensor<3xi32> {mlc.name = "tokens"})
// MISSING: error: model entry function 'missing' not found
func.func @main(%a: tensor<9xf32>) -> tensor<9xf32> {
  return %a : tensor<9xf32>
}
func.func @predict(%t: tensor<3xi32> {mlc.name = "tokens"}) -> tensor<3x2xf32> {
  %0 = arith.constant dense<0.0> : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
