
func.func @encode_rank() {
  // expected-error @+1 {{value must be a 1-d tensor, got rank 2}}
  %p = ckks.encode dense<1.0> : tensor<2x4xf64> -> !ckks.pt<8, level = 1, scale = 2.0>
  return
}

