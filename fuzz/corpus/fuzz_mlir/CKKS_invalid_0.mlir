// Every ckks verifier (types, #ckks.params, ops), one error each.
// RUN: ember-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{degree must be 2 or 3, got 4}}
func.func @bad_degree(%x: !ckks.ct<8, level = 1, scale = 1099511627776.0, degree = 4>) {
  return
}

