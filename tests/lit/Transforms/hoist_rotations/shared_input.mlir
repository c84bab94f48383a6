// Rotations of one ciphertext share one ModUp: one ckks.hoisted_rotate at
// the first rotation, one result per rotation, each use rewired.
// RUN: ember-opt --ckks-hoist-rotations %s | FileCheck %s
// RUN: ember-opt --ckks-hoist-rotations=enabled=false %s | FileCheck %s --check-prefix=OFF

!ct = !ckks.ct<8, level = 1, scale = 2.0>

// CHECK-LABEL: func.func @three_rotations
// CHECK-SAME: (%[[X:.*]]: {{.*}}, %[[Y:.*]]: {{.*}})
// CHECK-NEXT: %[[H:.*]]:3 = ckks.hoisted_rotate %[[X]] by [1, 2, -3] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
// CHECK-NEXT: %[[A:.*]] = ckks.mul %[[H]]#0, %[[Y]]
// CHECK-NEXT: %[[B:.*]] = ckks.sub %[[H]]#1, %[[Y]]
// CHECK-NEXT: return %[[A]], %[[B]], %[[H]]#2
// CHECK-NOT: ckks.rotate
// OFF-LABEL: func.func @three_rotations
// OFF-NOT: ckks.hoisted_rotate
// OFF-COUNT-3: ckks.rotate
func.func @three_rotations(%x: !ct, %y: !ct) -> (!ckks.ct<8, level = 1, scale = 4.0, degree = 3>, !ct, !ct) {
  %r1 = ckks.rotate %x by 1 : !ct
  %a = ckks.mul %r1, %y : !ct, !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %b = ckks.sub %r2, %y : !ct, !ct
  %r3 = ckks.rotate %x by -3 : !ct
  return %a, %b, %r3 : !ckks.ct<8, level = 1, scale = 4.0, degree = 3>, !ct, !ct
}
