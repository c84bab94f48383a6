// Depth 3 does not fit N = 2^13 securely (at most depth 2: 60+2x40+60 bits).
// RUN: ember-opt --fhe-to-ckks=log-n=13 %s --verify-diagnostics

func.func @cube(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.mul %a, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  // expected-error @+1 {{program has multiplicative depth 3, but the largest depth possible with 128-bit secure parameters (N = 2^13..2^13, 40-bit scale) is 2}}
  %c = fhe.mul %b, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %c : !fhe.ct<8>
}
