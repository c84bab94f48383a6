// RUN: ember-opt --rns-merge-moddown %s | FileCheck %s
// Accumulate before ModDown (Cheddar 5.1): two key-switch results summed
// after their ModDowns become one ModDown of the summed accumulators.

!q = !rns.poly<ntt, q[0:5]>
!qp = !rns.poly<ntt, q[0:5], p[0:2]>

// CHECK-LABEL: func.func @sum_of_keyswitches
// CHECK-SAME: (%[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[B0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[B1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK: %[[S0:.*]] = rns.add %[[A0]], %[[B0]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[S1:.*]] = rns.add %[[A1]], %[[B1]] : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[S0]], %[[S1]]
// CHECK-NOT: rns.mod_down
// CHECK: return %[[M]]#0, %[[M]]#1
func.func @sum_of_keyswitches(%a0: !qp, %a1: !qp, %b0: !qp, %b1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %n:2 = rns.mod_down %b0, %b1 : !qp, !qp -> !q, !q
  %r0 = rns.add %m#0, %n#0 : !q
  %r1 = rns.add %n#1, %m#1 : !q
  return %r0, %r1 : !q, !q
}

// Key-switch results inside longer sums (two rotations added, c0 terms
// included): the terms are taken out of the sums and one ModDown of the
// summed accumulators feeds them.
// CHECK-LABEL: func.func @rotation_sum
// CHECK-SAME: (%[[S:.*]]: !rns.poly<ntt, q[0:5]>, %[[T:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[B0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[B1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK: %[[S0:.*]] = rns.add %[[A0]], %[[B0]]
// CHECK: %[[S1:.*]] = rns.add %[[A1]], %[[B1]]
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[S0]], %[[S1]]
// CHECK: %[[U:.*]] = rns.add %[[T]], %[[M]]#0
// CHECK: %[[R0:.*]] = rns.add %[[S]], %[[U]]
// CHECK-NOT: rns.mod_down
// CHECK: return %[[R0]], %[[M]]#1
func.func @rotation_sum(%s: !q, %t: !q, %a0: !qp, %a1: !qp, %b0: !qp, %b1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %x0 = rns.add %s, %m#0 : !q
  %n:2 = rns.mod_down %b0, %b1 : !qp, !qp -> !q, !q
  %y0 = rns.add %t, %n#0 : !q
  %r0 = rns.add %x0, %y0 : !q
  %r1 = rns.add %m#1, %n#1 : !q
  return %r0, %r1 : !q, !q
}

// The option turns the rewrite off.
// RUN: ember-opt --rns-merge-moddown=accumulate=false %s | FileCheck %s --check-prefix=OFF
// OFF-LABEL: func.func @sum_of_keyswitches
// OFF: rns.mod_down
// OFF: rns.mod_down
