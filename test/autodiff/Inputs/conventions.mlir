// Gradients at ties and kinks, checked exactly by conventions.py.
func.func @f(%mp: tensor<1x1x2x6xf64>, %a: tensor<4xf64>, %b: tensor<4xf64>,
             %r: tensor<2x3xf64>, %x: tensor<4xf64>, %y: tensor<4xf64>)
    -> (tensor<1x1x1x3xf64>, tensor<4xf64>, tensor<4xf64>, tensor<2xf64>,
        tensor<4xf64>, tensor<4xf64>) {
  %0 = graph.maxpool2d %mp {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x2x6xf64>) -> tensor<1x1x1x3xf64>
  %1 = graph.max %a, %b : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %2 = graph.min %a, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %3 = graph.reduce_max %r {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf64>) -> tensor<2xf64>
  %4 = graph.relu %x : tensor<4xf64>
  %5 = graph.abs %x : tensor<4xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<1x1x1x3xf64>, tensor<4xf64>, tensor<4xf64>, tensor<2xf64>, tensor<4xf64>, tensor<4xf64>
}
