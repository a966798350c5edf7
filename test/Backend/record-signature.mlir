// --mlc-record-model-signature stores one line per entry-function argument
// ("in") and result ("out"): "<kind> <dtype> [<dims>] <name>\n", with names
// from mlc.name attributes or input<i>/output<i>, and i1 spelled "bool".
// It also marks the entry's inputs bufferization.writable = false (they are
// the caller's buffers), and gives zero-size inputs and outputs the type
// tensor<0xT>.
// RUN: mlc-opt %s --split-input-file --mlc-record-model-signature -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module attributes
// CHECK-SAME: {mlc.signature = "in f32 [2,3] input0\0Ain i64 [4] ids\0Ain bool [] input2\0Ain i32 [1,2] input3\0Ain f64 [3] input4\0Aout f32 [2,3] logits\0Aout bool [] output1\0A"}
// CHECK: func.func @main(%{{.*}}: tensor<2x3xf32> {bufferization.writable = false}, %{{.*}}: tensor<4xi64> {bufferization.writable = false, mlc.name = "ids"}, %{{.*}}: tensor<i1> {bufferization.writable = false}, %{{.*}}: tensor<1x2xi32> {bufferization.writable = false}, %{{.*}}: tensor<3xf64> {bufferization.writable = false}) -> (tensor<2x3xf32> {mlc.name = "logits"}, tensor<i1>)
func.func @main(%a: tensor<2x3xf32>, %b: tensor<4xi64> {mlc.name = "ids"}, %c: tensor<i1>, %d: tensor<1x2xi32>, %e: tensor<3xf64>) -> (tensor<2x3xf32> {mlc.name = "logits"}, tensor<i1>) {
  return %a, %c : tensor<2x3xf32>, tensor<i1>
}

// -----

// Only the entry function counts; a model without inputs is fine.
// CHECK-LABEL: module attributes
// CHECK-SAME: {mlc.signature = "out f32 [4] output0\0A"}
// CHECK: func.func @helper(%{{.*}}: tensor<7xi32>) -> tensor<7xi32>
// CHECK: func.func @main() -> tensor<4xf32>
func.func @helper(%a: tensor<7xi32>) -> tensor<7xi32> {
  return %a : tensor<7xi32>
}
func.func @main() -> tensor<4xf32> {
  %0 = arith.constant dense<1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{model entry function 'main' not found}}
module {
  func.func @predict(%a: tensor<2xf32>) -> tensor<2xf32> {
    return %a : tensor<2xf32>
  }
}

// -----

// expected-error @+1 {{entry function in type 'i32' is not a statically shaped tensor of f32, f64, f16, bf16, i64, i32, i16, i8, ui8, ui16, ui32, ui64 or i1}}
func.func @main(%a: i32) -> i32 {
  return %a : i32
}

// -----

// expected-error @+1 {{entry function in type 'tensor<?x4xf32>' is not a statically shaped tensor of f32, f64, f16, bf16, i64, i32, i16, i8, ui8, ui16, ui32, ui64 or i1}}
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{entry function in type 'tensor<2xsi16>' is not a statically shaped tensor of f32, f64, f16, bf16, i64, i32, i16, i8, ui8, ui16, ui32, ui64 or i1}}
func.func @main(%a: tensor<2xsi16>) {
  return
}

// -----

// CHECK-LABEL: module attributes
// CHECK-SAME: {mlc.signature = "in f16 [2] h\0Ain bf16 [1,2] b\0Ain i8 [3] c\0Ain i16 [] s\0Ain u8 [2] u\0Ain u16 [1] u16\0Ain u32 [1] u32\0Ain u64 [1] u64\0Aout bf16 [1,2] output0\0Aout u8 [2] output1\0Aout u64 [1] output2\0A"}
func.func @main(%h: tensor<2xf16> {mlc.name = "h"}, %b: tensor<1x2xbf16> {mlc.name = "b"}, %c: tensor<3xi8> {mlc.name = "c"}, %s: tensor<i16> {mlc.name = "s"}, %u: tensor<2xui8> {mlc.name = "u"}, %u16: tensor<1xui16> {mlc.name = "u16"}, %u32: tensor<1xui32> {mlc.name = "u32"}, %u64: tensor<1xui64> {mlc.name = "u64"}) -> (tensor<1x2xbf16>, tensor<2xui8>, tensor<1xui64>) {
  return %b, %u, %u64 : tensor<1x2xbf16>, tensor<2xui8>, tensor<1xui64>
}

