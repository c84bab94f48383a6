// params=B (ember::namedParamSpec): N = 2^16, 24 Q primes, 8 P primes,
// dnum 3, KLSS form gamma 4 with 10 T primes; inputs start at the top
// level 23 whatever the depth. athena40: 40 Q, 8 P, dnum 5, gamma 8, r' 10.
// RUN: ember-opt --fhe-to-ckks=params=B %s | FileCheck %s
// RUN: ember-opt --fhe-to-ckks=params=C %s | FileCheck %s --check-prefix=SETC
// RUN: ember-opt --fhe-to-ckks=params=athena40 %s | FileCheck %s --check-prefix=ATHENA
// RUN: ember-opt --fhe-to-ckks="params=athena40 klss-gamma=4 klss-t=11" %s | FileCheck %s --check-prefix=OVERRIDE

// CHECK: ckks.params = #ckks.params<logN = 16, Q = [{{([0-9]+, ){23}[0-9]+}}], P = [{{([0-9]+, ){7}[0-9]+}}], logScale = 40, dnum = 3, security = 128, T = [{{([0-9]+, ){9}[0-9]+}}], gamma = 4>
// CHECK: func.func @square(%{{.*}}: !ckks.ct<8, level = 23, scale = 1099511627776.0>) -> !ckks.ct<8, level = 22,
// SETC: ckks.params = #ckks.params<logN = 16, Q = [{{([0-9]+, ){25}[0-9]+}}], P = [{{([0-9]+, ){6}[0-9]+}}], logScale = 48, dnum = 4, security = 128, T = [{{([0-9]+, ){9}[0-9]+}}], gamma = 4>
// SETC: func.func @square(%{{.*}}: !ckks.ct<8, level = 25, scale = 281474976710656.0>) -> !ckks.ct<8, level = 24,
// ATHENA: ckks.params = #ckks.params<logN = 16, Q = [{{([0-9]+, ){39}[0-9]+}}], P = [{{([0-9]+, ){7}[0-9]+}}], logScale = 36, dnum = 5, security = 128, T = [{{(23[0-9]+, ){9}23[0-9]+}}], gamma = 8>
// OVERRIDE: dnum = 5, security = 128, T = [{{([0-9]+, ){10}[0-9]+}}], gamma = 4>
func.func @square(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %a : !fhe.ct<8>
}
