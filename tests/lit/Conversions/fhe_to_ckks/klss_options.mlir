// KLSS form on the automatic parameter path: klss-gamma=4 alone picks the
// fewest 61-bit T primes that meet the exactness bound: N = 2^13, Q = 60 +
// 40 bits, P = 60 bits, dnum 2 (one prime per digit) need log2 2 + 13 + 60
// (largest digit) + 160 (the one key group p_0, q_0, q_1) + 1 = 235 bits,
// so 4 primes; klss-t too small is an error naming both sides; without the
// options there is no KLSS form.
// RUN: ember-opt --fhe-to-ckks=klss-gamma=4 %s | FileCheck %s
// RUN: ember-opt --fhe-to-ckks %s | FileCheck %s --check-prefix=NONE
// RUN: not ember-opt "--fhe-to-ckks=klss-gamma=4 klss-t=1" %s 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not ember-opt "--fhe-to-ckks=klss-t=3" %s 2>&1 | FileCheck %s --check-prefix=NOGAMMA

// CHECK: ckks.params = #ckks.params<logN = 13, {{.*}}, dnum = 2, security = 128, T = [{{(23[0-9]+, ){3}23[0-9]+}}], gamma = 4>
// NONE: dnum = 2, security = 128>}
// SHORT: error: invalid parameters: the KLSS temporary basis T has 61.0 bits (1 primes) but the exact products need 235.0
// NOGAMMA: error: klss-t needs klss-gamma (the key-group size) on the automatic parameter path
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %a by 1 : !fhe.ct<8>
  return %r : !fhe.ct<8>
}
