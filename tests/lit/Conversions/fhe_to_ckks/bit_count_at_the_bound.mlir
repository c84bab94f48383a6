// log QP counts the bits of the primes the chain gets (ember::logQP, bit
// lengths). At N = 2^17 a depth-85 chain is 60 + 85 x 40 + 60 = 3520 bits by
// its nominal sizes, but 43 of its scale primes lie just above 2^40: 3563
// bits, over the 3524 allowed. The pass reports depth 84 as the largest
// (3523 bits) instead of choosing parameters that the #ckks.params verifier
// then refuses.
// RUN: ember-opt --fhe-to-ckks="log-n=17 extra-levels=84" %s --verify-diagnostics
// RUN: ember-opt --fhe-to-ckks="log-n=17 extra-levels=83" %s | FileCheck %s
// CHECK: ckks.params = #ckks.params<logN = 17

func.func @square(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  // expected-error @+1 {{program has multiplicative depth 85, but the largest depth possible with 128-bit secure parameters (N = 2^17..2^17, 40-bit scale) is 84}}
  %m = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %m : !fhe.ct<8>
}
