// Every encrypted-integer verifier, one error each.
// RUN: ember-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{an encrypted integer has 1 to 32 bits, got 33}}
func.func @too_wide(%x: !fhe.eint<33>) {
  return
}

// -----

func.func @constant_range() {
  // expected-error @+1 {{value 256 does not fit '!fhe.eint<8>'}}
  %c = fhe.int_constant 256 : !fhe.eint<8>
  return
}

// -----

func.func @signed_range() {
  // expected-error @+1 {{value 8 does not fit '!fhe.esint<4>'}}
  %c = fhe.int_constant 8 : !fhe.esint<4>
  return
}

// -----

func.func @predicate(%x: !fhe.eint<4>) {
  // expected-error @+1 {{unknown predicate 'below' (eq, ne, lt, le, gt, ge)}}
  %c = fhe.int_cmp "below", %x, %x : !fhe.eint<4> -> !fhe.eint<1>
  return
}

// -----

func.func @cmp_result(%x: !fhe.eint<4>) {
  // expected-error @+1 {{gives an encrypted bit (!fhe.eint<1>), not '!fhe.eint<2>'}}
  %c = fhe.int_cmp "eq", %x, %x : !fhe.eint<4> -> !fhe.eint<2>
  return
}

// -----

func.func @lut_size(%x: !fhe.eint<2>) {
  // expected-error @+1 {{the table has 3 entries, 2^2 = 4 needed}}
  %c = fhe.int_lut %x [0, 1, 2] : !fhe.eint<2> -> !fhe.eint<2>
  return
}

// -----

func.func @lut_entry(%x: !fhe.eint<1>) {
  // expected-error @+1 {{entry 1 = 4 does not fit '!fhe.eint<2>'}}
  %c = fhe.int_lut %x [0, 4] : !fhe.eint<1> -> !fhe.eint<2>
  return
}
