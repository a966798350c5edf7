// A small float model for --quantize (ptq-errors.test): two convolutions
// and a matmul with constant weights; sites conv2d_0 (kept by default),
// conv2d_1 and matmul_2 (kept by default: the last matmul).
func.func @main(%x: tensor<1x2x6x6xf32> {mlc.name = "x"}) -> (tensor<1x3xf32> {mlc.name = "y"}) {
  %w0 = graph.constant dense<0.25> : tensor<4x2x3x3xf32>
  %w1 = graph.constant dense<[[[[0.5]], [[-0.25]], [[0.125]], [[1.0]]], [[[0.75]], [[0.5]], [[-1.0]], [[0.25]]]]> : tensor<2x4x1x1xf32>
  %w2 = graph.constant dense<0.1> : tensor<72x3xf32>
  %0 = graph.conv2d %x, %w0 {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = graph.relu %0 : tensor<1x4x6x6xf32>
  %2 = graph.conv2d %1, %w1 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x6x6xf32>
  %3 = graph.reshape %2 {shape = array<i64: 1, 72>} : (tensor<1x2x6x6xf32>) -> tensor<1x72xf32>
  %4 = graph.matmul %3, %w2 : (tensor<1x72xf32>, tensor<72x3xf32>) -> tensor<1x3xf32>
  return %4 : tensor<1x3xf32>
}
