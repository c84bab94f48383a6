
func.func @encode_slots() {
  // expected-error @+1 {{slot count must be a power of two, got 6}}
  %p = rns.encode dense<0.5> : tensor<6xf64>, 2.0 : !rns.poly<ntt, q[0:2]>
  return
}

