// --graph-block-channels: convolution regions in the blocked layout
// [N, C / B, H, W, B], layout changes only at the region's edges.
// RUN: mlc-opt %s --split-input-file --graph-block-channels --mlir-elide-resource-strings-if-larger=8 | FileCheck %s
// RUN: mlc-opt %s --split-input-file --graph-block-channels=block=8 --mlir-elide-resource-strings-if-larger=8 | FileCheck %s --check-prefix=B8
// RUN: not mlc-opt %s --graph-block-channels=block=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO

// 12 input channels are padded to 16 on the way in, 20 output channels
// computed as 32 and sliced on the way out; the relu stays blocked.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x12x5x5xf32>)
// CHECK: %[[P:.*]] = graph.pad %[[X]] {pads = array<i64: 0, 0, 0, 0, 0, 4, 0, 0>, value = 0.000000e+00 : f64} : (tensor<1x12x5x5xf32>) -> tensor<1x16x5x5xf32>
// CHECK: %[[R:.*]] = graph.reshape %[[P]] {shape = array<i64: 1, 1, 16, 5, 5>}
// CHECK: %[[XB:.*]] = graph.transpose %[[R]] {perm = array<i64: 0, 1, 3, 4, 2>} : (tensor<1x1x16x5x5xf32>) -> tensor<1x1x5x5x16xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense_resource<nchwc_bias{{.*}}> : tensor<2x16xf32>
// CHECK-DAG: %[[W:.*]] = graph.constant dense_resource<nchwc_filter{{.*}}> : tensor<2x1x3x3x16x16xf32>
// CHECK: %[[C:.*]] = graph.conv2d_nchwc %[[XB]], %[[W]], %[[B]] {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x1x5x5x16xf32>, tensor<2x1x3x3x16x16xf32>, tensor<2x16xf32>) -> tensor<1x2x5x5x16xf32>
// CHECK: %[[Y:.*]] = graph.relu %[[C]] : tensor<1x2x5x5x16xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[Y]] {perm = array<i64: 0, 1, 4, 2, 3>} : (tensor<1x2x5x5x16xf32>) -> tensor<1x2x16x5x5xf32>
// CHECK: %[[O:.*]] = graph.reshape %[[T]] {shape = array<i64: 1, 32, 5, 5>}
// CHECK: %[[S:.*]] = graph.slice %[[O]] {ends = array<i64: 1, 20, 5, 5>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>}
// CHECK: return %[[S]]
// B8-LABEL: func.func @chain
// B8: graph.conv2d_nchwc {{.*}} : (tensor<1x2x5x5x8xf32>, tensor<3x2x3x3x8x8xf32>, tensor<3x8xf32>) -> tensor<1x3x5x5x8xf32>
func.func @chain(%x: tensor<1x12x5x5xf32>) -> tensor<1x20x5x5xf32> {
  %w = graph.constant dense<0.5> : tensor<20x12x3x3xf32>
  %b = graph.constant dense<0.25> : tensor<20xf32>
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x12x5x5xf32>, tensor<20x12x3x3xf32>, tensor<20xf32>) -> tensor<1x20x5x5xf32>
  %1 = graph.relu %0 : tensor<1x20x5x5xf32>
  return %1 : tensor<1x20x5x5xf32>
}

// -----

