// RUN: ember-opt --rns-fuse-elementwise %s | FileCheck %s
// RUN: ember-opt --rns-fuse-elementwise=horizontal=false %s | FileCheck %s --check-prefix=OFF
// RUN: ember-opt --rns-fuse-elementwise=hoist-siblings=false %s | FileCheck %s --check-prefix=NOHOIST
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

// Two sums of seven products over the same seven weights (the two parts of
// a hoisted dot, 14 inputs each, 21 together): past the 12-input cap, but
// half or more of each one's inputs are shared, so one kernel reads the
// weights once.
// CHECK-LABEL: func.func @shared_weights
// CHECK: %[[F:.*]]:2 = rns.fused(
// CHECK-NOT: rns.fused
// CHECK: return %[[F]]#0, %[[F]]#1
// OFF-LABEL: func.func @shared_weights
// OFF: rns.fused
// OFF: rns.fused
// The same with one weight in common: two kernels.
// CHECK-LABEL: func.func @few_shared
// CHECK: rns.fused
// CHECK: rns.fused
func.func @shared_weights(%a0: !q, %a1: !q, %a2: !q, %a3: !q, %a4: !q, %a5: !q, %a6: !q, %b0: !q, %b1: !q, %b2: !q, %b3: !q, %b4: !q, %b5: !q, %b6: !q, %w0: !q, %w1: !q, %w2: !q, %w3: !q, %w4: !q, %w5: !q, %w6: !q) -> (!q, !q) {
  %am0 = rns.mul %a0, %w0 : !q
  %am1 = rns.mul %a1, %w1 : !q
  %am2 = rns.mul %a2, %w2 : !q
  %am3 = rns.mul %a3, %w3 : !q
  %am4 = rns.mul %a4, %w4 : !q
  %am5 = rns.mul %a5, %w5 : !q
  %am6 = rns.mul %a6, %w6 : !q
  %as1 = rns.add %am0, %am1 : !q
  %as2 = rns.add %as1, %am2 : !q
  %as3 = rns.add %as2, %am3 : !q
  %as4 = rns.add %as3, %am4 : !q
  %as5 = rns.add %as4, %am5 : !q
  %as6 = rns.add %as5, %am6 : !q
  %bm0 = rns.mul %b0, %w0 : !q
  %bm1 = rns.mul %b1, %w1 : !q
  %bm2 = rns.mul %b2, %w2 : !q
  %bm3 = rns.mul %b3, %w3 : !q
  %bm4 = rns.mul %b4, %w4 : !q
  %bm5 = rns.mul %b5, %w5 : !q
  %bm6 = rns.mul %b6, %w6 : !q
  %bs1 = rns.add %bm0, %bm1 : !q
  %bs2 = rns.add %bs1, %bm2 : !q
  %bs3 = rns.add %bs2, %bm3 : !q
  %bs4 = rns.add %bs3, %bm4 : !q
  %bs5 = rns.add %bs4, %bm5 : !q
  %bs6 = rns.add %bs5, %bm6 : !q
  return %as6, %bs6 : !q, !q
}

func.func @few_shared(%a0: !q, %a1: !q, %a2: !q, %a3: !q, %a4: !q, %a5: !q, %a6: !q, %b0: !q, %b1: !q, %b2: !q, %b3: !q, %b4: !q, %b5: !q, %b6: !q, %w0: !q, %w1: !q, %w2: !q, %w3: !q, %w4: !q, %w5: !q, %w6: !q, %v0: !q, %v1: !q, %v2: !q, %v3: !q, %v4: !q, %v5: !q, %v6: !q) -> (!q, !q) {
  %am0 = rns.mul %a0, %w0 : !q
  %am1 = rns.mul %a1, %w1 : !q
  %am2 = rns.mul %a2, %w2 : !q
  %am3 = rns.mul %a3, %w3 : !q
  %am4 = rns.mul %a4, %w4 : !q
  %am5 = rns.mul %a5, %w5 : !q
  %am6 = rns.mul %a6, %w6 : !q
  %as1 = rns.add %am0, %am1 : !q
  %as2 = rns.add %as1, %am2 : !q
  %as3 = rns.add %as2, %am3 : !q
  %as4 = rns.add %as3, %am4 : !q
  %as5 = rns.add %as4, %am5 : !q
  %as6 = rns.add %as5, %am6 : !q
  %bm0 = rns.mul %b0, %w0 : !q
  %bm1 = rns.mul %b1, %v1 : !q
  %bm2 = rns.mul %b2, %v2 : !q
  %bm3 = rns.mul %b3, %v3 : !q
  %bm4 = rns.mul %b4, %v4 : !q
  %bm5 = rns.mul %b5, %v5 : !q
  %bm6 = rns.mul %b6, %v6 : !q
  %bs1 = rns.add %bm0, %bm1 : !q
  %bs2 = rns.add %bs1, %bm2 : !q
  %bs3 = rns.add %bs2, %bm3 : !q
  %bs4 = rns.add %bs3, %bm4 : !q
  %bs5 = rns.add %bs4, %bm5 : !q
  %bs6 = rns.add %bs5, %bm6 : !q
  return %as6, %bs6 : !q, !q
}

