// KLSS at 32-bit words. cheddar32k1 is Athena's small-K shape on
// Cheddar's 32-bit chain: 47 Q limbs, one 30-bit special prime (dnum 47, a
// digit per limb), gamma 3 and five 30-bit T primes. The model at 32-bit
// constants (KeySwitchConstants::forWord(32)) predicts KLSS faster at the
// top and at 23 limbs (1465 against 1946 us, 451 against 507), hybrid
// faster at a few limbs (ModUp is small there, the way back from T is not).
// RUN: ember-opt "--fhe-to-ckks=params=cheddar32k1" %s | ember-opt --ckks-to-rns "--rns-select-keyswitch=print-table=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TABLE
// The whole pipeline: the relinearisation at level 46 and the rotation at
// 45 (limb levels) go to KLSS, with 32-bit KLSS keys of 47 digits x 16
// groups x 5 T limbs.
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{params=cheddar32k1}" %s | FileCheck %s
// klss-form at 32 bits: the same chain without its KLSS form gains one
// (the best gamma for the program, its T the fewest 30-bit primes,
// ckks::tempPrimeBits(32)); both key switches become KLSS.
// RUN: ember-opt "--fhe-to-ckks=params=cheddar32k1" %s | sed -e 's/, T = \[[0-9, ]*\], gamma = 3//' | ember-opt --ckks-to-rns --canonicalize --cse --rns-select-keyswitch=klss-form=true | FileCheck %s --check-prefix=FORM
// klss-gamma on the automatic path at 32 bits (refused before): T is the
// fewest 30-bit primes its exact products need for gamma 2.
// RUN: ember-opt "--fhe-to-ckks=word=32 klss-gamma=2" %s | FileCheck %s --check-prefix=GAMMA

// TABLE: rns-select-keyswitch table: N = 2^16, L+1 = 47, K = 1, dnum = 47, gamma = 3, r' = 5
// TABLE: {{^}}     46        1946.0      1464.8      1958.4    1477.1
// TABLE: {{^}}     22         507.4       451.1       513.4     457.1
// TABLE: {{^}}      2          39.0        58.3        39.7      59.1

// CHECK: ckks.params = #ckks.params<logN = 16, {{.*}} P = [{{[0-9]+}}], logScale = 58, dnum = 47, security = 128, T = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], gamma = 3, word = 32, scalePrimes = 2>
// CHECK-LABEL: func.func @f
// CHECK: rns.load_key relin : !rns.klss_evk<dnum = 47, groups = 16, t = 5>
// CHECK: rns.klss_mod_up
// CHECK-SAME: ks.kind = "relin"
// CHECK-SAME: ks.method = "klss"
// CHECK: rns.klss_inner_product
// CHECK: rns.klss_mod_up
// CHECK-SAME: ks.kind = "galois"
// CHECK-SAME: ks.method = "klss"
// CHECK: rns.load_key galois
// CHECK-SAME: !rns.klss_evk<dnum = 47, groups = 16, t = 5>
// CHECK-NOT: rns.mod_up

// (#ckks.params refuses T primes above 30 bits at word = 32.)
// FORM: ckks.params = #ckks.params<logN = 16, {{.*}} dnum = 47, security = 128, T = [{{[0-9, ]+}}], gamma = {{[0-9]+}}, word = 32, scalePrimes = 2>
// FORM-COUNT-2: ks.method = "klss"
// FORM-NOT: ks.method = "hybrid"

// GAMMA: ckks.params = #ckks.params<logN = 13, {{.*}} security = 128, T = [{{[0-9, ]+}}], gamma = 2, word = 32, scalePrimes = 2>
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  return %r : !fhe.ct<8>
}
