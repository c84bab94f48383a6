// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Hoisted rotations share one ModUp of c1; the automorphisms act on the
// raised digits. A hoisted sum accumulates in Q_l u P and does ONE ModDown.

!ct = !ckks.ct<8, level = 4, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {

// CHECK-LABEL: func.func @hoisted_rotate
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:5]>, %[[C1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK: %[[DIG:.*]]:2 = rns.decompose %[[C1]]
// CHECK: %[[UP:.*]]:2 = rns.mod_up %[[DIG]]#0, %[[DIG]]#1
// CHECK-NOT: rns.mod_up
// CHECK: %[[U0:.*]] = rns.automorphism %[[UP]]#0, 5 : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[U1:.*]] = rns.automorphism %[[UP]]#1, 5 : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[K5:.*]] = rns.load_key galois 5
// CHECK: %[[A:.*]], %[[B:.*]] = rns.ks_inner_product %[[K5]](%[[U0]], %[[U1]])
// CHECK: %[[S0:.*]] = rns.automorphism %[[C0]], 5 : !rns.poly<ntt, q[0:5]>
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[A]], %[[B]]
// CHECK: %[[R0:.*]] = rns.add %[[S0]], %[[M]]#0
// CHECK: rns.automorphism %[[UP]]#0, 25
// CHECK: rns.automorphism %[[UP]]#1, 25
// CHECK: rns.load_key galois 25
// CHECK: rns.ks_inner_product
// CHECK: rns.automorphism %[[C0]], 25
// CHECK: %[[N:.*]]:2 = rns.mod_down
// CHECK: %[[Q0:.*]] = rns.add
// CHECK-NOT: rns.mod_up
// CHECK: return %[[R0]], %[[M]]#1, %[[Q0]], %[[N]]#1
func.func @hoisted_rotate(%c: !ct) -> (!ct, !ct) {
  %0:2 = ckks.hoisted_rotate %c by [1, 2] : !ct -> !ct, !ct
  return %0#0, %0#1 : !ct, !ct
}

// Offsets 0, 1, 2: offset 0 adds the input itself, the others share one
// ModUp and one ModDown.
// CHECK-LABEL: func.func @hoisted_rotate_sum
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:5]>, %[[C1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK: rns.mod_up
// CHECK: %[[A1:.*]], %[[B1:.*]] = rns.ks_inner_product
// CHECK: %[[S1:.*]] = rns.automorphism %[[C0]], 5
// CHECK: %[[A2:.*]], %[[B2:.*]] = rns.ks_inner_product
// CHECK: %[[S2:.*]] = rns.automorphism %[[C0]], 25
// CHECK-DAG: %[[ACC0:.*]] = rns.add %[[A1]], %[[A2]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK-DAG: %[[ACC1:.*]] = rns.add %[[B1]], %[[B2]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK-DAG: %[[SUM0:.*]] = rns.add %[[S1]], %[[S2]] : !rns.poly<ntt, q[0:5]>
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[ACC0]], %[[ACC1]]
// CHECK-NOT: rns.mod_down
// CHECK: %[[T0:.*]] = rns.add %[[SUM0]], %[[M]]#0
// CHECK: %[[R0:.*]] = rns.add %[[C0]], %[[T0]]
// CHECK: %[[R1:.*]] = rns.add %[[C1]], %[[M]]#1
// CHECK: return %[[R0]], %[[R1]]
func.func @hoisted_rotate_sum(%c: !ct) -> !ct {
  %0 = ckks.hoisted_rotate_sum %c by [0, 1, 2] : !ct
  return %0 : !ct
}

// A hoisted dot: each weight encoded once over Q_l u P (q[0:5], p[0:2]);
// every term joins two sums over Q_l u P: the unrotated input lifted by P
// (rns.mul_p; P c0 made once and permuted for the rotations), each
// rotation's key products with sigma(P c0) added to acc0, each times its
// weight; ONE ModDown divides by P.
// CHECK-LABEL: func.func @hoisted_dot
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:5]>, %[[C1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK: %[[PC0:.*]] = rns.mul_p %[[C0]] : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[W0:.*]] = rns.encode dense<2.000000e+00> : tensor<8xf64>, {{.*}} : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[L1:.*]] = rns.mul_p %[[C1]]
// CHECK: %[[Y0:.*]] = rns.mul %[[PC0]], %[[W0]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[Y1:.*]] = rns.mul %[[L1]], %[[W0]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[W1:.*]] = rns.encode dense<3.000000e+00> : tensor<8xf64>, {{.*}} : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: rns.mod_up
// CHECK: %[[A1:.*]], %[[B1:.*]] = rns.ks_inner_product
// CHECK: %[[S1:.*]] = rns.automorphism %[[PC0]], 5 : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[T1:.*]] = rns.add %[[A1]], %[[S1]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[U0:.*]] = rns.mul %[[T1]], %[[W1]]
// CHECK: rns.add %[[Y0]], %[[U0]]
// CHECK: %[[U1:.*]] = rns.mul %[[B1]], %[[W1]]
// CHECK: rns.add %[[Y1]], %[[U1]]
// CHECK: rns.ks_inner_product
// CHECK: rns.automorphism %[[PC0]], 25
// CHECK: %[[M:.*]]:2 = rns.mod_down %{{.*}}, %{{.*}} : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// CHECK-NOT: rns.mod_down
// CHECK: return %[[M]]#0, %[[M]]#1
func.func @hoisted_dot(%c: !ct) -> !ckks.ct<8, level = 4, scale = 1.2089258196146292e+24> {
  %p0 = ckks.encode dense<2.0> : tensor<8xf64> -> !ckks.pt<8, level = 4, scale = 1099511627776.0>
  %p1 = ckks.encode dense<3.0> : tensor<8xf64> -> !ckks.pt<8, level = 4, scale = 1099511627776.0>
  %p2 = ckks.encode dense<4.0> : tensor<8xf64> -> !ckks.pt<8, level = 4, scale = 1099511627776.0>
  %0 = ckks.hoisted_dot %c by [0, 1, 2] weights(%p0, %p1, %p2) : !ct, !ckks.pt<8, level = 4, scale = 1099511627776.0>, !ckks.pt<8, level = 4, scale = 1099511627776.0>, !ckks.pt<8, level = 4, scale = 1099511627776.0> -> !ckks.ct<8, level = 4, scale = 1.2089258196146292e+24>
  return %0 : !ckks.ct<8, level = 4, scale = 1.2089258196146292e+24>
}
}
