// RUN: ember-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{degree = 4 must be 2 or 3}}
func.func private @bad_degree(!bgv.ct<8, level = 1, factor = 1, degree = 4>)

// -----

// expected-error @+1 {{slots = 6 must be a power of two}}
func.func private @bad_slots(!bgv.ct<6, level = 1, factor = 1>)

// -----

func.func @factors_differ(%a: !bgv.ct<8, level = 1, factor = 1>, %b: !bgv.ct<8, level = 1, factor = 2>) {
  // expected-error @+1 {{bgv.add: factors differ (1 and 2)}}
  %0 = bgv.add %a, %b : !bgv.ct<8, level = 1, factor = 1>, !bgv.ct<8, level = 1, factor = 2>
  return
}

// -----

func.func @levels_differ(%a: !bgv.ct<8, level = 1, factor = 1>, %b: !bgv.ct<8, level = 2, factor = 1>) {
  // expected-error @+1 {{bgv.sub: levels differ (1 and 2); switch the higher one down}}
  %0 = bgv.sub %a, %b : !bgv.ct<8, level = 1, factor = 1>, !bgv.ct<8, level = 2, factor = 1>
  return
}

// -----

func.func @plain_factor(%a: !bgv.ct<8, level = 1, factor = 3>, %p: !bgv.pt<8, level = 1, factor = 1>) {
  // expected-error @+1 {{bgv.add_plain: factors differ (3 and 1)}}
  %0 = bgv.add_plain %a, %p : !bgv.ct<8, level = 1, factor = 3>, !bgv.pt<8, level = 1, factor = 1>
  return
}

// -----

func.func @rotate_degree3(%a: !bgv.ct<8, level = 1, factor = 1, degree = 3>) {
  // expected-error @+1 {{bgv.rotate takes a degree-2 ciphertext}}
  %0 = bgv.rotate %a, 1 : !bgv.ct<8, level = 1, factor = 1, degree = 3>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201, 1099511480321], P = [2305843009213317121], logScale = 40, dnum = 3, security = 128, plain = 65537>} {
  func.func @mul_factor(%a: !bgv.ct<8, level = 2, factor = 3>) {
    // expected-error @+1 {{result factor 3 is not the product of the factors mod 65537 (9)}}
    %0 = bgv.mul %a, %a : !bgv.ct<8, level = 2, factor = 3>, !bgv.ct<8, level = 2, factor = 3> -> !bgv.ct<8, level = 2, factor = 3, degree = 3>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201, 1099511480321], P = [2305843009213317121], logScale = 40, dnum = 3, security = 128, plain = 65537>} {
  func.func @switch_factor(%a: !bgv.ct<8, level = 2, factor = 5>) {
    // expected-error @+1 {{result factor 5 is not mu q_2^-1 mod t (47715)}}
    %0 = bgv.mod_switch %a : !bgv.ct<8, level = 2, factor = 5> -> !bgv.ct<8, level = 1, factor = 5>
    return
  }
}

// -----

func.func @switch_level0(%a: !bgv.ct<8, level = 0, factor = 1>) {
  // expected-error @+1 {{at level 0: no prime left to switch away}}
  %0 = bgv.mod_switch %a : !bgv.ct<8, level = 0, factor = 1> -> !bgv.ct<8, level = 0, factor = 1>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201, 1099511480321], P = [2305843009213317121], logScale = 40, dnum = 3, security = 128, plain = 65537>} {
  func.func @adjust(%a: !bgv.ct<8, level = 2, factor = 1>) {
    // expected-error @+1 {{factor 1 times 4 is not 5 mod 65537}}
    %0 = bgv.adjust_factor %a, 4 : !bgv.ct<8, level = 2, factor = 1> -> !bgv.ct<8, level = 2, factor = 5>
    return
  }
}

// -----

func.func @encode_count() {
  // expected-error @+1 {{4 values for a plaintext of 8 slots}}
  %0 = bgv.encode dense<[1, 2, 3, 4]> : tensor<4xi64> -> !bgv.pt<8, level = 0, factor = 1>
  return
}

// -----

// expected-error @+1 {{plaintext modulus 65539 is not 1 mod 2N = 16384 (it does not batch at N = 2^13)}}
module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657], P = [2305843009213317121], logScale = 40, dnum = 1, security = 128, plain = 65539>} {
}

// -----

// expected-error @+1 {{plaintext modulus 65536 must be a prime in 3..2^52}}
module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657], P = [2305843009213317121], logScale = 40, dnum = 1, security = 128, plain = 65536>} {
}
