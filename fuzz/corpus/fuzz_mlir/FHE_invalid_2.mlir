
func.func @constant_rank(%x: !fhe.ct<4>) {
  // expected-error @+1 {{value must be a 1-d tensor, got rank 2}}
  %c = fhe.constant dense<1.0> : tensor<2x2xf64> -> !fhe.pt<4>
  return
}

