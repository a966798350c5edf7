// Quantize and dequantize, int8 and uint8, per-tensor and per-axis (axis 1
// of [4, 3, 5]), and casts to and from ui8 (quantize.test).
func.func @main(%x: tensor<4x3x5xf32> {mlc.name = "x"},
                %u: tensor<4x3x5xui8> {mlc.name = "u"},
                %s: tensor<4x3x5xi8> {mlc.name = "s"},
                %qs: tensor<1x3x1xf32> {mlc.name = "qs"},
                %zu: tensor<1x3x1xui8> {mlc.name = "zu"},
                %zs: tensor<1x3x1xi8> {mlc.name = "zs"})
    -> (tensor<4x3x5xui8> {mlc.name = "q_u8_tensor"},
        tensor<4x3x5xi8> {mlc.name = "q_i8_tensor"},
        tensor<4x3x5xui8> {mlc.name = "q_u8_axis"},
        tensor<4x3x5xi8> {mlc.name = "q_i8_axis"},
        tensor<4x3x5xf32> {mlc.name = "dq_u8_axis"},
        tensor<4x3x5xf32> {mlc.name = "dq_i8_axis"},
        tensor<4x3x5xf32> {mlc.name = "dq_u8_tensor"},
        tensor<4x3x5xf32> {mlc.name = "u8_to_f32"},
        tensor<4x3x5xi32> {mlc.name = "u8_to_i32"},
        tensor<4x3x5xui8> {mlc.name = "i8_to_u8"}) {
  %scale = graph.constant dense<0.5> : tensor<f32>
  %z_u8 = graph.constant dense<128> : tensor<ui8>
  %z_i8 = graph.constant dense<-1> : tensor<i8>
  %0 = graph.quantize %x, %scale, %z_u8 : (tensor<4x3x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x3x5xui8>
  %1 = graph.quantize %x, %scale, %z_i8 : (tensor<4x3x5xf32>, tensor<f32>, tensor<i8>) -> tensor<4x3x5xi8>
  %2 = graph.quantize %x, %qs, %zu : (tensor<4x3x5xf32>, tensor<1x3x1xf32>, tensor<1x3x1xui8>) -> tensor<4x3x5xui8>
  %3 = graph.quantize %x, %qs, %zs : (tensor<4x3x5xf32>, tensor<1x3x1xf32>, tensor<1x3x1xi8>) -> tensor<4x3x5xi8>
  %4 = graph.dequantize %u, %qs, %zu : (tensor<4x3x5xui8>, tensor<1x3x1xf32>, tensor<1x3x1xui8>) -> tensor<4x3x5xf32>
  %5 = graph.dequantize %s, %qs, %zs : (tensor<4x3x5xi8>, tensor<1x3x1xf32>, tensor<1x3x1xi8>) -> tensor<4x3x5xf32>
  %6 = graph.dequantize %u, %scale, %z_u8 : (tensor<4x3x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x3x5xf32>
  %7 = graph.cast %u {to = f32} : (tensor<4x3x5xui8>) -> tensor<4x3x5xf32>
  %8 = graph.cast %u {to = i32} : (tensor<4x3x5xui8>) -> tensor<4x3x5xi32>
  %9 = graph.cast %s {to = ui8} : (tensor<4x3x5xi8>) -> tensor<4x3x5xui8>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4x3x5xui8>, tensor<4x3x5xi8>, tensor<4x3x5xui8>, tensor<4x3x5xi8>, tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xi32>, tensor<4x3x5xui8>
}
