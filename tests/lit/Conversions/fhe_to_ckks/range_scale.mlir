// fhe-to-ckks chooses the scale from the values' ranges: the largest
// magnitude B must satisfy B * S * 2 < q_0 / 2 (one bit of noise margin)
// with q_0 the 60-bit first prime. [-1, 1] programs keep 2^40; larger
// values lower the scale; a scale the user fixes is kept when it fits.
// RUN: ember-opt --split-input-file --fhe-to-ckks %s | FileCheck %s
// RUN: ember-opt --split-input-file --fhe-to-ckks=scale-bits=30 %s | FileCheck %s --check-prefix=FIXED

// Undeclared: [-1, 1], x * x <= 1: today's parameters.
// CHECK: Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2
// CHECK-LABEL: func.func @default
// FIXED: logScale = 30
func.func @default(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// -----

// The issue's x * x at |x| <= 3000: B = 9e6 = 2^23.1, so S < 2^(59 - 1 -
// 23.1) and the scale is 2^34 (the first prime stays at 60 bits). The
// declared range stays on the argument for the interface.
// CHECK: Q = [1152921504606830593, {{[0-9]+}}], P = {{.*}}, logScale = 34
// CHECK-LABEL: func.func @square
// CHECK-SAME: {fhe.range = [-3.000000e+03, 3.000000e+03]}
// FIXED: logScale = 30
func.func @square(%x: !fhe.ct<8> {fhe.range = [-3000.0, 3000.0]}) -> !fhe.ct<8> {
  %y = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// -----

// A deep polynomial whose intermediate values are large: x^8 at |x| <= 8 is
// 2^24, and x^8 - x^4 + 100 lies in [-3996, 2^24 + 100]: the scale is 2^33.
// CHECK: logScale = 33
// CHECK-LABEL: func.func @deep
func.func @deep(%x: !fhe.ct<8> {fhe.range = [-8.0, 8.0]}) -> !fhe.ct<8> {
  %x2 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x4 = fhe.mul %x2, %x2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x8 = fhe.mul %x4, %x4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %d = fhe.sub %x8, %x4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %c = fhe.constant dense<100.0> : tensor<8xf64> -> !fhe.pt<8>
  %r = fhe.add %d, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %r : !fhe.ct<8>
}

// -----

// The exact check with the chain's primes: just below 2^18 the nominal
// bound allows 2^40, but q_1 < 2^40 makes the level-0 scale
// S_0 = 2^80 / q_1 a little larger, and at B = 262143.99 that no longer
// fits q_0 = 2^60 - 2^14 + 1: one bit less. At 262143.9 it still fits.
// CHECK: Q = [1152921504606830593, 549755731969], {{.*}} logScale = 39
// CHECK-LABEL: func.func @edge
func.func @edge(%x: !fhe.ct<8> {fhe.range = [-262143.99, 262143.99]}, %y: !fhe.ct<8>) -> (!fhe.ct<8>, !fhe.ct<8>) {
  %y2 = fhe.mul %y, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %x, %y2 : !fhe.ct<8>, !fhe.ct<8>
}

// -----

// CHECK: Q = [1152921504606830593, 1099511480321], {{.*}} logScale = 40
// CHECK-LABEL: func.func @below_edge
func.func @below_edge(%x: !fhe.ct<8> {fhe.range = [-262143.9, 262143.9]}, %y: !fhe.ct<8>) -> (!fhe.ct<8>, !fhe.ct<8>) {
  %y2 = fhe.mul %y, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %x, %y2 : !fhe.ct<8>, !fhe.ct<8>
}