// A 3-channel image feeds the plain-input form; a depthwise convolution,
// a max pool and a channel-broadcast multiply follow blocked. The [1,16,1,1]
// constant is packed here; the [1,1,1,1] one is reshaped to broadcast
// over both channel dims.
// CHECK-LABEL: func.func @stem_depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
// CHECK: %[[S:.*]] = graph.conv2d_nchwc %[[X]], %{{.*}} {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<1x3x3x3x16xf32>) -> tensor<1x1x4x4x16xf32>
// CHECK: %[[D:.*]] = graph.conv2d_nchwc %[[S]], %{{.*}} : (tensor<1x1x4x4x16xf32>, tensor<1x3x3x16xf32>) -> tensor<1x1x4x4x16xf32>
// CHECK: %[[M:.*]] = graph.maxpool2d %[[D]] {{.*}} : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x2x2x16xf32>
// CHECK: %[[K:.*]] = graph.constant dense<2.000000e+00> : tensor<1x1x1x1x16xf32>
// CHECK: %[[U:.*]] = graph.mul %[[M]], %[[K]] : (tensor<1x1x2x2x16xf32>, tensor<1x1x1x1x16xf32>) -> tensor<1x1x2x2x16xf32>
// CHECK: %[[H:.*]] = graph.reshape %{{.*}} {shape = array<i64: 1, 1, 1, 1, 1>}
// CHECK: graph.add %[[U]], %[[H]] : (tensor<1x1x2x2x16xf32>, tensor<1x1x1x1x1xf32>) -> tensor<1x1x2x2x16xf32>
// CHECK: graph.transpose
func.func @stem_depthwise(%x: tensor<1x3x8x8xf32>) -> tensor<1x16x2x2xf32> {
  %w = graph.constant dense<0.5> : tensor<16x3x3x3xf32>
  %d = graph.constant dense<0.25> : tensor<16x1x3x3xf32>
  %k = graph.constant dense<2.0> : tensor<1x16x1x1xf32>
  %h = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x4x4xf32>
  %1 = graph.conv2d %0, %d {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 16 : i64} : (tensor<1x16x4x4xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x4x4xf32>
  %2 = graph.maxpool2d %1 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x4x4xf32>) -> tensor<1x16x2x2xf32>
  %3 = graph.mul %2, %k : (tensor<1x16x2x2xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x2x2xf32>
  %4 = graph.add %3, %h : (tensor<1x16x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x16x2x2xf32>
  return %4 : tensor<1x16x2x2xf32>
}

// -----

// Not blocked: a grouped convolution whose groups (8 in, 12 out channels)
// neither fill blocks nor fit in one, a filter that is not
// a constant, fewer than 8 output channels, and a 1-channel convolution
// whose result no blocked op reads (Winograd's input transform).
// CHECK-LABEL: func.func @stays_nchw
// CHECK-NOT: conv2d_nchwc
// CHECK-NOT: graph.transpose
// CHECK: return
func.func @stays_nchw(%x: tensor<1x16x5x5xf32>, %wf: tensor<16x16x1x1xf32>, %y: tensor<4x1x6x6xf32>) -> (tensor<1x24x5x5xf32>, tensor<1x16x5x5xf32>, tensor<1x4x5x5xf32>, tensor<4x36x2x2xf32>) {
  %wg = graph.constant dense<0.5> : tensor<24x8x1x1xf32>
  %w4 = graph.constant dense<0.5> : tensor<4x16x1x1xf32>
  %wt = graph.constant dense<0.5> : tensor<36x1x3x3xf32>
  %0 = graph.conv2d %x, %wg {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x16x5x5xf32>, tensor<24x8x1x1xf32>) -> tensor<1x24x5x5xf32>
  %1 = graph.conv2d %x, %wf {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x5x5xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x5x5xf32>
  %2 = graph.conv2d %x, %w4 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x5x5xf32>, tensor<4x16x1x1xf32>) -> tensor<1x4x5x5xf32>
  %3 = graph.conv2d %y, %wt {strides = array<i64: 4, 4>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<4x1x6x6xf32>, tensor<36x1x3x3xf32>) -> tensor<4x36x2x2xf32>
  return %0, %1, %2, %3 : tensor<1x24x5x5xf32>, tensor<1x16x5x5xf32>, tensor<1x4x5x5xf32>, tensor<4x36x2x2xf32>
}

// -----

// Ops that could make a padded channel infinite stay outside (division by
// a tensor), and so does a concat whose inputs are not whole blocks; both
// read the NCHW value through one reorder.
// CHECK-LABEL: func.func @edges
// CHECK: %[[C:.*]] = graph.conv2d_nchwc
// CHECK: %[[T:.*]] = graph.transpose %[[C]]
// CHECK: %[[R:.*]] = graph.reshape %[[T]]
// CHECK: %[[S:.*]] = graph.slice %[[R]]
// CHECK-NOT: graph.transpose
// CHECK: graph.div %[[S]], %{{.*}} : (tensor<1x24x3x3xf32>, tensor<1x24x3x3xf32>)
// CHECK: graph.concat %[[S]], %{{.*}} {axis = 1 : i64} : (tensor<1x24x3x3xf32>, tensor<1x8x3x3xf32>)
func.func @edges(%x: tensor<1x8x3x3xf32>, %d: tensor<1x24x3x3xf32>) -> (tensor<1x24x3x3xf32>, tensor<1x32x3x3xf32>) {
  %w = graph.constant dense<0.5> : tensor<24x8x1x1xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x3x3xf32>, tensor<24x8x1x1xf32>) -> tensor<1x24x3x3xf32>
  %1 = graph.div %0, %d : (tensor<1x24x3x3xf32>, tensor<1x24x3x3xf32>) -> tensor<1x24x3x3xf32>
  %2 = graph.concat %0, %x {axis = 1 : i64} : (tensor<1x24x3x3xf32>, tensor<1x8x3x3xf32>) -> tensor<1x32x3x3xf32>
  return %1, %2 : tensor<1x24x3x3xf32>, tensor<1x32x3x3xf32>
}

// ZERO: error: graph-block-channels: block must be positive, got 0

// -----

// An inference batch norm of a blocked value becomes a blocked scale and
// shift (s = scale / sqrt(var + eps) = 2, t = bias - mean * s = -1), zero
// in the padded channels.
// CHECK-LABEL: func.func @batch_norm
// CHECK: %[[C:.*]] = graph.conv2d_nchwc
// CHECK: %[[S:.*]] = graph.constant dense<{{\[\[\[\[\[}}2.000000e+00, {{.*}}, 2.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00{{\]\]\]\]\]}}> : tensor<1x1x1x1x16xf32>
// CHECK: %[[M:.*]] = graph.mul %[[C]], %[[S]] : (tensor<1x1x4x4x16xf32>, tensor<1x1x1x1x16xf32>) -> tensor<1x1x4x4x16xf32>
// CHECK: %[[T:.*]] = graph.constant dense<{{\[\[\[\[\[}}-1.000000e+00, {{.*}}, -1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00{{\]\]\]\]\]}}> : tensor<1x1x1x1x16xf32>
// CHECK: graph.add %[[M]], %[[T]]
// CHECK-NOT: graph.batch_norm
func.func @batch_norm(%x: tensor<1x8x4x4xf32>) -> tensor<1x12x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<12x8x1x1xf32>
  %scale = graph.constant dense<1.0> : tensor<12xf32>
  %bias = graph.constant dense<1.0> : tensor<12xf32>
  %mean = graph.constant dense<1.0> : tensor<12xf32>
  %var = graph.constant dense<0.25> : tensor<12xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x4x4xf32>, tensor<12x8x1x1xf32>) -> tensor<1x12x4x4xf32>
  %1 = graph.batch_norm %0, %scale, %bias, %mean, %var {epsilon = 0.0 : f32} : (tensor<1x12x4x4xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) -> tensor<1x12x4x4xf32>
  return %1 : tensor<1x12x4x4xf32>
}

