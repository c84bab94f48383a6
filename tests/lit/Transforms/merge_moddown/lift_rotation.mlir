// RUN: ember-opt --rns-merge-moddown=lift-addends=false %s | FileCheck %s
// RUN: ember-opt --rns-merge-moddown="lift-rotation=false lift-addends=false" %s | FileCheck %s --check-prefix=OFF
// RUN: ember-opt --rns-merge-moddown="merge-rescale=false lift-addends=false" %s | FileCheck %s --check-prefix=NORS
// A rotation's c0 side, sigma_g(c0) + ModDown(acc)#0, folded into the
// ModDown: a lifted addend read permuted (lifted_galois = g), the switch of
// acc0 + P sigma_g(c0). The automorphism and the add are gone.

!q = !rns.poly<ntt, q[0:5]>
!qp = !rns.poly<ntt, q[0:5], p[0:2]>
!q3 = !rns.poly<ntt, q[0:4]>

// CHECK-LABEL: func.func @rotate
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:5]>, %[[A0:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK-NOT: rns.automorphism
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[A0]], %[[A1]] lifted(%[[C0]] : !rns.poly<ntt, q[0:5]>) {lifted_galois = 5 : i64} : {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// CHECK-NOT: rns.add
// CHECK: return %[[M]]#0, %[[M]]#1
// OFF-LABEL: func.func @rotate
// OFF: %[[M:.*]]:2 = rns.mod_down %arg1, %arg2 : {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// OFF: %[[R:.*]] = rns.automorphism %arg0, 5
// OFF: rns.add %[[R]], %[[M]]#0
// OFF-NOT: lifted_galois
func.func @rotate(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r = rns.automorphism %c0, 5 : !q
  %s = rns.add %r, %m#0 : !q
  return %s, %m#1 : !q, !q
}

// Both parts rotated by one g (the add's operands either way round): two
// lifted addends.
// CHECK-LABEL: func.func @both_parts
// CHECK: rns.mod_down %arg2, %arg3 lifted(%arg0, %arg1 : !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>) {lifted_galois = 5 : i64}
// CHECK-NOT: rns.add
func.func @both_parts(%y0: !q, %y1: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r0 = rns.automorphism %y0, 5 : !q
  %r1 = rns.automorphism %y1, 5 : !q
  %s0 = rns.add %m#0, %r0 : !q
  %s1 = rns.add %r1, %m#1 : !q
  return %s0, %s1 : !q, !q
}

// Different Galois elements: only the prefix of one g (part 0) is folded.
// CHECK-LABEL: func.func @two_elements
// CHECK: %[[M:.*]]:2 = rns.mod_down %arg2, %arg3 lifted(%arg0 : !rns.poly<ntt, q[0:5]>) {lifted_galois = 5 : i64}
// CHECK: %[[R:.*]] = rns.automorphism %arg1, 25
// CHECK: rns.add %[[R]], %[[M]]#1
func.func @two_elements(%y0: !q, %y1: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r0 = rns.automorphism %y0, 5 : !q
  %r1 = rns.automorphism %y1, 25 : !q
  %s0 = rns.add %r0, %m#0 : !q
  %s1 = rns.add %r1, %m#1 : !q
  return %s0, %s1 : !q, !q
}

// Left alone: a rescale follows (the ModDown merges with it instead, the
// rotated c0 a lifted addend in order), a plain addend (not rotated), the
// ModDown's result used twice, and an addend defined after the ModDown.
// CHECK-LABEL: func.func @rescaled
// CHECK: %[[R:.*]] = rns.automorphism %arg0, 5
// CHECK: rns.mod_down %arg1, %arg2 lifted(%[[R]] : !rns.poly<ntt, q[0:5]>) : {{.*}} -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK-NOT: lifted_galois
// Without the rescale merge, the rotation is folded and the rescale stays.
// NORS-LABEL: func.func @rescaled
// NORS: %[[M:.*]]:2 = rns.mod_down %arg1, %arg2 lifted(%arg0 : !rns.poly<ntt, q[0:5]>) {lifted_galois = 5 : i64} : {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// NORS: rns.rescale %[[M]]#0, %[[M]]#1
func.func @rescaled(%c0: !q, %a0: !qp, %a1: !qp) -> (!q3, !q3) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r = rns.automorphism %c0, 5 : !q
  %s = rns.add %r, %m#0 : !q
  %t:2 = rns.rescale %s, %m#1 : !q, !q -> !q3, !q3
  return %t#0, %t#1 : !q3, !q3
}

// CHECK-LABEL: func.func @plain_addend
// CHECK: rns.mod_down %arg1, %arg2 : {{.*}} -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
// CHECK: rns.add
func.func @plain_addend(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %s = rns.add %c0, %m#0 : !q
  return %s, %m#1 : !q, !q
}

// CHECK-LABEL: func.func @used_twice
// CHECK-NOT: lifted_galois
// CHECK: return
func.func @used_twice(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r = rns.automorphism %c0, 5 : !q
  %s = rns.add %r, %m#0 : !q
  %u = rns.add %s, %m#0 : !q
  return %u, %m#1 : !q, !q
}

// CHECK-LABEL: func.func @defined_after
// CHECK-NOT: lifted_galois
// CHECK: return
func.func @defined_after(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %y = rns.mul %c0, %c0 : !q
  %r = rns.automorphism %y, 5 : !q
  %s = rns.add %r, %m#0 : !q
  return %s, %m#1 : !q, !q
}

// The sum feeds an elementwise op (fusion puts the add into its kernel):
// not folded.
// CHECK-LABEL: func.func @fuses_on
// CHECK-NOT: lifted_galois
// CHECK: rns.automorphism %arg0, 5
// CHECK: rns.mul
func.func @fuses_on(%c0: !q, %a0: !qp, %a1: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %a0, %a1 : !qp, !qp -> !q, !q
  %r = rns.automorphism %c0, 5 : !q
  %s = rns.add %r, %m#0 : !q
  %u = rns.mul %s, %c0 : !q
  return %u, %m#1 : !q, !q
}