// -----

// expected-error @+1 {{entry function in type 'memref<2xf32>' is not a statically shaped tensor of f32, f64, f16, bf16, i64, i32, i16, i8, ui8, ui16, ui32, ui64 or i1}}
func.func @main(%a: memref<2xf32>) {
  return
}

// -----

// expected-error @+1 {{entry function out type 'tensor<*xf32>' is not a statically shaped tensor of f32, f64, f16, bf16, i64, i32, i16, i8, ui8, ui16, ui32, ui64 or i1}}
func.func @main(%a: tensor<2xf32>) -> tensor<*xf32> {
  %0 = tensor.cast %a : tensor<2xf32> to tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// expected-error @+1 {{in name must be non-empty and have no newline}}
func.func @main(%a: tensor<2xf32> {mlc.name = ""}) {
  return
}

// -----

// expected-error @+1 {{out name must be non-empty and have no newline}}
func.func @main(%a: tensor<2xf32>) -> (tensor<2xf32> {mlc.name = "two\nlines"}) {
  return %a : tensor<2xf32>
}

// -----

// Trainable models: mlc.kind gives the line kind of variables (param,
// buffer, state) and of their updates.
// CHECK-LABEL: module attributes
// CHECK-SAME: {mlc.signature = "param f32 [3] w\0Abuffer f32 [3] mean\0Astate f32 [] adam.step\0Ain f32 [2,3] x\0Aout f32 [] loss\0Aupdate f32 [3] w\0Aupdate f32 [3] mean\0Aupdate f32 [] adam.step\0A"}
func.func @main(%w: tensor<3xf32> {mlc.name = "w", mlc.kind = "param"}, %m: tensor<3xf32> {mlc.name = "mean", mlc.kind = "buffer"}, %s: tensor<f32> {mlc.name = "adam.step", mlc.kind = "state"}, %x: tensor<2x3xf32> {mlc.name = "x", mlc.kind = "in"}) -> (tensor<f32> {mlc.name = "loss"}, tensor<3xf32> {mlc.name = "w", mlc.kind = "update"}, tensor<3xf32> {mlc.name = "mean", mlc.kind = "update"}, tensor<f32> {mlc.name = "adam.step", mlc.kind = "update"}) {
  return %s, %w, %m, %s : tensor<f32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>
}

// -----

// expected-error @+1 {{unknown mlc.kind 'weight'}}
func.func @main(%w: tensor<3xf32> {mlc.kind = "weight"}) {
  return
}

// -----

// expected-error @+1 {{unknown mlc.kind 'param'}}
func.func @main() -> (tensor<f32> {mlc.kind = "param"}) {
  %0 = arith.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Zero-size inputs and outputs keep their shapes in the signature; the
// function takes and returns tensor<0xT> (its pointers are never used), a
// read of such an input becomes a tensor.empty of its type.
// CHECK-LABEL: module attributes
// CHECK-SAME: {mlc.signature = "in f32 [3,0,5] x\0Ain i64 [2] k\0Aout f32 [3,0,5] y\0Aout i64 [2] z\0A"}
// CHECK: func.func @main(%[[X:.*]]: tensor<0xf32> {{.*}}, %[[K:.*]]: tensor<2xi64> {{.*}}) -> (tensor<0xf32> {mlc.name = "y"}, tensor<2xi64> {mlc.name = "z"})
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x0x5xf32>
// CHECK: graph.relu %[[E]]
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: return %[[OUT]], %[[K]] : tensor<0xf32>, tensor<2xi64>
func.func @main(%x: tensor<3x0x5xf32> {mlc.name = "x"}, %k: tensor<2xi64> {mlc.name = "k"}) -> (tensor<3x0x5xf32> {mlc.name = "y"}, tensor<2xi64> {mlc.name = "z"}) {
  %0 = graph.relu %x : tensor<3x0x5xf32>
  return %0, %k : tensor<3x0x5xf32>, tensor<2xi64>
}