// -----

// Grouped convolutions: groups of 16 channels are whole blocks (groups = 2
// kept); groups of 4 fit in a block, which becomes a group of its own with
// a block-diagonal filter (groups = 2 blocks); groups of 6 channels do
// neither and stay NCHW.
// CHECK-LABEL: func.func @grouped
// CHECK: graph.conv2d_nchwc {{.*}}groups = 2 : i64{{.*}} : (tensor<1x2x4x4x16xf32>, tensor<2x1x3x3x16x16xf32>) -> tensor<1x2x4x4x16xf32>
// CHECK: graph.conv2d_nchwc {{.*}}groups = 2 : i64{{.*}} : (tensor<1x2x4x4x16xf32>, tensor<2x1x1x1x16x16xf32>) -> tensor<1x2x4x4x16xf32>
// CHECK: graph.conv2d {{.*}}groups = 4 : i64{{.*}} : (tensor<1x24x4x4xf32>, tensor<24x6x1x1xf32>) -> tensor<1x24x4x4xf32>
func.func @grouped(%x: tensor<1x32x4x4xf32>, %y: tensor<1x24x4x4xf32>) -> (tensor<1x32x4x4xf32>, tensor<1x24x4x4xf32>) {
  %w16 = graph.constant dense<0.5> : tensor<32x16x3x3xf32>
  %w4 = graph.constant dense<0.5> : tensor<32x4x1x1xf32>
  %w6 = graph.constant dense<0.5> : tensor<24x6x1x1xf32>
  %0 = graph.conv2d %x, %w16 {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x32x4x4xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x4x4xf32>
  %1 = graph.conv2d %0, %w4 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 8 : i64} : (tensor<1x32x4x4xf32>, tensor<32x4x1x1xf32>) -> tensor<1x32x4x4xf32>
  %2 = graph.conv2d %y, %w6 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<1x24x4x4xf32>, tensor<24x6x1x1xf32>) -> tensor<1x24x4x4xf32>
  return %1, %2 : tensor<1x32x4x4xf32>, tensor<1x24x4x4xf32>
}

