// RUN: ember-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{polynomial basis has no limbs}}
func.func private @no_limbs(!rns.poly<ntt>)

// -----

// expected-error @+1 {{expected 'ntt' or 'coeff', got 'eval'}}
func.func private @bad_form(!rns.poly<eval, q[0:2]>)

// -----

// expected-error @+1 {{empty Q range q[3:2]}}
func.func private @bad_range(!rns.poly<ntt, q[3:2]>)

// -----

func.func @mul_coeff(%x: !rns.poly<coeff, q[0:2]>) {
  // expected-error @+1 {{operands must be in NTT form}}
  %0 = rns.mul %x, %x : !rns.poly<coeff, q[0:2]>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @add_mismatch(%x: !rns.poly<ntt, q[0:2]>, %y: !rns.poly<ntt, q[0:3]>) {
  // expected-error @+1 {{use of value '%y' expects different type than prior uses}}
  %0 = rns.add %x, %y : !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @mul_p_bad(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{result must be the input's basis extended by P}}
  %0 = rns.mul_p %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:3], p[0:1]>
  return
}

// -----

func.func @ntt_form(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{maps coeff form to ntt form}}
  %0 = rns.ntt %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @intt_basis(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{must keep the basis}}
  %0 = rns.intt %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<coeff, q[0:3]>
  return
}

// -----

func.func @bconv_ntt(%x: !rns.poly<ntt, p[0:2]>) {
  // expected-error @+1 {{works in coefficient form}}
  %0 = rns.bconv %x : !rns.poly<ntt, p[0:2]> -> !rns.poly<ntt, q[0:3]>
  return
}

// -----

func.func @bconv_overlap(%x: !rns.poly<coeff, q[2:3], p[0:2]>) {
  // expected-error @+1 {{source and target bases overlap}}
  %0 = rns.bconv %x : !rns.poly<coeff, q[2:3], p[0:2]> -> !rns.poly<coeff, q[0:3]>
  return
}

// -----

func.func @drop_grow(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{result basis must be a sub-basis of the input's}}
  %0 = rns.drop_limbs %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:3]>
  return
}

// -----

func.func @drop_form(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{must keep the form}}
  %0 = rns.drop_limbs %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<coeff, q[0:1]>
  return
}

// -----

func.func @automorphism_even(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 4}}
  %0 = rns.automorphism %x, 4 : !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @rescale_two(%x: !rns.poly<ntt, q[0:3]>) {
  // expected-error @+1 {{result must drop exactly the top Q limb}}
  %0 = rns.rescale %x : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:1]>
  return
}

// -----

func.func @rescale_p(%x: !rns.poly<ntt, q[0:3], p[0:1]>) {
  // expected-error @+1 {{input must be over Q only and in NTT form}}
  %0 = rns.rescale %x : !rns.poly<ntt, q[0:3], p[0:1]> -> !rns.poly<ntt, q[0:2], p[0:1]>
  return
}

// -----

func.func @rescale_mixed(%x: !rns.poly<ntt, q[0:3]>, %y: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{all inputs must have one type}}
  %0:2 = rns.rescale %x, %y : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @decompose_gap(%x: !rns.poly<ntt, q[0:5]>) {
  // expected-error @+1 {{does not continue the tiling}}
  %0:2 = rns.decompose %x : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[3:5]>
  return
}

// -----

func.func @decompose_short(%x: !rns.poly<ntt, q[0:5]>) {
  // expected-error @+1 {{digits end at q4, input at q5}}
  %0:2 = rns.decompose %x : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]>
  return
}

// -----

func.func @mod_up_no_p(%d: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{results must be over Q_l u P in NTT form}}
  %0 = rns.mod_up %d : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:4]>
  return
}

// -----

func.func @mod_up_outside(%d: !rns.poly<ntt, q[4:6]>) {
  // expected-error @+1 {{must be an NTT-form sub-range of the Q part}}
  %0 = rns.mod_up %d : !rns.poly<ntt, q[4:6]> -> !rns.poly<ntt, q[0:5], p[0:2]>
  return
}

// -----

func.func @load_key_even() {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 2}}
  %k = rns.load_key galois 2 : !rns.evk<dnum = 2, q = 4, p = 1>
  return
}

// -----

