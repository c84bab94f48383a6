// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Negative: a module without ckks ops (already rns) is left unchanged.

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {
// CHECK-LABEL: func.func @already_rns
// CHECK-NEXT: %[[S:.*]] = rns.add %arg0, %arg0 : !rns.poly<ntt, q[0:2]>
// CHECK-NEXT: return %[[S]]
func.func @already_rns(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  %0 = rns.add %x, %x : !rns.poly<ntt, q[0:2]>
  return %0 : !rns.poly<ntt, q[0:2]>
}
}
