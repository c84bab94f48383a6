// RUN: ember-opt --rns-merge-moddown %s | FileCheck %s
// ModDown merging (Cheddar 5.2): the relinearisation's ModDown and the
// following rescale become one ModDown from Q_4 u P to Q_3 (divide by
// P * q_4); the d0/d1 addends enter the extended basis through rns.mul_p.

!q = !rns.poly<ntt, q[0:5]>
!qp = !rns.poly<ntt, q[0:5], p[0:2]>
!q3 = !rns.poly<ntt, q[0:4]>

// CHECK-LABEL: func.func @relin_rescale
// CHECK-SAME: (%[[D0:.*]]: !rns.poly<ntt, q[0:5]>, %[[D1:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK: %[[L0:.*]] = rns.mul_p %[[D0]] : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[S0:.*]] = rns.add %[[L0]], %[[A0]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[L1:.*]] = rns.mul_p %[[D1]]
// CHECK: %[[S1:.*]] = rns.add %[[L1]], %[[A1]]
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[S0]], %[[S1]] : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.rescale
// CHECK: return %[[M]]#0, %[[M]]#1
func.func @relin_rescale(%d0: !q, %d1: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r0 = rns.add %d0, %m#0 : !q
  %r1 = rns.add %m#1, %d1 : !q
  %s:2 = rns.rescale %r0, %r1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}

// A rotation's c1 is the ModDown result itself: no mul_p needed for it.
// CHECK-LABEL: func.func @rotate_rescale
// CHECK: %[[L0:.*]] = rns.mul_p %arg0
// CHECK: %[[S0:.*]] = rns.add %[[L0]], %arg1
// CHECK: rns.mod_down %[[S0]], %arg2 : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.rescale
func.func @rotate_rescale(%s0: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r0 = rns.add %s0, %m#0 : !q
  %s:2 = rns.rescale %r0, %m#1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}

// Lazy rescaling leaves a sum between the ModDown and the rescale: the
// ModDown term is taken out of the sum, the rest y is lifted by mul_p.
// CHECK-LABEL: func.func @sum_then_rescale
// CHECK-SAME: (%[[U:.*]]: !rns.poly<ntt, q[0:5]>, %[[V:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK: %[[Y:.*]] = rns.add %[[U]], %[[V]] : !rns.poly<ntt, q[0:5]>
// CHECK: %[[L:.*]] = rns.mul_p %[[Y]]
// CHECK: %[[S:.*]] = rns.add %[[L]], %[[A0]]
// CHECK: rns.mod_down %[[S]], %[[A1]] : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.rescale
func.func @sum_then_rescale(%u: !q, %v: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %t = rns.add %u, %m#0 : !q
  %r0 = rns.add %t, %v : !q
  %s:2 = rns.rescale %r0, %m#1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}
