// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Hybrid key switching (Phantom III-D): decompose into digits of consecutive
// Q limbs (dnum = 3 over 7 primes: sizes 3, 3, 1, cut at the level), ModUp
// of every digit to Q_l u P, inner product with the key, one ModDown.

!ct = !ckks.ct<8, level = 4, scale = 1099511627776.0>
!ct6 = !ckks.ct<8, level = 6, scale = 1099511627776.0>
!ct3 = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0, degree = 3>
!ctsq = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {

// CHECK-LABEL: func.func @relinearize
// CHECK-SAME: (%[[D0:.*]]: !rns.poly<ntt, q[0:5]>, %[[D1:.*]]: !rns.poly<ntt, q[0:5]>, %[[D2:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK: %[[K:.*]] = rns.load_key relin : !rns.evk<dnum = 3, q = 7, p = 2>
// CHECK: %[[DIG:.*]]:2 = rns.decompose %[[D2]] : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:5]>
// CHECK: %[[UP:.*]]:2 = rns.mod_up %[[DIG]]#0, %[[DIG]]#1 : {{.*}} -> !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[A0:.*]], %[[A1:.*]] = rns.ks_inner_product %[[K]](%[[UP]]#0, %[[UP]]#1)
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[A0]], %[[A1]] : {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// CHECK: %[[R0:.*]] = rns.add %[[D0]], %[[M]]#0
// CHECK: %[[R1:.*]] = rns.add %[[D1]], %[[M]]#1
// CHECK: return %[[R0]], %[[R1]]
func.func @relinearize(%c: !ct3) -> !ctsq {
  %0 = ckks.relinearize %c : !ct3
  return %0 : !ctsq
}

// Rotation by 1: g = 5; by -1: g = 5^(N/2 - 1) mod 2N = 19661 (N = 2^14).
// The automorphism comes first, then the key switch of sigma(c1).
// CHECK-LABEL: func.func @rotate
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:5]>, %[[C1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK: %[[S0:.*]] = rns.automorphism %[[C0]], 5
// CHECK: %[[S1:.*]] = rns.automorphism %[[C1]], 5
// CHECK: %[[K:.*]] = rns.load_key galois 5
// CHECK: %[[DIG:.*]]:2 = rns.decompose %[[S1]]
// CHECK: %[[UP:.*]]:2 = rns.mod_up %[[DIG]]#0, %[[DIG]]#1
// CHECK: %[[A0:.*]], %[[A1:.*]] = rns.ks_inner_product %[[K]](%[[UP]]#0, %[[UP]]#1)
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[A0]], %[[A1]]
// CHECK: %[[R0:.*]] = rns.add %[[S0]], %[[M]]#0
// CHECK: rns.automorphism %[[C0]], 19661
// CHECK: rns.automorphism %[[C1]], 19661
// CHECK: rns.load_key galois 19661
// CHECK: return %[[R0]], %[[M]]#1
func.func @rotate(%c: !ct) -> (!ct, !ct) {
  %0 = ckks.rotate %c by 1 : !ct
  %1 = ckks.rotate %c by -1 : !ct
  return %0, %1 : !ct, !ct
}

// Conjugation: g = 2N - 1; keyswitch: the key of its Galois element, no
// automorphism.
// CHECK-LABEL: func.func @conjugate_keyswitch
// CHECK: rns.automorphism %arg0, 32767
// CHECK: rns.automorphism %arg1, 32767
// CHECK: rns.load_key galois 32767
// CHECK: rns.mod_down
// CHECK-NOT: rns.automorphism
// CHECK: rns.load_key galois 25
// CHECK: rns.decompose
// CHECK: rns.mod_up
// CHECK: rns.ks_inner_product
// CHECK: rns.mod_down
func.func @conjugate_keyswitch(%c: !ct) -> !ct {
  %0 = ckks.conjugate %c : !ct
  %1 = ckks.keyswitch %0 galois 25 : !ct
  return %1 : !ct
}

// At the top level all three digits appear, the last one short (3, 3, 1).
// CHECK-LABEL: func.func @uneven_digits
// CHECK: rns.decompose %{{.*}} : !rns.poly<ntt, q[0:7]> -> !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:6]>, !rns.poly<ntt, q[6:7]>
// CHECK: rns.mod_up {{.*}} -> !rns.poly<ntt, q[0:7], p[0:2]>, !rns.poly<ntt, q[0:7], p[0:2]>, !rns.poly<ntt, q[0:7], p[0:2]>
func.func @uneven_digits(%c: !ct6) -> !ct6 {
  %0 = ckks.rotate %c by 2 : !ct6
  return %0 : !ct6
}
}
