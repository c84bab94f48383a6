// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Calls, declarations and returns carry the 1:N expansion too.

!ct = !ckks.ct<8, level = 2, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {
// CHECK-LABEL: func.func private @callee(!rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>) -> (!rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>)
func.func private @callee(!ct) -> !ct

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[A:.*]]: !rns.poly<ntt, q[0:3]>, %[[B:.*]]: !rns.poly<ntt, q[0:3]>)
// CHECK: %[[R:.*]]:2 = call @callee(%[[A]], %[[B]]) : (!rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>) -> (!rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>)
// CHECK: %[[N0:.*]] = rns.neg %[[R]]#0
// CHECK: %[[N1:.*]] = rns.neg %[[R]]#1
// CHECK: return %[[N0]], %[[N1]]
func.func @caller(%x: !ct) -> !ct {
  %0 = func.call @callee(%x) : (!ct) -> !ct
  %1 = ckks.neg %0 : !ct
  return %1 : !ct
}
}
