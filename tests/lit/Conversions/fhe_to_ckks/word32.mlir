// word=32: 30-bit primes with double-prime scaling (Cheddar 3.1). The chain
// is q_0 (30 bits), the base pair and one pair per level, each pair's
// product carrying the scale (ember::generateDoublePrimeChain): depth 2 at
// N = 2^13 has 7 Q primes, and the smallest pair scale there is 2^42. A
// ckks level stays one level: the rescale from level l divides by level
// l's pair, so the scales are S_{l-1} = S_l^2 / (a_l b_l). Two 30-bit
// special primes (dnum 4) fit the 218 bits of N = 2^13: QP has 216 bits
// (the summed bit lengths, 219, would have forced one prime and dnum 7).
// RUN: ember-opt "--fhe-to-ckks=word=32" %s | FileCheck %s
// word=auto prices both words with the cost model and records both
// predictions; at the default scale 64 bits win here (4 digits under two
// special primes at 32 bits against 3 at 64). At scale-bits=50 the model predicts 32 bits
// 5.6% faster (N = 2^13 against 2^14 for 64 bits at 2^50): below the 20%
// margin word-margin asks (compiled 32-bit programs measured slower than
// predicted), so 64 bits; with no margin, 32 bits.
// RUN: ember-opt "--fhe-to-ckks=word=auto" %s | FileCheck %s --check-prefix=AUTO
// RUN: ember-opt "--fhe-to-ckks=word=auto scale-bits=50" %s | FileCheck %s --check-prefix=MARGIN
// RUN: ember-opt "--fhe-to-ckks=word=auto scale-bits=50 word-margin=0" %s | FileCheck %s --check-prefix=AUTO50
// KLSS forms at 32 bits: tests/lit/Transforms/select_keyswitch/word32_klss.mlir.

// CHECK: module attributes {ckks.params = #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521, 1073479681], logScale = 42, dnum = 4, security = 128, word = 32, scalePrimes = 2>}
// CHECK-LABEL: func.func @f
// CHECK-SAME: !ckks.ct<8, level = 2, scale = 4398046511104.0>
// CHECK-SAME: -> !ckks.ct<8, level = 0, scale = 4397720642779.2632>
// 2^84 / (1589249 * 2768897) = 4399093501280.07
// CHECK: ckks.rescale {{.*}} -> !ckks.ct<8, level = 1, scale = 4399093501280.0713>
// CHECK: ckks.rescale {{.*}} -> !ckks.ct<8, level = 0, scale = 4397720642779.2632>

// AUTO: module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511922689, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>, ember.word32_us = 43.{{[0-9]+}} : f64, ember.word64_us = 42.{{[0-9]+}} : f64}

// MARGIN: module attributes {ckks.params = #ckks.params<logN = 14, {{.*}}, logScale = 50, dnum = 1, security = 128>, ember.word32_us = 45.{{[0-9]+}} : f64, ember.word64_us = 47.{{[0-9]+}} : f64}

// AUTO50: module attributes {ckks.params = #ckks.params<logN = 13, {{.*}}, logScale = 50, dnum = 7, security = 128, word = 32, scalePrimes = 2>, ember.word32_us = 45.{{[0-9]+}} : f64, ember.word64_us = 47.{{[0-9]+}} : f64}

func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %w = fhe.constant dense<0.5> : tensor<8xf64> -> !fhe.pt<8>
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.mul %a, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %b : !fhe.ct<8>
}