func.func @ip_too_many(%d: !rns.poly<ntt, q[0:4], p[0:1]>) {
  %k = rns.load_key relin : !rns.evk<dnum = 2, q = 4, p = 1>
  // expected-error @+1 {{has 3 digits but the key only 2}}
  %a:2 = rns.ks_inner_product %k(%d, %d, %d) : !rns.evk<dnum = 2, q = 4, p = 1>, (!rns.poly<ntt, q[0:4], p[0:1]>, !rns.poly<ntt, q[0:4], p[0:1]>, !rns.poly<ntt, q[0:4], p[0:1]>) -> !rns.poly<ntt, q[0:4], p[0:1]>, !rns.poly<ntt, q[0:4], p[0:1]>
  return
}

// -----

func.func @ip_basis(%d: !rns.poly<ntt, q[0:4], p[0:2]>) {
  %k = rns.load_key relin : !rns.evk<dnum = 2, q = 4, p = 1>
  // expected-error @+1 {{must be NTT-form over Q_l u P within the key's basis}}
  %a:2 = rns.ks_inner_product %k(%d) : !rns.evk<dnum = 2, q = 4, p = 1>, (!rns.poly<ntt, q[0:4], p[0:2]>) -> !rns.poly<ntt, q[0:4], p[0:2]>, !rns.poly<ntt, q[0:4], p[0:2]>
  return
}

// -----

func.func @mod_down_keeps_p(%x: !rns.poly<ntt, q[0:4], p[0:2]>) {
  // expected-error @+1 {{result must be a non-empty prefix of the input's Q limbs in the input's form}}
  %0 = rns.mod_down %x : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:4], p[0:1]>
  return
}

// -----

func.func @mod_down_no_p(%x: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{input must be over Q_l u P}}
  %0 = rns.mod_down %x : !rns.poly<ntt, q[0:4]> -> !rns.poly<ntt, q[0:3]>
  return
}

// -----

func.func @fused_yield(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{yielded types must match the results' types}}
  %r = rns.fused(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
    rns.yield
  }
  return
}

// -----

func.func @fused_args(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{block arguments must match the inputs' types}}
  %r = rns.fused(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:3]>):
    %b = rns.drop_limbs %a : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:2]>
    rns.yield %b : !rns.poly<ntt, q[0:2]>
  }
  return
}

// -----

func.func @concat_gap(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<ntt, q[3:4]>) {
  // expected-error @+1 {{parts must be disjoint and cover the result basis}}
  %0 = rns.concat %a, %b : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[3:4]> -> !rns.poly<ntt, q[0:4]>
  return
}

// -----

func.func @concat_form(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<coeff, q[2:4]>) {
  // expected-error @+1 {{parts must be in the result's form}}
  %0 = rns.concat %a, %b : !rns.poly<ntt, q[0:2]>, !rns.poly<coeff, q[2:4]> -> !rns.poly<ntt, q[0:4]>
  return
}

// -----

func.func @mul_inv_own_limb(%x: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{divisor primes must not be limbs of the operand}}
  %0 = rns.mul_inv %x, q[3:4], p[0:1] : !rns.poly<ntt, q[0:4]>
  return
}

// -----

func.func @mul_inv_empty(%x: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{divisor basis must be non-empty ranges}}
  %0 = rns.mul_inv %x, q[4:4], p[0:0] : !rns.poly<ntt, q[0:4]>
  return
}

// -----

// expected-error @+1 {{a polynomial over KLSS temporary primes t[0:4] cannot also hold Q or P limbs}}
func.func @t_with_q(%x: !rns.poly<ntt, q[0:2], t[0:4]>) {
  return
}

// -----

func.func @klss_mod_up_not_t(%x: !rns.poly<ntt, q[0:4]>) {
  %d:2 = rns.decompose %x : !rns.poly<ntt, q[0:4]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]>
  // expected-error @+1 {{results must be NTT-form polynomials over T (t[0:R])}}
  %t:2 = rns.klss_mod_up %d#0, %d#1 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]> -> !rns.poly<ntt, q[0:4], p[0:2]>, !rns.poly<ntt, q[0:4], p[0:2]>
  return
}

// -----

func.func @klss_mod_up_gap(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<ntt, q[3:4]>) {
  // expected-error @+1 {{digit '!rns.poly<ntt, q[3:4]>' must be an NTT-form Q range continuing at q2}}
  %t:2 = rns.klss_mod_up %a, %b : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[3:4]> -> !rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>
  return
}

