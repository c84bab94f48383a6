// Double hoisting: a sum of rotations of one ciphertext (its partial sums
// used nowhere else) becomes one ckks.hoisted_rotate_sum: one ModUp, one
// ModDown. The unrotated input may be one of the summands (offset 0).
// RUN: ember-opt --ckks-hoist-rotations %s | FileCheck %s
// RUN: ember-opt --ckks-hoist-rotations=double-hoisting=false %s | FileCheck %s --check-prefix=SINGLE

!ct = !ckks.ct<8, level = 1, scale = 2.0>

// CHECK-LABEL: func.func @eight_rotations
// CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 1, scale = 2.0>)
// CHECK-NEXT: %[[S:.*]] = ckks.hoisted_rotate_sum %[[X]] by [1, 2, 3, 4, 5, 6, 7, 0] : !ckks.ct<8, level = 1, scale = 2.0>
// CHECK-NEXT: return %[[S]]
// SINGLE-LABEL: func.func @eight_rotations
// SINGLE-NEXT: %[[H:.*]]:7 = ckks.hoisted_rotate %{{.*}} by [1, 2, 3, 4, 5, 6, 7]
// SINGLE-COUNT-7: ckks.add
// SINGLE-NEXT: return
func.func @eight_rotations(%x: !ct) -> !ct {
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %r3 = ckks.rotate %x by 3 : !ct
  %r4 = ckks.rotate %x by 4 : !ct
  %r5 = ckks.rotate %x by 5 : !ct
  %r6 = ckks.rotate %x by 6 : !ct
  %r7 = ckks.rotate %x by 7 : !ct
  %s1 = ckks.add %r1, %r2 : !ct, !ct
  %s2 = ckks.add %s1, %r3 : !ct, !ct
  %s3 = ckks.add %s2, %r4 : !ct, !ct
  %s4 = ckks.add %s3, %r5 : !ct, !ct
  %s5 = ckks.add %s4, %r6 : !ct, !ct
  %s6 = ckks.add %s5, %r7 : !ct, !ct
  %s7 = ckks.add %s6, %x : !ct, !ct
  return %s7 : !ct
}

// A balanced tree works as well (the rotate-and-sum of a reduction).
// CHECK-LABEL: func.func @tree
// CHECK-NEXT: %[[S:.*]] = ckks.hoisted_rotate_sum %{{.*}} by [1, 2, 3, 4]
// CHECK-NEXT: return %[[S]]
func.func @tree(%x: !ct) -> !ct {
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %r3 = ckks.rotate %x by 3 : !ct
  %r4 = ckks.rotate %x by 4 : !ct
  %a = ckks.add %r1, %r2 : !ct, !ct
  %b = ckks.add %r3, %r4 : !ct, !ct
  %s = ckks.add %a, %b : !ct, !ct
  return %s : !ct
}
