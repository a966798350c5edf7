// Tensor names that are not C identifiers, that collide once made ones
// (also ignoring case), keywords, and the C types of other dtypes.
func.func @main(%a: tensor<2x3xf32> {mlc.name = "input:0"},
                %b: tensor<2x3xf32> {mlc.name = "int"},
                %c: tensor<4xi64> {mlc.name = "x"},
                %d: tensor<4xi64> {mlc.name = "X"},
                %e: tensor<f64> {mlc.name = "1st */"},
                %f: tensor<2xi8> {mlc.name = "workspace"})
    -> (tensor<2x3xf32> {mlc.name = "input_0"},
        tensor<4xi64> {mlc.name = "x.y"},
        tensor<f64> {mlc.name = "x_y"},
        tensor<2xi8> {mlc.name = "q"}) {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %c, %d : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %2 = graph.add %e, %e : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %3 = graph.add %f, %f : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<4xi64>, tensor<f64>, tensor<2xi8>
}
