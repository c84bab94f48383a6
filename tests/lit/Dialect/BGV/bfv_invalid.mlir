// The bgv dialect under a BFV chain (`scheme = bfv`): ciphertexts stay at
// the top level, no modulus switch or factor adjustment, add_plain takes
// the scaled (Delta m) plaintext and mul_plain the unscaled one; BGV has no
// scaled plaintexts.
// RUN: ember-opt %s -split-input-file -verify-diagnostics

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  func.func @switch(%a: !bgv.ct<8, level = 1, factor = 1>) {
    // expected-error @+1 {{under a BFV chain: BFV ciphertexts stay at the full modulus Q (no modulus switching)}}
    %0 = bgv.mod_switch %a : !bgv.ct<8, level = 1, factor = 1> -> !bgv.ct<8, level = 0, factor = 1>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  func.func @adjust(%a: !bgv.ct<8, level = 1, factor = 1>) {
    // expected-error @+1 {{BFV has no factors to adjust}}
    %0 = bgv.adjust_factor %a, 3 : !bgv.ct<8, level = 1, factor = 1> -> !bgv.ct<8, level = 1, factor = 3>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  func.func @unscaled_add(%a: !bgv.ct<8, level = 1, factor = 1>, %p: !bgv.pt<8, level = 1, factor = 1>) {
    // expected-error @+1 {{adds an unscaled plaintext under a BFV chain}}
    %0 = bgv.add_plain %a, %p : !bgv.ct<8, level = 1, factor = 1>, !bgv.pt<8, level = 1, factor = 1>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  func.func @scaled_mul(%a: !bgv.ct<8, level = 1, factor = 1>, %p: !bgv.pt<8, level = 1, factor = 1, scaled>) {
    // expected-error @+1 {{multiplies by a scaled (Delta m) plaintext}}
    %0 = bgv.mul_plain %a, %p : !bgv.ct<8, level = 1, factor = 1>, !bgv.pt<8, level = 1, factor = 1, scaled> -> !bgv.ct<8, level = 1, factor = 1>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  func.func @below_top(%a: !bgv.ct<8, level = 0, factor = 1>) {
    // expected-error @+1 {{a BFV value at level 0: BFV ciphertexts and plaintexts stay at the full modulus Q (level 1)}}
    %0 = bgv.mul %a, %a : !bgv.ct<8, level = 0, factor = 1>, !bgv.ct<8, level = 0, factor = 1> -> !bgv.ct<8, level = 0, factor = 1, degree = 3>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201], P = [2305843009213317121], logScale = 40, dnum = 2, security = 128, plain = 65537>} {
  func.func @scaled_under_bgv() {
    // expected-error @+1 {{encodes a scaled plaintext, which only BFV chains have}}
    %p = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> !bgv.pt<8, level = 1, factor = 1, scaled>
    return
  }
}

// -----

// expected-error @+1 {{scheme = bfv needs a plaintext modulus (plain = t)}}
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593], P = [2305843009213317121], logScale = 60, dnum = 1, security = 128, scheme = bfv>} {
}

// -----

// expected-error @+1 {{scheme must be bgv or bfv, got 'ckks'}}
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593], P = [2305843009213317121], logScale = 60, dnum = 1, security = 128, plain = 65537, scheme = ckks>} {
}
