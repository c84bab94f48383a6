// 8 rotations of one ciphertext, summed: 8 ModUps and 8 ModDowns as
// written; one of each after ckks-hoist-rotations (double hoisting).
// RUN: ember-opt --ckks-to-rns --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=PLAIN
// RUN: ember-opt --ckks-hoist-rotations --ckks-to-rns --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=HOIST
// Without hoisting, rns-merge-moddown still sums before one ModDown (the
// ModUps stay 8).
// RUN: ember-opt --ckks-to-rns --rns-merge-moddown --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=ACCUM

// PLAIN-LABEL: ember-cost-report @sum8 (N = 2^14, one limb = N x 8 B = 131072 B
// PLAIN: mod_up: 8
// PLAIN-NEXT: mod_down: 8
// PLAIN: ks_inner_product: 8
// PLAIN-NEXT: automorphism: 16

// ACCUM-LABEL: ember-cost-report @sum8
// ACCUM: mod_up: 8
// ACCUM-NEXT: mod_down: 1

// HOIST-LABEL: ember-cost-report @sum8
// HOIST: mod_up: 1
// HOIST-NEXT: mod_down: 1
// HOIST: ks_inner_product: 8

!ct = !ckks.ct<16, level = 4, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {
func.func @sum8(%x: !ct) -> !ct {
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %r3 = ckks.rotate %x by 3 : !ct
  %r4 = ckks.rotate %x by 4 : !ct
  %r5 = ckks.rotate %x by 5 : !ct
  %r6 = ckks.rotate %x by 6 : !ct
  %r7 = ckks.rotate %x by 7 : !ct
  %r8 = ckks.rotate %x by 8 : !ct
  %s1 = ckks.add %r1, %r2 : !ct, !ct
  %s2 = ckks.add %s1, %r3 : !ct, !ct
  %s3 = ckks.add %s2, %r4 : !ct, !ct
  %s4 = ckks.add %s3, %r5 : !ct, !ct
  %s5 = ckks.add %s4, %r6 : !ct, !ct
  %s6 = ckks.add %s5, %r7 : !ct, !ct
  %s7 = ckks.add %s6, %r8 : !ct, !ct
  return %s7 : !ct
}
}