// -----

func.func @klss_ip_t_mismatch(%k: !rns.klss_evk<dnum = 2, groups = 3, t = 5>, %t: !rns.poly<ntt, t[0:4]>) {
  // expected-error @+1 {{must be NTT-form over the key's T basis t[0:5]}}
  %a0, %a1 = rns.klss_inner_product %k(%t) : !rns.klss_evk<dnum = 2, groups = 3, t = 5>, (!rns.poly<ntt, t[0:4]>) -> !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]>
  return
}

// -----

func.func @klss_ip_ntt_acc(%k: !rns.klss_evk<dnum = 2, groups = 3, t = 4>, %t: !rns.poly<ntt, t[0:4]>) {
  // expected-error @+1 {{accumulators must be two coefficient-form polynomials over Q_l u P}}
  %a0, %a1 = rns.klss_inner_product %k(%t) : !rns.klss_evk<dnum = 2, groups = 3, t = 4>, (!rns.poly<ntt, t[0:4]>) -> !rns.poly<ntt, q[0:6], p[0:2]>, !rns.poly<ntt, q[0:6], p[0:2]>
  return
}

// -----

func.func @klss_ip_too_many(%k: !rns.klss_evk<dnum = 1, groups = 3, t = 4>, %t: !rns.poly<ntt, t[0:4]>) {
  // expected-error @+1 {{has 2 digits but the key only 1}}
  %a0, %a1 = rns.klss_inner_product %k(%t, %t) : !rns.klss_evk<dnum = 1, groups = 3, t = 4>, (!rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>) -> !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]>
  return
}

// -----

func.func @mod_down_mixed_forms(%a: !rns.poly<coeff, q[0:4], p[0:2]>) {
  // expected-error @+1 {{result must be a non-empty prefix of the input's Q limbs in the input's form}}
  %0 = rns.mod_down %a : !rns.poly<coeff, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:4]>
  return
}

// -----

func.func @hybrid_ip_klss_key(%k: !rns.klss_evk<dnum = 2, groups = 3, t = 4>, %d: !rns.poly<ntt, q[0:4], p[0:2]>) {
  // expected-error @+1 {{must be rns evaluation key}}
  %a0, %a1 = rns.ks_inner_product %k(%d) : !rns.klss_evk<dnum = 2, groups = 3, t = 4>, (!rns.poly<ntt, q[0:4], p[0:2]>) -> !rns.poly<ntt, q[0:4], p[0:2]>, !rns.poly<ntt, q[0:4], p[0:2]>
  return
}

// -----

// expected-error @+1 {{a hybrid key needs 1 <= dnum <= q and p >= 1, got dnum = 0, q = 2, p = 1}}
func.func private @evk_no_digits(!rns.evk<dnum = 0, q = 2, p = 1>)

// -----

// expected-error @+1 {{a hybrid key needs 1 <= dnum <= q and p >= 1, got dnum = 3, q = 2, p = 1}}
func.func private @evk_more_digits_than_limbs(!rns.evk<dnum = 3, q = 2, p = 1>)

// -----

// expected-error @+1 {{a KLSS key needs dnum, groups and t >= 1, got dnum = 1, groups = 2, t = 0}}
func.func private @klss_evk_no_t(!rns.klss_evk<dnum = 1, groups = 2, t = 0>)

// -----

