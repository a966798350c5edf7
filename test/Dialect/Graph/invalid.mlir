// Verifier and shape-inference errors of every graph op. Inference runs in
// the verifier (InferTypeOpInterface): it reports the specific problem at
// the op, followed by "failed to infer returned types"; a well-formed op
// whose written result type differs from the inferred one gets "inferred
// type(s) ... are incompatible". Ops whose assembly only names the operand
// type (unary ops, softmax) infer their result while parsing, so they only
// report the specific problem.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Operand types shared by all ops
//===----------------------------------------------------------------------===//

func.func @dynamic_operand(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'graph.add' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer or 64-bit unsigned integer or 32-bit unsigned integer or 16-bit unsigned integer or 8-bit unsigned integer values, but got 'tensor<?x3xf32>'}}
  %0 = graph.add %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_operand_unary(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{operand #0 must be a statically shaped ranked tensor, got tensor<?x3xf32>}}
  %0 = graph.relu %a : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @unranked_operand(%a: tensor<*xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.transpose' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer or 1-bit signless integer or 64-bit unsigned integer or 32-bit unsigned integer or 16-bit unsigned integer or 8-bit unsigned integer values, but got 'tensor<*xf32>'}}
  %0 = graph.transpose %a {perm = array<i64: 0>} : (tensor<*xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unranked_operand_unary(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = graph.exp %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @dynamic_result(%a: tensor<2x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'graph.reshape' op result #0 must be statically shaped tensor}}
  %0 = graph.reshape %a {shape = array<i64: 2, 3>} : (tensor<2x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

// -----

func.func @constant_si16() -> tensor<2xsi16> {
  // expected-error @+1 {{'graph.constant' op result #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer or 1-bit signless integer or 64-bit unsigned integer or 32-bit unsigned integer or 16-bit unsigned integer or 8-bit unsigned integer values, but got 'tensor<2xsi16>'}}
  %0 = graph.constant dense<1> : tensor<2xsi16>
  return %0 : tensor<2xsi16>
}

// -----

func.func @constant_wrong_result() -> tensor<3xf32> {
  // expected-error @+2 {{'graph.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'graph.constant' op failed to infer returned types}}
  %0 = "graph.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @constant_not_tensor() -> tensor<2xf32> {
  // expected-error @+1 {{value must be a statically shaped tensor, got vector<2xf32>}}
  %0 = graph.constant dense<1.0> : vector<2xf32>
  return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise binary
//===----------------------------------------------------------------------===//

// -----

func.func @add_wrong_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'graph.add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @add_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{operands are not broadcast-compatible: tensor<2x3xf32>, tensor<4xf32>}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @add_i1(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.add' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer or 64-bit unsigned integer or 32-bit unsigned integer or 16-bit unsigned integer or 8-bit unsigned integer values, but got 'tensor<2xi1>'}}
  %0 = graph.add %a, %a : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @sub_dtype_mismatch(%a: tensor<2xf32>, %b: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{operands must have the same element type, got f32 and i64}}
  // expected-error @+1 {{'graph.sub' op failed to infer returned types}}
  %0 = graph.sub %a, %b : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mul_not_broadcastable(%a: tensor<4x1xi64>, %b: tensor<3x5xi64>) -> tensor<4x5xi64> {
  // expected-error @+2 {{operands are not broadcast-compatible: tensor<4x1xi64>, tensor<3x5xi64>}}
  // expected-error @+1 {{'graph.mul' op failed to infer returned types}}
  %0 = graph.mul %a, %b : (tensor<4x1xi64>, tensor<3x5xi64>) -> tensor<4x5xi64>
  return %0 : tensor<4x5xi64>
}

// -----

func.func @div_wrong_result(%a: tensor<4x1xi32>, %b: tensor<5xi32>) -> tensor<4x1xi32> {
  // expected-error @+2 {{'graph.div' op inferred type(s) 'tensor<4x5xi32>' are incompatible with return type(s) of operation 'tensor<4x1xi32>'}}
  // expected-error @+1 {{'graph.div' op failed to infer returned types}}
  %0 = graph.div %a, %b : (tensor<4x1xi32>, tensor<5xi32>) -> tensor<4x1xi32>
  return %0 : tensor<4x1xi32>
}

// -----

func.func @div_result_dtype(%a: tensor<2xi32>) -> tensor<2xi64> {
  // expected-error @+2 {{'graph.div' op inferred type(s) 'tensor<2xi32>' are incompatible with return type(s) of operation 'tensor<2xi64>'}}
  // expected-error @+1 {{'graph.div' op failed to infer returned types}}
  %0 = graph.div %a, %a : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @pow_i1(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.pow' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer values, but got 'tensor<2xi1>'}}
  %0 = graph.pow %a, %a : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @pow_mixed(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+2 {{operands must have the same element type, got f32 and i32}}
  // expected-error @+1 {{'graph.pow' op failed to infer returned types}}
  %0 = graph.pow %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @max_dtype_mismatch(%a: tensor<2xi32>, %b: tensor<2xi64>) -> tensor<2xi32> {
  // expected-error @+2 {{operands must have the same element type, got i32 and i64}}
  // expected-error @+1 {{'graph.max' op failed to infer returned types}}
  %0 = graph.max %a, %b : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @min_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{operands are not broadcast-compatible: tensor<2x3xf32>, tensor<2xf32>}}
  // expected-error @+1 {{'graph.min' op failed to infer returned types}}
  %0 = graph.min %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

// -----

func.func @neg_wrong_result(%a: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'graph.neg' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'graph.neg' op failed to infer returned types}}
  %0 = "graph.neg"(%a) : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @neg_i1(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.neg' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer values, but got 'tensor<2xi1>'}}
  %0 = graph.neg %a : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @abs_i1(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.abs' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer values, but got 'tensor<2xi1>'}}
  %0 = graph.abs %a : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @relu_wrong_result(%a: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'graph.relu' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'graph.relu' op failed to infer returned types}}
  %0 = "graph.relu"(%a) : (tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @exp_i64(%a: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.exp' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi64>'}}
  %0 = graph.exp %a : tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @log_i32(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.log' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi32>'}}
  %0 = graph.log %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @sqrt_i64(%a: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.sqrt' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi64>'}}
  %0 = graph.sqrt %a : tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @rsqrt_i1(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.rsqrt' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi1>'}}
  %0 = graph.rsqrt %a : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @tanh_i8(%a: tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'graph.tanh' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi8>'}}
  %0 = graph.tanh %a : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @sigmoid_wrong_result(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'graph.sigmoid' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'graph.sigmoid' op failed to infer returned types}}
  %0 = "graph.sigmoid"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @erf_i64(%a: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.erf' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi64>'}}
  %0 = graph.erf %a : tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @gelu_i32(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.gelu' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi32>'}}
  %0 = graph.gelu %a {tanh_approximation} : tensor<2xi32>
  return %0 : tensor<2xi32>
}

//===----------------------------------------------------------------------===//
// Compare, select, cast
//===----------------------------------------------------------------------===//

// -----

func.func @compare_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xi1> {
  // expected-error @+2 {{operands are not broadcast-compatible: tensor<2x3xf32>, tensor<2xf32>}}
  // expected-error @+1 {{'graph.compare' op failed to infer returned types}}
  %0 = graph.compare lt, %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @compare_dtype_mismatch(%a: tensor<2xi64>, %b: tensor<2xi32>) -> tensor<2xi1> {
  // expected-error @+2 {{operands must have the same element type, got i64 and i32}}
  // expected-error @+1 {{'graph.compare' op failed to infer returned types}}
  %0 = graph.compare eq, %a, %b : (tensor<2xi64>, tensor<2xi32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @compare_result_not_bool(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.compare' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = graph.compare gt, %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @compare_wrong_result(%a: tensor<2x1xf32>, %b: tensor<3xf32>) -> tensor<2x1xi1> {
  // expected-error @+2 {{'graph.compare' op inferred type(s) 'tensor<2x3xi1>' are incompatible with return type(s) of operation 'tensor<2x1xi1>'}}
  // expected-error @+1 {{'graph.compare' op failed to infer returned types}}
  %0 = graph.compare ge, %a, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x1xi1>
  return %0 : tensor<2x1xi1>
}

// -----

func.func @compare_bad_predicate(%a: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{custom op 'graph.compare' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = graph.compare neq, %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @select_condition_not_bool(%c: tensor<2xf32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.select' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = graph.select %c, %a, %a : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @select_dtype_mismatch(%c: tensor<2xi1>, %a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+2 {{selected values must have the same element type, got f32 and i32}}
  // expected-error @+1 {{'graph.select' op failed to infer returned types}}
  %0 = graph.select %c, %a, %b : (tensor<2xi1>, tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @select_condition_not_broadcastable(%c: tensor<3xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{operands are not broadcast-compatible: tensor<3xi1>, tensor<2xf32>, tensor<2xf32>}}
  // expected-error @+1 {{'graph.select' op failed to infer returned types}}
  %0 = graph.select %c, %a, %a : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @select_wrong_result(%c: tensor<2x1xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'graph.select' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'graph.select' op failed to infer returned types}}
  %0 = graph.select %c, %a, %a : (tensor<2x1xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @cast_to_si16(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{cannot cast to si16: supported element types are f32, f64, f16, bf16, i64, i32, i16, i8, ui64, ui32, ui16, ui8, i1}}
  // expected-error @+1 {{'graph.cast' op failed to infer returned types}}
  %0 = graph.cast %a {to = si16} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @cast_wrong_result(%a: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+2 {{'graph.cast' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<2xi32>'}}
  // expected-error @+1 {{'graph.cast' op failed to infer returned types}}
  %0 = graph.cast %a {to = i64} : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @cast_missing_to(%a: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.cast' op requires attribute 'to'}}
  %0 = graph.cast %a : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_k_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{matmul contraction dimensions differ: lhs tensor<2x3xf32> has K = 3 but rhs tensor<4x5xf32> has K = 4}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_rank_1(%a: tensor<3xf32>, %b: tensor<3x5xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{matmul operands must have rank >= 2, got tensor<3xf32> and tensor<3x5xf32>}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+2 {{matmul batch dimensions are not broadcast-compatible: tensor<2x3x4xf32> and tensor<3x4x5xf32>}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @matmul_dtype_mismatch(%a: tensor<2x3xf32>, %b: tensor<3x5xi64>) -> tensor<2x5xf32> {
  // expected-error @+2 {{matmul operands must have the same element type, got f32 and i64}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xi64>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_wrong_result(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{'graph.matmul' op inferred type(s) 'tensor<2x3x5xf32>' are incompatible with return type(s) of operation 'tensor<3x5xf32>'}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

//===----------------------------------------------------------------------===//
// Conv2D
//===----------------------------------------------------------------------===//

// -----

func.func @conv_input_rank(%x: tensor<4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{conv2d input must have rank 4, got tensor<4x8x8xf32>}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_filter_rank(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{conv2d filter must have rank 4, got tensor<6x4x3xf32>}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_channel_mismatch(%x: tensor<1x4x8x8xf32>, %w: tensor<6x3x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{filter tensor<6x3x3x3xf32> expects 3 input channels but the input tensor<1x4x8x8xf32> has 4}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_group_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // With 2 groups each filter sees 4 / 2 = 2 channels, not 4.
  // expected-error @+2 {{filter tensor<6x4x3x3xf32> expects 8 input channels but the input tensor<1x4x8x8xf32> has 4}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_groups_not_dividing(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{input channels (4) and output channels (6) must be divisible by groups (4)}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_groups_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{groups must be positive, got 0}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_bias_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{bias must have shape [6], got tensor<4xf32>}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<4xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_window_too_big(%x: tensor<1x4x4x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x1x6xf32> {
  // Dilation 2 makes the window 5 rows tall; the input has 4 + 0 rows.
  // expected-error @+2 {{window of effective size 5 does not fit in padded height size 4}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 1>, groups = 1 : i64} : (tensor<1x4x4x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x1x6xf32>
  return %0 : tensor<1x6x1x6xf32>
}

// -----

func.func @conv_window_too_wide(%x: tensor<1x4x8x2xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x1xf32> {
  // expected-error @+2 {{window of effective size 3 does not fit in padded width size 2}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x2xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x1xf32>
  return %0 : tensor<1x6x6x1xf32>
}

// -----

func.func @conv_strides_count(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{'strides' must have 2 entries, got 1}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_zero_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{'strides' entries must be positive, got [1,0]}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 0>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_negative_pad(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{'pads' entries must be non-negative, got [0,-1,0,0]}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, -1, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_pads_count(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{'pads' must have 4 entries, got 2}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_zero_dilation(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{'dilations' entries must be positive, got [0,1]}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 0, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_wrong_result(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x8x8xf32> {
  // expected-error @+2 {{'graph.conv2d' op inferred type(s) 'tensor<1x6x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x6x8x8xf32>'}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x8x8xf32>
  return %0 : tensor<1x6x8x8xf32>
}

// -----

func.func @conv_missing_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'graph.conv2d' op requires attribute 'groups'}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_i64(%x: tensor<1x4x8x8xi64>, %w: tensor<6x4x3x3xi64>) -> tensor<1x6x6x6xi64> {
  // expected-error @+1 {{'graph.conv2d' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<1x4x8x8xi64>'}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xi64>, tensor<6x4x3x3xi64>) -> tensor<1x6x6x6xi64>
  return %0 : tensor<1x6x6x6xi64>
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// -----

func.func @maxpool_pad_not_smaller_than_kernel(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x10x8xf32> {
  // The bottom pad (index 2) equals the kernel height.
  // expected-error @+2 {{pads [0,0,2,0] must be smaller than the kernel [2,2]}}
  // expected-error @+1 {{'graph.maxpool2d' op failed to infer returned types}}
  %0 = graph.maxpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 2, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x10x8xf32>
  return %0 : tensor<1x3x10x8xf32>
}

// -----

func.func @maxpool_kernel_count(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32> {
  // expected-error @+2 {{'kernel' must have 2 entries, got 3}}
  // expected-error @+1 {{'graph.maxpool2d' op failed to infer returned types}}
  %0 = graph.maxpool2d %x {kernel = array<i64: 2, 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return %0 : tensor<1x3x7x7xf32>
}

// -----

func.func @maxpool_window_too_big(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32> {
  // Kernel 3 with dilation 4 spans 9 columns.
  // expected-error @+2 {{window of effective size 9 does not fit in padded width size 8}}
  // expected-error @+1 {{'graph.maxpool2d' op failed to infer returned types}}
  %0 = graph.maxpool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 4>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

func.func @maxpool_rank(%x: tensor<3x8x8xf32>) -> tensor<3x7x7xf32> {
  // expected-error @+2 {{pooling input must have rank 4, got tensor<3x8x8xf32>}}
  // expected-error @+1 {{'graph.maxpool2d' op failed to infer returned types}}
  %0 = graph.maxpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<3x8x8xf32>) -> tensor<3x7x7xf32>
  return %0 : tensor<3x7x7xf32>
}

// -----

func.func @maxpool_missing_dilations(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32> {
  // expected-error @+1 {{'graph.maxpool2d' op requires attribute 'dilations'}}
  %0 = graph.maxpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return %0 : tensor<1x3x7x7xf32>
}

// -----

func.func @avgpool_pad_not_smaller_than_kernel(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x11xf32> {
  // The left pad (index 1) is larger than the kernel width.
  // expected-error @+2 {{pads [0,4,0,0] must be smaller than the kernel [1,2]}}
  // expected-error @+1 {{'graph.avgpool2d' op failed to infer returned types}}
  %0 = graph.avgpool2d %x {kernel = array<i64: 1, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 4, 0, 0>, count_include_pad = true} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x11xf32>
  return %0 : tensor<1x3x8x11xf32>
}

// -----

func.func @avgpool_zero_kernel(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+2 {{'kernel' entries must be positive, got [0,1]}}
  // expected-error @+1 {{'graph.avgpool2d' op failed to infer returned types}}
  %0 = graph.avgpool2d %x {kernel = array<i64: 0, 1>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, count_include_pad = true} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @avgpool_missing_count_include_pad(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32> {
  // expected-error @+1 {{'graph.avgpool2d' op requires attribute 'count_include_pad'}}
  %0 = graph.avgpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return %0 : tensor<1x3x7x7xf32>
}

// -----

func.func @avgpool_wrong_result(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'graph.avgpool2d' op inferred type(s) 'tensor<1x3x7x7xf32>' are incompatible with return type(s) of operation 'tensor<1x3x4x4xf32>'}}
  // expected-error @+1 {{'graph.avgpool2d' op failed to infer returned types}}
  %0 = graph.avgpool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, count_include_pad = false} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @global_avgpool_rank(%x: tensor<3x8x8xf32>) -> tensor<3x1x1xf32> {
  // expected-error @+2 {{global_avgpool input must have rank 4, got tensor<3x8x8xf32>}}
  // expected-error @+1 {{'graph.global_avgpool' op failed to infer returned types}}
  %0 = graph.global_avgpool %x : (tensor<3x8x8xf32>) -> tensor<3x1x1xf32>
  return %0 : tensor<3x1x1xf32>
}

// -----

func.func @global_avgpool_wrong_result(%x: tensor<2x3x8x8xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'graph.global_avgpool' op inferred type(s) 'tensor<2x3x1x1xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'graph.global_avgpool' op failed to infer returned types}}
  %0 = graph.global_avgpool %x : (tensor<2x3x8x8xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

// -----

func.func @batch_norm_param_shape(%x: tensor<2x3x4x4xf32>, %c: tensor<3xf32>, %v: tensor<4xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+2 {{batch_norm variance must have shape [3] (the input's channel count), got tensor<4xf32>}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %c, %v {epsilon = 1.0e-5 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_param_rank(%x: tensor<2x3x4x4xf32>, %c: tensor<3xf32>, %s: tensor<3x1xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+2 {{batch_norm scale must have shape [3] (the input's channel count), got tensor<3x1xf32>}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %s, %c, %c, %c {epsilon = 1.0e-5 : f32} : (tensor<2x3x4x4xf32>, tensor<3x1xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_rank_1(%x: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{batch_norm input must have rank >= 2 (N, C, ...), got tensor<3xf32>}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-5 : f32} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @batch_norm_missing_epsilon(%x: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'graph.batch_norm' op requires attribute 'epsilon'}}
  %0 = graph.batch_norm %x, %c, %c, %c, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{layer_norm axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %s, %s {axis = 2 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_negative_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{layer_norm axis -1 must be in [0, 2)}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %s, %s {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_scale_shape(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // Axis 1 normalizes over [3, 4], so scale must be [3, 4].
  // expected-error @+2 {{layer_norm scale must have shape [3,4], got tensor<4xf32>}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %s, %s {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @layer_norm_bias_shape(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %b: tensor<1x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{layer_norm bias must have shape [4], got tensor<1x4xf32>}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %s, %b {axis = 2 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<1x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{axis 2 must be in [0, 2)}}
  %0 = graph.softmax %x {axis = 2 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_missing_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{requires attribute 'axis'}}
  %0 = graph.softmax %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_wrong_result(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'graph.softmax' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'graph.softmax' op failed to infer returned types}}
  %0 = "graph.softmax"(%x) <{axis = 1 : i64}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @log_softmax_negative_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{axis -1 must be in [0, 2)}}
  %0 = graph.log_softmax %x {axis = -1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @log_softmax_i32(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'graph.log_softmax' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2x3xi32>'}}
  %0 = graph.log_softmax %x {axis = 1 : i64} : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_sum_axis(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{reduction axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.reduce_sum' op failed to infer returned types}}
  %0 = graph.reduce_sum %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_mean_repeated_axis(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{reduction axis 1 appears twice}}
  // expected-error @+1 {{'graph.reduce_mean' op failed to infer returned types}}
  %0 = graph.reduce_mean %x {axes = array<i64: 1, 1>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_mean_i64(%x: tensor<2x3xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.reduce_mean' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2x3xi64>'}}
  %0 = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @reduce_max_negative_axis(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error @+2 {{reduction axis -1 must be in [0, 2)}}
  // expected-error @+1 {{'graph.reduce_max' op failed to infer returned types}}
  %0 = graph.reduce_max %x {axes = array<i64: -1>, keepdims = false} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reduce_max_keepdims_result(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'graph.reduce_max' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'graph.reduce_max' op failed to infer returned types}}
  %0 = graph.reduce_max %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_sum_missing_keepdims(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op requires attribute 'keepdims'}}
  %0 = graph.reduce_sum %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<4x2xf32> {
  // expected-error @+2 {{cannot reshape tensor<2x3xf32> (6 elements) to [4,2] (8 elements)}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 4, 2>} : (tensor<2x3xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @reshape_two_inferred(%x: tensor<2x3xf32>) -> tensor<6x1xf32> {
  // expected-error @+2 {{reshape shape [-1,-1] has more than one -1}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: -1, -1>} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return %0 : tensor<6x1xf32>
}

// -----

func.func @reshape_inferred_not_divisible(%x: tensor<2x3xf32>) -> tensor<4x1xf32> {
  // expected-error @+2 {{cannot reshape tensor<2x3xf32> to [4,-1]}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 4, -1>} : (tensor<2x3xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @reshape_negative(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  // expected-error @+2 {{reshape shape [-6] has a negative dimension}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: -6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @reshape_wrong_result(%x: tensor<2x3xi1>) -> tensor<6xi1> {
  // expected-error @+2 {{'graph.reshape' op inferred type(s) 'tensor<3x2xi1>' are incompatible with return type(s) of operation 'tensor<6xi1>'}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 3, -1>} : (tensor<2x3xi1>) -> tensor<6xi1>
  return %0 : tensor<6xi1>
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3x4xf32>) -> tensor<2x2x4xf32> {
  // expected-error @+2 {{perm [0,0,2] is not a permutation of [0, 3)}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 0, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{perm [1,2] is not a permutation of [0, 2)}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_perm_length(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{perm [1,0,2] must have 2 entries}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_wrong_result(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  // expected-error @+2 {{'graph.transpose' op inferred type(s) 'tensor<3x4x2xf32>' are incompatible with return type(s) of operation 'tensor<4x3x2xf32>'}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

func.func @concat_rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{concat input #1 tensor<3xf32> has a different rank than input #0 tensor<2x3xf32>}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_dim_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<4x3xf32>) -> tensor<2x9xf32> {
  // expected-error @+2 {{concat input #2 tensor<4x3xf32> differs from input #0 tensor<2x3xf32> in dimension 0}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b, %c {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{concat axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_dtype_mismatch(%a: tensor<2xi64>, %b: tensor<2xi32>) -> tensor<4xi64> {
  // expected-error @+2 {{concat inputs must have the same element type, got i64 and i32}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @concat_no_inputs() -> tensor<2xf32> {
  // expected-error @+2 {{concat needs at least one input}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat {axis = 0 : i64} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concat_wrong_result(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'graph.concat' op inferred type(s) 'tensor<2x8xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_end_past_size(%x: tensor<10x8xf32>) -> tensor<3x8xf32> {
  // expected-error @+2 {{slice bounds [0, 9) in dimension 1 must satisfy 0 <= start <= end <= 8}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 2, 0>, ends = array<i64: 5, 9>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @slice_start_after_end(%x: tensor<10x8xf32>) -> tensor<0x8xf32> {
  // expected-error @+2 {{slice bounds [5, 2) in dimension 0 must satisfy 0 <= start <= end <= 10}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 5, 0>, ends = array<i64: 2, 8>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<10xf32>) -> tensor<1xf32> {
  // expected-error @+2 {{slice bounds [-1, 10) in dimension 0 must satisfy 0 <= start <= end <= 10}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: -1>, ends = array<i64: 10>, steps = array<i64: 1>} : (tensor<10xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<10x8xf32>) -> tensor<3x8xf32> {
  // expected-error @+2 {{slice step 0 in dimension 1 must be positive}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 2, 0>, ends = array<i64: 5, 8>, steps = array<i64: 1, 0>} : (tensor<10x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @slice_negative_step(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+2 {{slice step -1 in dimension 0 must be positive}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 10>, steps = array<i64: -1>} : (tensor<10xf32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

func.func @slice_entry_count(%x: tensor<10x8xf32>) -> tensor<3x8xf32> {
  // expected-error @+2 {{starts, ends and steps must each have 2 entries}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 2>, ends = array<i64: 5, 8>, steps = array<i64: 1, 1>} : (tensor<10x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @slice_wrong_result(%x: tensor<10xf32>) -> tensor<3xf32> {
  // [0, 10) by 3 has 4 elements: 0, 3, 6, 9.
  // expected-error @+2 {{'graph.slice' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 10>, steps = array<i64: 3>} : (tensor<10xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_axis(%d: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<5x3xf32> {
  // expected-error @+2 {{gather axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %d, %i {axis = 2 : i64} : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @gather_float_indices(%d: tensor<5x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'graph.gather' op operand #1 must be statically shaped tensor of 64-bit signless integer or 32-bit signless integer values, but got 'tensor<3xf32>'}}
  %0 = graph.gather %d, %i {axis = 0 : i64} : (tensor<5x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_bool_indices(%d: tensor<5x4xf32>, %i: tensor<3xi1>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'graph.gather' op operand #1 must be statically shaped tensor of 64-bit signless integer or 32-bit signless integer values, but got 'tensor<3xi1>'}}
  %0 = graph.gather %d, %i {axis = 0 : i64} : (tensor<5x4xf32>, tensor<3xi1>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_wrong_result(%d: tensor<5x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'graph.gather' op inferred type(s) 'tensor<5x2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %d, %i {axis = 1 : i64} : (tensor<5x4xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @pad_count(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'pads' must have 4 entries, got 2}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %x {pads = array<i64: 1, 1>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @pad_negative(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'pads' entries must be non-negative, got [0,0,0,-1]}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %x {pads = array<i64: 0, 0, 0, -1>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @pad_wrong_result(%x: tensor<2x3xi64>) -> tensor<4x3xi64> {
  // Leading pads first: [1, 0] before, [0, 2] after gives 3x5.
  // expected-error @+2 {{'graph.pad' op inferred type(s) 'tensor<3x5xi64>' are incompatible with return type(s) of operation 'tensor<4x3xi64>'}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %x {pads = array<i64: 1, 0, 0, 2>, value = 0.0 : f64} : (tensor<2x3xi64>) -> tensor<4x3xi64>
  return %0 : tensor<4x3xi64>
}

// -----

func.func @pad_missing_value(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'graph.pad' op requires attribute 'value'}}
  %0 = graph.pad %x {pads = array<i64: 0, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @sin_int(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.sin' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi32>'}}
  %0 = graph.sin %x : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @round_int(%x: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.round' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type values, but got 'tensor<2xi64>'}}
  %0 = graph.round %x : tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @acosh_wrong_result(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'graph.acosh' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'graph.acosh' op failed to infer returned types}}
  %0 = "graph.acosh"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @sign_bool(%x: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.sign' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer values, but got 'tensor<2xi1>'}}
  %0 = graph.sign %x : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @and_float(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.and' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = graph.and %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @or_broadcast(%a: tensor<2x3xi1>, %b: tensor<2xi1>) -> tensor<2x3xi1> {
  // expected-error @+2 {{operands are not broadcast-compatible: tensor<2x3xi1>, tensor<2xi1>}}
  // expected-error @+1 {{'graph.or' op failed to infer returned types}}
  %0 = graph.or %a, %b : (tensor<2x3xi1>, tensor<2xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @xor_wrong_result(%a: tensor<2x1xi1>, %b: tensor<3xi1>) -> tensor<2x1xi1> {
  // expected-error @+2 {{'graph.xor' op inferred type(s) 'tensor<2x3xi1>' are incompatible with return type(s) of operation 'tensor<2x1xi1>'}}
  // expected-error @+1 {{'graph.xor' op failed to infer returned types}}
  %0 = graph.xor %a, %b : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x1xi1>
  return %0 : tensor<2x1xi1>
}

// -----

func.func @not_int(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.not' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2xi32>'}}
  %0 = graph.not %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @mod_float_floor(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{mod of f32 needs fmod = true: floor modulo (fmod = false) is defined for integers only}}
  // expected-error @+1 {{'graph.mod' op failed to infer returned types}}
  %0 = graph.mod %a, %b {fmod = false} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mod_missing_fmod(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.mod' op requires attribute 'fmod'}}
  %0 = graph.mod %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @mod_mixed(%a: tensor<2xi32>, %b: tensor<2xi64>) -> tensor<2xi32> {
  // expected-error @+2 {{operands must have the same element type, got i32 and i64}}
  // expected-error @+1 {{'graph.mod' op failed to infer returned types}}
  %0 = graph.mod %a, %b {fmod = true} : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @mod_bool(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.mod' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer or 64-bit unsigned integer or 32-bit unsigned integer or 16-bit unsigned integer or 8-bit unsigned integer values, but got 'tensor<2xi1>'}}
  %0 = graph.mod %a, %b {fmod = true} : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @reduce_min_axis_range(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{reduction axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.reduce_min' op failed to infer returned types}}
  %0 = graph.reduce_min %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_prod_duplicate_axis(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error @+2 {{reduction axis 1 appears twice}}
  // expected-error @+1 {{'graph.reduce_prod' op failed to infer returned types}}
  %0 = graph.reduce_prod %x {axes = array<i64: 1, 1>, keepdims = false} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reduce_prod_bool(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.reduce_prod' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer values, but got 'tensor<2x3xi1>'}}
  %0 = graph.reduce_prod %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @reduce_min_missing_keepdims(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.reduce_min' op requires attribute 'keepdims'}}
  %0 = graph.reduce_min %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @argmax_axis(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  // expected-error @+2 {{axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.argmax' op failed to infer returned types}}
  %0 = graph.argmax %x {axis = 2 : i64, keepdims = false, select_last_index = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @argmin_empty(%x: tensor<3x0xf32>) -> tensor<3xi64> {
  // expected-error @+2 {{cannot take an index along dimension 1 of tensor<3x0xf32>: it is empty}}
  // expected-error @+1 {{'graph.argmin' op failed to infer returned types}}
  %0 = graph.argmin %x {axis = 1 : i64, keepdims = false, select_last_index = false} : (tensor<3x0xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @argmax_result_type(%x: tensor<3x4xf32>) -> tensor<3xi32> {
  // expected-error @+1 {{'graph.argmax' op result #0 must be statically shaped tensor of 64-bit signless integer values, but got 'tensor<3xi32>'}}
  %0 = graph.argmax %x {axis = 1 : i64, keepdims = false, select_last_index = false} : (tensor<3x4xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @argmax_keepdims_shape(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  // expected-error @+2 {{'graph.argmax' op inferred type(s) 'tensor<3x1xi64>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  // expected-error @+1 {{'graph.argmax' op failed to infer returned types}}
  %0 = graph.argmax %x {axis = 1 : i64, keepdims = true, select_last_index = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @argmin_missing_attr(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  // expected-error @+1 {{'graph.argmin' op requires attribute 'select_last_index'}}
  %0 = graph.argmin %x {axis = 1 : i64, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @gather_elements_rank(%d: tensor<3x4xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+2 {{gather_elements indices tensor<4xi64> must have the rank of the data tensor<3x4xf32>}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %d, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_elements_larger(%d: tensor<3x4xf32>, %i: tensor<2x5xi64>) -> tensor<2x5xf32> {
  // expected-error @+2 {{gather_elements indices tensor<2x5xi64> are larger than the data tensor<3x4xf32> in dimension 1}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %d, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2x5xi64>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gather_elements_axis(%d: tensor<3x4xf32>, %i: tensor<3x4xi32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{gather_elements axis 2 must be in [0, 2)}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %d, %i {axis = 2 : i64} : (tensor<3x4xf32>, tensor<3x4xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_elements_float_indices(%d: tensor<3x4xf32>, %i: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'graph.gather_elements' op operand #1 must be statically shaped tensor of 64-bit signless integer or 32-bit signless integer values, but got 'tensor<3x4xf32>'}}
  %0 = graph.gather_elements %d, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @broadcast_to_incompatible(%x: tensor<3x2xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{cannot broadcast tensor<3x2xf32> to shape [3,4]}}
  // expected-error @+1 {{'graph.broadcast_to' op failed to infer returned types}}
  %0 = graph.broadcast_to %x {shape = array<i64: 3, 4>} : (tensor<3x2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @broadcast_to_negative(%x: tensor<3x1xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{broadcast_to shape [-1,4] has a negative dimension}}
  // expected-error @+1 {{'graph.broadcast_to' op failed to infer returned types}}
  %0 = graph.broadcast_to %x {shape = array<i64: -1, 4>} : (tensor<3x1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @broadcast_to_wrong_result(%x: tensor<3x1xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'graph.broadcast_to' op inferred type(s) 'tensor<2x3x4xf32>' are incompatible with return type(s) of operation 'tensor<3x4xf32>'}}
  // expected-error @+1 {{'graph.broadcast_to' op failed to infer returned types}}
  %0 = graph.broadcast_to %x {shape = array<i64: 2, 1, 4>} : (tensor<3x1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @cumsum_axis(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{cumsum axis -1 must be in [0, 2)}}
  // expected-error @+1 {{'graph.cumsum' op failed to infer returned types}}
  %0 = graph.cumsum %x {axis = -1 : i64, exclusive = false, reverse = false} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @cumsum_missing_reverse(%x: tensor<3x4xi32>) -> tensor<3x4xi32> {
  // expected-error @+1 {{'graph.cumsum' op requires attribute 'reverse'}}
  %0 = graph.cumsum %x {axis = 0 : i64, exclusive = false} : (tensor<3x4xi32>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

func.func @cumsum_bool(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'graph.cumsum' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or 16-bit float or bfloat16 type or 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer values, but got 'tensor<3xi1>'}}
  %0 = graph.cumsum %x {axis = 0 : i64, exclusive = false, reverse = false} : (tensor<3xi1>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @shift_float(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.shift_left' op operand #0 must be statically shaped tensor of}}
  %0 = graph.shift_left %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @neg_unsigned(%a: tensor<2xui32>) -> tensor<2xui32> {
  // expected-error @+1 {{'graph.neg' op operand #0 must be statically shaped tensor of}}
  %0 = graph.neg %a : tensor<2xui32>
  return %0 : tensor<2xui32>
}

// -----

func.func @add_mixed_signedness(%a: tensor<2xui32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+2 {{operands must have the same element type, got ui32 and i32}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2xui32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
