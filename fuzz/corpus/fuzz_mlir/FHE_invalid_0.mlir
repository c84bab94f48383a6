// Every fhe verifier, one error each.
// RUN: ember-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{slot count must be positive, got 0}}
func.func @zero_slots(%x: !fhe.ct<0>) {
  return
}

