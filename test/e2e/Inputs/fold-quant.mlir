// Constant subgraphs of the quantization ops and integer contractions
// (fold-quant-matches-kernels.test): folded at -O2, run as kernels at -O0.
func.func @main() -> (
    tensor<2x3x4xui8> {mlc.name = "q_u8"},
    tensor<2x3x4xi8> {mlc.name = "q_i8"},
    tensor<2x3x4xf32> {mlc.name = "dq_u8"},
    tensor<2x3x4xf32> {mlc.name = "dq_i8"},
    tensor<5x3xi32> {mlc.name = "mm"},
    tensor<1x6x5x5xi32> {mlc.name = "conv"},
    tensor<17xi8> {mlc.name = "cast_i8"},
    tensor<17xui8> {mlc.name = "cast_u8"},
    tensor<19xi8> {mlc.name = "add_i8"},
    tensor<5x7xf32> {mlc.name = "u8_to_f32"},
    tensor<2x3x4xf32> {mlc.name = "fq_u8"},
    tensor<2x3x4xf32> {mlc.name = "fq_i8"}) {
  %x = graph.constant dense<[[[0.25, -0.25, 0.75, -0.75],
  [63.75, -64.25, 1000000.0, -1000000.0],
  [0x7FC00000, 0.0, 21.331676483154297, -37.16857147216797]],

 [[-9.107342720031738, 66.38607025146484, 55.67486572265625, 48.192344665527344],
  [-15.063346862792969, -0.9767773747444153, 24.736509323120117, -61.48762130737305],
  [7.783456325531006, -31.996774673461914, 53.15116500854492, -61.009979248046875]]]> : tensor<2x3x4xf32>
  %xs = graph.constant dense<[[[0.5],
  [0.03125],
  [3.0]]]> : tensor<1x3x1xf32>
  %zu = graph.constant dense<[[[  0],
  [255],
  [128]]]> : tensor<1x3x1xui8>
  %zs = graph.constant dense<[[[-128],
  [ 127],
  [   0]]]> : tensor<1x3x1xi8>
  %a = graph.constant dense<[[  0, 255, 255, 222,  87,  58, 139],
 [229, 226, 223,  78,   4, 199, 181],
 [197,   0,   9, 128,  85, 111, 238],
 [ 52, 135,  83,  75, 206,  39,  81],
 [ 30,  38,  71, 178, 148, 114,  43]]> : tensor<5x7xui8>
  %b = graph.constant dense<[[-128,  127, -128],
 [-113,  -47,  -91],
 [  76,    5,    1],
 [ -54,    1,  119],
 [ -68,   68, -125],
 [ -48,  110,   95],
 [-107,   87,   88]]> : tensor<7x3xi8>
  %az = graph.constant dense<200> : tensor<ui8>
  %bz = graph.constant dense<[-128, 0, 127]> : tensor<3xi8>
  %cx = graph.constant dense<[[[[116,  94, 250, 243, 173],
   [102,  53, 239,  68, 142],
   [172,  61,  80, 189,  50],
   [172, 241, 175, 165, 118],
   [247,  56,  91, 164, 167]],

  [[ 27,  41, 177, 215, 162],
   [238,  96,  84, 204,  10],
   [ 49,  49,  99,  40, 204],
   [216,  97,   7, 182,  27],
   [156,  43, 240, 173, 253]],

  [[157, 185,  96, 207,  28],
   [ 39,  92, 182, 124, 216],
   [241, 102, 108, 141, 165],
   [122, 154, 245, 187,  81],
   [108, 102,  38,   0, 202]],

  [[107,  90, 161, 144, 239],
   [157, 236, 148,  83,  82],
   [253, 150,  48, 212, 210],
   [  2,  40, 177, 103,  87],
   [ 18,  48, 219, 213, 212]]]]> : tensor<1x4x5x5xui8>
  %cw = graph.constant dense<[[[[  18,  -93,  -46],
   [   6,  126,  -62],
   [  12,   -3,    0]],

  [[  13,   52, -101],
   [ 123,   93,   68],
   [ -57,  -16,  -14]]],


 [[[ -49, -114,   62],
   [-128,   67,  -79],
   [  36,  -41,  -68]],

  [[ 109,   -7,   99],
   [ -80,   -5,  -40],
   [ -12, -125,   42]]],


 [[[ -40,   91,  -74],
   [ -42, -117,   75],
   [   8,  -26,  106]],

  [[  24,  118,   60],
   [  21,    0,  -77],
   [  48,   74,   50]]],


 [[[ -23, -127,   60],
   [-118,   77,  -90],
   [ -50,  -74,   10]],

  [[ -76,  -62, -116],
   [ 123,  -73,  -79],
   [  25,  -92,   98]]],


 [[[  72,  -39,  -26],
   [ -35,   60,  -22],
   [ -55,   46,  -93]],

  [[  73,  -19,  112],
   [ -62,  -32,   95],
   [  52, -118,  -41]]],


 [[[-124,   82,  -22],
   [ -69,   57,   94],
   [-102,    1,  -35]],

  [[  57,  110,    8],
   [  63,  -48,   20],
   [  -2,   59, -116]]]]> : tensor<6x2x3x3xi8>
  %cxz = graph.constant dense<255> : tensor<ui8>
  %cwz = graph.constant dense<[[[[-128]]],


 [[[ 127]]],


 [[[   0]]],


 [[[   5]]],


 [[[  -5]]],


 [[[   1]]]]> : tensor<6x1x1x1xi8>
  %big = graph.constant dense<[-274.2044677734375, 17.977994918823242, -13.695314407348633, 199.8824005126953, -287.9264221191406, 34.130287170410156, -5.617737293243408, 58.798282623291016, 137.74717712402344, 14.844365119934082, 37.822933197021484, -4.9296722412109375, 69.12419891357422, -151.12367248535156, 31.568058013916016, 103.43209075927734, -185.33233642578125]> : tensor<17xf32>
  %i8v = graph.constant dense<[ 127, -128,    2,   63,   66,  116, -120,  -53,  123,  -15,  -27,  -62, -123, -117,  121, -124,  -93,  -65,  -56]> : tensor<19xi8>
  %one = graph.constant dense<100> : tensor<i8>
  %s = graph.constant dense<0.25> : tensor<f32>
  %0 = graph.quantize %x, %xs, %zu : (tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<1x3x1xui8>) -> tensor<2x3x4xui8>
  %1 = graph.quantize %x, %xs, %zs : (tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<1x3x1xi8>) -> tensor<2x3x4xi8>
  %2 = graph.dequantize %0, %xs, %zu : (tensor<2x3x4xui8>, tensor<1x3x1xf32>, tensor<1x3x1xui8>) -> tensor<2x3x4xf32>
  %3 = graph.dequantize %1, %xs, %zs : (tensor<2x3x4xi8>, tensor<1x3x1xf32>, tensor<1x3x1xi8>) -> tensor<2x3x4xf32>
  %4 = graph.matmul_integer %a, %b, %az, %bz : (tensor<5x7xui8>, tensor<7x3xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<5x3xi32>
  %5 = graph.conv2d_integer %cx, %cw, %cxz, %cwz {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x5x5xui8>, tensor<6x2x3x3xi8>, tensor<ui8>, tensor<6x1x1x1xi8>) -> tensor<1x6x5x5xi32>
  %6 = graph.cast %big {to = i8} : (tensor<17xf32>) -> tensor<17xi8>
  %7 = graph.cast %big {to = ui8} : (tensor<17xf32>) -> tensor<17xui8>
  %8 = graph.add %i8v, %one : (tensor<19xi8>, tensor<i8>) -> tensor<19xi8>
  %9 = graph.cast %a {to = f32} : (tensor<5x7xui8>) -> tensor<5x7xf32>
  %10 = graph.fake_quantize %x, %xs, %zu : (tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<1x3x1xui8>) -> tensor<2x3x4xf32>
  %11 = graph.fake_quantize %x, %xs, %zs : (tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<1x3x1xi8>) -> tensor<2x3x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<2x3x4xui8>, tensor<2x3x4xi8>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<5x3xi32>, tensor<1x6x5x5xi32>, tensor<17xi8>, tensor<17xui8>, tensor<19xi8>, tensor<5x7xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
