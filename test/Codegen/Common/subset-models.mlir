// RUN: mlc-opt %s --split-input-file --one-shot-bufferize="test-analysis-only bufferize-function-boundaries" | FileCheck %s

// mlc's tensor slice subset models (SubsetModels.cpp) decide plainly what
// they can and ask the value-bounds solver about the rest. A write into an
// extract_slice of %t is in place when the insert_slice puts it back at an
// equivalent subset of %t, and copied when it may not be.

// The same SSA offset: equivalent, without the solver.
// CHECK-LABEL: func.func @same_value
// CHECK: tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["true", "none"]}
// CHECK: tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true", "none"]}
func.func @same_value(%t: tensor<8xf32>, %i: index, %v: f32) -> tensor<8xf32> {
  %e = tensor.extract_slice %t[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %w into %t[%i] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Two unrelated offsets: not known equivalent, so the slice is a copy.
// CHECK-LABEL: func.func @other_value
// CHECK: tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["false", "none"]}
func.func @other_value(%t: tensor<8xf32>, %i: index, %j: index, %v: f32) -> tensor<8xf32> {
  %e = tensor.extract_slice %t[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %w into %t[%j] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Two SSA values the solver proves equal (%i + 0 and %i): equivalent.
// CHECK-LABEL: func.func @proven_equal
// CHECK: tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["true", "none"]}
// CHECK: tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true", "none"]}
func.func @proven_equal(%t: tensor<8xf32>, %i: index, %v: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %k = arith.addi %i, %c0 : index
  %e = tensor.extract_slice %t[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %w into %t[%k] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Constant offsets: equal ones are equivalent, 0 and 1 are not.
// CHECK-LABEL: func.func @constants
// CHECK: tensor.extract_slice %{{.*}}[2] [4] [1] {__inplace_operands_attr__ = ["true"]}
// CHECK: tensor.insert_slice %{{.*}}[2] [4] [1] {__inplace_operands_attr__ = ["true", "true"]}
// CHECK: tensor.extract_slice %{{.*}}[0] [4] [1] {__inplace_operands_attr__ = ["false"]}
func.func @constants(%t: tensor<8xf32>, %v: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %w into %t[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %e2 = tensor.extract_slice %r[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %w2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r2 = tensor.insert_slice %w2 into %r[1] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r, %r2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A parallel insert at the forall's own offsets: the shared output is
// written in place.
// CHECK-LABEL: func.func @forall
// CHECK: tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["true", "none"]}
// CHECK: tensor.parallel_insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true", "none"]}
func.func @forall(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%o = %t) -> tensor<8xf32> {
    %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %e = tensor.extract_slice %o[%off] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %w = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[%off] [4] [1] : tensor<4xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
