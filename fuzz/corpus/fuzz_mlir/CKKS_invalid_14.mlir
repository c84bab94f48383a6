
func.func @encode_length() {
  // expected-error @+1 {{value has 3 elements but the result has 8 slots}}
  %p = ckks.encode dense<[1.0, 2.0, 3.0]> : tensor<3xf64> -> !ckks.pt<8, level = 1, scale = 2.0>
  return
}

