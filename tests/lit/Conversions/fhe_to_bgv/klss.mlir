// A KLSS form on a BGV chain (klss-gamma; the pipeline's keyswitch=klss
// asks for gamma 4): T holds the fewest 61-bit temporary primes, and
// rns-select-keyswitch switches the relinearization and the rotation with
// KLSS keys; their coefficient-form ModDown is the runtime's t-corrected
// switch, like every ModDown of a BGV chain.
// RUN: ember-opt --fhe-to-bgv=klss-gamma=4 %s | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{scheme=bgv keyswitch=klss}" %s | FileCheck %s --check-prefix=RNS

// CHECK: #ckks.params<logN = 13, {{.*}} T = [{{[0-9, ]+}}], gamma = 4, plain = 65537>
// RNS: rns.load_key relin : !rns.klss_evk
// RNS: rns.klss_mod_up
// RNS: rns.klss_inner_product
// RNS: rns.mod_down {{.*}} : !rns.poly<coeff, q[0:2], p[0:1]>, !rns.poly<coeff, q[0:2], p[0:1]>
// RNS: rns.load_key galois 5 : !rns.klss_evk
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %x by 1 : !fhe.ct<8>
  %o = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %o : !fhe.ct<8>
}