// Two giant steps of a baby-step giant-step product: each sums the same
// baby steps times its own weights, and its sum is rotated at once (the
// automorphism of a computed value is no load, so it stays outside). The
// second sum is hoisted up to the first: one kernel reads the baby steps
// once and writes both sums, before the first rotation. The two sums'
// ops are interleaved, so each baby step's two products come together
// (its loaded value live briefly in the generated kernel).
// CHECK-LABEL: func.func @giant_steps
// CHECK: %[[F:.*]]:2 = rns.fused(%arg0, %arg2, %arg4, %arg1, %arg3, %arg5)
// CHECK: rns.mul %[[X:[a-z0-9]+]],
// CHECK-NEXT: rns.mul %[[X]],
// CHECK-NEXT: rns.mul %[[Y:[a-z0-9]+]],
// CHECK-NEXT: rns.mul %[[Y]],
// CHECK-NEXT: rns.add
// CHECK-NEXT: rns.add
// CHECK-NEXT: rns.yield
// CHECK-NOT: rns.fused
// CHECK: rns.automorphism %[[F]]#0, 5
// CHECK: rns.automorphism %[[F]]#1, 25
// Without hoisting, the first rotation sits between the two: two kernels.
// NOHOIST-LABEL: func.func @giant_steps
// NOHOIST: rns.fused
// NOHOIST: rns.automorphism
// NOHOIST: rns.fused
// NOHOIST: rns.automorphism
func.func @giant_steps(%b0: !q, %b1: !q, %p0: !q, %p1: !q, %p2: !q, %p3: !q) -> (!q, !q) {
  %m0 = rns.mul %b0, %p0 : !q
  %m1 = rns.mul %b1, %p1 : !q
  %s0 = rns.add %m0, %m1 : !q
  %r0 = rns.automorphism %s0, 5 : !q
  %n0 = rns.mul %b0, %p2 : !q
  %n1 = rns.mul %b1, %p3 : !q
  %s1 = rns.add %n0, %n1 : !q
  %r1 = rns.automorphism %s1, 25 : !q
  return %r0, %r1 : !q, !q
}

// The second sum reads a value made after the first sum starts (the
// first rotation, here a permuted load of the first sum): not hoisted,
// the first sum is its own kernel and the second reads it.
// CHECK-LABEL: func.func @giant_step_reads_later
// CHECK: %[[S:.*]] = rns.fused(%arg0, %arg2, %arg1, %arg3) :
// CHECK-COUNT-2: rns.mul
// CHECK-NEXT: rns.add
// CHECK-NEXT: rns.yield
// CHECK-NEXT: }
// CHECK-NEXT: rns.fused(%[[S]], 
func.func @giant_step_reads_later(%b0: !q, %b1: !q, %p0: !q, %p1: !q, %p2: !q) -> (!q, !q) {
  %m0 = rns.mul %b0, %p0 : !q
  %m1 = rns.mul %b1, %p1 : !q
  %s0 = rns.add %m0, %m1 : !q
  %r0 = rns.automorphism %s0, 5 : !q
  %n0 = rns.mul %b0, %p2 : !q
  %n1 = rns.mul %b1, %r0 : !q
  %s1 = rns.add %n0, %n1 : !q
  return %r0, %s1 : !q, !q
}
