// #ckks.params at 32-bit words with double-prime scaling round-trips
// (`word` and `scalePrimes` are printed only when not 64 and 1); its
// verifier refuses other word sizes, scale-prime counts, a double-prime
// chain without q_0 and whole pairs, and primes the words cannot hold. A
// level is a pair above the base (q_0 and the first pair): 7 Q primes hold
// levels 0..2.
// RUN: ember-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK: #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521], logScale = 42, dnum = 7, security = 128, word = 32, scalePrimes = 2>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521], logScale = 42, dnum = 7, security = 128, scalePrimes = 2, word = 32>} {
  // CHECK: !ckks.ct<8, level = 2
  func.func @top(%x: !ckks.ct<8, level = 2, scale = 4398046511104.0>) {
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521], logScale = 42, dnum = 7, security = 128, word = 32, scalePrimes = 2>} {
  // expected-error @+1 {{is at level 3, beyond the module's maximum level 2}}
  func.func @too_high(%x: !ckks.ct<8, level = 3, scale = 4398046511104.0>) {
    return
  }
}

// -----

// expected-error @+1 {{word = 16 must be 32 or 64}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, word = 16>} {}

// -----

// expected-error @+1 {{scalePrimes = 3 must be 1 or 2 (double-prime scaling)}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, scalePrimes = 3>} {}

// -----

// expected-error @+1 {{double-prime scaling needs q_0 and pairs of primes (an odd count, at least 3), got 2 Q primes}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 20, dnum = 1, security = 0, word = 32, scalePrimes = 2>} {}

// -----

// expected-error @+1 {{prime 1152921504606830593 has 60 bits, more than the runtime's 32-bit words hold (30)}}
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593], P = [1073643521], logScale = 40, dnum = 1, security = 0, word = 32>} {}
