// RUN: ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch %s | FileCheck %s
// athena40 (N = 2^16, L+1 = 40, K = 8, dnum 5, gamma 8, r' = 10): the cost
// model (KeySwitchCost.h) predicts, for one relinearisation, KLSS 932 us
// against hybrid 964 us at level 39 (five full digits, six key groups), but
// hybrid 166 us against KLSS 297 us at level 8 (two digits: KLSS still pays
// its T transforms and the exact conversions of every group). So the top
// key switch becomes KLSS and the low one stays hybrid.

!ct3top = !ckks.ct<8, level = 39, scale = 68719476736.0, degree = 3>
!cttop = !ckks.ct<8, level = 39, scale = 68719476736.0>
!ct3low = !ckks.ct<8, level = 8, scale = 68719476736.0, degree = 3>
!ctlow = !ckks.ct<8, level = 8, scale = 68719476736.0>

module attributes {ckks.params = #ckks.params<logN = 16, Q = [1099510054913, 68685398017, 68686184449, 68754866177, 68754604033, 68693655553, 68695490561, 68752637953, 68749885441, 68695621633, 68696670209, 68747001857, 68745953281, 68699160577, 68745166849, 68700209153, 68744380417, 68743069697, 68700733441, 68701126657, 68702568449, 68741234689, 68738482177, 68703748097, 68737957889, 68705320961, 68735598593, 68731273217, 68706631681, 68707680257, 68730093569, 68709253121, 68710039553, 68711350273, 68729307137, 68712005633, 68724719617, 68712923137, 68724326401, 68718428161], P = [137438822401, 137438691329, 137437511681, 137434103809, 137433317377, 137431351297, 137422962689, 137421127681], logScale = 36, dnum = 5, security = 128, T = [2305843009211596801, 2305843009210023937, 2305843009208713217, 2305843009202159617, 2305843009201242113, 2305843009200586753, 2305843009196916737, 2305843009195868161, 2305843009195343873, 2305843009191936001], gamma = 8>} {

// CHECK-LABEL: func.func @relin_top
// CHECK-SAME: (%[[D0:.*]]: !rns.poly<ntt, q[0:40]>, %[[D1:.*]]: !rns.poly<ntt, q[0:40]>, %[[D2:.*]]: !rns.poly<ntt, q[0:40]>)
// CHECK: %[[K:.*]] = rns.load_key relin : !rns.klss_evk<dnum = 5, groups = 6, t = 10>
// CHECK: %[[DIG:.*]]:5 = rns.decompose %[[D2]]
// CHECK: %[[T:.*]]:5 = rns.klss_mod_up %[[DIG]]#0, %[[DIG]]#1, %[[DIG]]#2, %[[DIG]]#3, %[[DIG]]#4
// CHECK-SAME: ks.kind = "relin", ks.klss_us = 932.{{[0-9]+}} : f64, ks.method = "klss"
// CHECK-SAME: -> !rns.poly<ntt, t[0:10]>, !rns.poly<ntt, t[0:10]>, !rns.poly<ntt, t[0:10]>, !rns.poly<ntt, t[0:10]>, !rns.poly<ntt, t[0:10]>
// CHECK: %[[A0:.*]], %[[A1:.*]] = rns.klss_inner_product %[[K]](%[[T]]#0, %[[T]]#1, %[[T]]#2, %[[T]]#3, %[[T]]#4)
// CHECK-SAME: -> !rns.poly<coeff, q[0:40], p[0:8]>, !rns.poly<coeff, q[0:40], p[0:8]>
// CHECK: %[[M:.*]]:2 = rns.mod_down %[[A0]], %[[A1]] : !rns.poly<coeff, q[0:40], p[0:8]>, !rns.poly<coeff, q[0:40], p[0:8]> -> !rns.poly<coeff, q[0:40]>, !rns.poly<coeff, q[0:40]>
// CHECK: %[[N0:.*]] = rns.ntt %[[M]]#0 : !rns.poly<coeff, q[0:40]> -> !rns.poly<ntt, q[0:40]>
// CHECK: %[[N1:.*]] = rns.ntt %[[M]]#1
// CHECK: %[[R0:.*]] = rns.add %[[D0]], %[[N0]]
// CHECK: %[[R1:.*]] = rns.add %[[D1]], %[[N1]]
// CHECK: return %[[R0]], %[[R1]]
// CHECK-NOT: rns.mod_up
// CHECK-NOT: rns.ks_inner_product
func.func @relin_top(%c: !ct3top) -> !cttop {
  %0 = ckks.relinearize %c : !ct3top
  return %0 : !cttop
}

// CHECK-LABEL: func.func @relin_low
// CHECK: rns.load_key relin : !rns.evk<dnum = 5, q = 40, p = 8>
// CHECK: %[[DIG:.*]]:2 = rns.decompose
// CHECK: rns.mod_up %[[DIG]]#0, %[[DIG]]#1
// CHECK-SAME: ks.hybrid_us = 166.{{[0-9]+}} : f64, ks.kind = "relin", ks.klss_us = 297.{{[0-9]+}} : f64, ks.method = "hybrid"
// CHECK: rns.ks_inner_product
// CHECK: rns.mod_down {{.*}} : !rns.poly<ntt, q[0:9], p[0:8]>, !rns.poly<ntt, q[0:9], p[0:8]> -> !rns.poly<ntt, q[0:9]>, !rns.poly<ntt, q[0:9]>
// CHECK-NOT: rns.klss_mod_up
// CHECK-NOT: rns.klss_inner_product
// CHECK: return
func.func @relin_low(%c: !ct3low) -> !ctlow {
  %0 = ckks.relinearize %c : !ct3low
  return %0 : !ctlow
}

}
