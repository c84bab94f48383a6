// RUN: ember-opt --rns-fuse-elementwise %s | FileCheck %s
// A chain of elementwise ops over one basis becomes one rns.fused region
// (one kernel: each input read once, the result written once).

!q = !rns.poly<ntt, q[0:5]>

// CHECK-LABEL: func.func @chain5
// CHECK-SAME: (%[[X:.*]]: !rns.poly<ntt, q[0:5]>, %[[Y:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK-NEXT: %[[F:.*]] = rns.fused(%[[X]], %[[Y]]) : (!rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>) -> !rns.poly<ntt, q[0:5]> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: !rns.poly<ntt, q[0:5]>, %[[B:.*]]: !rns.poly<ntt, q[0:5]>):
// CHECK-NEXT:   %[[T0:.*]] = rns.add %[[A]], %[[B]]
// CHECK-NEXT:   %[[T1:.*]] = rns.mul %[[T0]], %[[B]]
// CHECK-NEXT:   %[[T2:.*]] = rns.sub %[[T1]], %[[A]]
// CHECK-NEXT:   %[[T3:.*]] = rns.neg %[[T2]]
// CHECK-NEXT:   %[[T4:.*]] = rns.mul_const %[[T3]], 3
// CHECK-NEXT:   rns.yield %[[T4]] : !rns.poly<ntt, q[0:5]>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @chain5(%x: !q, %y: !q) -> !q {
  %0 = rns.add %x, %y : !q
  %1 = rns.mul %0, %y : !q
  %2 = rns.sub %1, %x : !q
  %3 = rns.neg %2 : !q
  %4 = rns.mul_const %3, 3 : !q
  return %4 : !q
}

// An intermediate value used after the chain becomes a second result.
// CHECK-LABEL: func.func @two_results
// CHECK: %[[F:.*]]:2 = rns.fused(%arg0, %arg1) : {{.*}} -> (!rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>)
// CHECK: rns.yield
// CHECK: return %[[F]]#0, %[[F]]#1
func.func @two_results(%x: !q, %y: !q) -> (!q, !q) {
  %0 = rns.add %x, %y : !q
  %1 = rns.mul %0, %y : !q
  return %0, %1 : !q, !q
}

// Two independent products summed: one kernel for all three ops.
// CHECK-LABEL: func.func @tree
// CHECK: rns.fused(%arg0, %arg1, %arg2, %arg3)
// CHECK: rns.mul
// CHECK: rns.mul
// CHECK: rns.add
// CHECK: rns.yield
// CHECK-NOT: rns.mul
func.func @tree(%a: !q, %b: !q, %c: !q, %d: !q) -> !q {
  %0 = rns.mul %a, %b : !q
  %1 = rns.mul %c, %d : !q
  %2 = rns.add %0, %1 : !q
  return %2 : !q
}
