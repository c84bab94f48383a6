// params=B (ember::namedParamSpec): N = 2^16, 24 Q primes, 8 P primes,
// dnum 3; inputs start at the top level 23 whatever the depth.
// RUN: ember-opt --fhe-to-ckks=params=B %s | FileCheck %s
// RUN: ember-opt --fhe-to-ckks=params=C %s | FileCheck %s --check-prefix=SETC

// CHECK: ckks.params = #ckks.params<logN = 16, Q = [{{([0-9]+, ){23}[0-9]+}}], P = [{{([0-9]+, ){7}[0-9]+}}], logScale = 40, dnum = 3, security = 128>
// CHECK: func.func @square(%{{.*}}: !ckks.ct<8, level = 23, scale = 1099511627776.0>) -> !ckks.ct<8, level = 22,
// SETC: ckks.params = #ckks.params<logN = 16, Q = [{{([0-9]+, ){25}[0-9]+}}], P = [{{([0-9]+, ){6}[0-9]+}}], logScale = 48, dnum = 4, security = 128>
// SETC: func.func @square(%{{.*}}: !ckks.ct<8, level = 25, scale = 281474976710656.0>) -> !ckks.ct<8, level = 24,
func.func @square(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %a : !fhe.ct<8>
}
