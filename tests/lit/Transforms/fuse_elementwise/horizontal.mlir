// RUN: ember-opt --rns-fuse-elementwise %s | FileCheck %s
// RUN: ember-opt --rns-fuse-elementwise=horizontal=false %s | FileCheck %s --check-prefix=OFF
// Horizontal (sibling) fusion: independent elementwise groups over one
// basis that read a common input become one kernel with several results.

!q = !rns.poly<ntt, q[0:5]>
!s = !rns.poly<ntt, q[0:4]>

// The tensor product of two degree-1 ciphertexts: three groups (a0 b0;
// a0 b1 + a1 b0; a1 b1) sharing inputs -> one kernel, four inputs read
// once, three results.
// CHECK-LABEL: func.func @tensor
// CHECK: %[[F:.*]]:3 = rns.fused(%arg0, %arg2, %arg3, %arg1) : {{.*}} -> (!rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>)
// CHECK-COUNT-3: rns.mul
// CHECK: rns.add
// CHECK: rns.mul
// CHECK: rns.yield
// CHECK-NOT: rns.fused
// CHECK: return %[[F]]#0, %[[F]]#1, %[[F]]#2
// OFF-LABEL: func.func @tensor
// OFF: rns.fused
// OFF-NOT: rns.fused
// OFF: rns.mul
// OFF: rns.mul
func.func @tensor(%a0: !q, %a1: !q, %b0: !q, %b1: !q) -> (!q, !q, !q) {
  %0 = rns.mul %a0, %b0 : !q
  %1 = rns.mul %a0, %b1 : !q
  %2 = rns.mul %a1, %b0 : !q
  %3 = rns.add %1, %2 : !q
  %4 = rns.mul %a1, %b1 : !q
  return %0, %3, %4 : !q, !q, !q
}

// No common input: two kernels stay two.
// CHECK-LABEL: func.func @disjoint
// CHECK-NOT: rns.fused
// CHECK: rns.mul
// CHECK: rns.mul
func.func @disjoint(%a: !q, %b: !q, %c: !q, %d: !q) -> (!q, !q) {
  %0 = rns.mul %a, %b : !q
  %1 = rns.mul %c, %d : !q
  return %0, %1 : !q, !q
}

// Different bases: not one loop.
// CHECK-LABEL: func.func @bases
// CHECK-NOT: rns.fused
func.func @bases(%a: !q, %b: !q, %c: !s) -> (!q, !s) {
  %0 = rns.mul %a, %b : !q
  %1 = rns.drop_limbs %a : !q -> !s
  %2 = rns.mul %1, %c : !s
  return %0, %2 : !q, !s
}

// The first product is used (by an automorphism, not fusable) before the
// second is computed: merging them would move that use before its value.
// CHECK-LABEL: func.func @used_between
// CHECK-NOT: rns.fused
// CHECK: rns.mul
// CHECK: rns.automorphism
// CHECK: rns.mul
func.func @used_between(%a: !q, %b: !q) -> (!q, !q) {
  %0 = rns.mul %a, %b : !q
  %1 = rns.automorphism %0, 5 : !q
  %2 = rns.mul %a, %1 : !q
  return %1, %2 : !q, !q
}
