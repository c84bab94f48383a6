// Refolding: a sum of products by plaintexts whose ciphertexts sit at
// different levels (the baby steps T_1 .. T_k of a polynomial) is computed
// at the lowest level, the scale adjustment folded into each product's
// constant, with one rescale for the whole sum. Before, every partial sum
// was rescaled and adjusted (a multiply and a rescale per term).
// RUN: ember-opt --ckks-manage-levels=strategy=lazy %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels=strategy=eager %s | FileCheck %s --check-prefix=EAGER

// 2^40 = 1099511627776.0, 2^80 = 1.2089258196146292e+24,
// q_1 = 1099511480321, q_2 = 1099510890497. The values at level 2 carry
// scale s_2 = 1099500632659.7223 (2^40 (1 - 1e-5)), those at level 1 2^40,
// as a chain's levels carry slightly different scales S_l.
!ct2 = !ckks.ct<8, level = 2, scale = 1099500632659.7223>
!ct1 = !ckks.ct<8, level = 1, scale = 1099511627776.0>
!sq2 = !ckks.ct<8, level = 2, scale = 1.2089016412191296e+24>
!sq1 = !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24>
!pt2 = !ckks.pt<8, level = 2, scale = 1099500632659.7223>
!pt1 = !ckks.pt<8, level = 1, scale = 1099511627776.0>
// The inputs match the sums' scales by adjustments (which the pass strips).
!adj = !ckks.pt<8, level = 1, scale = 1.000020000300004>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // 0.5 x + 0.25 y with x at level 2 and y at level 1: x is dropped to
  // level 1 and multiplied there by 0.5 encoded at 2^80 / s_x, so both
  // products have y's product scale; the sum is rescaled once, at the
  // return.
  // CHECK-LABEL: func.func @two_levels
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, {{.*}}>, %[[Y:.*]]: !ckks.ct<8, level = 1, {{.*}}>)
  // CHECK-DAG: %[[PY:.*]] = ckks.encode dense<2.500000e-01> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 1099511627776.0>
  // CHECK-DAG: %[[MY:.*]] = ckks.mul_plain %[[Y]], %[[PY]]
  // CHECK-DAG: %[[PX:.*]] = ckks.encode dense<5.000000e-01> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 1099522623002.23>
  // CHECK-DAG: %[[XD:.*]] = ckks.mod_drop %[[X]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099500632659.7223>
  // CHECK-DAG: %[[MX:.*]] = ckks.mul_plain %[[XD]], %[[PX]]
  // CHECK: %[[S:.*]] = ckks.add %[[MX]], %[[MY]] : !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24>
  // CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[S]] : {{.*}} -> !ckks.ct<8, level = 0,
  // CHECK-NEXT: return %[[R]]
  // Eager: each product is rescaled; x's is redone from level 1, so two
  // rescales in all (adjusting x's rescaled product would take three and
  // a multiply by 1).
  // EAGER-LABEL: func.func @two_levels
  // EAGER-COUNT-2: ckks.rescale
  // EAGER-NOT: ckks.rescale
  // EAGER-NOT: scale_adjust
  // EAGER: return
  func.func @two_levels(%x: !ct2, %y: !ct1) -> !sq1 {
    %p = ckks.encode dense<0.5> : tensor<8xf64> -> !pt2
    %q = ckks.encode dense<0.25> : tensor<8xf64> -> !pt1
    %mx = ckks.mul_plain %x, %p : !ct2, !pt2
    %my = ckks.mul_plain %y, %q : !ct1, !pt1
    %mxd0 = ckks.mod_drop %mx : !sq2 -> !ckks.ct<8, level = 1, scale = 1.2089016412191296e+24>
    %one = ckks.encode dense<1.0> : tensor<8xf64> -> !adj
    %mxd = ckks.mul_plain %mxd0, %one {ckks.scale_adjust} : !ckks.ct<8, level = 1, scale = 1.2089016412191296e+24>, !adj
    %s = ckks.add %mxd, %my : !sq1, !sq1
    return %s : !sq1
  }

  // A partial sum at a higher level (x + 3 z - w, integer multiple and
  // subtraction included) is redone term by term at the lower level.
  // CHECK-LABEL: func.func @partial_sum
  // CHECK-NOT: ckks.rescale
  // CHECK: ckks.mod_drop {{.*}} -> !ckks.ct<8, level = 1,
  // CHECK-NOT: ckks.rescale
  // CHECK: ckks.mul_int {{.*}} : !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24>
  // CHECK-NOT: ckks.rescale
  // CHECK: ckks.sub
  // CHECK-NOT: ckks.rescale
  // CHECK: ckks.add {{.*}} : !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24>
  // CHECK-NEXT: ckks.rescale
  // CHECK-NEXT: return
  func.func @partial_sum(%x: !ct2, %z: !ct2, %w: !ct2, %y: !ct1) -> !sq1 {
    %p = ckks.encode dense<0.5> : tensor<8xf64> -> !pt2
    %mx = ckks.mul_plain %x, %p : !ct2, !pt2
    %mz = ckks.mul_plain %z, %p : !ct2, !pt2
    %mw = ckks.mul_plain %w, %p : !ct2, !pt2
    %z3 = ckks.mul_int %mz, 3 : !sq2
    %a = ckks.add %mx, %z3 : !sq2, !sq2
    %b = ckks.sub %a, %mw : !sq2, !sq2
    %q = ckks.encode dense<0.25> : tensor<8xf64> -> !pt1
    %my = ckks.mul_plain %y, %q : !ct1, !pt1
    %bd0 = ckks.mod_drop %b : !sq2 -> !ckks.ct<8, level = 1, scale = 1.2089016412191296e+24>
    %one = ckks.encode dense<1.0> : tensor<8xf64> -> !adj
    %bd = ckks.mul_plain %bd0, %one {ckks.scale_adjust} : !ckks.ct<8, level = 1, scale = 1.2089016412191296e+24>, !adj
    %s = ckks.add %bd, %my : !sq1, !sq1
    return %s : !sq1
  }

  // A product with a second use is not refolded (that would compute it
  // twice): it is rescaled and adjusted as before.
  // CHECK-LABEL: func.func @shared_product
  // CHECK: %[[M:.*]] = ckks.mul_plain %[[X:.*]], %{{.*}} : !ckks.ct<8, level = 2,
  // CHECK: %[[MR:.*]] = ckks.rescale %[[M]]
  // CHECK: ckks.mul_plain %[[MR]], %{{.*}} {ckks.scale_adjust}
  // CHECK: return %{{.*}}, %[[MR]]
  func.func @shared_product(%x: !ct2, %y: !ct1) -> (!sq1, !sq2) {
    %p = ckks.encode dense<0.5> : tensor<8xf64> -> !pt2
    %q = ckks.encode dense<0.25> : tensor<8xf64> -> !pt1
    %mx = ckks.mul_plain %x, %p : !ct2, !pt2
    %my = ckks.mul_plain %y, %q : !ct1, !pt1
    %mxd0 = ckks.mod_drop %mx : !sq2 -> !ckks.ct<8, level = 1, scale = 1.2089016412191296e+24>
    %one = ckks.encode dense<1.0> : tensor<8xf64> -> !adj
    %mxd = ckks.mul_plain %mxd0, %one {ckks.scale_adjust} : !ckks.ct<8, level = 1, scale = 1.2089016412191296e+24>, !adj
    %s = ckks.add %mxd, %my : !sq1, !sq1
    return %s, %mx : !sq1, !sq2
  }
}
