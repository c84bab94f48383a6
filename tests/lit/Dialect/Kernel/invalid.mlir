// RUN: ember-opt %s --split-input-file --verify-diagnostics

func.func @unknown(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{unknown runtime primitive 'fft'}}
  %y = kernel.call "fft"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @automorphism_without_galois(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{automorphism needs a 'galois' attribute}}
  %y = kernel.call "automorphism"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @view_out_of_range(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[1:3]> {
  // expected-error @+1 {{limb range [1:2] does not fit}}
  %y = kernel.view %x[1:2] : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[1:3]>
  return %y : !rns.poly<ntt, q[1:3]>
}

// -----

func.func @launch_arity(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{body takes 2 arguments for 1 inputs}}
  %y = kernel.launch "k0"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<ntt, q[0:2]>):
    kernel.yield %a : !rns.poly<ntt, q[0:2]>
  }
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

// An empty body has no terminator: the verifier must not ask for one.
func.func @launch_empty(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{body must yield one value per result}}
  %y = kernel.launch "k0"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
  }
  return
}

// -----

// first + count would overflow int64.
func.func @view_overflow(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{limb range [9223372036854775807:1] does not fit}}
  %y = kernel.view %x[9223372036854775807:1] : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[1:2]>
  return
}

// -----

func.func @galois_type(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'galois' must be an integer attribute}}
  %y = kernel.call "automorphism"(%x) {galois = "five"} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @galois_even(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 4}}
  %y = kernel.call "automorphism"(%x) {galois = 4 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @key_galois_past_2n() {
    // expected-error @+1 {{Galois element 2049 must be below 2N = 2048}}
    %k = kernel.call "load_key"() {galois = 2049 : i64} : () -> !rns.evk<dnum = 2, q = 2, p = 1>
    return
  }
}

// -----

func.func @digits_type(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'digits' must be an array<i64> of digit indices}}
  %y = kernel.call "mod_up"(%x) {digits = 0 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2], p[0:1]>
  return
}

// -----

func.func @digits_count(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{mod_up has 2 digits for 1 results}}
  %y = kernel.call "mod_up"(%x) {digits = array<i64: 0, 1>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2], p[0:1]>
  return
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @digit_past_dnum(%x: !rns.poly<ntt, q[0:2]>) {
    // expected-error @+1 {{digit index 2 is outside 0..1}}
    %y = kernel.call "mod_up"(%x) {digits = array<i64: 2>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2], p[0:1]>
    return
  }
}

// -----

module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @result_past_chain(%x: !rns.poly<ntt, q[0:2]>) {
    // expected-error @+1 {{type '!rns.poly<ntt, q[0:3]>' reaches past q1}}
    %y = kernel.call "ntt"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:3]>
    return
  }
}

// -----

func.func @klss_level(%k: !rns.klss_evk<dnum = 1, groups = 1, t = 1>, %d: !rns.poly<ntt, t[0:1]>) {
  // expected-error @+1 {{level -1 is outside 0..}}
  %a:2 = kernel.call "klss_inner_product"(%k, %d) {level = -1 : i64} : (!rns.klss_evk<dnum = 1, groups = 1, t = 1>, !rns.poly<ntt, t[0:1]>) -> (!rns.poly<coeff, q[0:1], p[0:1]>, !rns.poly<coeff, q[0:1], p[0:1]>)
  return
}

// -----

func.func @encode_missing_value() {
  // expected-error @+1 {{encode needs a dense 'value' of slot values and a float 'scale', and gives one polynomial}}
  %y = kernel.call "encode"() {scale = 2.0 : f64} : () -> !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @encode_scale() {
  // expected-error @+1 {{'scale' must be positive and finite, got 0}}
  %y = kernel.call "encode"() {value = dense<1.0> : tensor<8xf64>, scale = 0.0 : f64} : () -> !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @offsets_count(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'offsets' has 2 entries for 1 polynomial results}}
  %y = kernel.call "ntt"(%x) {offsets = array<i64: 0, 8>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @offsets_negative(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'offsets' must be non-negative}}
  %y = kernel.call "ntt"(%x) {offsets = array<i64: -8>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

// -----

func.func @launch_bytes(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'bytes' must be non-negative, got -1}}
  %y = kernel.launch "k0"(%x) {bytes = -1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
    kernel.yield %a : !rns.poly<ntt, q[0:2]>
  }
  return
}