// -----

// Dead ends leave the region: a depthwise convolution that only a
// channels-last transpose reads, and an add that reads an NCHW input and
// is read by nothing blocked, would each cost a reorder for no gain (as in
// ConvNeXt). The dense convolution stays blocked; one reorder serves both.
// CHECK-LABEL: func.func @dead_ends
// CHECK: %[[C:.*]] = graph.conv2d_nchwc
// CHECK: %[[T:.*]] = graph.transpose %[[C]] {perm = array<i64: 0, 1, 4, 2, 3>}
// CHECK: %[[R:.*]] = graph.reshape %[[T]]
// CHECK: %[[D:.*]] = graph.conv2d %[[R]], %{{.*}}groups = 16 : i64
// CHECK: graph.transpose %[[D]] {perm = array<i64: 0, 2, 3, 1>}
// CHECK: graph.add %[[R]], %{{.*}} : (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>)
// CHECK-NOT: conv2d_nchwc
func.func @dead_ends(%x: tensor<1x16x4x4xf32>, %y: tensor<1x16x4x4xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x16x4x4xf32>) {
  %w = graph.constant dense<0.5> : tensor<16x16x1x1xf32>
  %d = graph.constant dense<0.25> : tensor<16x1x3x3xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x4x4xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x4x4xf32>
  %1 = graph.conv2d %0, %d {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 16 : i64} : (tensor<1x16x4x4xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x4x4xf32>
  %2 = graph.transpose %1 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x16x4x4xf32>) -> tensor<1x4x4x16xf32>
  %3 = graph.add %0, %y : (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %2, %3 : tensor<1x4x4x16xf32>, tensor<1x16x4x4xf32>
}

// -----

// Integer convolutions with constant int8 filters and zero filter zero
// points start a region too: conv2d_integer_nchwc with its filter blocked
// as int8, the dequantize (its per-channel scale blocked), relu and quantize
// of the epilogue on blocked values, the next convolution reading the
// blocked uint8 value; channels padded (20 -> 32), reorders only at the
// region's edges.
// CHECK-LABEL: func.func @integer_region
// CHECK: %[[P:.*]] = graph.pad %arg0 {pads = array<i64: 0, 0, 0, 0, 0, 12, 0, 0>, {{.*}}} : (tensor<1x20x6x6xui8>) -> tensor<1x32x6x6xui8>
// CHECK: %[[R:.*]] = graph.reshape %[[P]]
// CHECK: %[[X:.*]] = graph.transpose %[[R]] {perm = array<i64: 0, 1, 3, 4, 2>} : (tensor<1x2x16x6x6xui8>) -> tensor<1x2x6x6x16xui8>
// CHECK: %[[W:.*]] = graph.constant dense_resource<nchwc_filter> : tensor<2x2x3x3x16x16xi8>
// CHECK: %[[C:.*]] = graph.conv2d_integer_nchwc %[[X]], %[[W]], %{{.*}} {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x6x6x16xui8>, tensor<2x2x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
// CHECK: %[[S:.*]] = graph.constant dense_resource<nchwc_operand> : tensor<1x2x1x1x16xf32>
// CHECK: %[[D:.*]] = graph.dequantize %[[C]], %[[S]], %{{.*}} : (tensor<1x2x6x6x16xi32>, tensor<1x2x1x1x16xf32>, tensor<1x1x1x1x1xi32>) -> tensor<1x2x6x6x16xf32>
// CHECK: %[[A:.*]] = graph.relu %[[D]] : tensor<1x2x6x6x16xf32>
// CHECK: %[[Q:.*]] = graph.quantize %[[A]], {{.*}} -> tensor<1x2x6x6x16xui8>
// CHECK: %[[C2:.*]] = graph.conv2d_integer_nchwc %[[Q]], %{{.*}}, %{{.*}} {{.*}} : (tensor<1x2x6x6x16xui8>, tensor<2x2x1x1x16x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
// CHECK: %[[T:.*]] = graph.transpose %[[C2]] {perm = array<i64: 0, 1, 4, 2, 3>}
// CHECK: %[[O:.*]] = graph.reshape %[[T]]
// CHECK: %[[Y:.*]] = graph.slice %[[O]] {{.*}} -> tensor<1x24x6x6xi32>
// CHECK: return %[[Y]]
func.func @integer_region(%x: tensor<1x20x6x6xui8>) -> tensor<1x24x6x6xi32> {
  %w = graph.constant dense<3> : tensor<20x20x3x3xi8>
  %w2 = graph.constant dense<-1> : tensor<24x20x1x1xi8>
  %xz = graph.constant dense<9> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<20x1x1x1xi8>
  %wz2 = graph.constant dense<0> : tensor<i8>
  %s = graph.constant dense<0.25> : tensor<20x1x1xf32>
  %z = graph.constant dense<0> : tensor<i32>
  %qs = graph.constant dense<0.5> : tensor<f32>
  %qz = graph.constant dense<3> : tensor<ui8>
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x20x6x6xui8>, tensor<20x20x3x3xi8>, tensor<ui8>, tensor<20x1x1x1xi8>) -> tensor<1x20x6x6xi32>
  %1 = graph.dequantize %0, %s, %z : (tensor<1x20x6x6xi32>, tensor<20x1x1xf32>, tensor<i32>) -> tensor<1x20x6x6xf32>
  %2 = graph.relu %1 : tensor<1x20x6x6xf32>
  %3 = graph.quantize %2, %qs, %qz : (tensor<1x20x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x20x6x6xui8>
  %4 = graph.conv2d_integer %3, %w2, %qz, %wz2 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x20x6x6xui8>, tensor<24x20x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x24x6x6xi32>
  return %4 : tensor<1x24x6x6xi32>
}

// -----

// A filter zero point that is not zero, a filter computed at run time or
// groups of 8 input and 12 output channels (neither whole blocks nor
// within one): the convolution stays NCHW.
// CHECK-LABEL: func.func @integer_not_blocked
// CHECK-NOT: conv2d_integer_nchwc
// CHECK-COUNT-3: graph.conv2d_integer %arg0
// CHECK-NOT: graph.transpose
func.func @integer_not_blocked(%x: tensor<1x16x6x6xui8>, %wr: tensor<16x16x1x1xi8>) -> (tensor<1x16x6x6xi32>, tensor<1x16x6x6xi32>, tensor<1x24x6x6xi32>) {
  %w = graph.constant dense<3> : tensor<16x16x1x1xi8>
  %wg = graph.constant dense<3> : tensor<24x8x1x1xi8>
  %xz = graph.constant dense<9> : tensor<ui8>
  %wz = graph.constant dense<1> : tensor<i8>
  %wz0 = graph.constant dense<0> : tensor<i8>
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x6x6xui8>, tensor<16x16x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x16x6x6xi32>
  %1 = graph.conv2d_integer %x, %wr, %xz, %wz0 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x6x6xui8>, tensor<16x16x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x16x6x6xi32>
  %2 = graph.conv2d_integer %x, %wg, %xz, %wz0 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x16x6x6xui8>, tensor<24x8x1x1xi8>, tensor<ui8>, tensor<i8>) -> (tensor<1x24x6x6xi32>)
  return %0, %1, %2 : tensor<1x16x6x6xi32>, tensor<1x16x6x6xi32>, tensor<1x24x6x6xi32>
}

