// Two inputs for --quantize (ptq-errors.test): a calibration sample is a
// folder holding x.npy and y.npy. Sites matmul_0 and matmul_1 (kept).
func.func @main(%x: tensor<2x8xf32> {mlc.name = "x"}, %y: tensor<2x8xf32> {mlc.name = "y"}) -> (tensor<2x4xf32> {mlc.name = "z"}) {
  %w1 = graph.constant dense<0.5> : tensor<8x4xf32>
  %w2 = graph.constant dense<-0.25> : tensor<8x4xf32>
  %0 = graph.matmul %x, %w1 : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %1 = graph.matmul %y, %w2 : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %2 = graph.add %0, %1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}
