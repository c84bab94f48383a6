// RUN: ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch=method=hybrid %s | FileCheck %s --check-prefix=HYBRID
// RUN: ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch=method=klss %s | FileCheck %s --check-prefix=KLSS
// The forced choice wins over the model both ways: method=hybrid keeps the
// level-39 relinearisation hybrid (KLSS would be faster), method=klss makes
// the level-8 one KLSS (hybrid would be faster). Both predictions are kept.

!ct3top = !ckks.ct<8, level = 39, scale = 68719476736.0, degree = 3>
!ct3low = !ckks.ct<8, level = 8, scale = 68719476736.0, degree = 3>
!cttop = !ckks.ct<8, level = 39, scale = 68719476736.0>
!ctlow = !ckks.ct<8, level = 8, scale = 68719476736.0>

module attributes {ckks.params = #ckks.params<logN = 16, Q = [1099510054913, 68685398017, 68686184449, 68754866177, 68754604033, 68693655553, 68695490561, 68752637953, 68749885441, 68695621633, 68696670209, 68747001857, 68745953281, 68699160577, 68745166849, 68700209153, 68744380417, 68743069697, 68700733441, 68701126657, 68702568449, 68741234689, 68738482177, 68703748097, 68737957889, 68705320961, 68735598593, 68731273217, 68706631681, 68707680257, 68730093569, 68709253121, 68710039553, 68711350273, 68729307137, 68712005633, 68724719617, 68712923137, 68724326401, 68718428161], P = [137438822401, 137438691329, 137437511681, 137434103809, 137433317377, 137431351297, 137422962689, 137421127681], logScale = 36, dnum = 5, security = 128, T = [2305843009211596801, 2305843009210023937, 2305843009208713217, 2305843009202159617, 2305843009201242113, 2305843009200586753, 2305843009196916737, 2305843009195868161, 2305843009195343873, 2305843009191936001], gamma = 8>} {

// HYBRID-LABEL: func.func @relin_top
// HYBRID: rns.mod_up
// HYBRID-SAME: ks.method = "hybrid", ks.predicted_us = 963.
// HYBRID: rns.ks_inner_product
// HYBRID-NOT: rns.klss_
// HYBRID-LABEL: func.func @relin_low
// HYBRID: rns.mod_up
// HYBRID-NOT: rns.klss_
// HYBRID: return
// KLSS-LABEL: func.func @relin_top
// KLSS: rns.klss_mod_up
// KLSS-NOT: rns.mod_up
// KLSS-LABEL: func.func @relin_low
// KLSS: rns.load_key relin : !rns.klss_evk<dnum = 5, groups = 6, t = 10>
// KLSS: %[[T:.*]]:2 = rns.klss_mod_up
// KLSS-SAME: ks.method = "klss", ks.predicted_us = 297.
// KLSS-SAME: -> !rns.poly<ntt, t[0:10]>, !rns.poly<ntt, t[0:10]>
// KLSS: rns.klss_inner_product %{{.*}}(%[[T]]#0, %[[T]]#1) {{.*}} -> !rns.poly<coeff, q[0:9], p[0:8]>, !rns.poly<coeff, q[0:9], p[0:8]>
// KLSS: rns.mod_down {{.*}} -> !rns.poly<coeff, q[0:9]>, !rns.poly<coeff, q[0:9]>
// KLSS: rns.ntt
// KLSS: rns.ntt
// KLSS-NOT: rns.mod_up
// KLSS-NOT: rns.ks_inner_product
func.func @relin_top(%c: !ct3top) -> !cttop {
  %0 = ckks.relinearize %c : !ct3top
  return %0 : !cttop
}
func.func @relin_low(%c: !ct3low) -> !ctlow {
  %0 = ckks.relinearize %c : !ct3low
  return %0 : !ctlow
}

}
