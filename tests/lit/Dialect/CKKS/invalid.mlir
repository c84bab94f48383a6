// Every ckks verifier (types, #ckks.params, ops), one error each.
// RUN: ember-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{degree must be 2 or 3, got 4}}
func.func @bad_degree(%x: !ckks.ct<8, level = 1, scale = 1099511627776.0, degree = 4>) {
  return
}

// -----

// expected-error @+1 {{level must be non-negative, got -1}}
func.func @bad_level(%x: !ckks.ct<8, level = -1, scale = 1099511627776.0>) {
  return
}

// -----

// expected-error @+1 {{scale must be positive and finite}}
func.func @bad_scale(%x: !ckks.pt<8, level = 1, scale = -2.0>) {
  return
}

// -----

// expected-error @+1 {{slot count must be positive, got 0}}
func.func @bad_slots(%x: !ckks.ct<0, level = 1, scale = 2.0>) {
  return
}

// -----

// expected-error @+1 {{logN = 9 is outside 10..17}}
module attributes {ckks.params = #ckks.params<logN = 9, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

// -----

// 12290 is not 1 mod 2N.
// expected-error @+1 {{12290 is not an NTT prime (prime, = 1 mod 2048)}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12290], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

// -----

// expected-error @+1 {{dnum = 2 is outside 1..1}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 2, security = 0>} {}

// -----

// expected-error @+1 {{logScale = 0 is outside 1..60}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 0, dnum = 1, security = 0>} {}

// -----

// expected-error @+1 {{security must be 128 or 0 (insecure test mode), got 80}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 80>} {}

// -----

// Three 60-bit primes and a 60-bit P: 240 bits > 218 at N = 2^13.
// expected-error @+1 {{log2(QP) = 240 exceeds 218, the 128-bit security bound for N = 2^13}}
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673, 1152921504606683137], P = [1152921504606601217], logScale = 40, dnum = 1, security = 128>} {}

// -----

// expected-error @+1 {{'ckks.params' belongs on a module}}
func.func @params_on_func() attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {
  return
}

// -----

// expected-error @+1 {{'ckks.params' must be a #ckks.params attribute}}
module attributes {ckks.params = 3 : i64} {}

// -----

// expected-error @+1 {{unknown ckks attribute 'ckks.foo'}}
module attributes {ckks.foo} {}

// -----

