// fhe.assume_range [lo, hi] on an op: the analysis intersects the op's
// interval-arithmetic range with it (real slots only; a complex slot keeps
// its computed range). fhe-expand-poly-eval puts [-1, 1] on the mapped
// variable t and on every Chebyshev T_n (n >= 2), which interval
// arithmetic alone lets grow like 3^n.
// RUN: ember-opt --fhe-expand-poly-eval --fhe-annotate-ranges %s | FileCheck %s
// RUN: ember-opt --fhe-expand-poly-eval --canonicalize --fhe-annotate-ranges %s | FileCheck %s --check-prefix=POLY

// CHECK-LABEL: func.func @clamp
func.func @clamp(%x: !fhe.ct<4> {fhe.range = [-6.0, 6.0]}) -> (!fhe.ct<4>, !fhe.ct<4>) {
  %c = fhe.constant dense<0.25> : tensor<4xf64> -> !fhe.pt<4>
  // [-1.5, 1.5] clamped to [-1, 1].
  // CHECK: fhe.mul %arg0, %0 {fhe.assume_range = array<f64: -1.000000e+00, 1.000000e+00>, fhe.bound = 1.000000e+00 : f64, fhe.range = [-1.000000e+00, 1.000000e+00]}
  %t = fhe.mul %x, %c {fhe.assume_range = array<f64: -1.0, 1.0>} : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  // Without the attribute: interval arithmetic.
  // CHECK: fhe.mul %arg0, %0 {fhe.bound = 1.500000e+00 : f64, fhe.range = [-1.500000e+00, 1.500000e+00]}
  %u = fhe.mul %x, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  return %t, %u : !fhe.ct<4>, !fhe.ct<4>
}

// A degree-8 Chebyshev series on [-6, 6] of an input declared in [-6, 6]:
// t = x / 6 and the T_n made (T_2, T_3, T_4 and the giant step T_8) all in
// [-1, 1].
// POLY-LABEL: func.func @series
// POLY: fhe.mul %arg0, %{{.*}} {fhe.assume_range = array<f64: -1.000000e+00, 1.000000e+00>, fhe.bound = 1.000000e+00 : f64
// POLY-COUNT-4: fhe.sub {{.*}}fhe.assume_range = array<f64: -1.000000e+00, 1.000000e+00>, fhe.bound = 1.000000e+00 : f64
// POLY-NOT: fhe.assume_range
// POLY: return
func.func @series(%x: !fhe.ct<4> {fhe.range = [-6.0, 6.0]}) -> !fhe.ct<4> {
  %y = fhe.poly_eval %x "chebyshev" [0.1, 0.2, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05] on [-6.0, 6.0] : !fhe.ct<4>
  return %y : !fhe.ct<4>
}
