// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mlc-x86-int-dot))' | FileCheck %s

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

// -----

// Pairs of int16 products per lane: acc + vpmaddwd, 8 lanes (AVX2) or 16
// (AVX-512BW).
// CHECK-LABEL: func.func @pairs
// CHECK-SAME: (%[[ACC:.*]]: vector<8xi32>, %[[X:.*]]: vector<16xi16>, %[[W:.*]]: vector<16xi16>, %[[ACC2:.*]]: vector<16xi32>, %[[X2:.*]]: vector<32xi16>, %[[W2:.*]]: vector<32xi16>)
// CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[X]], %[[W]]) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// CHECK: %[[R:.*]] = arith.addi %[[ACC]], %[[P]] : vector<8xi32>
// CHECK: %[[P2:.*]] = llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"(%[[X2]], %[[W2]]) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// CHECK: %[[R2:.*]] = arith.addi %[[ACC2]], %[[P2]] : vector<16xi32>
// CHECK: return %[[R]], %[[R2]]
func.func @pairs(%acc: vector<8xi32>, %x: vector<16xi16>, %w: vector<16xi16>, %acc2: vector<16xi32>, %x2: vector<32xi16>, %w2: vector<32xi16>) -> (vector<8xi32>, vector<16xi32>) {
  %xw = arith.extsi %x : vector<16xi16> to vector<16xi32>
  %ww = arith.extsi %w : vector<16xi16> to vector<16xi32>
  %p = arith.muli %xw, %ww : vector<16xi32>
  %g = vector.shape_cast %p : vector<16xi32> to vector<8x2xi32>
  %r = vector.multi_reduction <add>, %g, %acc [1] : vector<8x2xi32> to vector<8xi32>
  %xw2 = arith.extsi %x2 : vector<32xi16> to vector<32xi32>
  %ww2 = arith.extsi %w2 : vector<32xi16> to vector<32xi32>
  %p2 = arith.muli %xw2, %ww2 : vector<32xi32>
  %g2 = vector.shape_cast %p2 : vector<32xi32> to vector<16x2xi32>
  %r2 = vector.multi_reduction <add>, %g2, %acc2 [1] : vector<16x2xi32> to vector<16xi32>
  return %r, %r2 : vector<8xi32>, vector<16xi32>
}

// -----

// Unsigned int16 (vpmaddwd multiplies signed) or 4 lanes: left alone.
// CHECK-LABEL: func.func @not_pairs
// CHECK-NOT: llvm.call_intrinsic
// CHECK: vector.multi_reduction
// CHECK: vector.multi_reduction
func.func @not_pairs(%acc: vector<8xi32>, %x: vector<16xi16>, %w: vector<16xi16>, %acc4: vector<4xi32>, %x4: vector<8xi16>) -> (vector<8xi32>, vector<4xi32>) {
  %xu = arith.extui %x : vector<16xi16> to vector<16xi32>
  %ww = arith.extsi %w : vector<16xi16> to vector<16xi32>
  %p = arith.muli %xu, %ww : vector<16xi32>
  %g = vector.shape_cast %p : vector<16xi32> to vector<8x2xi32>
  %r = vector.multi_reduction <add>, %g, %acc [1] : vector<8x2xi32> to vector<8xi32>
  %x4w = arith.extsi %x4 : vector<8xi16> to vector<8xi32>
  %p4 = arith.muli %x4w, %x4w : vector<8xi32>
  %g4 = vector.shape_cast %p4 : vector<8xi32> to vector<4x2xi32>
  %r4 = vector.multi_reduction <add>, %g4, %acc4 [1] : vector<4x2xi32> to vector<4xi32>
  return %r, %r4 : vector<8xi32>, vector<4xi32>
}

// -----