func.func @scale_adjust_on_add(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.scale_adjust' is a unit attribute of ckks.mul_plain}}
  %a = ckks.add %x, %x {ckks.scale_adjust} : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @encode_length() {
  // expected-error @+1 {{value has 3 elements but the result has 8 slots}}
  %p = ckks.encode dense<[1.0, 2.0, 3.0]> : tensor<3xf64> -> !ckks.pt<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @encode_rank() {
  // expected-error @+1 {{value must be a 1-d tensor, got rank 2}}
  %p = ckks.encode dense<1.0> : tensor<2x4xf64> -> !ckks.pt<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @add_levels(%x: !ckks.ct<8, level = 2, scale = 2.0>, %y: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.add' operands are at different levels (2 vs 1); mod_drop the higher one}}
  %a = ckks.add %x, %y : !ckks.ct<8, level = 2, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @sub_scales(%x: !ckks.ct<8, level = 1, scale = 1099511627776.0>, %y: !ckks.ct<8, level = 1, scale = 1099512365055.4944>) {
  // expected-error @+1 {{'ckks.sub' operands have different scales (1099511627776.0 vs 1099512365055.4944)}}
  %a = ckks.sub %x, %y : !ckks.ct<8, level = 1, scale = 1099511627776.0>, !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  return
}

// -----

func.func @add_slots(%x: !ckks.ct<8, level = 1, scale = 2.0>, %y: !ckks.ct<4, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.add' operands have different slot counts (8 vs 4)}}
  %a = ckks.add %x, %y : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<4, level = 1, scale = 2.0>
  return
}

// -----

func.func @add_result_type(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+2 {{inferred type(s) '!ckks.ct<8, level = 1, scale = 2.0>' are incompatible with return type(s) of operation '!ckks.ct<8, level = 1, scale = 4.0>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %a = "ckks.add"(%x, %x) : (!ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>) -> !ckks.ct<8, level = 1, scale = 4.0>
  return
}

// -----

func.func @mul_degree(%x: !ckks.ct<8, level = 1, scale = 2.0, degree = 3>, %y: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.mul' operands must have degree 2 (relinearize first), got 3 and 2}}
  %a = ckks.mul %x, %y : !ckks.ct<8, level = 1, scale = 2.0, degree = 3>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @mul_levels(%x: !ckks.ct<8, level = 2, scale = 2.0>, %y: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.mul' operands are at different levels (2 vs 1)}}
  %a = ckks.mul %x, %y : !ckks.ct<8, level = 2, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @mul_plain_levels(%x: !ckks.ct<8, level = 2, scale = 2.0>, %p: !ckks.pt<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.mul_plain' operands are at different levels (2 vs 1)}}
  %a = ckks.mul_plain %x, %p : !ckks.ct<8, level = 2, scale = 2.0>, !ckks.pt<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @add_plain_scales(%x: !ckks.ct<8, level = 1, scale = 2.0>, %p: !ckks.pt<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{'ckks.add_plain' operands have different scales (2.0 vs 4.0)}}
  %a = ckks.add_plain %x, %p : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 1, scale = 4.0>
  return
}

// -----

func.func @sub_plain_slots(%x: !ckks.ct<8, level = 1, scale = 2.0>, %p: !ckks.pt<4, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.sub_plain' operands have different slot counts (8 vs 4)}}
  %a = ckks.sub_plain %x, %p : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<4, level = 1, scale = 2.0>
  return
}

// -----

func.func @relin_degree2(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.relinearize' needs a degree-3 operand, got degree 2}}
  %a = ckks.relinearize %x : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @rotate_range(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{offset -8 is outside (-8, 8)}}
  %a = ckks.rotate %x by -8 : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @rotate_degree3(%x: !ckks.ct<8, level = 1, scale = 2.0, degree = 3>) {
  // expected-error @+1 {{operand #0 has degree 3; this op needs degree 2 (relinearize first)}}
  %a = ckks.rotate %x by 1 : !ckks.ct<8, level = 1, scale = 2.0, degree = 3>
  return
}

// -----

func.func @conjugate_degree3(%x: !ckks.ct<8, level = 1, scale = 2.0, degree = 3>) {
  // expected-error @+1 {{operand #0 has degree 3}}
  %a = ckks.conjugate %x : !ckks.ct<8, level = 1, scale = 2.0, degree = 3>
  return
}

// -----

func.func @keyswitch_even(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{galois element must be odd and positive, got 4}}
  %a = ckks.keyswitch %x galois 4 : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @hoisted_empty(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{needs at least one offset}}
  "ckks.hoisted_rotate"(%x) {offsets = array<i64>} : (!ckks.ct<8, level = 1, scale = 2.0>) -> ()
  return
}

// -----

func.func @hoisted_count(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{has 2 offsets but 1 results}}
  %a = ckks.hoisted_rotate %x by [1, 2] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @hoisted_type(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{result #1 type '!ckks.ct<8, level = 0, scale = 2.0>' differs from the input type}}
  %a:2 = ckks.hoisted_rotate %x by [1, 2] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 0, scale = 2.0>
  return
}

// -----

func.func @hoisted_range(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{offset 9 is outside (-8, 8)}}
  %a:2 = ckks.hoisted_rotate %x by [1, 9] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @hoisted_degree3(%x: !ckks.ct<8, level = 1, scale = 2.0, degree = 3>) {
  // expected-error @+1 {{operand #0 has degree 3}}
  %a = ckks.hoisted_rotate_sum %x by [1, 2] : !ckks.ct<8, level = 1, scale = 2.0, degree = 3>
  return
}

// -----

func.func @dot_weights(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  %p = ckks.encode dense<1.0> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 2.0>
  // expected-error @+1 {{has 2 offsets but 1 weights}}
  %a = ckks.hoisted_dot %x by [0, 1] weights(%p) : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 4.0>
  return
}

// -----

func.func @dot_weight_level(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  %p = ckks.encode dense<1.0> : tensor<8xf64> -> !ckks.pt<8, level = 0, scale = 2.0>
  // expected-error @+1 {{weight #0 must have the input's slots and level (8, 1)}}
  %a = ckks.hoisted_dot %x by [1] weights(%p) : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 0, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 4.0>
  return
}

// -----

func.func @dot_weight_constant(%x: !ckks.ct<8, level = 1, scale = 2.0>, %p: !ckks.pt<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{weight #0 must be a ckks.encode constant}}
  %a = ckks.hoisted_dot %x by [1] weights(%p) : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 4.0>
  return
}

// -----

func.func @dot_weight_scales(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  %p = ckks.encode dense<1.0> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 2.0>
  %q = ckks.encode dense<1.0> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 3.0>
  // expected-error @+1 {{weight #1 gives the product scale 6}}
  %a = ckks.hoisted_dot %x by [0, 1] weights(%p, %q) : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 1, scale = 3.0> -> !ckks.ct<8, level = 1, scale = 4.0>
  return
}

// -----

func.func @dot_result(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  %p = ckks.encode dense<1.0> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 2.0>
  // expected-error @+1 {{result must be}}
  %a = ckks.hoisted_dot %x by [1] weights(%p) : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @hoisted_sum_empty(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{needs at least one offset}}
  %a = ckks.hoisted_rotate_sum %x by [] : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @hoisted_sum_range(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{offset 8 is outside (-8, 8)}}
  %a = ckks.hoisted_rotate_sum %x by [0, 8] : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

// -----

func.func @rescale_no_params(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{needs the module's 'ckks.params' to know q_1}}
  %a = ckks.rescale %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<8, level = 0, scale = 2.0>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @rescale_level0(%x: !ckks.ct<8, level = 0, scale = 4.0>) {
    // expected-error @+1 {{cannot rescale at level 0}}
    %a = ckks.rescale %x : !ckks.ct<8, level = 0, scale = 4.0> -> !ckks.ct<8, level = 0, scale = 2.0>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @rescale_two_levels(%x: !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>) {
    // expected-error @+1 {{result level must be 1 (input level - 1), got 0}}
    %a = ckks.rescale %x : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 0, scale = 1099512365055.4944>
    return
  }
}

// -----

// Rounding the scale to 2^40 after a rescale is wrong: it is 2^80 / q_2.
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @rescale_rounded_scale(%x: !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>) {
    // expected-error @+1 {{result scale must be input scale / q_2 = 1099512365055.4944, got 1099511627776.0}}
    %a = ckks.rescale %x : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 1, scale = 1099511627776.0>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  // The module verifier sees the argument's level first.
  // expected-error @+1 {{type '!ckks.ct<8, level = 3, scale = 1.2089258196146292e+24>' is at level 3, beyond the module's maximum level 1 (2 Q primes)}}
  func.func @rescale_above_max(%x: !ckks.ct<8, level = 3, scale = 1.2089258196146292e+24>) {
    %a = ckks.rescale %x : !ckks.ct<8, level = 3, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 2, scale = 1.0>
    return
  }
}

// -----

func.func @rescale_degree(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{changes the degree (2 -> 3)}}
  %a = ckks.rescale %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<8, level = 0, scale = 2.0, degree = 3>
  return
}

// -----

// Rescaling (c0, c1, c2) would round c2, whose error decrypts times s^2.
func.func @rescale_degree3(%x: !ckks.ct<8, level = 1, scale = 4.0, degree = 3>) {
  // expected-error @+1 {{operand #0 has degree 3; this op needs degree 2 (relinearize first)}}
  %a = ckks.rescale %x : !ckks.ct<8, level = 1, scale = 4.0, degree = 3> -> !ckks.ct<8, level = 0, scale = 2.0, degree = 3>
  return
}

// -----

func.func @mod_drop_up(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{result level 2 must be below the input level 1}}
  %a = ckks.mod_drop %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<8, level = 2, scale = 4.0>
  return
}

// -----

func.func @mod_drop_scale(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{must keep the scale (4.0 -> 2.0)}}
  %a = ckks.mod_drop %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<8, level = 0, scale = 2.0>
  return
}

// -----

func.func @mod_drop_slots(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{changes the slot count (8 -> 4)}}
  %a = ckks.mod_drop %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<4, level = 0, scale = 4.0>
  return
}

// -----

// KLSS form: T and gamma come together.
// expected-error @+1 {{a KLSS form needs both T (temporary primes, given) and gamma (missing)}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [2305843009213683713]>} {}

// -----

// expected-error @+1 {{T prime 12289 is not distinct from the other Q, P and T primes}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [12289, 2305843009213683713], gamma = 1>} {}

// -----

// T of 20 bits cannot hold log2(1) + 10 + 13.6 (digit) + 28.9 (group) + 1.
// expected-error @+1 {{the KLSS temporary basis T has 20.0 bits (1 primes) but the exact products need 53.5 (log2 digits + logN + largest digit + largest key group of gamma = 2 primes + 1): add T primes or lower gamma}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [1038337], gamma = 2>} {}

// -----

// expected-error @+1 {{slot count must be a power of two, got 12}}
func.func @odd_slots(%x: !ckks.ct<12, level = 1, scale = 2.0>) {
  return
}

// -----

// expected-error @+1 {{slot count 131072 exceeds 65536}}
func.func @too_many_slots(%x: !ckks.pt<131072, level = 1, scale = 2.0>) {
  return
}

// -----

// expected-error @+1 {{prime 12289 appears more than once in Q and P}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

// -----

// expected-error @+1 {{prime 12289 appears more than once in Q and P}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [12289], logScale = 10, dnum = 1, security = 0>} {}

// -----

// 2305843009213704193 = 1 mod 2048 is prime, but 62 bits.
// expected-error @+1 {{prime 2305843009213704193 has 62 bits, more than the runtime's 64-bit words hold (61)}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [2305843009213704193], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

// -----

// One 40-bit digit over a 14-bit P: the runtime refuses it.
// expected-error @+1 {{P has 13 bits, fewer than key-switching digit 0 (40 bits): add P primes or raise dnum}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [549755860993], P = [12289], logScale = 10, dnum = 1, security = 0>} {}

// -----

// Under parameters, slots are bounded by N/2 = 512 (here in a signature, as
// ckks-record-interface would copy it into the manifest).
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  // expected-error @+1 {{type '!ckks.ct<1024, level = 1, scale = 1024.0>' has 1024 slots, more than N/2 = 512 of the module's parameters (logN = 10)}}
  func.func @wide(%x: !ckks.ct<1024, level = 1, scale = 1024.0>) -> !ckks.ct<1024, level = 1, scale = 1024.0> {
    return %x : !ckks.ct<1024, level = 1, scale = 1024.0>
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  // expected-error @+1 {{type '!ckks.pt<8, level = 2, scale = 1024.0>' is at level 2, beyond the module's maximum level 1 (2 Q primes)}}
  func.func private @deep() -> !ckks.pt<8, level = 2, scale = 1024.0>
}

// -----

func.func @scale_overflow(%x: !ckks.ct<8, level = 1, scale = 1.0e200>) {
  // expected-error @+1 {{'ckks.mul' result scale 9.9999999999999997e+199 * 9.9999999999999997e+199 overflows a double}}
  %y = ckks.mul %x, %x : !ckks.ct<8, level = 1, scale = 1.0e200>, !ckks.ct<8, level = 1, scale = 1.0e200>
  return
}

// -----

func.func @scale_overflow_plain(%x: !ckks.ct<8, level = 1, scale = 1.0e200>, %p: !ckks.pt<8, level = 1, scale = 1.0e200>) {
  // expected-error @+1 {{'ckks.mul_plain' result scale}}
  %y = ckks.mul_plain %x, %p : !ckks.ct<8, level = 1, scale = 1.0e200>, !ckks.pt<8, level = 1, scale = 1.0e200>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @galois_range(%x: !ckks.ct<8, level = 1, scale = 1024.0>) {
    // expected-error @+1 {{galois element 2049 must be below 2N = 2048}}
    %y = ckks.keyswitch %x galois 2049 : !ckks.ct<8, level = 1, scale = 1024.0>
    return
  }
}


// -----

func.func @encode_values_slots(%w: tensor<4xcomplex<f64>>) {
  // expected-error @+1 {{has 4 slot values for a plaintext of 8 slots}}
  %p = ckks.encode_values %w : tensor<4xcomplex<f64>> -> !ckks.pt<8, level = 1, scale = 1099511627776.0>
  return
}

// -----

func.func @encode_values_real(%w: tensor<8xf64>) {
  // expected-error @+1 {{operand #0 must be 1D tensor of complex type with 64-bit float elements values}}
  %p = ckks.encode_values %w : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 1099511627776.0>
  return
}

// -----

func.func @tile_not_a_multiple(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{'ckks.tile' reads 8 slots as 12; the result must be a multiple or a divisor}}
  %t = ckks.tile %x to 12 : !ckks.ct<8, level = 1, scale = 4.0>
  return
}

// -----

func.func @mod_raise_level(%x: !ckks.ct<8, level = 1, scale = 1099511627776.0>) {
  // expected-error @+1 {{input must be at level 0, got level 1}}
  %r = ckks.mod_raise %x {input_scale = 1099511627776.0 : f64} : !ckks.ct<8, level = 1, scale = 1099511627776.0> -> !ckks.ct<8, level = 4, scale = 1099511627776.0>
  return
}

// -----

func.func @mod_raise_scale(%x: !ckks.ct<8, level = 0, scale = 1099511627776.0>) {
  // expected-error @+1 {{input scale 1099511627776.0 is not the input_scale 2199023255552.0 its constants assume}}
  %r = ckks.mod_raise %x {input_scale = 2199023255552.0 : f64} : !ckks.ct<8, level = 0, scale = 1099511627776.0> -> !ckks.ct<8, level = 4, scale = 1099511627776.0>
  return
}

// -----

// expected-error @+1 {{Hamming weight h = -1 is outside 0..N}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, h = -1>} {}
