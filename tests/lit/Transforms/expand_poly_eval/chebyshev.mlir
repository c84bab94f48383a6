// fhe-expand-poly-eval, Chebyshev basis on [-1, 1], degree 4: baby steps
// T_1, T_2 (k = 2), giant step T_4 = 2 T_2^2 - 1; p = r + q T_4, r = r' +
// q' T_2 (tests/e2e/polys.py's chebyshev_ps op for op). The factors 2
// multiply by a constant 2 (ckks.mul_int later: no level).
// RUN: ember-opt --fhe-expand-poly-eval --canonicalize %s | FileCheck %s

// CHECK-LABEL: func.func @degree4
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK-DAG: %[[C0625:.*]] = fhe.constant dense<6.250000e-02>
// CHECK-DAG: %[[C025:.*]] = fhe.constant dense<2.500000e-01>
// CHECK-DAG: %[[CM025:.*]] = fhe.constant dense<-2.500000e-01>
// CHECK-DAG: %[[C05:.*]] = fhe.constant dense<5.000000e-01>
// CHECK-DAG: %[[C1125:.*]] = fhe.constant dense<1.125000e+00>
// CHECK-DAG: %[[ONE:.*]] = fhe.constant dense<1.000000e+00>
// CHECK-DAG: %[[TWO:.*]] = fhe.constant dense<2.000000e+00>
// T_2 = 2 x^2 - 1
// CHECK: %[[XX:.*]] = fhe.mul %[[X]], %[[X]]
// CHECK-NEXT: %[[XX2:.*]] = fhe.mul %[[XX]], %[[TWO]]
// CHECK-NEXT: %[[T2:.*]] = fhe.sub %[[XX2]], %[[ONE]]
// T_4 = 2 T_2^2 - 1
// CHECK-NEXT: %[[SQ:.*]] = fhe.mul %[[T2]], %[[T2]]
// CHECK-NEXT: %[[SQ2:.*]] = fhe.mul %[[SQ]], %[[TWO]]
// CHECK-NEXT: %[[T4:.*]] = fhe.sub %[[SQ2]], %[[ONE]]
// r' = 1.125 T_1 + 0.5 (c_1 - c_3 after the split at T_2)
// CHECK-NEXT: %[[A:.*]] = fhe.mul %[[X]], %[[C1125]]
// CHECK-NEXT: %[[R:.*]] = fhe.add %[[A]], %[[C05]]
// q' = -0.25 T_1 + 0.25 (c_2, 2 c_3), times T_2
// CHECK-NEXT: %[[B:.*]] = fhe.mul %[[X]], %[[CM025]]
// CHECK-NEXT: %[[Q:.*]] = fhe.add %[[B]], %[[C025]]
// CHECK-NEXT: %[[QT:.*]] = fhe.mul %[[Q]], %[[T2]]
// CHECK-NEXT: %[[LO:.*]] = fhe.add %[[R]], %[[QT]]
// c_4 T_4
// CHECK-NEXT: %[[HI:.*]] = fhe.mul %[[T4]], %[[C0625]]
// CHECK-NEXT: %[[P:.*]] = fhe.add %[[LO]], %[[HI]]
// CHECK-NEXT: return %[[P]]
// CHECK-NOT: fhe.poly_eval
func.func @degree4(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [0.5, 1.0, 0.25, -0.125, 0.0625] on [-1.0, 1.0] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// Trailing zeros are dropped: degree 1, c_0 + c_1 x, no unused baby steps
// left after canonicalization.
// CHECK-LABEL: func.func @trailing_zeros
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK-DAG: %[[C3:.*]] = fhe.constant dense<3.000000e+00>
// CHECK-DAG: %[[CM1:.*]] = fhe.constant dense<-1.000000e+00>
// CHECK: %[[M:.*]] = fhe.mul %[[X]], %[[C3]]
// CHECK-NEXT: %[[S:.*]] = fhe.add %[[M]], %[[CM1]]
// CHECK-NEXT: return %[[S]]
func.func @trailing_zeros(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [-1.0, 3.0, 0.0, 0.0] on [-1.0, 1.0] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}