// -----

// A depthwise integer convolution is blocked too: its int8 filter [C, 1, KH,
// KW] becomes [C/B, KH, KW, B] (channels padded 20 -> 32).
// CHECK-LABEL: func.func @integer_depthwise
// CHECK: %[[X:.*]] = graph.transpose %{{.*}} {perm = array<i64: 0, 1, 3, 4, 2>} : (tensor<1x2x16x6x6xui8>) -> tensor<1x2x6x6x16xui8>
// CHECK: %[[W:.*]] = graph.constant dense_resource<nchwc_filter> : tensor<2x3x3x16xi8>
// CHECK: %[[C:.*]] = graph.conv2d_integer_nchwc %[[X]], %[[W]], %{{.*}} {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x6x6x16xui8>, tensor<2x3x3x16xi8>, tensor<ui8>) -> tensor<1x2x3x3x16xi32>
// CHECK: graph.slice {{.*}} -> tensor<1x20x3x3xi32>
func.func @integer_depthwise(%x: tensor<1x20x6x6xui8>) -> tensor<1x20x3x3xi32> {
  %w = graph.constant dense<3> : tensor<20x1x3x3xi8>
  %xz = graph.constant dense<9> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 20 : i64} : (tensor<1x20x6x6xui8>, tensor<20x1x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x20x3x3xi32>
  return %0 : tensor<1x20x3x3xi32>
}

