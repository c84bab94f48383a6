
func.func @encode_scale() {
  // expected-error @+1 {{'scale' must be positive and finite, got 0}}
  %y = kernel.call "encode"() {value = dense<1.0> : tensor<8xf64>, scale = 0.0 : f64} : () -> !rns.poly<ntt, q[0:2]>
  return
}

