// Malformed fhe.range attributes are refused by the fhe dialect's verifier;
// an op that produces fhe values without a range rule is an error of the
// analysis (no_rule.mlir).
// RUN: ember-opt --split-input-file --verify-diagnostics %s

// expected-error @+1 {{argument 0: 'fhe.range' needs finite bounds with lo <= hi, got [2.000000e+00, 1.000000e+00]}}
func.func @reversed(%x: !fhe.ct<4> {fhe.range = [2.0, 1.0]}) -> !fhe.ct<4> {
  return %x : !fhe.ct<4>
}

// -----

// expected-error @+1 {{argument 0: 'fhe.range' must be [lo, hi] or [re_lo, re_hi, im_lo, im_hi] (floats), got [1.000000e+00, 2.000000e+00, 3.000000e+00]}}
func.func @three(%x: !fhe.ct<4> {fhe.range = [1.0, 2.0, 3.0]}) -> !fhe.ct<4> {
  return %x : !fhe.ct<4>
}

// -----

// expected-error @+1 {{argument 0: 'fhe.range' must be [lo, hi] or [re_lo, re_hi, im_lo, im_hi] (floats), got [-1, 1]}}
func.func @integers(%x: !fhe.ct<4> {fhe.range = [-1, 1]}) -> !fhe.ct<4> {
  return %x : !fhe.ct<4>
}

// -----

func.func @constant(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{'fhe.add' op 'fhe.range' needs finite bounds with lo <= hi}}
  %a = fhe.add %x, %x {fhe.range = [0x7FF0000000000000 : f64, 1.0]} : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  return %a : !fhe.ct<4>
}
