// RUN: ember-opt --ckks-to-rns --rns-select-keyswitch=method=klss %s -split-input-file -verify-diagnostics -o /dev/null
// RUN: not ember-opt --ckks-to-rns "--rns-select-keyswitch=method=fast" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=METHOD
// RUN: not ember-opt --ckks-to-rns "--rns-select-keyswitch=constants=ntt=1.1,warp=2" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONST

// METHOD: method must be auto, hybrid or klss, got 'fast'
// CONST: unknown cost constant 'warp'

// Forcing KLSS on parameters without T and gamma names what is missing.
!ct3 = !ckks.ct<8, level = 39, scale = 68719476736.0, degree = 3>
!ct = !ckks.ct<8, level = 39, scale = 68719476736.0>

// expected-error @+1 {{method=klss needs a KLSS form in #ckks.params, but the parameters have no temporary primes T and no gamma}}
module attributes {ckks.params = #ckks.params<logN = 16, Q = [1099510054913, 68685398017, 68686184449, 68754866177, 68754604033, 68693655553, 68695490561, 68752637953, 68749885441, 68695621633, 68696670209, 68747001857, 68745953281, 68699160577, 68745166849, 68700209153, 68744380417, 68743069697, 68700733441, 68701126657, 68702568449, 68741234689, 68738482177, 68703748097, 68737957889, 68705320961, 68735598593, 68731273217, 68706631681, 68707680257, 68730093569, 68709253121, 68710039553, 68711350273, 68729307137, 68712005633, 68724719617, 68712923137, 68724326401, 68718428161], P = [137438822401, 137438691329, 137437511681, 137434103809, 137433317377, 137431351297, 137422962689, 137421127681], logScale = 36, dnum = 5, security = 128>} {
func.func @relin(%c: !ct3) -> !ct {
  %0 = ckks.relinearize %c : !ct3
  return %0 : !ct
}
}
