// RUN: ember-opt --rns-merge-moddown %s | FileCheck %s
// RUN: ember-opt --rns-merge-moddown=lift-in-place=false %s | FileCheck %s --check-prefix=MULP
// ModDown merging (Cheddar 5.2): the relinearisation's ModDown and the
// following rescale become one ModDown from Q_4 u P to Q_3 (divide by
// P * q_4). The d0/d1 addends y enter as lifted operands (the switch of
// P*y + acc, read in place), or, with lift-in-place=false, through rns.mul_p
// and an rns.add over Q_4 u P.

!q = !rns.poly<ntt, q[0:5]>
!qp = !rns.poly<ntt, q[0:5], p[0:2]>
!q3 = !rns.poly<ntt, q[0:4]>

// CHECK-LABEL: func.func @relin_rescale
// CHECK-SAME: (%[[D0:.*]]: !rns.poly<ntt, q[0:5]>, %[[D1:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK-NOT: rns.mul_p
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[A0]], %[[A1]] lifted(%[[D0]], %[[D1]] : !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>) : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.rescale
// CHECK: return %[[M]]#0, %[[M]]#1
// MULP-LABEL: func.func @relin_rescale
// MULP-SAME: (%[[D0:.*]]: !rns.poly<ntt, q[0:5]>, %[[D1:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// MULP: %[[L0:.*]] = rns.mul_p %[[D0]] : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:5], p[0:2]>
// MULP: %[[S0:.*]] = rns.add %[[L0]], %[[A0]] : !rns.poly<ntt, q[0:5], p[0:2]>
// MULP: %[[L1:.*]] = rns.mul_p %[[D1]]
// MULP: %[[S1:.*]] = rns.add %[[L1]], %[[A1]]
// MULP: %[[M:.*]]:2 = rns.mod_down %[[S0]], %[[S1]] : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// MULP-NOT: rns.rescale
// MULP: return %[[M]]#0, %[[M]]#1
func.func @relin_rescale(%d0: !q, %d1: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r0 = rns.add %d0, %m#0 : !q
  %r1 = rns.add %m#1, %d1 : !q
  %s:2 = rns.rescale %r0, %r1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}

// A rotation's c1 is the ModDown result itself: one lifted addend, for c0.
// CHECK-LABEL: func.func @rotate_rescale
// CHECK-NOT: rns.mul_p
// CHECK: rns.mod_down %arg1, %arg2 lifted(%arg0 : !rns.poly<ntt, q[0:5]>) : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.rescale
// MULP-LABEL: func.func @rotate_rescale
// MULP: %[[L0:.*]] = rns.mul_p %arg0
// MULP: %[[S0:.*]] = rns.add %[[L0]], %arg1
// MULP: rns.mod_down %[[S0]], %arg2 : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// MULP-NOT: rns.rescale
func.func @rotate_rescale(%s0: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r0 = rns.add %s0, %m#0 : !q
  %s:2 = rns.rescale %r0, %m#1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}

// Only part 1 has an addend: the lifted operands must be a prefix of the
// inputs, so this one keeps mul_p + add.
// CHECK-LABEL: func.func @second_part_only
// CHECK: %[[L:.*]] = rns.mul_p %arg0
// CHECK: %[[S:.*]] = rns.add %[[L]], %arg2
// CHECK: rns.mod_down %arg1, %[[S]] : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
func.func @second_part_only(%s1: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r1 = rns.add %s1, %m#1 : !q
  %s:2 = rns.rescale %m#0, %r1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}

// Lazy rescaling leaves a sum between the ModDown and the rescale: the
// ModDown term is taken out of the sum, the rest y is lifted.
// CHECK-LABEL: func.func @sum_then_rescale
// CHECK-SAME: (%[[U:.*]]: !rns.poly<ntt, q[0:5]>, %[[V:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK: %[[Y:.*]] = rns.add %[[U]], %[[V]] : !rns.poly<ntt, q[0:5]>
// CHECK: rns.mod_down %[[A0]], %[[A1]] lifted(%[[Y]] : {{.*}}) : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.rescale
// MULP-LABEL: func.func @sum_then_rescale
// MULP-SAME: (%[[U:.*]]: !rns.poly<ntt, q[0:5]>, %[[V:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// MULP: %[[Y:.*]] = rns.add %[[U]], %[[V]] : !rns.poly<ntt, q[0:5]>
// MULP: %[[L:.*]] = rns.mul_p %[[Y]]
// MULP: %[[S:.*]] = rns.add %[[L]], %[[A0]]
// MULP: rns.mod_down %[[S]], %[[A1]] : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// MULP-NOT: rns.rescale
func.func @sum_then_rescale(%u: !q, %v: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %t = rns.add %u, %m#0 : !q
  %r0 = rns.add %t, %v : !q
  %s:2 = rns.rescale %r0, %m#1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}
