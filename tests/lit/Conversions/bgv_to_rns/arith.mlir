// bgv-to-rns: BGV ops become the rns ops ckks-to-rns makes (the rns passes
// and emitters apply unchanged). add_int 7 at factor 5 adds the constant
// 35 to c_0; mod_switch is rns.rescale (t-corrected at run time, from the
// chain's plain); relinearize and rotate are hybrid key switches (the
// rotation hoisted: see hoist.mlir).
// RUN: ember-opt --bgv-to-rns %s | FileCheck %s

module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201, 1099511480321], P = [2305843009213317121], logScale = 40, dnum = 3, security = 128, plain = 65537>} {
  // CHECK-LABEL: func.func @f
  // CHECK-SAME: (%[[A0:.*]]: !rns.poly<ntt, q[0:3]>, %[[A1:.*]]: !rns.poly<ntt, q[0:3]>, %[[B0:.*]]: !rns.poly<ntt, q[0:3]>, %[[B1:.*]]: !rns.poly<ntt, q[0:3]>)
  // CHECK-SAME: -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>)
  func.func @f(%a: !bgv.ct<8, level = 2, factor = 1>, %b: !bgv.ct<8, level = 2, factor = 5>) -> !bgv.ct<8, level = 1, factor = 47715> {
    // CHECK: %[[D0:.*]] = rns.mul %[[A0]], %[[B0]]
    // CHECK: %[[X:.*]] = rns.mul %[[A0]], %[[B1]]
    // CHECK: %[[Y:.*]] = rns.mul %[[A1]], %[[B0]]
    // CHECK: %[[D1:.*]] = rns.add %[[X]], %[[Y]]
    // CHECK: %[[D2:.*]] = rns.mul %[[A1]], %[[B1]]
    %m = bgv.mul %a, %b : !bgv.ct<8, level = 2, factor = 1>, !bgv.ct<8, level = 2, factor = 5> -> !bgv.ct<8, level = 2, factor = 5, degree = 3>
    // CHECK: %[[DIG:.*]]:3 = rns.decompose %[[D2]]
    // CHECK: rns.mod_up %[[DIG]]#0, %[[DIG]]#1, %[[DIG]]#2
    // CHECK: rns.ks_inner_product
    // CHECK: %[[MD:.*]]:2 = rns.mod_down
    // CHECK: %[[R0:.*]] = rns.add %[[D0]], %[[MD]]#0
    // CHECK: %[[R1:.*]] = rns.add %[[D1]], %[[MD]]#1
    %r = bgv.relinearize %m : !bgv.ct<8, level = 2, factor = 5, degree = 3>
    // CHECK: %[[C:.*]] = rns.add_const %[[R0]], 35
    %ai = bgv.add_int %r, 7 : !bgv.ct<8, level = 2, factor = 5>
    // CHECK: %[[M0:.*]] = rns.mul_const %[[C]], -3
    // CHECK: %[[M1:.*]] = rns.mul_const %[[R1]], -3
    %mi = bgv.mul_int %ai, -3 : !bgv.ct<8, level = 2, factor = 5>
    // CHECK: %[[P:.*]] = rns.encode dense<[1.000000e+00, -2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, -1.000000e+00]> : tensor<8xf64>, 5.000000e+00 : !rns.poly<ntt, q[0:3]>
    %p = bgv.encode dense<[1, -2, 3, 4, 5, 6, 7, 65536]> : tensor<8xi64> -> !bgv.pt<8, level = 2, factor = 5>
    // CHECK: %[[S0:.*]] = rns.sub %[[M0]], %[[P]]
    %sp = bgv.sub_plain %mi, %p : !bgv.ct<8, level = 2, factor = 5>, !bgv.pt<8, level = 2, factor = 5>
    // The rotation hoisted: c1 raised first, the automorphism on the raised
    // digits and on c0.
    // CHECK: %[[RD:.*]]:3 = rns.decompose %[[M1]]
    // CHECK: %[[RU:.*]]:3 = rns.mod_up %[[RD]]#0, %[[RD]]#1, %[[RD]]#2
    // CHECK: rns.automorphism %[[RU]]#0, 125
    // CHECK: rns.load_key galois 125
    // CHECK: rns.ks_inner_product
    // CHECK: rns.mod_down
    // CHECK: rns.automorphism %[[S0]], 125
    %rot = bgv.rotate %sp, 3 : !bgv.ct<8, level = 2, factor = 5>
    // CHECK: %[[RS:.*]]:2 = rns.rescale %{{.*}}, %{{.*}} : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
    %ms = bgv.mod_switch %rot : !bgv.ct<8, level = 2, factor = 5> -> !bgv.ct<8, level = 1, factor = 47715>
    // CHECK: return %[[RS]]#0, %[[RS]]#1
    return %ms : !bgv.ct<8, level = 1, factor = 47715>
  }
}
