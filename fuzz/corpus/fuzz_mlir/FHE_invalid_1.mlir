
func.func @constant_length(%x: !fhe.ct<4>) {
  // expected-error @+1 {{value has 3 elements but the result has 4 slots}}
  %c = fhe.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64> -> !fhe.pt<4>
  return
}

