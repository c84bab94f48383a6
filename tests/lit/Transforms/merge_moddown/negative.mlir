// RUN: ember-opt --rns-merge-moddown %s | FileCheck %s
// Cases the pass must leave alone.

!q = !rns.poly<ntt, q[0:5]>
!qp = !rns.poly<ntt, q[0:5], p[0:2]>
!q3 = !rns.poly<ntt, q[0:4]>

// The ModDown result is also used unrescaled: merging would lose it.
// CHECK-LABEL: func.func @other_use
// CHECK: rns.mod_down {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// CHECK: rns.rescale
func.func @other_use(%a0: !qp, %a1: !qp) -> (!q3, !q3, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %s:2 = rns.rescale %m#0, %m#1 : !q, !q -> !q3, !q3
  %t = rns.add %m#0, %m#0 : !q
  return %s#0, %s#1, %t : !q3, !q3, !q
}

// A rescale not fed by a ModDown stays.
// CHECK-LABEL: func.func @plain_rescale
// CHECK: rns.rescale
// CHECK-NOT: rns.mod_down
func.func @plain_rescale(%x: !q, %y: !q) -> (!q3, !q3) {
  %s:2 = rns.rescale %x, %y : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}

// Results of two ModDowns crossed (index 0 with index 1) do not pair up.
// CHECK-LABEL: func.func @crossed
// CHECK: rns.mod_down
// CHECK: rns.mod_down
func.func @crossed(%a0: !qp, %a1: !qp, %b0: !qp, %b1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %n:2 = rns.mod_down %b0, %b1 : !qp, !qp -> !q, !q
  %r0 = rns.add %m#0, %n#1 : !q
  %r1 = rns.add %m#1, %n#0 : !q
  return %r0, %r1 : !q, !q
}

// With merge-rescale=false the rescale stays.
// RUN: ember-opt --rns-merge-moddown=merge-rescale=false %s | FileCheck %s --check-prefix=OFF
// OFF-LABEL: func.func @off
// OFF: rns.mod_down {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// OFF: rns.rescale
func.func @off(%a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %s:2 = rns.rescale %m#0, %m#1 : !q, !q -> !q3, !q3
  return %s#0, %s#1 : !q3, !q3
}