// -----

// expected-error @+1 {{'kernel.arena_bytes' must be a non-negative integer}}
func.func @arena_negative() attributes {kernel.arena_bytes = -1 : i64} {
  return
}

// -----

// expected-error @+1 {{'kernel.arg_offsets' must be an array<i64> of non-negative offsets}}
func.func @arg_offsets_type() attributes {kernel.arg_offsets = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{unknown kernel attribute 'kernel.arena'}}
func.func @unknown_attr() attributes {kernel.arena = 3 : i64} {
  return
}

// -----

func.func @transfer_to_itself(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{transfer to its own device 1}}
  %y = kernel.call "transfer"(%x) {device = 1, to = 1} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @transfer_without_to(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{transfer needs a non-negative integer 'to' device}}
  %y = kernel.call "transfer"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @transfer_changes_type(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:1]> {
  // expected-error @+1 {{transfer moves one polynomial to another device (same type)}}
  %y = kernel.call "transfer"(%x) {to = 1} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:1]>
  return %y : !rns.poly<ntt, q[0:1]>
}

// -----

func.func @negative_device(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{'device' must be a non-negative integer}}
  %y = kernel.call "ntt"(%x) {device = -1} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @mod_switch_down_galois_without_lifted(%x: !rns.poly<ntt, q[0:2], p[0:1]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{mod_switch_down's 'galois' permutes lifted addends: it needs some, and no dropped Q limb}}
  %y = kernel.call "mod_switch_down"(%x) {galois = 5 : i64} : (!rns.poly<ntt, q[0:2], p[0:1]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @mod_switch_down_galois_merged(%x: !rns.poly<ntt, q[0:2], p[0:1]>, %c: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:1]> {
  // expected-error @+1 {{mod_switch_down's 'galois' permutes lifted addends: it needs some, and no dropped Q limb}}
  %y = kernel.call "mod_switch_down"(%x, %c) {galois = 5 : i64} : (!rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:1]>
  return %y : !rns.poly<ntt, q[0:1]>
}

// -----

func.func @mod_switch_down_galois_even(%x: !rns.poly<ntt, q[0:2], p[0:1]>, %c: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 4}}
  %y = kernel.call "mod_switch_down"(%x, %c) {galois = 4 : i64} : (!rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @overlap_without_its_inner_product(%x: !rns.poly<ntt, q[0:2], p[0:1]>, %y: !rns.poly<ntt, q[0:2], p[0:1]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'overlap' marks a mod_switch_down of two parts right after the ks_inner_product whose results it switches down}}
  %m:2 = kernel.call "mod_switch_down"(%x, %y) {overlap} : (!rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2], p[0:1]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>)
  return %m#0, %m#1 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
}

// -----

func.func @overlap_on_an_inner_product(%d: !rns.poly<ntt, q[0:2], p[0:1]>) -> (!rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2], p[0:1]>) {
  %k = kernel.call "load_key"() : () -> !rns.evk<dnum = 2, q = 2, p = 1>
  // expected-error @+1 {{'overlap' marks a mod_switch_down of two parts right after the ks_inner_product whose results it switches down}}
  %a:2 = kernel.call "ks_inner_product"(%k, %d) {overlap} : (!rns.evk<dnum = 2, q = 2, p = 1>, !rns.poly<ntt, q[0:2], p[0:1]>) -> (!rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2], p[0:1]>)
  return %a#0, %a#1 : !rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2], p[0:1]>
}
