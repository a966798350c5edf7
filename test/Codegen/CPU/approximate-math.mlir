// f32 tanh, exp, expm1 and erf (scalars and vectors) become inline
// polynomials (erf: mlc's rational function, one division); f64 and the log
// family keep their math ops (libm calls).
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

// -----

// erf(x) = copysign(min(1, a * P(a^2) / Q(a^2)), x) with a = |x|, and 1 for
// a > 4: one division, Horner chains of FMAs, NaN-transparent selects.
// CHECK-LABEL: func.func @erf_rational
// CHECK-SAME: (%[[X:.*]]: vector<8xf32>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK-DAG: %[[FOUR:.*]] = arith.constant dense<4.000000e+00> : vector<8xf32>
// CHECK: %[[A:.*]] = math.absf %[[X]] : vector<8xf32>
// CHECK: %[[T:.*]] = arith.mulf %[[A]], %[[A]] : vector<8xf32>
// CHECK-COUNT-5: math.fma %{{.*}}, %[[T]], %{{.*}} : vector<8xf32>
// CHECK-COUNT-5: math.fma %{{.*}}, %[[T]], %{{.*}} : vector<8xf32>
// CHECK: %[[R:.*]] = arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: %[[AR:.*]] = arith.mulf %[[A]], %[[R]] : vector<8xf32>
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[AR]], %[[ONE]] : vector<8xf32>
// CHECK: %[[C:.*]] = arith.select %[[ABOVE]], %[[ONE]], %[[AR]]
// CHECK: %[[FAR:.*]] = arith.cmpf ogt, %[[A]], %[[FOUR]] : vector<8xf32>
// CHECK: %[[S:.*]] = arith.select %[[FAR]], %[[ONE]], %[[C]]
// CHECK: %[[E:.*]] = math.copysign %[[S]], %[[X]] : vector<8xf32>
// CHECK-NOT: arith.divf
// CHECK: return %[[E]]
func.func @erf_rational(%x: vector<8xf32>) -> vector<8xf32> {
  %r = math.erf %x : vector<8xf32>
  return %r : vector<8xf32>
}
