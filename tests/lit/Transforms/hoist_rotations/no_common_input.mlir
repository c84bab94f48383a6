// Negative cases: what the pass must leave alone.
// RUN: ember-opt --ckks-hoist-rotations %s | FileCheck %s

!ct = !ckks.ct<8, level = 1, scale = 2.0>

// Rotations of different ciphertexts, one each: nothing to share.
// CHECK-LABEL: func.func @different_inputs
// CHECK-NEXT: ckks.rotate %{{.*}} by 1
// CHECK-NEXT: ckks.rotate %{{.*}} by 2
// CHECK-NEXT: ckks.add
// CHECK-NEXT: return
func.func @different_inputs(%x: !ct, %y: !ct) -> !ct {
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %y by 2 : !ct
  %s = ckks.add %r1, %r2 : !ct, !ct
  return %s : !ct
}

// A single rotation stays a rotation.
// CHECK-LABEL: func.func @single
// CHECK-NEXT: ckks.rotate %{{.*}} by 3
// CHECK-NEXT: return
func.func @single(%x: !ct) -> !ct {
  %r = ckks.rotate %x by 3 : !ct
  return %r : !ct
}

// The partial sum %s1 is also returned: the whole tree must not become one
// hoisted_rotate_sum (%s1 would be computed twice); %s1 alone, whose
// partial sums have no other users, does, and %s2 stays an add.
// CHECK-LABEL: func.func @partial_sum_escapes
// CHECK-SAME: (%[[X:.*]]: {{.*}})
// CHECK-NEXT: %[[R3:.*]] = ckks.rotate %[[X]] by 3
// CHECK-NEXT: %[[S1:.*]] = ckks.hoisted_rotate_sum %[[X]] by [1, 2]
// CHECK-NEXT: %[[S2:.*]] = ckks.add %[[S1]], %[[R3]]
// CHECK-NEXT: return %[[S2]], %[[S1]]
func.func @partial_sum_escapes(%x: !ct) -> (!ct, !ct) {
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %r3 = ckks.rotate %x by 3 : !ct
  %s1 = ckks.add %r1, %r2 : !ct, !ct
  %s2 = ckks.add %s1, %r3 : !ct, !ct
  return %s2, %s1 : !ct, !ct
}

// A sum mixing rotations of two ciphertexts is not a rotation sum.
// CHECK-LABEL: func.func @mixed_sources
// CHECK-NOT: hoisted_rotate_sum
// CHECK: return
func.func @mixed_sources(%x: !ct, %y: !ct) -> !ct {
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %y by 1 : !ct
  %s = ckks.add %r1, %r2 : !ct, !ct
  return %s : !ct
}

// A rotation that is used elsewhere cannot vanish into a sum: the two
// rotations are hoisted, the add stays.
// CHECK-LABEL: func.func @rotation_escapes
// CHECK-NEXT: %[[H:.*]]:2 = ckks.hoisted_rotate %{{.*}} by [1, 2]
// CHECK-NEXT: %[[S:.*]] = ckks.add %[[H]]#0, %[[H]]#1
// CHECK-NEXT: return %[[S]], %[[H]]#0
func.func @rotation_escapes(%x: !ct) -> (!ct, !ct) {
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %s = ckks.add %r1, %r2 : !ct, !ct
  return %s, %r1 : !ct, !ct
}
