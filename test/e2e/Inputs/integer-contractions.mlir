// Integer matmuls and convolutions against an int64 numpy reference
// (integer-contractions.test, int_contraction_ref.py).
func.func @main(%a: tensor<7x37xui8> {mlc.name = "a"},
                %b: tensor<37x19xi8> {mlc.name = "b"},
                %az: tensor<7x1xui8> {mlc.name = "az"},
                %bz: tensor<19xi8> {mlc.name = "bz"},
                %a2: tensor<3x5x33xi8> {mlc.name = "a2"},
                %b2: tensor<33x17xui8> {mlc.name = "b2"},
                %a3: tensor<4x301xi8> {mlc.name = "a3"},
                %b3: tensor<301x9xi8> {mlc.name = "b3"},
                %a4: tensor<4x301xui8> {mlc.name = "a4"},
                %b4: tensor<301x9xui8> {mlc.name = "b4"},
                %x: tensor<2x5x9x11xui8> {mlc.name = "x"},
                %xz: tensor<1xui8> {mlc.name = "xz"},
                %w: tensor<7x5x3x3xi8> {mlc.name = "w"},
                %wz: tensor<7x1x1x1xi8> {mlc.name = "wz"},
                %x2: tensor<1x6x13x10xui8> {mlc.name = "x2"},
                %w2: tensor<4x3x3x2xi8> {mlc.name = "w2"},
                %x3: tensor<1x9x7x7xi8> {mlc.name = "x3"},
                %w3: tensor<9x1x3x3xi8> {mlc.name = "w3"})
    -> (tensor<7x19xi32> {mlc.name = "mm_u8_s8"},
        tensor<3x5x17xi32> {mlc.name = "mm_s8_u8_batched"},
        tensor<4x9xi32> {mlc.name = "mm_s8_s8"},
        tensor<4x9xi32> {mlc.name = "mm_u8_u8"},
        tensor<2x7x9x11xi32> {mlc.name = "conv_3x3"},
        tensor<1x4x6x11xi32> {mlc.name = "conv_grouped"},
        tensor<1x9x7x7xi32> {mlc.name = "conv_depthwise"}) {
  %m128 = graph.constant dense<-128> : tensor<i8>
  %u255 = graph.constant dense<255> : tensor<ui8>
  %z_s8 = graph.constant dense<0> : tensor<i8>
  %z_u8 = graph.constant dense<0> : tensor<ui8>
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<7x37xui8>, tensor<37x19xi8>, tensor<7x1xui8>, tensor<19xi8>) -> tensor<7x19xi32>
  %1 = graph.matmul_integer %a2, %b2, %m128, %u255 : (tensor<3x5x33xi8>, tensor<33x17xui8>, tensor<i8>, tensor<ui8>) -> tensor<3x5x17xi32>
  %2 = graph.matmul_integer %a3, %b3, %z_s8, %z_s8 : (tensor<4x301xi8>, tensor<301x9xi8>, tensor<i8>, tensor<i8>) -> tensor<4x9xi32>
  %3 = graph.matmul_integer %a4, %b4, %z_u8, %z_u8 : (tensor<4x301xui8>, tensor<301x9xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4x9xi32>
  %4 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x9x11xui8>, tensor<7x5x3x3xi8>, tensor<1xui8>, tensor<7x1x1x1xi8>) -> tensor<2x7x9x11xi32>
  %5 = graph.conv2d_integer %x2, %w2, %z_u8, %z_s8 {strides = array<i64: 2, 1>, pads = array<i64: 2, 0, 1, 3>, dilations = array<i64: 2, 2>, groups = 2 : i64} : (tensor<1x6x13x10xui8>, tensor<4x3x3x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x6x11xi32>
  %6 = graph.conv2d_integer %x3, %w3, %m128, %z_s8 {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 9 : i64} : (tensor<1x9x7x7xi8>, tensor<9x1x3x3xi8>, tensor<i8>, tensor<i8>) -> tensor<1x9x7x7xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<7x19xi32>, tensor<3x5x17xi32>, tensor<4x9xi32>, tensor<4x9xi32>, tensor<2x7x9x11xi32>, tensor<1x4x6x11xi32>, tensor<1x9x7x7xi32>
}
