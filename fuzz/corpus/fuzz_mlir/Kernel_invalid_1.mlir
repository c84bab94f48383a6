
func.func @automorphism_without_galois(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{automorphism needs a 'galois' attribute}}
  %y = kernel.call "automorphism"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

