
func.func @galois_type(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'galois' must be an integer attribute}}
  %y = kernel.call "automorphism"(%x) {galois = "five"} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

