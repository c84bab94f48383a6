// fhe-expand-poly-eval: the power basis (x^2 = x x, x^3 = x^2 x, no factors
// 2), and the Chebyshev basis on [lo, hi]: t = alpha x + beta first.
// RUN: ember-opt --fhe-expand-poly-eval --canonicalize %s | FileCheck %s

// Degree 3, k = 2: baby x, x^2; giant x^2; p = (c0 + c1 x) + (c2 + c3 x) x^2
// (no constant 2: the power basis has no recurrence factors).
// CHECK-NOT: dense<2.000000e+00>
// CHECK-LABEL: func.func @power3
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK: %[[X2:.*]] = fhe.mul %[[X]], %[[X]]
// CHECK: %[[LO:.*]] = fhe.add
// CHECK: %[[HI:.*]] = fhe.add
// CHECK-NEXT: %[[HX:.*]] = fhe.mul %[[HI]], %[[X2]]
// CHECK-NEXT: %[[P:.*]] = fhe.add %[[LO]], %[[HX]]
// CHECK-NEXT: return %[[P]]
func.func @power3(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "power" [1.0, 0.5, 3.0, 0.25] on [-1.0, 1.0] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// [0, 4]: t = 0.5 x - 1 (alpha = 0.5: a level).
// CHECK-LABEL: func.func @interval
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK-DAG: %[[HALF:.*]] = fhe.constant dense<5.000000e-01>
// CHECK-DAG: %[[M1:.*]] = fhe.constant dense<-1.000000e+00>
// CHECK: %[[AX:.*]] = fhe.mul %[[X]], %[[HALF]]
// CHECK-NEXT: %[[T:.*]] = fhe.add %[[AX]], %[[M1]]
// CHECK-NEXT: fhe.mul %[[T]], %[[T]]
func.func @interval(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [0.0, 1.0, 0.5] on [0.0, 4.0] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// [-0.5, 0.5]: t = 2 x (an integer factor, free); no beta.
// CHECK-LABEL: func.func @integer_alpha
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK-DAG: %[[TWO:.*]] = fhe.constant dense<2.000000e+00>
// CHECK: %[[T:.*]] = fhe.mul %[[X]], %[[TWO]]
// CHECK-NEXT: fhe.mul %[[T]], %[[T]]
func.func @integer_alpha(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [0.0, 1.0, 0.5] on [-0.5, 0.5] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}