// -----

// Grouped integer convolutions are blocked as the float ones: 2 groups of
// 16 channels (whole blocks: groups = 2) and 4 groups of 8 (within a block:
// one group per block, the filter block-diagonal); groups of 12 channels
// stay NCHW.
// CHECK-LABEL: func.func @integer_grouped
// CHECK: graph.conv2d_integer_nchwc {{.*}}groups = 2 : i64{{.*}} : (tensor<1x2x6x6x16xui8>, tensor<2x1x3x3x16x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
// CHECK: graph.conv2d_integer_nchwc {{.*}}groups = 2 : i64{{.*}} : (tensor<1x2x6x6x16xui8>, tensor<2x1x1x1x16x16xi8>, tensor<ui8>) -> tensor<1x2x6x6x16xi32>
// CHECK: graph.conv2d_integer %{{.*}} groups = 4 : i64{{.*}} -> tensor<1x48x6x6xi32>
func.func @integer_grouped(%x: tensor<1x32x6x6xui8>, %y: tensor<1x48x6x6xui8>) -> (tensor<1x32x6x6xi32>, tensor<1x32x6x6xi32>, tensor<1x48x6x6xi32>) {
  %w = graph.constant dense<3> : tensor<32x16x3x3xi8>
  %w4 = graph.constant dense<2> : tensor<32x8x1x1xi8>
  %w12 = graph.constant dense<1> : tensor<48x12x1x1xi8>
  %xz = graph.constant dense<9> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %0 = graph.conv2d_integer %x, %w, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x32x6x6xui8>, tensor<32x16x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x32x6x6xi32>
  %1 = graph.conv2d_integer %x, %w4, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<1x32x6x6xui8>, tensor<32x8x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x32x6x6xi32>
  %2 = graph.conv2d_integer %y, %w12, %xz, %wz {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<1x48x6x6xui8>, tensor<48x12x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x48x6x6xi32>
  return %0, %1, %2 : tensor<1x32x6x6xi32>, tensor<1x32x6x6xi32>, tensor<1x48x6x6xi32>
}
