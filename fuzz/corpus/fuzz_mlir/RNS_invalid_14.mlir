
func.func @rescale_p(%x: !rns.poly<ntt, q[0:3], p[0:1]>) {
  // expected-error @+1 {{input must be over Q only and in NTT form}}
  %0 = rns.rescale %x : !rns.poly<ntt, q[0:3], p[0:1]> -> !rns.poly<ntt, q[0:2], p[0:1]>
  return
}

