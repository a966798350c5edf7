// Elementwise graph ops become one broadcasting linalg.generic each: size-1
// operand dims that are broadcast read index 0, missing leading dims are
// dropped from the operand's map, and the body is the scalar computation.
// RUN: mlc-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-DAG: #[[$RHS:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x4xf32>, %[[B:.*]]: tensor<3x1xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<2x1x4xf32>, tensor<3x1xf32>) outs(%[[INIT]] : tensor<2x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @add_broadcast(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A size-1 dim that stays size 1 in the result is indexed normally.
// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_unit_dims
// CHECK: linalg.generic {indexing_maps = [#[[$LHS]], #[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: arith.subf %
func.func @broadcast_unit_dims(%a: tensor<1x3xf32>, %b: tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  %0 = graph.sub %a, %b : (tensor<1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// -----

// 0-d operands broadcast with an empty map.
// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @integer_ops
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$SCALAR]], #[[$ID]]]
// CHECK: arith.subi %{{.*}}, %{{.*}} : i64
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]]
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: linalg.generic
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: linalg.generic
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i64
// CHECK: linalg.generic
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i64
func.func @integer_ops(%a: tensor<2x3xi64>, %s: tensor<i64>) -> tensor<2x3xi64> {
  %0 = graph.sub %a, %s : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi64>
  %1 = graph.mul %0, %a : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %2 = graph.add %1, %a : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %3 = graph.max %2, %a : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %4 = graph.min %3, %a : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return %4 : tensor<2x3xi64>
}

// -----

// Float max/min propagate NaN (maximumf/minimumf, not maxnumf/minnumf).
// CHECK-LABEL: func.func @float_ops
// CHECK: arith.mulf %
// CHECK: arith.divf %
// CHECK: math.powf %
// CHECK: arith.maximumf %
// CHECK: arith.minimumf %
func.func @float_ops(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.div %0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.pow %1, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.max %2, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.min %3, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Integer division never traps: x / 0 is 0 and x / -1 is computed as 0 - x
// (wrapping for INT_MIN); other divisors use sdiv.
// CHECK-LABEL: func.func @div_int
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[MONE:.*]] = arith.constant -1 : i32
// CHECK: %[[ISZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i32
// CHECK: %[[ISMONE:.*]] = arith.cmpi eq, %[[Y]], %[[MONE]] : i32
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[ISZERO]], %[[ISMONE]] : i1
// CHECK: %[[DIVISOR:.*]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]] : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[DIVISOR]] : i32
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[X]] : i32
// CHECK: %[[SPECIAL:.*]] = arith.select %[[ISZERO]], %[[ZERO]], %[[NEG]] : i32
// CHECK: %[[RES:.*]] = arith.select %[[UNSAFE]], %[[SPECIAL]], %[[Q]] : i32
// CHECK: linalg.yield %[[RES]] : i32
func.func @div_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @unary_float
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.negf %
// CHECK: linalg.generic
// CHECK: math.absf %
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[X]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[M]]
// CHECK: math.exp %
// CHECK: math.log %
// CHECK: math.sqrt %
// CHECK: math.rsqrt %
// CHECK: math.tanh %
// CHECK: math.erf %
func.func @unary_float(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.neg %x : tensor<2x3xf32>
  %1 = graph.abs %0 : tensor<2x3xf32>
  %2 = graph.relu %1 : tensor<2x3xf32>
  %3 = graph.exp %2 : tensor<2x3xf32>
  %4 = graph.log %3 : tensor<2x3xf32>
  %5 = graph.sqrt %4 : tensor<2x3xf32>
  %6 = graph.rsqrt %5 : tensor<2x3xf32>
  %7 = graph.tanh %6 : tensor<2x3xf32>
  %8 = graph.erf %7 : tensor<2x3xf32>
  return %8 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @unary_int
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[N:.*]] = arith.subi %[[Z]], %[[X]] : i64
// CHECK-NEXT: linalg.yield %[[N]]
// CHECK: linalg.generic
// CHECK: math.absi %{{.*}} : i64
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X2:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[M:.*]] = arith.maxsi %[[X2]], %[[Z2]] : i64
// CHECK-NEXT: linalg.yield %[[M]]
func.func @unary_int(%x: tensor<5xi64>) -> tensor<5xi64> {
  %0 = graph.neg %x : tensor<5xi64>
  %1 = graph.abs %0 : tensor<5xi64>
  %2 = graph.relu %1 : tensor<5xi64>
  return %2 : tensor<5xi64>
}

