// Round trip of every ckks op, type and the #ckks.params attribute.
// RUN: ember-opt %s | ember-opt | FileCheck %s
// RUN: ember-opt %s --mlir-print-op-generic | ember-opt | FileCheck %s

// Scales: 2^40 = 1099511627776.0, 2^80 = 1.2089258196146292e+24 and
// 2^80 / q_2 = 1099512365055.4944 (q_2 = 1099510890497).
!ct2 = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!ct2d3 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
!ct2sq = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
!ct1 = !ckks.ct<8, level = 1, scale = 1099512365055.4944>
!ct0 = !ckks.ct<8, level = 0, scale = 1099512365055.4944>
!pt2 = !ckks.pt<8, level = 2, scale = 1099511627776.0>

// CHECK: module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921104606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>}
module attributes {ckks.params = #ckks.params<logN = 13,
    Q = [1152921504606830593, 1099511480321, 1099510890497],
    P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // CHECK-LABEL: func.func @arith
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>, %[[Y:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>)
  func.func @arith(%x: !ct2, %y: !ct2) -> !ct0 {
    // CHECK: %[[P:.*]] = ckks.encode dense<5.00000= 1099511627776.0>
    %r = ckks.rotate %x by 3 : !ct2
    // CHECK: %[[C:.*]] = ckks.conjugate %[[R]]
    %c = ckks.conjugate %r : !ct2
    // CHECK: %[[K:.*]] = ckks.keyswitch %[[C]] galois 5
    %k = ckks.keyswitch %c galois 5 : !ct2
    // CHECK: %[[H:.*]]:2 = ckks.hoisted_rotate %[[K]] by [1, -2] : !ckks.ct<8, level = 2, scale =0e-01> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099511627776.0>
    %p = ckks.encode dense<0.5> : tensor<8xf64> -> !pt2
    // CHECK: %[[A:.*]] = ckks.add %[[X]], %[[Y]] : !ckks.ct<8, level = 2, scale = 1099511627776.0>, !ckks.ct<8, level = 2, scale = 1099511drop %[[RS]] : !ckks.ct<8, level 	 1, scale = 1099512365055.4944> -> !ckks.ct<8, level = 0, scale = 1099512365055.4944>
    %md = ckks.mod_drop %rs : !ct1 -> !ct0
    // CHECK: return %[[MD]]
    return %md : !ct0
  }

  // CHECK-LABEL: func.func @key_switching
  func.func @key_switching(%x: !ct2) -> (!ct2, !ct2, !ct2, !ct2, !ct2, !ct2) {
    // CHECK: %[[R:.*]] = ckks.rotate %{{.*}} by 3 : !ckks.ct<8, level = 2, scale = 1099511627776.0>
    %r = ckks.rotate %x by 3 : !ct2
    // CHECK: %[[C:.*]] = ckks.conjugate %[[R]]
    %c = ckks.conjugate %r : !ct2
    // CHECK: %[[K:.*]] = ckks.keyswitch %[[C]] galois 5
    %k = ckks.keyswitch %c galois 5 : !ct2
    // CHECK: %[[H:.*]]:2 = ckks.hoisted_rotate : !ct2sq -> !ct1
    // CHECK: %[[MD:.*]] = ckks.mod_drop %[[RS]] : !ckks.ct<8, level = 1, scale = 1099512365055.4944> -> !ckks.ct<8, level = 0, scale = 1099512365055.4944>
    %md = ckks.mod_drop %rs : !ct1 -> !ct0
    // CHECK: return %[[MD]]
    return %md : !ct0
  }

  // CHECK-LABEL: func.func @key_switching
  func.func @key_switching(%x: !ct2) -> (!ct2, !ct2, !ct2, !ct2, !ct2, !ct2) {
    // CHECK: %[[R:.*]] = ckks.rotate %{{.*}} by 3 : !ckks.ct<8, level = 2, scale = 1099511627776.0>
    %r = ckks.rotate %x by 3 : !ct2
    // CHECK: %[[C:.*]] = ckks.conjugate %[[R]]
    %c = ckks.conjugate %r : !ct2
    // CHECK: %[[K:.*]] = ckks. 1099511627776.0>, !ckks.ct<8, level = 2, scale = 1099511drop %[[RS]] : !ckks.ct<8, level 	 1, scale = 1099512365055.4944> -> !ckks.ct<8, level = 0, scale = 1099512365055.4944>
    %md = ckks.mod_drop %rs : !ct1 -> !ct0
    // CHECK: return %[[MD]]
    return %md : !ct0
  }

  // CHECK-LABEL: func.func @key_switching
  func.func @key_switching(%x: !ct2) -> (!ct2, !ct2, !ct2, !ct2, !ct2, !ct2) {
    // CHECK: %[[R:.*]]3] : !ckks.ct<8, level = 2, scale = 1099511627776.0>
    %s = ckks.hoisted_rotate_sum %k by [0, 1, 2, 3] : !ct2
    // CHECK: return %[[R]], %[[C]], %[[K]], %[[H]]#0, %[[H]]#1, %[[S]]
    return %r, %c, %k, %h#0, %h#1, %s : !ct2, !ct2, !ct2, !ct2, !ct2, !ct2
  }

  // Insecure test mode is recorded as security = 0.
  // CHECK-LABEL: func.func @insecure_params
  // CHECK-SAME: note = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>
  func.func @insecure_params() attributes {note = #ckks.params<logN = 10,
      Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {
    return
  }
}
