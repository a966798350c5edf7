// graph-autodiff errors: an active value reaching an op without a gradient
// rule or with regions, and bad pass options.
// RUN: mlc-opt %s --graph-autodiff=wrt=0 --split-input-file -verify-diagnostics

func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : tensor<4xf32>
  // expected-error@+1 {{cannot differentiate 'graph.mod': it has no gradient rule (operand #0 depends on a differentiated argument)}}
  %1 = graph.mod %0, %y {fmod = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Only active values matter: mod of a non-differentiated argument is fine.
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<3.0> : tensor<4xf32>
  %0 = graph.mod %y, %c {fmod = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.mul %x, %0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{ops with regions are not supported (operand #0 depends on a differentiated argument; autodiff must run before fusion)}}
  %0 = graph.fusion_group "elementwise"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %1 = graph.exp %a : tensor<4xf32>
    graph.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