// -----

// sigmoid(x) = 1 / (1 + exp(-x))
// CHECK-LABEL: func.func @sigmoid
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.sigmoid %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Exact GELU: 0.5 * x * (1 + erf(x / sqrt(2))).
// CHECK-LABEL: func.func @gelu_erf
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.707106769 : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[X]], %[[C]] : f32
// CHECK-NEXT: %[[ERF:.*]] = math.erf %[[S]] : f32
// CHECK-NEXT: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[P:.*]] = arith.addf %[[ONE]], %[[ERF]] : f32
// CHECK-NEXT: %[[HX:.*]] = arith.mulf %[[HALF]], %[[X]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[HX]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @gelu_erf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.gelu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tanh GELU: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
// CHECK-LABEL: func.func @gelu_tanh
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[X2:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[X3:.*]] = arith.mulf %[[X2]], %[[X]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT: %[[KX3:.*]] = arith.mulf %[[K]], %[[X3]] : f32
// CHECK-NEXT: %[[IN:.*]] = arith.addf %[[X]], %[[KX3]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.797884583 : f32
// CHECK-NEXT: %[[ARG:.*]] = arith.mulf %[[C]], %[[IN]] : f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[ARG]] : f32
// CHECK-NOT: math.erf
// CHECK: linalg.yield
func.func @gelu_tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.gelu %x {tanh_approximation} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Float comparisons are ordered except ne, which is true on NaN.
// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$RHS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @compare_float
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x3xi1>
// CHECK: linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$LHS]]], iterator_types = ["parallel", "parallel"]} {{.*}} outs(%[[INIT]] : tensor<2x3xi1>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[C:.*]] = arith.cmpf oeq, %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[C]] : i1
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oge
func.func @compare_float(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = graph.compare eq, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = graph.compare ne, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = graph.compare lt, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %3 = graph.compare le, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %4 = graph.compare gt, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %5 = graph.compare ge, %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>
}

// -----

// Integer comparisons are signed.
// CHECK-LABEL: func.func @compare_int
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : i32
func.func @compare_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = graph.compare eq, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = graph.compare ne, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = graph.compare lt, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = graph.compare le, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %4 = graph.compare gt, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %5 = graph.compare ge, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// All three select operands broadcast.
// CHECK-DAG: #[[$COND:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$TRUE:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$FALSE:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:.*]]: tensor<3xi1>, %[[T:.*]]: tensor<2x1xi32>, %[[F:.*]]: tensor<i32>)
// CHECK: linalg.generic {indexing_maps = [#[[$COND]], #[[$TRUE]], #[[$FALSE]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[C]], %[[T]], %[[F]] : tensor<3xi1>, tensor<2x1xi32>, tensor<i32>)
// CHECK-NEXT: ^bb0(%[[BC:.*]]: i1, %[[BT:.*]]: i32, %[[BF:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[S:.*]] = arith.select %[[BC]], %[[BT]], %[[BF]] : i32
// CHECK-NEXT: linalg.yield %[[S]] : i32
func.func @select(%c: tensor<3xi1>, %t: tensor<2x1xi32>, %f: tensor<i32>) -> tensor<2x3xi32> {
  %0 = graph.select %c, %t, %f : (tensor<3xi1>, tensor<2x1xi32>, tensor<i32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @cast
// CHECK: ^bb0(%[[A:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[B:.*]] = arith.cmpf une, %[[A]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[B]] : i1
// CHECK: ^bb0(%[[C:.*]]: i64, %{{.*}}: i1):
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[D:.*]] = arith.cmpi ne, %[[C]], %[[Z2]] : i64
// CHECK-NEXT: linalg.yield %[[D]] : i1
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.extui %{{.*}} : i1 to i32
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.extsi %{{.*}} : i32 to i64
// A cast to the same type yields its input.
// CHECK: ^bb0(%[[SAME:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[SAME]] : f32
func.func @cast(%f: tensor<4xf32>, %i: tensor<4xi64>, %b: tensor<4xi1>, %j: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xf32>) {
  %0 = graph.cast %f {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %1 = graph.cast %i {to = i1} : (tensor<4xi64>) -> tensor<4xi1>
  %2 = graph.cast %b {to = f32} : (tensor<4xi1>) -> tensor<4xf32>
  %3 = graph.cast %b {to = i32} : (tensor<4xi1>) -> tensor<4xi32>
  %4 = graph.cast %f {to = i64} : (tensor<4xf32>) -> tensor<4xi64>
  %5 = graph.cast %j {to = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %6 = graph.cast %i {to = i32} : (tensor<4xi64>) -> tensor<4xi32>
  %7 = graph.cast %j {to = i64} : (tensor<4xi32>) -> tensor<4xi64>
  %8 = graph.cast %f {to = f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xf32>
}

// -----

// 0-d tensors give a generic without loops.
// CHECK-DAG: #[[$MAP:.*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @scalar
// CHECK: linalg.generic {indexing_maps = [#[[$MAP]], #[[$MAP]]], iterator_types = []} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<f32>)
// CHECK: math.exp %
func.func @scalar(%a: tensor<f32>) -> tensor<f32> {
  %0 = graph.exp %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Float functions become the math op of the same name (round: roundeven).
// CHECK-LABEL: func.func @math_unary
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.cos %{{.*}} : f32
// CHECK: math.tan %{{.*}} : f32
// CHECK: math.asin %{{.*}} : f32
// CHECK: math.acos %{{.*}} : f32
// CHECK: math.atan %{{.*}} : f32
// CHECK: math.sinh %{{.*}} : f32
// CHECK: math.cosh %{{.*}} : f32
// CHECK: math.asinh %{{.*}} : f32
// CHECK: math.acosh %{{.*}} : f32
// CHECK: math.atanh %{{.*}} : f32
// CHECK: math.floor %{{.*}} : f32
// CHECK: math.ceil %{{.*}} : f32
// CHECK: math.roundeven %{{.*}} : f32
func.func @math_unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.sin %x : tensor<4xf32>
  %1 = graph.cos %0 : tensor<4xf32>
  %2 = graph.tan %1 : tensor<4xf32>
  %3 = graph.asin %2 : tensor<4xf32>
  %4 = graph.acos %3 : tensor<4xf32>
  %5 = graph.atan %4 : tensor<4xf32>
  %6 = graph.sinh %5 : tensor<4xf32>
  %7 = graph.cosh %6 : tensor<4xf32>
  %8 = graph.asinh %7 : tensor<4xf32>
  %9 = graph.acosh %8 : tensor<4xf32>
  %10 = graph.atanh %9 : tensor<4xf32>
  %11 = graph.floor %10 : tensor<4xf32>
  %12 = graph.ceil %11 : tensor<4xf32>
  %13 = graph.round %12 : tensor<4xf32>
  return %13 : tensor<4xf32>
}

// -----

// sign: 1 above zero, -1 below, else +0 or the NaN itself (floats) / 0.
// CHECK-LABEL: func.func @sign
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-DAG: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[M1:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG: %[[POS:.*]] = arith.cmpf ogt, %[[X]], %[[Z]] : f32
// CHECK-DAG: %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[Z]] : f32
// CHECK-DAG: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[REST:.*]] = arith.select %[[NAN]], %[[X]], %[[Z]] : f32
// CHECK: %[[NP:.*]] = arith.select %[[NEG]], %[[M1]], %[[REST]] : f32
// CHECK: %[[R:.*]] = arith.select %[[POS]], %[[ONE]], %[[NP]] : f32
// CHECK: linalg.yield %[[R]] : f32
// CHECK: ^bb0(%[[I:.*]]: i32, %{{.*}}: i32):
// CHECK-DAG: %[[IZ:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[IONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[IM1:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[IPOS:.*]] = arith.cmpi sgt, %[[I]], %[[IZ]] : i32
// CHECK-DAG: %[[INEG:.*]] = arith.cmpi slt, %[[I]], %[[IZ]] : i32
// CHECK: %[[INP:.*]] = arith.select %[[INEG]], %[[IM1]], %[[IZ]] : i32
// CHECK: %[[IR:.*]] = arith.select %[[IPOS]], %[[IONE]], %[[INP]] : i32
// CHECK: linalg.yield %[[IR]] : i32
func.func @sign(%x: tensor<4xf32>, %i: tensor<3xi32>) -> (tensor<4xf32>, tensor<3xi32>) {
  %0 = graph.sign %x : tensor<4xf32>
  %1 = graph.sign %i : tensor<3xi32>
  return %0, %1 : tensor<4xf32>, tensor<3xi32>
}

// -----

// Logical ops are bitwise ops on i1; not is xor with true.
// CHECK-DAG: #[[$VEC:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @logical
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$VEC]], #[[$ID]]]
// CHECK: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: arith.ori %{{.*}}, %{{.*}} : i1
// CHECK: arith.xori %{{.*}}, %{{.*}} : i1
// CHECK: ^bb0(%[[X:.*]]: i1, %{{.*}}: i1):
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[N:.*]] = arith.xori %[[X]], %[[TRUE]] : i1
// CHECK-NEXT: linalg.yield %[[N]] : i1
func.func @logical(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  %0 = graph.and %a, %b : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %1 = graph.or %0, %a : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = graph.xor %1, %a : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %3 = graph.not %2 : tensor<2x3xi1>
  return %3 : tensor<2x3xi1>
}

// -----

// Integer mod never traps: divisors 0 and -1 become 1 (remainder 0), as in
// div. Floor modulo moves a nonzero remainder whose sign differs from the
// divisor's by one divisor; fmod is the bare remainder (remf for floats).
// CHECK-LABEL: func.func @mod
// CHECK: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: i64, %{{.*}}: i64):
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MONE:.*]] = arith.constant -1 : i64
// CHECK: %[[ISZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i64
// CHECK: %[[ISMONE:.*]] = arith.cmpi eq, %[[Y]], %[[MONE]] : i64
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[ISZERO]], %[[ISMONE]] : i1
// CHECK: %[[DIVISOR:.*]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]] : i64
// CHECK: %[[REM:.*]] = arith.remsi %[[X]], %[[DIVISOR]] : i64
// CHECK: %[[XOR:.*]] = arith.xori %[[REM]], %[[Y]] : i64
// CHECK: %[[DIFF:.*]] = arith.cmpi slt, %[[XOR]], %[[ZERO]] : i64
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[REM]], %[[ZERO]] : i64
// CHECK: %[[ADJ:.*]] = arith.andi %[[DIFF]], %[[NZ]] : i1
// CHECK: %[[SUM:.*]] = arith.addi %[[REM]], %[[Y]] : i64
// CHECK: %[[RES:.*]] = arith.select %[[ADJ]], %[[SUM]], %[[REM]] : i64
// CHECK: linalg.yield %[[RES]] : i64
// CHECK: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[D:.*]] = arith.select %{{.*}}, %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.remsi %[[A]], %[[D]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
// CHECK: ^bb0(%[[F:.*]]: f32, %[[G:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[FR:.*]] = arith.remf %[[F]], %[[G]] : f32
// CHECK-NEXT: linalg.yield %[[FR]] : f32
func.func @mod(%a: tensor<4xi64>, %b: tensor<4xi64>, %i: tensor<4xi32>, %j: tensor<4xi32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi64>, tensor<4xi32>, tensor<4xf32>) {
  %0 = graph.mod %a, %b {fmod = false} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = graph.mod %i, %j {fmod = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = graph.mod %x, %y {fmod = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xi64>, tensor<4xi32>, tensor<4xf32>
}

// -----

// Integer pow: square-and-multiply over the exponent's low width - 1 bits
// in an scf.for inside the generic's body; a negative exponent selects 0,
// 1 (base 1) or +-1 (base -1).
// CHECK-LABEL: func.func @pow_int
// CHECK: ^bb0(%[[B:.*]]: i32, %[[E:.*]]: i32, %{{.*}}: i32):
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C31:.*]] = arith.constant 31 : index
// CHECK: %[[LOOP:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[C31]] step %{{.*}} iter_args(%[[R:.*]] = %[[ONE]], %[[P:.*]] = %[[B]], %[[X:.*]] = %[[E]]) -> (i32, i32, i32) {
// CHECK: %[[BIT:.*]] = arith.andi %[[X]], %[[ONE]] : i32
// CHECK: %[[ODD:.*]] = arith.cmpi ne, %[[BIT]], %{{.*}} : i32
// CHECK: %[[M:.*]] = arith.muli %[[R]], %[[P]] : i32
// CHECK: %[[NR:.*]] = arith.select %[[ODD]], %[[M]], %[[R]] : i32
// CHECK: %[[SQ:.*]] = arith.muli %[[P]], %[[P]] : i32
// CHECK: %[[SH:.*]] = arith.shrui %[[X]], %[[ONE]] : i32
// CHECK: scf.yield %[[NR]], %[[SQ]], %[[SH]] : i32, i32, i32
// CHECK: %[[NEGEXP:.*]] = arith.cmpi slt, %[[E]], %{{.*}} : i32
// CHECK: %[[RES:.*]] = arith.select %[[NEGEXP]], %{{.*}}, %[[LOOP]]#0 : i32
// CHECK: linalg.yield %[[RES]] : i32
func.func @pow_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.pow %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
