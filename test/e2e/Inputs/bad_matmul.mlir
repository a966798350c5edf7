func.func @main(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = graph.matmul %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
