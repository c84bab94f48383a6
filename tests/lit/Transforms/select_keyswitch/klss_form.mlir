// RUN: ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch=klss-form=true --split-input-file %s | FileCheck %s
// RUN: ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch --split-input-file %s | FileCheck %s --check-prefix=OFF
// RUN: ember-opt --ckks-to-rns --canonicalize --cse "--rns-select-keyswitch=klss-form=true memory-budget-mib=1400" --split-input-file %s | FileCheck %s --check-prefix=BUDGET
// klss-form on a 23-limb chain (N = 2^16, 40-bit scale primes) with one
// special prime and a digit per limb (K = 1, dnum = 23: Athena's small-K
// regime, where hybrid's ModUp raises 23 digits). For the relinearisation
// and the rotation at level 22 the model predicts KLSS a third faster
// (755 against 1162 us with gamma 6), more than 5% of the program's
// predicted time, so the parameters gain the best form over key group
// sizes 1..16 (gamma 6 with the fewest 61-bit T primes, 6) and both
// switches become KLSS; the relinearisation at level 2 stays hybrid (58
// against 95 us). Without the option the parameters stay hybrid. Under a
// 1400 MiB key budget (hybrid needs 1104 MiB, all KLSS 1656) the level-22
// relinearisation goes back to hybrid (its KLSS key would come beside the
// hybrid relinearisation key of level 2) and the rotation stays KLSS (its
// KLSS key replaces the hybrid one). With K = 2 and dnum = 10, what
// fhe-to-ckks picks for this chain, hybrid wins everywhere.

!cttop = !ckks.ct<16, level = 22, scale = 1099511627776.0>
!ct3top = !ckks.ct<16, level = 22, scale = 1099511627776.0, degree = 3>
!ct3low = !ckks.ct<16, level = 2, scale = 1099511627776.0, degree = 3>
!ctlow = !ckks.ct<16, level = 2, scale = 1099511627776.0>

// CHECK: module attributes {ckks.params = #ckks.params<logN = 16,
// CHECK-SAME: dnum = 23, security = 128, T = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], gamma = 6>}
// OFF: module attributes {ckks.params = #ckks.params<logN = 16,
// OFF-SAME: dnum = 23, security = 128>}
// BUDGET: module attributes {ckks.params = #ckks.params<logN = 16,
// BUDGET-SAME: gamma = 6>}
module attributes {ckks.params = #ckks.params<logN = 16, Q = [1152921504606584833, 1099498258433, 1099499175937, 1099536138241, 1099535220737, 1099499569153, 1099529060353, 1099500617729, 1099502714881, 1099526176769, 1099503370241, 1099525128193, 1099523555329, 1099522375681, 1099503894529, 1099504549889, 1099521458177, 1099516870657, 1099506515969, 1099515691009, 1099507695617, 1099510054913, 1099512938497], P = [1152921504598720513], logScale = 40, dnum = 23, security = 128>} {

// CHECK-LABEL: func.func @relin_top
// CHECK: rns.klss_mod_up
// CHECK-SAME: ks.kind = "relin", ks.klss_us = {{[0-9.]+}} : f64, ks.method = "klss"
// OFF-LABEL: func.func @relin_top
// OFF: rns.mod_up
// OFF-SAME: ks.method = "hybrid"
// OFF-NOT: ks.klss_us
// BUDGET-LABEL: func.func @relin_top
// BUDGET: rns.mod_up
// BUDGET-SAME: ks.method = "hybrid"
func.func @relin_top(%c: !ct3top) -> !cttop {
  %0 = ckks.relinearize %c : !ct3top
  return %0 : !cttop
}

// CHECK-LABEL: func.func @rotate_top
// CHECK: rns.klss_mod_up
// CHECK-SAME: ks.method = "klss"
// BUDGET-LABEL: func.func @rotate_top
// BUDGET: rns.klss_mod_up
// BUDGET-SAME: ks.method = "klss"
func.func @rotate_top(%c: !cttop) -> !cttop {
  %0 = ckks.rotate %c by 1 : !cttop
  return %0 : !cttop
}

// CHECK-LABEL: func.func @relin_low
// CHECK: rns.mod_up
// CHECK-SAME: ks.method = "hybrid"
func.func @relin_low(%c: !ct3low) -> !ctlow {
  %0 = ckks.relinearize %c : !ct3low
  return %0 : !ctlow
}

}

// -----

// athena40's chain (L+1 = 40, K = 8, dnum 5) without its KLSS form: KLSS
// wins only at the top level and by 3% (932 against 964 us; the level-8
// relinearisation 297 against 166), under 5% of the program's predicted
// time, so no form is added (and no ks.klss_us is recorded).

!ct3top = !ckks.ct<8, level = 39, scale = 68719476736.0, degree = 3>
!cttop = !ckks.ct<8, level = 39, scale = 68719476736.0>
!ct3low = !ckks.ct<8, level = 8, scale = 68719476736.0, degree = 3>
!ctlow = !ckks.ct<8, level = 8, scale = 68719476736.0>

// CHECK: module attributes {ckks.params = #ckks.params<logN = 16,
// CHECK-SAME: dnum = 5, security = 128>}
module attributes {ckks.params = #ckks.params<logN = 16, Q = [1099510054913, 68685398017, 68686184449, 68754866177, 68754604033, 68693655553, 68695490561, 68752637953, 68749885441, 68695621633, 68696670209, 68747001857, 68745953281, 68699160577, 68745166849, 68700209153, 68744380417, 68743069697, 68700733441, 68701126657, 68702568449, 68741234689, 68738482177, 68703748097, 68737957889, 68705320961, 68735598593, 68731273217, 68706631681, 68707680257, 68730093569, 68709253121, 68710039553, 68711350273, 68729307137, 68712005633, 68724719617, 68712923137, 68724326401, 68718428161], P = [137438822401, 137438691329, 137437511681, 137434103809, 137433317377, 137431351297, 137422962689, 137421127681], logScale = 36, dnum = 5, security = 128>} {

// CHECK-LABEL: func.func @athena_top
// CHECK: rns.mod_up
// CHECK-SAME: ks.method = "hybrid"
// CHECK-NOT: ks.klss_us
// CHECK-NOT: rns.klss_mod_up
func.func @athena_top(%c: !ct3top) -> !cttop {
  %0 = ckks.relinearize %c : !ct3top
  return %0 : !cttop
}

func.func @athena_low(%c: !ct3low) -> !ctlow {
  %0 = ckks.relinearize %c : !ct3low
  return %0 : !ctlow
}

}
