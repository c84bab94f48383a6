// The lowering of a hoisted sum of 8 rotations costs one ModUp and one
// ModDown, and 8 inner products (rns half of hoisting.mlir).
// RUN: ember-opt --ckks-to-rns --ember-cost-report %s -o /dev/null | FileCheck %s

// CHECK-LABEL: ember-cost-report @hoisted8
// CHECK: mod_up: 1
// CHECK-NEXT: mod_down: 1
// CHECK-NEXT: rescale: 0
// CHECK-NEXT: modulus switches: 1
// CHECK-NEXT: ks_inner_product: 8

!ct = !ckks.ct<16, level = 4, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {
func.func @hoisted8(%x: !ct) -> !ct {
  %0 = ckks.hoisted_rotate_sum %x by [1, 2, 3, 4, 5, 6, 7, 8] : !ct
  return %0 : !ct
}
}
