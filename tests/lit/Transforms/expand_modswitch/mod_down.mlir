// RUN: ember-opt --rns-expand-modswitch %s | FileCheck %s
// ModDown and rescale per polynomial: INTT of the dropped limbs, BConv to
// the kept ones, NTT, subtract, multiply by the inverse of the dropped primes.
// RUN: ember-opt --rns-expand-modswitch --rns-fuse-elementwise %s | FileCheck %s --check-prefix=FUSED

!qp = !rns.poly<ntt, q[0:5], p[0:2]>
!q = !rns.poly<ntt, q[0:5]>
!q3 = !rns.poly<ntt, q[0:4]>

// CHECK-LABEL: func.func @mod_down
// CHECK-SAME: (%[[X:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>, %[[Y:.*]]: !rns.poly<ntt, q[0:5], p[0:2]>)
// CHECK: %[[K:.*]] = rns.drop_limbs %[[X]] : !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:5]>
// CHECK: %[[D:.*]] = rns.drop_limbs %[[X]] : !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, p[0:2]>
// CHECK: %[[C:.*]] = rns.intt %[[D]] : !rns.poly<ntt, p[0:2]> -> !rns.poly<coeff, p[0:2]>
// CHECK: %[[B:.*]] = rns.bconv %[[C]] : !rns.poly<coeff, p[0:2]> -> !rns.poly<coeff, q[0:5]>
// CHECK: %[[N:.*]] = rns.ntt %[[B]] : !rns.poly<coeff, q[0:5]> -> !rns.poly<ntt, q[0:5]>
// CHECK: %[[S:.*]] = rns.sub %[[K]], %[[N]] : !rns.poly<ntt, q[0:5]>
// CHECK: %[[R0:.*]] = rns.mul_inv %[[S]], q[5:5], p[0:2] : !rns.poly<ntt, q[0:5]>
// CHECK: rns.drop_limbs %[[Y]]
// CHECK: %[[R1:.*]] = rns.mul_inv
// CHECK-NOT: rns.mod_down
// CHECK: return %[[R0]], %[[R1]]
// The subtract and the P^-1 scale become the NTT's epilogue.
// FUSED-LABEL: func.func @mod_down
// FUSED: rns.intt
// FUSED: rns.bconv
// FUSED: rns.fused
// FUSED-NEXT: ^bb0
// FUSED-NEXT: rns.ntt
// FUSED-NEXT: rns.sub
// FUSED-NEXT: rns.mul_inv
// FUSED-NEXT: rns.yield
func.func @mod_down(%x: !qp, %y: !qp) -> (!q, !q) {
  %m:2 = rns.mod_down %x, %y : !qp, !qp -> !q, !q
  return %m#0, %m#1 : !q, !q
}

// Merged ModDown + rescale: the dropped part is q_4 and P.
// CHECK-LABEL: func.func @merged
// CHECK: rns.drop_limbs %arg0 : !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>
// CHECK: rns.drop_limbs %arg0 : !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[4:5], p[0:2]>
// CHECK: rns.bconv %{{.*}} : !rns.poly<coeff, q[4:5], p[0:2]> -> !rns.poly<coeff, q[0:4]>
// CHECK: rns.mul_inv %{{.*}}, q[4:5], p[0:2] : !rns.poly<ntt, q[0:4]>
func.func @merged(%x: !qp) -> !q3 {
  %m = rns.mod_down %x : !qp -> !q3
  return %m : !q3
}

// A lifted addend becomes P * y + x before the switch.
// CHECK-LABEL: func.func @merged_lifted
// CHECK: %[[L:.*]] = rns.mul_p %arg1 : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: %[[S:.*]] = rns.add %[[L]], %arg0 : !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK: rns.drop_limbs %[[S]] : !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.mod_down
func.func @merged_lifted(%x: !qp, %y: !q) -> !q3 {
  %m = rns.mod_down %x lifted(%y : !q) : !qp -> !q3
  return %m : !q3
}

// Rescale: the dropped part is q_4 alone.
// CHECK-LABEL: func.func @rescale
// CHECK: rns.drop_limbs %arg0 : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[4:5]>
// CHECK: rns.bconv %{{.*}} : !rns.poly<coeff, q[4:5]> -> !rns.poly<coeff, q[0:4]>
// CHECK: rns.mul_inv %{{.*}}, q[4:5], p[0:0] : !rns.poly<ntt, q[0:4]>
// CHECK-NOT: rns.rescale
func.func @rescale(%x: !q) -> !q3 {
  %r = rns.rescale %x : !q -> !q3
  return %r : !q3
}
