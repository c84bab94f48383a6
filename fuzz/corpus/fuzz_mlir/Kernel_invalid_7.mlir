
func.func @galois_even(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 4}}
  %y = kernel.call "automorphism"(%x) {galois = 4 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

