// --graph-fuse-gelu: GELU written out as elementwise ops (ONNX before
// opset 20) becomes one graph.gelu.
// RUN: mlc-opt %s --graph-fuse-gelu --split-input-file | FileCheck %s

// torch.onnx's export of F.gelu: Div, Erf, Add, Mul(x, .), Mul(., 0.5).
// CHECK-LABEL: func.func @torch_exact
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[X]] : tensor<2x8xf32>
// CHECK-NEXT: return %[[G]]
func.func @torch_exact(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %s = graph.constant dense<1.41421354> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %h = graph.constant dense<0.5> : tensor<f32>
  %d = graph.div %x, %s : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = graph.erf %d : tensor<2x8xf32>
  %a = graph.add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = graph.mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = graph.mul %m, %h : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// Hugging Face's form: (x * 0.5) * (1 + erf(x * 0.70710678)), constants on
// the left, [1]-shaped.
// CHECK-LABEL: func.func @hf_exact
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[X]] : tensor<3x5xf32>
// CHECK-NEXT: return %[[G]]
func.func @hf_exact(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %s = graph.constant dense<0.70710678> : tensor<1xf32>
  %one = graph.constant dense<1.0> : tensor<1xf32>
  %h = graph.constant dense<0.5> : tensor<1xf32>
  %hx = graph.mul %h, %x : (tensor<1xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %d = graph.mul %s, %x : (tensor<1xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %e = graph.erf %d : tensor<3x5xf32>
  %a = graph.add %one, %e : (tensor<1xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = graph.mul %hx, %a : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// The tanh form with pow(x, 3), 0.5 multiplied last on the left.
// CHECK-LABEL: func.func @tanh_pow
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[X]] {tanh_approximation} : tensor<4xf32>
// CHECK-NEXT: return %[[G]]
func.func @tanh_pow(%x: tensor<4xf32>) -> tensor<4xf32> {
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.797884583> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %h = graph.constant dense<0.5> : tensor<f32>
  %p = graph.pow %x, %three : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %kp = graph.mul %k, %p : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %s = graph.add %x, %kp : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %z = graph.mul %s, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %t = graph.tanh %z : tensor<4xf32>
  %a = graph.add %t, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %m = graph.mul %x, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = graph.mul %h, %m : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The tanh form with x * x * x and 0.5 * (1 + tanh) multiplied first.
// CHECK-LABEL: func.func @tanh_products
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[X]] {tanh_approximation} : tensor<4xf32>
// CHECK-NEXT: return %[[G]]
func.func @tanh_products(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.797884583> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %h = graph.constant dense<0.5> : tensor<f32>
  %x2 = graph.mul %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %x3 = graph.mul %x, %x2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %kp = graph.mul %x3, %k : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %s = graph.add %kp, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %z = graph.mul %c, %s : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %t = graph.tanh %z : tensor<4xf32>
  %a = graph.add %one, %t : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %ha = graph.mul %a, %h : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = graph.mul %ha, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Left alone: a wrong constant (erf(x / 1.5)), an erf another op also
// reads, and a product whose x is broadcast to a larger result.
// CHECK-LABEL: func.func @not_gelu
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @not_gelu(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x8xf32>) {
  %bad = graph.constant dense<1.5> : tensor<f32>
  %s = graph.constant dense<1.41421354> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %h = graph.constant dense<0.5> : tensor<f32>
  %d0 = graph.div %x, %bad : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e0 = graph.erf %d0 : tensor<8xf32>
  %a0 = graph.add %e0, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %m0 = graph.mul %x, %a0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %r0 = graph.mul %m0, %h : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %d1 = graph.div %x, %s : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e1 = graph.erf %d1 : tensor<8xf32>
  %a1 = graph.add %e1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %m1 = graph.mul %x, %a1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %r1 = graph.mul %m1, %h : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %d2 = graph.div %x, %s : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e2 = graph.erf %d2 : tensor<8xf32>
  %a2 = graph.add %e2, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %m2 = graph.mul %x, %a2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %h2 = graph.constant dense<0.5> : tensor<2x8xf32>
  %r2 = graph.mul %m2, %h2 : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r0, %r1, %e1, %r2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x8xf32>
}
