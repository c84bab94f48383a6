// RUN: ember-opt --ckks-to-rns %s -split-input-file -verify-diagnostics

// The lowering needs the modulus chain of #ckks.params.
// expected-error @+1 {{ckks-to-rns needs the module's #ckks.params}}
module {
  func.func @f(%c: !ckks.ct<8, level = 1, scale = 1099511627776.0>) -> !ckks.ct<8, level = 1, scale = 1099511627776.0> {
    return %c : !ckks.ct<8, level = 1, scale = 1099511627776.0>
  }
}
