// RUN: ember-opt %s | ember-opt | FileCheck %s
// Round trip of the KLSS types and ops: T polynomials, the KLSS key, the
// T digits, the coefficient-form accumulators and ModDown, automorphism of
// a T digit (hoisting).

// CHECK-LABEL: func.func @klss
// CHECK-SAME: (%[[X:.*]]: !rns.poly<ntt, q[0:6]>)
// CHECK: %[[D:.*]]:2 = rns.decompose %[[X]] : !rns.poly<ntt, q[0:6]> -> !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:6]>
// CHECK: %[[T:.*]]:2 = rns.klss_mod_up %[[D]]#0, %[[D]]#1 : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:6]> -> !rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>
// CHECK: %[[R:.*]] = rns.automorphism %[[T]]#0, 5 : !rns.poly<ntt, t[0:4]>
// CHECK: %[[K:.*]] = rns.load_key galois 5 : !rns.klss_evk<dnum = 2, groups = 3, t = 4>
// CHECK: %[[A0:.*]], %[[A1:.*]] = rns.klss_inner_product %[[K]](%[[R]], %[[T]]#1) : !rns.klss_evk<dnum = 2, groups = 3, t = 4>, (!rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>) -> !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]>
// CHECK: %[[S:.*]] = rns.add %[[A0]], %[[A1]] : !rns.poly<coeff, q[0:6], p[0:2]>
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[S]], %[[A1]] : !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]> -> !rns.poly<coeff, q[0:6]>, !rns.poly<coeff, q[0:6]>
// CHECK: rns.ntt %[[M]]#0 : !rns.poly<coeff, q[0:6]> -> !rns.poly<ntt, q[0:6]>
// CHECK: rns.intt %[[T]]#1 : !rns.poly<ntt, t[0:4]> -> !rns.poly<coeff, t[0:4]>
func.func @klss(%x: !rns.poly<ntt, q[0:6]>) -> !rns.poly<ntt, q[0:6]> {
  %d:2 = rns.decompose %x : !rns.poly<ntt, q[0:6]> -> !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:6]>
  %t:2 = rns.klss_mod_up %d#0, %d#1 : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:6]> -> !rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>
  %r = rns.automorphism %t#0, 5 : !rns.poly<ntt, t[0:4]>
  %k = rns.load_key galois 5 : !rns.klss_evk<dnum = 2, groups = 3, t = 4>
  %a0, %a1 = rns.klss_inner_product %k(%r, %t#1) : !rns.klss_evk<dnum = 2, groups = 3, t = 4>, (!rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>) -> !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]>
  %s = rns.add %a0, %a1 : !rns.poly<coeff, q[0:6], p[0:2]>
  %m:2 = rns.mod_down %s, %a1 : !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]> -> !rns.poly<coeff, q[0:6]>, !rns.poly<coeff, q[0:6]>
  %n = rns.ntt %m#0 : !rns.poly<coeff, q[0:6]> -> !rns.poly<ntt, q[0:6]>
  %i = rns.intt %t#1 : !rns.poly<ntt, t[0:4]> -> !rns.poly<coeff, t[0:4]>
  return %n : !rns.poly<ntt, q[0:6]>
}
