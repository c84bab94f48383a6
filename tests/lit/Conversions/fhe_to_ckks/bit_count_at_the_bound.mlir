// log QP is the bit length of the chain's product QP (ember::logQP), not the
// sum of the primes' bit lengths. At N = 2^17 (3523 bits allowed) a
// depth-85 chain is 60 + 85 x 40 + 60 = 3520 bits by its nominal sizes; 43
// of its scale primes lie just above 2^40, so the summed bit lengths would
// count 3563 and refuse it, but QP has 3521 bits: depth 85 is the largest,
// and depth 86 (3560 nominal bits) is refused with that figure. The
// #ckks.params verifier counts the same way, so the chosen set verifies.
// RUN: ember-opt --fhe-to-ckks="log-n=17 extra-levels=85" %s --verify-diagnostics
// RUN: ember-opt --fhe-to-ckks="log-n=17 extra-levels=84" %s | FileCheck %s
// CHECK: ckks.params = #ckks.params<logN = 17

func.func @square(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  // expected-error @+1 {{program has multiplicative depth 86, but the largest depth possible with 128-bit secure parameters (N = 2^17..2^17, 40-bit scale) is 85}}
  %m = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %m : !fhe.ct<8>
}