// Weights clamped to [-64, 64] (known to be within it): 4 uint8 x int8
// products per lane as acc + vpmaddwd(vpmaddubsw(x, w), 1), 8 lanes (AVX2)
// or 16 (AVX-512BW).
// CHECK-LABEL: func.func @narrow_bytes
// CHECK-SAME: (%[[ACC:.*]]: vector<8xi32>, %[[X:.*]]: vector<32xi8>, %[[W:.*]]: vector<32xi8>, %[[ACC2:.*]]: vector<16xi32>, %[[X2:.*]]: vector<64xi8>, %[[W2:.*]]: vector<64xi8>)
// CHECK: %[[S:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.ub.sw"(%[[X]], %[[W]]) : (vector<32xi8>, vector<32xi8>) -> vector<16xi16>
// CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[S]], %{{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// CHECK: arith.addi %[[ACC]], %[[P]] : vector<8xi32>
// CHECK: %[[S2:.*]] = llvm.call_intrinsic "llvm.x86.avx512.pmaddubs.w.512"(%[[X2]], %[[W2]]) : (vector<64xi8>, vector<64xi8>) -> vector<32xi16>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"(%[[S2]], %{{.*}})
func.func @narrow_bytes(%acc: vector<8xi32>, %x: vector<32xi8>, %w: vector<32xi8>, %acc2: vector<16xi32>, %x2: vector<64xi8>, %w2: vector<64xi8>) -> (vector<8xi32>, vector<16xi32>) {
  %lo = arith.constant dense<-64> : vector<32xi32>
  %hi = arith.constant dense<64> : vector<32xi32>
  %xw = arith.extui %x : vector<32xi8> to vector<32xi32>
  %ww = arith.extsi %w : vector<32xi8> to vector<32xi32>
  %c1 = arith.maxsi %ww, %lo : vector<32xi32>
  %c2 = arith.minsi %c1, %hi : vector<32xi32>
  %p = arith.muli %xw, %c2 : vector<32xi32>
  %g = vector.shape_cast %p : vector<32xi32> to vector<8x4xi32>
  %r = vector.multi_reduction <add>, %g, %acc [1] : vector<8x4xi32> to vector<8xi32>
  %lo2 = arith.constant dense<-64> : vector<64xi32>
  %hi2 = arith.constant dense<64> : vector<64xi32>
  %xw2 = arith.extui %x2 : vector<64xi8> to vector<64xi32>
  %ww2 = arith.extsi %w2 : vector<64xi8> to vector<64xi32>
  %d1 = arith.maxsi %ww2, %lo2 : vector<64xi32>
  %d2 = arith.minsi %d1, %hi2 : vector<64xi32>
  %p2 = arith.muli %xw2, %d2 : vector<64xi32>
  %g2 = vector.shape_cast %p2 : vector<64xi32> to vector<16x4xi32>
  %r2 = vector.multi_reduction <add>, %g2, %acc2 [1] : vector<16x4xi32> to vector<16xi32>
  return %r, %r2 : vector<8xi32>, vector<16xi32>
}

// -----

// 8 lanes of 4 byte products without the clamp (vpmaddubsw could
// saturate), or a clamp to [-65, 64]: left alone.
// CHECK-LABEL: func.func @not_narrow
// CHECK-NOT: llvm.call_intrinsic
func.func @not_narrow(%acc: vector<8xi32>, %x: vector<32xi8>, %w: vector<32xi8>) -> (vector<8xi32>, vector<8xi32>) {
  %lo = arith.constant dense<-65> : vector<32xi32>
  %hi = arith.constant dense<64> : vector<32xi32>
  %xw = arith.extui %x : vector<32xi8> to vector<32xi32>
  %ww = arith.extsi %w : vector<32xi8> to vector<32xi32>
  %p = arith.muli %xw, %ww : vector<32xi32>
  %g = vector.shape_cast %p : vector<32xi32> to vector<8x4xi32>
  %r = vector.multi_reduction <add>, %g, %acc [1] : vector<8x4xi32> to vector<8xi32>
  %c1 = arith.maxsi %ww, %lo : vector<32xi32>
  %c2 = arith.minsi %c1, %hi : vector<32xi32>
  %q = arith.muli %xw, %c2 : vector<32xi32>
  %h = vector.shape_cast %q : vector<32xi32> to vector<8x4xi32>
  %s = vector.multi_reduction <add>, %h, %acc [1] : vector<8x4xi32> to vector<8xi32>
  return %r, %s : vector<8xi32>, vector<8xi32>
}
