// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Bootstrapping's ModRaise under double-prime scaling: level 0 is Q_0 = q_0
// and the base pair (three limbs). Encapsulation's switch s -> s' takes each
// limb of Q_0 as one digit (each below p_0, which ModDown divides by alone):
// the limb in NTT form, its exact lifts to the limbs below it and to those
// above it with p_0, joined in basis order; the to_sparse key has a digit
// per limb. Then the three limbs' INTT, one exact BConv to the rest of the
// chain (the centred representative mod Q_0: a fast BConv's u Q_0 in c_1
// would be multiplied by s' and widen EvalMod's range), the NTT; and the
// hybrid switch s' -> s at the top. From one limb (bootstrap_ops.mlir) the
// centred BConv is already exact, and stays the fast one.

!ct0 = !ckks.ct<8, level = 0, scale = 4398046511104.0>
!ct2 = !ckks.ct<8, level = 2, scale = 4398046511104.0>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521], logScale = 42, dnum = 7, security = 0, word = 32, scalePrimes = 2>} {
  // CHECK-LABEL: func.func @raise_encapsulated
  // CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:3]>, %[[C1:.*]]: !rns.poly<ntt, q[0:3]>) -> (!rns.poly<ntt, q[0:7]>, !rns.poly<ntt, q[0:7]>)
  // Digit 0: q_0 lifted to q_1, q_2 and p_0.
  // CHECK: %[[L0:.*]] = rns.drop_limbs %[[C1]] : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:1]>
  // CHECK: %[[X0:.*]] = rns.intt %[[L0]] : !rns.poly<ntt, q[0:1]> -> !rns.poly<coeff, q[0:1]>
  // CHECK: %[[U0:.*]] = rns.bconv %[[X0]] : !rns.poly<coeff, q[0:1]> -> !rns.poly<coeff, q[1:3], p[0:1]>
  // CHECK: %[[N0:.*]] = rns.ntt %[[U0]]
  // CHECK: %[[D0:.*]] = rns.concat %[[L0]], %[[N0]] : !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[1:3], p[0:1]> -> !rns.poly<ntt, q[0:3], p[0:1]>
  // Digit 1: q_1 lifted below (q_0) and above (q_2, p_0).
  // CHECK: %[[L1:.*]] = rns.drop_limbs %[[C1]] : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[1:2]>
  // CHECK: %[[X1:.*]] = rns.intt %[[L1]]
  // CHECK: rns.bconv %[[X1]] : !rns.poly<coeff, q[1:2]> -> !rns.poly<coeff, q[0:1]>
  // CHECK: %[[B1:.*]] = rns.ntt
  // CHECK: rns.bconv %[[X1]] : !rns.poly<coeff, q[1:2]> -> !rns.poly<coeff, q[2:3], p[0:1]>
  // CHECK: %[[A1:.*]] = rns.ntt
  // CHECK: %[[D1:.*]] = rns.concat %[[B1]], %[[L1]], %[[A1]] : !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[1:2]>, !rns.poly<ntt, q[2:3], p[0:1]> -> !rns.poly<ntt, q[0:3], p[0:1]>
  // Digit 2: q_2 lifted below (q_0, q_1) and to p_0.
  // CHECK: %[[L2:.*]] = rns.drop_limbs %[[C1]] : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[2:3]>
  // CHECK: rns.bconv {{.*}} : !rns.poly<coeff, q[2:3]> -> !rns.poly<coeff, q[0:2]>
  // CHECK: rns.bconv {{.*}} : !rns.poly<coeff, q[2:3]> -> !rns.poly<coeff, p[0:1]>
  // CHECK: %[[D2:.*]] = rns.concat {{.*}}, %[[L2]], {{.*}} : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:3]>, !rns.poly<ntt, p[0:1]> -> !rns.poly<ntt, q[0:3], p[0:1]>
  // CHECK: %[[K:.*]] = rns.load_key to_sparse : !rns.evk<dnum = 3, q = 3, p = 1>
  // CHECK: %[[IA:[^,]*]], %[[IB:.*]] = rns.ks_inner_product %[[K]](%[[D0]], %[[D1]], %[[D2]])
  // CHECK: %[[MD:.*]]:2 = rns.mod_down %[[IA]], %[[IB]] : !rns.poly<ntt, q[0:3], p[0:1]>, !rns.poly<ntt, q[0:3], p[0:1]> -> !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>
  // CHECK: %[[S0:.*]] = rns.add %[[C0]], %[[MD]]#0
  // The raise: Q_0's three limbs to q_3..q_6.
  // CHECK: %[[R0:.*]] = rns.intt %[[S0]] : !rns.poly<ntt, q[0:3]> -> !rns.poly<coeff, q[0:3]>
  // CHECK: %[[UP:.*]] = rns.bconv %[[R0]] {exact} : !rns.poly<coeff, q[0:3]> -> !rns.poly<coeff, q[3:7]>
  // CHECK: rns.concat %[[R0]], %[[UP]] : !rns.poly<coeff, q[0:3]>, !rns.poly<coeff, q[3:7]> -> !rns.poly<coeff, q[0:7]>
  // CHECK: %[[R1:.*]] = rns.intt %[[MD]]#1
  // CHECK: rns.bconv %[[R1]] {exact} : !rns.poly<coeff, q[0:3]> -> !rns.poly<coeff, q[3:7]>
  // CHECK: rns.load_key from_sparse : !rns.evk<dnum = 7, q = 7, p = 1>
  // CHECK: rns.mod_down {{.*}} -> !rns.poly<ntt, q[0:7]>, !rns.poly<ntt, q[0:7]>
  func.func @raise_encapsulated(%x: !ct0) -> !ct2 {
    %r = ckks.mod_raise %x {encapsulate, input_scale = 4398046511104.0 : f64} : !ct0 -> !ct2
    return %r : !ct2
  }
}
