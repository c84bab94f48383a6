// RUN: ember-opt --fhe-to-bgv %s -split-input-file -verify-diagnostics

func.func @fraction(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  // expected-error @+1 {{BGV slots are integers modulo t; this constant holds 0.5}}
  %c = fhe.constant dense<0.5> : tensor<8xf64> -> !fhe.pt<8>
  %o = fhe.mul %x, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %o : !fhe.ct<8>
}

// -----

func.func @conj(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  // expected-error @+1 {{'fhe.conjugate' has no BGV lowering}}
  %o = fhe.conjugate %x : !fhe.ct<8>
  return %o : !fhe.ct<8>
}

// -----

// expected-error @+1 {{BGV programs take encrypted or plaintext integer vectors; argument 1 is 'tensor<8xf64>'}}
func.func @tensor_arg(%x: !fhe.ct<8>, %w: tensor<8xf64>) -> !fhe.ct<8> {
  return %x : !fhe.ct<8>
}
