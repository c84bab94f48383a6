// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Bootstrapping's two ckks ops: ModRaise is, per polynomial, the INTT of its
// one limb, the centred one-prime BConv to q_1..q_L, the limbs joined and an
// NTT; mul_i multiplies each polynomial by X^(N/2), the constant i encoded
// at scale 1.

!ct0 = !ckks.ct<8, level = 0, scale = 1099511627776.0>
!ct4 = !ckks.ct<8, level = 4, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 0, h = 192>} {

// CHECK-LABEL: func.func @raise
// CHECK-SAME: (%[[A0:.*]]: !rns.poly<ntt, q[0:1]>, %[[A1:.*]]: !rns.poly<ntt, q[0:1]>)
// CHECK: %[[C0:.*]] = rns.intt %[[A0]] : !rns.poly<ntt, q[0:1]> -> !rns.poly<coeff, q[0:1]>
// CHECK: %[[U0:.*]] = rns.bconv %[[C0]] : !rns.poly<coeff, q[0:1]> -> !rns.poly<coeff, q[1:5]>
// CHECK: %[[J0:.*]] = rns.concat %[[C0]], %[[U0]] : !rns.poly<coeff, q[0:1]>, !rns.poly<coeff, q[1:5]> -> !rns.poly<coeff, q[0:5]>
// CHECK: %[[R0:.*]] = rns.ntt %[[J0]] : !rns.poly<coeff, q[0:5]> -> !rns.poly<ntt, q[0:5]>
// CHECK: rns.intt %[[A1]]
// CHECK: rns.bconv
// CHECK: rns.concat
// CHECK: %[[R1:.*]] = rns.ntt
// CHECK: return %[[R0]], %[[R1]]
func.func @raise(%x: !ct0) -> !ct4 {
  %r = ckks.mod_raise %x {input_scale = 1099511627776.0 : f64} : !ct0 -> !ct4
  return %r : !ct4
}

// Sparse-secret encapsulation: at level 0, c_1 raised exactly to {q_0, p_0}
// and switched s -> s' with the one-digit to_sparse key (special modulus p_0
// alone: no other P limb may appear), ModDown to q_0; the raise above under
// s'; then a full hybrid switch s' -> s at the top (digits raised to
// Q_4 u P, from_sparse key, ModDown).
// CHECK-LABEL: func.func @raise_encapsulated
// CHECK-SAME: (%[[B0:.*]]: !rns.poly<ntt, q[0:1]>, %[[B1:.*]]: !rns.poly<ntt, q[0:1]>)
// CHECK: %[[C1:.*]] = rns.intt %[[B1]] : !rns.poly<ntt, q[0:1]> -> !rns.poly<coeff, q[0:1]>
// CHECK: %[[UP:.*]] = rns.bconv %[[C1]] : !rns.poly<coeff, q[0:1]> -> !rns.poly<coeff, p[0:1]>
// CHECK: %[[UPN:.*]] = rns.ntt %[[UP]] : !rns.poly<coeff, p[0:1]> -> !rns.poly<ntt, p[0:1]>
// CHECK: %[[D:.*]] = rns.concat %[[B1]], %[[UPN]] : !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, p[0:1]> -> !rns.poly<ntt, q[0:1], p[0:1]>
// CHECK: %[[K1:.*]] = rns.load_key to_sparse : !rns.evk<dnum = 1, q = 1, p = 1>
// CHECK: %[[IA:[^,]*]], %[[IB:.*]] = rns.ks_inner_product %[[K1]](%[[D]]) : !rns.evk<dnum = 1, q = 1, p = 1>, (!rns.poly<ntt, q[0:1], p[0:1]>) -> !rns.poly<ntt, q[0:1], p[0:1]>, !rns.poly<ntt, q[0:1], p[0:1]>
// CHECK: %[[MD:.*]]:2 = rns.mod_down %[[IA]], %[[IB]] : !rns.poly<ntt, q[0:1], p[0:1]>, !rns.poly<ntt, q[0:1], p[0:1]> -> !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[0:1]>
// CHECK: %[[S0:.*]] = rns.add %[[B0]], %[[MD]]#0
// CHECK: rns.intt %[[S0]]
// CHECK: %[[T0:.*]] = rns.ntt %{{.*}} : !rns.poly<coeff, q[0:5]> -> !rns.poly<ntt, q[0:5]>
// CHECK: rns.intt %[[MD]]#1
// CHECK: %[[T1:.*]] = rns.ntt %{{.*}} : !rns.poly<coeff, q[0:5]> -> !rns.poly<ntt, q[0:5]>
// CHECK: %[[K2:.*]] = rns.load_key from_sparse : !rns.evk<dnum = 3, q = 5, p = 2>
// CHECK: rns.decompose %[[T1]]
// CHECK: rns.mod_up
// CHECK: rns.ks_inner_product %[[K2]]({{.*}}) : !rns.evk<dnum = 3, q = 5, p = 2>, ({{.*}}) -> !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[M2:.*]]:2 = rns.mod_down
// CHECK: %[[O0:.*]] = rns.add %[[T0]], %[[M2]]#0
// CHECK: return %[[O0]], %[[M2]]#1
func.func @raise_encapsulated(%x: !ct0) -> !ct4 {
  %r = ckks.mod_raise %x {encapsulate, input_scale = 1099511627776.0 : f64} : !ct0 -> !ct4
  return %r : !ct4
}

// CHECK-LABEL: func.func @times_i
// CHECK: %[[M:.*]] = rns.encode dense<(0.000000e+00,1.000000e+00)> : tensor<8xcomplex<f64>>, 1.000000e+00 : !rns.poly<ntt, q[0:5]>
// CHECK: rns.mul %{{.*}}, %[[M]]
// CHECK: rns.mul %{{.*}}, %[[M]]
func.func @times_i(%x: !ct4) -> !ct4 {
  %r = ckks.mul_i %x : !ct4
  return %r : !ct4
}

}
