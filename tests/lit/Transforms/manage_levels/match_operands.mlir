// How ckks-manage-levels matches the operands of an addition. Each input is
// valid but managed differently (or wastefully); the pass removes the old
// rescales, mod_drops and scale adjustments and places the cheapest ones.
// RUN: ember-opt --ckks-manage-levels %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels=strategy=lazy %s | FileCheck %s --check-prefix=LAZY

// 2^40 = 1099511627776.0, 2^80 = 1.2089258196146292e+24,
// q_1 = 1099511480321, q_2 = 1099510890497.
!ct2 = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!ct1 = !ckks.ct<8, level = 1, scale = 1099511627776.0>
!ct0 = !ckks.ct<8, level = 0, scale = 1099511627776.0>
!sq2 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
!sq2d3 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
!sq1 = !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24>
!sq1d3 = !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24, degree = 3>
!rs0 = !ckks.ct<8, level = 0, scale = 1099511775231.0198>
!pt2 = !ckks.pt<8, level = 2, scale = 1099511627776.0>
!pt1 = !ckks.pt<8, level = 1, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // Equal scales: only the higher operand is dropped, and only as far as
  // the other (the input drops both to level 0).
  // CHECK-LABEL: func.func @equal_scales
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>, %[[Y:.*]]: !ckks.ct<8, level = 1, scale = 1099511627776.0>)
  // CHECK-NEXT: %[[XD:.*]] = ckks.mod_drop %[[X]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099511627776.0>
  // CHECK-NEXT: %[[S:.*]] = ckks.add %[[XD]], %[[Y]]
  // CHECK-NEXT: return %[[S]] : !ckks.ct<8, level = 1, scale = 1099511627776.0>
  func.func @equal_scales(%x: !ct2, %y: !ct1) -> !ct0 {
    %xd = ckks.mod_drop %x : !ct2 -> !ct0
    %yd = ckks.mod_drop %y : !ct1 -> !ct0
    %s = ckks.add %xd, %yd : !ct0, !ct0
    return %s : !ct0
  }

  // Eager: x * 1 is rescaled to (1, 2^80 / q_2); a rescale of y lands
  // exactly there too.
  // CHECK-LABEL: func.func @rescale_matches
  // CHECK-SAME: (%[[X:.*]]: {{.*}}, %[[Y:.*]]: !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>)
  // CHECK-NEXT: %[[P:.*]] = ckks.encode
  // CHECK-NEXT: %[[M:.*]] = ckks.mul_plain %[[X]], %[[P]] :
  // CHECK-NEXT: %[[MR:.*]] = ckks.rescale %[[M]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: %[[YR:.*]] = ckks.rescale %[[Y]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: ckks.add %[[MR]], %[[YR]]
  func.func @rescale_matches(%x: !ct2, %y: !sq2) -> !sq2 {
    %p = ckks.encode dense<1.0> : tensor<8xf64> -> !pt2
    %m = ckks.mul_plain %x, %p : !ct2, !pt2
    %s = ckks.add %m, %y : !sq2, !sq2
    return %s : !sq2
  }

  // Eager: the product is rescaled to (1, 2^80 / q_2); x (2, 2^40) is
  // multiplied by 1 encoded at 2^80 / 2^40 and rescaled by q_2, landing on
  // 2^80 / q_2 exactly. The input's adjustment (no rescale) is replaced.
  // CHECK-LABEL: func.func @adjust_scale
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>, %[[Y:.*]]: {{.*}})
  // CHECK-NEXT: %[[M:.*]] = ckks.mul %[[Y]], %[[Y]]
  // CHECK-NEXT: %[[ML:.*]] = ckks.relinearize %[[M]]
  // CHECK-NEXT: %[[MR:.*]] = ckks.rescale %[[ML]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: %[[ONE:.*]] = ckks.encode dense<1.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099511627776.0>
  // CHECK-NEXT: %[[XM:.*]] = ckks.mul_plain %[[X]], %[[ONE]] {ckks.scale_adjust}
  // CHECK-NEXT: %[[XR:.*]] = ckks.rescale %[[XM]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: %[[S:.*]] = ckks.add %[[MR]], %[[XR]] : {{.*}}, !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: return %[[S]] : !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  func.func @adjust_scale(%x: !ct2, %y: !ct2) -> !sq2 {
    %m = ckks.mul %y, %y : !ct2, !ct2
    %l = ckks.relinearize %m : !sq2d3
    %p = ckks.encode dense<1.0> : tensor<8xf64> -> !pt2
    %xs = ckks.mul_plain %x, %p {ckks.scale_adjust} : !ct2, !pt2
    %s = ckks.add %l, %xs : !sq2, !sq2
    return %s : !sq2
  }

  // Lazy: the product stays at 2^80 and x is scaled up by 1 encoded at
  // 2^40 (no level spent); one rescale, at the return. The input rescaled
  // both sides before adding.
  // LAZY-LABEL: func.func @scale_up
  // LAZY-SAME: (%[[X:.*]]: {{.*}}, %[[Y:.*]]: {{.*}})
  // LAZY-NEXT: %[[M:.*]] = ckks.mul %[[Y]], %[[Y]]
  // LAZY-NEXT: %[[ML:.*]] = ckks.relinearize %[[M]]
  // LAZY-NEXT: %[[ONE:.*]] = ckks.encode dense<1.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 1099511627776.0>
  // LAZY-NEXT: %[[XM:.*]] = ckks.mul_plain %[[X]], %[[ONE]] {ckks.scale_adjust}
  // LAZY-NEXT: %[[S:.*]] = ckks.add %[[ML]], %[[XM]] : !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24>
  // LAZY-NEXT: %[[R:.*]] = ckks.rescale %[[S]] : {{.*}} -> !ckks.ct<8, level = 0, scale = 1099511775231.0198>
  // LAZY-NEXT: return %[[R]]
  func.func @scale_up(%x: !ct1, %y: !ct1) -> !rs0 {
    %m = ckks.mul %y, %y : !ct1, !ct1
    %l = ckks.relinearize %m : !sq1d3
    %r = ckks.rescale %l : !sq1 -> !rs0
    %p = ckks.encode dense<1.0> : tensor<8xf64> -> !pt1
    %xs = ckks.mul_plain %x, %p {ckks.scale_adjust} : !ct1, !pt1
    %xr = ckks.rescale %xs : !sq1 -> !rs0
    %s = ckks.add %r, %xr : !rs0, !rs0
    return %s : !rs0
  }

  // One level, scales 1e-5 apart (too close to scale up precisely): x is
  // adjusted one level down onto y's scale and y is dropped to meet it, at
  // level 1 rather than the input's level 0.
  // CHECK-LABEL: func.func @close_scales
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>, %[[Y:.*]]: !ckks.ct<8, level = 2, scale = 1099522622892.2778>)
  // CHECK-NEXT: %[[ONE:.*]] = ckks.encode dense<1.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099521885605.905>
  // CHECK-NEXT: %[[XM:.*]] = ckks.mul_plain %[[X]], %[[ONE]] {ckks.scale_adjust}
  // CHECK-NEXT: %[[XR:.*]] = ckks.rescale %[[XM]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099522622892.2778>
  // CHECK-NEXT: %[[YD:.*]] = ckks.mod_drop %[[Y]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099522622892.2778>
  // CHECK-NEXT: %[[S:.*]] = ckks.add %[[XR]], %[[YD]]
  func.func @close_scales(%x: !ct2, %y: !ckks.ct<8, level = 2, scale = 1099522622892.2778>) -> !ckks.ct<8, level = 0, scale = 1099522622892.2778> {
    %p = ckks.encode dense<1.0> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099521885605.905>
    %xs = ckks.mul_plain %x, %p {ckks.scale_adjust} : !ct2, !ckks.pt<8, level = 2, scale = 1099521885605.905>
    %xr = ckks.rescale %xs : !ckks.ct<8, level = 2, scale = 1.2089370982178855e+24> -> !ckks.ct<8, level = 1, scale = 1099522622892.2778>
    %xd = ckks.mod_drop %xr : !ckks.ct<8, level = 1, scale = 1099522622892.2778> -> !ckks.ct<8, level = 0, scale = 1099522622892.2778>
    %yd = ckks.mod_drop %y : !ckks.ct<8, level = 2, scale = 1099522622892.2778> -> !ckks.ct<8, level = 0, scale = 1099522622892.2778>
    %s = ckks.add %xd, %yd : !ckks.ct<8, level = 0, scale = 1099522622892.2778>, !ckks.ct<8, level = 0, scale = 1099522622892.2778>
    return %s : !ckks.ct<8, level = 0, scale = 1099522622892.2778>
  }
}
