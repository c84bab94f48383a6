// Cheddar 5.2: mul, mul, add, return relinearizes once, after the add.
// The input relinearizes eagerly (twice); lazy=false keeps that.
// RUN: ember-opt --ckks-insert-relin %s | FileCheck %s
// RUN: ember-opt --ckks-insert-relin=lazy=false %s | FileCheck %s --check-prefix=EAGER

!ct = !ckks.ct<8, level = 1, scale = 2.0>
!sq = !ckks.ct<8, level = 1, scale = 4.0>
!sq3 = !ckks.ct<8, level = 1, scale = 4.0, degree = 3>

// CHECK-LABEL: func.func @sum_of_products
// CHECK-SAME: -> !ckks.ct<8, level = 1, scale = 4.0>
// CHECK-NEXT: %[[AB:.*]] = ckks.mul
// CHECK-NEXT: %[[CD:.*]] = ckks.mul
// CHECK-NEXT: %[[S:.*]] = ckks.add %[[AB]], %[[CD]] : !ckks.ct<8, level = 1, scale = 4.0, degree = 3>, !ckks.ct<8, level = 1, scale = 4.0, degree = 3>
// CHECK-NEXT: %[[L:.*]] = ckks.relinearize %[[S]]
// CHECK-NEXT: return %[[L]] : !ckks.ct<8, level = 1, scale = 4.0>
// EAGER-LABEL: func.func @sum_of_products
// EAGER-NEXT: ckks.mul
// EAGER-NEXT: ckks.relinearize
// EAGER-NEXT: ckks.mul
// EAGER-NEXT: ckks.relinearize
// EAGER-NEXT: ckks.add
// EAGER-NEXT: return
func.func @sum_of_products(%a: !ct, %b: !ct, %c: !ct, %d: !ct) -> !sq {
  %ab = ckks.mul %a, %b : !ct, !ct
  %abl = ckks.relinearize %ab : !sq3
  %cd = ckks.mul %c, %d : !ct, !ct
  %cdl = ckks.relinearize %cd : !sq3
  %s = ckks.add %abl, %cdl : !sq, !sq
  return %s : !sq
}
