// Every fhe verifier, one error each.
// RUN: ember-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{slot count must be positive, got 0}}
func.func @zero_slots(%x: !fhe.ct<0>) {
  return
}

// -----

func.func @constant_length(%x: !fhe.ct<4>) {
  // expected-error @+1 {{value has 3 elements but the result has 4 slots}}
  %c = fhe.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64> -> !fhe.pt<4>
  return
}

// -----

func.func @constant_rank(%x: !fhe.ct<4>) {
  // expected-error @+1 {{value must be a 1-d tensor, got rank 2}}
  %c = fhe.constant dense<1.0> : tensor<2x2xf64> -> !fhe.pt<4>
  return
}

// -----

func.func @plain_only(%p: !fhe.pt<4>, %q: !fhe.pt<4>) {
  // expected-error @+1 {{needs at least one encrypted operand}}
  %c = fhe.add %p, %q : (!fhe.pt<4>, !fhe.pt<4>) -> !fhe.ct<4>
  return
}

// -----

func.func @slot_mismatch(%x: !fhe.ct<4>, %y: !fhe.ct<8>) {
  // expected-error @+1 {{slot counts differ: 4, 8 -> 4}}
  %c = fhe.mul %x, %y : (!fhe.ct<4>, !fhe.ct<8>) -> !fhe.ct<4>
  return
}

// -----

func.func @rotate_range(%x: !fhe.ct<4>) {
  // expected-error @+1 {{offset 4 is outside (-4, 4)}}
  %r = fhe.rotate %x by 4 : !fhe.ct<4>
  return
}

// -----

func.func @unary_type(%x: !fhe.ct<4>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %r = "fhe.neg"(%x) : (!fhe.ct<4>) -> !fhe.ct<8>
  return
}

// -----

// Issue 11: !fhe.ct<7> reached the manifest.
// expected-error @+1 {{slot count must be a power of two, got 7}}
func.func @odd_slots(%x: !fhe.ct<7>) {
  return
}

// -----

// expected-error @+1 {{slot count must be a power of two, got 12}}
func.func @plain_slots(%x: !fhe.pt<12>) {
  return
}

// -----

// More than N/2 of the largest ring (N = 2^17).
// expected-error @+1 {{slot count 131072 exceeds 65536 (N/2 of the largest ring, N = 2^17)}}
func.func @too_many_slots(%x: !fhe.ct<131072>) {
  return
}

// -----

func.func @tile_not_a_multiple(%x: !fhe.ct<8>) {
  // expected-error @+1 {{tiles 8 slots to 4; the result must be a multiple}}
  %t = fhe.tile %x : !fhe.ct<8> -> !fhe.ct<4>
  return
}

// -----

func.func @untile_not_a_divisor(%x: !fhe.ct<8>) {
  // expected-error @+1 {{reads 8 slots at a period of 16; the result's slot count must divide the input's}}
  %t = fhe.untile %x : !fhe.ct<8> -> !fhe.ct<16>
  return
}

// -----

func.func @mod_raise_fewer_slots(%x: !fhe.ct<8>) {
  // expected-error @+1 {{reads 8 slots raised at 4; the result's slot count must be a multiple of the input's}}
  %r = fhe.mod_raise %x : !fhe.ct<8> -> !fhe.ct<4>
  return
}

// -----

func.func @constant_of_integers() {
  // expected-error @+1 {{attribute 'value' failed to satisfy constraint: dense f64 or complex<f64> slot values}}
  %c = fhe.constant dense<1> : tensor<8xi64> -> !fhe.pt<8>
  return
}

// -----

func.func @poly_basis(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{basis must be "chebyshev" or "power", got "legendre"}}
  %y = fhe.poly_eval %x "legendre" [0.0, 1.0] on [-1.0, 1.0] : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @poly_constant(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{needs a polynomial of degree at least 1 (nonzero coefficients past the constant), got 3 coefficients}}
  %y = fhe.poly_eval %x "chebyshev" [2.0, 0.0, 0.0] on [-1.0, 1.0] : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @poly_interval(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{interval must be [lo, hi] with finite lo < hi}}
  %y = fhe.poly_eval %x "chebyshev" [0.0, 1.0] on [1.0, -1.0] : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @poly_power_interval(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{the power basis takes no interval (it must be [-1.0, 1.0])}}
  %y = fhe.poly_eval %x "power" [0.0, 1.0] on [0.0, 2.0] : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @poly_nan(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{coefficient 1 is not finite}}
  %y = fhe.poly_eval %x "chebyshev" [0.0, 0x7FF8000000000000, 1.0] on [-1.0, 1.0] : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @lt_shape(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{diagonals must be a 2x4 tensor (one row of slot values per offset)}}
  %y = fhe.linear_transform %x by [0, 1] diagonals dense<1.0> : tensor<2x8xf64> : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @lt_offset(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{offset 4 is outside [0, 4)}}
  %y = fhe.linear_transform %x by [0, 4] diagonals dense<1.0> : tensor<2x4xf64> : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @lt_twice(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{offset 1 appears twice}}
  %y = fhe.linear_transform %x by [1, 1] diagonals dense<1.0> : tensor<2x4xf64> : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @lt_zero(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{diagonal 1 (offset 2) is all zero: drop it}}
  %y = fhe.linear_transform %x by [0, 2] diagonals dense<[[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<2x4xf64> : !fhe.ct<4>
  return %y : !fhe.ct<4>
}

// -----

func.func @lt_baby(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{baby must be in [0, 4], got 8}}
  %y = fhe.linear_transform %x by [0] diagonals dense<1.0> : tensor<1x4xf64> {baby = 8 : i64} : !fhe.ct<4>
  return %y : !fhe.ct<4>
}