// Under #ckks.params (2 Q primes, 1 P prime, no T), types index the chain.
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @q_past_chain(%x: !rns.poly<ntt, q[0:3]>) {
    // expected-error @+1 {{type '!rns.poly<ntt, q[0:3]>' reaches past q1, the last of the 2 Q primes of the module's parameters}}
    %y = rns.neg %x : !rns.poly<ntt, q[0:3]>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @p_past_chain(%x: !rns.poly<ntt, q[0:2], p[0:2]>) {
    // expected-error @+1 {{reaches past the 1 P primes of the module's parameters}}
    %y = rns.neg %x : !rns.poly<ntt, q[0:2], p[0:2]>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @t_without_klss(%x: !rns.poly<ntt, t[0:1]>) {
    // expected-error @+1 {{reaches past the 0 KLSS T primes of the module's parameters}}
    %y = rns.neg %x : !rns.poly<ntt, t[0:1]>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @key_shape() {
    // expected-error @+1 {{key type '!rns.evk<dnum = 2, q = 3, p = 1>' does not match the module's parameters (dnum = 2, q = 2, p = 1)}}
    %k = rns.load_key relin : !rns.evk<dnum = 2, q = 3, p = 1>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @klss_key_without_klss() {
    // expected-error @+1 {{KLSS key type '!rns.klss_evk<dnum = 1, groups = 2, t = 2>' does not match the module's parameters (no KLSS form; dnum = 2, groups = 3, t = 0)}}
    %k = rns.load_key relin : !rns.klss_evk<dnum = 1, groups = 2, t = 2>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @galois_past_2n(%x: !rns.poly<ntt, q[0:2]>) {
    // expected-error @+1 {{Galois element 2049 must be below 2N = 2048}}
    %y = rns.automorphism %x, 2049 : !rns.poly<ntt, q[0:2]>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @key_galois_past_2n() {
    // expected-error @+1 {{Galois element 4095 must be below 2N = 2048}}
    %k = rns.load_key galois 4095 : !rns.evk<dnum = 2, q = 2, p = 1>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @mul_inv_past_chain(%x: !rns.poly<ntt, q[0:1]>) {
    // expected-error @+1 {{divisor q[1:2], p[0:2] reaches past the module's 2 Q and 1 P primes}}
    %y = rns.mul_inv %x, q[1:2], p[0:2] : !rns.poly<ntt, q[0:1]>
    return
  }
}

// -----

func.func @mul_inv_huge(%x: !rns.poly<ntt, q[0:1]>) {
  // expected-error @+1 {{divisor basis must be non-empty ranges}}
  %y = rns.mul_inv %x, q[1:4294967297], p[0:0] : !rns.poly<ntt, q[0:1]>
  return
}

// -----

func.func @encode_scale() {
  // expected-error @+1 {{scale must be positive and finite, got -1}}
  %p = rns.encode dense<0.5> : tensor<8xf64>, -1.0 : !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @encode_slots() {
  // expected-error @+1 {{slot count must be a power of two, got 6}}
  %p = rns.encode dense<0.5> : tensor<6xf64>, 2.0 : !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @encode_rank() {
  // expected-error @+1 {{value must be a 1-d tensor of slot values, got rank 2}}
  %p = rns.encode dense<0.5> : tensor<2x4xf64>, 2.0 : !rns.poly<ntt, q[0:2]>
  return
}

// -----

// An empty body has no terminator: the verifier must not ask for one.
func.func @fused_empty(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{body must end in rns.yield}}
  %r = rns.fused(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
  }
  return
}

// -----

// A 1-bit 1 is -1 read as signed (as printed and emitted), not the 1 that
// folds away: the constant must be a signless integer of at least 64 bits.
func.func @mul_const_i1(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{value must be a signless integer of at least 64 bits (read as signed), got type 'i1'}}
  %y = "rns.mul_const"(%x) <{value = 1 : i1}> : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @add_const_unsigned(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{value must be a signless integer of at least 64 bits (read as signed), got type 'ui64'}}
  %y = "rns.add_const"(%x) <{value = 7 : ui64}> : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @add_const_index(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{value must be a signless integer of at least 64 bits (read as signed), got type 'index'}}
  %y = "rns.add_const"(%x) <{value = 7 : index}> : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @add_const_coeff(%x: !rns.poly<coeff, q[0:2]>) -> !rns.poly<coeff, q[0:2]> {
  // expected-error @+1 {{operand must be in NTT form}}
  %y = rns.add_const %x, 5 : !rns.poly<coeff, q[0:2]>
  return %y : !rns.poly<coeff, q[0:2]>
}

// -----

func.func @mod_down_lifted_over_p(%x: !rns.poly<ntt, q[0:4], p[0:2]>) {
  // expected-error @+1 {{a lifted addend must be an NTT-form polynomial over the input's Q limbs}}
  %0 = rns.mod_down %x lifted(%x : !rns.poly<ntt, q[0:4], p[0:2]>) : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:3]>
  return
}

// -----

func.func @mod_down_too_many_lifted(%x: !rns.poly<ntt, q[0:4], p[0:2]>, %y: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{has more lifted addends than inputs}}
  %0 = rns.mod_down %x lifted(%y, %y : !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>) : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:3]>
  return
}

// -----

func.func @encapsulation_kind() {
  // expected-error @+1 {{encapsulation key must be to_sparse or from_sparse, got 'dense'}}
  %k = rns.load_key relin {encapsulation = "dense"} : !rns.evk<dnum = 1, q = 1, p = 1>
  return
}

// -----

func.func @encapsulation_shape() {
  // expected-error @+1 {{the to_sparse key is !rns.evk<dnum = 1, q = 1, p = 1> (a digit per limb of Q_0, and p_0), got '!rns.evk<dnum = 2, q = 4, p = 1>'}}
  %k = rns.load_key to_sparse : !rns.evk<dnum = 2, q = 4, p = 1>
  return
}

// -----

func.func @encapsulation_klss() {
  // expected-error @+1 {{encapsulation keys are hybrid (!rns.evk)}}
  %k = rns.load_key from_sparse : !rns.klss_evk<dnum = 2, groups = 2, t = 3>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1099504549889, 1099510054913, 1099508121601], P = [1152921504606748673], logScale = 40, dnum = 3, security = 0>} {
  func.func @relin_in_to_sparse_shape() {
    // expected-error @+1 {{key type '!rns.evk<dnum = 1, q = 1, p = 1>' does not match the module's parameters (dnum = 3, q = 3, p = 1)}}
    %k = rns.load_key relin : !rns.evk<dnum = 1, q = 1, p = 1>
    return
  }
}

// -----

// Under double-prime scaling a rescale drops the top pair, not one limb.
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521], logScale = 42, dnum = 7, security = 128, word = 32, scalePrimes = 2>} {
  func.func @rescale_one_of_a_pair(%x: !rns.poly<ntt, q[0:7]>) {
    // expected-error @+1 {{result must drop exactly the top pair of Q limbs (double-prime scaling), got}}
    %0 = rns.rescale %x : !rns.poly<ntt, q[0:7]> -> !rns.poly<ntt, q[0:6]>
    return
  }
}

// -----

// rns.bfv_tensor (BFV's product) takes the full Q in NTT form, under a BFV
// chain.
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  func.func @hps_not_full(%a: !rns.poly<ntt, q[0:1]>) {
    // expected-error @+1 {{takes polynomials over the full Q (q[0:2]), got}}
    %d0, %d1, %d2 = rns.bfv_tensor %a, %a, %a, %a : !rns.poly<ntt, q[0:1]>
    return
  }
}

