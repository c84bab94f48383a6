
func.func @automorphism_even(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 4}}
  %0 = rns.automorphism %x, 4 : !rns.poly<ntt, q[0:2]>
  return
}

