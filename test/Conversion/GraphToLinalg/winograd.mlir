// graph.winograd_input / graph.winograd_output lower to one all-parallel
// generic over the result, marked mlc.winograd, whose body sums 36 terms
// read with tensor.extract from the op's operand (captured) and weighted by
// a constant coefficient table: the definition that the CPU kernel
// (WinogradKernel.cpp) replaces by separable tile code.
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// Input transform: table [36 points, 36 taps]; the tap (i, j) of tile
// (th, tw) is read at (4 * th + i, 4 * tw + j).
// CHECK-LABEL: func.func @input
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x10x10x8xf32>)
// CHECK: %[[T:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<36x36xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<36x1x2x2x2x8xf32>) attrs = {mlc.winograd = "input"}
// CHECK: %[[P:.*]] = linalg.index 0
// CHECK: %[[TH:.*]] = linalg.index 2
// CHECK: tensor.extract %[[T]][%[[P]], %c0{{.*}}] : tensor<36x36xf32>
// CHECK: arith.muli %[[TH]], %c4
// CHECK: tensor.extract %[[X]][
// CHECK-COUNT-35: tensor.extract %[[X]][
// CHECK-NOT: tensor.extract %[[X]][
// CHECK: linalg.yield
func.func @input(%x: tensor<1x2x10x10x8xf32>) -> tensor<36x1x2x2x2x8xf32> {
  %0 = graph.winograd_input %x : (tensor<1x2x10x10x8xf32>) -> tensor<36x1x2x2x2x8xf32>
  return %0 : tensor<36x1x2x2x2x8xf32>
}

// -----

// Output transform: table [16 outputs of a tile, 36 points], row
// (oh % 4) * 4 + ow % 4; the products read at tile (oh / 4, ow / 4).
// CHECK-LABEL: func.func @output
// CHECK-SAME: (%[[M:.*]]: tensor<36x1x2x2x3x8xf32>)
// CHECK: %[[T:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<16x36xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x6x7x8xf32>) attrs = {mlc.winograd = "output"}
// CHECK: arith.remui
// CHECK: arith.divui
// CHECK-COUNT-36: tensor.extract %[[M]][
// CHECK-NOT: tensor.extract %[[M]][
// CHECK: linalg.yield
func.func @output(%m: tensor<36x1x2x2x3x8xf32>) -> tensor<1x3x6x7x8xf32> {
  %1 = graph.winograd_output %m {output_size = array<i64: 6, 7>} : (tensor<36x1x2x2x3x8xf32>) -> tensor<1x3x6x7x8xf32>
  return %1 : tensor<1x3x6x7x8xf32>
}