// -----

func.func @hps_coeff(%a: !rns.poly<coeff, q[0:2]>) {
  // expected-error @+1 {{takes NTT-form polynomials over q[0:L+1]}}
  %d0, %d1, %d2 = rns.bfv_tensor %a, %a, %a, %a : !rns.poly<coeff, q[0:2]>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201], P = [2305843009213317121], logScale = 40, dnum = 2, security = 128, plain = 65537>} {
  func.func @hps_under_bgv(%a: !rns.poly<ntt, q[0:2]>) {
    // expected-error @+1 {{needs a BFV chain}}
    %d0, %d1, %d2 = rns.bfv_tensor %a, %a, %a, %a : !rns.poly<ntt, q[0:2]>
    return
  }
}

// -----

func.func @mod_down_galois_without_lifted(%x: !rns.poly<ntt, q[0:4], p[0:2]>) {
  // expected-error @+1 {{has lifted_galois but no lifted addend}}
  %0 = rns.mod_down %x {lifted_galois = 5 : i64} : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:4]>
  return
}

// -----

func.func @mod_down_galois_even(%x: !rns.poly<ntt, q[0:4], p[0:2]>, %y: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 4}}
  %0 = rns.mod_down %x lifted(%y : !rns.poly<ntt, q[0:4]>) {lifted_galois = 4 : i64} : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:4]>
  return
}

// -----

func.func @mod_down_galois_merged(%x: !rns.poly<ntt, q[0:4], p[0:2]>, %y: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{lifted_galois needs a plain ModDown (no Q limb dropped)}}
  %0 = rns.mod_down %x lifted(%y : !rns.poly<ntt, q[0:4]>) {lifted_galois = 5 : i64} : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:3]>
  return
}
