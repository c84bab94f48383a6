
func.func @encode_scale() {
  // expected-error @+1 {{scale must be positive and finite, got -1}}
  %p = rns.encode dense<0.5> : tensor<8xf64>, -1.0 : !rns.poly<ntt, q[0:2]>
  return
}

