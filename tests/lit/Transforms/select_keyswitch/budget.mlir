// RUN: ember-opt --ckks-to-rns --rns-select-keyswitch=memory-budget-mib=320 %s | FileCheck %s --check-prefix=FITS
// RUN: ember-opt --ckks-to-rns --rns-select-keyswitch=memory-budget-mib=250 %s | FileCheck %s --check-prefix=SMALL
// RUN: ember-opt --ckks-to-rns --rns-select-keyswitch=memory-budget-mib=200 %s -verify-diagnostics -o /dev/null
// athena40 keys: hybrid 5 x 2 x 48 limbs = 240 MiB, KLSS 5 x 6 groups x 2 x
// 10 limbs = 300 MiB. The level-39 relinearisation prefers KLSS (300 MiB
// fits 320); with 250 MiB it falls back to hybrid (240 MiB fits); with 200
// MiB not even hybrid fits.

!ct3 = !ckks.ct<8, level = 39, scale = 68719476736.0, degree = 3>
!ct = !ckks.ct<8, level = 39, scale = 68719476736.0>

// expected-error @+1 {{the evaluation keys need 251658240 bytes (240.0 MiB, hybrid key switching) but memory-budget-mib = 200 allows 209715200 bytes}}
module attributes {ckks.params = #ckks.params<logN = 16, Q = [1099510054913, 68685398017, 68686184449, 68754866177, 68754604033, 68693655553, 68695490561, 68752637953, 68749885441, 68695621633, 68696670209, 68747001857, 68745953281, 68699160577, 68745166849, 68700209153, 68744380417, 68743069697, 68700733441, 68701126657, 68702568449, 68741234689, 68738482177, 68703748097, 68737957889, 68705320961, 68735598593, 68731273217, 68706631681, 68707680257, 68730093569, 68709253121, 68710039553, 68711350273, 68729307137, 68712005633, 68724719617, 68712923137, 68724326401, 68718428161], P = [137438822401, 137438691329, 137437511681, 137434103809, 137433317377, 137431351297, 137422962689, 137421127681], logScale = 36, dnum = 5, security = 128, T = [2305843009211596801, 2305843009210023937, 2305843009208713217, 2305843009202159617, 2305843009201242113, 2305843009200586753, 2305843009196916737, 2305843009195868161, 2305843009195343873, 2305843009191936001], gamma = 8>} {

// FITS: rns.klss_mod_up
// FITS-SAME: ks.method = "klss"
// SMALL-NOT: rns.klss_
// SMALL: rns.mod_up
// SMALL-SAME: ks.klss_us = 932.{{[0-9]+}} : f64, ks.method = "hybrid"
// SMALL-NOT: rns.klss_
func.func @relin(%c: !ct3) -> !ct {
  %0 = ckks.relinearize %c : !ct3
  return %0 : !ct
}

}
