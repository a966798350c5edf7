// y = relu(x): a model small enough to be compiled in one part.
func.func @main(%x: tensor<2x8xf32> {mlc.name = "x"})
    -> (tensor<2x8xf32> {mlc.name = "y"}) {
  %0 = graph.relu %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
