// The sum of 1000 floats: one vectorized loop, a chain of dependent adds.
func.func @main(%x: tensor<1x1000xf32> {mlc.name = "x"})
    -> (tensor<1x1xf32> {mlc.name = "y"}) {
  %0 = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = true}
      : (tensor<1x1000xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
