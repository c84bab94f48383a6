// RUN: ember-opt --rns-fuse-elementwise %s | FileCheck %s
// RUN: ember-opt --rns-fuse-elementwise=permuted-loads=false %s | FileCheck %s --check-prefix=OFF
// NTT-form automorphisms of values a kernel loads become permuted loads of
// its consumer's kernel, and the automorphisms of a hoisted rotation's
// raised digits fold into the inner product's indexing.

!q = !rns.poly<ntt, q[0:2]>
!qp = !rns.poly<ntt, q[0:2], p[0:1]>
!evk = !rns.evk<dnum = 2, q = 2, p = 1>

// rot(c0) + ModDown(acc)#0: one kernel reading c0 permuted; the rotated
// copy of c0 is never written.
// CHECK-LABEL: func.func @rotate_add
// CHECK: %[[F:.*]] = rns.fused(%arg0, %arg1)
// CHECK-NEXT: ^bb0(%[[C:.*]]: !rns.poly<ntt, q[0:2]>, %[[Y:.*]]: !rns.poly<ntt, q[0:2]>):
// CHECK-NEXT: %[[R:.*]] = rns.automorphism %[[C]], 5
// CHECK-NEXT: rns.add %[[R]], %[[Y]]
// CHECK-NOT: rns.automorphism
// OFF-LABEL: func.func @rotate_add
// OFF: rns.automorphism
// OFF-NEXT: rns.add
func.func @rotate_add(%c0: !q, %y: !q) -> !q {
  %0 = rns.automorphism %c0, 5 : !q
  %1 = rns.add %0, %y : !q
  return %1 : !q
}

// Eight rotations summed (rot8_sum's c0 side): one kernel, eight permuted
// loads of one input.
// CHECK-LABEL: func.func @rotations_summed
// CHECK: rns.fused(%arg0, %arg1)
// CHECK-COUNT-3: rns.automorphism
// CHECK-COUNT-3: rns.add
// CHECK-NEXT: rns.yield
func.func @rotations_summed(%c0: !q, %y: !q) -> !q {
  %0 = rns.automorphism %c0, 5 : !q
  %1 = rns.automorphism %c0, 25 : !q
  %2 = rns.automorphism %c0, 125 : !q
  %3 = rns.add %0, %1 : !q
  %4 = rns.add %3, %2 : !q
  %5 = rns.add %4, %y : !q
  return %5 : !q
}

// An automorphism of a value computed in the same group is not a load:
// the product is its own kernel, the automorphism and the add another.
// CHECK-LABEL: func.func @computed_in_kernel
// CHECK: %[[M:.*]] = rns.mul %arg0, %arg0
// CHECK-NEXT: rns.fused(%[[M]], %arg0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: rns.automorphism
// CHECK-NEXT: rns.add
func.func @computed_in_kernel(%x: !q) -> !q {
  %0 = rns.mul %x, %x : !q
  %1 = rns.automorphism %0, 5 : !q
  %2 = rns.add %1, %x : !q
  return %2 : !q
}

// A hoisted rotation: the automorphism of each raised digit, used only by
// the inner product, becomes the inner product's galois attribute.
// CHECK-LABEL: func.func @hoisted
// CHECK-NOT: rns.automorphism
// CHECK: rns.ks_inner_product %arg2(%arg0, %arg1) {galois = 25 : i64}
// OFF-LABEL: func.func @hoisted
// OFF-COUNT-2: rns.automorphism
// OFF: rns.ks_inner_product %arg2(
// OFF-NOT: galois
func.func @hoisted(%d0: !qp, %d1: !qp, %k: !evk) -> (!qp, !qp) {
  %0 = rns.automorphism %d0, 25 : !qp
  %1 = rns.automorphism %d1, 25 : !qp
  %a:2 = rns.ks_inner_product %k(%0, %1) : !evk, (!qp, !qp) -> !qp, !qp
  return %a#0, %a#1 : !qp, !qp
}

// Digits permuted by different elements, or a permuted digit used again:
// nothing to fold. The two automorphisms of %arg0 are siblings (one read
// of %arg0), the second hoisted up to the first (hoist-siblings).
// CHECK-LABEL: func.func @not_foldable
// CHECK: rns.fused(%arg0)
// CHECK-NEXT: ^bb0(%[[D:.*]]: !rns.poly<ntt, q[0:2], p[0:1]>):
// CHECK-NEXT: rns.automorphism %[[D]], 25
// CHECK-NEXT: rns.automorphism %[[D]], 5
// CHECK: rns.automorphism %arg1, 5
// CHECK: rns.ks_inner_product %arg2(%{{.*}}, %{{.*}}) :
// CHECK-NOT: rns.automorphism
// CHECK: rns.ks_inner_product %arg2(%{{.*}}, %arg1) :
func.func @not_foldable(%d0: !qp, %d1: !qp, %k: !evk) -> (!qp, !qp, !qp, !qp, !qp) {
  %0 = rns.automorphism %d0, 25 : !qp
  %1 = rns.automorphism %d1, 5 : !qp
  %a:2 = rns.ks_inner_product %k(%0, %1) : !evk, (!qp, !qp) -> !qp, !qp
  %2 = rns.automorphism %d0, 5 : !qp
  %b:2 = rns.ks_inner_product %k(%2, %d1) : !evk, (!qp, !qp) -> !qp, !qp
  return %a#0, %a#1, %b#0, %b#1, %2 : !qp, !qp, !qp, !qp, !qp
}
