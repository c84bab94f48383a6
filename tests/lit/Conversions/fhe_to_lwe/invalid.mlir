// fhe-to-lwe refuses what it cannot lower, at the op's location.
// RUN: ember-opt --fhe-to-lwe %s --split-input-file --verify-diagnostics

// expected-error @+1 {{fhe-to-lwe: an argument of type '!fhe.ct<4>' is not an encrypted integer}}
func.func @slots(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  return %x : !fhe.ct<4>
}

// -----

func.func @vector_op(%x: !fhe.eint<4>) -> !fhe.eint<4> {
  // expected-error @+1 {{fhe-to-lwe: 'fhe.constant' is not an operation on encrypted integers}}
  %c = fhe.constant dense<1.0> : tensor<4xf64> -> !fhe.pt<4>
  return %x : !fhe.eint<4>
}
