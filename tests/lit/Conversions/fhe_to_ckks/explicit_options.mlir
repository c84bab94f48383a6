// log-n, scale-bits and dnum given explicitly; security=none is recorded
// as security = 0 and lifts the bound (N = 2^13 with one digit of 60 + 3 x 40
// bits: 3 P primes of 60 bits cover it).
// RUN: ember-opt --fhe-to-ckks="log-n=14 scale-bits=50 dnum=2" %s | FileCheck %s
// RUN: ember-opt --fhe-to-ckks="log-n=13 security=none" %s | FileCheck %s --check-prefix=NONE

// 2^50 = 1125899906842624
// CHECK: ckks.params = #ckks.params<logN = 14, Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], P = [{{[0-9]+}}, {{[0-9]+}}], logScale = 50, dnum = 2, security = 128>
// CHECK: func.func @cube(%{{.*}}: !ckks.ct<8, level = 3, scale = 1125899906842624.0>)
// NONE: ckks.params = #ckks.params<logN = 13, Q = [{{([0-9]+, ){3}[0-9]+}}], P = [{{([0-9]+, ){2}[0-9]+}}], logScale = 40, dnum = 1, security = 0>
func.func @cube(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.mul %a, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %c = fhe.mul %b, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %c : !fhe.ct<8>
}
