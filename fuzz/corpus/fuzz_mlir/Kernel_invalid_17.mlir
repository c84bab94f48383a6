
func.func @offsets_negative(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'offsets' must be non-negative}}
  %y = kernel.call "ntt"(%x) {offsets = array<i64: -8>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

