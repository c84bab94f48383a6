
func.func @mul_p_bad(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{result must be the input's basis extended by P}}
  %0 = rns.mul_p %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:3], p[0:1]>
  return
}

