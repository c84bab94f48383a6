// Double hoisting with plaintext products: the inner sums of a baby-step
// giant-step matrix product (sum_b p_b * rot(x, b)) become ckks.hoisted_dot
// (one ModUp shared, the products over Q_l u P, one ModDown per sum) when
// every use of the rotations is such a product and the sums are fewer than
// the rotations.
// RUN: ember-opt --ckks-hoist-rotations %s | FileCheck %s
// RUN: ember-opt --ckks-hoist-rotations=products=false %s | FileCheck %s --check-prefix=OFF

!ct = !ckks.ct<8, level = 4, scale = 1099511627776.0>
!ct2 = !ckks.ct<8, level = 4, scale = 1.2089258196146292e+24>
!pt = !ckks.pt<8, level = 4, scale = 1099511627776.0>
!ct3 = !ckks.ct<8, level = 3, scale = 1099516739606.7656>
!ct4 = !ckks.ct<8, level = 3, scale = 1.2089314401319952e+24>
!pt3 = !ckks.pt<8, level = 3, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {

// Two giant steps (0 and 4) over three baby rotations: two sums, one
// ModDown each, instead of three baby ModDowns. The giant rotation stays.
// CHECK-LABEL: func.func @bsgs
// CHECK-SAME: (%[[X:.*]]: !ckks.ct
// CHECK-DAG: %[[P0:.*]] = ckks.encode dense<1.000000e+00>
// CHECK-DAG: %[[P7:.*]] = ckks.encode dense<8.000000e+00>
// CHECK-NOT: ckks.rotate %[[X]]
// CHECK: %[[D0:.*]] = ckks.hoisted_dot %[[X]] by [0, 1, 2, 3] weights(%[[P0]],
// CHECK-NEXT: %[[D4:.*]] = ckks.hoisted_dot %[[X]] by [0, 1, 2, 3] weights(%{{.*}}, %{{.*}}, %{{.*}}, %[[P7]]) : {{.*}} -> !ckks.ct<8, level = 4, scale = 1.2089258196146292e+24>
// CHECK-NEXT: %[[G:.*]] = ckks.rotate %[[D4]] by 4
// CHECK-NEXT: %[[Y:.*]] = ckks.add %[[D0]], %[[G]]
// CHECK-NEXT: return %[[Y]]
// OFF-LABEL: func.func @bsgs
// OFF-NOT: ckks.hoisted_dot
// OFF: ckks.hoisted_rotate %{{.*}} by [1, 2, 3]
// OFF-COUNT-8: ckks.mul_plain
func.func @bsgs(%x: !ct) -> !ct2 {
  %p0 = ckks.encode dense<1.0> : tensor<8xf64> -> !pt
  %p1 = ckks.encode dense<2.0> : tensor<8xf64> -> !pt
  %p2 = ckks.encode dense<3.0> : tensor<8xf64> -> !pt
  %p3 = ckks.encode dense<4.0> : tensor<8xf64> -> !pt
  %p4 = ckks.encode dense<5.0> : tensor<8xf64> -> !pt
  %p5 = ckks.encode dense<6.0> : tensor<8xf64> -> !pt
  %p6 = ckks.encode dense<7.0> : tensor<8xf64> -> !pt
  %p7 = ckks.encode dense<8.0> : tensor<8xf64> -> !pt
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %r3 = ckks.rotate %x by 3 : !ct
  %m0 = ckks.mul_plain %x, %p0 : !ct, !pt
  %m1 = ckks.mul_plain %r1, %p1 : !ct, !pt
  %m2 = ckks.mul_plain %r2, %p2 : !ct, !pt
  %m3 = ckks.mul_plain %r3, %p3 : !ct, !pt
  %a0 = ckks.add %m0, %m1 : !ct2, !ct2
  %a1 = ckks.add %a0, %m2 : !ct2, !ct2
  %i0 = ckks.add %a1, %m3 : !ct2, !ct2
  %m4 = ckks.mul_plain %x, %p4 : !ct, !pt
  %m5 = ckks.mul_plain %r1, %p5 : !ct, !pt
  %m6 = ckks.mul_plain %r2, %p6 : !ct, !pt
  %m7 = ckks.mul_plain %r3, %p7 : !ct, !pt
  %b0 = ckks.add %m4, %m5 : !ct2, !ct2
  %b1 = ckks.add %b0, %m6 : !ct2, !ct2
  %i4 = ckks.add %b1, %m7 : !ct2, !ct2
  %g = ckks.rotate %i4 by 4 : !ct2
  %y = ckks.add %i0, %g : !ct2, !ct2
  return %y : !ct2
}

// The products read rescaled rotations: x is rescaled once, before the
// rotations (the existing rescale of x is reused), and the sum is a
// hoisted_dot of it.
// CHECK-LABEL: func.func @rescaled
// CHECK-SAME: (%[[X:.*]]: !ckks.ct
// CHECK: %[[S:.*]] = ckks.rescale %[[X]]
// CHECK-NOT: ckks.rotate
// CHECK-NOT: ckks.rescale
// CHECK: %[[D:.*]] = ckks.hoisted_dot %[[S]] by [0, 1, 2] weights(
// CHECK-NEXT: return %[[D]]
func.func @rescaled(%x: !ct2) -> !ct4 {
  %p0 = ckks.encode dense<1.0> : tensor<8xf64> -> !pt3
  %p1 = ckks.encode dense<2.0> : tensor<8xf64> -> !pt3
  %p2 = ckks.encode dense<3.0> : tensor<8xf64> -> !pt3
  %sx = ckks.rescale %x : !ct2 -> !ct3
  %r1 = ckks.rotate %x by 1 : !ct2
  %r2 = ckks.rotate %x by 2 : !ct2
  %s1 = ckks.rescale %r1 : !ct2 -> !ct3
  %s2 = ckks.rescale %r2 : !ct2 -> !ct3
  %m0 = ckks.mul_plain %sx, %p0 : !ct3, !pt3
  %m1 = ckks.mul_plain %s1, %p1 : !ct3, !pt3
  %m2 = ckks.mul_plain %s2, %p2 : !ct3, !pt3
  %a0 = ckks.add %m0, %m1 : !ct4, !ct4
  %y = ckks.add %a0, %m2 : !ct4, !ct4
  return %y : !ct4
}

// A rotation also used elsewhere: left to plain hoisting.
// CHECK-LABEL: func.func @rotation_used_elsewhere
// CHECK-NOT: ckks.hoisted_dot
// CHECK: ckks.hoisted_rotate %{{.*}} by [1, 2]
func.func @rotation_used_elsewhere(%x: !ct) -> (!ct2, !ct) {
  %p0 = ckks.encode dense<1.0> : tensor<8xf64> -> !pt
  %p1 = ckks.encode dense<2.0> : tensor<8xf64> -> !pt
  %p2 = ckks.encode dense<3.0> : tensor<8xf64> -> !pt
  %r1 = ckks.rotate %x by 1 : !ct
  %r2 = ckks.rotate %x by 2 : !ct
  %m0 = ckks.mul_plain %x, %p0 : !ct, !pt
  %m1 = ckks.mul_plain %r1, %p1 : !ct, !pt
  %m2 = ckks.mul_plain %r2, %p2 : !ct, !pt
  %a0 = ckks.add %m0, %m1 : !ct2, !ct2
  %y = ckks.add %a0, %m2 : !ct2, !ct2
  return %y, %r1 : !ct2, !ct
}

// As many sums as rotations: the ModDowns would not be fewer.
// CHECK-LABEL: func.func @not_fewer
// CHECK-NOT: ckks.hoisted_dot
// CHECK: return
func.func @not_fewer(%x: !ct) -> (!ct2, !ct2) {
  %p0 = ckks.encode dense<1.0> : tensor<8xf64> -> !pt
  %p1 = ckks.encode dense<2.0> : tensor<8xf64> -> !pt
  %r1 = ckks.rotate %x by 1 : !ct
  %m0 = ckks.mul_plain %x, %p0 : !ct, !pt
  %m1 = ckks.mul_plain %r1, %p1 : !ct, !pt
  %a = ckks.add %m0, %m1 : !ct2, !ct2
  %m2 = ckks.mul_plain %x, %p1 : !ct, !pt
  %m3 = ckks.mul_plain %r1, %p0 : !ct, !pt
  %b = ckks.add %m2, %m3 : !ct2, !ct2
  return %a, %b : !ct2, !ct2
}
}
