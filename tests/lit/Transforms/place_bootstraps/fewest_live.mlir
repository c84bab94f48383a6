// RUN: ember-opt --fhe-place-bootstraps="levels=2" %s | FileCheck %s
// RUN: not ember-opt --fhe-place-bootstraps="levels=0" %s 2>&1 | FileCheck %s --check-prefix=BAD

// After %b both %a (one level left) and %b (none) are live: a cut there
// bootstraps two values. The placement cuts after %s, where only the sum is
// live, and leaves the product of the earlier cut at a lower level.
// CHECK-LABEL: func.func @fewest_live
// CHECK-SAME: bootstraps = 1 : i64
// CHECK: %[[A:.*]] = fhe.mul %arg0, %arg0
// CHECK-NEXT: %[[B:.*]] = fhe.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[S:.*]] = fhe.add %[[A]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = fhe.bootstrap %[[S]]
// CHECK-NEXT: %[[C:.*]] = fhe.mul %[[R]], %[[R]]
// CHECK-NEXT: fhe.add %[[C]], %arg0
// An argument never needs one: it enters with all the levels.
// CHECK-NOT: fhe.bootstrap
func.func @fewest_live(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.mul %a, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s = fhe.add %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %c = fhe.mul %s, %s : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %y = fhe.add %c, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// A bootstrap the program already has resets the count; a free product
// (by an integer) uses no level.
// CHECK-LABEL: func.func @manual_and_free
// CHECK-SAME: bootstraps = 0 : i64
// CHECK-COUNT-1: fhe.bootstrap
// CHECK-NOT: fhe.bootstrap
// BAD: error: bootstrap placement needs at least one level between bootstraps
func.func @manual_and_free(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %two = fhe.constant dense<2.0> : tensor<8xf64> -> !fhe.pt<8>
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.mul %a, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.bootstrap %b : !fhe.ct<8>
  %c = fhe.mul %r, %two : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %d = fhe.mul %c, %c : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %e = fhe.mul %d, %d : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %e : !fhe.ct<8>
}
