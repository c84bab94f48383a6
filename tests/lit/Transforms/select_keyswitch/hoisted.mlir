// RUN: ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch=method=klss %s | FileCheck %s
// RUN: ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch %s | FileCheck %s --check-prefix=AUTO
// Hoisted rotations at level 39 of athena40. The cost model prefers hybrid
// for them (the AUTO prefix; the ModUp is shared and each digit's
// automorphism moves l+1+K limbs once; 1264 us against KLSS's 1500 for a
// pair); forced to KLSS, the group keeps its structure: ONE klss_mod_up of
// c1 shared by every rotation, the automorphisms act on the T digits, one klss_inner_product per rotation;
// hoisted_rotate_sum adds the coefficient-form accumulators and does ONE
// coefficient-form ModDown and its NTT.

!ct = !ckks.ct<8, level = 39, scale = 68719476736.0>

module attributes {ckks.params = #ckks.params<logN = 16, Q = [1099510054913, 68685398017, 68686184449, 68754866177, 68754604033, 68693655553, 68695490561, 68752637953, 68749885441, 68695621633, 68696670209, 68747001857, 68745953281, 68699160577, 68745166849, 68700209153, 68744380417, 68743069697, 68700733441, 68701126657, 68702568449, 68741234689, 68738482177, 68703748097, 68737957889, 68705320961, 68735598593, 68731273217, 68706631681, 68707680257, 68730093569, 68709253121, 68710039553, 68711350273, 68729307137, 68712005633, 68724719617, 68712923137, 68724326401, 68718428161], P = [137438822401, 137438691329, 137437511681, 137434103809, 137433317377, 137431351297, 137422962689, 137421127681], logScale = 36, dnum = 5, security = 128, T = [2305843009211596801, 2305843009210023937, 2305843009208713217, 2305843009202159617, 2305843009201242113, 2305843009200586753, 2305843009196916737, 2305843009195868161, 2305843009195343873, 2305843009191936001], gamma = 8>} {

// AUTO-LABEL: func.func @sum
// AUTO: rns.mod_up
// AUTO-SAME: ks.kind = "hoisted x2"
// AUTO-SAME: ks.method = "hybrid"
// AUTO-NOT: rns.klss_mod_up
// AUTO-LABEL: func.func @rotations
// AUTO-NOT: rns.klss_mod_up
// AUTO: return
// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:40]>, %[[C1:.*]]: !rns.poly<ntt, q[0:40]>)
// CHECK: %[[DIG:.*]]:5 = rns.decompose %[[C1]]
// CHECK: %[[T:.*]]:5 = rns.klss_mod_up
// CHECK-SAME: ks.kind = "hoisted x2"
// CHECK-SAME: ks.method = "klss"
// CHECK-NOT: rns.klss_mod_up
// CHECK: rns.automorphism %[[T]]#0, 5 : !rns.poly<ntt, t[0:10]>
// CHECK: rns.load_key galois 5 : !rns.klss_evk<dnum = 5, groups = 6, t = 10>
// CHECK: %[[A0:.*]], %[[A1:.*]] = rns.klss_inner_product
// CHECK: rns.automorphism %[[T]]#4, 25 : !rns.poly<ntt, t[0:10]>
// CHECK: rns.load_key galois 25 : !rns.klss_evk<dnum = 5, groups = 6, t = 10>
// CHECK: %[[B0:.*]], %[[B1:.*]] = rns.klss_inner_product
// CHECK: %[[S0:.*]] = rns.add %[[A0]], %[[B0]] : !rns.poly<coeff, q[0:40], p[0:8]>
// CHECK: %[[S1:.*]] = rns.add %[[A1]], %[[B1]] : !rns.poly<coeff, q[0:40], p[0:8]>
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[S0]], %[[S1]] : {{.*}} -> !rns.poly<coeff, q[0:40]>, !rns.poly<coeff, q[0:40]>
// CHECK: rns.ntt %[[M]]#0
// CHECK: rns.ntt %[[M]]#1
// CHECK-NOT: rns.mod_down
// CHECK-NOT: rns.mod_up
// CHECK-NOT: rns.ks_inner_product
// CHECK: return
func.func @sum(%c: !ct) -> !ct {
  %0 = ckks.hoisted_rotate_sum %c by [1, 2] : !ct
  return %0 : !ct
}

// CHECK-LABEL: func.func @rotations
// CHECK: rns.klss_mod_up
// CHECK-NOT: rns.klss_mod_up
// CHECK: rns.klss_inner_product
// CHECK: rns.mod_down {{.*}} -> !rns.poly<coeff, q[0:40]>, !rns.poly<coeff, q[0:40]>
// CHECK: rns.ntt
// CHECK: rns.klss_inner_product
// CHECK: rns.mod_down {{.*}} -> !rns.poly<coeff, q[0:40]>, !rns.poly<coeff, q[0:40]>
// CHECK: rns.ntt
// CHECK-NOT: rns.mod_up
// CHECK: return
func.func @rotations(%c: !ct) -> (!ct, !ct) {
  %0:2 = ckks.hoisted_rotate %c by [1, 2] : !ct -> !ct, !ct
  return %0#0, %0#1 : !ct, !ct
}

}
