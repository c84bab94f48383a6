// RUN: ember-opt --rns-merge-moddown %s | FileCheck %s
// RUN: ember-opt --rns-merge-moddown=lift-addends=false %s | FileCheck %s --check-prefix=OFF
// RUN: ember-opt --rns-merge-moddown=lift-rotation=false %s | FileCheck %s --check-prefix=NOROT
// lift-addends: y + ModDown(a)#i, y defined before the plain ModDown and
// waiting for nothing its inputs do not, becomes mod_down(a) lifted(y),
// read in order (no lifted_galois): the switch of a + P y, i.e.
// ModDown(a) + y, added in the last NTT's epilogue.

!q = !rns.poly<ntt, q[0:5]>
!qp = !rns.poly<ntt, q[0:5], p[0:2]>

// One hmul + relin without its rescale: d0 = a0 b0 and d1 = a0 b1 + a1 b0
// lifted into the relinearization's ModDown; the adds are gone.
// CHECK-LABEL: func.func @mul_relin
// CHECK: %[[D0:.*]] = rns.mul %arg0, %arg2
// CHECK: %[[D1:.*]] = rns.add
// CHECK: %[[M:.*]]:2 = rns.mod_down %arg4, %arg5 lifted(%[[D0]], %[[D1]] : !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>) : {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// CHECK-NOT: lifted_galois
// CHECK-NOT: rns.add
// CHECK: return %[[M]]#0, %[[M]]#1
// OFF-LABEL: func.func @mul_relin
// OFF: %[[M:.*]]:2 = rns.mod_down %arg4, %arg5 : {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// OFF: rns.add %{{.*}}, %[[M]]#0
// OFF: rns.add %[[M]]#1, %{{.*}}
// OFF-NOT: lifted
func.func @mul_relin(%a0: !q, %a1: !q, %b0: !q, %b1: !q, %acc0: !qp, %acc1: !qp) -> (!q, !q) {
  %d0 = rns.mul %a0, %b0 : !q
  %p = rns.mul %a0, %b1 : !q
  %r = rns.mul %a1, %b0 : !q
  %d1 = rns.add %p, %r : !q
  %m:2 = rns.mod_down %acc0, %acc1 : !qp, !qp -> !q, !q
  %s0 = rns.add %d0, %m#0 : !q
  %s1 = rns.add %m#1, %d1 : !q
  return %s0, %s1 : !q, !q
}

// A function argument as the addend of part 0 only: a prefix of one.
// CHECK-LABEL: func.func @argument
// CHECK: %[[M:.*]]:2 = rns.mod_down %arg1, %arg2 lifted(%arg0 : !rns.poly<ntt, q[0:5]>) : {{.*}}
// CHECK: return %[[M]]#0, %[[M]]#1
// OFF-LABEL: func.func @argument
// OFF: rns.add %arg0
func.func @argument(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %s = rns.add %c0, %m#0 : !q
  return %s, %m#1 : !q, !q
}

// With lift-rotation off, a rotated c0 is still an addend, read in order
// (the automorphism stays a kernel); with it on, read permuted.
// CHECK-LABEL: func.func @rotated
// CHECK: rns.mod_down %arg1, %arg2 lifted(%arg0 : !rns.poly<ntt, q[0:5]>) {lifted_galois = 5 : i64}
// NOROT-LABEL: func.func @rotated
// NOROT: %[[R:.*]] = rns.automorphism %arg0, 5
// NOROT: rns.mod_down %arg1, %arg2 lifted(%[[R]] : !rns.poly<ntt, q[0:5]>) :
// NOROT-NOT: lifted_galois
func.func @rotated(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %r = rns.automorphism %c0, 5 : !q
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %s = rns.add %r, %m#0 : !q
  return %s, %m#1 : !q, !q
}

// Left alone: an addend that waits for another ModDown (an independent key
// switch: lifting would serialise the two branches), an addend defined
// after the ModDown, and a sum read by an elementwise op (the add fuses
// into that op's kernel).
// CHECK-LABEL: func.func @other_branch
// CHECK: %[[N:.*]]:2 = rns.mod_down %arg2, %arg3 :
// CHECK: %[[M:.*]]:2 = rns.mod_down %arg0, %arg1 :
// CHECK-NEXT: rns.add %[[N]]#0, %[[M]]#0
func.func @other_branch(%a0: !qp, %a1: !qp, %b0: !qp, %b1: !qp) -> (!q, !q) {
  %n:2 = rns.mod_down %b0, %b1 : !qp, !qp -> !q, !q
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %s = rns.add %n#0, %m#0 : !q
  return %s, %m#1 : !q, !q
}

// CHECK-LABEL: func.func @defined_after
// CHECK-NOT: lifted
// CHECK: return
func.func @defined_after(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %y = rns.mul %c0, %c0 : !q
  %s = rns.add %y, %m#0 : !q
  return %s, %m#1 : !q, !q
}

// CHECK-LABEL: func.func @fuses_on
// CHECK-NOT: lifted
// CHECK: rns.mul
func.func @fuses_on(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %s = rns.add %c0, %m#0 : !q
  %u = rns.mul %s, %c0 : !q
  return %u, %m#1 : !q, !q
}
