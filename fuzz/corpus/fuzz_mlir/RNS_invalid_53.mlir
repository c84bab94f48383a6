
func.func @encode_rank() {
  // expected-error @+1 {{value must be a 1-d tensor of slot values, got rank 2}}
  %p = rns.encode dense<0.5> : tensor<2x4xf64>, 2.0 : !rns.poly<ntt, q[0:2]>
  return
}

