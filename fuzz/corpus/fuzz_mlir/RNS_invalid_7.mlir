
func.func @intt_basis(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{must keep the basis}}
  %0 = rns.intt %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<coeff, q[0:3]>
  return
}

