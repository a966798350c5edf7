// f32 tanh, exp, expm1 and erf (scalars and vectors) become inline
// polynomials; f64 and the log family keep their math ops (libm calls).
// RUN: mlc-opt %s --split-input-file --mlc-approximate-math | FileCheck %s

// CHECK-LABEL: func.func @f32_scalar
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK-NOT: math.expm1
// CHECK-NOT: math.erf
// CHECK: arith.mulf
// CHECK: return
func.func @f32_scalar(%x: f32) -> (f32, f32, f32, f32) {
  %t = math.tanh %x : f32
  %e = math.exp %x : f32
  %m = math.expm1 %x : f32
  %r = math.erf %x : f32
  return %t, %e, %m, %r : f32, f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @f32_vector
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK: return
func.func @f32_vector(%x: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>) {
  %t = math.tanh %x : vector<16xf32>
  %e = math.exp %x : vector<16xf32>
  return %t, %e : vector<16xf32>, vector<16xf32>
}

// -----

// CHECK-LABEL: func.func @left_alone
// CHECK: math.tanh %{{.*}} : f64
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.log %{{.*}} : f32
// CHECK: math.log1p %{{.*}} : f32
// CHECK: math.sin %{{.*}} : f32
func.func @left_alone(%d: f64, %x: f32) -> (f64, f64, f32, f32, f32) {
  %t = math.tanh %d : f64
  %e = math.exp %d : f64
  %l = math.log %x : f32
  %p = math.log1p %x : f32
  %s = math.sin %x : f32
  return %t, %e, %l, %p, %s : f64, f64, f32, f32, f32
}
