// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-x86-vnni-dot))' | FileCheck %s

// The kernel's byte dot product becomes one vpdpbusd.
// CHECK-LABEL: func.func @dot
// CHECK-SAME: (%[[ACC:.*]]: vector<16xi32>, %[[X:.*]]: vector<64xi8>, %[[W:.*]]: vector<64xi8>)
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %[[X]], %[[W]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: return %[[R]]
func.func @dot(%acc: vector<16xi32>, %x: vector<64xi8>, %w: vector<64xi8>) -> vector<16xi32> {
  %xw = arith.extui %x : vector<64xi8> to vector<64xi32>
  %ww = arith.extsi %w : vector<64xi8> to vector<64xi32>
  %p = arith.muli %xw, %ww : vector<64xi32>
  %g = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %r = vector.multi_reduction <add>, %g, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

// -----

// Not the instruction's semantics (signed x; groups of 2): left alone.
// CHECK-LABEL: func.func @not_dot
// CHECK-NOT: llvm.call_intrinsic
// CHECK: vector.multi_reduction
// CHECK: vector.multi_reduction
func.func @not_dot(%acc: vector<16xi32>, %acc2: vector<32xi32>, %x: vector<64xi8>, %w: vector<64xi8>) -> (vector<16xi32>, vector<32xi32>) {
  %xs = arith.extsi %x : vector<64xi8> to vector<64xi32>
  %ww = arith.extsi %w : vector<64xi8> to vector<64xi32>
  %p = arith.muli %xs, %ww : vector<64xi32>
  %g = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %r = vector.multi_reduction <add>, %g, %acc [1] : vector<16x4xi32> to vector<16xi32>
  %xu = arith.extui %x : vector<64xi8> to vector<64xi32>
  %q = arith.muli %xu, %ww : vector<64xi32>
  %g2 = vector.shape_cast %q : vector<64xi32> to vector<32x2xi32>
  %r2 = vector.multi_reduction <add>, %g2, %acc2 [1] : vector<32x2xi32> to vector<32xi32>
  return %r, %r2 : vector<16xi32>, vector<32xi32>
}
