// Multiplying operands of different levels (OpenFHE's FLEXIBLEAUTO): when
// the product meets another value in an addition, the higher operand comes
// down to the lower one's level *and scale*, so that every product made at
// a level carries the same scale. The smallest program that failed before:
// x2 = x * x; x2 * x + x2 * x2 (the two products were 2^40 / q_2 apart in
// scale at level 0, with no level left to match them).
// RUN: ember-opt --ckks-manage-levels %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels=strategy=lazy %s | FileCheck %s --check-prefix=LAZY

!ct = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!sq3 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
!sq = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>

// q_2 = 1099511480321 is the prime nearest 2^40, q_1 = 1099511922689 the
// one nearest S_1 = 2^80 / q_2 (ember::generateQChain).
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511922689, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // CHECK-LABEL: func.func @cube_plus_fourth
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>)
  // CHECK-SAME: -> !ckks.ct<8, level = 0, scale = 1099511627773.0593>
  // CHECK: %[[X2:.*]] = ckks.rescale {{.*}} -> !ckks.ct<8, level = 1, scale = 1099511775231.0198>
  // x comes to (1, S_1): times 1 encoded at 2^40, rescaled by q_2.
  // CHECK-NEXT: %[[ONE:.*]] = ckks.encode dense<1.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099511627776.0>
  // CHECK-NEXT: %[[XM:.*]] = ckks.mul_plain %[[X]], %[[ONE]] {ckks.scale_adjust}
  // CHECK-NEXT: %[[XA:.*]] = ckks.rescale %[[XM]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099511775231.0198>
  // CHECK-NEXT: %[[C:.*]] = ckks.mul %[[X2]], %[[XA]]
  // CHECK-NEXT: %[[CL:.*]] = ckks.relinearize %[[C]]
  // CHECK-NEXT: %[[CR:.*]] = ckks.rescale %[[CL]] : {{.*}} -> !ckks.ct<8, level = 0, scale = 1099511627773.0593>
  // CHECK-NEXT: %[[F:.*]] = ckks.mul %[[X2]], %[[X2]]
  // CHECK-NEXT: %[[FL:.*]] = ckks.relinearize %[[F]]
  // CHECK-NEXT: %[[FR:.*]] = ckks.rescale %[[FL]] : {{.*}} -> !ckks.ct<8, level = 0, scale = 1099511627773.0593>
  // CHECK-NEXT: ckks.add %[[CR]], %[[FR]] : !ckks.ct<8, level = 0, scale = 1099511627773.0593>
  // Lazy: the two products are added at level 1, scale S_1^2, and rescaled
  // once.
  // LAZY-LABEL: func.func @cube_plus_fourth
  // LAZY: %[[C:.*]] = ckks.mul
  // LAZY: %[[F:.*]] = ckks.mul
  // LAZY: ckks.add {{.*}} : !ckks.ct<8, level = 1, scale = 1.2089261438716686e+24>, !ckks.ct<8, level = 1, scale = 1.2089261438716686e+24>
  // LAZY-NEXT: ckks.rescale {{.*}} -> !ckks.ct<8, level = 0, scale = 1099511627773.0593>
  // The input is valid but unmanaged (no rescales; x^3 scaled up to x^4's
  // scale by an adjustment the pass removes).
  func.func @cube_plus_fourth(%x: !ct) -> !ckks.ct<8, level = 2, scale = 1.4615016373309029e+48> {
    %x2 = ckks.mul %x, %x : !ct, !ct
    %x2l = ckks.relinearize %x2 : !sq3
    %c = ckks.mul %x2l, %x : !sq, !ct
    %cl = ckks.relinearize %c : !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36, degree = 3>
    %one = ckks.encode dense<1.0> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099511627776.0>
    %ca = ckks.mul_plain %cl, %one {ckks.scale_adjust} : !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36>, !ckks.pt<8, level = 2, scale = 1099511627776.0>
    %f = ckks.mul %x2l, %x2l : !sq, !sq
    %fl = ckks.relinearize %f : !ckks.ct<8, level = 2, scale = 1.4615016373309029e+48, degree = 3>
    %s = ckks.add %ca, %fl : !ckks.ct<8, level = 2, scale = 1.4615016373309029e+48>, !ckks.ct<8, level = 2, scale = 1.4615016373309029e+48>
    return %s : !ckks.ct<8, level = 2, scale = 1.4615016373309029e+48>
  }
}
